//! Gemini CLI sessions: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` (measured with
//! `@google/gemini-cli` 0.61.0 running offline).
//!
//! The first line is the session's header, `{sessionId, projectHash, startTime, lastUpdated,
//! kind}`; then message records `{id, timestamp, type, content, ...}` (`type`: `user`, `gemini`,
//! `info`, `error`, `warning`; `content`: a string or Gemini `parts`) and patches of the session
//! object, `{"$set": {...}}`: a `$set` of `messages` replaces every message so far (the CLI writes
//! one when it starts a session with its context message, and when it rewrites the history).
//!
//! A request is a `user` message's text, without the `<session_context>` block the CLI sends as
//! the first user turn, and without function responses (tool results). The folder is not in the
//! log: it is the `.project_root` file beside `chats/`, which the host reads and passes as the
//! workspace (the header's `projectHash` is the SHA-256 of that folder).

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{parse_line, raw_str, raw_time, Common};

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<&'a RawValue>,
    #[serde(rename = "sessionId", borrow, default)]
    session_id: Option<&'a RawValue>,
    #[serde(rename = "projectHash", borrow, default)]
    project_hash: Option<&'a RawValue>,
    #[serde(rename = "startTime", borrow, default)]
    start_time: Option<&'a RawValue>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    timestamp: Option<&'a RawValue>,
    #[serde(borrow, default)]
    content: Option<&'a RawValue>,
    #[serde(borrow, default)]
    model: Option<&'a RawValue>,
    #[serde(rename = "$set", borrow, default)]
    set: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Set<'a> {
    #[serde(borrow, default)]
    messages: Option<Vec<&'a RawValue>>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(borrow, default)]
    text: Option<&'a RawValue>,
}

/// The context block the CLI sends as the first user turn of every session.
const CONTEXT_OPENERS: &[&str] = &["<session_context>"];

/// The person's text of a `user` message's `content`, if any.
fn person_text(content: Option<&RawValue>) -> Option<String> {
    let content = content?;
    let text = if content.get().starts_with('"') {
        raw_str(Some(content))?
    } else {
        let parts: Vec<Part> = serde_json::from_str(content.get()).ok()?;
        let texts: Vec<String> = parts.iter().filter_map(|p| raw_str(p.text)).collect();
        texts.join("\n")
    };
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
            let Ok(set) = serde_json::from_str::<Set>(set.get()) else {
                return Err("a `$set` that is not an object".into());
            };
            if let Some(messages) = set.messages {
                c.turns.clear();
                for message in messages {
                    if let Ok(Some(line)) = parse_line::<Line>(message.get()) {
                        self.message(&line);
                    }
                }
                return Ok(true);
            }
            return Ok(false);
        }
        let Some(kind) = raw_str(line.kind) else {
            return Err("no message `type`".into());
        };
        match kind.as_str() {
            "user" | "gemini" | "info" | "error" | "warning" => Ok(self.message(&line)),
            other => {
                self.common.unknown_type(other);
                Ok(true)
            }
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
