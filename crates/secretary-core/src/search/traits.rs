//! What a request's text says about itself, read once per build for past-request search: the
//! answer kinds it holds, whether it asks something, how long it is and who says it.
//!
//! The answer kinds ([`super::answer_kind`]) and the request reranker
//! ([`super::request_rerank`]) read these for every candidate of every query; reading them from
//! the text each time would scan up to a kilobyte per candidate, so [`super::HybridIndex`] keeps
//! them beside its documents (and takes a reused document's from the previous build).

use super::answer_kind::{self, READ_BYTES};

/// A request's traits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traits {
    /// The answer kinds it holds ([`answer_kind::held`]).
    pub kinds: u8,
    /// Whether it asks something (a question mark that ends a sentence in its first
    /// [`READ_BYTES`], not one in a URL or code): in a conversation, the turn that asks is rarely
    /// the one that answers.
    pub asks: bool,
    /// Its length in words (saturating).
    pub words: u16,
    /// The speaker it names, as a transcript writes a turn ("Sam Okafor: I took it out..."):
    /// [`word_key`] of the speaker's first name, lowercased; 0 for none.
    pub speaker: u32,
}

impl Traits {
    /// The traits of `text`.
    pub fn of(text: &str) -> Traits {
        let head = head(text);
        Traits {
            kinds: answer_kind::held(text),
            asks: asks(head),
            words: u16::try_from(text.split_whitespace().count()).unwrap_or(u16::MAX),
            speaker: speaker(head).map_or(0, word_key),
        }
    }
}

/// The first [`READ_BYTES`] of `text`, cut at a character boundary.
fn head(text: &str) -> &str {
    let mut end = text.len().min(READ_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Whether `text` has a question mark that ends a sentence: followed by nothing, a space, "!"
/// or a closing quote or bracket (not `?id=` in a URL or `f()?;` in Rust).
fn asks(text: &str) -> bool {
    text.match_indices('?')
        .any(|(at, _)| match text[at + 1..].chars().next() {
            None => true,
            Some(c) => c.is_whitespace() || "!\"'\u{201d}\u{2019})]".contains(c),
        })
}

/// The first name of the speaker a turn opens with: one to three names, then ": " ("Nora
/// Halvorsen: ...", "Mei: ...", "Niamh O'Connor: ..."), cut at its first mark ("Jean" of
/// "Jean-Luc", as a question's words are split). A name is a capital and then small letters (a
/// capital may follow an apostrophe or a hyphen), so the labels requests open with in capitals
/// ("TODO: ", "TypeError: ") name no one; "Note: " or "Error: " still do, and count only when a
/// question says that word.
fn speaker(text: &str) -> Option<&str> {
    let (name, rest) = text.split_once(": ")?;
    if rest.is_empty() || name.is_empty() || name.len() > 60 {
        return None;
    }
    let words: Vec<&str> = name.split(' ').collect();
    let named = words.len() <= 3 && words.iter().all(|w| is_name(w));
    let first = words[0];
    let end = first
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(first.len());
    named.then(|| &first[..end])
}

/// A capital, then small letters, with a capital allowed after an apostrophe or a hyphen.
fn is_name(word: &str) -> bool {
    let mut chars = word.chars();
    let mut after_mark = false;
    chars.next().is_some_and(char::is_uppercase)
        && chars.all(|c| {
            let ok = c.is_lowercase() || c == '\'' || c == '-' || (after_mark && c.is_uppercase());
            after_mark = c == '\'' || c == '-';
            ok
        })
}

/// A 32-bit key of a word, lowercased (FNV-1a), never 0: how a question's words are compared
/// with the speakers of turns without keeping a string per request.
pub fn word_key(word: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for c in word.chars().flat_map(char::to_lowercase) {
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            hash ^= u32::from(b);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    }
    hash.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_of_a_transcript_names_its_speaker() {
        let t = Traits::of("Sam Okafor: I took it out on Sauvie Island on Sunday and did 50 km.");
        assert_eq!(t.speaker, word_key("sam"));
        assert_eq!(t.speaker, word_key("Sam"));
        assert!(!t.asks);
        assert_eq!(t.words, 15);
        assert_ne!(t.kinds & answer_kind::TIME, 0);
        let t = Traits::of("Mei: how far is Olympic distance again?");
        assert_eq!(t.speaker, word_key("mei"));
        assert!(t.asks);
        assert_eq!(Traits::of("Niamh O'Connor: hi").speaker, word_key("niamh"));
        assert_eq!(
            Traits::of("Esther Nakamura-Reid: hi").speaker,
            word_key("esther")
        );
        assert_eq!(Traits::of("Jean-Luc: hi").speaker, word_key("jean"));
    }

    #[test]
    fn a_question_mark_asks_only_where_a_sentence_ends() {
        for text in [
            "Is it?",
            "Is it? Yes.",
            "He said \"why?\"",
            "(really?)",
            "Really?!",
        ] {
            assert!(Traits::of(text).asks, "{text}");
        }
        for text in [
            "see https://x.org/a?id=3",
            "let v = f()?;",
            "x = a ?b",
            "??=",
        ] {
            assert!(!Traits::of(text).asks, "{text}");
        }
    }

    #[test]
    fn other_texts_name_no_speaker() {
        for text in [
            "How do I fix this: error E0382?",
            "Note:",
            "the server says: 502",
            "Fix the Bug In The Parser Now: it fails",
            "TODO: rename the crate",
            "TypeError: x is undefined",
            "ERROR: 502",
            "",
        ] {
            assert_eq!(Traits::of(text).speaker, 0, "{text}");
        }
    }

    #[test]
    fn word_keys_ignore_case_and_are_never_zero() {
        assert_eq!(word_key("Lucía"), word_key("LUCÍA"));
        assert_ne!(word_key("sam"), word_key("nora"));
        assert_ne!(word_key(""), 0);
    }

    #[test]
    fn long_texts_are_read_at_a_character_boundary() {
        let text = "é".repeat(2000);
        let t = Traits::of(&text);
        assert_eq!(t.words, 1);
        assert!(!t.asks);
    }
}
