//! Dates in queries: "what did I ask about docker last week", "the CSS question in May".
//!
//! [`parse`] finds one time expression in a query and turns it into a span of time, relative to
//! an anchor (for past requests: the newest request's time, since the core has no clock and the
//! newest request is, in practice, today). The words of the expression are taken out of the
//! query, so that "last" and "week" do not match requests that say them; the caller ranks the
//! requests of the span first ([`crate::history`]).
//!
//! Understood (case-insensitive): `today`, `yesterday`, `this`/`last`/`past`/`previous` `week`,
//! `month`, `year`, `N days`/`weeks`/`months ago` (N a number, a word up to ten, `a` or `a few`),
//! a month name (`in May`, `March 2025`, `last December`; `may`, `march` and the short forms only
//! after `in`, `during`, `since`, `last`, `early`, `mid`, `late` or before a year, since "may" is
//! mostly a verb), `in 2024`, and a weekday after `on` or `last` (`on Monday`). Times are UTC.

const DAY: i64 = 86_400_000;

/// A span of time in milliseconds since the Unix epoch, `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    /// Whether `ms` falls in the span.
    pub fn contains(&self, ms: i64) -> bool {
        (self.start..self.end).contains(&ms)
    }
}

/// A query with its time expression taken out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatedQuery {
    /// The query without the words of the time expression.
    pub rest: String,
    /// The time the expression names.
    pub span: Span,
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];
const NUMBERS: [&str; 11] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];
/// Words before a month name that make it a date ("in may", not "may I").
const MONTH_LEADS: [&str; 7] = ["in", "during", "since", "last", "early", "mid", "late"];

/// The month (1-12) a word names, and whether the word is a date by itself (full names other
/// than "may" and "march").
fn month_of(word: &str) -> Option<(u32, bool)> {
    if let Some(i) = MONTHS.iter().position(|m| *m == word) {
        return Some((i as u32 + 1, word != "may" && word != "march"));
    }
    let short = match word {
        "jan" => 1,
        "feb" => 2,
        "mar" => 3,
        "apr" => 4,
        "jun" => 6,
        "jul" => 7,
        "aug" => 8,
        "sep" | "sept" => 9,
        "oct" => 10,
        "nov" => 11,
        "dec" => 12,
        _ => return None,
    };
    Some((short, false))
}

fn number_of(word: &str) -> Option<i64> {
    if let Ok(n) = word.parse::<i64>() {
        return (0..=1000).contains(&n).then_some(n);
    }
    NUMBERS.iter().position(|n| *n == word).map(|n| n as i64)
}

fn year_of(word: &str) -> Option<i64> {
    word.parse::<i64>()
        .ok()
        .filter(|y| (1970..=2200).contains(y) && word.len() == 4)
}

/// Finds the first time expression of `query` and its span relative to `anchor` (ms).
pub fn parse(query: &str, anchor: i64) -> Option<DatedQuery> {
    // Words with their byte ranges.
    let mut words: Vec<(usize, usize, String)> = Vec::new();
    let mut start = None;
    for (i, c) in query
        .char_indices()
        .chain(std::iter::once((query.len(), ' ')))
    {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            words.push((s, i, query[s..i].to_lowercase()));
        }
    }
    let w = |i: usize| words.get(i).map_or("", |(_, _, t)| t.as_str());
    let today = anchor.div_euclid(DAY);
    let (year, month, _) = civil_from_days(today);
    for i in 0..words.len() {
        let found: Option<(usize, usize, Span)> = match w(i) {
            "today" => Some((i, i, days(today, today + 1))),
            "yesterday" => Some((i, i, days(today - 1, today))),
            "this" | "last" | "past" | "previous" => {
                let last = w(i) != "this";
                match w(i + 1) {
                    "week" if last => Some((i, i + 1, days(today - 14, today + 1))),
                    "week" => Some((i, i + 1, days(today - 6, today + 1))),
                    "month" if last => {
                        let (y, m) = if month == 1 {
                            (year - 1, 12)
                        } else {
                            (year, month - 1)
                        };
                        Some((i, i + 1, month_span(y, m)))
                    }
                    "month" => Some((i, i + 1, month_span(year, month))),
                    "year" if last => Some((i, i + 1, year_span(year - 1))),
                    "year" => Some((i, i + 1, year_span(year))),
                    _ => None,
                }
            }
            word => {
                if let Some(n) = number_of(word).or(match word {
                    "a" if w(i + 1) == "few" => Some(3),
                    "a" => Some(1),
                    _ => None,
                }) {
                    let skip = usize::from(word == "a" && w(i + 1) == "few");
                    let unit = w(i + 1 + skip);
                    if w(i + 2 + skip) == "ago" {
                        let (size, slack) = match unit {
                            "day" | "days" => (1, 1),
                            "week" | "weeks" => (7, 4),
                            "month" | "months" => (30, 15),
                            _ => (0, 0),
                        };
                        (size > 0).then(|| {
                            let centre = today - n * size;
                            (i, i + 2 + skip, days(centre - slack, centre + slack + 1))
                        })
                    } else {
                        None
                    }
                } else if let Some((m, alone)) = month_of(word) {
                    let lead = i > 0 && MONTH_LEADS.contains(&w(i - 1));
                    let given_year = year_of(w(i + 1));
                    if alone || lead || given_year.is_some() {
                        // Without a year: the latest such month up to the anchor's.
                        let y = given_year.unwrap_or(if m <= month { year } else { year - 1 });
                        let first = if lead { i - 1 } else { i };
                        let last = if given_year.is_some() { i + 1 } else { i };
                        Some((first, last, month_span(y, m)))
                    } else {
                        None
                    }
                } else if let Some(d) = WEEKDAYS.iter().position(|d| *d == word) {
                    match w(i.wrapping_sub(1)) {
                        lead @ ("on" | "last") if i > 0 => {
                            // 1970-01-01 was a Thursday (weekday index 3).
                            let anchor_weekday = (today + 3).rem_euclid(7);
                            let mut back = (anchor_weekday - d as i64).rem_euclid(7);
                            if back == 0 && lead == "last" {
                                back = 7;
                            }
                            let day = today - back;
                            Some((i - 1, i, days(day, day + 1)))
                        }
                        _ => None,
                    }
                } else if word == "in" || word == "during" {
                    year_of(w(i + 1)).map(|y| (i, i + 1, year_span(y)))
                } else {
                    None
                }
            }
        };
        if let Some((first, last, span)) = found {
            let mut rest = String::with_capacity(query.len());
            rest.push_str(&query[..words[first].0]);
            rest.push_str(&query[words[last].1..]);
            return Some(DatedQuery {
                rest: rest.split_whitespace().collect::<Vec<_>>().join(" "),
                span,
            });
        }
    }
    None
}

