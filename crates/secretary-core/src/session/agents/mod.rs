//! Readers for other agents' own session logs, into the same [`Dialog`] model as VS Code's chats:
//! GitHub Copilot CLI ([`copilot_cli`]), Claude Code ([`claude_code`]), OpenAI Codex CLI
//! ([`codex`]), Gemini CLI ([`gemini_cli`]) and Qwen Code ([`qwen_code`]); and the tasks of the
//! VS Code extensions Cline, Roo Code and Kilo Code ([`cline`]), a whole JSON array each, and
//! Continue's sessions ([`continue_dev`]), a whole JSON object each.
//!
//! All but the last two are append-only JSON Lines logs, so they are read through the same [`LineLog`] as
//! VS Code's mutation logs: a log that grew costs the appended lines. Only what the person typed
//! becomes a request: tool results, meta lines, command expansions and the environment or
//! instruction blocks an agent injects are left out. Lines of a type the reader does not know are
//! skipped and counted in a diagnostic, never a failure.
//!
//! Why this module does not use the hand-written visitors of `de.rs`: these logs are small next to
//! VS Code's sessions and their shapes move fast; every reader reads an object as one `serde`
//! struct that borrows its members as `RawValue`s ([`Line`], [`Part`], [`Fields`]: no allocation for the skipped
//! parts), which is easy to keep up to date and just as liberal.

pub(crate) mod aider;
pub(crate) mod claude_code;
pub(crate) mod cline;
pub(crate) mod codex;
pub(crate) mod continue_dev;
pub(crate) mod copilot_cli;
pub(crate) mod cursor;
pub(crate) mod fields;
pub(crate) mod gemini_cli;
pub(crate) mod opencode;
pub(crate) mod qwen_code;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

pub(crate) use fields::{member, object, Fields, Line, Part, Raw};

use super::lines::{line_error, object_line, LineLog, LineSink};
use super::model::{Dialog, Request, RequestStatus, SessionFormat};
use super::record::{empty_dialog, fill_dialog_fields, push_capped, response_text, Got, HeaderRec};
use super::time::parse_iso_ms;
use crate::text::preview;

