//! Small text helpers shared by readers and tools.

use serde_json::Value;

/// A short name for the JSON kind of `value`, used in error texts.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The first `max_chars` characters of `text`, cut on a character boundary (never inside a code
/// point), with "..." appended when something was cut. Whitespace runs are folded to one space so
/// that previews of multi-line requests stay on one line.
pub fn preview(text: &str, max_chars: usize) -> String {
    let folded: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    truncate_chars(&folded, max_chars)
}

/// `text` cut to at most `max_chars` characters including a trailing "..." when cut.
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let keep = max_chars.saturating_sub(3);
    let mut out: String = text.chars().take(keep).collect();
    out.push_str("...");
    out
}

/// Percent-encodes a URL query value: everything but RFC 3986's unreserved characters
/// (Context7's URLs).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `%XX` escapes decoded (a `file://` URI's path); invalid escapes stay as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preview_folds_whitespace_and_keeps_short_text() {
        assert_eq!(preview("a\n  b\tc", 80), "a b c");
    }

    #[test]
    fn truncation_never_splits_a_code_point() {
        let text = "é".repeat(100);
        let cut = truncate_chars(&text, 80);
        assert_eq!(cut.chars().count(), 80);
        assert!(cut.ends_with("..."));
        let emoji = "😀".repeat(90);
        assert_eq!(truncate_chars(&emoji, 80).chars().count(), 80);
    }

    #[test]
    fn values_are_percent_encoded() {
        assert_eq!(
            percent_encode("/microsoft/playwright"),
            "%2Fmicrosoft%2Fplaywright"
        );
        assert_eq!(percent_encode("a b&c=d é"), "a%20b%26c%3Dd%20%C3%A9");
        assert_eq!(percent_encode("next.js_v~1-2"), "next.js_v~1-2");
    }

    #[test]
    fn percent_escapes_are_decoded() {
        assert_eq!(percent_decode("/a%20b/%C3%BC"), "/a b/ü");
        assert_eq!(percent_decode("/a%2"), "/a%2");
        assert_eq!(percent_decode("/a%zz"), "/a%zz");
    }
}

/// Milliseconds since the Unix epoch as ISO 8601 UTC (`2025-10-14T09:12:33.000Z`), the same text
/// JavaScript's `Date.prototype.toISOString` gives, so hosts and agents read one format: a
/// year before 0 or after 9999 (a wrong clock, a hostile file) in its expanded form, a sign and
/// six digits (`+010000-01-01T00:00:00.000Z`), never as text no ISO reader takes.
pub fn iso8601(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let year = match year {
        0..=9999 => format!("{year:04}"),
        _ if year < 0 => format!("-{:06}", year.unsigned_abs()),
        _ => format!("+{year:06}"),
    };
    format!(
        "{year}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Days from 1970-01-01 to the given civil date (Howard Hinnant's algorithm, proleptic Gregorian
/// calendar). The one calendar of the core, with [`civil_from_days`]: timestamps
/// (`session/time.rs`), dates in search queries (`search/when.rs`) and ISO 8601 output.
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar): the (year, month,
/// day) of a day number, the inverse of [`days_from_civil`].
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod time_tests {
    use super::iso8601;

    #[test]
    fn formats_like_javascript_to_iso_string() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_760_434_353_123), "2025-10-14T09:32:33.123Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59.999Z");
        // Years outside 0..=9999 as `toISOString` writes them (values from Node).
        assert_eq!(iso8601(253_402_300_800_000), "+010000-01-01T00:00:00.000Z");
        assert_eq!(iso8601(-62_198_737_200_000), "-000001-01-01T05:00:00.000Z");
        assert_eq!(iso8601(-62_167_219_200_000), "0000-01-01T00:00:00.000Z");
        assert_eq!(
            iso8601(8_640_000_000_000_000),
            "+275760-09-13T00:00:00.000Z"
        );
        assert_eq!(
            iso8601(-8_640_000_000_000_000),
            "-271821-04-20T00:00:00.000Z"
        );
    }
}
