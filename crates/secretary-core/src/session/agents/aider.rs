//! Aider (PyPI `aider-chat`): `.aider.chat.history.md` in the folder Aider ran in (the git
//! repository's root; the folder itself with `--no-git`), a Markdown log it only appends to
//! (measured with aider-chat 0.86.2 running offline). `--chat-history-file` /
//! `AIDER_CHAT_HISTORY_FILE` move it.
//!
//! Every run appends `# aider chat started at YYYY-MM-DD HH:MM:SS` (local time, no zone), then
//! Aider's own output as `> ` quoted lines (the command line, `Model: ...`, tool output), each
//! message the person typed as `#### ` lines (a message of several lines is several `#### ` lines
//! in a row, a blank line after it) and the model's answers as plain Markdown. A request is a
//! `#### ` message, except Aider's own commands (`/add`, `/drop`, `/run`, `!cmd`, ...) and an empty
//! input (`<blank>`). A command that sends words to the model (`/ask <words>`, `/code`,
//! `/architect`) is logged twice, the command and then the words as their own `#### ` message: the
//! words are the request, the command line is not (measured with `/ask`).
//!
//! One file holds every run in that folder: it is read as one dialog, whose folder is the file's
//! folder and whose id is derived from the file's path (the file names no session). A request's
//! time is its run's start, read as UTC (Aider writes local time without a zone).

use super::Common;

/// The file name Aider gives its chat history.
pub(crate) const FILE_NAME: &str = ".aider.chat.history.md";

/// Whether `file_name` is an Aider chat history (by its name: the content is free Markdown).
pub(crate) fn detect(file_name: &str) -> bool {
    file_name
        .rsplit(['/', '\\'])
        .next()
        .is_some_and(|base| base.eq_ignore_ascii_case(FILE_NAME))
}

/// Whether a typed message is a request to the model: not one of Aider's commands (`/name`, or
/// `!` for a shell command; the words a prompting command sends follow as their own message) and
/// not an empty input.
fn is_request(text: &str) -> bool {
    let trimmed = text.trim();
    !(trimmed.is_empty() || trimmed == "<blank>" || trimmed.starts_with(['/', '!']))
}

/// The time of a `# aider chat started at YYYY-MM-DD HH:MM:SS` header, read as UTC.
fn started_at(rest: &str) -> Option<i64> {
    let rest = rest.trim();
    let (date, time) = rest.split_once(' ')?;
    super::super::time::parse_iso_ms(&format!("{date}T{}Z", time.trim()))
}

/// A stable session id for the file at `file_name`: `aider-` and 16 hex digits of the FNV-1a hash
/// of its path (the log names no session; the path keeps two folders' histories apart).
pub(crate) fn session_id_of(file_name: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in file_name.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("aider-{hash:016x}")
}

/// The folder that holds `file_name` (the folder Aider ran in).
fn folder_of(file_name: &str) -> Option<String> {
    let cut = file_name.rfind(['/', '\\'])?;
    let folder = &file_name[..cut];
    if folder.is_empty() {
        return Some(file_name[..1].to_string());
    }
    // `C:` alone is the drive's current folder, not its root.
    if folder.len() == 2 && folder.ends_with(':') {
        return Some(file_name[..3].to_string());
    }
    Some(folder.to_string())
}

/// What the line before was, for joining a message's `#### ` lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    Other,
    /// A `#### ` line that became (part of) the last request.
    Request,
    /// A `#### ` line that was one of Aider's commands, or part of one.
    Command,
}

/// The reduced state of an Aider chat history.
#[derive(Debug, Clone)]
pub(crate) struct AiderState {
    pub common: Common,
    last: Last,
    /// The `#### ` lines of the message being read (a message may span several lines).
    message: Vec<String>,
    /// The current run's start.
    run_start: Option<i64>,
}