/// The workspace key of a folder an agent log names: its `file://` URI, spelled as Node's
/// `url.pathToFileURL(folder).href` spells it with the drive letter in lower case (the one
/// spelling the hosts give every workspace key, `workspace.json`'s included, so that an agent's
/// dialogs and VS Code's chats of the same folder share a workspace: VS Code writes
/// `file:///c%3A/...`, an agent's `cwd` says `C:\\...`).
pub fn folder_key(folder: &str) -> String {
    let windows = folder.len() >= 2
        && folder.as_bytes()[1] == b':'
        && folder.as_bytes()[0].is_ascii_alphabetic();
    let mut path = folder.to_string();
    if windows {
        path = path.replace('\\', "/");
        path[..1].make_ascii_lowercase();
    }
    if path.len() > 1 {
        while path.ends_with('/') && path.len() > 1 && !path.ends_with(":/") {
            path.pop();
        }
    }
    let mut out = String::from("file://");
    if windows {
        out.push('/');
    }
    for byte in path.bytes() {
        // What Node's `pathToFileURL` encodes (measured on Node 20 and 24): controls, space,
        // non-ASCII bytes and these.
        let keep = (0x21..=0x7e).contains(&byte) && !b"\"#%<>?[\\]^`{|}~".contains(&byte);
        if keep {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Which agent's log a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agent {
    CopilotCli,
    ClaudeCode,
    Codex,
    GeminiCli,
    QwenCode,
    Aider,
}

impl Agent {
    pub(crate) fn format(self) -> SessionFormat {
        match self {
            Agent::CopilotCli => SessionFormat::CopilotCli,
            Agent::ClaudeCode => SessionFormat::ClaudeCode,
            Agent::Codex => SessionFormat::Codex,
            Agent::GeminiCli => SessionFormat::GeminiCli,
            Agent::QwenCode => SessionFormat::QwenCode,
            Agent::Aider => SessionFormat::Aider,
        }
    }
}

fn has_component(path: &str, wanted: &str) -> bool {
    path.split(['/', '\\']).any(|c| c == wanted)
}

/// Claude Code's line types (the first line of a transcript is one of them).
const CLAUDE_TYPES: &[&str] = &[
    "user",
    "assistant",
    "attachment",
    "system",
    "summary",
    "custom-title",
    "ai-title",
    "agent-name",
    "file-history-snapshot",
    "queue-operation",
    "last-prompt",
    "permission-mode",
    "progress",
    "tag",
    "pr-link",
];

/// Decides whether a file is another agent's log: by its content first (Codex's `session_meta` /
/// `payload`, Claude Code's `parentUuid` and line types), then by where it lies (a Copilot CLI
/// log looks like a Copilot transcript and is told by its `session-state` / `.copilot` folder).
/// `None`: one of VS Code's own formats.
pub(crate) fn detect(file_name: &str, bytes: &[u8]) -> Option<Agent> {
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &bytes[start..];
    if rest.first() != Some(&b'{') {
        return None;
    }
    // The first line's head only (see `first_line_members`): its keys decide, not whether the
    // rest of a possibly huge line is valid.
    let members = super::first_line_members(rest);
    let member = |name: &str| members.iter().rev().find(|(key, _)| *key == name);
    let kind = member("type")
        .and_then(|(_, value)| std::str::from_utf8(value).ok())
        .and_then(|value| serde_json::from_str::<String>(value).ok());
    if kind.as_deref() == Some("session_meta") || member("payload").is_some() {
        return Some(Agent::Codex);
    }
    // Gemini CLI's header; Qwen Code's records look like Claude Code's but carry `provenance`
    // (and lie under `.qwen`).
    if member("projectHash").is_some() {
        return Some(Agent::GeminiCli);
    }
    if member("provenance").is_some()
        || (member("parentUuid").is_some() && has_component(file_name, ".qwen"))
    {
        return Some(Agent::QwenCode);
    }
    if member("parentUuid").is_some() {
        return Some(Agent::ClaudeCode);
    }
    if let Some(kind) = kind.as_deref() {
        if CLAUDE_TYPES.contains(&kind) {
            return Some(Agent::ClaudeCode);
        }
        if kind.contains('.')
            && (has_component(file_name, "session-state") || has_component(file_name, ".copilot"))
        {
            return Some(Agent::CopilotCli);
        }
    }
    let lower = file_name.to_ascii_lowercase();
    if !lower.ends_with(".jsonl") {
        return None;
    }
    // A first line without a `type` (an older Codex rollout) or still being written: the place
    // decides.
    if kind.is_none() {
        let base = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
        if base.starts_with("rollout-") {
            return Some(Agent::Codex);
        }
        if has_component(&lower, ".claude") && has_component(&lower, "projects") {
            return Some(Agent::ClaudeCode);
        }
        if has_component(&lower, ".gemini") && has_component(&lower, "chats") {
            return Some(Agent::GeminiCli);
        }
        if has_component(&lower, ".qwen") && has_component(&lower, "chats") {
            return Some(Agent::QwenCode);
        }
    }
    None
}

/// One request as an agent reader keeps it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Turn {
    pub id: Option<String>,
    pub text: String,
    pub timestamp: Option<i64>,
    pub model: Option<String>,
    /// The agent wrote something after it.
    pub answered: bool,
    /// The agent said the turn is over.
    pub done: bool,
    pub canceled: bool,
    pub failed: bool,
    /// Assistant text (details path only).
    pub markdown: Vec<String>,
    pub tool_calls: usize,
}

/// What the agent readers share: the session's fields, the requests, the skipped
/// line types.
#[derive(Debug, Clone, Default)]
pub(crate) struct Common {
    pub session_id: Option<String>,
    pub folder: Option<String>,
    pub title: Option<String>,
    pub start: Option<i64>,
    pub last_event: Option<i64>,
    pub model: Option<String>,
    pub turns: Vec<Turn>,
    /// Readable lines so far (a file with none is not a session).
    pub events: usize,
    /// Lines of unknown types, by type.
    pub unknown: BTreeMap<String, usize>,
    /// The 0-based request whose response text to keep.
    pub details: Option<usize>,
}

impl Common {
    pub(crate) fn new(details: Option<usize>) -> Self {
        Common {
            details,
            ..Default::default()
        }
    }

    /// Counts a readable line and notes its time; `true` when it moved the last activity.
    pub(crate) fn line_at(&mut self, ts: Option<i64>) -> bool {
        self.events += 1;
        self.seen_at(ts)
    }

    /// Takes the session id from the first line that names one; `true` when it did.
    pub(crate) fn first_session_id(&mut self, raw: Option<&RawValue>) -> bool {
        first(&mut self.session_id, raw)
    }

    /// Takes the folder from the first line that names one; `true` when it did.
    pub(crate) fn first_folder(&mut self, raw: Option<&RawValue>) -> bool {
        first(&mut self.folder, raw)
    }

    /// A new request the person typed, answered (so far) by the model last named.
    pub(crate) fn push_turn(&mut self, id: Option<String>, text: String, timestamp: Option<i64>) {
        self.turns.push(Turn {
            id,
            text,
            timestamp,
            model: self.model.clone(),
            ..Default::default()
        });
    }

    /// The current (last) request is over: the agent said so, or a new run began.
    pub(crate) fn end_turn(&mut self) {
        if let Some(turn) = self.turns.last_mut() {
            turn.done = true;
        }
    }

    /// A new request in a log that marks no end of the one before (Aider's, OpenCode's): that
    /// one is over, then [`Common::push_turn`].
    pub(crate) fn next_turn(&mut self, id: Option<String>, text: String, timestamp: Option<i64>) {
        self.end_turn();
        self.push_turn(id, text, timestamp);
    }

    /// Notes a line's time; `true` when it moved the last activity.
    pub(crate) fn seen_at(&mut self, ts: Option<i64>) -> bool {
        match ts {
            Some(ts) if !matches!(self.last_event, Some(last) if last >= ts) => {
                self.last_event = Some(ts);
                true
            }
            _ => false,
        }
    }

    /// A log line of a type the reader does not know: counted for the diagnostics; `true`, as the
    /// dialog's notes changed (what a log reader's `apply_line` answers for it).
    pub(crate) fn unknown_line(&mut self, kind: &str) -> bool {
        self.unknown_type(kind);
        true
    }

    pub(crate) fn unknown_type(&mut self, kind: &str) {
        // Bounded: a file cannot grow the map without limit.
        if self.unknown.len() < 32 || self.unknown.contains_key(kind) {
            *self.unknown.entry(preview(kind, 40)).or_default() += 1;
        }
    }

    /// The diagnostics of what was skipped as unknown: `3 lines of unknown type `x` skipped`
    /// (`unit`: what the log is made of; `kind`: what told them apart).
    pub(crate) fn unknown_notes(&self, unit: &str, kind: &str) -> Vec<String> {
        self.unknown
            .iter()
            .filter_map(|(name, n)| {
                counted(*n, unit, &format!("of unknown {kind} `{name}` skipped"))
            })
            .collect()
    }

    /// The agent answered the last request (Gemini CLI, Qwen Code): notes the model it named and,
    /// on the details path, its text. `true` when the request changed.
    pub(crate) fn answered(&mut self, model: Option<String>, text: Option<String>) -> bool {
        if model.is_some() {
            self.model = model;
        }
        let wants = self.wants_details();
        let model = self.model.clone();
        let Some(turn) = self.turns.last_mut() else {
            return false;
        };
        if turn.model.is_none() {
            turn.model = model;
        }
        if wants {
            turn.markdown.extend(text);
        }
        !std::mem::replace(&mut turn.answered, true)
    }

    /// Whether assistant text for the current (last) request is wanted.
    pub(crate) fn wants_details(&self) -> bool {
        self.details.is_some() && self.details == self.turns.len().checked_sub(1)
    }

    pub(crate) fn details_of(&self, position: usize) -> Option<(String, usize)> {
        let turn = self.turns.get(position)?;
        Some((response_text(&turn.markdown), turn.tool_calls))
    }

    /// Builds the dialog from the state and its requests and replaces `dialog` when it differs.
    pub(crate) fn refresh(
        &self,
        agent: Agent,
        dialog: &mut Dialog,
        file_name: &str,
        extra_diags: Vec<String>,
    ) -> bool {
        self.refresh_with(agent, &self.turns, dialog, file_name, extra_diags)
    }

    /// [`Common::refresh`] with other requests than the state's (Codex's older rollouts).
    pub(crate) fn refresh_with(
        &self,
        agent: Agent,
        turns: &[Turn],
        dialog: &mut Dialog,
        file_name: &str,
        extra_diags: Vec<String>,
    ) -> bool {
        replace_dialog(
            dialog,
            build(self, agent.format(), turns, file_name, extra_diags),
        )
    }

    /// The steps every reader of a log whose lines all carry a `type` and name the session
    /// (Claude Code's, Qwen Code's) takes first: parses the line, counts it, notes its time and
    /// takes the session id from the first line that names one. `None`: a blank line; an error:
    /// why the line is skipped (not an object, malformed, no `type`).
    pub(crate) fn typed_line<'t>(
        &mut self,
        text: &'t str,
    ) -> Result<Option<TypedLine<'t>>, String> {
        let Some(fields) = parse_line::<Line>(text)? else {
            return Ok(None);
        };
        let kind = raw_str(fields.kind).ok_or_else(|| "no line `type`".to_string())?;
        let ts = raw_time(fields.timestamp);
        let moved = self.line_at(ts);
        let changed = self.first_session_id(fields.session_id) | moved;
        Ok(Some((fields, kind, ts, changed)))
    }
}

