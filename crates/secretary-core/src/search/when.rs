//! Dates in queries: "what did I ask about docker last week", "the CSS question in May".
//!
//! [`parse`] finds one time expression in a query and turns it into a span of time, relative to
//! an anchor (for past requests: the newest request's time, since the core has no clock and the
//! newest request is, in practice, today; when the host gives its clock, a request timed more
//! than a day after it is not taken for the newest, see `history::Layout::now`). The words of
//! the expression are taken out of the query, so that "last" and "week" do not match requests
//! that say them; the caller ranks the requests of the span first ([`crate::history`]).
//!
//! Understood (case-insensitive): `today`, `yesterday`, `this`/`last`/`past`/`previous` `week`,
//! `month`, `year`, `N days`/`weeks`/`months ago` (N a number, a word up to ten, `a` or `a few`),
//! a month name (`in May`, `March 2025`, `last December`; `may`, `march` and the short forms only
//! after `in`, `during`, `since`, `last`, `early`, `mid`, `late` or before a year, since "may" is
//! mostly a verb), `in 2024`, and a weekday after `on` or `last` (`on Monday`). Times are UTC.
//! A month without a year means that month of any year up to the anchor: people who say "in
//! March" of a history that spans years may mean an earlier March (measured: the LoCoMo-shaped
//! chats of `scripts/bench-requests/`, 2 to 3 points; the latest-month reading put the right
//! year's requests below every match of the wrong year).

use crate::text::{civil_from_days, days_from_civil};

const DAY: i64 = 86_400_000;

/// A span of time in milliseconds since the Unix epoch, `start..end`; with `yearly`, also the
/// same month of every earlier year (a month named without a year: "in March" is the latest
/// March, but a history that spans years may mean an earlier one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: i64,
    pub end: i64,
    pub yearly: bool,
}

impl Span {
    /// Whether `ms` falls in the span.
    pub fn contains(&self, ms: i64) -> bool {
        if (self.start..self.end).contains(&ms) {
            return true;
        }
        if !self.yearly || ms >= self.start {
            return false;
        }
        let month = |t: i64| civil_from_days(t.div_euclid(DAY)).1;
        month(ms) == month(self.start)
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
    let words = Words::of(query);
    let today = Today::at(anchor);
    let (first, last, span) = (0..words.0.len()).find_map(|i| words.expression_at(i, &today))?;
    let mut rest = String::with_capacity(query.len());
    rest.push_str(&query[..words.0[first].0]);
    rest.push_str(&query[words.0[last].1..]);
    Some(DatedQuery {
        rest: rest.split_whitespace().collect::<Vec<_>>().join(" "),
        span,
    })
}

/// The anchor's day (days since 1970-01-01), year and month.
struct Today {
    day: i64,
    year: i64,
    month: u32,
}

impl Today {
    fn at(anchor: i64) -> Today {
        let day = anchor.div_euclid(DAY);
        let (year, month, _) = civil_from_days(day);
        Today { day, year, month }
    }
}

/// A time expression found: the first and last word it spans, and the time it names.
type Found = Option<(usize, usize, Span)>;

/// The query's words, lowercase, with their byte ranges.
struct Words(Vec<(usize, usize, String)>);

impl Words {
    fn of(query: &str) -> Words {
        let mut words = Vec::new();
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
        Words(words)
    }

    /// Word `i`, or "" past the end.
    fn w(&self, i: usize) -> &str {
        self.0.get(i).map_or("", |(_, _, t)| t.as_str())
    }

    /// The time expression that starts at word `i` (or, for "in May" and "on Monday", whose
    /// second word is `i`), if any.
    fn expression_at(&self, i: usize, t: &Today) -> Found {
        match self.w(i) {
            "today" => Some((i, i, days(t.day, t.day + 1))),
            "yesterday" => Some((i, i, days(t.day - 1, t.day))),
            "this" | "last" | "past" | "previous" => self.period(i, t),
            word => {
                // A number or "a" starts only "... ago" (no month or day is named so).
                if number_of(word).is_some() || word == "a" {
                    self.ago(i, t)
                } else if let Some((m, alone)) = month_of(word) {
                    self.month(i, m, alone, t)
                } else if let Some(d) = WEEKDAYS.iter().position(|d| *d == word) {
                    self.weekday(i, d as i64, t)
                } else if word == "in" || word == "during" {
                    year_of(self.w(i + 1)).map(|y| (i, i + 1, year_span(y)))
                } else {
                    None
                }
            }
        }
    }

    /// "this week", "last month", "past year"...
    fn period(&self, i: usize, t: &Today) -> Found {
        let last = self.w(i) != "this";
        let span = match self.w(i + 1) {
            "week" if last => days(t.day - 14, t.day + 1),
            "week" => days(t.day - 6, t.day + 1),
            "month" if last => {
                let (y, m) = if t.month == 1 {
                    (t.year - 1, 12)
                } else {
                    (t.year, t.month - 1)
                };
                month_span(y, m)
            }
            "month" => month_span(t.year, t.month),
            "year" if last => year_span(t.year - 1),
            "year" => year_span(t.year),
            _ => return None,
        };
        Some((i, i + 1, span))
    }

    /// "3 days ago", "a week ago", "a few months ago": around that day, with some slack.
    fn ago(&self, i: usize, t: &Today) -> Found {
        let word = self.w(i);
        let n = number_of(word).or(match word {
            "a" if self.w(i + 1) == "few" => Some(3),
            "a" => Some(1),
            _ => None,
        })?;
        let skip = usize::from(word == "a" && self.w(i + 1) == "few");
        if self.w(i + 2 + skip) != "ago" {
            return None;
        }
        let (size, slack) = match self.w(i + 1 + skip) {
            "day" | "days" => (1, 1),
            "week" | "weeks" => (7, 4),
            "month" | "months" => (30, 15),
            _ => return None,
        };
        let centre = t.day - n * size;
        Some((i, i + 2 + skip, days(centre - slack, centre + slack + 1)))
    }

