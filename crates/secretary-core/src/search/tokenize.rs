//! The analysis chain shared by documents and queries: split, lowercase, drop stop words, stem.
//!
//! Both sides must go through exactly the same chain, otherwise a document term and the query term
//! that should meet it end up as two different strings and never match. The chain is:
//!
//! 1. **Split** on anything that is not a letter or digit (spaces, punctuation, `_`, `-`, `/`,
//!    emoji...), then inside each alphanumeric run on identifier boundaries: `camelCase`,
//!    `HTTPServer` (an acronym followed by a capitalised word), and letter/digit changes
//!    (`mp3`, `covid19`); a plural acronym ("PDFs") becomes the acronym. Tool names are
//!    identifiers (`create_qr_code`, `ChatOCR`, `MixerBox_WebSearchG_web_search`) and people
//!    type them as words.
//!    English contractions and possessives (`what's`, `don't`, `father's`) lose their tail rather
//!    than becoming a stray one-letter token.
//!    Han, kana and Hangul are written without spaces, so each such character is its own token;
//!    a CJK query then matches by shared characters instead of never matching at all.
//! 2. **Lowercase** (Unicode-aware).
//! 3. **Stop words**: a standard English list (function words and contraction stubs) plus a few
//!    words that only carry politeness in a request ("please"). Removing them matters more for
//!    short documents than IDF alone would suggest: in a 200-tool catalog "can" or "you" still
//!    appear in few enough descriptions to get a sizeable IDF and would add noise to every query.
//!    Single Latin letters left over by splitting are dropped too.
//! 4. **Stem** with the Snowball English (Porter 2) stemmer, so that "searching", "searches"
//!    and "searched" all become "search"; an irregular form becomes its base first ("went" →
//!    "go", "ate" → "eat": [`super::irregular`]). Only words of ASCII letters are stemmed; numbers,
//!    accented words and other scripts pass through unchanged (the stemmer is English-only).
//!
//! Tokens longer than [`MAX_TOKEN_CHARS`] are skipped (hashes, base64, minified code): they never
//! help ranking and would only bloat the vocabulary. No input can make any of this panic: every
//! slice is cut on a character boundary and every piece is bounded.

use std::borrow::Cow;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::FastMap;

/// Pieces longer than this many characters are not indexed, and alphanumeric runs of more than
/// four times as many bytes are not even split: no one searches for a 65-letter word, and such
/// runs are encoded data (base64, hashes, minified code).
pub const MAX_TOKEN_CHARS: usize = 64;

/// The full analysis chain: the terms that [`super::Index`] stores and queries with.
///
/// Terms are stems, so they are not always words ("search", "recip", "weather"). Use this to see
/// what a text will match on; the index itself uses the same chain without allocating per token.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_piece(text, &mut |piece: &str| {
        if let Some(term) = normalize(piece) {
            out.push(term.into_owned());
        }
    });
    out
}

/// The shared Snowball English stemmer (it is a function pointer, but `create` is not `const`).
fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Steps 3 and 4 of the chain for one lowercase piece from [`for_each_piece`]: `None` for a stop
/// word or a lone Latin letter, else the stemmed term.
pub(crate) fn normalize(piece: &str) -> Option<Cow<'_, str>> {
    if is_stop_word(piece) {
        return None;
    }
    let mut chars = piece.chars();
    let first = chars.next()?;
    if chars.next().is_none() && first.is_ascii_alphabetic() {
        // "s" from "URL s", "d" from "3D": too ambiguous to rank on.
        return None;
    }
    if piece.chars().all(|c| c.is_ascii_lowercase()) {
        let word = super::irregular::base(piece).unwrap_or(piece);
        let stem = stemmer().stem(word);
        // Snowball never returns an empty stem for a non-empty word, but an empty term must never
        // reach the index, so be defensive about it.
        if stem.is_empty() {
            return Some(Cow::Borrowed(piece));
        }
        return Some(stem);
    }
    Some(Cow::Borrowed(piece))
}

/// `true` for a word of the stop list (expects lowercase input).
pub fn is_stop_word(word: &str) -> bool {
    // A hash set rather than a binary search: this runs for every word of every query and
    // document, and ~8 string comparisons per word showed up in profiles.
    static SET: OnceLock<FastMap<&'static str, ()>> = OnceLock::new();
    word.len() <= MAX_STOP_WORD_LEN
        && SET
            .get_or_init(|| STOP_WORDS.iter().map(|w| (*w, ())).collect())
            .contains_key(word)
}

/// Length of the longest stop word ("themselves", "yourselves"): longer words skip the lookup.
const MAX_STOP_WORD_LEN: usize = 10;

