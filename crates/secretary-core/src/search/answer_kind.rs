//! Answer kinds: a question that asks *when* something happened to someone, or *how many* /
//! *how long*, is answered by a turn that says a time or a number.
//!
//! In a conversation the turn that answers often shares few words with the question ("When did
//! Jonah get back home?" against "I came back to Chicago on Monday"), and the turns around it
//! that do share them rank first. Among the first results of such a question, the ones that hold
//! the kind of thing asked for (a weekday, a month, "yesterday", a year; a number) get a bonus,
//! as question-answering retrievers match answer types.
//!
//! Only questions about someone else count: "when did I ask about docker" wants the request's
//! own time, which [`crate::history`] answers from its timestamp, so a question in the first or
//! second person (or about "the user") changes nothing. Chosen on the `tune` chats of
//! `scripts/bench-requests/conversations/` (`docs/benchmarks.md`, "Issue 26, sixth pass"); the
//! ShareGPT sets do not move, since none of their questions is in the third person.

use super::hybrid::rescore_head;
use super::traits::Traits;
use super::HybridHit;

/// Settings of the answer-kind bonus ([`super::HybridOptions::answer_kinds`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnswerKinds {
    /// Added to a result that holds what the question asks for, with the scores of the first
    /// results brought to 1 for the best.
    pub weight: f32,
    /// How many of the first results can move.
    pub depth: usize,
}

impl AnswerKinds {
    /// The setting of past-request search.
    pub const REQUESTS: AnswerKinds = AnswerKinds {
        weight: 0.35,
        depth: 20,
    };
}

/// A time: a weekday, a month, a season, "yesterday", a year, an ordinal day ("22nd").
pub const TIME: u8 = 1;
/// A number, in digits or in words.
pub const NUMBER: u8 = 2;

/// How much of a text is read for its kinds: a telling says its time early, and pasted pages
/// must not cost more than that.
pub(crate) const READ_BYTES: usize = 1_000;

#[rustfmt::skip]
const TIME_WORDS: &[&str] = &[
    "ago", "april", "august", "autumn", "december", "february", "friday", "january", "july",
    "june", "monday", "month", "months", "morning", "night", "november", "october", "saturday",
    "september", "since", "spring", "summer", "sunday", "thursday", "today", "tomorrow",
    "tonight", "tuesday", "wednesday", "week", "weekend", "weeks", "winter", "year", "years",
    "yesterday",
];

#[rustfmt::skip]
const NUMBER_WORDS: &[&str] = &[
    "dozen", "eight", "eleven", "fifty", "five", "forty", "four", "half", "hundred", "nine",
    "one", "seven", "six", "ten", "thirty", "thousand", "three", "twelve", "twenty", "two",
];

/// Words that put a question in the first or second person: about the asker's own requests.
const PERSONAL: &[&str] = &[
    "i", "me", "mine", "my", "our", "us", "user", "we", "you", "your",
];

/// The first 64 words of `query`.
pub(crate) fn words(query: &str) -> impl Iterator<Item = &str> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(64)
}

/// Whether `query` has a word of the first or second person among its first 64 ("I", "my",
/// "you", "the user"): then it is about the asker's own requests, not about someone else.
pub fn in_first_or_second_person(query: &str) -> bool {
    // "US" is a country, not "us".
    words(query).any(|w| w != "US" && PERSONAL.contains(&w.to_lowercase().as_str()))
}

