//! Incremental reading of line-based logs (`.jsonl` mutation logs and Copilot transcripts).
//!
//! The host hands over bytes as a file grows; [`LineLog`] cuts them into lines and passes each
//! complete line to a [`LineSink`] exactly once, so applying an append costs time proportional to
//! the appended bytes, not to the file. A trailing partial line (the writer is mid-write) is kept
//! and finished by the next append; if it already parses on its own it is applied tentatively
//! and not applied twice (JSON lines only: a Markdown line waits for its newline). A line that
//! fails to parse is skipped with a diagnostic and never stops the lines after it.

use memchr::memchr;

use super::record::Diags;

/// How many of the most recent bytes are kept to check, on the next append, that the file was
/// not rewritten in the meantime.
pub(crate) const OVERLAP: usize = 64;

/// Something that applies log lines to a reduced state.
pub(crate) trait LineSink {
    /// Parses and applies one complete, non-blank line. `Ok(true)` when the state changed; `Err`
    /// (a short reason) when the line was skipped, in which case the state must be unchanged.
    fn apply_line(&mut self, line: &str) -> Result<bool, String>;

    /// Called for a complete line that was skipped (`apply_line` failed with `reason`): a sink may
    /// keep the line's place (an empty request where the line would have added one), so that a line
    /// that cannot be read never renumbers the requests after it. `true` when the state changed.
    fn keep_place(&mut self, _line: &[u8]) -> bool {
        false
    }

    /// Called for a blank line (a JSON log has none that matter; Aider's Markdown ends a message
    /// with one).
    fn blank_line(&mut self) {}

    /// Whether a last line without its newline may be read when it already reads on its own: a
    /// JSON object is whole at its closing brace (VS Code's reader applies it), a Markdown line
    /// only at its newline (any prefix of it reads, and the finished line would be read again).
    fn reads_partial_lines(&self) -> bool {
        true
    }

    /// Called when a line starts over from a complete state (`kind: 0`): earlier diagnostics no
    /// longer describe anything and can be dropped.
    fn take_reset(&mut self) -> bool {
        false
    }

    /// Brings `dialog` up to date with the state; `true` when something visible changed.
    /// `extra_diags` are the log's own diagnostics (skipped lines, a cut-off last line).
    fn refresh(
        &mut self,
        dialog: &mut super::model::Dialog,
        file_name: &str,
        extra_diags: Vec<String>,
    ) -> bool;

    /// How many requests the log holds so far.
    fn request_count(&self) -> usize;

    /// The markdown and tool-call count of the response at 0-based `position`, when the sink
    /// was made to keep it (the details path, `response_details`).
    fn details_of(&self, position: usize) -> Option<(String, usize)>;
}

/// Cuts a growing byte stream into lines for a [`LineSink`].
#[derive(Debug, Clone)]
pub(crate) struct LineLog<S> {
    pub sink: S,
    /// Complete lines seen so far (line numbers in diagnostics are 1-based).
    lines: u64,
    /// Stream offset just after the last byte fed.
    end: u64,
    /// Bytes after the last newline.
    pending: Vec<u8>,
    /// Whether `pending` parsed on its own and was applied already.
    pending_applied: bool,
    /// Why `pending` is not applied, shown as a diagnostic while it lasts.
    pending_note: Option<String>,
    /// The last [`OVERLAP`] bytes fed.
    recent: Vec<u8>,
    /// Skipped lines.
    pub diags: Diags,
    /// The sink reached [`super::MAX_REQUESTS`]: later lines are not applied.
    capped: bool,
}

fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

fn looks_complete(line: &[u8]) -> bool {
    line.iter()
        .rev()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        == Some(&b'}')
}

impl<S: LineSink> LineLog<S> {
    pub(crate) fn new(sink: S) -> Self {
        LineLog {
            sink,
            lines: 0,
            end: 0,
            pending: Vec::new(),
            pending_applied: false,
            pending_note: None,
            recent: Vec::new(),
            diags: Diags::default(),
            capped: false,
        }
    }

    /// Stream offset after the last byte fed (what the host has read so far).
    pub(crate) fn end(&self) -> u64 {
        self.end
    }

    /// Why the trailing partial line is not applied, if there is one.
    pub(crate) fn pending_note(&self) -> Option<&str> {
        self.pending_note.as_deref()
    }

    /// The offset to ask the host to read from on the next append: a few bytes before the end so
    /// that [`LineLog::check_overlap`] can tell an append from a rewrite.
    pub(crate) fn resume_offset(&self) -> u64 {
        self.end - self.recent.len() as u64
    }

    /// Given bytes read from `offset`, returns how many leading bytes repeat what was already fed
    /// (to be skipped), or `None` when they do not match (the file was rewritten) or the offset
    /// leaves a gap.
    pub(crate) fn check_overlap(&self, offset: u64, bytes: &[u8]) -> Option<usize> {
        if offset > self.end {
            return None;
        }
        let repeat = usize::try_from(self.end - offset).ok()?;
        if repeat > self.recent.len() || repeat > bytes.len() {
            return None;
        }
        let ours = &self.recent[self.recent.len() - repeat..];
        (ours == &bytes[..repeat]).then_some(repeat)
    }