/// Puts `fresh` in place of `dialog` when they differ; `true` when it did (what a
/// [`LineSink::refresh`] answers).
pub(crate) fn replace_dialog(dialog: &mut Dialog, fresh: Dialog) -> bool {
    if *dialog == fresh {
        return false;
    }
    *dialog = fresh;
    true
}

/// A line of a log whose every line has a `type`, as [`Common::typed_line`] reads it: its
/// members, its `type`, its time, and whether it moved the last activity or named the session.
pub(crate) type TypedLine<'t> = (Line<'t>, String, Option<i64>, bool);

/// A session the hosts read out of a database (Cursor's `state.vscdb`, OpenCode's and Kilo Code's
/// CLI's databases) is named `<database path>#<row id>`: the database's file name and the id, or
/// `None` when there is no `#`.
pub(crate) fn database_row(file_name: &str) -> Option<(&str, &str)> {
    let (db, id) = file_name.rsplit_once('#')?;
    let base = db.rsplit(['/', '\\']).next().unwrap_or(db);
    Some((base, id))
}

/// `"3 lines {rest}"`: what a reader skipped, counted, with `unit` in the plural when `n` is
/// not 1; `None` when nothing was.
pub(crate) fn counted(n: usize, unit: &str, rest: &str) -> Option<String> {
    let plural = if n == 1 { "" } else { "s" };
    (n > 0).then(|| format!("{n} {unit}{plural} {rest}"))
}