/// The kinds `text` holds (bits of [`TIME`] and [`NUMBER`]), from its first [`READ_BYTES`].
pub fn held(text: &str) -> u8 {
    let mut end = text.len().min(READ_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut kinds = 0;
    // Lowercased in place: no allocation per word over a collection of pasted pages.
    let mut buf = [0u8; 12];
    for piece in text[..end].split(|c: char| !c.is_alphanumeric()) {
        if piece.len() > buf.len() {
            // A long run of digits is still a number; a long word is no time word.
            if piece.bytes().any(|b| b.is_ascii_digit()) {
                kinds |= NUMBER;
            }
            continue;
        }
        if piece.is_empty() {
            continue;
        }
        let lower = &mut buf[..piece.len()];
        lower.copy_from_slice(piece.as_bytes());
        lower.make_ascii_lowercase();
        // ASCII lowercasing keeps UTF-8 valid.
        let Ok(word) = std::str::from_utf8(lower) else {
            continue;
        };
        if word.bytes().any(|b| b.is_ascii_digit()) {
            kinds |= NUMBER;
            let ordinal = ["st", "nd", "rd", "th"].iter().any(|s| word.ends_with(s));
            let digits = word.bytes().all(|b| b.is_ascii_digit());
            let year = digits && word.len() == 4 && ("1900".."2100").contains(&word);
            if ordinal || year {
                kinds |= TIME;
            }
        } else if TIME_WORDS.binary_search(&word).is_ok() {
            kinds |= TIME;
        } else if NUMBER_WORDS.binary_search(&word).is_ok() {
            kinds |= NUMBER;
        }
    }
    kinds
}

/// The kind a question asks for: "when ..." and "what date / day / month / year ..." a time,
/// "how many / much / long / far / old / often ..." a number; none for any other question and
/// for a question in the first or second person.
pub fn wanted(query: &str) -> u8 {
    if in_first_or_second_person(query) {
        return 0;
    }
    let mut words: Vec<String> = words(query).map(str::to_lowercase).collect();
    // "So when did...", "And how many...".
    if matches!(
        words.first().map(String::as_str),
        Some("so" | "and" | "but" | "then")
    ) {
        words.remove(0);
    }
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match (word(0), word(1), word(2)) {
        ("when", _, _) => TIME,
        ("what" | "which", "date" | "day" | "time" | "month" | "year", _) => TIME,
        ("in" | "on", "what" | "which", "date" | "day" | "month" | "year") => TIME,
        ("how", "many" | "much" | "long" | "far" | "old" | "often", _) => NUMBER,
        _ => 0,
    }
}

/// Adds [`AnswerKinds::weight`] to each of the first [`AnswerKinds::depth`] hits that holds
/// what `query` asks for (`kinds` per document, from [`held`]), their scores first divided by
/// the best one's when it is positive (fused scores are never negative), and reorders them; the
/// hits after them keep their order below. A question that asks for no kind changes nothing.
pub(crate) fn apply(
    settings: &AnswerKinds,
    traits: &[Traits],
    query: &str,
    hits: &mut [HybridHit],
) {
    let want = wanted(query);
    let n = hits.len().min(settings.depth);
    if want == 0 || n == 0 {
        return;
    }
    rescore_head(hits, n, |hit| {
        let holds = traits.get(hit.doc).is_some_and(|t| t.kinds & want != 0);
        if holds {
            settings.weight
        } else {
            0.0
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted() {
        assert!(TIME_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(NUMBER_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn what_a_turn_holds() {
        assert_eq!(held("I came back to Chicago on Monday."), TIME);
        assert_eq!(held("1:58:40, just under two hours"), NUMBER);
        assert_eq!(held("I start January 6."), TIME | NUMBER);
        assert_eq!(held("the 22nd"), TIME | NUMBER);
        assert_eq!(held("Back in 2019 we moved"), TIME | NUMBER);
        assert_eq!(held("it listens on port 8080"), NUMBER);
        assert_eq!(held("for three years now"), TIME | NUMBER);
        assert_eq!(held("order 1234567890123456"), NUMBER);
        assert_eq!(held("That sounds lovely, tell me more"), 0);
        // "may" is mostly a verb and is no time.
        assert_eq!(held("You may be right"), 0);
        // Only the start of a pasted page is read.
        let page = format!("{}yesterday", "word ".repeat(400));
        assert_eq!(held(&page), 0);
        assert_eq!(held(&format!("a{}", "é".repeat(800))), 0);
    }

    use crate::search::HybridHit;

    fn hit(doc: usize, score: f32) -> HybridHit {
        HybridHit::bare(doc, score)
    }

    /// Within the depth, a hit that says what is asked for moves up by the weight; below the
    /// depth the order is kept and every score stays below the last moved one.
    #[test]
    fn apply_moves_hits_that_hold_the_kind_within_the_depth() {
        let settings = AnswerKinds {
            weight: 0.35,
            depth: 3,
        };
        // Documents 0 and 2 say a time; 4 does too but is below the depth.
        let kinds = [TIME, 0, TIME, 0, TIME].map(|kinds| Traits {
            kinds,
            ..Traits::default()
        });
        let scores = [2.0, 1.9, 1.4, 1.0, 0.9];
        let ranked = |query: &str, kinds: &[Traits]| {
            let mut hits: Vec<HybridHit> = (0..5).map(|d| hit(d, scores[d])).collect();
            apply(&settings, kinds, query, &mut hits);
            hits
        };
        let hits = ranked("When did Sam sign up?", &kinds);
        let order: Vec<usize> = hits.iter().map(|h| h.doc).collect();
        assert_eq!(order, [0, 2, 1, 3, 4]);
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
        // 1.4 / 2 + 0.35 against 1.9 / 2: document 2 passes document 1.
        assert!((hits[1].score - 1.05).abs() < 1e-6);
        // No kind asked, or no kinds known: nothing moves.
        for (query, kinds) in [
            ("What did Sam sign up for?", &kinds[..]),
            ("When?", &[][..]),
        ] {
            let hits = ranked(query, kinds);
            let order: Vec<usize> = hits.iter().map(|h| h.doc).collect();
            assert_eq!(order, [0, 1, 2, 3, 4], "{query}");
        }
    }

    #[test]
    fn what_a_question_asks_for() {
        assert_eq!(wanted("When did Jonah head home?"), TIME);
        assert_eq!(wanted("What date is Mei flying in?"), TIME);
        assert_eq!(wanted("How long did it take Derek to finish?"), NUMBER);
        assert_eq!(wanted("What did Sam eat?"), 0);
        // About the asker's own requests: their time is the request's timestamp.
        assert_eq!(wanted("When did I ask about docker?"), 0);
        assert_eq!(wanted("When did Jonah move to the US?"), TIME);
        assert_eq!(wanted("So when did Mei fly in?"), TIME);
        assert_eq!(wanted("In which year did Tom retire?"), TIME);
        assert_eq!(wanted("when did you see us"), 0);
        assert_eq!(wanted("when did the user mention kafka"), 0);
        assert_eq!(wanted(""), 0);
    }
}
