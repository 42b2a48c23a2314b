//! Random inputs for the property tests of the readers (`session_proptest.rs`,
//! `session_fastpath.rs`): tokens of JSON and of the session formats, so random inputs are often
//! almost valid, and the case count of a property. (Included with `#[path]`.)

use proptest::prelude::*;
use std::ops::Range;

/// The JSON punctuation, literals, escapes and session keys both files' token soups are made of;
/// each adds the tokens of the formats it aims at (`token`'s `extra`).
const JSON_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\n",
    "\"",
    "null",
    "true",
    "-1",
    "0",
    "1e400",
    "0.5",
    "\"requests\"",
    "\"message\"",
    "\"text\"",
    "\"result\"",
    "\"errorDetails\"",
    "\"code\"",
    "\"sessionId\"",
    "\"response\"",
    "\"\\ud800\"",
    "\\",
    "é",
    "\u{0}",
    "\u{feff}",
];

/// One token: a piece of `JSON_TOKENS` or `extra`, or a few random bytes (`random` says how
/// many), so a soup of them is mostly almost-valid JSON with some noise.
pub fn token(
    extra: &'static [&'static str],
    random: Range<usize>,
) -> impl Strategy<Value = Vec<u8>> {
    let mut pieces = JSON_TOKENS.to_vec();
    pieces.extend_from_slice(extra);
    prop_oneof![
        prop::sample::select(pieces).prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), random),
    ]
}

/// `default` cases, unless `PROPTEST_CASES` asks for another number (a longer run); failures are
/// not persisted (the tests print the failing input).
pub fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
