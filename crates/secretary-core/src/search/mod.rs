//! Lexical search (TF-IDF) used by tool discovery and request search.
//!
//! [`Index::build`] turns a list of [`Document`]s (tools: name + description; chat requests:
//! text only) into an inverted index, and [`Index::search`] ranks them for a free-text query with
//! BM25-style TF-IDF over stemmed terms. See [`mod@tokenize`] for the analysis chain and
//! [`index`] for the scoring, and [`eval`] for the recall/MRR measures used to tune both.
//!
//! [`HybridIndex`] adds a semantic signal: the cosine between static embeddings of the query
//! and of each document (a model2vec table distilled from all-MiniLM-L6-v2, [`embed`], tokenized
//! by [`wordpiece`]), fused with the lexical score ([`hybrid`]). On the MetaTool dev queries it
//! lifts recall@5 from 0.648 to 0.723; it can be turned off ([`HybridOptions::lexical_only`]).

pub mod embed;
pub mod eval;
pub mod hybrid;
pub mod index;
pub mod tokenize;
pub mod wordpiece;

pub use hybrid::{HybridHit, HybridIndex, HybridOptions};
pub use index::{Index, SearchOptions};
pub use tokenize::tokenize;

/// One searchable item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    /// Tool name (an identifier such as `create_qr_code`), or "" for a chat request.
    pub name: String,
    /// Tool description or request text.
    pub text: String,
    /// Tags, keywords or a category; weighted above the text, below the name.
    pub tags: Vec<String>,
}

impl Document {
    /// A document with a name and a text and no tags.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Document {
        Document {
            name: name.into(),
            text: text.into(),
            tags: Vec::new(),
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
    /// The query words (lowercased, as typed) that matched this document, in query order.
    pub matched: Vec<String>,
}
