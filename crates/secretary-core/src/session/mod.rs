//! Chat session readers: every format VS Code writes, reduced to [`Dialog`]s.
//!
//! Formats (see `docs/chat-session-formats.md` in the shared docs):
//! - native `chatSessions/<id>.json`, versions 1 to 3 ([`SessionFormat::NativeJson`]);
//! - native `chatSessions/<id>.jsonl` mutation logs, VS Code >= 1.109 ([`SessionFormat::NativeJsonl`]);
//! - "Chat: Export Chat..." files, three generations ([`SessionFormat::Export`]);
//! - Copilot Chat transcripts `transcripts/<sessionId>.jsonl` ([`SessionFormat::Transcript`]);
//! - other agents' own logs: GitHub Copilot CLI, Claude Code, OpenAI Codex CLI, Gemini CLI, Qwen
//!   Code, and the tasks of the VS Code extensions Cline, Roo Code and Kilo Code (`agents/`).
//!
//! Why this is fast and small: sessions reach hundreds of megabytes, almost all of it response
//! bodies, tool results and metadata that the dialog model never shows. The readers never build
//! a JSON tree of the file: hand-written serde visitors pick the few fields the [`Dialog`] needs
//! and skip everything else with serde's `IgnoredAny`, which serde_json walks without allocating
//! (and iteratively, so deep nesting cannot overflow the stack). A `.json` file, and each line of
//! a `.jsonl` mutation log, first goes through a byte-level fast path ([`fast`], [`scan`],
//! `mutation::fast`): the skipped values are stepped over 16 bytes at a time and only the kept
//! ones reach the visitors; anything it does not vouch for is read by the visitors alone, so
//! results and errors are the same. Response text is read only on
//! demand, for one request, by [`response_details`].
//!
//! Why it never loses a session: VS Code itself is lenient, and a session that one odd field
//! made unreadable would be a session the user cannot find. Odd shapes are kept with what could
//! be read and explained in [`Dialog::diagnostics`]; only files that are not sessions at all
//! (empty, not UTF-8, truncated or malformed JSON, the wrong kind of JSON) fail, with a
//! [`SessionError`] that says why.

mod agents;
mod de;
mod fast_json;
mod lines;
pub mod live;
mod model;
mod mutation;
mod record;
mod scan;
mod store;
mod summary;
mod surrogates;
mod time;
mod transcript;

pub use agents::copilot_cli::workspace_yaml_cwd;
pub use agents::folder_key;
pub use model::*;
pub use store::{ApplyOutcome, FileMeta, ReadPlan, SessionStore, StoredDialog};
pub use summary::DialogSummary;

use serde::Serialize;

use de::{json_kind_of, Detail, TopSeed};
use lines::{LineLog, LineSink};
use mutation::MutationState;
use record::{build_dialog, join_response, Got, RespPart};
use serde::de::DeserializeSeed;
use transcript::TranscriptState;

/// The largest session file the Secretary reads: 512 MiB. VS Code itself cannot hold a bigger
/// session in one JavaScript string, so anything larger is not a session it wrote; refusing it
/// keeps one stray file from exhausting a host's (or a wasm instance's) memory.
pub const MAX_SESSION_BYTES: usize = 512 * 1024 * 1024;

/// The most requests the Secretary reads of one session: 100,000. What the core keeps grows with
/// the requests, not the bytes: 500 MB of tiny requests (8.5 million) exhausted the wasm instance's
/// 4 GiB, and the reset read the same file again, forever (issue 27). Requests past the cap are not
/// read (the dialog's diagnostics say so); a line-based log stops applying lines there. VS Code
/// compacts its logs long before: a real chat holds hundreds of requests.
pub const MAX_REQUESTS: usize = 100_000;

/// The diagnostic of a dialog cut at [`MAX_REQUESTS`].
pub(crate) fn request_cap_note() -> String {
    format!("the session reached the cap of {MAX_REQUESTS} requests; later requests are not read")
}

