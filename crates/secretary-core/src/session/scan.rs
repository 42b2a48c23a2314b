//! A byte-level JSON skipper: finds where a value ends without building or decoding it.
//!
//! Why: almost all of a session's bytes are response bodies and metadata that the dialog model
//! never reads. serde_json's `IgnoredAny` already skips them without allocating, but it walks
//! them one byte at a time through its general reader. This scanner looks for the bytes that
//! matter inside strings (a quote, a backslash, a control character) 16 bytes at a time (SSE2 on
//! x86_64, SIMD128 on wasm32 when the module is built with it, 8-byte SWAR otherwise) and keeps
//! bracket depth in a small stack, so skipping costs little more than reading memory.
//!
//! It accepts exactly what serde_json's `ignore_value` accepts or less: anything it is unsure
//! of (any syntax error, a key written with escapes) is a [`Bail`], and the caller then reads
//! the file with the serde visitors, which give the same result and the same error as before.
//! Like `ignore_value`, it sets no depth limit and never recurses.

/// The scanner met something it does not vouch for; read the file the general way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bail;

pub(crate) type Scan<T> = Result<T, Bail>;

/// The position of the first byte at or after `at` that is not JSON whitespace.
#[inline]
pub(crate) fn ws(b: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\t' | b'\r') = b.get(at) {
        at += 1;
    }
    at
}

/// Expects `byte` at `at` (after whitespace); the position after it.
#[inline]
pub(crate) fn expect(b: &[u8], at: usize, byte: u8) -> Scan<usize> {
    let at = ws(b, at);
    if b.get(at) == Some(&byte) {
        Ok(at + 1)
    } else {
        Err(Bail)
    }
}

/// Skips a string whose opening quote is at `at - 1`; returns the position after its closing
/// quote and whether it held an escape. Escapes are checked as serde_json's `ignore_str` checks
/// them (the escape letter, four hex digits after `\u`), control characters are refused.
///
/// Strings are read 16 bytes at a time: one mask of the special bytes per chunk, and every hit in
/// the chunk handled from that mask, so a text dense in `\n` and `\"` does not reload its chunk
/// at each escape. A string that goes on past its first 16 bytes (a response's markdown) is then
/// read 64 bytes at a time, four chunks' masks in one word: a quarter of the loop's turns, while
/// keys and short values still cost one chunk.
#[inline]
pub(crate) fn string_body(b: &[u8], mut at: usize) -> Scan<(usize, bool)> {
    let mut escaped = false;
    if at + 16 <= b.len() {
        match chunk(b, at, 16, u64::from(simd::mask16(b, at)), &mut escaped)? {
            Chunk::End(end) => return Ok((end, escaped)),
            Chunk::Next(next) => at = next,
        }
    }
    while at + 64 <= b.len() {
        match chunk(b, at, 64, mask64(b, at), &mut escaped)? {
            Chunk::End(end) => return Ok((end, escaped)),
            Chunk::Next(next) => at = next,
        }
    }
    while at + 16 <= b.len() {
        match chunk(b, at, 16, u64::from(simd::mask16(b, at)), &mut escaped)? {
            Chunk::End(end) => return Ok((end, escaped)),
            Chunk::Next(next) => at = next,
        }
    }
    loop {
        at = swar::tail(b, at);
        match b.get(at) {
            Some(b'"') => return Ok((at + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                at = escape(b, at)?;
            }
            // A control character, or the end of the input.
            _ => return Err(Bail),
        }
    }
}

/// Where a chunk of a string leaves the scan.
enum Chunk {
    /// The string ends here: the position after its closing quote.
    End(usize),
    /// The string goes on: the next position to read (past the chunk, or past an escape that
    /// crosses its end).
    Next(usize),
}

/// Handles every special byte of the `width` bytes at `base` from their `mask` (bit `i` for
/// `b[base + i]`): the closing quote ends the string, an escape is checked and its bytes cleared
/// from the mask, anything else (a control character) bails.
#[inline(always)]
fn chunk(b: &[u8], base: usize, width: usize, mut mask: u64, escaped: &mut bool) -> Scan<Chunk> {
    while mask != 0 {
        let p = base + mask.trailing_zeros() as usize;
        match b.get(p) {
            Some(b'"') => return Ok(Chunk::End(p + 1)),
            Some(b'\\') => {
                *escaped = true;
                let next = escape(b, p)?;
                let off = next - base;
                if off >= width {
                    return Ok(Chunk::Next(next));
                }
                mask &= !0u64 << off;
            }
            _ => return Err(Bail),
        }
    }
    Ok(Chunk::Next(base + width))
}

/// Bit `i` set when `b[at + i]` is special, for 64 bytes; the caller guarantees
/// `at + 64 <= b.len()`.
#[inline(always)]
fn mask64(b: &[u8], at: usize) -> u64 {
    u64::from(simd::mask16(b, at))
        | u64::from(simd::mask16(b, at + 16)) << 16
        | u64::from(simd::mask16(b, at + 32)) << 32
        | u64::from(simd::mask16(b, at + 48)) << 48
}

/// Checks the escape whose backslash is at `at`; the position after it.
#[inline(always)]
fn escape(b: &[u8], at: usize) -> Scan<usize> {
    match b.get(at + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
        Some(b'u') => {
            let hex = b.get(at + 2..at + 6).ok_or(Bail)?;
            if hex.iter().all(u8::is_ascii_hexdigit) {
                Ok(at + 6)
            } else {
                Err(Bail)
            }
        }
        _ => Err(Bail),
    }
}

/// Skips a number starting at `at`, with serde_json's grammar (no leading zeros, digits after
/// `.` and after the exponent).
fn number(b: &[u8], mut at: usize) -> Scan<usize> {
    let digits = |b: &[u8], mut at: usize| {
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        at
    };
    if b.get(at) == Some(&b'-') {
        at += 1;
    }
    match b.get(at) {
        Some(b'0') => {
            at += 1;
            if b.get(at).is_some_and(u8::is_ascii_digit) {
                return Err(Bail);
            }
        }
        Some(b'1'..=b'9') => at = digits(b, at + 1),
        _ => return Err(Bail),
    }
    if b.get(at) == Some(&b'.') {
        let end = digits(b, at + 1);
        if end == at + 1 {
            return Err(Bail);
        }
        at = end;
    }
    if let Some(b'e' | b'E') = b.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = b.get(at) {
            at += 1;
        }
        let end = digits(b, at);
        if end == at {
            return Err(Bail);
        }
        at = end;
    }
    Ok(at)
}

