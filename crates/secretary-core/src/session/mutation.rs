//! The native `.jsonl` mutation log (VS Code >= 1.109), replayed onto a reduced state.
//!
//! Semantics follow VS Code's `ObjectMutationLog.read`: `kind: 0` replaces the whole state;
//! `kind: 1` sets the value at path `k` (a set on the empty path is ignored); `kind: 2` pushes
//! `v` onto the array at `k`, first truncating it to length `i` when `i` is given (and creating
//! the array when it is missing); `kind: 3` deletes the value at `k` (on an array index this
//! leaves an empty slot, it does not shift later items). Where VS Code would throw (a path
//! through something missing, a mutation before the first `kind: 0`), the line is skipped with a
//! diagnostic instead of losing the whole session.
//!
//! Only the fields the Secretary serves are kept: a mutation whose path goes into a request's
//! `response`, `result.metadata`, `variableData`, the input state, etc. is classified from its
//! path *before* its value is read, and the value is then skipped without being built. Each line
//! first goes through a byte-level fast path ([`fast`]) that skips those values at scanner speed
//! and hands anything unusual to the serde visitors below.

mod fast_line;

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::de::{
    l_from, obj_from, Detail, HeaderField, Key, PartSeed, PartsSeed, Prim, Record, ReqField,
    ReqSeed, ReqsSeed, RespPartSeed, ResponseSeed, TopRaw, TopSeed, L,
};
use super::lines::{line_error, object_line, LineSink};
use super::model::{Dialog, DialogStatus, SessionFormat};
use super::record::{
    empty_dialog, fill_dialog_fields, push_capped, to_request, val_mut, AgentRec, ErrRec, Got,
    HeaderRec, ModelStateRec, Msg, ReqRecord, RespPart, ResultRec, Shape,
};
use super::Path;

/// How far past the end of `requests` a truncate may reach (filling the gap with empty slots, as
/// JavaScript arrays do). Beyond it the line is refused, so a hostile index cannot make us
/// allocate gigabytes. (A set or delete past the end is skipped: see `apply_set`.)
const MAX_GAP: usize = 1024;

/// How many empty slots one log may pad its lists with in all (requests, message parts,
/// response parts). [`MAX_GAP`] bounds one line, but a 10 MB log of padding lines would still
/// ask for gigabytes (a 50-byte line buying 1,024 slots); VS Code itself never pads, so a
/// budget far past any real log refuses the rest of such lines instead.
pub(crate) const MAX_PADDING: usize = 1 << 20;

/// Takes `gap` empty slots from `budget` (what is left of [`MAX_PADDING`]), or says why not:
/// past [`MAX_GAP`] on one line, or past the budget of the log.
fn take_padding(gap: usize, budget: &mut usize, what: &str) -> Result<(), String> {
    if gap > MAX_GAP {
        return Err(format!("{what} far past the end"));
    }
    if gap > *budget {
        return Err(format!(
            "{what} past the end, and the log has already padded its lists with {MAX_PADDING} \
             empty slots"
        ));
    }
    *budget -= gap;
    Ok(())
}

/// One segment of a mutation path.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Index(u64),
    /// A segment of another JSON type (never written by VS Code).
    Other,
}

impl Seg {
    fn key(&self) -> Option<&str> {
        match self {
            Seg::Key(k) => Some(k),
            _ => None,
        }
    }

    /// An array index, accepting canonical decimal strings as JavaScript does.
    fn index(&self) -> Option<usize> {
        match self {
            Seg::Index(i) => usize::try_from(*i).ok(),
            Seg::Key(k)
                if !k.is_empty() && k.len() <= 10 && k.bytes().all(|b| b.is_ascii_digit()) =>
            {
                if k.len() > 1 && k.starts_with('0') {
                    None
                } else {
                    k.parse().ok()
                }
            }
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Seg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match L::<SegPrim>::deserialize(deserializer)?.0 {
            Got::Val(seg) => seg.0,
            _ => Seg::Other,
        })
    }
}

struct SegPrim(Seg);

impl Prim for SegPrim {
    fn from_i64(v: i64) -> Option<Self> {
        Some(SegPrim(match u64::try_from(v) {
            Ok(i) => Seg::Index(i),
            Err(_) => Seg::Key(v.to_string()),
        }))
    }
    fn from_u64(v: u64) -> Option<Self> {
        Some(SegPrim(Seg::Index(v)))
    }
    fn from_f64(v: f64) -> Option<Self> {
        Some(SegPrim(if v >= 0.0 && v.fract() == 0.0 && v < 1.0e15 {
            Seg::Index(v as u64)
        } else {
            Seg::Key(v.to_string())
        }))
    }
    fn from_str(s: &str) -> Option<Self> {
        Some(SegPrim(Seg::Key(s.to_owned())))
    }
}

/// A path inside a request's kept fields, below the field itself.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sub {
    MsgText,
    MsgParts,
    MsgPart(usize),
    MsgPartText(usize),
    AgentId,
    ModelStateValue,
    ResultErrorDetails,
    ResultErrorCode,
    ResponsePart(usize),
}

/// Where a mutation lands, decided from `kind` and `k` alone.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    /// `kind: 0`: the whole state.
    Whole,
    /// The empty path: ignored by VS Code's reader.
    Root,
    /// Something the Secretary does not keep (input state, `hasPendingEdits`, ...).
    Ignore,
    Header(HeaderField),
    Requests,
    Request(usize),
    ReqField(usize, ReqField),
    ReqSub(usize, Sub),
    /// Inside a request, somewhere we do not keep (its response, metadata...). The request must
    /// exist for the line to be valid, but nothing we keep changes.
    ReqOther(usize),
    /// A path VS Code cannot have written (`requests` indexed by a non-number...).
    Invalid(&'static str),
}

