//! Qwen Code sessions: `~/.qwen/projects/<slug>/chats/<sessionId>.jsonl` (measured with
//! `@qwen-code/qwen-code` 0.24.4 running offline).
//!
//! One record per line: `{uuid, parentUuid, sessionId, timestamp, type, provenance, cwd, version,
//! message, ...}` with `type` `user`, `assistant` or `system` and `message` a Gemini-style
//! `{role, parts}`. A request is a `user` record whose `provenance` is `real_user` (what the person
//! typed; other provenances are the harness's) and whose parts hold text, not function responses.
//! The folder is each record's `cwd`, the first one counting.

use serde_json::value::RawValue;

use super::{member, object, raw_str, Common, Line, Part};

/// The text parts of a message, `None` when it carries a function response (a tool result).
fn message_text(message: Option<&RawValue>) -> Option<String> {
    let message: Line = object(message)?;
    let parts: Vec<Part> = member(message.parts).ok()??;
    if parts.iter().any(|p| p.function_response.is_some()) {
        return None;
    }
    let text: Vec<String> = parts.iter().filter_map(|p| raw_str(p.text)).collect();
    let text = text.join("\n");
    (!text.trim().is_empty()).then_some(text)
}

/// The reduced state of a Qwen Code session file.
#[derive(Debug, Clone)]
pub(crate) struct QwenState {
    pub common: Common,
}

impl QwenState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        QwenState {
            common: Common::new(details),
        }
    }

    pub(crate) fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        let Some((line, kind, ts, mut changed)) = self.common.typed_line(text)? else {
            return Ok(false);
        };
        let c = &mut self.common;
        changed |= c.first_folder(line.cwd);
        match kind.as_str() {
            "user" => {
                let typed = raw_str(line.provenance).is_none_or(|p| p == "real_user");
                if let Some(text) = message_text(line.message).filter(|_| typed) {
                    c.push_turn(raw_str(line.uuid), text, ts);
                    changed = true;
                }
            }
            "assistant" => {
                let text = c
                    .wants_details()
                    .then(|| message_text(line.message))
                    .flatten();
                changed |= c.answered(raw_str(line.model), text);
            }
            "system" => {}
            other => changed = self.common.unknown_line(other),
        }
        Ok(changed)
    }
}
