//! Cline, Roo Code and Kilo Code tasks: VS Code extensions that keep each task in their own
//! `globalStorage` folder, `<user data>/User/globalStorage/<publisher.extension>/tasks/<taskId>/`
//! (`saoudrizwan.claude-dev`, `rooveterinaryinc.roo-cline`, `kilocode.kilo-code`). Roo Code and
//! Kilo Code are forks of Cline and write the same `ui_messages.json`.
//!
//! `ui_messages.json` is one JSON array of the messages the extension shows, `{ts, type: "say" |
//! "ask", say?, ask?, text?, partial?, modelInfo?, conversationHistoryIndex?, ...}`, rewritten as
//! a whole on every change (not appended to): it is read as a whole file. Checked on public logs
//! only (these extensions cannot run outside VS Code here): see `docs/agents.md`.
//!
//! A request is what the person typed: the task (a `say: "task"` message, or, in newer Cline and
//! Roo Code, the first `say: "text"` before the first `api_req_started`) and each
//! `say: "user_feedback"` (a follow-up, or the answer to the agent's question). Everything else is
//! the agent's: its `text` after a request is its answer, `completion_result` ends the turn. The
//! folder is the `# Current Working Directory (<path>) Files` line (Roo Code: `Current Workspace
//! Directory`) of the first `api_req_started` message's `request`, when the extension wrote it
//! there. The session id is the task folder's name.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{object, raw_str, raw_time, whole_json_text, Common, Fields};
use crate::session::model::{Dialog, SessionFormat};
use crate::session::record::{file_stem, push_capped, Got, HeaderRec};
use crate::session::{json_error, SessionError, MAX_REQUESTS};

/// Which of the three extensions wrote a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskAgent {
    Cline,
    RooCode,
    KiloCode,
}

impl TaskAgent {
    pub(crate) fn format(self) -> SessionFormat {
        match self {
            TaskAgent::Cline => SessionFormat::Cline,
            TaskAgent::RooCode => SessionFormat::RooCode,
            TaskAgent::KiloCode => SessionFormat::KiloCode,
        }
    }
}

/// The extension folders (publisher.name, lower case) and who they are.
const PUBLISHERS: &[(&str, TaskAgent)] = &[
    ("saoudrizwan.claude-dev", TaskAgent::Cline),
    ("rooveterinaryinc.roo-cline", TaskAgent::RooCode),
    ("kilocode.kilo-code", TaskAgent::KiloCode),
];

/// Whether `file_name` is a task's `ui_messages.json` (under a `tasks` folder), and whose: the
/// extension folder above `tasks` names it (Cline when it is none of the three, since the
/// others are its forks).
pub(crate) fn detect(file_name: &str) -> Option<TaskAgent> {
    let parts: Vec<&str> = file_name.split(['/', '\\']).collect();
    let [.., extension, tasks, _task, base] = parts.as_slice() else {
        return None;
    };
    if !base.eq_ignore_ascii_case("ui_messages.json") || !tasks.eq_ignore_ascii_case("tasks") {
        return None;
    }
    let extension = extension.to_ascii_lowercase();
    Some(
        PUBLISHERS
            .iter()
            .find(|(name, _)| *name == extension)
            .map_or(TaskAgent::Cline, |(_, agent)| *agent),
    )
}

/// The task id: the name of the folder holding `ui_messages.json`, else the file's stem.
pub(crate) fn task_id(file_name: &str) -> String {
    let mut parts = file_name.rsplit(['/', '\\']);
    parts.next();
    match parts.next() {
        Some(folder) if !folder.is_empty() => folder.to_string(),
        _ => file_stem(file_name),
    }
}

#[derive(Deserialize)]
struct ApiRequest {
    #[serde(default)]
    request: Option<String>,
}