fn classify(kind: u64, path: &[Seg], detail: Detail) -> Target {
    if kind == 0 {
        return Target::Whole;
    }
    let Some(first) = path.first() else {
        return Target::Root;
    };
    let Some(first) = first.key() else {
        return Target::Ignore;
    };
    if first != "requests" {
        return match (HeaderField::from_key(first), path.len()) {
            (Some(field), 1) => Target::Header(field),
            _ => Target::Ignore,
        };
    }
    let Some(second) = path.get(1) else {
        return Target::Requests;
    };
    let Some(n) = second.index() else {
        return Target::Invalid("`requests` indexed by something other than a number");
    };
    let Some(third) = path.get(2) else {
        return Target::Request(n);
    };
    let with_response = detail.wants(n);
    let Some(field) = third
        .key()
        .and_then(|k| ReqField::from_key(k, with_response))
    else {
        return Target::ReqOther(n);
    };
    let rest = &path[3..];
    if rest.is_empty() {
        return Target::ReqField(n, field);
    }
    let key = |i: usize| rest.get(i).and_then(Seg::key);
    let sub = match (field, rest.len()) {
        (ReqField::Message, 1) if key(0) == Some("text") => Some(Sub::MsgText),
        (ReqField::Message, 1) if key(0) == Some("parts") => Some(Sub::MsgParts),
        (ReqField::Message, 2) if key(0) == Some("parts") => rest[1].index().map(Sub::MsgPart),
        (ReqField::Message, 3) if key(0) == Some("parts") && key(2) == Some("text") => {
            rest[1].index().map(Sub::MsgPartText)
        }
        (ReqField::Agent, 1) if key(0) == Some("id") => Some(Sub::AgentId),
        (ReqField::ModelState, 1) if key(0) == Some("value") => Some(Sub::ModelStateValue),
        (ReqField::Result, 1) if key(0) == Some("errorDetails") => Some(Sub::ResultErrorDetails),
        (ReqField::Result, 2) if key(0) == Some("errorDetails") && key(1) == Some("code") => {
            Some(Sub::ResultErrorCode)
        }
        (ReqField::Response, 1) => rest[0].index().map(Sub::ResponsePart),
        _ => None,
    };
    match sub {
        Some(sub) => Target::ReqSub(n, sub),
        None => Target::ReqOther(n),
    }
}

/// The parsed value of a mutation, held until its whole line has parsed.
#[derive(Debug)]
enum Payload {
    /// No value, or a value we skipped.
    None,
    Whole(Got<TopRaw>),
    Header(HeaderRec),
    Requests(Got<Vec<ReqRecord>>),
    Request(ReqRecord),
    /// A scratch record holding the one field that was set.
    Field(ReqRecord),
    Str(Got<String>),
    Int(Got<i64>),
    Err(Got<ErrRec>),
    Parts(Got<Vec<Option<String>>>),
    Part(Option<String>),
    Response(Got<Vec<RespPart>>),
    RespPart(RespPart),
}

/// Whether a mutation's value is only skipped, never read: nothing we keep depends on it. Both
/// readers of a line ([`PayloadSeed`] and the byte-level [`fast`] path) ask this one question.
fn skipped(kind: u64, target: Target) -> bool {
    let push = kind == 2;
    match target {
        Target::Whole | Target::Header(_) | Target::Requests => false,
        Target::ReqField(_, ReqField::Response) | Target::ReqSub(_, Sub::MsgParts) => false,
        Target::Request(_) | Target::ReqField(_, _) | Target::ReqSub(_, _) => push,
        Target::Root | Target::Ignore | Target::ReqOther(_) | Target::Invalid(_) => true,
    }
}

/// A push or delete on the whole state (an empty path): VS Code's reader does nothing useful
/// with it. Both readers of a line ask this before classifying it.
fn changes_nothing(kind: u64, path: &[Seg]) -> bool {
    kind != 0 && kind != 1 && path.is_empty()
}

/// How far the requests of a value set or pushed onto `requests` are read.
fn requests_detail(kind: u64, detail: Detail) -> Detail {
    // A push lands after an `i` we may not have read yet: read every response on the details
    // path and keep only the one that lands on the wanted slot.
    if kind == 2 && detail != Detail::Off {
        Detail::All
    } else {
        detail
    }
}

/// Reads the `v` of a mutation as what its target needs.
struct PayloadSeed {
    kind: u64,
    target: Target,
    detail: Detail,
}

