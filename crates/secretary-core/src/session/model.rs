//! The dialog model: what the Secretary knows about one chat session.
//!
//! Every reader (native `.json`, `.jsonl` mutation log, exports, Copilot transcripts) produces a
//! [`Dialog`]. The model keeps only what agents and people ask for (the user's own words, times,
//! status), so that a 100 MB session costs a few kilobytes once parsed. Response bodies are never
//! kept here: see [`crate::session::response_details`] for the on-demand path.

use serde::Serialize;

/// Which on-disk format a dialog was read from.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SessionFormat {
    /// `chatSessions/<id>.json`, versions 1 to 3.
    NativeJson,
    /// `chatSessions/<id>.jsonl`, the append-only mutation log (VS Code >= 1.109).
    NativeJsonl,
    /// A file written by "Chat: Export Chat..." (any of the three generations).
    Export,
    /// `GitHub.copilot-chat/transcripts/<sessionId>.jsonl` event files.
    Transcript,
    /// GitHub Copilot CLI: `~/.copilot/session-state/<id>/events.jsonl` (or the older `<id>.jsonl`).
    CopilotCli,
    /// Claude Code: `~/.claude/projects/<slug>/<sessionId>.jsonl`.
    ClaudeCode,
    /// OpenAI Codex CLI: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.
    Codex,
    /// Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.jsonl`.
    GeminiCli,
    /// Qwen Code: `~/.qwen/projects/<slug>/chats/<sessionId>.jsonl`.
    QwenCode,
    /// Cline (VS Code extension): `globalStorage/saoudrizwan.claude-dev/tasks/<id>/ui_messages.json`.
    Cline,
    /// Roo Code: `globalStorage/rooveterinaryinc.roo-cline/tasks/<id>/ui_messages.json`.
    RooCode,
    /// Kilo Code: `globalStorage/kilocode.kilo-code/tasks/<id>/ui_messages.json` (the VS Code
    /// extension, Cline's format), or a session of its CLI's `~/.local/share/kilo/kilo.db`
    /// (OpenCode's tables, read by the host).
    KiloCode,
    /// Continue: `~/.continue/sessions/<sessionId>.json`.
    Continue,
    /// OpenCode: a session of `~/.local/share/opencode/opencode.db` (SQLite, read by the host), or
    /// an `opencode export` of one.
    OpenCode,
    /// Aider: `.aider.chat.history.md` in the folder it ran in.
    Aider,
    /// Cursor: one conversation of a SQLite `state.vscdb`, as rows the host read (`agents::cursor`).
    Cursor,
}

/// Which agent wrote a dialog: VS Code's chat, or one of the terminal agents whose own history
/// the Secretary also reads. Serialized as `vscode`, `copilot-cli`, `claude-code`, `codex`,
/// `gemini-cli`, `qwen-code`, `cline`, `roo-code`, `kilo-code`, `continue`, `opencode`, `aider`, `cursor`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum DialogSource {
    Vscode,
    CopilotCli,
    ClaudeCode,
    Codex,
    GeminiCli,
    QwenCode,
    Cline,
    RooCode,
    KiloCode,
    Continue,
    #[serde(rename = "opencode")]
    OpenCode,
    Aider,
    Cursor,
}