/// `say` kinds that are the agent's or the extension's own (not a request): skipped quietly.
/// Anything else is skipped too, and counted in the dialog's diagnostics.
const KNOWN_SAYS: &[&str] = &[
    "api_req_started",
    "api_req_finished",
    "api_req_retried",
    "api_req_retry_delayed",
    "api_req_deleted",
    "api_req_rate_limit_wait",
    "deleted_api_reqs",
    "reasoning",
    "completion_result",
    "error",
    "error_retry",
    "diff_error",
    "command",
    "command_output",
    "command_permission_denied",
    "tool",
    "shell_integration_warning",
    "shell_integration_warning_with_suggestion",
    "browser_action",
    "browser_action_launch",
    "browser_action_result",
    "browser_session_status",
    "mcp_server_request_started",
    "mcp_server_response",
    "mcp_notification",
    "use_mcp_server",
    "new_task",
    "new_task_started",
    "subtask_result",
    "checkpoint_created",
    "checkpoint_saved",
    "load_mcp_documentation",
    "info",
    "clineignore_error",
    "rooignore_error",
    "codebase_search_result",
    "user_edit_todos",
    "user_feedback_diff",
    "condense_context",
    "condense_context_error",
    "sliding_window_truncation",
    "image",
    "task_progress",
    "hook",
    "hook_output",
    "hook_status",
    "too_many_tools_warning",
    "generate_explanation",
    "diff",
    "focus_chain",
    "auto_approval_max_req_reached",
];

/// Where a request's text says the working folder is (Cline, then Roo Code and Kilo Code).
const CWD_OPENERS: &[&str] = &[
    "# Current Working Directory (",
    "# Current Workspace Directory (",
];

/// The folder named in an environment block: the text between an opener and `) Files`.
fn folder_in(request: &str) -> Option<String> {
    CWD_OPENERS.iter().find_map(|opener| {
        let at = request.find(opener)? + opener.len();
        let rest = &request[at..];
        let line = rest.split('\n').next()?;
        let end = line.rfind(") Files")?;
        let folder = line[..end].trim();
        (!folder.is_empty() && folder.len() <= 4096).then(|| folder.to_string())
    })
}

/// The reduced state of one task.
#[derive(Debug, Clone)]
pub(crate) struct TaskState {
    pub common: Common,
    /// An `api_req_started` was seen (a `say: "text"` after it is the agent's).
    api_started: bool,
    /// Elements of the array that are not message objects.
    odd: usize,
}

impl TaskState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        TaskState {
            common: Common::new(details),
            api_started: false,
            odd: 0,
        }
    }

    fn push_request(&mut self, text: Option<String>, ts: Option<i64>) {
        let c = &mut self.common;
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return;
        };
        if c.turns.len() >= MAX_REQUESTS {
            return;
        }
        c.push_turn(None, text, ts);
    }

    fn apply(&mut self, raw: &RawValue) {
        let Ok(message) = serde_json::from_str::<Fields>(raw.get()) else {
            self.odd += 1;
            return;
        };
        let c = &mut self.common;
        let ts = raw_time(message.ts);
        c.line_at(ts);
        if c.start.is_none() {
            c.start = ts;
        }
        if let Some(info) = object::<Fields>(message.model_info) {
            if let Some(id) = raw_str(info.model_id).filter(|id| !id.is_empty()) {
                c.model = Some(id);
            }
        }
        let text = raw_str(message.text);
        match raw_str(message.kind).as_deref() {
            Some("say") => self.say(raw_str(message.say).as_deref(), text, ts),
            Some("ask") => self.ask(raw_str(message.ask).as_deref()),
            Some(other) => self.common.unknown_type(other),
            None => self.common.unknown_type("(no type)"),
        }
    }

    fn say(&mut self, say: Option<&str>, text: Option<String>, ts: Option<i64>) {
        let no_task = self.common.turns.is_empty();
        match say.unwrap_or("") {
            "task" if no_task => self.push_request(text, ts),
            "text" if no_task && !self.api_started => self.push_request(text, ts),
            "user_feedback" => self.push_request(text, ts),
            "text" | "completion_result" => {
                let done = say == Some("completion_result");
                let c = &mut self.common;
                c.answered(None, text);
                if let Some(turn) = c.turns.last_mut() {
                    turn.failed = false;
                    turn.done |= done;
                }
            }
            "api_req_started" => {
                self.api_started = true;
                if self.common.folder.is_none() {
                    self.common.folder = text
                        .and_then(|t| serde_json::from_str::<ApiRequest>(&t).ok())
                        .and_then(|r| r.request)
                        .and_then(|r| folder_in(&r));
                }
            }
            "error" => {
                if let Some(turn) = self.common.turns.last_mut() {
                    turn.failed = true;
                }
            }
            "command" | "tool" | "browser_action_launch" | "use_mcp_server" => {
                self.tool_call();
            }
            "task" => {}
            kind if KNOWN_SAYS.contains(&kind) => {}
            kind => self.common.unknown_type(&format!("say: {kind}")),
        }
    }

    fn ask(&mut self, ask: Option<&str>) {
        match ask.unwrap_or("") {
            "completion_result" => {
                if let Some(turn) = self.common.turns.last_mut() {
                    turn.done = true;
                    turn.failed = false;
                }
            }
            "api_req_failed" | "mistake_limit_reached" => {
                if let Some(turn) = self.common.turns.last_mut() {
                    turn.failed = true;
                }
            }
            "command" | "tool" | "browser_action_launch" | "use_mcp_server" => self.tool_call(),
            _ => {}
        }
    }

    fn tool_call(&mut self) {
        if self.common.wants_details() {
            if let Some(turn) = self.common.turns.last_mut() {
                turn.tool_calls += 1;
            }
        }
    }
}