impl<'de> DeserializeSeed<'de> for PayloadSeed {
    type Value = Payload;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Payload, D::Error> {
        let push = self.kind == 2;
        if skipped(self.kind, self.target) {
            IgnoredAny::deserialize(de)?;
            return Ok(Payload::None);
        }
        Ok(match self.target {
            Target::Whole => Payload::Whole(
                TopSeed {
                    detail: self.detail,
                }
                .deserialize(de)?,
            ),
            Target::Header(field) => {
                let mut header = HeaderRec::default();
                header.read_field(field, de)?;
                Payload::Header(header)
            }
            Target::Requests => Payload::Requests(
                ReqsSeed {
                    detail: requests_detail(self.kind, self.detail),
                }
                .deserialize(de)?,
            ),
            Target::Request(n) if !push => Payload::Request(
                ReqSeed {
                    with_response: self.detail.wants(n),
                }
                .deserialize(de)?,
            ),
            Target::ReqField(_, ReqField::Response) if push => {
                Payload::Response(ResponseSeed.deserialize(de)?)
            }
            Target::ReqField(_, field) if !push => {
                let mut scratch = ReqRecord::default();
                scratch.read_field(field, de)?;
                Payload::Field(scratch)
            }
            Target::ReqSub(_, Sub::MsgParts) => Payload::Parts(PartsSeed.deserialize(de)?),
            Target::ReqSub(_, Sub::MsgText)
            | Target::ReqSub(_, Sub::MsgPartText(_))
            | Target::ReqSub(_, Sub::AgentId) => Payload::Str(l_from(de)?),
            Target::ReqSub(_, Sub::ResultErrorCode) => Payload::Str(l_from(de)?),
            Target::ReqSub(_, Sub::MsgPart(_)) => Payload::Part(PartSeed.deserialize(de)?),
            Target::ReqSub(_, Sub::ModelStateValue) => Payload::Int(l_from(de)?),
            Target::ReqSub(_, Sub::ResultErrorDetails) => Payload::Err(obj_from(de)?),
            Target::ReqSub(_, Sub::ResponsePart(_)) => {
                Payload::RespPart(RespPartSeed.deserialize(de)?)
            }
            // Every other target is `skipped` above; a value is still never left unread.
            _ => {
                IgnoredAny::deserialize(de)?;
                Payload::None
            }
        })
    }
}

/// One parsed line.
struct Line<'de> {
    kind: Option<Got<u64>>,
    path: Option<Vec<Seg>>,
    path_wrong: bool,
    index: Option<Got<u64>>,
    payload: Option<Payload>,
    raw: Option<&'de RawValue>,
}

struct LineSeed {
    detail: Detail,
}

impl<'de> DeserializeSeed<'de> for LineSeed {
    type Value = Line<'de>;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Line<'de>, D::Error> {
        de.deserialize_map(LineVisitor(self.detail))
    }
}

struct LineVisitor(Detail);

/// The path `k`: an array of segments, anything else marks the line invalid.
struct PathSeed;