impl DialogSource {
    pub const ALL: [DialogSource; 13] = [
        DialogSource::Vscode,
        DialogSource::CopilotCli,
        DialogSource::ClaudeCode,
        DialogSource::Codex,
        DialogSource::GeminiCli,
        DialogSource::QwenCode,
        DialogSource::Cline,
        DialogSource::RooCode,
        DialogSource::KiloCode,
        DialogSource::Continue,
        DialogSource::OpenCode,
        DialogSource::Aider,
        DialogSource::Cursor,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DialogSource::Vscode => "vscode",
            DialogSource::CopilotCli => "copilot-cli",
            DialogSource::ClaudeCode => "claude-code",
            DialogSource::Codex => "codex",
            DialogSource::GeminiCli => "gemini-cli",
            DialogSource::QwenCode => "qwen-code",
            DialogSource::Cline => "cline",
            DialogSource::RooCode => "roo-code",
            DialogSource::KiloCode => "kilo-code",
            DialogSource::Continue => "continue",
            DialogSource::OpenCode => "opencode",
            DialogSource::Aider => "aider",
            DialogSource::Cursor => "cursor",
        }
    }

    /// The agent whose chats VS Code shows under a session-resource `scheme` (`copilotcli:`
    /// from the Copilot extension, `claude-code:`, Codex's), whose own logs the Secretary reads.
    pub fn of_chat_scheme(scheme: &str) -> Option<DialogSource> {
        match scheme.to_ascii_lowercase().as_str() {
            "copilotcli" | "copilot-cli" => Some(DialogSource::CopilotCli),
            "claude-code" => Some(DialogSource::ClaudeCode),
            "codex" | "openai-codex" => Some(DialogSource::Codex),
            _ => None,
        }
    }

    /// The source named `name` (`vscode`, `copilot-cli`, `claude-code`, `codex`, `gemini-cli`,
    /// `qwen-code`, `cline`, `roo-code`, `kilo-code`, `continue`, `cursor`).
    pub fn parse(name: &str) -> Option<DialogSource> {
        DialogSource::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl SessionFormat {
    /// The agent that writes files of this format.
    pub fn source(self) -> DialogSource {
        match self {
            SessionFormat::CopilotCli => DialogSource::CopilotCli,
            SessionFormat::ClaudeCode => DialogSource::ClaudeCode,
            SessionFormat::Codex => DialogSource::Codex,
            SessionFormat::GeminiCli => DialogSource::GeminiCli,
            SessionFormat::QwenCode => DialogSource::QwenCode,
            SessionFormat::Cline => DialogSource::Cline,
            SessionFormat::RooCode => DialogSource::RooCode,
            SessionFormat::KiloCode => DialogSource::KiloCode,
            SessionFormat::Continue => DialogSource::Continue,
            SessionFormat::OpenCode => DialogSource::OpenCode,
            SessionFormat::Aider => DialogSource::Aider,
            SessionFormat::Cursor => DialogSource::Cursor,
            _ => DialogSource::Vscode,
        }
    }
}

/// The state of one request, from `modelState`, `isCanceled` and `result.errorDetails`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RequestStatus {
    Complete,
    InProgress,
    Canceled,
    Failed,
    NeedsInput,
}

impl RequestStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RequestStatus::Complete => "complete",
            RequestStatus::InProgress => "inProgress",
            RequestStatus::Canceled => "canceled",
            RequestStatus::Failed => "failed",
            RequestStatus::NeedsInput => "needsInput",
        }
    }
}

/// One user request, in order. `index` is 1-based because that is how people and agents count.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "ChatRequest", optional_fields)
)]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The user's full text: `message.text`, else the joined `message.parts[].text`, else a bare
    /// string `message`.
    pub text: String,
    /// Milliseconds since the Unix epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    pub status: RequestStatus,
}

/// The state of a whole dialog, derived from its last request.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DialogStatus {
    /// No requests yet.
    Empty,
    /// The last request is still being answered.
    Active,
    /// The last request completed.
    Complete,
    Canceled,
    Failed,
    NeedsInput,
}

/// One dialog as read from its session file: what the Secretary serves of it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dialog {
    /// `sessionId`, else the file stem (exports carry no id).
    pub session_id: String,
    /// `customTitle`, else a preview of the first request, else "Untitled dialog".
    pub title: String,
    /// Milliseconds since the Unix epoch; derived from the first request when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_date: Option<i64>,
    /// Milliseconds since the Unix epoch; the latest of `lastMessageDate`, request timestamps and
    /// `creationDate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_activity: Option<i64>,
    /// `initialLocation` (`panel`, `editor`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    pub format: SessionFormat,
    /// The agent that wrote the session (follows from `format`).
    pub source: DialogSource,
    /// The folder the session was held in, as the file itself names it (Claude Code's `cwd`,
    /// Codex's `session_meta.cwd`, Copilot CLI's `session.start` context); VS Code's own files
    /// do not name it (the host knows it from the storage folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    pub requests: Vec<Request>,
    pub status: DialogStatus,
    /// Things the reader noticed but could live with (a cut-off last line, an odd request shape).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub diagnostics: Vec<String>,
}
