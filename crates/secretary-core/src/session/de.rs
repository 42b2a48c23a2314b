//! Lenient, allocation-light serde visitors that fill [`super::record`] types straight from the
//! JSON text.
//!
//! Why hand-written visitors instead of `#[derive(Deserialize)]`: derived structs fail a whole
//! file when one field has an unexpected type, and a chat session must never be lost because one
//! request is odd. Every field we keep is read with `deserialize_any` and accepts any JSON type
//! (recording what it got); every field we do not keep (`response`, `result.metadata`,
//! `variableData`, `usedContext`, ...) is skipped with [`IgnoredAny`], which serde_json walks
//! iteratively without building anything, so a 100 MB response costs a scan, not an allocation,
//! and a 100,000-deep nest cannot overflow the stack. The visitors themselves nest at most a
//! handful of levels, well inside serde_json's recursion limit of 128.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::record::{
    AgentRec, ErrRec, Got, HeaderRec, ModelStateRec, Msg, ReqRecord, RespPart, ResultRec, Shape,
};

/// The visitor methods of a lenient reader for the JSON kinds it does not read, written once:
/// each answers `$wrong(kind)` naming the kind it got ("a boolean", "a number", "a string", "an
/// array", "an object"; arrays and objects are skipped first) and JSON null answers `$null`.
/// `other_kinds!(Got::Wrong, Got::Null; bool i64 u64 f64 str seq map unit none)`.
macro_rules! other_kinds {
    ($wrong:expr, $null:expr; $($kind:ident)+) => {
        $( other_kinds!(@ $kind, $wrong, $null); )+
    };
    (@ bool, $wrong:expr, $null:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(($wrong)("a boolean"))
        }
    };
    (@ i64, $wrong:expr, $null:expr) => {
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(($wrong)("a number"))
        }
    };
    (@ u64, $wrong:expr, $null:expr) => {
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(($wrong)("a number"))
        }
    };
    (@ f64, $wrong:expr, $null:expr) => {
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(($wrong)("a number"))
        }
    };
    (@ str, $wrong:expr, $null:expr) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok(($wrong)("a string"))
        }
    };
    (@ seq, $wrong:expr, $null:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            drain_seq(seq)?;
            Ok(($wrong)("an array"))
        }
    };
    (@ map, $wrong:expr, $null:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            drain_map(map)?;
            Ok(($wrong)("an object"))
        }
    };
    (@ unit, $wrong:expr, $null:expr) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($null)
        }
    };
    (@ none, $wrong:expr, $null:expr) => {
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($null)
        }
    };
}

/// An object key, borrowed from the input when it has no escapes (the common case), so reading
/// keys allocates nothing.
pub(crate) struct Key<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Skips the rest of an array without building it.
fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Skips the rest of an object without building it.
fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// A JSON scalar type we may want.
pub(crate) trait Prim: Sized {
    fn from_bool(_: bool) -> Option<Self> {
        None
    }
    fn from_i64(_: i64) -> Option<Self> {
        None
    }
    fn from_u64(_: u64) -> Option<Self> {
        None
    }
    fn from_f64(_: f64) -> Option<Self> {
        None
    }
    fn from_str(_: &str) -> Option<Self> {
        None
    }
    fn from_string(s: String) -> Option<Self> {
        Self::from_str(&s)
    }
}

impl Prim for String {
    fn from_str(s: &str) -> Option<Self> {
        Some(s.to_owned())
    }
    fn from_string(s: String) -> Option<Self> {
        Some(s)
    }
}

impl Prim for i64 {
    fn from_i64(v: i64) -> Option<Self> {
        Some(v)
    }
    fn from_u64(v: u64) -> Option<Self> {
        i64::try_from(v).ok()
    }
    fn from_f64(v: f64) -> Option<Self> {
        // JavaScript writes every number as a double: accept integral-looking ones in range.
        if v.is_finite() && v.abs() < 9.0e18 {
            Some(v.trunc() as i64)
        } else {
            None
        }
    }
}

impl Prim for u64 {
    fn from_i64(v: i64) -> Option<Self> {
        u64::try_from(v).ok()
    }
    fn from_u64(v: u64) -> Option<Self> {
        Some(v)
    }
    fn from_f64(v: f64) -> Option<Self> {
        if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 1.8e19 {
            Some(v as u64)
        } else {
            None
        }
    }
}

