//! Lexical search (TF-IDF) used by tool discovery and request search.
//!
//! [`Index::build`] turns a list of [`Document`]s (tools: name + description; chat requests:
//! text only) into an inverted index, and [`Index::search`] ranks them for a free-text query with
//! BM25-style TF-IDF over stemmed terms. See [`mod@tokenize`] for the analysis chain and
//! [`index`] for the scoring, and [`eval`] for the recall/MRR measures used to tune both.
//!
//! [`HybridIndex`] adds a semantic signal: the cosine between static embeddings of the query
//! and of each document (a table of two teachers: all-MiniLM-L6-v2 distilled with model2vec and
//! tokenlearn, and WordLlama's token codebook; [`embed`], tokenized by [`wordpiece`]), fused with
//! the lexical score ([`hybrid`]). On the MetaTool dev queries it lifts recall@5 from 0.648 to
//! 0.773 (fused); it can be turned off ([`HybridOptions::lexical_only`]).
//! Tool search also reorders its first results with a learned model ([`rerank`]) and takes
//! learned directions out of each query's embedding first ([`projection`]).
//!
//! Past-request search reorders its first results by a token-level soft match ([`soft_match`]),
//! which long requests need, then moves up those that say what a question about someone asks
//! for, a time or a number ([`answer_kind`]); for a question in the third person, results beside
//! a high one in their dialog move up too ([`neighbours`]), and a learned model reorders the
//! first 30 ([`request_rerank`], over each request's [`traits`]).
//!
//! [`when`] reads dates in queries ("last week", "in May") for past-request search.

pub mod answer_kind;
mod dot;
pub mod embed;
pub mod eval;
pub mod hybrid;
pub mod index;
mod irregular;
pub mod match_kernels;
pub mod neighbours;
pub mod projection;
pub mod request_rerank;
pub mod rerank;
pub mod soft_match;
pub mod tokenize;
pub mod traits;
pub mod when;
pub mod wordpiece;

pub use hybrid::{HybridHit, HybridIndex, HybridOptions};
pub use index::{Index, SearchOptions};
pub use tokenize::tokenize;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One searchable item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    /// Tool name (an identifier such as `create_qr_code`), or "" for a chat request.
    pub name: String,
    /// Tool description or request text.
    pub text: String,
    /// Tags, keywords or a category; weighted above the text, below the name.
    pub tags: Vec<String>,
    /// Text around the document that says what it is about without being it: for a past
    /// request, the requests around it in its dialog (`history::push_dialog_documents`). A person recalls the topic
    /// of a conversation more than the words of one turn, so these words count, at a fraction
    /// of a text mention ([`SearchOptions::context_weight`], [`HybridOptions::context_weight`]).
    pub context: String,
}

impl Document {
    /// A document with a name and a text and no tags.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Document {
        Document {
            name: name.into(),
            text: text.into(),
            tags: Vec::new(),
            context: String::new(),
        }
    }
}

/// One search result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Index into the documents given to [`Index::build`].
    pub doc: usize,
    /// Relevance score; only comparable within one query.
    pub score: f32,
    /// The query words (lowercased, as typed) that occur in this document (not only in its
    /// [`Document::context`]), in query order.
    pub matched: Vec<String>,
}

/// A tiny FxHash-style hasher (as in rustc): eight bytes per multiply, deterministic, no
/// per-process random seed. Terms are short and hashed once per word of every document, so this
/// is a measurable part of build time; the standard SipHash is DoS-resistant, which an index of
/// the user's own documents does not need, and several times slower on short keys.
#[derive(Clone, Copy, Default)]
pub(crate) struct WordHasher(u64);

const HASH_K: u64 = 0xf135_7aea_2e62_a9c5;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(HASH_K);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // The multiply leaves the entropy in the high bits; hash tables index with the low ones.
        self.0.rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }
}

/// The hash map of the search modules (terms, vocabularies, stop words). It lives here, at the
/// root, so that `index`, `tokenize` and `wordpiece` share it without depending on each other.
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// The larger of two scores, for the hot loops of search. Scores are never NaN, so a
/// comparison is all it takes: `f32::max` minds NaN, which makes it a library call in
/// WebAssembly and keeps loops from becoming vector instructions.
#[inline]
pub(crate) fn larger(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_hasher_is_deterministic_and_length_aware() {
        let hash = |s: &str| {
            let mut h = WordHasher::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash("search"), hash("search"));
        assert_ne!(hash("search"), hash("searc"));
        assert_ne!(hash("a"), hash("a\0"));
        assert_ne!(hash("abcdefgh"), hash("abcdefghi"));
    }
}
