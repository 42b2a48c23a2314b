//! The reduced form of a session that readers keep while they read: one [`ReqRecord`] per
//! request and a [`HeaderRec`] for the session's own fields, and the code that turns them into the
//! public [`Dialog`] model.
//!
//! Every field is an `Option<Got<T>>` so that "absent", "null", "the expected type" and "some other
//! type" stay distinct: odd shapes are kept and explained in diagnostics instead of failing a file,
//! and a `.jsonl` log can replace or delete any of them later.

use super::model::{Dialog, DialogStatus, Request, RequestStatus, SessionFormat};
use crate::text::preview;

/// A value that was present in the file: `null`, of the expected type, or of another JSON type
/// (named, for diagnostics).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Got<T> {
    Null,
    Val(T),
    Wrong(&'static str),
}

/// The value of an optional field when it has the expected type.
pub(crate) fn val<T>(field: &Option<Got<T>>) -> Option<&T> {
    match field {
        Some(Got::Val(v)) => Some(v),
        _ => None,
    }
}

/// Mutable access to the value of an optional field when it has the expected type (an object we
/// can set things inside).
pub(crate) fn val_mut<T>(field: &mut Option<Got<T>>) -> Option<&mut T> {
    match field {
        Some(Got::Val(v)) => Some(v),
        _ => None,
    }
}

/// What stands in one slot of the `requests` array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Shape {
    /// A JSON object: a real request.
    #[default]
    Object,
    /// `null`.
    Null,
    /// A slot left empty by a `.jsonl` delete (`kind: 3`) or by an index set past the end.
    Hole,
    /// A request whose `.jsonl` line could not be read: kept empty so that the requests after it
    /// keep their numbers (the line's diagnostic says why).
    Unreadable,
    /// Some other JSON type (named).
    Odd(&'static str),
}

/// A request's `message`: the 2023 bare string, or `{text, parts}`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Msg {
    Bare(String),
    Obj {
        text: Option<Got<String>>,
        /// `parts[].text`, `None` for a part without a string `text`.
        parts: Option<Got<Vec<Option<String>>>>,
    },
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct AgentRec {
    pub id: Option<Got<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ModelStateRec {
    pub value: Option<Got<i64>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ErrRec {
    pub code: Option<Got<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ResultRec {
    pub error_details: Option<Got<ErrRec>>,
}

/// One response part, reduced to what [`super::ResponseDetails`] needs. Only read on the
/// on-demand path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RespPart {
    /// Markdown text (`{value}` without `kind`, `markdownContent`, `markdownVuln`).
    Markdown(String),
    /// An inline file reference, rendered as its name in backticks.
    Inline(String),
    /// A tool invocation: counted, and it ends a run of markdown.
    Tool,
    /// An edit group or another block-level part: ends a run of markdown.
    Block,
    /// Anything else (code block URIs, undo stops, progress...): ignored.
    Other,
}

/// One request as read so far. Large fields (`response`, `result.metadata`, `variableData`...)
/// are never built; `response` is only filled on the on-demand details path.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ReqRecord {
    pub shape: Shape,
    pub request_id: Option<Got<String>>,
    pub timestamp: Option<Got<i64>>,
    pub message: Option<Got<Msg>>,
    pub model_id: Option<Got<String>>,
    pub agent: Option<Got<AgentRec>>,
    pub model_state: Option<Got<ModelStateRec>>,
    pub is_canceled: Option<Got<bool>>,
    pub result: Option<Got<ResultRec>>,
    /// `responseErrorDetails`, the pre-`result` place of the error (old `.json` files).
    pub legacy_error: Option<Got<ErrRec>>,
    pub response: Option<Got<Vec<RespPart>>>,
}

impl ReqRecord {
    pub(crate) fn with_shape(shape: Shape) -> Self {
        ReqRecord {
            shape,
            ..Default::default()
        }
    }
}

/// The session's own fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct HeaderRec {
    pub version: Option<Got<i64>>,
    pub session_id: Option<Got<String>>,
    pub creation_date: Option<Got<i64>>,
    pub last_message_date: Option<Got<i64>>,
    pub custom_title: Option<Got<String>>,
    pub initial_location: Option<Got<String>>,
}

/// Diagnostics of one file, capped so that a file with a million bad lines costs kilobytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Diags {
    items: Vec<String>,
    dropped: usize,
}

/// How many diagnostics a dialog keeps; later ones are only counted.
pub(crate) const MAX_DIAGNOSTICS: usize = 50;

impl Diags {
    pub(crate) fn push(&mut self, message: String) {
        if self.items.len() < MAX_DIAGNOSTICS {
            self.items.push(message);
        } else {
            self.dropped += 1;
        }
    }

    pub(crate) fn clear(&mut self) {
        self.items.clear();
        self.dropped = 0;
    }

    /// Appends these diagnostics (and a count of the dropped ones) to `out`, keeping the cap.
    pub(crate) fn render_into(&self, out: &mut Vec<String>) {
        let mut dropped = self.dropped;
        for item in &self.items {
            if out.len() < MAX_DIAGNOSTICS {
                out.push(item.clone());
            } else {
                dropped += 1;
            }
        }
        if dropped > 0 {
            out.push(format!("... and {dropped} more diagnostics"));
        }
    }
}

