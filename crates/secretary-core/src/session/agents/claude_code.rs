//! Claude Code transcripts: `~/.claude/projects/<slug>/<sessionId>.jsonl`.
//!
//! One JSON object per line. Conversation lines carry `type` (`user`, `assistant`), `message`
//! (`{role, content, model}`: `content` is a string or an array of parts `text`, `image`,
//! `tool_use`, `tool_result`, `thinking`), `uuid`, `timestamp` (ISO 8601), `sessionId`, `cwd`
//! (the folder), `isSidechain`, `isMeta`. Other lines: `attachment` (context the harness adds; a
//! `queued_command` attachment is a prompt typed while the agent was busy), `summary` /
//! `custom-title` (titles), `system`, `file-history-snapshot`, `queue-operation`, `last-prompt`,
//! `permission-mode`, `progress`.
//!
//! A request is what the person typed: a `user` line that is not meta (`isMeta`: skill and
//! command expansions, caveats), not a sub-agent's prompt (`isSidechain`), not a compaction
//! summary (`isCompactSummary`), not a tool result, and not harness output (`<bash-stdout>`,
//! `<local-command-stdout>`, ...). A slash command (`<command-name>`) reads as `/name args` and a
//! shell escape (`<bash-input>`) as `!command`, the way the person typed them. "[Request
//! interrupted by user]" cancels the current request.
//!
//! Claude Code's own local commands (`/model`, `/clear`, `/compact`, `/usage`...) are not requests:
//! they talk to the harness, not the model. Claude Code 2.1 writes a meta line
//! `<local-command-caveat>` ("The command below was run directly in Claude Code, not sent to you
//! as a request") just before such a command (measured with 2.1.331); logs without it are
//! matched by name ([`LOCAL_COMMANDS`]). A command that expands into a prompt (`/init`, a custom
//! command: its expansion follows as a meta line) is a request: the model answers it.

use serde_json::value::RawValue;

use super::{object, raw_str, raw_true, Common, Line, Part};

/// What a user line's content is.
enum Content {
    /// Text the person typed (after turning commands back into what was typed).
    Prompt(String),
    /// "[Request interrupted by user...]".
    Interrupt,
    /// Tool results, harness output, injected context: not a request.
    NotAPrompt,
}

const INTERRUPT: &str = "[Request interrupted by user";

/// Text parts that the IDE integration or the harness adds next to the person's text.
fn injected_part(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<ide_opened_file>")
        || t.starts_with("<ide_selection>")
        || t.starts_with("<ide_diagnostics>")
        || t.starts_with("<system-reminder>")
}

/// The text between `<tag>` and `</tag>`, if both are there.
fn tag<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(&text[start..end])
}

/// Harness output that is shown as a user line but was not typed.
const OUTPUT_TAGS: &[&str] = &[
    "<bash-stdout>",
    "<bash-stderr>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<command-stdout>",
    "<system-reminder>",
    "<task-notification>",
];

/// Claude Code's built-in commands that the harness runs itself (2.1.x): none reaches the model.
/// Prompt commands (`/init`, `/review`, `/security-review`, custom ones) are not listed.
const LOCAL_COMMANDS: &[&str] = &[
    "add-dir",
    "agents",
    "bashes",
    "bug",
    "clear",
    "compact",
    "config",
    "context",
    "cost",
    "doctor",
    "exit",
    "export",
    "feedback",
    "help",
    "hooks",
    "ide",
    "install-github-app",
    "login",
    "logout",
    "mcp",
    "memory",
    "migrate-installer",
    "model",
    "output-style",
    "permissions",
    "plugin",
    "privacy-settings",
    "quit",
    "release-notes",
    "reset",
    "resume",
    "rewind",
    "sandbox",
    "stats",
    "status",
    "statusline",
    "tasks",
    "terminal-setup",
    "theme",
    "todos",
    "upgrade",
    "usage",
    "vim",
];

fn classify_text(text: &str) -> Content {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Content::NotAPrompt;
    }
    if trimmed.starts_with(INTERRUPT) {
        return Content::Interrupt;
    }
    if OUTPUT_TAGS.iter().any(|t| trimmed.starts_with(t)) {
        return Content::NotAPrompt;
    }
    if let Some(name) = tag(trimmed, "command-name") {
        let name = name.trim();
        if LOCAL_COMMANDS.contains(&name.trim_start_matches('/')) {
            return Content::NotAPrompt;
        }
        let args = tag(trimmed, "command-args").map(str::trim).unwrap_or("");
        let mut typed = if name.starts_with('/') {
            name.to_string()
        } else {
            format!("/{name}")
        };
        if !args.is_empty() {
            typed.push(' ');
            typed.push_str(args);
        }
        return Content::Prompt(typed);
    }
    if trimmed.starts_with("<bash-input>") {
        if let Some(command) = tag(trimmed, "bash-input") {
            return Content::Prompt(format!("!{command}"));
        }
    }
    Content::Prompt(text.to_string())
}

