//! Copilot Chat's own transcripts: `GitHub.copilot-chat/transcripts/<sessionId>.jsonl`.
//!
//! One event per line, `{type, data, id, timestamp, parentId}` with an ISO 8601 `timestamp`, in
//! the Copilot agent's event schema: `session.start` (`data.sessionId`, `data.startTime`,
//! `data.selectedModel`, `data.producer: "copilot-agent"`), `user.message` (`data.content`, the
//! user's text; `data.interactionId`), `assistant.turn_start` / `assistant.turn_end`,
//! `assistant.message` (`data.content`, `data.toolRequests`), `tool.execution_start` /
//! `tool.execution_complete`, `session.model_change` (`data.newModel`), `abort`,
//! `session.error`, `session.shutdown`. Unknown event types are ignored.
//!
//! Each `user.message` is a request. A request is in progress while an assistant turn is open
//! (or nothing answered it yet) and it is the last one; `abort` cancels it, `session.error`
//! fails it. Transcripts are a secondary source: the store prefers a native file with the same
//! session id.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::de::{next_l, FromMap, Key, ObjSeed, Prim, L};
use super::lines::{line_error, object_line, LineSink};
use super::model::{Dialog, Request, RequestStatus, SessionFormat};
use super::record::{empty_dialog, fill_dialog_fields, push_capped, response_text, Got, HeaderRec};
use super::time::parse_iso_ms;

/// A time: an ISO 8601 string or milliseconds.
struct TimeMs(i64);

impl Prim for TimeMs {
    fn from_i64(v: i64) -> Option<Self> {
        Some(TimeMs(v))
    }
    fn from_u64(v: u64) -> Option<Self> {
        i64::try_from(v).ok().map(TimeMs)
    }
    fn from_f64(v: f64) -> Option<Self> {
        <i64 as Prim>::from_f64(v).map(TimeMs)
    }
    fn from_str(s: &str) -> Option<Self> {
        parse_iso_ms(s).map(TimeMs)
    }
}

fn got_time(got: Option<Got<TimeMs>>) -> Option<i64> {
    match got {
        Some(Got::Val(TimeMs(ms))) => Some(ms),
        _ => None,
    }
}

fn got_str(got: Option<Got<String>>) -> Option<String> {
    match got {
        Some(Got::Val(s)) => Some(s),
        _ => None,
    }
}

/// The parts of an event's `data` we read. `content` is only kept for user messages (and
/// assistant messages on the details path).
#[derive(Default)]
struct EvData {
    session_id: Option<String>,
    start_time: Option<i64>,
    selected_model: Option<String>,
    new_model: Option<String>,
    content: Option<Got<String>>,
    interaction_id: Option<String>,
}