/// A request's response text on the details path: its non-blank markdown blocks, trimmed, one
/// blank line apart (every reader that keeps assistant text answers with this).
pub(crate) fn response_text(markdown: &[String]) -> String {
    let blocks: Vec<&str> = markdown
        .iter()
        .map(|m| m.trim())
        .filter(|m| !m.is_empty())
        .collect();
    blocks.join("\n\n")
}

/// Appends `notes` to `out` while keeping the overall cap (the "and N more" line, if any, stays
/// last).
pub(crate) fn push_capped(out: &mut Vec<String>, notes: &[String]) {
    let mut extra = 0usize;
    let mut more_line: Option<String> = None;
    if out.last().is_some_and(|l| l.starts_with("... and ")) {
        more_line = out.pop();
    }
    for note in notes {
        if out.len() < MAX_DIAGNOSTICS {
            out.push(note.clone());
        } else {
            extra += 1;
        }
    }
    let earlier = more_line
        .as_deref()
        .and_then(|l| l.strip_prefix("... and "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(0);
    if earlier + extra > 0 {
        out.push(format!("... and {} more diagnostics", earlier + extra));
    }
}

fn describe<T>(got: &Got<T>) -> &'static str {
    match got {
        Got::Null => "null",
        Got::Val(_) => "set",
        Got::Wrong(kind) => kind,
    }
}

/// The user's text of a request, with a note when nothing could be read.
pub(crate) fn request_text(rec: &ReqRecord, notes: &mut Vec<String>, index: usize) -> String {
    match rec.shape {
        Shape::Object => {}
        Shape::Null => {
            notes.push(format!("request {index} is null; kept as an empty request"));
            return String::new();
        }
        Shape::Hole => {
            notes.push(format!(
                "request {index} was deleted from the log; kept as an empty request"
            ));
            return String::new();
        }
        Shape::Unreadable => {
            notes.push(format!(
                "request {index} could not be read (its log line was skipped); kept as an empty request so later requests keep their numbers"
            ));
            return String::new();
        }
        Shape::Odd(kind) => {
            if let Some(Got::Val(Msg::Bare(text))) = &rec.message {
                notes.push(format!(
                    "request {index} is {kind}, not an object; kept as its text"
                ));
                return text.clone();
            }
            notes.push(format!(
                "request {index} is {kind}, not an object; kept as an empty request"
            ));
            return String::new();
        }
    }
    match &rec.message {
        None => {
            notes.push(format!("request {index} has no message; its text is empty"));
            String::new()
        }
        Some(Got::Val(Msg::Bare(text))) => text.clone(),
        Some(Got::Val(Msg::Obj { text, parts })) => {
            if let Some(Got::Val(text)) = text {
                return text.clone();
            }
            if let Some(Got::Val(parts)) = parts {
                if parts.iter().any(Option::is_some) {
                    return parts.iter().flatten().map(String::as_str).collect();
                }
            }
            notes.push(format!(
                "request {index} has a message without text; its text is empty"
            ));
            String::new()
        }
        Some(other) => {
            notes.push(format!(
                "request {index} has a message that is {}, not text or an object; its text is empty",
                describe(other)
            ));
            String::new()
        }
    }
}

/// The request's state, following VS Code's own reading: `modelState` wins; without it,
/// `isCanceled` means canceled; an `errorDetails` result means canceled (code `canceled`) or
/// failed; otherwise the request completed.
pub(crate) fn request_status(
    rec: &ReqRecord,
    notes: &mut Vec<String>,
    index: usize,
) -> RequestStatus {
    if rec.shape != Shape::Object {
        return RequestStatus::Complete;
    }
    let state = val(&rec.model_state).and_then(|m| val(&m.value)).copied();
    match state {
        Some(0) => return RequestStatus::InProgress,
        Some(2) => return RequestStatus::Canceled,
        Some(3) => return RequestStatus::Failed,
        Some(4) => return RequestStatus::NeedsInput,
        Some(1) | None => {}
        Some(other) => notes.push(format!(
            "request {index} has an unknown modelState {other}; read as complete"
        )),
    }
    if val(&rec.is_canceled) == Some(&true) {
        return RequestStatus::Canceled;
    }
    let error = val(&rec.result)
        .and_then(|r| val(&r.error_details))
        .or_else(|| val(&rec.legacy_error));
    if let Some(error) = error {
        return if val(&error.code).map(String::as_str) == Some("canceled") {
            RequestStatus::Canceled
        } else {
            RequestStatus::Failed
        };
    }
    RequestStatus::Complete
}

/// One public [`Request`] from a record (`index` is 1-based); odd shapes add notes.
pub(crate) fn to_request(rec: &ReqRecord, index: usize, notes: &mut Vec<String>) -> Request {
    let text = request_text(rec, notes, index);
    let status = request_status(rec, notes, index);
    if let Some(Got::Wrong(kind)) = &rec.timestamp {
        // A number is refused only when no millisecond count can hold it.
        let why = if *kind == "a number" {
            "out of range".to_owned()
        } else {
            format!("{kind}, not a number")
        };
        notes.push(format!(
            "request {index} has a timestamp that is {why}; ignored"
        ));
    }
    Request {
        index,
        request_id: val(&rec.request_id).cloned(),
        text,
        timestamp: val(&rec.timestamp).copied(),
        model_id: val(&rec.model_id).cloned(),
        agent_id: val(&rec.agent).and_then(|a| val(&a.id)).cloned(),
        status,
    }
}

/// The file name without folders and without its last extension: the session id of exports and
/// the fallback for files without a readable `sessionId`.
pub(crate) fn file_stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    match base.rfind('.') {
        Some(dot) if dot > 0 => base[..dot].to_string(),
        _ => base.to_string(),
    }
}