    /// Feeds the next bytes of the stream. Returns whether the sink's state or the diagnostics
    /// changed.
    pub(crate) fn feed(&mut self, mut bytes: &[u8]) -> bool {
        let mut changed = false;
        self.end += bytes.len() as u64;
        if bytes.len() >= OVERLAP {
            self.recent.clear();
            self.recent
                .extend_from_slice(&bytes[bytes.len() - OVERLAP..]);
        } else {
            self.recent.extend_from_slice(bytes);
            let excess = self.recent.len().saturating_sub(OVERLAP);
            self.recent.drain(..excess);
        }
        if self.lines == 0 && self.pending.is_empty() && self.end == bytes.len() as u64 {
            if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()) {
                bytes = rest;
            }
        }
        // Finish the pending partial line first.
        if !self.pending.is_empty() {
            match memchr(b'\n', bytes) {
                None => {
                    let had_applied = self.pending_applied;
                    self.pending.extend_from_slice(bytes);
                    if had_applied && !is_blank(bytes) {
                        // Bytes were added to a line that already parsed: it will fail when it
                        // ends; nothing to apply now.
                        self.pending_applied = false;
                    }
                    if !self.pending_applied {
                        changed |= self.try_pending();
                    }
                    return changed;
                }
                Some(at) => {
                    let (head, rest) = bytes.split_at(at);
                    bytes = &rest[1..];
                    let mut line = std::mem::take(&mut self.pending);
                    let already = self.pending_applied && is_blank(head);
                    line.extend_from_slice(head);
                    self.pending_applied = false;
                    changed |= self.pending_note.take().is_some();
                    self.lines += 1;
                    if !already {
                        changed |= self.run_line(&line);
                    }
                }
            }
        }
        while let Some(at) = memchr(b'\n', bytes) {
            let (line, rest) = bytes.split_at(at);
            bytes = &rest[1..];
            self.lines += 1;
            changed |= self.run_line(line);
        }
        if !bytes.is_empty() {
            self.pending.extend_from_slice(bytes);
            changed |= self.try_pending();
        }
        changed
    }

    /// Applies one complete line, recording a diagnostic when it is skipped.
    fn run_line(&mut self, line: &[u8]) -> bool {
        match self.apply(line) {
            Ok(changed) => changed,
            Err(reason) => {
                self.diags
                    .push(format!("line {} skipped: {reason}", self.lines));
                self.sink.keep_place(line);
                true
            }
        }
    }

    /// Tries the partial last line on its own: if it already is a whole JSON object, apply it now
    /// (VS Code's reader would); otherwise wait for the rest.
    fn try_pending(&mut self) -> bool {
        let line_no = self.lines + 1;
        if is_blank(&self.pending) {
            return false;
        }
        let before = self.pending_note.clone();
        if let Err(e) = std::str::from_utf8(&self.pending) {
            // An incomplete sequence at the very end may still be completed; a bad byte cannot.
            if e.error_len().is_some() {
                self.pending_note = Some(format!(
                    "line {line_no} is not valid UTF-8 (bad byte at column {}); showing the state before it",
                    e.valid_up_to() + 1
                ));
                return self.pending_note != before;
            }
        }
        if self.sink.reads_partial_lines() && looks_complete(&self.pending) {
            let pending = std::mem::take(&mut self.pending);
            let result = self.apply(&pending);
            self.pending = pending;
            match result {
                Ok(changed) => {
                    self.pending_applied = true;
                    self.pending_note = None;
                    return changed || before.is_some();
                }
                Err(reason) => {
                    self.pending_note = Some(format!(
                        "line {line_no} is incomplete or unreadable ({reason}); showing the state before it"
                    ));
                }
            }
        } else {
            self.pending_note = Some(format!(
                "line {line_no} is cut off (still being written?); showing the state before it"
            ));
        }
        self.pending_note != before
    }

    fn apply(&mut self, line: &[u8]) -> Result<bool, String> {
        if is_blank(line) {
            self.sink.blank_line();
            return Ok(false);
        }
        if self.sink.request_count() >= super::MAX_REQUESTS {
            // What the core keeps grows with the requests: past the cap, lines are cut but not read.
            if !self.capped {
                self.capped = true;
                self.diags.push(format!(
                    "{}; lines from {} on are not read",
                    super::request_cap_note(),
                    self.lines.max(1)
                ));
                return Ok(true);
            }
            return Ok(false);
        }
        let text = super::utf8_line(line).map_err(|e| {
            format!(
                "not valid UTF-8 (bad byte at column {})",
                e.valid_up_to() + 1
            )
        })?;
        // A lone surrogate escape reads as U+FFFD instead of losing the line (`surrogates`).
        let changed = self.sink.apply_line(&super::surrogates::mend_str(text))?;
        if self.sink.take_reset() {
            self.diags.clear();
        }
        Ok(changed)
    }
}

/// Whether a log line holds a JSON object (`Ok(true)`) or nothing (`Ok(false)`: a blank line);
/// another JSON kind is the line's error, naming `what` it should be ("a mutation object").
pub(crate) fn object_line(text: &str, what: &str) -> Result<bool, String> {
    match super::de::json_kind_of(text) {
        Some("an object") => Ok(true),
        Some(other) => Err(format!("the line is {other}, not {what}")),
        None => Ok(false),
    }
}

/// A line parse error as a short reason (serde_json's message with the column, without the line
/// number, which is always 1 here).
pub(crate) fn line_error(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let text = error.to_string();
    let message = match text.rfind(" at line ") {
        Some(cut) => &text[..cut],
        None => text.as_str(),
    };
    match error.classify() {
        Category::Eof => format!("cut off at column {}", error.column()),
        _ => format!("malformed JSON at column {}: {message}", error.column()),
    }
}
