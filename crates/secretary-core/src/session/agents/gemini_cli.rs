//! Gemini CLI sessions: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` (measured with
//! `@google/gemini-cli` 0.61.0 running offline).
//!
//! The first line is the session's header, `{sessionId, projectHash, startTime, lastUpdated,
//! kind}`; then message records `{id, timestamp, type, content, ...}` (`type`: `user`, `gemini`,
//! `info`, `error`, `warning`; `content`: a string or Gemini `parts`) and patches of the session
//! object, `{"$set": {...}}`. A `$set` of `messages` is the model's history as the CLI now holds
//! it, not what the person said: the CLI writes one when it starts or resumes a session (the
//! context message alone, then the history read back) and when a compression replaces the history
//! with its summary (a `user` message of the model's own words, then "Got it...", then the newest
//! turns; measured with 0.61.0). Every prompt was recorded on its own line first, so the requests
//! come from those lines only: a compression neither drops the person's requests nor makes its
//! summary one ([`recall_pending`] reads the same lines for the recall hook).
//!
//! A request is a `user` message's text, without the `<session_context>` block the CLI sends as
//! the first user turn, without the `<hook_context>` parts a hook added (the recall hook's
//! answer among them), and without function responses (tool results). The folder is not in the
//! log: it is the `.project_root` file beside `chats/`, which the host reads and passes as the
//! workspace (the header's `projectHash` is the SHA-256 of that folder).

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{parse_line, raw_str, raw_time, Common, Line, Part};

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct Set<'a> {
    messages: Option<Vec<&'a RawValue>>,
}

/// The context block the CLI sends as the first user turn of every session.
const CONTEXT_OPENERS: &[&str] = &["<session_context>"];
/// What a hook added to a prompt: a part of its own after the prompt (`BeforeAgent`), or a block
/// before it (`SessionStart` in a non-interactive run), `<hook_context>...</hook_context>`.
const HOOK_OPEN: &str = "<hook_context>";
const HOOK_CLOSE: &str = "</hook_context>";

/// `text` without a leading `<hook_context>` block (and the blank line after it).
fn without_hook_context(text: &str) -> &str {
    let trimmed = text.trim_start();
    match trimmed.strip_prefix(HOOK_OPEN) {
        Some(rest) => rest
            .find(HOOK_CLOSE)
            .map_or("", |end| rest[end + HOOK_CLOSE.len()..].trim_start()),
        None => text,
    }
}

/// The texts of a `user` message's `content` (a string or Gemini `parts`).
fn content_texts(content: &RawValue) -> Option<Vec<String>> {
    if content.get().starts_with('"') {
        return raw_str(Some(content)).map(|t| vec![t]);
    }
    let parts: Vec<Part> = serde_json::from_str(content.get()).ok()?;
    Some(parts.iter().filter_map(|p| raw_str(p.text)).collect())
}

/// The person's text of a `user` message's `content`, if any.
fn person_text(content: Option<&RawValue>) -> Option<String> {
    let texts = content_texts(content?)?;
    let kept: Vec<&str> = texts
        .iter()
        .map(|t| without_hook_context(t))
        .filter(|t| !t.is_empty())
        .collect();
    let text = kept.join("\n");
    let trimmed = text.trim_start();
    if trimmed.is_empty() || CONTEXT_OPENERS.iter().any(|o| trimmed.starts_with(o)) {
        return None;
    }
    Some(text)
}

/// The reduced state of a Gemini CLI session file.
#[derive(Debug, Clone)]
pub(crate) struct GeminiState {
    pub common: Common,
}

impl GeminiState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        GeminiState {
            common: Common::new(details),
        }
    }

    pub(crate) fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        let Some(line) = parse_line::<Line>(text)? else {
            return Ok(false);
        };
        let c = &mut self.common;
        c.events += 1;
        let mut changed = false;
        if line.project_hash.is_some() || line.start_time.is_some() {
            if c.session_id.is_none() {
                c.session_id = raw_str(line.session_id);
                changed = true;
            }
            if c.start.is_none() {
                c.start = raw_time(line.start_time);
                changed |= c.seen_at(c.start);
            }
            return Ok(changed);
        }
        if let Some(set) = line.set {
            // The history as the model now holds it (see the module's doc): not read for requests.
            if serde_json::from_str::<Set>(set.get()).is_err() {
                return Err("a `$set` that is not an object".into());
            }
            return Ok(false);
        }
        let Some(kind) = raw_str(line.kind) else {
            return Err("no message `type`".into());
        };
        match kind.as_str() {
            "user" | "gemini" | "info" | "error" | "warning" => Ok(self.message(&line)),
            other => Ok(self.common.unknown_line(other)),
        }
    }

    fn message(&mut self, line: &Line) -> bool {
        let c = &mut self.common;
        let ts = raw_time(line.timestamp);
        let mut changed = c.seen_at(ts);
        match raw_str(line.kind).as_deref() {
            Some("user") => {
                if let Some(text) = person_text(line.content) {
                    c.push_turn(raw_str(line.id), text, ts);
                    changed = true;
                }
            }
            Some("gemini") => {
                changed |= c.answered(raw_str(line.model), raw_str(line.content));
            }
            Some("error") => {
                if let Some(turn) = c.turns.last_mut() {
                    turn.failed = true;
                    changed = true;
                }
            }
            _ => {}
        }
        changed
    }
}

/// Whether the recall hook (`BeforeAgent`) should answer now: the log shows a compression after
/// the last prompt that already carried the recall (a `<hook_context>` part holding `mark`).
///
/// A compression is a `$set` of `messages` holding a `user` message seen nowhere before in the
/// log (its summary; the history the CLI writes back when it resumes a session holds only
/// messages seen already, and the context message is not a person's text). The hook runs before
/// the turn in which the CLI compresses, so the words come back with the prompt after it; the
/// recall recorded with that prompt is what tells the next hooks that nothing is pending, since
/// the hook itself writes nothing.
pub(crate) fn recall_pending(bytes: &[u8], mark: &str) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut compression = None;
    let mut recall = None;
    for (at, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        let Ok(Some(line)) = parse_line::<Line>(text) else {
            continue;
        };
        if let Some(set) = line.set {
            let messages = serde_json::from_str::<Set>(set.get())
                .ok()
                .and_then(|s| s.messages)
                .unwrap_or_default();
            let mut compressed = false;
            for message in messages {
                let Ok(Some(m)) = parse_line::<Line>(message.get()) else {
                    continue;
                };
                let id = raw_str(m.id);
                let new = id.as_ref().is_some_and(|id| !seen.contains(id));
                if new
                    && raw_str(m.kind).as_deref() == Some("user")
                    && person_text(m.content).is_some()
                {
                    compressed = true;
                }
                seen.extend(id);
            }
            if compressed {
                compression = Some(at);
            }
            continue;
        }
        seen.extend(raw_str(line.id));
        if raw_str(line.kind).as_deref() == Some("user") {
            let recalled = line.content.and_then(content_texts).is_some_and(|texts| {
                texts
                    .iter()
                    .any(|t| t.trim_start().starts_with(HOOK_OPEN) && t.contains(mark))
            });
            if recalled {
                recall = Some(at);
            }
        }
    }
    compression.is_some() && compression > recall
}