impl AiderState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        AiderState {
            common: Common::new(details),
            last: Last::Other,
            message: Vec::new(),
            run_start: None,
        }
    }

    /// Every non-blank line is Markdown Aider wrote: nothing is ever refused, a line Aider does
    /// not write (a person's edit) is read as answer text.
    pub(crate) fn apply_line(&mut self, line: &str) -> Result<bool, String> {
        // Aider ends its own lines with two spaces (a Markdown line break).
        let line = line.trim_end_matches(['\r', ' ']);
        let c = &mut self.common;
        c.events += 1;
        if let Some(rest) = line
            .strip_prefix("#### ")
            .or(line.strip_prefix("####").filter(|r| r.is_empty()))
        {
            return Ok(self.typed(rest));
        }
        let was = std::mem::replace(&mut self.last, Last::Other);
        if was != Last::Other {
            self.message.clear();
        }
        let c = &mut self.common;
        if let Some(rest) = line.strip_prefix("# aider chat started at ") {
            let ts = started_at(rest);
            self.run_start = ts;
            if c.start.is_none() {
                c.start = ts;
            }
            c.seen_at(ts);
            // A new run: what came before is over.
            c.end_turn();
            return Ok(true);
        }
        if let Some(rest) = line.strip_prefix("> ") {
            // Aider's own output; the model it runs is named once per run.
            let rest = rest.trim();
            if let Some(model) = rest
                .strip_prefix("Model: ")
                .or_else(|| rest.strip_prefix("Main model: "))
                .and_then(|m| m.split(" with ").next())
                .map(str::trim)
                .filter(|m| !m.is_empty() && m.len() <= 200)
            {
                let changed = c.model.as_deref() != Some(model);
                c.model = Some(model.to_string());
                return Ok(changed);
            }
            if c.wants_details() && rest.starts_with("Applied edit to ") {
                if let Some(turn) = c.turns.last_mut() {
                    turn.tool_calls += 1;
                }
            }
            return Ok(false);
        }
        if line.trim() == ">" {
            return Ok(false);
        }
        // The model's answer.
        let text = c.wants_details().then(|| line.to_string());
        Ok(c.answered(None, text))
    }

    /// A blank line ends the message being read.
    pub(crate) fn blank_line(&mut self) {
        self.last = Last::Other;
        self.message.clear();
    }

    /// A `#### ` line: a new message, or the next line of the message before.
    fn typed(&mut self, rest: &str) -> bool {
        let c = &mut self.common;
        match self.last {
            Last::Request => {
                self.message.push(rest.to_string());
                if let Some(turn) = c.turns.last_mut() {
                    turn.text = self.message.join("\n");
                }
                true
            }
            Last::Command => {
                self.message.push(rest.to_string());
                false
            }
            Last::Other => {
                self.message.clear();
                self.message.push(rest.to_string());
                if !is_request(rest) || c.turns.len() >= crate::session::MAX_REQUESTS {
                    self.last = Last::Command;
                    return false;
                }
                self.last = Last::Request;
                c.next_turn(None, rest.to_string(), self.run_start);
                true
            }
        }
    }

    /// The dialog: the common fields, with the id and folder taken from the file's path.
    pub(crate) fn refresh(
        &mut self,
        dialog: &mut crate::session::model::Dialog,
        file_name: &str,
        extra_diags: Vec<String>,
    ) -> bool {
        if self.common.session_id.is_none() {
            self.common.session_id = Some(session_id_of(file_name));
            self.common.folder = folder_of(file_name);
        }
        self.common
            .refresh(super::Agent::Aider, dialog, file_name, extra_diags)
    }

    pub(crate) fn events(&self) -> usize {
        self.common.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_empty_inputs_are_not_requests() {
        assert!(is_request("rename the module"));
        for input in [
            "/ask why is this slow?",
            "/add src/main.rs",
            "/run cargo test",
            "!ls",
            "<blank>",
        ] {
            assert!(!is_request(input), "{input}");
        }
    }

    #[test]
    fn folder_and_id_come_from_the_path() {
        for (path, folder) in [
            ("/home/me/app/.aider.chat.history.md", "/home/me/app"),
            ("C:\\Code\\app\\.aider.chat.history.md", "C:\\Code\\app"),
            ("C:\\.aider.chat.history.md", "C:\\"),
            ("/.aider.chat.history.md", "/"),
        ] {
            assert_eq!(folder_of(path).as_deref(), Some(folder), "{path}");
        }
        assert_ne!(
            session_id_of("/a/.aider.chat.history.md"),
            session_id_of("/b/.aider.chat.history.md")
        );
        assert!(detect("/x/.AIDER.chat.history.md"));
        assert!(!detect("/x/.aider.input.history"));
    }
}