/// The status of a request from what followed it.
pub(crate) fn turn_status(turn: &Turn, last: bool) -> RequestStatus {
    if turn.canceled {
        RequestStatus::Canceled
    } else if turn.failed {
        RequestStatus::Failed
    } else if last && !turn.done && !turn.answered {
        RequestStatus::InProgress
    } else {
        RequestStatus::Complete
    }
}

/// The header fields every agent reader knows: id, start, last activity, title.
fn header_of(common: &Common) -> HeaderRec {
    HeaderRec {
        session_id: common.session_id.clone().map(Got::Val),
        creation_date: common.start.map(Got::Val),
        last_message_date: common.last_event.map(Got::Val),
        custom_title: common.title.clone().map(Got::Val),
        ..Default::default()
    }
}

fn build(
    common: &Common,
    format: SessionFormat,
    turns: &[Turn],
    file_name: &str,
    extra_diags: Vec<String>,
) -> Dialog {
    let mut dialog = dialog_of(format, turns, &header_of(common), file_name, extra_diags);
    dialog.folder = common.folder.clone();
    push_capped(
        &mut dialog.diagnostics,
        &common.unknown_notes("line", "type"),
    );
    dialog
}

/// The reduced state of a session read as a whole (Continue's, OpenCode's): what the readers
/// share, and the items of the file that are not of the format's shape (skipped and counted).
#[derive(Debug, Clone)]
pub(crate) struct WholeState {
    pub common: Common,
    pub odd: usize,
}

impl WholeState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        WholeState {
            common: Common::new(details),
            odd: 0,
        }
    }

    /// Its dialog (see [`whole_dialog`]): what was skipped is said as `odd` `unit`s `rest`, the
    /// unknown kinds as messages of unknown role.
    pub(crate) fn dialog(
        &self,
        format: SessionFormat,
        file_name: &str,
        (unit, rest): (&str, &str),
    ) -> Dialog {
        let skipped = Vec::from_iter(counted(self.odd, unit, rest));
        whole_dialog(
            &self.common,
            format,
            file_name,
            &skipped,
            ("message", "role"),
        )
    }
}

