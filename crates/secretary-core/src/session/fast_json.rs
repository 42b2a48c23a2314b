//! The fast path of the `.json` reader: the session object and its `requests` are walked with the
//! byte-level [`scan`](super::scan) skipper, and only the few values the dialog model keeps are
//! handed to the serde visitors of [`de`](super::de), each on its own small slice.
//!
//! Why it gives the same answer as the serde path: the values it keeps are read by the very same
//! visitors (same leniency, same diagnostics), keys are compared as the same strings, later
//! duplicates win as they do there, and the skipper accepts no JSON that serde_json would
//! refuse. Whenever anything is not the plain shape (a key written with escapes, a syntax error,
//! a `requests` that is not an array...), it gives up with [`Bail`] and the caller reads the file
//! with [`de::TopSeed`](super::de::TopSeed), which then reports exactly what it always reported.
//! `tests/session_fastpath.rs` checks the two agree.

use serde::de::DeserializeSeed;

use super::de::{obj_from, Detail, HeaderField, Record, ReqField, ReqSeed, ReqsSeed, TopRaw};
use super::record::{Got, ReqRecord, ResultRec};
use super::scan::{expect, skip_value, string_body, ws, Bail, Scan};

/// Reads a whole session object from `text` (a BOM already stripped), or bails.
pub(crate) fn read_top(text: &str, detail: Detail) -> Scan<TopRaw> {
    let (top, end) = read_top_at(text, 0, detail)?;
    // Only whitespace may follow, as serde_json's `Deserializer::end` demands.
    if ws(text.as_bytes(), end) == text.len() {
        Ok(top)
    } else {
        Err(Bail)
    }
}

/// Reads the session object at `at` (whitespace allowed before it): the object and the position
/// just after it. A `.jsonl` `kind: 0` line holds one as its `v`.
pub(crate) fn read_top_at(text: &str, at: usize, detail: Detail) -> Scan<(TopRaw, usize)> {
    let b = text.as_bytes();
    let mut at = expect(b, at, b'{')?;
    let mut top = TopRaw::default();
    let mut first = true;
    loop {
        at = ws(b, at);
        match b.get(at) {
            Some(b'}') if first => {
                at += 1;
                break;
            }
            _ => {}
        }
        first = false;
        let (key, value_at) = key(text, at)?;
        if let Some(field) = HeaderField::from_key(key) {
            let end = skip_value(b, value_at)?;
            with_slice(text, value_at, end, |de| top.header.read_field(field, de))?;
            at = end;
        } else if key == "requests" {
            let (requests, end) = requests(text, value_at, detail)?;
            top.requests = Some(requests);
            at = end;
        } else {
            if key == "welcomeMessage" || key == "requesterUsername" {
                top.has_export_keys = true;
            }
            at = skip_value(b, value_at)?;
        }
        at = ws(b, at);
        match b.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => {
                at += 1;
                break;
            }
            _ => return Err(Bail),
        }
    }
    Ok((top, at))
}

/// An object key at `at` (whitespace skipped) and the position after its colon. Keys written
/// with escapes bail: serde_json would unescape them before comparing.
pub(crate) fn key(text: &str, at: usize) -> Scan<(&str, usize)> {
    let b = text.as_bytes();
    let start = expect(b, at, b'"')?;
    let (end, escaped) = string_body(b, start)?;
    if escaped {
        return Err(Bail);
    }
    let key = text.get(start..end - 1).ok_or(Bail)?;
    Ok((key, expect(b, end, b':')?))
}

