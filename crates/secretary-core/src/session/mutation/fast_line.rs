//! The fast path of the `.jsonl` reader: one mutation line walked with the byte-level
//! [`scan`](crate::session::scan) skipper, the way [`session::fast`](crate::session::fast) walks a
//! `.json` file.
//!
//! Most of a mutation log's bytes are values nothing we keep depends on (a request's `result`
//! with its tool-call metadata, response parts off the details path): serde skips them through
//! `IgnoredAny` and its general reader, the scanner 16 to 64 bytes at a time. The line's own members (`kind`,
//! `k`, `i`) are read by the same serde types as [`LineVisitor`](super::LineVisitor) reads them,
//! each on its own small slice; a kept value is read by the same seeds ([`PayloadSeed`], or the
//! `.json` fast path's readers where a value has the same shape: a whole state, a request, a
//! result).
//!
//! Why it gives the same answer as the visitors: the members it reads are read by the same code,
//! the skipper accepts no JSON that serde_json would refuse, and whenever a line is not the plain
//! shape (a key written with escapes, a `kind`, `k`, `i` or `v` given twice, a `kind` that is not
//! 0 to 3, a `k` that is not an array, any syntax error, any error of a seed) it gives up and the
//! line is read by the visitors, which then report exactly what they always reported.
//! `tests/session_fastpath.rs` checks the two agree.

use serde::de::DeserializeSeed;
use serde::Deserialize;

use super::{
    changes_nothing, classify, requests_detail, skipped, Parsed, ParsedLine, PathSeed, Payload,
    PayloadSeed, Target,
};
use crate::session::de::{Detail, ReqField, L};
use crate::session::fast_json::{key, read_top_at, request, requests, result, with_slice};
use crate::session::record::{Got, ReqRecord};
use crate::session::scan::{expect, skip_value, ws, Bail, Scan};

/// Reads one line (already known to start with `{`), or `None` when the visitors must read it.
pub(super) fn read_line(text: &str, detail: Detail) -> Option<ParsedLine> {
    line(text, detail).ok()
}

fn line(text: &str, detail: Detail) -> Scan<ParsedLine> {
    let b = text.as_bytes();
    let mut at = expect(b, 0, b'{')?;
    let (mut kind, mut path, mut index) = (None, None, None);
    // `v`, read as it is met when `kind` and `k` came first (as VS Code writes them), or where it
    // lies, to be read once the line's target is known.
    let (mut value, mut value_span): (Option<Payload>, Option<(usize, usize)>) = (None, None);
    loop {
        let (name, value_at) = key(text, at)?;
        let start = ws(b, value_at);
        // A member given twice bails: the visitors know which one wins, and when.
        let end = match name {
            "kind" if kind.is_none() => {
                let end = skip_value(b, start)?;
                kind = Some(read_kind(text, start, end)?);
                end
            }
            "k" if path.is_none() => {
                let end = skip_value(b, start)?;
                let seen = with_slice(text, start, end, |de| PathSeed.deserialize(de))?;
                path = Some(seen.ok_or(Bail)?);
                end
            }
            "i" if index.is_none() => {
                let end = skip_value(b, start)?;
                index = Some(with_slice(text, start, end, |de| L::<u64>::deserialize(de))?.0);
                end
            }
            "v" if value.is_none() && value_span.is_none() => match (kind, &path) {
                // The target is known: read the value in one pass, as the visitors do.
                (Some(kind), Some(_)) | (Some(kind @ 0), None) => {
                    let path = path.as_deref().unwrap_or(&[]);
                    let target = classify(kind, path, detail);
                    let (payload, end) = payload(text, start, kind, target, detail)?;
                    value = Some(payload);
                    end
                }
                _ => {
                    let end = skip_value(b, start)?;
                    value_span = Some((start, end));
                    end
                }
            },
            "kind" | "k" | "i" | "v" => return Err(Bail),
            _ => skip_value(b, start)?,
        };
        at = ws(b, end);
        match b.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => break,
            _ => return Err(Bail),
        }
    }
    // Only whitespace may follow, as serde_json's `Deserializer::end` demands.
    if ws(b, at + 1) != b.len() {
        return Err(Bail);
    }
    let kind = kind.ok_or(Bail)?;
    let path = path.unwrap_or_default();
    if changes_nothing(kind, &path) {
        return Ok(None);
    }
    let target = classify(kind, &path, detail);
    let payload = match (value, value_span) {
        (Some(payload), _) => Some(payload),
        (None, Some(span)) => Some(payload_at(text, span, kind, target, detail)?),
        (None, None) => None,
    };
    Ok(Some(Parsed {
        kind,
        target,
        payload,
        index,
    }))
}

/// A `v` met before `kind` or `k`, read where it lies now that its target is known; it must end
/// where skipping it ended.
fn payload_at(
    text: &str,
    (start, end): (usize, usize),
    kind: u64,
    target: Target,
    detail: Detail,
) -> Scan<Payload> {
    let (payload, used) = payload(text, start, kind, target, detail)?;
    if used != end {
        return Err(Bail);
    }
    Ok(payload)
}