fn days(from: i64, to: i64) -> Span {
    Span {
        start: from * DAY,
        end: to * DAY,
    }
}

fn month_span(year: i64, month: u32) -> Span {
    let (ny, nm) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    days(days_from_civil(year, month), days_from_civil(ny, nm))
}

fn year_span(year: i64) -> Span {
    days(days_from_civil(year, 1), days_from_civil(year + 1, 1))
}

/// Days since 1970-01-01 of the first day of `month` (1-12) of `year` (Howard Hinnant's
/// algorithm, proleptic Gregorian calendar).
fn days_from_civil(year: i64, month: u32) -> i64 {
    let m = i64::from(month);
    let y = if m <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The (year, month, day) of a day number (the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-10-15T09:00:00Z, a Wednesday.
    const ANCHOR: i64 = 1_760_518_800_000;

    fn iso(ms: i64) -> String {
        crate::text::iso8601(ms)[..10].to_string()
    }

    fn check(query: &str, rest: &str, from: &str, to: &str) {
        let found = parse(query, ANCHOR).unwrap_or_else(|| panic!("no date in {query:?}"));
        assert_eq!(found.rest, rest, "{query}");
        assert_eq!(
            (iso(found.span.start), iso(found.span.end)),
            (from.to_string(), to.to_string()),
            "{query}"
        );
    }

    #[test]
    fn relative_expressions() {
        check("docker today", "docker", "2025-10-15", "2025-10-16");
        check(
            "Yesterday's CSS fix",
            "'s CSS fix",
            "2025-10-14",
            "2025-10-15",
        );
        check("tests last week", "tests", "2025-10-01", "2025-10-16");
        check("this week: tests", ": tests", "2025-10-09", "2025-10-16");
        check(
            "what I asked last month",
            "what I asked",
            "2025-09-01",
            "2025-10-01",
        );
        check("this year", "", "2025-01-01", "2026-01-01");
        check("3 days ago", "", "2025-10-11", "2025-10-14");
        check(
            "two weeks ago about auth",
            "about auth",
            "2025-09-27",
            "2025-10-06",
        );
        check("a few days ago", "", "2025-10-11", "2025-10-14");
        check("on Monday", "", "2025-10-13", "2025-10-14");
        check("last Wednesday", "", "2025-10-08", "2025-10-09");
        check("on Wednesday", "", "2025-10-15", "2025-10-16");
    }

    #[test]
    fn months_and_years() {
        check(
            "the CSS question in May",
            "the CSS question",
            "2025-05-01",
            "2025-06-01",
        );
        check("december", "", "2024-12-01", "2025-01-01");
        check("March 2024 release", "release", "2024-03-01", "2024-04-01");
        check("in 2024", "", "2024-01-01", "2025-01-01");
        check("late Feb", "", "2025-02-01", "2025-03-01");
        check("in Dec", "", "2024-12-01", "2025-01-01");
    }

    #[test]
    fn words_that_are_not_dates() {
        for query in [
            "may I add a test",
            "march through the list",
            "the last item",
            "a weekly report",
            "monday.com integration",
            "",
            "2024 budget",
            "one of the days",
        ] {
            assert_eq!(parse(query, ANCHOR), None, "{query}");
        }
    }

    #[test]
    fn calendar_round_trip() {
        for day in [-800_000i64, -1, 0, 59, 60, 11_016, 20_376, 2_000_000] {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m) + i64::from(d) - 1, day);
        }
    }
}
