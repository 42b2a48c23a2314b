//! OpenAI Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`.
//!
//! One JSON object per line: `{timestamp, type, payload}`. `session_meta` names the session
//! (`payload.id`), its folder (`payload.cwd`) and start; `turn_context` the model (and the folder
//! again); `event_msg` lines are what the TUI shows (`user_message` with `message`, the person's
//! text; `agent_message`; `task_started` / `task_complete`; `turn_aborted`; `error`; token
//! counts, command runs...); `response_item` lines are what the model saw (`message` with a
//! `role`, `function_call`, `reasoning`...), including the environment and instructions blocks
//! Codex injects as `user` messages; `compacted` marks a compaction.
//!
//! Requests are the `event_msg` `user_message`s. Rollouts written before Codex had them only
//! hold `response_item` messages (older ones without the `{type, payload}` envelope): for those,
//! the `user` messages are the requests, minus the injected blocks (`<environment_context>`,
//! `<user_instructions>`, `# AGENTS.md instructions`, ...).

use serde_json::value::RawValue;

use super::{parse_line, raw_str, raw_time, Common, Line, Part, Turn};

/// Blocks Codex sends as `user` messages that the person did not type.
fn injected(text: &str) -> bool {
    let t = text.trim_start();
    [
        "<environment_context>",
        "<user_instructions>",
        "<INSTRUCTIONS>",
        "# AGENTS.md instructions",
        "<user_shell_command>",
        "<turn_aborted>",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

fn message_text(content: Option<&RawValue>) -> Option<String> {
    let content = content?;
    if let Some(text) = raw_str(Some(content)) {
        return Some(text);
    }
    let parts = serde_json::from_str::<Vec<Part>>(content.get()).ok()?;
    let texts: Vec<String> = parts
        .iter()
        .filter_map(|p| raw_str(p.text))
        .filter(|t| !injected(t))
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// The reduced state of a Codex rollout.
#[derive(Debug, Clone)]
pub(crate) struct CodexState {
    pub common: Common,
    /// Requests from `response_item` user messages, served when the file has no `user_message`
    /// events (older rollouts).
    items: Vec<Turn>,
}

impl CodexState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        CodexState {
            common: Common::new(details),
            items: Vec::new(),
        }
    }

    /// The requests served: the events', else the items'.
    pub(crate) fn turns(&self) -> &[Turn] {
        if self.common.turns.is_empty() {
            &self.items
        } else {
            &self.common.turns
        }
    }

    pub(crate) fn details_of(&self, position: usize) -> Option<(String, usize)> {
        if self.common.turns.is_empty() {
            let mut view = Common::new(None);
            view.turns = self.items.clone();
            return view.details_of(position);
        }
        self.common.details_of(position)
    }

    /// The current request of both lists, for what follows it.
    fn each_current(&mut self, mut f: impl FnMut(&mut Turn)) -> bool {
        let mut any = false;
        for turn in [self.common.turns.last_mut(), self.items.last_mut()]
            .into_iter()
            .flatten()
        {
            f(turn);
            any = true;
        }
        any
    }

    pub(crate) fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        let Some(line) = parse_line::<Line>(text)? else {
            return Ok(false);
        };
        let ts = raw_time(line.timestamp);
        let kind = raw_str(line.kind);
        let Some(kind) = kind else {
            // The older envelope-less rollout: a first line `{id, timestamp, instructions}` and
            // `{record_type: "state"}` markers.
            if line.record_type.is_some() {
                return Ok(false);
            }
            if let Some(id) = raw_str(line.id) {
                self.common.events += 1;
                if self.common.session_id.is_none() {
                    self.common.session_id = Some(id);
                    self.common.start = self.common.start.or(ts);
                }
                return Ok(true);
            }
            return Err("no line `type`".into());
        };
        let mut changed = self.common.line_at(ts);
        let payload = match line.payload {
            Some(raw) => Some(
                serde_json::from_str::<Line>(raw.get())
                    .map_err(|e| format!("unreadable `payload`: {e}"))?,
            ),
            None => None,
        };
        match (kind.as_str(), payload) {
            ("session_meta", Some(p)) => {
                if self.common.session_id.is_none() {
                    self.common.session_id = raw_str(p.id);
                }
                if let Some(cwd) = raw_str(p.cwd) {
                    self.common.folder = Some(cwd);
                }
                self.common.start = self.common.start.or(raw_time(p.timestamp)).or(ts);
                changed = true;
            }
            ("turn_context", Some(p)) => {
                if let Some(model) = raw_str(p.model) {
                    self.common.model = Some(model);
                }
                if self.common.folder.is_none() {
                    self.common.folder = raw_str(p.cwd);
                    changed = true;
                }
            }
            ("event_msg", Some(p)) => changed |= self.event(p, ts),
            ("response_item", Some(p)) => {
                let p_kind = raw_str(p.kind);
                changed |= self.item(p_kind.as_deref(), raw_str(p.role), p.content, ts);
            }
            // The older shape: items at the top level.
            ("message", None) => {
                changed |= self.item(Some("message"), raw_str(line.role), line.content, ts);
            }
            ("function_call" | "local_shell_call" | "custom_tool_call", None) => {
                changed |= self.item(Some(kind.as_str()), None, None, ts);
            }
            ("compacted" | "reasoning" | "function_call_output" | "custom_tool_call_output", _) => {
            }
            ("session_meta" | "turn_context" | "event_msg" | "response_item", None) => {
                return Err(format!("a `{kind}` line without `payload`"));
            }
            (other, _) => changed = self.common.unknown_line(other),
        }
        Ok(changed)
    }

    fn event(&mut self, p: Line, ts: Option<i64>) -> bool {
        let wants = self.common.wants_details();
        match raw_str(p.kind).as_deref() {
            Some("user_message") => {
                let text = raw_str(p.message).unwrap_or_default();
                if text.trim().is_empty() {
                    return false;
                }
                self.common.push_turn(None, text, ts);
                true
            }
            Some("agent_message") => {
                let message = if wants { raw_str(p.message) } else { None };
                if let Some(turn) = self.common.turns.last_mut() {
                    turn.markdown.extend(message);
                }
                self.each_current(|t| t.answered = true)
            }
            Some("task_complete") => self.each_current(|t| {
                t.answered = true;
                t.done = true;
            }),
            Some("turn_aborted") => self.each_current(|t| t.canceled = true),
            Some("error") => self.each_current(|t| t.failed = true),
            _ => false,
        }
    }

    fn item(
        &mut self,
        kind: Option<&str>,
        role: Option<String>,
        content: Option<&RawValue>,
        ts: Option<i64>,
    ) -> bool {
        match (kind, role.as_deref()) {
            (Some("message"), Some("user")) => match message_text(content) {
                Some(text) if !text.trim().is_empty() => {
                    let model = self.common.model.clone();
                    self.items.push(Turn {
                        text,
                        timestamp: ts,
                        model,
                        ..Default::default()
                    });
                    self.common.turns.is_empty()
                }
                _ => false,
            },
            (Some("message"), Some("assistant")) => {
                let from_items = self.common.turns.is_empty();
                let wants = self.common.details.is_some()
                    && self.common.details == self.items.len().checked_sub(1);
                match self.items.last_mut() {
                    Some(turn) => {
                        if from_items && wants {
                            turn.markdown.extend(message_text(content));
                        }
                        turn.answered = true;
                        from_items
                    }
                    None => false,
                }
            }
            (Some("function_call" | "local_shell_call" | "custom_tool_call"), _) => {
                self.each_current(|t| t.tool_calls += 1);
                false
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `payload` that is not an object is a skipped line with serde's reason. The text said
    /// "expected struct Payload" while Codex's payload had a struct of its own; since the agent
    /// readers share borrowed shapes (`Line`) it says what was expected.
    #[test]
    fn a_payload_that_is_not_an_object_is_a_skipped_line() {
        let mut state = CodexState::new(None);
        assert_eq!(
            state.apply_line(r#"{"type":"event_msg","payload":"x"}"#),
            Err("unreadable `payload`: invalid type: string \"x\", expected an object at line 1 column 3".to_string())
        );
    }
}