/// Runs a serde read over `text[start..end]` (one whole value), requiring it to use it all.
pub(crate) fn with_slice<T>(
    text: &str,
    start: usize,
    end: usize,
    read: impl FnOnce(
        &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<T, serde_json::Error>,
) -> Scan<T> {
    let slice = text.get(start..end).ok_or(Bail)?;
    let mut de = serde_json::Deserializer::from_str(slice);
    let value = read(&mut de).map_err(|_| Bail)?;
    de.end().map_err(|_| Bail)?;
    Ok(value)
}

/// Where a walk over a container's entries is: at the next entry, or past the closing bracket.
enum Step {
    Entry(usize),
    Closed(usize),
}

/// The first entry of the container whose opening bracket is at `open_at`.
fn first_entry(b: &[u8], open_at: usize, close: u8) -> Step {
    let at = ws(b, open_at + 1);
    if b.get(at) == Some(&close) {
        Step::Closed(at + 1)
    } else {
        Step::Entry(at)
    }
}

/// After an entry that ends at `end`: the next one (after a comma), or past the `close`ing
/// bracket; anything else bails.
fn next_entry(b: &[u8], end: usize, close: u8) -> Scan<Step> {
    let at = ws(b, end);
    match b.get(at) {
        Some(b',') => Ok(Step::Entry(ws(b, at + 1))),
        Some(&c) if c == close => Ok(Step::Closed(at + 1)),
        _ => Err(Bail),
    }
}

/// Walks the entries of the container whose opening bracket is at `open_at` (`close` ends it):
/// `entry` reads the one starting where it is told and answers where it ends. The position just
/// past the container.
fn walk(
    b: &[u8],
    open_at: usize,
    close: u8,
    mut entry: impl FnMut(usize) -> Scan<usize>,
) -> Scan<usize> {
    let mut step = first_entry(b, open_at, close);
    loop {
        match step {
            Step::Entry(at) => step = next_entry(b, entry(at)?, close)?,
            Step::Closed(end) => return Ok(end),
        }
    }
}

/// What [`container`] found: a value serde read whole (not the container wanted), or the
/// container walked, both with the position just past the value.
enum Walked<T> {
    Whole(T, usize),
    Entries(usize),
}

impl<T> Walked<T> {
    /// The value read and where it ends: serde's, or `walked` (what the entries built).
    fn or(self, walked: T) -> (T, usize) {
        match self {
            Walked::Whole(got, end) => (got, end),
            Walked::Entries(end) => (walked, end),
        }
    }
}

/// The container `open`...`close` at `at` (whitespace allowed before it), each entry read by
/// `entry` (see [`walk`]); any other value is read whole by `whole`, with serde's leniency and
/// diagnostics.
fn container<T>(
    text: &str,
    at: usize,
    (open, close): (u8, u8),
    whole: impl FnOnce(
        &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<T, serde_json::Error>,
    entry: impl FnMut(usize) -> Scan<usize>,
) -> Scan<Walked<T>> {
    let b = text.as_bytes();
    let at = ws(b, at);
    if b.get(at) != Some(&open) {
        let end = skip_value(b, at)?;
        return Ok(Walked::Whole(with_slice(text, at, end, whole)?, end));
    }
    Ok(Walked::Entries(walk(b, at, close, entry)?))
}

/// The `requests` value at `at`: an array walked here, anything else read by serde.
pub(crate) fn requests(
    text: &str,
    at: usize,
    detail: Detail,
) -> Scan<(Got<Vec<ReqRecord>>, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let walked = container(
        text,
        at,
        (b'[', b']'),
        |de| ReqsSeed { detail }.deserialize(de),
        |at| {
            if out.len() >= super::MAX_REQUESTS {
                // Past the cap: stepped over, never built (see `MAX_REQUESTS`).
                return skip_value(b, at);
            }
            let with_response = detail.wants(out.len());
            let (rec, end) = if b.get(at) == Some(&b'{') && !with_response {
                request(text, at)?
            } else {
                let end = skip_value(b, at)?;
                let rec = with_slice(text, at, end, |de| {
                    ReqSeed { with_response }.deserialize(de)
                })?;
                (rec, end)
            };
            out.push(rec);
            Ok(end)
        },
    )?;
    Ok(walked.or(Got::Val(out)))
}

/// One request object at `at` (its `{`), without its response.
pub(crate) fn request(text: &str, at: usize) -> Scan<(ReqRecord, usize)> {
    let b = text.as_bytes();
    let mut rec = ReqRecord::default();
    let end = walk(b, at, b'}', |at| {
        let (key, value_at) = key(text, at)?;
        Ok(match ReqField::from_key(key, false) {
            Some(ReqField::Result) => {
                let (result, end) = result(text, value_at)?;
                rec.result = Some(result);
                end
            }
            Some(field) => {
                let end = skip_value(b, value_at)?;
                with_slice(text, value_at, end, |de| rec.read_field(field, de))?;
                end
            }
            None => skip_value(b, value_at)?,
        })
    })?;
    Ok((rec, end))
}

/// A request's `result`: only `errorDetails` is kept, so its (often huge) `metadata` is skipped
/// here rather than walked by serde.
pub(crate) fn result(text: &str, at: usize) -> Scan<(Got<ResultRec>, usize)> {
    let b = text.as_bytes();
    let mut rec = ResultRec::default();
    let walked = container(
        text,
        at,
        (b'{', b'}'),
        |de| obj_from(de),
        |at| {
            let (key, value_at) = key(text, at)?;
            let end = skip_value(b, value_at)?;
            if key == "errorDetails" {
                rec.error_details = Some(with_slice(text, value_at, end, |de| obj_from(de))?);
            }
            Ok(end)
        },
    )?;
    Ok(walked.or(Got::Val(rec)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain shape VS Code writes is read here, not handed back to the visitors.
    #[test]
    fn the_usual_shape_takes_the_fast_path() {
        let text = r#"{"version":3,"sessionId":"s","requests":[{"requestId":"r1","message":{"text":"hi \"you\"","parts":[]},"response":[{"value":"a\nb"}],"result":{"metadata":{"x":[1,2,{"y":null}]},"errorDetails":{"code":"canceled"}},"variableData":{"v":[]}},{}]}"#;
        let top = read_top(text, Detail::Off).expect("fast path");
        let Some(Got::Val(requests)) = top.requests else {
            panic!("requests not read");
        };
        assert_eq!(requests.len(), 2);
        assert!(requests[0].response.is_none());
        assert!(matches!(&requests[0].result, Some(Got::Val(r)) if r.error_details.is_some()));
    }

    #[test]
    fn escaped_keys_and_bad_syntax_bail() {
        assert_eq!(
            read_top(r#"{"req\u0075ests":[]}"#, Detail::Off).err(),
            Some(Bail)
        );
        assert_eq!(
            read_top(r#"{"requests":[1,]}"#, Detail::Off).err(),
            Some(Bail)
        );
        assert_eq!(
            read_top(r#"{"requests":[]} x"#, Detail::Off).err(),
            Some(Bail)
        );
    }
}