impl Prim for bool {
    fn from_bool(v: bool) -> Option<Self> {
        Some(v)
    }
}

/// A leniently read scalar: any JSON value is accepted and classified.
pub(crate) struct L<T>(pub Got<T>);

impl<'de, T: Prim> Deserialize<'de> for L<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct LVisitor<T>(PhantomData<T>);
        impl<'de, T: Prim> Visitor<'de> for LVisitor<T> {
            type Value = L<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<L<T>, E> {
                Ok(L(T::from_bool(v).map_or(Got::Wrong("a boolean"), Got::Val)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<L<T>, E> {
                Ok(L(T::from_i64(v).map_or(Got::Wrong("a number"), Got::Val)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<L<T>, E> {
                Ok(L(T::from_u64(v).map_or(Got::Wrong("a number"), Got::Val)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<L<T>, E> {
                Ok(L(T::from_f64(v).map_or(Got::Wrong("a number"), Got::Val)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<L<T>, E> {
                Ok(L(T::from_str(v).map_or(Got::Wrong("a string"), Got::Val)))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<L<T>, E> {
                Ok(L(T::from_string(v).map_or(Got::Wrong("a string"), Got::Val)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<L<T>, E> {
                Ok(L(Got::Null))
            }
            fn visit_none<E: de::Error>(self) -> Result<L<T>, E> {
                Ok(L(Got::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<L<T>, A::Error> {
                drain_seq(seq)?;
                Ok(L(Got::Wrong("an array")))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<L<T>, A::Error> {
                drain_map(map)?;
                Ok(L(Got::Wrong("an object")))
            }
        }
        deserializer.deserialize_any(LVisitor(PhantomData))
    }
}

/// Reads a lenient scalar from a map value.
pub(crate) fn next_l<'de, T: Prim, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<Got<T>>, A::Error> {
    Ok(Some(map.next_value::<L<T>>()?.0))
}

/// An object type whose fields we pick out of a map.
pub(crate) trait FromMap<'de>: Sized + Default {
    /// Context handed down (e.g. whether to read responses).
    type Ctx: Copy;
    /// Reads the value of `key` into `self`; returns false when the key is not ours (the caller
    /// skips the value).
    fn field<A: MapAccess<'de>>(
        &mut self,
        ctx: Self::Ctx,
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error>;
    /// A non-object value (a bare number for `modelState`, ...), when the type accepts one.
    fn from_scalar_i64(_: i64) -> Option<Self> {
        None
    }
}

/// Reads every entry of a map into a [`FromMap`] value, skipping the keys it does not want.
pub(crate) fn read_map<'de, T: FromMap<'de>, A: MapAccess<'de>>(
    ctx: T::Ctx,
    mut map: A,
) -> Result<T, A::Error> {
    let mut out = T::default();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if !out.field(ctx, &key.0, &mut map)? {
            map.next_value::<IgnoredAny>()?;
        }
    }
    Ok(out)
}

/// Seed reading an object leniently: `Got::Val` for an object, `Null`, or `Wrong`.
pub(crate) struct ObjSeed<T, C>(pub C, pub PhantomData<T>);

impl<'de, T: FromMap<'de, Ctx = C>, C: Copy> DeserializeSeed<'de> for ObjSeed<T, C> {
    type Value = Got<T>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Got<T>, D::Error> {
        struct ObjVisitor<T, C>(C, PhantomData<T>);
        impl<'de, T: FromMap<'de, Ctx = C>, C: Copy> Visitor<'de> for ObjVisitor<T, C> {
            type Value = Got<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Got<T>, A::Error> {
                Ok(Got::Val(read_map(self.0, map)?))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Got<T>, E> {
                Ok(T::from_scalar_i64(v).map_or(Got::Wrong("a number"), Got::Val))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Got<T>, E> {
                Ok(i64::try_from(v)
                    .ok()
                    .and_then(T::from_scalar_i64)
                    .map_or(Got::Wrong("a number"), Got::Val))
            }
            other_kinds!(Got::Wrong, Got::Null; bool f64 str seq unit none);
        }
        deserializer.deserialize_any(ObjVisitor(self.0, PhantomData))
    }
}

/// Reads a lenient object from a map value.
pub(crate) fn next_obj<'de, T: FromMap<'de, Ctx = ()>, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<Got<T>>, A::Error> {
    Ok(Some(
        map.next_value_seed(ObjSeed::<T, ()>((), PhantomData))?,
    ))
}

/// Reads a lenient object from a whole deserializer (a `.jsonl` value).
pub(crate) fn obj_from<'de, T: FromMap<'de, Ctx = ()>, D: Deserializer<'de>>(
    de: D,
) -> Result<Got<T>, D::Error> {
    ObjSeed::<T, ()>((), PhantomData).deserialize(de)
}

/// Reads a lenient scalar from a whole deserializer (a `.jsonl` value).
pub(crate) fn l_from<'de, T: Prim, D: Deserializer<'de>>(de: D) -> Result<Got<T>, D::Error> {
    Ok(L::<T>::deserialize(de)?.0)
}

/// [`FromMap`] for a record read for one key alone (`$key` into `$field` by `$read`); the
/// other keys are skipped. `scalar n => ...`, when given, also accepts a bare number `n` as the
/// record ([`FromMap::from_scalar_i64`]).
macro_rules! one_key_record {
    ($name:ident, $key:literal => $field:tt by $read:ident $(, scalar $n:ident => $scalar:expr)?) => {
        impl<'de> FromMap<'de> for $name {
            type Ctx = ();
            fn field<A: MapAccess<'de>>(
                &mut self,
                _: (),
                key: &str,
                map: &mut A,
            ) -> Result<bool, A::Error> {
                if key == $key {
                    self.$field = $read(map)?;
                    return Ok(true);
                }
                Ok(false)
            }
            $(fn from_scalar_i64($n: i64) -> Option<Self> {
                $scalar
            })?
        }
    };
}

/// The next value as text when it is a string; anything else (a number, an object, null) is none.
fn next_text<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<String>, A::Error> {
    Ok(match next_l::<String, _>(map)? {
        Some(Got::Val(text)) => Some(text),
        _ => None,
    })
}

one_key_record!(AgentRec, "id" => id by next_l);
one_key_record!(ModelStateRec, "value" => value by next_l, scalar n => Some(ModelStateRec {
    value: Some(Got::Val(n))
}));
one_key_record!(ErrRec, "code" => code by next_l);
one_key_record!(ResultRec, "errorDetails" => error_details by next_obj);

/// The parts of a message object we read.
#[derive(Default)]
struct MsgObj {
    text: Option<Got<String>>,
    parts: Option<Got<Vec<Option<String>>>>,
}

/// One message part: only its `text`.
#[derive(Default)]
struct PartText(Option<String>);

one_key_record!(PartText, "text" => 0 by next_text);

/// Seed reading `message.parts` into their texts.
pub(crate) struct PartsSeed;

impl<'de> DeserializeSeed<'de> for PartsSeed {
    type Value = Got<Vec<Option<String>>>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct PartsVisitor;
        impl<'de> Visitor<'de> for PartsVisitor {
            type Value = Got<Vec<Option<String>>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(part) = seq.next_element_seed(PartSeed)? {
                    out.push(part);
                }
                Ok(Got::Val(out))
            }
            other_kinds!(Got::Wrong, Got::Null; bool i64 u64 f64 str map unit none);
        }
        deserializer.deserialize_any(PartsVisitor)
    }
}

/// Seed reading one message part's text (`None` when it has none).
pub(crate) struct PartSeed;

impl<'de> DeserializeSeed<'de> for PartSeed {
    type Value = Option<String>;
    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Option<String>, D::Error> {
        Ok(
            match ObjSeed::<PartText, ()>((), PhantomData).deserialize(deserializer)? {
                Got::Val(PartText(text)) => text,
                _ => None,
            },
        )
    }
}

impl<'de> FromMap<'de> for MsgObj {
    type Ctx = ();
    fn field<A: MapAccess<'de>>(
        &mut self,
        _: (),
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        match key {
            "text" => self.text = next_l(map)?,
            "parts" => self.parts = Some(map.next_value_seed(PartsSeed)?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Seed reading a `message`: a bare string (2023) or `{text, parts}`.
pub(crate) struct MsgSeed;

impl<'de> DeserializeSeed<'de> for MsgSeed {
    type Value = Got<Msg>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Got<Msg>, D::Error> {
        struct MsgVisitor;
        impl<'de> Visitor<'de> for MsgVisitor {
            type Value = Got<Msg>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Got<Msg>, E> {
                Ok(Got::Val(Msg::Bare(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Got<Msg>, E> {
                Ok(Got::Val(Msg::Bare(v)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Got<Msg>, A::Error> {
                let obj: MsgObj = read_map((), map)?;
                Ok(Got::Val(Msg::Obj {
                    text: obj.text,
                    parts: obj.parts,
                }))
            }
            other_kinds!(Got::Wrong, Got::Null; bool i64 u64 f64 seq unit none);
        }
        deserializer.deserialize_any(MsgVisitor)
    }
}

/// One response part, read only on the details path.
#[derive(Default)]
struct PartRaw {
    kind: Option<String>,
    value: Option<String>,
    content_value: Option<String>,
    name: Option<String>,
    reference: Option<String>,
}

/// `{value}` inside a part (`content` of `markdownContent` / `markdownVuln`).
#[derive(Default)]
struct ValueOnly(Option<String>);

one_key_record!(ValueOnly, "value" => 0 by next_text);

/// An inline reference target: a URI `{path}` or a location `{uri: {path}}`.
#[derive(Default)]
struct RefTarget(Option<String>);

impl<'de> FromMap<'de> for RefTarget {
    type Ctx = ();
    fn field<A: MapAccess<'de>>(
        &mut self,
        _: (),
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        match key {
            "path" | "fsPath" => {
                if let Some(Got::Val(path)) = next_l::<String, _>(map)? {
                    if self.0.is_none() || key == "path" {
                        self.0 = Some(path);
                    }
                }
            }
            "uri" => {
                if let Some(Got::Val(RefTarget(Some(path)))) = next_obj::<RefTarget, _>(map)? {
                    self.0 = Some(path);
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl<'de> FromMap<'de> for PartRaw {
    type Ctx = ();
    fn field<A: MapAccess<'de>>(
        &mut self,
        _: (),
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        let take = |got: Option<Got<String>>| match got {
            Some(Got::Val(v)) => Some(v),
            _ => None,
        };
        match key {
            "kind" => self.kind = take(next_l(map)?),
            "value" => self.value = take(next_l(map)?),
            "name" => self.name = take(next_l(map)?),
            "content" => {
                if let Some(Got::Val(ValueOnly(v))) = next_obj::<ValueOnly, _>(map)? {
                    self.content_value = v;
                }
            }
            "inlineReference" => {
                if let Some(Got::Val(RefTarget(path))) = next_obj::<RefTarget, _>(map)? {
                    self.reference = path;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

fn base_name(path: &str) -> String {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .to_string()
}

/// Seed reading one response part.
pub(crate) struct RespPartSeed;

impl<'de> DeserializeSeed<'de> for RespPartSeed {
    type Value = RespPart;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<RespPart, D::Error> {
        let raw = match ObjSeed::<PartRaw, ()>((), PhantomData).deserialize(deserializer)? {
            Got::Val(raw) => raw,
            _ => return Ok(RespPart::Other),
        };
        Ok(match raw.kind.as_deref() {
            None => raw.value.map_or(RespPart::Other, RespPart::Markdown),
            Some("markdownContent") | Some("markdownVuln") => raw
                .content_value
                .or(raw.value)
                .map_or(RespPart::Other, RespPart::Markdown),
            Some("toolInvocationSerialized") | Some("toolInvocation") => RespPart::Tool,
            Some("textEditGroup") | Some("notebookEditGroup") => RespPart::Block,
            Some("inlineReference") => {
                match raw.name.or_else(|| raw.reference.as_deref().map(base_name)) {
                    Some(name) if !name.is_empty() => RespPart::Inline(name),
                    _ => RespPart::Other,
                }
            }
            Some(_) => RespPart::Other,
        })
    }
}

/// Seed reading a whole `response` array.
pub(crate) struct ResponseSeed;

impl<'de> DeserializeSeed<'de> for ResponseSeed {
    type Value = Got<Vec<RespPart>>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct RespVisitor;
        impl<'de> Visitor<'de> for RespVisitor {
            type Value = Got<Vec<RespPart>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(part) = seq.next_element_seed(RespPartSeed)? {
                    out.push(part);
                }
                Ok(Got::Val(out))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                // Version 1 files kept the response as one markdown string.
                Ok(Got::Val(vec![RespPart::Markdown(v.to_owned())]))
            }
            other_kinds!(Got::Wrong, Got::Null; bool i64 u64 f64 map unit none);
        }
        deserializer.deserialize_any(RespVisitor)
    }
}

/// The request fields we keep. `Response` is only read on the details path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReqField {
    RequestId,
    Timestamp,
    Message,
    ModelId,
    Agent,
    ModelState,
    IsCanceled,
    Result,
    LegacyError,
    Response,
}

impl ReqField {
    pub(crate) fn from_key(key: &str, with_response: bool) -> Option<ReqField> {
        Some(match key {
            "requestId" => ReqField::RequestId,
            "timestamp" => ReqField::Timestamp,
            "message" => ReqField::Message,
            "modelId" => ReqField::ModelId,
            "agent" => ReqField::Agent,
            "modelState" => ReqField::ModelState,
            "isCanceled" => ReqField::IsCanceled,
            "result" => ReqField::Result,
            "responseErrorDetails" => ReqField::LegacyError,
            "response" if with_response => ReqField::Response,
            _ => return None,
        })
    }
}

/// What a record's field table ([`ReqRecord::field`], [`HeaderRec::field`]) does with one kept
/// field: read it from a value, or move it from another record of the same kind (a `.jsonl` set,
/// applied once its line parsed; a delete moves it from an empty record). Why one table for both:
/// a field added to a record is then read, set and deleted alike, by one line.
pub(crate) enum FieldOp<'o, R, D> {
    Read(D),
    MoveFrom(&'o mut R),
}

/// The deserializer type of a [`FieldOp::MoveFrom`], which reads nothing (so it cannot fail).
type NoRead = serde::de::value::UnitDeserializer<serde::de::value::Error>;

/// Does `op` on one field: `slot` in this record, `of` the same slot in another, `read` how its
/// value is read.
fn put<'de, R, T, D: Deserializer<'de>>(
    slot: &mut Option<T>,
    op: FieldOp<'_, R, D>,
    read: impl FnOnce(D) -> Result<T, D::Error>,
    of: impl FnOnce(&mut R) -> &mut Option<T>,
) -> Result<(), D::Error> {
    *slot = match op {
        FieldOp::Read(de) => Some(read(de)?),
        FieldOp::MoveFrom(other) => of(other).take(),
    };
    Ok(())
}

/// A record with a field table (see [`FieldOp`]): reading a field, a `.jsonl` set and a delete are
/// written once, here, over each record's `field`.
pub(crate) trait Record: Default {
    type Field: Copy;

    /// The field table: does `op` on `field` of this record.
    fn field<'de, D: Deserializer<'de>>(
        &mut self,
        field: Self::Field,
        op: FieldOp<'_, Self, D>,
    ) -> Result<(), D::Error>;

    /// Reads `field`'s value from `de` into this record.
    fn read_field<'de, D: Deserializer<'de>>(
        &mut self,
        field: Self::Field,
        de: D,
    ) -> Result<(), D::Error> {
        self.field(field, FieldOp::Read(de))
    }

    /// Moves `field` from `other` into this record (a `.jsonl` set, applied once its line parsed).
    fn take_field(&mut self, field: Self::Field, other: &mut Self) {
        // A move reads nothing: it cannot fail.
        let _ = self.field::<NoRead>(field, FieldOp::MoveFrom(other));
    }

    /// Removes `field` (a `.jsonl` delete).
    fn clear_field(&mut self, field: Self::Field) {
        self.take_field(field, &mut Self::default());
    }
}

impl Record for ReqRecord {
    type Field = ReqField;

    fn field<'de, D: Deserializer<'de>>(
        &mut self,
        field: ReqField,
        op: FieldOp<'_, ReqRecord, D>,
    ) -> Result<(), D::Error> {
        match field {
            ReqField::RequestId => put(&mut self.request_id, op, l_from, |r| &mut r.request_id),
            ReqField::Timestamp => put(&mut self.timestamp, op, l_from, |r| &mut r.timestamp),
            ReqField::Message => put(
                &mut self.message,
                op,
                |de| MsgSeed.deserialize(de),
                |r| &mut r.message,
            ),
            ReqField::ModelId => put(&mut self.model_id, op, l_from, |r| &mut r.model_id),
            ReqField::Agent => put(&mut self.agent, op, obj_from, |r| &mut r.agent),
            ReqField::ModelState => {
                put(&mut self.model_state, op, obj_from, |r| &mut r.model_state)
            }
            ReqField::IsCanceled => put(&mut self.is_canceled, op, l_from, |r| &mut r.is_canceled),
            ReqField::Result => put(&mut self.result, op, obj_from, |r| &mut r.result),
            ReqField::LegacyError => put(&mut self.legacy_error, op, obj_from, |r| {
                &mut r.legacy_error
            }),
            ReqField::Response => put(
                &mut self.response,
                op,
                |de| ResponseSeed.deserialize(de),
                |r| &mut r.response,
            ),
        }
    }
}

/// Seed reading a field straight into a record.
struct FieldSeed<'r> {
    field: ReqField,
    rec: &'r mut ReqRecord,
}

impl<'de> DeserializeSeed<'de> for FieldSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.rec.read_field(self.field, deserializer)
    }
}

/// Seed reading one slot of `requests`. `with_response` reads the response too (details path).
#[derive(Clone, Copy)]
pub(crate) struct ReqSeed {
    pub with_response: bool,
}

impl<'de> DeserializeSeed<'de> for ReqSeed {
    type Value = ReqRecord;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<ReqRecord, D::Error> {
        struct ReqVisitor(bool);
        impl<'de> Visitor<'de> for ReqVisitor {
            type Value = ReqRecord;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ReqRecord, A::Error> {
                let mut rec = ReqRecord::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    match ReqField::from_key(&key.0, self.0) {
                        Some(field) => map.next_value_seed(FieldSeed {
                            field,
                            rec: &mut rec,
                        })?,
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(rec)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ReqRecord, E> {
                // A bare string where a request should be: keep it as the request's text.
                let mut rec = ReqRecord::with_shape(Shape::Odd("a string"));
                rec.message = Some(Got::Val(Msg::Bare(v.to_owned())));
                Ok(rec)
            }
            other_kinds!(
                |kind| ReqRecord::with_shape(Shape::Odd(kind)),
                ReqRecord::with_shape(Shape::Null);
                bool i64 u64 f64 seq unit none
            );
        }
        deserializer.deserialize_any(ReqVisitor(self.with_response))
    }
}

/// Which requests get their response read (details path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detail {
    /// None: the normal, fast path.
    Off,
    /// Only the request at this 0-based position.
    Slot(usize),
    /// Every request read (a `.jsonl` push whose landing position is not known yet).
    All,
}

impl Detail {
    pub(crate) fn wants(self, position: usize) -> bool {
        match self {
            Detail::Off => false,
            Detail::Slot(slot) => slot == position,
            Detail::All => true,
        }
    }
}

/// Seed reading a `requests` array.
#[derive(Clone, Copy)]
pub(crate) struct ReqsSeed {
    pub detail: Detail,
}

impl<'de> DeserializeSeed<'de> for ReqsSeed {
    type Value = Got<Vec<ReqRecord>>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct ReqsVisitor(Detail);
        impl<'de> Visitor<'de> for ReqsVisitor {
            type Value = Got<Vec<ReqRecord>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                loop {
                    if out.len() >= super::MAX_REQUESTS {
                        // Past the cap: skipped, never built (see `MAX_REQUESTS`).
                        if seq.next_element::<IgnoredAny>()?.is_none() {
                            break;
                        }
                        continue;
                    }
                    let seed = ReqSeed {
                        with_response: self.0.wants(out.len()),
                    };
                    match seq.next_element_seed(seed)? {
                        Some(rec) => out.push(rec),
                        None => break,
                    }
                }
                Ok(Got::Val(out))
            }
            other_kinds!(Got::Wrong, Got::Null; bool i64 u64 f64 str map unit none);
        }
        deserializer.deserialize_any(ReqsVisitor(self.detail))
    }
}

/// The session fields we keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeaderField {
    Version,
    SessionId,
    CreationDate,
    LastMessageDate,
    CustomTitle,
    InitialLocation,
}

impl HeaderField {
    pub(crate) fn from_key(key: &str) -> Option<HeaderField> {
        Some(match key {
            "version" => HeaderField::Version,
            "sessionId" => HeaderField::SessionId,
            "creationDate" => HeaderField::CreationDate,
            "lastMessageDate" => HeaderField::LastMessageDate,
            "customTitle" => HeaderField::CustomTitle,
            "initialLocation" => HeaderField::InitialLocation,
            _ => return None,
        })
    }
}

impl Record for HeaderRec {
    type Field = HeaderField;

    fn field<'de, D: Deserializer<'de>>(
        &mut self,
        field: HeaderField,
        op: FieldOp<'_, HeaderRec, D>,
    ) -> Result<(), D::Error> {
        match field {
            HeaderField::Version => put(&mut self.version, op, l_from, |h| &mut h.version),
            HeaderField::SessionId => put(&mut self.session_id, op, l_from, |h| &mut h.session_id),
            HeaderField::CreationDate => put(&mut self.creation_date, op, l_from, |h| {
                &mut h.creation_date
            }),
            HeaderField::LastMessageDate => put(&mut self.last_message_date, op, l_from, |h| {
                &mut h.last_message_date
            }),
            HeaderField::CustomTitle => {
                put(&mut self.custom_title, op, l_from, |h| &mut h.custom_title)
            }
            HeaderField::InitialLocation => put(&mut self.initial_location, op, l_from, |h| {
                &mut h.initial_location
            }),
        }
    }
}

/// A whole session object (a native `.json`, an export, or a `.jsonl` `kind: 0` state).
#[derive(Debug, Default)]
pub(crate) struct TopRaw {
    pub header: HeaderRec,
    pub requests: Option<Got<Vec<ReqRecord>>>,
    /// `welcomeMessage` (2024 exports) or `requesterUsername` seen: export-like keys.
    pub has_export_keys: bool,
}

/// Seed reading a whole session object. The caller checks that the value is an object first.
#[derive(Clone, Copy)]
pub(crate) struct TopSeed {
    pub detail: Detail,
}

struct HeaderSeed<'r> {
    field: HeaderField,
    header: &'r mut HeaderRec,
}

impl<'de> DeserializeSeed<'de> for HeaderSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.header.read_field(self.field, deserializer)
    }
}

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Got<TopRaw>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Got<TopRaw>, D::Error> {
        struct TopVisitor(Detail);
        impl<'de> Visitor<'de> for TopVisitor {
            type Value = Got<TopRaw>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a chat session object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Got<TopRaw>, A::Error> {
                let mut top = TopRaw::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    if let Some(field) = HeaderField::from_key(&key.0) {
                        map.next_value_seed(HeaderSeed {
                            field,
                            header: &mut top.header,
                        })?;
                    } else if key.0 == "requests" {
                        top.requests = Some(map.next_value_seed(ReqsSeed { detail: self.0 })?);
                    } else {
                        if key.0 == "welcomeMessage" || key.0 == "requesterUsername" {
                            top.has_export_keys = true;
                        }
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Got::Val(top))
            }
            other_kinds!(Got::Wrong, Got::Null; bool i64 u64 f64 str seq unit none);
        }
        deserializer.deserialize_any(TopVisitor(self.detail))
    }
}

/// The JSON type of a whole text, from its first significant byte (cheap, no parsing).
pub(crate) fn json_kind_of(text: &str) -> Option<&'static str> {
    let first = text
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))?;
    Some(match first {
        b'{' => "an object",
        b'[' => "an array",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        b'-' | b'0'..=b'9' => "a number",
        _ => "not JSON",
    })
}
