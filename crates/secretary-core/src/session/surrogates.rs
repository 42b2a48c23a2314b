//! Lone UTF-16 surrogate escapes in JSON text, read as U+FFFD.
//!
//! JavaScript strings are UTF-16 and may hold half of a surrogate pair (an emoji cut in the middle by
//! `slice`); `JSON.stringify` then writes the half as an escape, `"\ud83d"`. VS Code reads such a
//! file back without complaint, but serde_json refuses the escape, which made a whole `.json` session
//! unreadable and dropped a `.jsonl` line, renumbering the requests after it (issue 27). JavaScript's
//! own `TextEncoder` writes a lone surrogate as U+FFFD; so do we, by rewriting the six-byte escape as
//! the six-byte escape `\ufffd` before parsing: the text keeps its length, so every offset (line
//! ends, the log's resume point, error columns) stays the same.

use std::borrow::Cow;

/// The hex value of a `\uXXXX` escape's four digits at `at`, if they are four hex digits.
fn hex4(b: &[u8], at: usize) -> Option<u16> {
    let digits = b.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    u16::from_str_radix(text, 16).ok()
}

fn is_high(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

fn is_low(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// Whether the backslash at `at` starts an escape: an odd number of backslashes ends there.
fn starts_escape(b: &[u8], at: usize) -> bool {
    let run = b[..=at].iter().rev().take_while(|&&c| c == b'\\').count();
    run % 2 == 1
}

/// The `\u` escape of a surrogate at `at` (a backslash that starts an escape), if any.
fn surrogate_at(b: &[u8], at: usize) -> Option<u16> {
    if b.get(at + 1) != Some(&b'u') {
        return None;
    }
    hex4(b, at + 2).filter(|&unit| is_high(unit) || is_low(unit))
}

/// `text` with every lone surrogate escape replaced by `\ufffd` (borrowed when there is none, which
/// is nearly always: one SIMD search for `\u` with a `d`/`D` after it).
pub(crate) fn mend(text: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut skip_to = 0;
    for at in memchr::memmem::find_iter(text, b"\\u") {
        if at < skip_to || !matches!(text.get(at + 2), Some(b'd' | b'D')) {
            continue;
        }
        if !starts_escape(text, at) {
            continue;
        }
        let Some(unit) = surrogate_at(text, at) else {
            continue;
        };
        if is_high(unit) {
            let next = at + 6;
            let paired =
                text.get(next) == Some(&b'\\') && surrogate_at(text, next).is_some_and(is_low);
            if paired {
                skip_to = next + 6;
                continue;
            }
        }
        let buf = out.get_or_insert_with(|| text.to_vec());
        buf[at..at + 6].copy_from_slice(b"\\ufffd");
        skip_to = at + 6;
    }
    match out {
        Some(buf) => Cow::Owned(buf),
        None => Cow::Borrowed(text),
    }
}

/// [`mend`] for text already checked to be UTF-8 (the rewrite keeps it UTF-8: ASCII for ASCII).
pub(crate) fn mend_str(text: &str) -> Cow<'_, str> {
    match mend(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // Only ASCII bytes of an escape were replaced by ASCII bytes.
        Cow::Owned(bytes) => Cow::Owned(
            String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mended(text: &str) -> String {
        mend_str(text).into_owned()
    }

    #[test]
    fn lone_halves_become_the_replacement_character() {
        assert_eq!(mended(r#""a\ud83d""#), r#""a\ufffd""#);
        assert_eq!(mended(r#""\uDE00b""#), r#""\ufffdb""#);
        assert_eq!(mended(r#""\ud83d\ud83d\ude00""#), r#""\ufffd\ud83d\ude00""#);
        assert_eq!(mended(r#""\ud83dx\ude00""#), r#""\ufffdx\ufffd""#);
        // The escape keeps its length: offsets after it do not move.
        assert_eq!(mended(r#"{"t":"\ud83d"}"#).len(), r#"{"t":"\ud83d"}"#.len());
    }

    #[test]
    fn pairs_escaped_backslashes_and_other_escapes_are_left_alone() {
        for text in [
            r#""\ud83d\ude00""#,
            r#""\\ud83d""#,
            r#""\u00e9\u0041""#,
            r#""\\\\ud83d""#,
            r#""\ud8""#,
        ] {
            assert!(matches!(mend(text.as_bytes()), Cow::Borrowed(_)), "{text}");
        }
        // An odd run of backslashes before `u` is an escape again.
        assert_eq!(mended(r#""\\\ud83d""#), r#""\\\ufffd""#);
    }

    #[test]
    fn mended_text_parses_as_javascript_reads_it() {
        let text = mended(r#"{"t":"cut \ud83d here"}"#);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["t"], "cut \u{fffd} here");
    }
}