/// Sets the dialog-level fields (id, title, dates, location, status) from the header and the
/// already built requests. Shared by every reader so that all formats agree.
pub(crate) fn fill_dialog_fields(
    dialog: &mut Dialog,
    file_name: &str,
    header: &HeaderRec,
    header_notes: &mut Vec<String>,
) {
    dialog.session_id = match &header.session_id {
        Some(Got::Val(id)) if !id.is_empty() && dialog.format != SessionFormat::Export => {
            id.clone()
        }
        Some(Got::Wrong(kind)) => {
            header_notes.push(format!(
                "sessionId is {kind}, not a string; using the file name"
            ));
            file_stem(file_name)
        }
        _ => file_stem(file_name),
    };
    dialog.title = match val(&header.custom_title) {
        Some(title) if !title.trim().is_empty() => title.clone(),
        _ => dialog
            .requests
            .iter()
            .find(|r| !r.text.trim().is_empty())
            .map(|r| preview(&r.text, 80))
            .unwrap_or_else(|| "Untitled dialog".to_string()),
    };
    let first_ts = dialog.requests.iter().find_map(|r| r.timestamp);
    dialog.creation_date = val(&header.creation_date).copied().or(first_ts);
    let mut last = val(&header.last_message_date).copied();
    for ts in dialog
        .requests
        .iter()
        .filter_map(|r| r.timestamp)
        .chain(dialog.creation_date)
    {
        last = Some(last.map_or(ts, |l| l.max(ts)));
    }
    dialog.last_activity = last;
    dialog.location = val(&header.initial_location).cloned();
    dialog.status = match dialog.requests.last() {
        None => DialogStatus::Empty,
        Some(r) => match r.status {
            RequestStatus::InProgress => DialogStatus::Active,
            RequestStatus::Complete => DialogStatus::Complete,
            RequestStatus::Canceled => DialogStatus::Canceled,
            RequestStatus::Failed => DialogStatus::Failed,
            RequestStatus::NeedsInput => DialogStatus::NeedsInput,
        },
    };
}

/// An empty dialog of the given format; [`fill_dialog_fields`] completes it.
pub(crate) fn empty_dialog(format: SessionFormat) -> Dialog {
    Dialog {
        session_id: String::new(),
        title: String::new(),
        creation_date: None,
        last_activity: None,
        location: None,
        format,
        source: format.source(),
        folder: None,
        requests: Vec::new(),
        status: DialogStatus::Empty,
        diagnostics: Vec::new(),
    }
}

/// Builds a whole dialog from records (the one-shot `.json` path).
pub(crate) fn build_dialog(
    file_name: &str,
    format: SessionFormat,
    header: &HeaderRec,
    records: &[ReqRecord],
    mut diagnostics: Vec<String>,
) -> Dialog {
    let mut dialog = empty_dialog(format);
    let mut notes = Vec::new();
    dialog.requests = records
        .iter()
        .enumerate()
        .map(|(i, rec)| to_request(rec, i + 1, &mut notes))
        .collect();
    let mut header_notes = Vec::new();
    fill_dialog_fields(&mut dialog, file_name, header, &mut header_notes);
    push_capped(&mut diagnostics, &header_notes);
    push_capped(&mut diagnostics, &notes);
    dialog.diagnostics = diagnostics;
    dialog
}

/// Markdown of a response: contiguous markdown (and inline references) joined as written, runs
/// separated by blank lines where a tool call or an edit group stood, as VS Code's own copy text
/// does. Returns the text and the number of tool invocations.
pub(crate) fn join_response(parts: &[RespPart]) -> (String, usize) {
    let mut blocks: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut tools = 0usize;
    let flush = |current: &mut String, blocks: &mut Vec<String>| {
        let trimmed = current.trim();
        if !trimmed.is_empty() {
            blocks.push(trimmed.to_string());
        }
        current.clear();
    };
    for part in parts {
        match part {
            RespPart::Markdown(text) => current.push_str(text),
            RespPart::Inline(name) => {
                current.push('`');
                current.push_str(name);
                current.push('`');
            }
            RespPart::Tool => {
                tools += 1;
                flush(&mut current, &mut blocks);
            }
            RespPart::Block => flush(&mut current, &mut blocks),
            RespPart::Other => {}
        }
    }
    flush(&mut current, &mut blocks);
    (blocks.join("\n\n"), tools)
}
