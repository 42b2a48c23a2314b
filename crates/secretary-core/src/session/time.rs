//! ISO 8601 timestamps (as Copilot transcripts write them) to milliseconds since the Unix epoch,
//! without a date library: the format is fixed and small, and the core must stay light for wasm.

use crate::text::days_from_civil;

fn digits(s: &[u8], from: usize, len: usize) -> Option<i64> {
    let part = s.get(from..from + len)?;
    let mut n = 0i64;
    for &b in part {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    Some(n)
}

/// Parses `YYYY-MM-DD`, optionally followed by `THH:MM[:SS[.fraction]]` and `Z` or `±HH[:MM]`
/// (no zone means UTC). Returns `None` for anything else, never panics.
pub(crate) fn parse_iso_ms(text: &str) -> Option<i64> {
    let s = text.trim().as_bytes();
    let year = digits(s, 0, 4)?;
    if s.get(4) != Some(&b'-') || s.get(7) != Some(&b'-') {
        return None;
    }
    let month = digits(s, 5, 2)?;
    let day = digits(s, 8, 2)?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) * 86_400_000;
    if s.len() == 10 {
        return Some(ms);
    }
    if !matches!(s.get(10), Some(b'T') | Some(b't') | Some(b' ')) {
        return None;
    }
    let hour = digits(s, 11, 2)?;
    if s.get(13) != Some(&b':') {
        return None;
    }
    let minute = digits(s, 14, 2)?;
    let mut pos = 16;
    let mut second = 0;
    let mut millis = 0;
    if s.get(pos) == Some(&b':') {
        second = digits(s, pos + 1, 2)?;
        pos += 3;
        if matches!(s.get(pos), Some(b'.') | Some(b',')) {
            pos += 1;
            let start = pos;
            let mut scale = 100;
            while let Some(b) = s.get(pos).filter(|b| b.is_ascii_digit()) {
                millis += i64::from(b - b'0') * scale;
                scale /= 10;
                pos += 1;
            }
            if pos == start {
                return None;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    ms += ((hour * 60 + minute) * 60 + second) * 1000 + millis;
    match s.get(pos) {
        None => Some(ms),
        Some(b'Z') | Some(b'z') if pos + 1 == s.len() => Some(ms),
        Some(&sign @ (b'+' | b'-')) => {
            let oh = digits(s, pos + 1, 2)?;
            let rest = pos + 3;
            let om = match s.get(rest) {
                None => 0,
                Some(b':') if s.len() == rest + 3 => digits(s, rest + 1, 2)?,
                Some(_) if s.len() == rest + 2 => digits(s, rest, 2)?,
                _ => return None,
            };
            let offset = (oh * 60 + om) * 60_000;
            Some(if sign == b'+' {
                ms - offset
            } else {
                ms + offset
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_iso_ms;

    #[test]
    fn parses_the_shapes_transcripts_use() {
        assert_eq!(parse_iso_ms("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(
            parse_iso_ms("2026-01-15T10:00:01.000Z"),
            Some(1_768_471_201_000)
        );
        assert_eq!(
            parse_iso_ms("2026-01-15T10:00:01Z"),
            Some(1_768_471_201_000)
        );
        assert_eq!(
            parse_iso_ms("2026-01-15T12:00:01.5+02:00"),
            Some(1_768_471_201_500)
        );
        assert_eq!(parse_iso_ms("2026-01-15"), Some(1_768_435_200_000));
        assert_eq!(parse_iso_ms("1969-12-31T23:59:59Z"), Some(-1000));
    }

    #[test]
    fn rejects_garbage_without_panicking() {
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-01-01T",
            "2026-01-01T10",
            "2026-01-01T10:00Zx",
            "ü2026-01-01",
            "2026-01-01T10:00:00.",
            "2026-01-01T10:00+0",
        ] {
            assert_eq!(parse_iso_ms(bad), None, "{bad}");
        }
    }
}