impl<'de> DeserializeSeed<'de> for PathSeed {
    type Value = Option<Vec<Seg>>;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        struct PathVisitor;
        impl<'de> Visitor<'de> for PathVisitor {
            type Value = Option<Vec<Seg>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a path array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(seg) = seq.next_element::<Seg>()? {
                    out.push(seg);
                }
                Ok(Some(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(None)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
        }
        de.deserialize_any(PathVisitor)
    }
}

impl<'de> Visitor<'de> for LineVisitor {
    type Value = Line<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mutation object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line<'de>, A::Error> {
        let mut line = Line {
            kind: None,
            path: None,
            path_wrong: false,
            index: None,
            payload: None,
            raw: None,
        };
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match &*key.0 {
                "kind" => line.kind = Some(map.next_value::<L<u64>>()?.0),
                "k" => match map.next_value_seed(PathSeed)? {
                    Some(path) => {
                        line.path = Some(path);
                        line.path_wrong = false;
                    }
                    None => line.path_wrong = true,
                },
                "i" => line.index = Some(map.next_value::<L<u64>>()?.0),
                "v" => {
                    // VS Code writes `kind`, `k`, then `v`: read the value straight into its
                    // target. Otherwise keep its raw text and read it once the path is known.
                    let known = match &line.kind {
                        Some(Got::Val(0)) => Some(0),
                        Some(Got::Val(kind)) if line.path.is_some() => Some(*kind),
                        _ => None,
                    };
                    match known {
                        Some(kind) => {
                            let target =
                                classify(kind, line.path.as_deref().unwrap_or(&[]), self.0);
                            line.payload = Some(map.next_value_seed(PayloadSeed {
                                kind,
                                target,
                                detail: self.0,
                            })?);
                            line.raw = None;
                        }
                        None => {
                            line.raw = Some(map.next_value::<&'de RawValue>()?);
                            line.payload = None;
                        }
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(line)
    }
}

/// The reduced state of a `.jsonl` session, plus the bookkeeping to refresh a [`Dialog`] from
/// only what changed.
#[derive(Debug, Clone)]
pub(crate) struct MutationState {
    initialized: bool,
    header: HeaderRec,
    /// `None` when the state has no `requests` array (missing, null or another type).
    requests: Option<Vec<ReqRecord>>,
    /// Why `requests` is not an array, when it is not.
    requests_odd: Option<&'static str>,
    detail: Detail,
    /// Which reader reads each line: the byte-level one (falling back to the visitors), or the
    /// visitors alone (the reference the fast one is tested against).
    path: Path,
    dirty_all: bool,
    dirty: Vec<usize>,
    reset: bool,
    /// What is left of [`MAX_PADDING`].
    padding_left: usize,
}

impl MutationState {
    pub(crate) fn new(detail: Detail, path: Path) -> Self {
        MutationState {
            initialized: false,
            header: HeaderRec::default(),
            requests: None,
            requests_odd: None,
            detail,
            path,
            dirty_all: true,
            dirty: Vec::new(),
            reset: false,
            padding_left: MAX_PADDING,
        }
    }

    pub(crate) fn initialized(&self) -> bool {
        self.initialized
    }

    /// The request at a 0-based slot, on the details path.
    pub(crate) fn slot(&self, position: usize) -> Option<&ReqRecord> {
        self.requests.as_ref()?.get(position)
    }

    pub(crate) fn request_count(&self) -> usize {
        self.requests.as_ref().map_or(0, Vec::len)
    }

    fn set_requests(&mut self, got: Got<Vec<ReqRecord>>) {
        match got {
            Got::Val(list) => {
                self.requests = Some(list);
                self.requests_odd = None;
            }
            Got::Null => {
                self.requests = None;
                self.requests_odd = Some("null");
            }
            Got::Wrong(kind) => {
                self.requests = None;
                self.requests_odd = Some(kind);
            }
        }
        self.dirty_all = true;
    }

    fn trim_response(&self, position: usize, rec: &mut ReqRecord) {
        if !self.detail.wants(position) {
            rec.response = None;
        }
    }

    fn mark(&mut self, position: usize) {
        if !self.dirty_all {
            self.dirty.push(position);
        }
    }

    /// The request at `n`, which must exist and be an object for a path to go through it.
    fn request_mut(&mut self, n: usize) -> Result<&mut ReqRecord, String> {
        self.request_and_padding(n).map(|(rec, _)| rec)
    }

    /// [`MutationState::request_mut`] with what is left of the log's padding budget beside it,
    /// for the pushes and sets that may pad a list inside the request.
    fn request_and_padding(&mut self, n: usize) -> Result<(&mut ReqRecord, &mut usize), String> {
        let count = self.request_count();
        match self.requests.as_mut().and_then(|r| r.get_mut(n)) {
            Some(rec) if rec.shape == Shape::Object => Ok((rec, &mut self.padding_left)),
            Some(_) => Err(format!(
                "goes into request {} which is not an object",
                n + 1
            )),
            None => Err(format!(
                "goes into request {} but there are only {count}",
                n + 1
            )),
        }
    }

    fn apply(
        &mut self,
        kind: u64,
        target: Target,
        payload: Payload,
        index: Option<Got<u64>>,
    ) -> Result<bool, String> {
        if kind == 0 {
            let Payload::Whole(top) = payload else {
                return Err("a `kind: 0` line without a state `v`".into());
            };
            let top = match top {
                Got::Val(top) => top,
                Got::Null => return Err("`kind: 0` state is null".into()),
                Got::Wrong(what) => {
                    return Err(format!("`kind: 0` state is {what}, not an object"))
                }
            };
            self.header = top.header;
            match top.requests {
                Some(got) => self.set_requests(got),
                None => {
                    self.requests = None;
                    self.requests_odd = None;
                    self.dirty_all = true;
                }
            }
            if let Some(list) = self.requests.as_mut() {
                for (position, rec) in list.iter_mut().enumerate() {
                    if !self.detail.wants(position) {
                        rec.response = None;
                    }
                }
            }
            self.initialized = true;
            self.reset = true;
            return Ok(true);
        }
        if !self.initialized {
            return Err("comes before the log's initial state (`kind: 0`)".into());
        }
        if let Target::Invalid(why) = target {
            return Err(why.to_string());
        }
        match kind {
            1 => self.apply_set(target, payload),
            2 => self.apply_push(target, payload, index),
            3 => self.apply_delete(target),
            other => Err(format!("unknown mutation kind {other}")),
        }
    }

    fn apply_set(&mut self, target: Target, payload: Payload) -> Result<bool, String> {
        match (target, payload) {
            (Target::Root | Target::Ignore, _) => Ok(false),
            (Target::Header(field), Payload::Header(mut scratch)) => {
                self.header.take_field(field, &mut scratch);
                Ok(true)
            }
            (Target::Requests, Payload::Requests(got)) => {
                self.set_requests(got);
                let detail = self.detail;
                for (position, rec) in self.requests.iter_mut().flatten().enumerate() {
                    if !detail.wants(position) {
                        rec.response = None;
                    }
                }
                Ok(true)
            }
            (Target::Request(n), Payload::Request(mut rec)) => {
                self.trim_response(n, &mut rec);
                let Some(list) = self.requests.as_mut() else {
                    return Err("sets a request but the state has no `requests` array".into());
                };
                if n > list.len() {
                    // JavaScript would grow the array with empty slots, which would read as
                    // requests nobody made: VS Code only ever sets an existing request or the
                    // next one, so anything further is damage and is skipped.
                    return Err(format!(
                        "sets request {} past the end ({} requests)",
                        n + 1,
                        list.len()
                    ));
                }
                if n == list.len() {
                    list.push(rec);
                    self.dirty_all = true;
                } else {
                    list[n] = rec;
                    self.mark(n);
                }
                Ok(true)
            }
            (Target::ReqField(n, field), Payload::Field(mut scratch)) => {
                self.request_mut(n)?.take_field(field, &mut scratch);
                self.mark(n);
                Ok(true)
            }
            (Target::ReqSub(n, sub), payload) => {
                let (rec, budget) = self.request_and_padding(n)?;
                set_sub(rec, sub, payload, budget)?;
                self.mark(n);
                Ok(true)
            }
            (Target::ReqOther(n), _) => {
                self.request_mut(n)?;
                Ok(false)
            }
            (target, _) => Err(format!("cannot set {target:?}")),
        }
    }

    fn apply_push(
        &mut self,
        target: Target,
        payload: Payload,
        index: Option<Got<u64>>,
    ) -> Result<bool, String> {
        let truncate = match index {
            None | Some(Got::Null) => None,
            Some(Got::Val(i)) => {
                Some(usize::try_from(i).map_err(|_| "`i` is too large".to_string())?)
            }
            Some(Got::Wrong(what)) => return Err(format!("`i` is {what}, not an array length")),
        };
        match (target, payload) {
            (Target::Root | Target::Ignore, _) => Ok(false),
            (Target::Requests, payload) => {
                let items = match payload {
                    Payload::Requests(Got::Val(items)) => items,
                    Payload::Requests(Got::Null) | Payload::None => Vec::new(),
                    Payload::Requests(Got::Wrong(what)) => {
                        return Err(format!("pushes {what}, not an array"))
                    }
                    _ => return Err("pushes an unexpected value".into()),
                };
                self.push_requests(items, truncate)?;
                Ok(true)
            }
            (Target::ReqField(n, ReqField::Response), Payload::Response(got)) => {
                let (rec, budget) = self.request_and_padding(n)?;
                let fill = RespPart::Other;
                push_onto(&mut rec.response, got, truncate, fill, &RESPONSE, budget)?;
                Ok(false)
            }
            (Target::ReqSub(n, Sub::MsgParts), Payload::Parts(got)) => {
                let (rec, budget) = self.request_and_padding(n)?;
                let Some(Msg::Obj { parts, .. }) = val_mut(&mut rec.message) else {
                    return Err(format!(
                        "pushes onto the parts of request {}'s message, which is not an object",
                        n + 1
                    ));
                };
                push_onto(parts, got, truncate, None, &MESSAGE_PARTS, budget)?;
                self.mark(n);
                Ok(true)
            }
            (Target::ReqOther(n), _) => {
                self.request_mut(n)?;
                Ok(false)
            }
            (Target::ReqField(n, _) | Target::ReqSub(n, _), _) => {
                self.request_mut(n)?;
                Err(format!(
                    "pushes onto a field of request {} that is not an array",
                    n + 1
                ))
            }
            (Target::Header(_), _) => {
                Err("pushes onto a session field that is not an array".into())
            }
            (Target::Request(n), _) => Err(format!(
                "pushes onto request {} which is not an array",
                n + 1
            )),
            (target, _) => Err(format!("cannot push onto {target:?}")),
        }
    }

    /// Pushes requests (after truncating or padding the list to `truncate`), keeping at most
    /// [`super::MAX_REQUESTS`] and the responses only of the requests `detail` wants.
    fn push_requests(
        &mut self,
        items: Vec<ReqRecord>,
        truncate: Option<usize>,
    ) -> Result<(), String> {
        if self.requests.is_none() {
            if let Some(what) = self.requests_odd.filter(|w| *w != "null") {
                return Err(format!("pushes onto `requests` which is {what}"));
            }
        }
        let list = self.requests.get_or_insert_with(Vec::new);
        self.requests_odd = None;
        let old_len = list.len();
        if let Some(len) = truncate {
            let gap = len.saturating_sub(list.len());
            let what = format!("truncates `requests` to {len},");
            take_padding(gap, &mut self.padding_left, &what)?;
            if len < list.len() {
                list.truncate(len);
            } else {
                list.resize_with(len, || ReqRecord::with_shape(Shape::Hole));
            }
        }
        let start = list.len();
        list.extend(items);
        list.truncate(list.len().min(super::MAX_REQUESTS.max(start)));
        let detail = self.detail;
        for (position, rec) in list.iter_mut().enumerate().skip(start) {
            if !detail.wants(position) {
                rec.response = None;
            }
        }
        // Only the slots from the first replaced or added one changed: an append to a long log
        // must cost the new requests, not every request of the dialog.
        let end = list.len();
        for position in truncate.map_or(old_len, |len| len.min(old_len))..end {
            self.mark(position);
        }
        Ok(())
    }

    fn apply_delete(&mut self, target: Target) -> Result<bool, String> {
        match target {
            Target::Root | Target::Ignore => Ok(false),
            Target::Header(field) => {
                self.header.clear_field(field);
                Ok(true)
            }
            Target::Requests => {
                self.requests = None;
                self.requests_odd = None;
                self.dirty_all = true;
                Ok(true)
            }
            Target::Request(n) => {
                let Some(list) = self.requests.as_mut() else {
                    return Err("deletes a request but the state has no `requests` array".into());
                };
                if n >= list.len() {
                    // JavaScript's `delete` past the end changes nothing; say so.
                    return Err(format!(
                        "deletes request {} past the end ({} requests)",
                        n + 1,
                        list.len()
                    ));
                } else {
                    list[n] = ReqRecord::with_shape(Shape::Hole);
                    self.mark(n);
                }
                Ok(true)
            }
            Target::ReqField(n, field) => {
                self.request_mut(n)?.clear_field(field);
                self.mark(n);
                Ok(true)
            }
            Target::ReqSub(n, sub) => {
                let rec = self.request_mut(n)?;
                delete_sub(rec, sub)?;
                self.mark(n);
                Ok(true)
            }
            Target::ReqOther(n) => {
                self.request_mut(n)?;
                Ok(false)
            }
            target => Err(format!("cannot delete {target:?}")),
        }
    }

    /// Rebuilds the requests marked dirty (every one after a whole change) and drops those past
    /// the end; `true` when any changed.
    fn rebuild_requests(&mut self, dialog: &mut Dialog) -> bool {
        let mut changed = false;
        let records: &[ReqRecord] = self.requests.as_deref().unwrap_or(&[]);
        if dialog.requests.len() > records.len() {
            dialog.requests.truncate(records.len());
            changed = true;
        }
        let mut scratch = Vec::new();
        let mut rebuild = |i: usize, dialog: &mut Dialog| {
            if let Some(rec) = records.get(i) {
                let fresh = to_request(rec, i + 1, &mut scratch);
                scratch.clear();
                match dialog.requests.get_mut(i) {
                    Some(old) if *old == fresh => {}
                    Some(old) => {
                        *old = fresh;
                        changed = true;
                    }
                    None => {
                        dialog.requests.push(fresh);
                        changed = true;
                    }
                }
            }
        };
        if self.dirty_all {
            for i in 0..records.len() {
                rebuild(i, dialog);
            }
        } else {
            self.dirty.sort_unstable();
            self.dirty.dedup();
            for &i in &self.dirty {
                rebuild(i, dialog);
            }
            // Slots appended since the last refresh (always marked dirty_all, but stay safe).
            for i in dialog.requests.len()..records.len() {
                rebuild(i, dialog);
            }
        }
        self.dirty_all = false;
        self.dirty.clear();
        changed
    }

    /// Diagnostics: the log's, then the state's, then each odd request's.
    fn diagnostics(&self, extra_diags: Vec<String>, header_notes: &[String]) -> Vec<String> {
        let records: &[ReqRecord] = self.requests.as_deref().unwrap_or(&[]);
        let mut diagnostics = extra_diags;
        if let Some(what) = self.requests_odd {
            push_capped(
                &mut diagnostics,
                &[format!(
                    "`requests` is {what}, not an array; no requests read"
                )],
            );
        }
        push_capped(&mut diagnostics, header_notes);
        if records.len() >= super::MAX_REQUESTS {
            push_capped(&mut diagnostics, &[super::request_cap_note()]);
        }
        let mut notes = Vec::new();
        for (i, rec) in records.iter().enumerate() {
            if rec.shape != Shape::Object
                || !matches!(rec.message, Some(Got::Val(_)))
                || has_odd_fields(rec)
            {
                to_request(rec, i + 1, &mut notes);
            }
        }
        push_capped(&mut diagnostics, &notes);
        diagnostics
    }
}

/// The dialog's fields the header fills, to tell whether filling changed any.
fn header_fields(
    dialog: &Dialog,
) -> (
    String,
    String,
    Option<i64>,
    Option<i64>,
    Option<String>,
    DialogStatus,
) {
    (
        dialog.session_id.clone(),
        dialog.title.clone(),
        dialog.creation_date,
        dialog.last_activity,
        dialog.location.clone(),
        dialog.status,
    )
}

/// How a push's errors name the list it pushes onto.
struct ListName {
    /// "pushes onto {onto} {what}".
    onto: &'static str,
    /// Why a missing list could not be made (it always can).
    created: &'static str,
    /// "truncates {list} far past the end".
    list: &'static str,
}

const RESPONSE: ListName = ListName {
    onto: "a response that is",
    created: "response could not be created",
    list: "the response",
};

const MESSAGE_PARTS: ListName = ListName {
    onto: "message parts that are",
    created: "parts could not be created",
    list: "the message parts",
};

/// The push of a `.jsonl` log onto a list inside a request (its response, its message's
/// parts): the list is made when missing or null, truncated or padded with `fill` to
/// `truncate` first (a gap past [`MAX_GAP`], or past what is left of the log's `budget` of
/// padding, is refused), then extended with the pushed items.
fn push_onto<T: Clone>(
    slot: &mut Option<Got<Vec<T>>>,
    got: Got<Vec<T>>,
    truncate: Option<usize>,
    fill: T,
    name: &ListName,
    budget: &mut usize,
) -> Result<(), String> {
    let items = match got {
        Got::Val(items) => items,
        Got::Null => Vec::new(),
        Got::Wrong(what) => return Err(format!("pushes {what}, not an array")),
    };
    let list = match slot {
        Some(Got::Val(list)) => list,
        Some(Got::Wrong(what)) => return Err(format!("pushes onto {} {what}", name.onto)),
        slot => {
            *slot = Some(Got::Val(Vec::new()));
            match slot {
                Some(Got::Val(list)) => list,
                _ => return Err(name.created.into()),
            }
        }
    };
    if let Some(len) = truncate {
        let gap = len.saturating_sub(list.len());
        take_padding(gap, budget, &format!("truncates {}", name.list))?;
        list.resize(len, fill);
    }
    list.extend(items);
    Ok(())
}

/// Whether building this request may add notes even though its shape and message look fine.
fn has_odd_fields(rec: &ReqRecord) -> bool {
    matches!(rec.timestamp, Some(Got::Wrong(_)))
        || matches!(&rec.message, Some(Got::Val(Msg::Obj { text, .. })) if !matches!(text, Some(Got::Val(_))))
        || matches!(&rec.model_state, Some(Got::Val(ModelStateRec { value: Some(Got::Val(v)) })) if !(0..=4).contains(v))
}

/// Sets a field below a request's field; a part set past the end pads the list with empty
/// slots, taken from what is left of the log's `budget` of padding.
fn set_sub(
    rec: &mut ReqRecord,
    sub: Sub,
    payload: Payload,
    budget: &mut usize,
) -> Result<(), String> {
    match (sub, payload) {
        (Sub::MsgText, Payload::Str(got)) => match val_mut(&mut rec.message) {
            Some(Msg::Obj { text, .. }) => *text = Some(got),
            _ => return Err("sets `message.text` but the message is not an object".into()),
        },
        (Sub::MsgParts, Payload::Parts(got)) => match val_mut(&mut rec.message) {
            Some(Msg::Obj { parts, .. }) => *parts = Some(got),
            _ => return Err("sets `message.parts` but the message is not an object".into()),
        },
        (Sub::MsgPart(m), Payload::Part(part)) => {
            let list = msg_parts(rec)?;
            if m >= list.len() {
                take_padding(m - list.len(), budget, "sets a message part")?;
                list.resize(m + 1, None);
            }
            list[m] = part;
        }
        (Sub::MsgPartText(m), Payload::Str(got)) => {
            let list = msg_parts(rec)?;
            match list.get_mut(m) {
                Some(slot) => {
                    *slot = match got {
                        Got::Val(text) => Some(text),
                        _ => None,
                    }
                }
                None => {
                    return Err(format!(
                        "sets the text of message part {m} which does not exist"
                    ))
                }
            }
        }
        (Sub::AgentId, Payload::Str(got)) => match val_mut(&mut rec.agent) {
            Some(AgentRec { id }) => *id = Some(got),
            None => return Err("sets `agent.id` but there is no agent object".into()),
        },
        (Sub::ModelStateValue, Payload::Int(got)) => match val_mut(&mut rec.model_state) {
            Some(ModelStateRec { value }) => *value = Some(got),
            None => return Err("sets `modelState.value` but there is no modelState object".into()),
        },
        (Sub::ResultErrorDetails, Payload::Err(got)) => match val_mut(&mut rec.result) {
            Some(ResultRec { error_details }) => *error_details = Some(got),
            None => return Err("sets `result.errorDetails` but there is no result object".into()),
        },
        (Sub::ResultErrorCode, Payload::Str(got)) => {
            match val_mut(&mut rec.result).and_then(|r| val_mut(&mut r.error_details)) {
                Some(ErrRec { code }) => *code = Some(got),
                None => {
                    return Err(
                        "sets `result.errorDetails.code` but there are no error details".into(),
                    )
                }
            }
        }
        (Sub::ResponsePart(m), Payload::RespPart(part)) => match val_mut(&mut rec.response) {
            Some(list) => {
                if m >= list.len() {
                    take_padding(m - list.len(), budget, "sets a response part")?;
                    list.resize(m + 1, RespPart::Other);
                }
                list[m] = part;
            }
            None => return Err("sets a response part but there is no response array".into()),
        },
        (sub, _) => return Err(format!("unexpected value for {sub:?}")),
    }
    Ok(())
}

fn msg_parts(rec: &mut ReqRecord) -> Result<&mut Vec<Option<String>>, String> {
    match val_mut(&mut rec.message) {
        Some(Msg::Obj {
            parts: Some(Got::Val(list)),
            ..
        }) => Ok(list),
        _ => Err("goes into `message.parts` which is not an array".into()),
    }
}

fn delete_sub(rec: &mut ReqRecord, sub: Sub) -> Result<(), String> {
    match sub {
        Sub::MsgText | Sub::MsgParts => match val_mut(&mut rec.message) {
            Some(Msg::Obj { text, parts }) => {
                if sub == Sub::MsgText {
                    *text = None;
                } else {
                    *parts = None;
                }
            }
            _ => return Err("deletes inside a message that is not an object".into()),
        },
        Sub::MsgPart(m) => {
            let list = msg_parts(rec)?;
            if let Some(slot) = list.get_mut(m) {
                *slot = None;
            }
        }
        Sub::MsgPartText(m) => {
            let list = msg_parts(rec)?;
            match list.get_mut(m) {
                Some(slot) => *slot = None,
                None => {
                    return Err(format!(
                        "deletes inside message part {m} which does not exist"
                    ))
                }
            }
        }
        Sub::AgentId => match val_mut(&mut rec.agent) {
            Some(agent) => agent.id = None,
            None => return Err("deletes inside an agent that is not an object".into()),
        },
        Sub::ModelStateValue => match val_mut(&mut rec.model_state) {
            Some(state) => state.value = None,
            None => return Err("deletes inside a modelState that is not an object".into()),
        },
        Sub::ResultErrorDetails => match val_mut(&mut rec.result) {
            Some(result) => result.error_details = None,
            None => return Err("deletes inside a result that is not an object".into()),
        },
        Sub::ResultErrorCode => {
            match val_mut(&mut rec.result).and_then(|r| val_mut(&mut r.error_details)) {
                Some(details) => details.code = None,
                None => return Err("deletes inside error details that do not exist".into()),
            }
        }
        Sub::ResponsePart(m) => {
            if let Some(slot) = val_mut(&mut rec.response).and_then(|l| l.get_mut(m)) {
                *slot = RespPart::Other;
            }
        }
    }
    Ok(())
}

impl LineSink for MutationState {
    /// Updates `dialog` from the state, rebuilding only the requests that changed. Returns
    /// whether anything visible changed. `extra_diags` are the log's own diagnostics (skipped
    /// lines, a cut-off last line).
    fn refresh(&mut self, dialog: &mut Dialog, file_name: &str, extra_diags: Vec<String>) -> bool {
        let mut changed = self.rebuild_requests(dialog);
        let before = header_fields(dialog);
        let mut header_notes = Vec::new();
        fill_dialog_fields(dialog, file_name, &self.header, &mut header_notes);
        changed |= before != header_fields(dialog);
        let diagnostics = self.diagnostics(extra_diags, &header_notes);
        if dialog.diagnostics != diagnostics {
            dialog.diagnostics = diagnostics;
            changed = true;
        }
        changed
    }

    fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        if !object_line(text, "a mutation object")? {
            return Ok(false);
        }
        let fast = match self.path {
            Path::Fast => fast_line::read_line(text, self.detail),
            Path::Visitors => None,
        };
        let parsed = match fast {
            Some(parsed) => parsed,
            // The general reader: anything the fast path did not vouch for, with its errors.
            None => self.read_with_visitors(text)?,
        };
        let Some(Parsed {
            kind,
            target,
            payload,
            index,
        }) = parsed
        else {
            return Ok(false);
        };
        let payload = match payload {
            Some(payload) => payload,
            None => {
                if kind == 0 {
                    return Err("a `kind: 0` line without a state `v`".into());
                }
                if kind == 1 {
                    // `JSON.stringify` drops `v: undefined`, and VS Code's reader then sets
                    // `undefined`: a set without a value is a delete.
                    if !self.initialized {
                        return Err("comes before the log's initial state (`kind: 0`)".into());
                    }
                    if let Target::Invalid(why) = target {
                        return Err(why.to_string());
                    }
                    return self.apply_delete(target);
                }
                Payload::None
            }
        };
        self.apply(kind, target, payload, index)
    }

    fn take_reset(&mut self) -> bool {
        std::mem::take(&mut self.reset)
    }

    /// A skipped line that would have added the next request (a push onto `requests` without a
    /// truncation, or a set of `requests[len]`) leaves an empty, unreadable request in its place.
    /// Its `kind` and `k` are read from the line's head, which VS Code writes before `v`.
    fn keep_place(&mut self, line: &[u8]) -> bool {
        if !self.initialized {
            return false;
        }
        let Some(len) = self.requests.as_ref().map(Vec::len) else {
            return false;
        };
        let members = super::scan::leading_members(line);
        let member = |name: &str| members.iter().find(|(key, _)| *key == name).map(|m| m.1);
        let kind = member("kind").and_then(|v| serde_json::from_slice::<u64>(v).ok());
        let Some(path) = member("k").and_then(|v| serde_json::from_slice::<Vec<Seg>>(v).ok())
        else {
            return false;
        };
        let truncates = member("i").is_some_and(|v| v != b"null");
        let adds_next = match (kind, path.as_slice()) {
            (Some(2), [Seg::Key(k)]) => k == "requests" && !truncates,
            (Some(1), [Seg::Key(k), n]) => k == "requests" && n.index() == Some(len),
            _ => false,
        };
        if !adds_next || len >= super::MAX_REQUESTS {
            return false;
        }
        if let Some(list) = self.requests.as_mut() {
            list.push(ReqRecord::with_shape(Shape::Unreadable));
            self.dirty_all = true;
        }
        true
    }

    fn request_count(&self) -> usize {
        MutationState::request_count(self)
    }

    fn details_of(&self, position: usize) -> Option<(String, usize)> {
        let details = super::details_of(self.slot(position)?.response.as_ref());
        Some((details.markdown, details.tool_calls))
    }
}

/// A line read as far as applying it needs: `None` for a line that changes nothing we keep.
type ParsedLine = Option<Parsed>;

/// What a line says once read: its kind, where it lands, its value as that target needs it
/// (`None` when the line has no `v`) and the truncation length `i` of a push.
struct Parsed {
    kind: u64,
    target: Target,
    payload: Option<Payload>,
    index: Option<Got<u64>>,
}

impl MutationState {
    /// Reads a line with the serde visitors ([`LineSeed`]): the reference reader, and the one
    /// whose errors are reported.
    fn read_with_visitors(&self, text: &str) -> Result<ParsedLine, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        let line = LineSeed {
            detail: self.detail,
        }
        .deserialize(&mut de)
        .map_err(|e| line_error(&e))?;
        de.end().map_err(|e| line_error(&e))?;
        let kind = match line.kind {
            Some(Got::Val(kind)) if kind <= 3 => kind,
            Some(Got::Val(kind)) => return Err(format!("unknown mutation kind {kind}")),
            Some(Got::Wrong(what)) => return Err(format!("`kind` is {what}")),
            Some(Got::Null) | None => return Err("no `kind`".into()),
        };
        if line.path_wrong {
            return Err("`k` is not a path array".into());
        }
        let path = line.path.unwrap_or_default();
        if changes_nothing(kind, &path) {
            return Ok(None);
        }
        let target = classify(kind, &path, self.detail);
        let payload = match (line.payload, line.raw) {
            (Some(payload), _) => Some(payload),
            (None, Some(raw)) => {
                let mut de = serde_json::Deserializer::from_str(raw.get());
                Some(
                    PayloadSeed {
                        kind,
                        target,
                        detail: self.detail,
                    }
                    .deserialize(&mut de)
                    .map_err(|e| line_error(&e))?,
                )
            }
            (None, None) => None,
        };
        Ok(Some(Parsed {
            kind,
            target,
            payload,
            index: line.index,
        }))
    }
}

/// A fresh dialog for a `.jsonl` state.
pub(crate) fn new_dialog() -> Dialog {
    empty_dialog(SessionFormat::NativeJsonl)
}