fn literal(b: &[u8], at: usize, word: &[u8]) -> Scan<usize> {
    if b.get(at..at + word.len()) == Some(word) {
        Ok(at + word.len())
    } else {
        Err(Bail)
    }
}

/// Skips an object key and its colon, starting before the key's quote: the position of the
/// value (whitespace not yet skipped).
fn key_colon(b: &[u8], at: usize) -> Scan<usize> {
    let at = expect(b, at, b'"')?;
    let (at, _) = string_body(b, at)?;
    expect(b, at, b':')
}

/// Skips the JSON value that starts at `at` (after optional whitespace); the position just after
/// it. Never recurses: open containers are kept in a stack of their kinds.
pub(crate) fn skip_value(b: &[u8], at: usize) -> Scan<usize> {
    let mut stack: Vec<u8> = Vec::new();
    let mut at = at;
    'value: loop {
        at = ws(b, at);
        match *b.get(at).ok_or(Bail)? {
            b'"' => at = string_body(b, at + 1)?.0,
            b'-' | b'0'..=b'9' => at = number(b, at)?,
            b'n' => at = literal(b, at, b"null")?,
            b't' => at = literal(b, at, b"true")?,
            b'f' => at = literal(b, at, b"false")?,
            open @ (b'[' | b'{') => {
                let close = if open == b'[' { b']' } else { b'}' };
                let inner = ws(b, at + 1);
                if b.get(inner) == Some(&close) {
                    at = inner + 1;
                } else {
                    stack.push(close);
                    at = if open == b'{' {
                        key_colon(b, inner)?
                    } else {
                        inner
                    };
                    continue 'value;
                }
            }
            _ => return Err(Bail),
        }
        // A value ended: close containers until one continues with a comma.
        loop {
            let Some(&close) = stack.last() else {
                return Ok(at);
            };
            at = ws(b, at);
            match b.get(at) {
                Some(b',') => {
                    at = if close == b'}' {
                        key_colon(b, at + 1)?
                    } else {
                        at + 1
                    };
                    continue 'value;
                }
                Some(&c) if c == close => {
                    stack.pop();
                    at += 1;
                }
                _ => return Err(Bail),
            }
        }
    }
}