impl<'de> FromMap<'de> for EvData {
    /// Whether to keep `content`.
    type Ctx = bool;
    fn field<A: MapAccess<'de>>(
        &mut self,
        keep_content: bool,
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        match key {
            "sessionId" => self.session_id = got_str(next_l(map)?),
            "startTime" => self.start_time = got_time(next_l(map)?),
            "selectedModel" => self.selected_model = got_str(next_l(map)?),
            "newModel" => self.new_model = got_str(next_l(map)?),
            "interactionId" => self.interaction_id = got_str(next_l(map)?),
            "content" if keep_content => self.content = next_l(map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

fn keeps_content(kind: &str, details: bool) -> bool {
    kind == "user.message" || (details && kind == "assistant.message")
}

struct Event {
    kind: Option<Got<String>>,
    data: Option<Got<EvData>>,
    timestamp: Option<i64>,
    id: Option<String>,
}

struct EventSeed {
    details: bool,
}

impl<'de> DeserializeSeed<'de> for EventSeed {
    type Value = Event;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Event, D::Error> {
        struct EventVisitor(bool);
        impl<'de> Visitor<'de> for EventVisitor {
            type Value = Event;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an event object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
                let mut event = Event {
                    kind: None,
                    data: None,
                    timestamp: None,
                    id: None,
                };
                let mut raw: Option<&'de RawValue> = None;
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    match &*key.0 {
                        "type" => event.kind = Some(map.next_value::<L<String>>()?.0),
                        "timestamp" => event.timestamp = got_time(next_l(&mut map)?),
                        "id" => event.id = got_str(next_l(&mut map)?),
                        "data" => match &event.kind {
                            Some(Got::Val(kind)) => {
                                let keep = keeps_content(kind, self.0);
                                event.data = Some(map.next_value_seed(ObjSeed::<EvData, bool>(
                                    keep,
                                    Default::default(),
                                ))?);
                                raw = None;
                            }
                            // `data` before `type`: read it once the type is known.
                            _ => raw = Some(map.next_value::<&'de RawValue>()?),
                        },
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                if let (Some(raw), Some(Got::Val(kind))) = (raw, &event.kind) {
                    let keep = keeps_content(kind, self.0);
                    let mut de = serde_json::Deserializer::from_str(raw.get());
                    event.data = Some(
                        ObjSeed::<EvData, bool>(keep, Default::default())
                            .deserialize(&mut de)
                            .map_err(serde::de::Error::custom)?,
                    );
                }
                Ok(event)
            }
        }
        de.deserialize_map(EventVisitor(self.details))
    }
}

/// One request of a transcript as read so far.
#[derive(Debug, Clone, Default)]
struct TReq {
    id: Option<String>,
    text: Option<Got<String>>,
    timestamp: Option<i64>,
    model: Option<String>,
    open_turn: bool,
    answered: bool,
    canceled: bool,
    failed: bool,
    /// Assistant text (details path only).
    markdown: Vec<String>,
    tool_calls: usize,
}

/// The reduced state of a transcript.
#[derive(Debug, Clone, Default)]
pub(crate) struct TranscriptState {
    session_id: Option<String>,
    start: Option<i64>,
    model: Option<String>,
    last_event: Option<i64>,
    ended: bool,
    requests: Vec<TReq>,
    details: Option<usize>,
    /// Events applied so far (a file with none is not a transcript).
    events: usize,
}

impl TranscriptState {
    /// `details`: the 0-based request whose assistant text to keep.
    pub(crate) fn new(details: Option<usize>) -> Self {
        TranscriptState {
            details,
            ..Default::default()
        }
    }

    pub(crate) fn request_count(&self) -> usize {
        self.requests.len()
    }

    pub(crate) fn events(&self) -> usize {
        self.events
    }

    /// Markdown and tool-call count of a request (details path).
    pub(crate) fn details_of(&self, position: usize) -> Option<(String, usize)> {
        let req = self.requests.get(position)?;
        Some((response_text(&req.markdown), req.tool_calls))
    }

    fn apply(&mut self, event: Event) -> Result<bool, String> {
        let kind = match event.kind {
            Some(Got::Val(kind)) => kind,
            Some(Got::Wrong(what)) => return Err(format!("event `type` is {what}")),
            Some(Got::Null) | None => return Err("no event `type`".into()),
        };
        self.events += 1;
        let data = match event.data {
            Some(Got::Val(data)) => data,
            _ => EvData::default(),
        };
        let mut changed = false;
        if let Some(ts) = event.timestamp {
            if !matches!(self.last_event, Some(last) if last >= ts) {
                self.last_event = Some(ts);
                changed = true;
            }
        }
        changed |= match kind.as_str() {
            "session.start" | "session.model_change" | "user.message" | "session.shutdown" => {
                self.session_event(&kind, data, event.id, event.timestamp)
            }
            _ => self.request_event(&kind, data),
        };
        Ok(changed)
    }

    /// An event about the session (its start, model, end) or a new request; `true` when it
    /// changed something visible.
    fn session_event(
        &mut self,
        kind: &str,
        data: EvData,
        id: Option<String>,
        ts: Option<i64>,
    ) -> bool {
        match kind {
            "session.start" => {
                if self.session_id.is_none() {
                    self.session_id = data.session_id;
                }
                if self.start.is_none() {
                    self.start = data.start_time.or(ts);
                }
                if data.selected_model.is_some() {
                    self.model = data.selected_model;
                }
                self.ended = false;
                true
            }
            "session.model_change" => {
                if data.new_model.is_some() {
                    self.model = data.new_model;
                }
                false
            }
            "user.message" => {
                self.requests.push(TReq {
                    id: data.interaction_id.or(id),
                    text: data.content,
                    timestamp: ts,
                    model: self.model.clone(),
                    ..Default::default()
                });
                self.ended = false;
                true
            }
            "session.shutdown" => {
                self.ended = true;
                true
            }
            _ => false,
        }
    }

    /// An event about the current (last) request: the agent's turn, its text, tools, an abort
    /// or an error. Without a request it changes nothing.
    fn request_event(&mut self, kind: &str, data: EvData) -> bool {
        let wants_text =
            self.details.is_some() && self.details == self.requests.len().checked_sub(1);
        let Some(req) = self.requests.last_mut() else {
            return false;
        };
        match kind {
            "assistant.turn_start" => req.open_turn = true,
            "assistant.turn_end" => {
                req.open_turn = false;
                req.answered = true;
            }
            "assistant.message" => {
                req.answered = true;
                if wants_text {
                    if let Some(Got::Val(text)) = data.content {
                        req.markdown.push(text);
                    }
                }
            }
            "tool.execution_start" => {
                req.tool_calls += 1;
                return false;
            }
            "abort" => {
                req.canceled = true;
                req.open_turn = false;
            }
            "session.error" => {
                req.failed = true;
                req.open_turn = false;
            }
            _ => return false,
        }
        true
    }

    /// Rebuilds the dialog (transcripts keep few requests, so a whole rebuild is cheap).
    /// Returns whether anything visible changed.
    pub(crate) fn refresh_dialog(
        &self,
        dialog: &mut Dialog,
        file_name: &str,
        extra_diags: Vec<String>,
    ) -> bool {
        let mut notes = Vec::new();
        let count = self.requests.len();
        let requests: Vec<Request> = self
            .requests
            .iter()
            .enumerate()
            .map(|(i, req)| {
                let index = i + 1;
                let text = match &req.text {
                    // Older Copilot agents appended a `<current_datetime>` block to the text.
                    Some(Got::Val(text)) => strip_injected(text).to_string(),
                    Some(Got::Wrong(what)) => {
                        notes.push(format!(
                            "request {index}'s content is {what}, not text; its text is empty"
                        ));
                        String::new()
                    }
                    _ => {
                        notes.push(format!("request {index} has no content; its text is empty"));
                        String::new()
                    }
                };
                let status = if req.canceled {
                    RequestStatus::Canceled
                } else if req.failed {
                    RequestStatus::Failed
                } else if index == count && !self.ended && (req.open_turn || !req.answered) {
                    RequestStatus::InProgress
                } else {
                    RequestStatus::Complete
                };
                Request {
                    index,
                    request_id: req.id.clone(),
                    text,
                    timestamp: req.timestamp,
                    model_id: req.model.clone(),
                    agent_id: None,
                    status,
                }
            })
            .collect();
        let header = HeaderRec {
            session_id: self.session_id.clone().map(Got::Val),
            creation_date: self.start.map(Got::Val),
            last_message_date: self.last_event.map(Got::Val),
            ..Default::default()
        };
        let mut fresh = empty_dialog(SessionFormat::Transcript);
        fresh.requests = requests;
        let mut header_notes = Vec::new();
        fill_dialog_fields(&mut fresh, file_name, &header, &mut header_notes);
        let mut diagnostics = extra_diags;
        push_capped(&mut diagnostics, &header_notes);
        push_capped(&mut diagnostics, &notes);
        fresh.diagnostics = diagnostics;
        if *dialog == fresh {
            return false;
        }
        *dialog = fresh;
        true
    }
}

impl LineSink for TranscriptState {
    fn refresh(&mut self, dialog: &mut Dialog, file_name: &str, extra_diags: Vec<String>) -> bool {
        self.refresh_dialog(dialog, file_name, extra_diags)
    }

    fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        if !object_line(text, "an event object")? {
            return Ok(false);
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let event = EventSeed {
            details: self.details.is_some(),
        }
        .deserialize(&mut de)
        .map_err(|e| line_error(&e))?;
        de.end().map_err(|e| line_error(&e))?;
        self.apply(event)
    }

    fn request_count(&self) -> usize {
        TranscriptState::request_count(self)
    }

    fn details_of(&self, position: usize) -> Option<(String, usize)> {
        TranscriptState::details_of(self, position)
    }
}

/// The person's text without the `<current_datetime>` block older Copilot agents (the Copilot
/// CLI among them) appended to it. It lives here, below both readers of the agent's event
/// schema (`agents/copilot_cli.rs` builds on this module, never the other way round).
pub(crate) fn strip_injected(text: &str) -> &str {
    let trimmed = text.trim_end();
    if trimmed.ends_with("</current_datetime>") {
        if let Some(start) = trimmed.rfind("<current_datetime>") {
            return trimmed[..start].trim_end();
        }
    }
    text
}

/// A fresh dialog for a transcript.
pub(crate) fn new_dialog() -> Dialog {
    empty_dialog(SessionFormat::Transcript)
}