/// English stop words, sorted (to spot repeats). The classic function-word list (as used by
/// NLTK and Snowball) with the stubs that contraction splitting leaves ("don", "isn"...), plus
/// "please", "could", "would" and friends, which in a request to an assistant carry no topic.
#[rustfmt::skip]
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "ain", "all", "also", "am", "an", "and",
    "any", "are", "aren", "as", "at", "be", "because", "been", "before", "being", "below",
    "between", "both", "but", "by", "can", "could", "couldn", "did", "didn", "do", "does", "doesn",
    "doing", "don", "down", "during", "each", "few", "for", "from", "further", "had", "hadn",
    "has", "hasn", "have", "haven", "having", "he", "her", "here", "hers", "herself", "him",
    "himself", "his", "how", "i", "if", "in", "into", "is", "isn", "it", "its", "itself", "just",
    "let", "ll", "ma", "may", "me", "might", "mightn", "more", "most", "must", "mustn", "my",
    "myself", "needn", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other",
    "our", "ours", "ourselves", "out", "over", "own", "please", "re", "same", "shall", "shan",
    "she", "should", "shouldn", "so", "some", "such", "than", "that", "the", "their", "theirs",
    "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to",
    "too", "under", "until", "up", "ve", "very", "was", "wasn", "we", "were", "weren", "what",
    "when", "where", "which", "while", "who", "whom", "why", "will", "with", "won", "would",
    "wouldn", "you", "your", "yours", "yourself", "yourselves",
];

/// `true` for characters of scripts written without spaces between words (Han, kana, Hangul),
/// which are indexed one character per token.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK Extension A
        | 0x4E00..=0x9FFF   // CJK Unified Ideographs
        | 0xAC00..=0xD7AF   // Hangul syllables
        | 0xF900..=0xFAFF   // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F // CJK Extensions B..F, Compatibility Supplement
    )
}

/// Apostrophes that may join a contraction or possessive tail to its word.
fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

/// Contraction and possessive tails that are dropped: "what's" -> "what", "don't" -> "don",
/// "we'll" -> "we". Any other text after an apostrophe ("o'clock") is a word of its own.
fn is_contraction_tail(tail: &str) -> bool {
    matches!(
        tail,
        "s" | "S" | "t" | "T" | "m" | "M" | "d" | "D" | "ll" | "LL" | "re" | "RE" | "ve" | "VE"
    )
}

/// Steps 1 and 2 of the chain: calls `emit` with each lowercase piece of `text`, in order.
///
/// Scans bytes, decoding only non-ASCII characters, and reuses one buffer: the index runs this
/// over every document, so it is the bulk of build time.
pub(crate) fn for_each_piece(text: &str, emit: &mut dyn FnMut(&str)) {
    let bytes = text.as_bytes();
    let mut buf = String::new();
    let mut chars: Vec<char> = Vec::new();
    let mut run_start: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (c, width) = if b < 0x80 {
            (b as char, 1)
        } else {
            // `i` is always on a character boundary: it only advances by whole characters.
            match text[i..].chars().next() {
                Some(c) => (c, c.len_utf8()),
                None => break,
            }
        };
        let word_char = if b < 0x80 {
            b.is_ascii_alphanumeric()
        } else {
            c.is_alphanumeric() && !is_cjk(c)
        };
        if word_char {
            if run_start.is_none() {
                run_start = Some(i);
            }
            i += width;
            continue;
        }
        if let Some(start) = run_start.take() {
            split_run(&text[start..i], &mut chars, &mut buf, emit);
            if is_apostrophe(c) {
                // A contraction or possessive tail after the apostrophe is skipped.
                let tail_start = i + width;
                let tail_end = text[tail_start..]
                    .char_indices()
                    .find(|&(_, t)| !t.is_alphabetic())
                    .map_or(text.len(), |(j, _)| tail_start + j);
                if is_contraction_tail(&text[tail_start..tail_end]) {
                    i = tail_end;
                    continue;
                }
            }
        }
        if is_cjk(c) {
            buf.clear();
            buf.push(c);
            emit(&buf);
        }
        i += width;
    }
    if let Some(start) = run_start {
        split_run(&text[start..], &mut chars, &mut buf, emit);
    }
}

/// Splits one alphanumeric run on identifier boundaries and emits its lowercase pieces.
fn split_run(run: &str, chars: &mut Vec<char>, buf: &mut String, emit: &mut dyn FnMut(&str)) {
    // Runs much longer than any word are data, not text; don't even split them.
    if run.len() > MAX_TOKEN_CHARS * 4 {
        return;
    }
    if run.is_ascii() {
        // Fast path, same rules as below on bytes.
        let c = run.as_bytes();
        let mut start = 0;
        for i in 1..=c.len() {
            if i < c.len() && !is_ascii_boundary(c, i) {
                continue;
            }
            let mut piece = &run[start..i];
            // "PDFs", "APIs": the plural of an acronym is the acronym (Snowball would keep
            // "pdfs", which has no vowel before the s).
            if piece.len() >= 3
                && piece.ends_with('s')
                && piece.as_bytes()[..piece.len() - 1]
                    .iter()
                    .all(u8::is_ascii_uppercase)
            {
                piece = &piece[..piece.len() - 1];
            }
            if piece.len() <= MAX_TOKEN_CHARS {
                if piece.bytes().any(|b| b.is_ascii_uppercase()) {
                    buf.clear();
                    buf.push_str(piece);
                    buf.make_ascii_lowercase();
                    emit(buf);
                } else {
                    emit(piece);
                }
            }
            start = i;
        }
        return;
    }
    chars.clear();
    chars.extend(run.chars());
    let n = chars.len();
    let mut start = 0;
    for i in 1..=n {
        if i < n && !is_boundary(chars, i) {
            continue;
        }
        let mut piece = &chars[start..i];
        start = i;
        if piece.len() >= 3
            && piece.last() == Some(&'s')
            && piece[..piece.len() - 1].iter().all(|c| c.is_uppercase())
        {
            piece = &piece[..piece.len() - 1];
        }
        if piece.len() > MAX_TOKEN_CHARS {
            continue;
        }
        buf.clear();
        for &c in piece {
            buf.extend(c.to_lowercase());
        }
        emit(buf);
    }
}