/// Why a file could not be read as a chat session. Every variant's message says what is wrong
/// with *this* file, for hosts to show next to its path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is {size} bytes, over the {limit}-byte limit for a chat session")]
    TooLarge { size: u64, limit: u64 },
    #[error("the file is not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 { offset: usize },
    #[error("the file ends in the middle of its JSON (line {line}, column {column}); it may be cut off or still being written")]
    Truncated { line: usize, column: usize },
    #[error("malformed JSON at line {line}, column {column}: {message}")]
    Malformed {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("the JSON is nested too deeply (line {line}, column {column}); no chat session looks like this")]
    TooDeep { line: usize, column: usize },
    #[error("not a chat session: {0}")]
    NotASession(String),
    #[error("the mutation log has no readable initial state (a complete `kind: 0` line){0}")]
    NoInitialState(String),
    #[error("request {index} does not exist (the dialog has {count} requests)")]
    RequestOutOfRange { index: usize, count: usize },
}

/// The response to one request, read on demand (it is never kept in a [`Dialog`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseDetails {
    /// The response's markdown: markdown parts (no `kind`, or `markdownContent` /
    /// `markdownVuln`) and inline file references as written, with a blank line where a tool
    /// call or an edit group interrupted the text.
    pub markdown: String,
    /// How many tool invocations (`toolInvocationSerialized`) the response holds.
    pub tool_calls: usize,
}

/// Which reader a file needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// One JSON object: native `.json` or an export (told apart by its keys).
    Json,
    /// A native mutation log.
    Jsonl,
    /// A Copilot transcript.
    Transcript,
    /// Another agent's log (Copilot CLI, Claude Code, Codex).
    Agent(agents::Agent),
    /// A Cline, Roo Code or Kilo Code task's `ui_messages.json`: one JSON array rewritten in
    /// place, so read as a whole file.
    Task(agents::cline::TaskAgent),
    /// A Continue session: one JSON object rewritten in place.
    Continue,
    /// An OpenCode session: what a host read from OpenCode's database, or an `opencode export`.
    OpenCode,
    /// One Cursor conversation: the rows of a `state.vscdb` the host read (`agents::cursor`).
    Cursor,
}

/// The first key of the first non-blank line, if it is a plain short string (cheap sniffing that
/// never parses a whole, possibly huge, first line).
fn first_key(bytes: &[u8]) -> Option<&[u8]> {
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(bytes);
    let mut rest = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|at| &bytes[at..])?;
    rest = rest.strip_prefix(b"{")?;
    let at = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    rest = rest[at..].strip_prefix(b"\"")?;
    let end = rest
        .iter()
        .take(64)
        .position(|&b| b == b'"' || b == b'\\')?;
    (rest[end] == b'"').then(|| &rest[..end])
}

/// How much of a file's first line the format sniffing reads. Every format puts the keys that
/// tell it apart (`kind`, `type`, `parentUuid`, `payload`) before any large value, and a bound
/// keeps choosing the reader cheap for a one-line `.json` session of hundreds of MB.
pub(crate) const SNIFF_BYTES: usize = 64 * 1024;

/// The top-level members of the object on the first non-blank line (a BOM skipped), read from at
/// most its first [`SNIFF_BYTES`]: see [`scan::leading_members`]. The answer depends on the
/// line's head only, so it does not change as a log's first line is written out.
pub(crate) fn first_line_members(bytes: &[u8]) -> Vec<(&str, &[u8])> {
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(bytes);
    let Some(start) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Vec::new();
    };
    let head = &bytes[start..bytes.len().min(start + SNIFF_BYTES)];
    let line = match memchr::memchr(b'\n', head) {
        Some(end) => &head[..end],
        None => head,
    };
    scan::leading_members(line)
}

/// Whether the first line's object has a top-level `kind` / `type` key.
fn first_line_keys(bytes: &[u8]) -> (bool, bool) {
    let members = first_line_members(bytes);
    let has = |name: &str| members.iter().any(|(key, _)| *key == name);
    (has("kind"), has("type"))
}

fn has_component(file_name: &str, wanted: &str) -> bool {
    file_name
        .split(['/', '\\'])
        .any(|c| c.eq_ignore_ascii_case(wanted))
}