/// The dialog of a session read as a whole (Continue's and OpenCode's sessions, Cursor's
/// conversations): its
/// requests and header fields from `common`; the diagnostics are the header's notes, then
/// `skipped` (what the reader left out, said its own way), then the unknown kinds (`unit`s of
/// unknown `kind`).
pub(crate) fn whole_dialog(
    common: &Common,
    format: SessionFormat,
    file_name: &str,
    skipped: &[String],
    (unit, kind): (&str, &str),
) -> Dialog {
    let mut dialog = dialog_of(
        format,
        &common.turns,
        &header_of(common),
        file_name,
        Vec::new(),
    );
    dialog.folder = common.folder.clone();
    push_capped(&mut dialog.diagnostics, skipped);
    push_capped(&mut dialog.diagnostics, &common.unknown_notes(unit, kind));
    dialog
}

/// The dialog of an agent's turns: its requests (numbered from 1, each one's status from what
/// followed it), the header's fields (`fill_dialog_fields`), and the diagnostics, `leading`
/// first, then what the header lacked. Every reader's dialog is built here; each adds its
/// folder and its own notes.
pub(crate) fn dialog_of(
    format: SessionFormat,
    turns: &[Turn],
    header: &HeaderRec,
    file_name: &str,
    leading: Vec<String>,
) -> Dialog {
    let count = turns.len();
    let mut dialog = empty_dialog(format);
    dialog.requests = turns
        .iter()
        .enumerate()
        .map(|(i, turn)| Request {
            index: i + 1,
            request_id: turn.id.clone(),
            text: turn.text.clone(),
            timestamp: turn.timestamp,
            model_id: turn.model.clone(),
            agent_id: None,
            status: turn_status(turn, i + 1 == count),
        })
        .collect();
    let mut notes = Vec::new();
    fill_dialog_fields(&mut dialog, file_name, header, &mut notes);
    let mut diagnostics = leading;
    push_capped(&mut diagnostics, &notes);
    dialog.diagnostics = diagnostics;
    dialog
}

/// Sets `slot` from `raw` (a JSON string) when it is still empty; `true` when it did.
fn first(slot: &mut Option<String>, raw: Option<&RawValue>) -> bool {
    if slot.is_some() {
        return false;
    }
    *slot = raw_str(raw);
    slot.is_some()
}

/// The text of a whole-file agent session (Cline's task, Continue's session): UTF-8 without a
/// BOM, lone UTF-16 surrogate escapes mended (`JSON.stringify` writes half an emoji as a lone
/// `\ud83d`, which serde refuses), and the top-level value `want` (`"an array"`, `"an object"`),
/// else why not: `the file holds {kind}, not {what}`.
pub(crate) fn whole_json_text<'a>(
    bytes: &'a [u8],
    want: &str,
    what: &str,
) -> Result<std::borrow::Cow<'a, str>, super::SessionError> {
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(bytes);
    let text = super::surrogates::mend_str(super::utf8(bytes)?);
    super::expect_kind(&text, want, what)?;
    Ok(text)
}

/// A JSON string value, if `raw` is one.
pub(crate) fn raw_str(raw: Option<&RawValue>) -> Option<String> {
    let raw = raw?;
    if !raw.get().starts_with('"') {
        return None;
    }
    serde_json::from_str::<String>(raw.get()).ok()
}

/// Whether `raw` is the JSON literal `true`.
pub(crate) fn raw_true(raw: Option<&RawValue>) -> bool {
    raw.is_some_and(|r| r.get() == "true")
}

/// A time given as an ISO 8601 string or as milliseconds.
pub(crate) fn raw_time(raw: Option<&RawValue>) -> Option<i64> {
    let raw = raw?;
    match raw_str(Some(raw)) {
        Some(text) => parse_iso_ms(&text),
        None => raw
            .get()
            .parse::<f64>()
            .ok()
            .and_then(|ms| (ms.is_finite() && ms.abs() < 1e15).then_some(ms as i64)),
    }
}

/// Parses one log line into `T`, with the reasons [`LineLog`] shows for a skipped line. `None`:
/// the line is blank.
pub(crate) fn parse_line<'a, T: Deserialize<'a>>(text: &'a str) -> Result<Option<T>, String> {
    if !object_line(text, "an object")? {
        return Ok(None);
    }
    serde_json::from_str::<T>(text)
        .map(Some)
        .map_err(|e| line_error(&e))
}

/// The reader state of one agent log.
#[derive(Debug, Clone)]
pub(crate) enum AgentSink {
    CopilotCli(copilot_cli::CopilotCliState),
    ClaudeCode(claude_code::ClaudeState),
    Codex(codex::CodexState),
    GeminiCli(gemini_cli::GeminiState),
    QwenCode(qwen_code::QwenState),
    Aider(aider::AiderState),
}