/// Reads a whole `ui_messages.json`. A file that is not one complete JSON array fails with the
/// reason (cut off, malformed, not an array); elements that are not messages are skipped and
/// counted in the diagnostics.
pub(crate) fn read(bytes: &[u8], details: Option<usize>) -> Result<TaskState, SessionError> {
    let text = whole_json_text(bytes, "an array", "the array of a task's messages")?;
    let messages: Vec<&RawValue> = serde_json::from_str(&text).map_err(json_error)?;
    let mut state = TaskState::new(details);
    for message in messages {
        state.apply(message);
    }
    if state.common.events == 0 && state.odd > 0 {
        return Err(SessionError::NotASession(
            "no element of the array is a message object".into(),
        ));
    }
    Ok(state)
}

/// The dialog of a task read by [`read`].
pub(crate) fn dialog(state: &TaskState, agent: TaskAgent, file_name: &str) -> Dialog {
    let c = &state.common;
    let count = c.turns.len();
    let header = HeaderRec {
        session_id: Some(Got::Val(task_id(file_name))),
        creation_date: c.start.map(Got::Val),
        last_message_date: c.last_event.map(Got::Val),
        ..Default::default()
    };
    let mut dialog = super::dialog_of(agent.format(), &c.turns, &header, file_name, Vec::new());
    dialog.folder = c.folder.clone();
    let mut diagnostics = std::mem::take(&mut dialog.diagnostics);
    let odd = super::counted(
        state.odd,
        "element",
        "of the array that are not messages skipped",
    );
    push_capped(&mut diagnostics, &Vec::from_iter(odd));
    if count >= MAX_REQUESTS {
        push_capped(&mut diagnostics, &[crate::session::request_cap_note()]);
    }
    push_capped(&mut diagnostics, &c.unknown_notes("message", "type"));
    dialog.diagnostics = diagnostics;
    dialog
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_read_from_either_spelling() {
        let cline = "<task>\nx\n</task>\n# Current Working Directory (/home/a/p q) Files\nsrc/\n";
        assert_eq!(folder_in(cline).as_deref(), Some("/home/a/p q"));
        let roo = "# Current Workspace Directory (c:/Projects/x) Files\n";
        assert_eq!(folder_in(roo).as_deref(), Some("c:/Projects/x"));
        assert_eq!(folder_in("# Current Working Directory (/a"), None);
    }

    #[test]
    fn the_publisher_folder_names_the_extension() {
        let path =
            |p: &str| format!("/u/User/globalStorage/{p}/tasks/1769053680585/ui_messages.json");
        assert_eq!(
            detect(&path("saoudrizwan.claude-dev")),
            Some(TaskAgent::Cline)
        );
        assert_eq!(
            detect(&path("RooVeterinaryInc.roo-cline")),
            Some(TaskAgent::RooCode)
        );
        assert_eq!(
            detect(&path("kilocode.kilo-code")),
            Some(TaskAgent::KiloCode)
        );
        // Another fork's folder: read as Cline's format.
        assert_eq!(
            detect("/x/tasks/1/ui_messages.json"),
            Some(TaskAgent::Cline)
        );
        assert_eq!(detect("/x/y/z/1/ui_messages.json"), None);
        assert_eq!(detect("/x/tasks/1/api_conversation_history.json"), None);
        assert_eq!(task_id(&path("kilocode.kilo-code")), "1769053680585");
    }
}