/// The members of the object that opens `b`, in order, as far as they can be read: each key
/// with its value's bytes. The walk ends at the object's end, at a key it cannot read plainly
/// (written with escapes, not UTF-8), and at a value it does not vouch for, which is kept with
/// the rest of `b` as its bytes (cut by the end of `b`, or malformed): the key was written.
/// Nothing past `b` is looked at.
///
/// Why: telling formats apart needs a few top-level keys of a file's first line, and a VS Code
/// `.json` session is one line of up to hundreds of MB. Sniffing a bounded head of it keeps the
/// cost of choosing the reader independent of the file's size (the reader then walks it once).
pub(crate) fn leading_members(b: &[u8]) -> Vec<(&str, &[u8])> {
    let mut out = Vec::new();
    let Ok(mut at) = expect(b, 0, b'{') else {
        return out;
    };
    if b.get(ws(b, at)) == Some(&b'}') {
        return out;
    }
    loop {
        let Ok(start) = expect(b, at, b'"') else {
            return out;
        };
        let Ok((end, false)) = string_body(b, start) else {
            return out;
        };
        let (Ok(key), Ok(value_at)) = (
            std::str::from_utf8(&b[start..end - 1]),
            expect(b, end, b':'),
        ) else {
            return out;
        };
        let value_at = ws(b, value_at);
        let Ok(value_end) = skip_value(b, value_at) else {
            out.push((key, &b[value_at.min(b.len())..]));
            return out;
        };
        out.push((key, &b[value_at..value_end]));
        at = ws(b, value_end);
        match b.get(at) {
            Some(b',') => at += 1,
            _ => return out,
        }
    }
}