impl AgentSink {
    /// `details`: the 0-based request whose response to keep (the details path).
    pub(crate) fn new(agent: Agent, details: Option<usize>) -> Self {
        match agent {
            Agent::CopilotCli => AgentSink::CopilotCli(copilot_cli::CopilotCliState::new(details)),
            Agent::ClaudeCode => AgentSink::ClaudeCode(claude_code::ClaudeState::new(details)),
            Agent::Codex => AgentSink::Codex(codex::CodexState::new(details)),
            Agent::GeminiCli => AgentSink::GeminiCli(gemini_cli::GeminiState::new(details)),
            Agent::QwenCode => AgentSink::QwenCode(qwen_code::QwenState::new(details)),
            Agent::Aider => AgentSink::Aider(aider::AiderState::new(details)),
        }
    }

    pub(crate) fn events(&self) -> usize {
        match self {
            AgentSink::CopilotCli(s) => s.events(),
            AgentSink::ClaudeCode(s) => s.common.events,
            AgentSink::Codex(s) => s.common.events,
            AgentSink::GeminiCli(s) => s.common.events,
            AgentSink::QwenCode(s) => s.common.events,
            AgentSink::Aider(s) => s.events(),
        }
    }

    pub(crate) fn request_count(&self) -> usize {
        match self {
            AgentSink::CopilotCli(s) => s.request_count(),
            AgentSink::ClaudeCode(s) => s.common.turns.len(),
            AgentSink::Codex(s) => s.turns().len(),
            AgentSink::GeminiCli(s) => s.common.turns.len(),
            AgentSink::QwenCode(s) => s.common.turns.len(),
            AgentSink::Aider(s) => s.common.turns.len(),
        }
    }

    pub(crate) fn details_of(&self, position: usize) -> Option<(String, usize)> {
        match self {
            AgentSink::CopilotCli(s) => s.details_of(position),
            AgentSink::ClaudeCode(s) => s.common.details_of(position),
            AgentSink::Codex(s) => s.details_of(position),
            AgentSink::GeminiCli(s) => s.common.details_of(position),
            AgentSink::QwenCode(s) => s.common.details_of(position),
            AgentSink::Aider(s) => s.common.details_of(position),
        }
    }
}

impl LineSink for AgentSink {
    fn apply_line(&mut self, line: &str) -> Result<bool, String> {
        match self {
            AgentSink::CopilotCli(s) => s.apply_line(line),
            AgentSink::ClaudeCode(s) => s.apply_line(line),
            AgentSink::Codex(s) => s.apply_line(line),
            AgentSink::GeminiCli(s) => s.apply_line(line),
            AgentSink::QwenCode(s) => s.apply_line(line),
            AgentSink::Aider(s) => s.apply_line(line),
        }
    }

    fn blank_line(&mut self) {
        if let AgentSink::Aider(s) = self {
            s.blank_line();
        }
    }

    /// Aider's history is Markdown: a line is whole only at its newline.
    fn reads_partial_lines(&self) -> bool {
        !matches!(self, AgentSink::Aider(_))
    }

    fn refresh(&mut self, dialog: &mut Dialog, file_name: &str, extra_diags: Vec<String>) -> bool {
        match self {
            AgentSink::CopilotCli(s) => s.refresh(dialog, file_name, extra_diags),
            AgentSink::ClaudeCode(s) => {
                s.common
                    .refresh(Agent::ClaudeCode, dialog, file_name, extra_diags)
            }
            AgentSink::Codex(s) => {
                s.common
                    .refresh_with(Agent::Codex, s.turns(), dialog, file_name, extra_diags)
            }
            AgentSink::GeminiCli(s) => {
                s.common
                    .refresh(Agent::GeminiCli, dialog, file_name, extra_diags)
            }
            AgentSink::QwenCode(s) => {
                s.common
                    .refresh(Agent::QwenCode, dialog, file_name, extra_diags)
            }
            AgentSink::Aider(s) => s.refresh(dialog, file_name, extra_diags),
        }
    }

    fn request_count(&self) -> usize {
        AgentSink::request_count(self)
    }

    fn details_of(&self, position: usize) -> Option<(String, usize)> {
        AgentSink::details_of(self, position)
    }
}

/// A fresh log reader for `agent`.
pub(crate) fn new_log(agent: Agent, details: Option<usize>) -> LineLog<AgentSink> {
    LineLog::new(AgentSink::new(agent, details))
}