/// Decides the reader from the file name and the first key of the first line: `kind` is a
/// mutation log, `type` a transcript (except in a `.json` file, which is always one object);
/// otherwise a `transcripts` folder means a transcript, `.jsonl` a mutation log, anything else
/// one JSON object.
pub(crate) fn detect(file_name: &str, bytes: &[u8]) -> FileKind {
    if let Some(agent) = agents::cline::detect(file_name) {
        return FileKind::Task(agent);
    }
    if agents::continue_dev::detect(file_name) {
        return FileKind::Continue;
    }
    if agents::opencode::detect(file_name) || first_key(bytes) == Some(b"info".as_slice()) {
        return FileKind::OpenCode;
    }
    if agents::aider::detect(file_name) {
        return FileKind::Agent(agents::Agent::Aider);
    }
    if agents::cursor::detect(file_name) {
        return FileKind::Cursor;
    }
    if let Some(agent) = agents::detect(file_name, bytes) {
        return FileKind::Agent(agent);
    }
    let lower = file_name.to_ascii_lowercase();
    let key = first_key(bytes);
    match key {
        Some(b"kind") => return FileKind::Jsonl,
        Some(b"type") if !lower.ends_with(".json") => return FileKind::Transcript,
        _ => {}
    }
    if lower.ends_with(".json") {
        return FileKind::Json;
    }
    if key.is_some() {
        match first_line_keys(bytes) {
            (true, _) => return FileKind::Jsonl,
            (false, true) => return FileKind::Transcript,
            _ => {}
        }
    }
    // Without a telling first key (a log's first line is always complete once the file reads
    // at all, so this choice does not change as the file grows): the folder decides.
    if has_component(file_name, "transcripts") {
        return FileKind::Transcript;
    }
    if lower.ends_with(".jsonl") {
        return FileKind::Jsonl;
    }
    FileKind::Json
}

/// The checks every file goes through before its reader runs.
fn precheck(bytes: &[u8], limit: usize) -> Result<(), SessionError> {
    if bytes.len() > limit {
        return Err(SessionError::TooLarge {
            size: bytes.len() as u64,
            limit: limit as u64,
        });
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(SessionError::Empty);
    }
    Ok(())
}

fn json_error(error: serde_json::Error) -> SessionError {
    use serde_json::error::Category;
    let (line, column) = (error.line(), error.column());
    let text = error.to_string();
    let message = match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    };
    match error.classify() {
        Category::Eof => SessionError::Truncated { line, column },
        _ if message.starts_with("recursion limit exceeded") => {
            SessionError::TooDeep { line, column }
        }
        _ => SessionError::Malformed {
            line,
            column,
            message,
        },
    }
}

/// `bytes` as text, or where they stop being UTF-8. Why simdutf8: on sessions with non-ASCII
/// text, std's validator was half of the whole read; simdutf8 checks 16 or 32 bytes at a time
/// (SSE/AVX2 natively, SIMD128 in the wasm module). Its fast check gives no position, so a
/// failure is checked again by std, which gives the same offset as before.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, SessionError> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(_) => std::str::from_utf8(bytes).map_err(|e| SessionError::NotUtf8 {
            offset: e.valid_up_to(),
        }),
    }
}

/// One line as text, with std's error (and its position) when it is not UTF-8; see [`utf8`].
pub(crate) fn utf8_line(line: &[u8]) -> Result<&str, std::str::Utf8Error> {
    match simdutf8::basic::from_utf8(line) {
        Ok(text) => Ok(text),
        Err(_) => std::str::from_utf8(line),
    }
}

/// Which reader walks a `.json` file or a `.jsonl` mutation log's lines: the byte-level scanner
/// of [`fast`] and `mutation::fast` (falling back to the visitors on anything it does not vouch
/// for), or the serde visitors alone (the reference the fast path is tested against).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Path {
    Fast,
    Visitors,
}

/// A whole file's text must hold `want` ("an object", "an array") at the top: else it is not a
/// session (`the file holds {kind}, not {what}`), or it is empty.
pub(crate) fn expect_kind(text: &str, want: &str, what: &str) -> Result<(), SessionError> {
    match json_kind_of(text) {
        Some(kind) if kind == want => Ok(()),
        Some(kind) => Err(SessionError::NotASession(format!(
            "the file holds {kind}, not {what}"
        ))),
        None => Err(SessionError::Empty),
    }
}

/// A `.json` file (native or export), read as far as `detail` asks.
fn read_json(
    bytes: &[u8],
    detail: Detail,
    path: Path,
) -> Result<(SessionFormat, de::TopRaw, Vec<String>), SessionError> {
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(bytes);
    let text = match path {
        Path::Fast => utf8(bytes)?,
        Path::Visitors => std::str::from_utf8(bytes).map_err(|e| SessionError::NotUtf8 {
            offset: e.valid_up_to(),
        })?,
    };
    // `JSON.stringify` writes half an emoji as a lone `\ud83d`, which serde refuses: read as U+FFFD.
    let mended = surrogates::mend_str(text);
    let text: &str = &mended;
    expect_kind(text, "an object", "a session object")?;
    let top = read_top(text, detail, path)?;
    let native = top.header.version.is_some()
        || top.header.session_id.is_some()
        || top.header.creation_date.is_some();
    let diagnostics = top_diagnostics(&top, native)?;
    let format = if native {
        SessionFormat::NativeJson
    } else {
        SessionFormat::Export
    };
    Ok((format, top, diagnostics))
}