/// The line's `kind`, read as the visitors read it; one they would refuse bails.
fn read_kind(text: &str, start: usize, end: usize) -> Scan<u64> {
    match with_slice(text, start, end, |de| L::<u64>::deserialize(de))?.0 {
        Got::Val(kind) if kind <= 3 => Ok(kind),
        _ => Err(Bail),
    }
}

/// The value at `start` read as what `target` needs, and the position just after it.
fn payload(
    text: &str,
    start: usize,
    kind: u64,
    target: Target,
    detail: Detail,
) -> Scan<(Payload, usize)> {
    let b = text.as_bytes();
    if skipped(kind, target) {
        // Checked by the skipper as `IgnoredAny` would have checked it.
        return Ok((Payload::None, skip_value(b, start)?));
    }
    let push = kind == 2;
    let object = b.get(start) == Some(&b'{');
    Ok(match target {
        Target::Whole if object => {
            let (top, end) = read_top_at(text, start, detail)?;
            (Payload::Whole(Got::Val(top)), end)
        }
        Target::Requests => {
            let (got, end) = requests(text, start, requests_detail(kind, detail))?;
            (Payload::Requests(got), end)
        }
        Target::Request(n) if !push && object && !detail.wants(n) => {
            let (rec, end) = request(text, start)?;
            (Payload::Request(rec), end)
        }
        Target::ReqField(_, ReqField::Result) if !push => {
            let (got, end) = result(text, start)?;
            let scratch = ReqRecord {
                result: Some(got),
                ..ReqRecord::default()
            };
            (Payload::Field(scratch), end)
        }
        _ => {
            let end = skip_value(b, start)?;
            let payload = with_slice(text, start, end, |de| {
                PayloadSeed {
                    kind,
                    target,
                    detail,
                }
                .deserialize(de)
            })?;
            (payload, end)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fast(text: &str) -> bool {
        read_line(text, Detail::Off).is_some()
    }

    /// The lines VS Code writes are read here, not handed back to the visitors.
    #[test]
    fn the_usual_lines_take_the_fast_path() {
        for text in [
            r#"{"kind":0,"v":{"version":3,"sessionId":"s","requests":[{"requestId":"r","message":{"text":"hi"},"result":{"metadata":{"a":[1]}}}]}}"#,
            r#"{"kind":1,"k":["requests",0,"result"],"v":{"timings":{"totalElapsed":9},"metadata":{"toolCallRounds":[{"response":"x\n\"y\""}]},"errorDetails":{"code":"canceled"}}}"#,
            r#"{"kind":2,"k":["requests",0,"response"],"v":[{"value":"md"}],"i":3}"#,
            r#"{"kind":2,"k":["requests"],"v":[{"requestId":"r2","response":[]}]}"#,
            r#"{"kind":1,"k":["requests",1],"v":{"requestId":"r2"}}"#,
            r#"{"kind":1,"k":["inputState","inputText"],"v":"draft"}"#,
            r#"{"kind":1,"k":["customTitle"],"v":"A title"}"#,
            r#"{"kind":3,"k":["requests",0,"modelState"]}"#,
            r#" { "v" : 1 , "k" : [ "x" ] , "kind" : 1 } "#,
        ] {
            assert!(fast(text), "{text}");
        }
        let Some(Some(parsed)) = read_line(
            r#"{"kind":1,"k":["requests",0,"result"],"v":{"metadata":{},"errorDetails":{"code":"failed"}}}"#,
            Detail::Off,
        ) else {
            panic!("a result set is read");
        };
        assert!(matches!(
            parsed.payload,
            Some(Payload::Field(ReqRecord { result: Some(Got::Val(ref r)), .. })) if r.error_details.is_some()
        ));
    }

    /// What the visitors must decide (or report) is left to them.
    #[test]
    fn unusual_lines_go_to_the_visitors() {
        for text in [
            r#"{"kind":1,"kind":2,"k":["customTitle"],"v":"t"}"#,
            r#"{"kind":1,"k":["customTitle"],"k":["sessionId"],"v":"t"}"#,
            r#"{"kind":1,"k":["customTitle"],"v":"t","v":"u"}"#,
            r#"{"kind":2,"k":["requests"],"v":[],"i":1,"i":2}"#,
            r#"{"\u006bind":1,"k":["customTitle"],"v":"t"}"#,
            r#"{"kind":7,"k":["customTitle"],"v":"t"}"#,
            r#"{"kind":"1","k":["customTitle"],"v":"t"}"#,
            r#"{"kind":1,"k":"customTitle","v":"t"}"#,
            r#"{"k":["customTitle"],"v":"t"}"#,
            r#"{}"#,
            r#"{"kind":1,"k":["customTitle"],"v":[1,]}"#,
            r#"{"kind":1,"k":["customTitle"],"v":"t"} x"#,
            r#"{"kind":1,"k":["customTitle"],"v":"t""#,
        ] {
            assert!(!fast(text), "{text}");
        }
    }
}