    /// A month's name, when it reads as a time: alone ("may" is not), after a lead ("in May"),
    /// or with a year. Without a year: the latest such month up to the anchor's, and the same
    /// month of the years before ([`Span::yearly`]), except after "last" (the latest only) and
    /// "since" (from that month to the anchor's day).
    fn month(&self, i: usize, m: u32, alone: bool, t: &Today) -> Found {
        let lead = i > 0 && MONTH_LEADS.contains(&self.w(i - 1));
        let given_year = year_of(self.w(i + 1));
        if !(alone || lead || given_year.is_some()) {
            return None;
        }
        let y = given_year.unwrap_or(if m <= t.month { t.year } else { t.year - 1 });
        let first = if lead { i - 1 } else { i };
        let last = if given_year.is_some() { i + 1 } else { i };
        let month = month_span(y, m);
        let span = match if lead { self.w(i - 1) } else { "" } {
            // From the start of that month to today.
            "since" => Span {
                end: (t.day + 1).saturating_mul(DAY),
                ..month
            },
            // "last December" is the latest one.
            "last" => month,
            _ => Span {
                yearly: given_year.is_none(),
                ..month
            },
        };
        Some((first, last, span))
    }

    /// "on Monday" (the latest Monday, today included), "last Monday" (before today).
    fn weekday(&self, i: usize, d: i64, t: &Today) -> Found {
        let lead = match self.w(i.wrapping_sub(1)) {
            lead @ ("on" | "last") if i > 0 => lead,
            _ => return None,
        };
        // 1970-01-01 was a Thursday (weekday index 3).
        let anchor_weekday = (t.day + 3).rem_euclid(7);
        let mut back = (anchor_weekday - d).rem_euclid(7);
        if back == 0 && lead == "last" {
            back = 7;
        }
        let day = t.day - back;
        Some((i - 1, i, days(day, day + 1)))
    }
}

fn days(from: i64, to: i64) -> Span {
    // Saturating: the anchor is a request's time, which a hostile session file chooses.
    Span {
        start: from.saturating_mul(DAY),
        end: to.saturating_mul(DAY),
        yearly: false,
    }
}

/// Days since 1970-01-01 of the first day of `month` (1-12) of `year`.
fn first_day(year: i64, month: u32) -> i64 {
    days_from_civil(year, i64::from(month), 1)
}

fn month_span(year: i64, month: u32) -> Span {
    let (ny, nm) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    days(first_day(year, month), first_day(ny, nm))
}

fn year_span(year: i64) -> Span {
    days(first_day(year, 1), first_day(year + 1, 1))
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

    /// A month named without a year is the latest such month and the same month of earlier
    /// years (a history that spans years); with a year, only that month.
    #[test]
    fn a_month_without_a_year_is_every_earlier_year_s() {
        let ms = |y: i64, m: u32, d: i64| days_from_civil(y, i64::from(m), d) * DAY + 3_600_000;
        let may = parse("the CSS question in May", ANCHOR).map(|d| d.span);
        let may = may.expect("a date");
        assert!(may.contains(ms(2025, 5, 20)));
        assert!(may.contains(ms(2023, 5, 1)));
        assert!(!may.contains(ms(2024, 6, 1)));
        assert!(!may.contains(ms(2026, 5, 2)), "not after the latest May");
        let dated = parse("March 2024 release", ANCHOR).map(|d| d.span);
        let dated = dated.expect("a date");
        assert!(dated.contains(ms(2024, 3, 9)));
        assert!(!dated.contains(ms(2023, 3, 9)));
        let week = parse("tests last week", ANCHOR).map(|d| d.span);
        assert!(!week.expect("a date").contains(ms(2024, 10, 10)));
        // At the year's edges: December of the years before, not the January after.
        let december = parse("the plan in December", ANCHOR).map(|d| d.span);
        let december = december.expect("a date");
        assert!(december.contains(ms(2024, 12, 31)));
        assert!(december.contains(ms(2022, 12, 1)));
        assert!(!december.contains(ms(2025, 1, 1)));
        assert!(!december.contains(ms(2023, 11, 30)));
        // "last December" is the latest one only.
        let last = parse("last December", ANCHOR).map(|d| d.span);
        let last = last.expect("a date");
        assert!(last.contains(ms(2024, 12, 5)));
        assert!(!last.contains(ms(2023, 12, 5)));
        // "since March": from March to today.
        let since = parse("tests since March", ANCHOR).map(|d| d.span);
        let since = since.expect("a date");
        assert!(since.contains(ms(2025, 3, 2)));
        assert!(since.contains(ms(2025, 8, 20)));
        assert!(!since.contains(ms(2024, 3, 2)));
        assert!(!since.contains(ms(2025, 2, 27)));
    }

    /// A hostile anchor (a request's time from a session file) cannot overflow the arithmetic.
    #[test]
    fn extreme_anchors_do_not_overflow() {
        for anchor in [i64::MAX, i64::MIN, i64::MAX - 1] {
            for query in [
                "today",
                "this month",
                "in May",
                "since March",
                "last week",
                "3 days ago",
            ] {
                let _ = parse(query, anchor);
            }
        }
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
            assert_eq!(first_day(y, m) + i64::from(d) - 1, day);
        }
    }
}