/// Whether a byte ends a run of plain string content.
#[inline(always)]
fn is_special(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The scalar tail shared by every target.
mod swar {
    use super::is_special;

    /// The first position at or after `at` holding a special byte (`b.len()` when none).
    #[inline(always)]
    pub(super) fn tail(b: &[u8], at: usize) -> usize {
        b.get(at..)
            .and_then(|rest| rest.iter().position(|&c| is_special(c)))
            .map_or(b.len(), |p| at + p)
    }
}

/// `mask16(b, at)`: bit `i` set when `b[at + i]` is special; the caller guarantees
/// `at + 16 <= b.len()`.
#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    #[inline(always)]
    pub(super) fn mask16(b: &[u8], at: usize) -> u32 {
        debug_assert!(at + 16 <= b.len());
        // SAFETY: SSE2 is part of the x86_64 baseline, and the caller keeps `at + 16 <= b.len()`,
        // so the unaligned 16-byte load stays inside `b`.
        unsafe {
            let x = _mm_loadu_si128(b.as_ptr().add(at).cast());
            let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
            let slash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
            // x <= 0x1F unsigned  <=>  min(x, 0x1F) == x.
            let ctrl = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, slash), ctrl)) as u32
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::*;

    #[inline(always)]
    pub(super) fn mask16(b: &[u8], at: usize) -> u32 {
        debug_assert!(at + 16 <= b.len());
        // SAFETY: this item only exists when the module is built with SIMD128, and the caller
        // keeps `at + 16 <= b.len()`, so the unaligned 16-byte load stays inside `b`.
        let x = unsafe { v128_load(b.as_ptr().add(at).cast()) };
        let hits = v128_or(
            v128_or(
                u8x16_eq(x, u8x16_splat(b'"')),
                u8x16_eq(x, u8x16_splat(b'\\')),
            ),
            u8x16_lt(x, u8x16_splat(0x20)),
        );
        u32::from(u8x16_bitmask(hits))
    }
}

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
mod simd {
    #[inline(always)]
    pub(super) fn mask16(b: &[u8], at: usize) -> u32 {
        b[at..at + 16]
            .iter()
            .enumerate()
            .fold(0, |m, (i, &c)| m | (u32::from(super::is_special(c)) << i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip(text: &str) -> Scan<usize> {
        skip_value(text.as_bytes(), 0)
    }

    #[test]
    fn skips_what_serde_json_accepts() {
        for text in [
            "0",
            "-0.5e+10",
            "12.25E3",
            "\"a\\\"b\\\\c\\u00e9\\n\"",
            "[]",
            "{}",
            "[1, [2, {\"a\": [true, false, null]}], \"x\"]",
            "{ \"k\" : { \"n\" : [ ] } , \"s\" : \"\u{e9}\u{1F600}\" }",
        ] {
            assert_eq!(skip(text), Ok(text.len()), "{text}");
            assert!(serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok());
        }
    }

    #[test]
    fn bails_where_serde_json_fails() {
        for text in [
            "",
            "01",
            "-",
            "1.",
            "1e",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "\"\\x\"",
            "\"\\u12g4\"",
            "\"a\u{1}b\"",
            "\"open",
            "[1 2]",
            "nul",
            "tru",
            "[",
            "{\"a\":",
        ] {
            assert_eq!(skip(text), Err(Bail), "{text:?}");
            assert!(serde_json::from_str::<serde::de::IgnoredAny>(text).is_err());
        }
    }

    #[test]
    fn special_bytes_are_found_at_every_offset() {
        for len in 0..150 {
            for pos in 0..=len {
                for mark in [b'"', b'\\', 0u8, 0x1F] {
                    let mut bytes = vec![b'a'; len];
                    bytes.extend_from_slice("\u{e9}".as_bytes());
                    if pos < len {
                        bytes[pos] = mark;
                    }
                    let want = if pos < len { pos } else { bytes.len() };
                    assert_eq!(swar::tail(&bytes, 0), want, "len {len} pos {pos}");
                    if len >= 16 {
                        let mask = simd::mask16(&bytes, 0);
                        let first = if mask == 0 {
                            16
                        } else {
                            mask.trailing_zeros() as usize
                        };
                        assert_eq!(first, want.min(16), "len {len} pos {pos}");
                    }
                    // A string ending at the mark (a quote) or refused there.
                    bytes.push(b'"');
                    let got = string_body(&bytes, 0);
                    match (pos < len, mark) {
                        (true, b'"') => assert_eq!(got, Ok((pos + 1, false))),
                        (true, _) => assert_eq!(got, Err(Bail)),
                        (false, _) => assert_eq!(got, Ok((bytes.len(), false))),
                    }
                }
            }
        }
    }

    #[test]
    fn escapes_across_chunk_edges() {
        for lead in 0..150 {
            for esc in ["\\n", "\\\"", "\\\\", "\\u00e9", "\\/"] {
                let body = format!(
                    "{}{}{}{}\"",
                    "a".repeat(lead),
                    esc,
                    "é".repeat(lead % 7),
                    esc.repeat(lead % 5)
                );
                assert_eq!(
                    string_body(body.as_bytes(), 0),
                    Ok((body.len(), true)),
                    "{body}"
                );
                let quoted = format!("\"{body}");
                assert!(serde_json::from_str::<String>(&quoted).is_ok());
            }
        }
    }

    #[test]
    fn leading_members_read_what_the_head_holds() {
        let keys = |text: &str| {
            leading_members(text.as_bytes())
                .into_iter()
                .map(|(k, v)| format!("{k}={}", String::from_utf8_lossy(v)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            keys(r#" { "type" : "x", "n": [1, {"a": "}"}] , "e":{} }"#),
            ["type=\"x\"", "n=[1, {\"a\": \"}\"}]", "e={}"]
        );
        // A value cut by the end of the head is the last one, with what the head holds of it;
        // so is a malformed one. An escaped key or a missing comma ends the walk; a non-object
        // gives nothing.
        assert_eq!(
            keys(r#"{"type":"a","requests":[{"message":"hel"#),
            ["type=\"a\"", "requests=[{\"message\":\"hel"]
        );
        assert_eq!(keys(r#"{"a":1,"b":[1,]}"#), ["a=1", "b=[1,]}"]);
        assert_eq!(keys(r#"{"a":1,"\u0074ype":"x","b":2}"#), ["a=1"]);
        assert_eq!(keys(r#"{"a":1 "b":2}"#), ["a=1"]);
        assert!(keys("[1]").is_empty() && keys("{}").is_empty() && keys("").is_empty());
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let deep = "[".repeat(200_000) + &"]".repeat(200_000);
        assert_eq!(skip(&deep), Ok(deep.len()));
    }
}