fn classify(content: &RawValue) -> Content {
    let raw = content.get();
    if raw.starts_with('"') {
        return match raw_str(Some(content)) {
            Some(text) => classify_text(&text),
            None => Content::NotAPrompt,
        };
    }
    let Ok(parts) = serde_json::from_str::<Vec<Part>>(raw) else {
        return Content::NotAPrompt;
    };
    let mut texts = Vec::new();
    for part in &parts {
        match raw_str(part.kind).as_deref() {
            Some("tool_result") => return Content::NotAPrompt,
            Some("text") => {
                if let Some(text) = raw_str(part.text) {
                    if !injected_part(&text) {
                        texts.push(text);
                    }
                }
            }
            _ => {}
        }
    }
    classify_text(&texts.join("\n"))
}

/// The reduced state of a Claude Code transcript.
#[derive(Debug, Clone)]
pub(crate) struct ClaudeState {
    pub common: Common,
    /// A `customTitle` was seen (it beats a `summary`).
    custom_title: bool,
    /// The last user line was a `<local-command-caveat>`: the command that follows is local.
    caveat: bool,
}

impl ClaudeState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        ClaudeState {
            common: Common::new(details),
            custom_title: false,
            caveat: false,
        }
    }

    pub(crate) fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        let Some((line, kind, ts, mut changed)) = self.common.typed_line(text)? else {
            return Ok(false);
        };
        let c = &mut self.common;
        // The folder the session was started in: the first `cwd` (later lines follow the shell's
        // `cd`s, which do not move the session to another project).
        if !raw_true(line.is_sidechain) {
            changed |= c.first_folder(line.cwd);
        }
        match kind.as_str() {
            "user" => changed |= self.user(&line, ts),
            "assistant" => changed |= self.assistant(&line),
            "attachment" => changed |= self.attachment(&line, ts),
            "summary" if !self.custom_title => {
                if let Some(summary) = raw_str(line.summary) {
                    self.common.title = Some(summary);
                    changed = true;
                }
            }
            "custom-title" => {
                if let Some(title) = raw_str(line.custom_title) {
                    self.common.title = Some(title);
                    self.custom_title = true;
                    changed = true;
                }
            }
            "summary"
            | "system"
            | "ai-title"
            | "agent-name"
            | "file-history-snapshot"
            | "queue-operation"
            | "last-prompt"
            | "permission-mode"
            | "progress"
            | "tag"
            | "pr-link" => {}
            other => changed = self.common.unknown_line(other),
        }
        Ok(changed)
    }

    fn push(&mut self, text: String, id: Option<String>, ts: Option<i64>) -> bool {
        self.common.push_turn(id, text, ts);
        true
    }

    fn user(&mut self, line: &Line, ts: Option<i64>) -> bool {
        let after_caveat = std::mem::take(&mut self.caveat);
        if raw_true(line.is_meta) {
            self.caveat = line
                .message
                .is_some_and(|m| m.get().contains("<local-command-caveat>"));
            return false;
        }
        if raw_true(line.is_sidechain)
            || raw_true(line.is_compact_summary)
            || raw_true(line.transcript_only)
        {
            return false;
        }
        let Some(message) = object::<Line>(line.message) else {
            return false;
        };
        let Some(content) = message.content else {
            return false;
        };
        match classify(content) {
            Content::Prompt(text) if after_caveat && text.starts_with('/') => false,
            Content::Prompt(text) => self.push(text, raw_str(line.uuid), ts),
            Content::Interrupt => match self.common.turns.last_mut() {
                Some(turn) if !turn.canceled => {
                    turn.canceled = true;
                    true
                }
                _ => false,
            },
            Content::NotAPrompt => false,
        }
    }

    fn attachment(&mut self, line: &Line, ts: Option<i64>) -> bool {
        let Some(att) = object::<Line>(line.attachment) else {
            return false;
        };
        if raw_str(att.kind).as_deref() != Some("queued_command") || raw_true(line.is_sidechain) {
            return false;
        }
        match raw_str(att.prompt) {
            Some(prompt) if !prompt.trim().is_empty() => self.push(prompt, raw_str(line.uuid), ts),
            _ => false,
        }
    }

    fn assistant(&mut self, line: &Line) -> bool {
        if raw_true(line.is_sidechain) {
            return false;
        }
        let message = object::<Line>(line.message);
        let wants = self.common.wants_details();
        let mut changed = false;
        if let Some(message) = &message {
            if let Some(model) = raw_str(message.model).filter(|m| !m.starts_with('<')) {
                if self.common.model.as_deref() != Some(model.as_str()) {
                    self.common.model = Some(model);
                }
            }
        }
        let model = self.common.model.clone();
        let Some(turn) = self.common.turns.last_mut() else {
            return false;
        };
        if !turn.answered {
            turn.answered = true;
            changed = true;
        }
        if turn.model.is_none() && model.is_some() {
            turn.model = model;
            changed = true;
        }
        if wants {
            if let Some(parts) = message
                .and_then(|m| m.content)
                .and_then(|c| serde_json::from_str::<Vec<Part>>(c.get()).ok())
            {
                for part in parts {
                    match raw_str(part.kind).as_deref() {
                        Some("text") => turn.markdown.extend(raw_str(part.text)),
                        Some("tool_use") | Some("server_tool_use") => turn.tool_calls += 1,
                        _ => {}
                    }
                }
            }
        }
        changed
    }
}