/// The session object of a `.json` text: through the fast path when it vouches for the text,
/// else (and always on `Path::Visitors`) through the serde visitors, with their errors.
fn read_top(text: &str, detail: Detail, path: Path) -> Result<de::TopRaw, SessionError> {
    if path == Path::Fast {
        if let Ok(top) = fast_json::read_top(text, detail) {
            return Ok(top);
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let top = TopSeed { detail }
        .deserialize(&mut de)
        .map_err(json_error)?;
    de.end().map_err(json_error)?;
    match top {
        Got::Val(top) => Ok(top),
        _ => Err(SessionError::NotASession(
            "the file does not hold a session object".into(),
        )),
    }
}

/// What a session object's `requests` and `version` say beside its requests; an object that is
/// not `native` (no version, id or date) must hold a `requests` array to be a session (an export).
fn top_diagnostics(top: &de::TopRaw, native: bool) -> Result<Vec<String>, SessionError> {
    let mut diagnostics = Vec::new();
    match &top.requests {
        Some(Got::Val(list)) if list.len() >= MAX_REQUESTS => diagnostics.push(request_cap_note()),
        Some(Got::Val(_)) => {}
        None if native => {
            diagnostics.push("the session has no `requests` array; no requests read".to_string())
        }
        None => {
            return Err(SessionError::NotASession(
                "a JSON object without `requests`".into(),
            ))
        }
        Some(Got::Null) if native => {
            diagnostics.push("`requests` is null; no requests read".to_string())
        }
        Some(Got::Wrong(kind)) if native => diagnostics.push(format!(
            "`requests` is {kind}, not an array; no requests read"
        )),
        Some(Got::Null) => return Err(SessionError::NotASession("`requests` is null".into())),
        Some(Got::Wrong(kind)) => {
            return Err(SessionError::NotASession(format!(
                "`requests` is {kind}, not an array"
            )))
        }
    }
    if let Some(Got::Val(version)) = &top.header.version {
        if !(1..=3).contains(version) {
            diagnostics.push(format!(
                "unknown session version {version}; read like version 3"
            ));
        }
    }
    Ok(diagnostics)
}

/// A reader kept by the store to apply appends to.
#[derive(Debug, Clone)]
pub(crate) enum LiveReader {
    /// Whole-file formats: every change is a full read.
    Whole,
    Mutation(Box<LineLog<MutationState>>),
    Transcript(Box<LineLog<TranscriptState>>),
    Agent(Box<LineLog<agents::AgentSink>>),
}

impl LiveReader {
    /// The line log behind an appendable reader (`None` for whole-file formats).
    pub(crate) fn log(&self) -> Option<&dyn store::LiveLog> {
        match self {
            LiveReader::Whole => None,
            LiveReader::Mutation(log) => Some(log.as_ref()),
            LiveReader::Transcript(log) => Some(log.as_ref()),
            LiveReader::Agent(log) => Some(log.as_ref()),
        }
    }

    pub(crate) fn log_mut(&mut self) -> Option<&mut dyn store::LiveLog> {
        match self {
            LiveReader::Whole => None,
            LiveReader::Mutation(log) => Some(log.as_mut()),
            LiveReader::Transcript(log) => Some(log.as_mut()),
            LiveReader::Agent(log) => Some(log.as_mut()),
        }
    }
}

/// The log's own diagnostics (skipped lines, then a cut-off last line).
pub(crate) fn log_diags<S: lines::LineSink>(log: &LineLog<S>) -> Vec<String> {
    let mut out = Vec::new();
    log.diags.render_into(&mut out);
    if let Some(note) = log.pending_note() {
        record::push_capped(&mut out, &[note.to_string()]);
    }
    out
}

/// Reads a whole file into a dialog and the reader state that can take appends.
pub(crate) fn read_full(
    file_name: &str,
    bytes: &[u8],
    limit: usize,
) -> Result<(Dialog, LiveReader), SessionError> {
    read_full_by(file_name, bytes, limit, Path::Fast)
}

fn read_full_by(
    file_name: &str,
    bytes: &[u8],
    limit: usize,
    path: Path,
) -> Result<(Dialog, LiveReader), SessionError> {
    precheck(bytes, limit)?;
    read_full_as(file_name, bytes, detect(file_name, bytes), path)
}

/// [`read_full`] with the reader chosen by the caller.
fn read_full_as(
    file_name: &str,
    bytes: &[u8],
    kind: FileKind,
    path: Path,
) -> Result<(Dialog, LiveReader), SessionError> {
    match kind {
        FileKind::Task(agent) => {
            let state = agents::cline::read(bytes, None)?;
            Ok((
                agents::cline::dialog(&state, agent, file_name),
                LiveReader::Whole,
            ))
        }
        FileKind::Continue => {
            let state = agents::continue_dev::read(bytes, None)?;
            Ok((
                agents::continue_dev::dialog(&state, file_name),
                LiveReader::Whole,
            ))
        }
        FileKind::OpenCode => {
            let state = agents::opencode::read(bytes, None)?;
            Ok((
                agents::opencode::dialog(&state, file_name),
                LiveReader::Whole,
            ))
        }
        FileKind::Cursor => {
            let state = agents::cursor::read(bytes, file_name, None)?;
            Ok((agents::cursor::dialog(&state, file_name), LiveReader::Whole))
        }
        FileKind::Agent(agent) => {
            let mut log = agents::new_log(agent, None);
            log.feed(bytes);
            let diags = log_diags(&log);
            if log.sink.events() == 0 {
                return Err(nothing_read("no readable line", &diags));
            }
            let mut dialog = record::empty_dialog(agent.format());
            log.sink.refresh(&mut dialog, file_name, diags);
            Ok((dialog, LiveReader::Agent(Box::new(log))))
        }
        FileKind::Json => {
            let (format, top, diagnostics) = read_json(bytes, Detail::Off, path)?;
            let records = match &top.requests {
                Some(Got::Val(list)) => list.as_slice(),
                _ => &[],
            };
            Ok((
                build_dialog(file_name, format, &top.header, records, diagnostics),
                LiveReader::Whole,
            ))
        }
        FileKind::Jsonl => {
            let mut log = LineLog::new(MutationState::new(Detail::Off, path));
            log.feed(bytes);
            if !log.sink.initialized() {
                return Err(no_initial_state(&log));
            }
            let mut dialog = mutation::new_dialog();
            let diags = log_diags(&log);
            log.sink.refresh(&mut dialog, file_name, diags);
            Ok((dialog, LiveReader::Mutation(Box::new(log))))
        }
        FileKind::Transcript => {
            let mut log = LineLog::new(TranscriptState::new(None));
            log.feed(bytes);
            let diags = log_diags(&log);
            if log.sink.events() == 0 {
                return Err(nothing_read("no readable transcript event", &diags));
            }
            let mut dialog = transcript::new_dialog();
            log.sink.refresh(&mut dialog, file_name, diags);
            Ok((dialog, LiveReader::Transcript(Box::new(log))))
        }
    }
}

/// A log none of whose lines could be read: `what` was not found, with the first reason a line
/// was skipped when there is one (`no readable line (line 1 skipped: ...)`).
fn nothing_read(what: &str, diags: &[String]) -> SessionError {
    let why = diags.first().map(|d| format!(" ({d})")).unwrap_or_default();
    SessionError::NotASession(format!("{what}{why}"))
}

fn no_initial_state(log: &LineLog<MutationState>) -> SessionError {
    let diags = log_diags(log);
    match diags.first() {
        Some(first) => SessionError::NoInitialState(format!(": {first}")),
        None => SessionError::NoInitialState(String::new()),
    }
}

/// Reads one chat session file. The format is detected from the name and the content (see the
/// module docs); the session id falls back to the file stem. Files over
/// [`MAX_SESSION_BYTES`] are refused.
pub fn parse(file_name: &str, bytes: &[u8]) -> Result<Dialog, SessionError> {
    parse_with_limit(file_name, bytes, MAX_SESSION_BYTES)
}

/// [`parse`] with another size limit (tests, or hosts that want a smaller one).
pub fn parse_with_limit(
    file_name: &str,
    bytes: &[u8],
    max_bytes: usize,
) -> Result<Dialog, SessionError> {
    read_full(file_name, bytes, max_bytes).map(|(dialog, _)| dialog)
}

/// [`parse`] through the serde visitors alone, without the byte-level fast path: the reference
/// the fast path is tested against (`tests/session_fastpath.rs`). Not for hosts.
#[doc(hidden)]
pub fn parse_with_visitors(file_name: &str, bytes: &[u8]) -> Result<Dialog, SessionError> {
    read_full_by(file_name, bytes, MAX_SESSION_BYTES, Path::Visitors).map(|(dialog, _)| dialog)
}

/// Reads a file as the given source's format, whatever its name and first line suggest (hosts
/// that know where a file came from: `secretary show --source`). `DialogSource::Vscode` detects
/// among VS Code's own formats only.
pub fn parse_as(
    source: DialogSource,
    file_name: &str,
    bytes: &[u8],
) -> Result<Dialog, SessionError> {
    precheck(bytes, MAX_SESSION_BYTES)?;
    let kind = match source {
        DialogSource::CopilotCli => FileKind::Agent(agents::Agent::CopilotCli),
        DialogSource::ClaudeCode => FileKind::Agent(agents::Agent::ClaudeCode),
        DialogSource::Codex => FileKind::Agent(agents::Agent::Codex),
        DialogSource::GeminiCli => FileKind::Agent(agents::Agent::GeminiCli),
        DialogSource::QwenCode => FileKind::Agent(agents::Agent::QwenCode),
        DialogSource::Cline => FileKind::Task(agents::cline::TaskAgent::Cline),
        DialogSource::RooCode => FileKind::Task(agents::cline::TaskAgent::RooCode),
        // Kilo Code's CLI keeps OpenCode's tables (`kilo.db`); its VS Code extension, Cline's tasks.
        DialogSource::KiloCode if agents::opencode::detect(file_name) => FileKind::OpenCode,
        DialogSource::KiloCode => FileKind::Task(agents::cline::TaskAgent::KiloCode),
        DialogSource::Continue => FileKind::Continue,
        DialogSource::OpenCode => FileKind::OpenCode,
        DialogSource::Aider => FileKind::Agent(agents::Agent::Aider),
        DialogSource::Cursor => FileKind::Cursor,
        DialogSource::Vscode => match detect(file_name, bytes) {
            FileKind::Agent(_)
            | FileKind::Task(_)
            | FileKind::Continue
            | FileKind::OpenCode
            | FileKind::Cursor
                if file_name.to_ascii_lowercase().ends_with(".json") =>
            {
                FileKind::Json
            }
            FileKind::Agent(_)
            | FileKind::Task(_)
            | FileKind::Continue
            | FileKind::OpenCode
            | FileKind::Cursor => FileKind::Transcript,
            other => other,
        },
    };
    read_full_as(file_name, bytes, kind, Path::Fast).map(|(dialog, _)| dialog)
}

/// Whether a Gemini CLI log shows a compression after the last prompt that carried `mark` in a
/// hook's `<hook_context>` (the recall hook, `recall::answer`); the format knowledge stays in the
/// Gemini CLI reader.
pub fn gemini_recall_pending(bytes: &[u8], mark: &str) -> bool {
    agents::gemini_cli::recall_pending(bytes, mark)
}

/// The response to request `index` (1-based, as in [`Request::index`]) of a session file: its
/// markdown and its number of tool calls. Slower than [`parse`] (it reads that one response's
/// parts), so hosts call it on demand.
pub fn response_details(
    file_name: &str,
    bytes: &[u8],
    index: usize,
) -> Result<ResponseDetails, SessionError> {
    response_details_by(file_name, bytes, index, Path::Fast)
}

/// [`response_details`] through the serde visitors alone (see [`parse_with_visitors`]).
#[doc(hidden)]
pub fn response_details_with_visitors(
    file_name: &str,
    bytes: &[u8],
    index: usize,
) -> Result<ResponseDetails, SessionError> {
    response_details_by(file_name, bytes, index, Path::Visitors)
}

fn response_details_by(
    file_name: &str,
    bytes: &[u8],
    index: usize,
    path: Path,
) -> Result<ResponseDetails, SessionError> {
    precheck(bytes, MAX_SESSION_BYTES)?;
    let slot = index.checked_sub(1);
    let out_of_range = |count: usize| SessionError::RequestOutOfRange { index, count };
    match detect(file_name, bytes) {
        FileKind::Json => {
            let (_, top, _) = read_json(bytes, slot.map_or(Detail::Off, Detail::Slot), path)?;
            let records = match &top.requests {
                Some(Got::Val(list)) => list.as_slice(),
                _ => &[],
            };
            let rec = slot
                .and_then(|s| records.get(s))
                .ok_or_else(|| out_of_range(records.len()))?;
            Ok(details_of(rec.response.as_ref()))
        }
        FileKind::Jsonl => {
            let detail = slot.map_or(Detail::Off, Detail::Slot);
            let mut log = LineLog::new(MutationState::new(detail, path));
            log.feed(bytes);
            if !log.sink.initialized() {
                return Err(no_initial_state(&log));
            }
            details_in(&log, slot, index)
        }
        FileKind::Agent(agent) => {
            let mut log = agents::new_log(agent, slot);
            log.feed(bytes);
            details_in(&log, slot, index)
        }
        FileKind::Task(_) => {
            let state = agents::cline::read(bytes, slot)?;
            whole_details(&state.common, slot, index)
        }
        FileKind::Continue => {
            let state = agents::continue_dev::read(bytes, slot)?;
            whole_details(&state.common, slot, index)
        }
        FileKind::OpenCode => {
            let state = agents::opencode::read(bytes, slot)?;
            whole_details(&state.common, slot, index)
        }
        FileKind::Cursor => {
            let state = agents::cursor::read(bytes, file_name, slot)?;
            whole_details(&state.common, slot, index)
        }
        FileKind::Transcript => {
            let mut log = LineLog::new(TranscriptState::new(slot));
            log.feed(bytes);
            details_in(&log, slot, index)
        }
    }
}

/// The details of the response at `slot` of a whole-file agent format (Cline's tasks, Continue's
/// sessions) read on the details path, or the out-of-range error for request `index`.
fn whole_details(
    common: &agents::Common,
    slot: Option<usize>,
    index: usize,
) -> Result<ResponseDetails, SessionError> {
    let (markdown, tool_calls) =
        slot.and_then(|s| common.details_of(s))
            .ok_or(SessionError::RequestOutOfRange {
                index,
                count: common.turns.len(),
            })?;
    Ok(ResponseDetails {
        markdown,
        tool_calls,
    })
}

/// The details of the response at `slot` in a line log read on the details path, whatever its
/// format (the [`lines::LineSink`] answers), or the out-of-range error for request `index`.
fn details_in<S: lines::LineSink>(
    log: &LineLog<S>,
    slot: Option<usize>,
    index: usize,
) -> Result<ResponseDetails, SessionError> {
    let (markdown, tool_calls) =
        slot.and_then(|s| log.sink.details_of(s))
            .ok_or(SessionError::RequestOutOfRange {
                index,
                count: log.sink.request_count(),
            })?;
    Ok(ResponseDetails {
        markdown,
        tool_calls,
    })
}

fn details_of(response: Option<&Got<Vec<RespPart>>>) -> ResponseDetails {
    match response {
        Some(Got::Val(parts)) => {
            let (markdown, tool_calls) = join_response(parts);
            ResponseDetails {
                markdown,
                tool_calls,
            }
        }
        _ => ResponseDetails {
            markdown: String::new(),
            tool_calls: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sniff reads the first line's head only: a key past [`SNIFF_BYTES`] is not seen, and
    /// a huge or broken rest of the line does not hide the keys before it.
    #[test]
    fn format_sniffing_reads_a_bounded_head() {
        let long = "a".repeat(SNIFF_BYTES);
        let late = format!("{{\"x\":\"{long}\",\"type\":\"user\"}}\n");
        let keys = |text: &str| -> Vec<String> {
            first_line_members(text.as_bytes())
                .iter()
                .map(|(key, _)| key.to_string())
                .collect()
        };
        assert_eq!(keys(&late), ["x"]);
        let early = format!("\u{feff}\n  {{\"type\":\"user\",\"x\":\"{long}\" broken");
        let members = first_line_members(early.as_bytes());
        assert_eq!(members.first(), Some(&("type", b"\"user\"".as_slice())));
        assert_eq!(members.len(), 2);
        // Only the first line counts.
        assert_eq!(
            first_line_members(b"{\"a\":1,\n\"type\":\"user\"}").len(),
            1
        );
    }
}