/// Whether an identifier boundary falls between `c[i - 1]` and `c[i]` (with `0 < i < c.len()`).
fn is_boundary(c: &[char], i: usize) -> bool {
    let (prev, cur) = (c[i - 1], c[i]);
    // letter <-> digit: "mp3" -> mp|3, "2day" -> 2|day.
    if prev.is_numeric() != cur.is_numeric() {
        return true;
    }
    // camelCase: "webSearch" -> web|Search.
    if prev.is_lowercase() && cur.is_uppercase() {
        return true;
    }
    // Acronym then word: "HTTPServer" -> HTTP|Server, but keep plural acronyms ("URLs", "PDFs").
    if prev.is_uppercase() && cur.is_uppercase() {
        if let Some(&next) = c.get(i + 1) {
            if next.is_lowercase() {
                let plural_s =
                    next == 's' && !matches!(c.get(i + 2), Some(after) if after.is_lowercase());
                return !plural_s;
            }
        }
    }
    false
}

/// [`is_boundary`] for an ASCII run.
fn is_ascii_boundary(c: &[u8], i: usize) -> bool {
    let (prev, cur) = (c[i - 1], c[i]);
    if prev.is_ascii_digit() != cur.is_ascii_digit() {
        return true;
    }
    if prev.is_ascii_lowercase() && cur.is_ascii_uppercase() {
        return true;
    }
    if prev.is_ascii_uppercase() && cur.is_ascii_uppercase() {
        if let Some(&next) = c.get(i + 1) {
            if next.is_ascii_lowercase() {
                let plural_s = next == b's'
                    && !matches!(c.get(i + 2), Some(after) if after.is_ascii_lowercase());
                return !plural_s;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_piece(text, &mut |p: &str| out.push(p.to_string()));
        out
    }

    #[test]
    fn stop_word_list_is_sorted_and_bounded() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "keep STOP_WORDS sorted, no repeats"
        );
        assert!(STOP_WORDS.iter().all(|w| w.len() <= MAX_STOP_WORD_LEN));
        assert!(STOP_WORDS.iter().all(|w| is_stop_word(w)));
    }

    #[test]
    fn splits_identifiers() {
        assert_eq!(pieces("create_qr_code"), ["create", "qr", "code"]);
        assert_eq!(pieces("webSearchTool"), ["web", "search", "tool"]);
        assert_eq!(pieces("HTTPServer"), ["http", "server"]);
        assert_eq!(pieces("kebab-case-name"), ["kebab", "case", "name"]);
        assert_eq!(pieces("mp3 covid19"), ["mp", "3", "covid", "19"]);
        assert_eq!(pieces("PDFs and URLs, GPS"), ["pdf", "and", "url", "gps"]);
        assert_eq!(pieces("PDF&URLTool"), ["pdf", "url", "tool"]);
    }

    #[test]
    fn contractions_lose_their_tail() {
        assert_eq!(
            pieces("what's don't father’s o'clock"),
            ["what", "don", "father", "o", "clock"]
        );
        assert_eq!(pieces("trailing'"), ["trailing"]);
        assert_eq!(pieces("x's"), ["x"]);
    }

    #[test]
    fn cjk_characters_are_tokens() {
        assert_eq!(pieces("天气预报abc"), ["天", "气", "预", "报", "abc"]);
    }

    #[test]
    fn normalize_stems_and_drops_stop_words() {
        assert_eq!(normalize("searching").as_deref(), Some("search"));
        assert_eq!(normalize("the"), None);
        assert_eq!(normalize("s"), None);
        assert_eq!(normalize("3").as_deref(), Some("3"));
        assert_eq!(normalize("café").as_deref(), Some("café"));
    }

    /// "What did Sam eat" must meet "he ate half a box": irregular past forms become their base
    /// before stemming, on both sides of the index.
    #[test]
    fn irregular_forms_meet_their_base() {
        assert_eq!(
            tokenize("he ate, went and broke it"),
            ["eat", "go", "break"]
        );
        assert_eq!(tokenize("Eating"), tokenize("ate"));
        assert_eq!(tokenize("left"), ["left"]);
    }
}
