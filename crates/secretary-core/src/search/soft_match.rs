//! Soft match: how well each query word is matched by *some* word of a document, by meaning.
//!
//! The semantic signal of [`super::hybrid`] compares one mean vector per text. For a past
//! request that is a blunt instrument: a request runs from three words to a pasted page, and the
//! mean of a long request's tokens drifts away from each thing it says, so a question about one
//! detail of it ("the SSE endpoint in the FastAPI app") finds it less well than a short request
//! that happens to share the topic. BM25 has the same bias by design (length normalisation).
//!
//! The soft match scores a document by its query tokens one by one, as late-interaction
//! retrievers do (ColBERT's "MaxSim"), with the static table's token vectors: each query token
//! takes its best cosine with any token of the document (an exact token scores 1, a near
//! synonym less), cosines under [`SoftMatch::floor`] count as nothing, and the tokens are
//! averaged with their IDF weights in the collection. A long request loses nothing for being
//! long, and words the request says in other words still count.
//!
//! It reorders only the first [`SoftMatch::depth`] fused results (a few hundred int8 dot
//! products each), so it costs a fixed amount per query whatever the collection's size. Chosen
//! for past requests on the `tune` questions of three sets (`examples/eval_requests.rs`,
//! `docs/benchmarks.md`, "Issue 26, fifth pass"); on tool descriptions, which are short, it was
//! measured and brings nothing, so tool search has none. As three features of the tool reranker
//! it gained a point of recall@5 but about tripled the query time over 10,000 tools (some 10^4
//! token pairs a query), so it is not one ("eighth pass"); with the SIMD cosines of
//! `search/dot.rs` and sign sketches it still cost 1.1 to 2 times ("ninth pass").

use super::embed::{row_cosine, DenseIndex, Table};
use super::hybrid::rescore_head;
use super::tokenize::for_each_piece;
use super::{larger, FastMap, HybridHit};

/// Settings of the soft match ([`super::HybridOptions::soft_match`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoftMatch {
    /// How much the soft match counts against the fused score (brought to 1 for the best
    /// result): a document's new score is `fused / best fused + weight * soft match`.
    pub weight: f32,
    /// How many of the first results are reordered.
    pub depth: usize,
    /// Cosines between tokens below this count as no match: every pair of tokens has some
    /// cosine, and the many weak ones would otherwise reward documents for having many tokens.
    pub floor: f32,
    /// How many distinct tokens of each document are kept (the first ones): bounds the work per
    /// query and the memory per document for pasted files.
    pub max_tokens: usize,
    /// Query words left out of the soft match: words that ask rather than say what about ("what
    /// did the user ask about ..."). An exact token scores as high as a token can, so without
    /// this every request that says "asked" or "user" would gain.
    pub skip_words: &'static [&'static str],
}

/// How many query tokens the soft match weighs at most (those of highest weight): a normal
/// question has a dozen; a pasted page as a query must not cost a thousand times more.
pub const MAX_QUERY_TOKENS: usize = 32;

/// The distinct token ids of each document, in the order they first occur, at most
/// [`SoftMatch::max_tokens`] each; flat, with each document's start.
#[derive(Clone, Debug, Default)]
pub(crate) struct TokenSets {
    /// How many distinct tokens a document keeps.
    max: usize,
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl TokenSets {
    /// No documents yet; each will keep at most `max` tokens.
    pub(crate) fn new(max: usize) -> TokenSets {
        TokenSets {
            max,
            ..TokenSets::default()
        }
    }

    /// No documents, the same cap as `self` (for an index rebuilt from this one).
    pub(crate) fn emptied(&self) -> TokenSets {
        TokenSets::new(self.max)
    }

    /// Appends one document's set: the distinct tokens of `ids`, at most the cap of them.
    pub(crate) fn push(&mut self, ids: &[u32]) {
        self.starts.push(self.ids.len() as u32);
        let start = self.ids.len();
        for &id in ids {
            if self.ids.len() - start >= self.max {
                break;
            }
            if !self.ids[start..].contains(&id) {
                self.ids.push(id);
            }
        }
    }

    /// Appends `other`'s set of document `row` (for an index rebuilt around reused documents).
    pub(crate) fn copy(&mut self, other: &TokenSets, row: usize) {
        self.starts.push(self.ids.len() as u32);
        self.ids.extend_from_slice(other.get(row));
    }

    /// Document `d`'s set (empty for a document out of range).
    pub(crate) fn get(&self, d: usize) -> &[u32] {
        let Some(&start) = self.starts.get(d) else {
            return &[];
        };
        let end = self
            .starts
            .get(d + 1)
            .map_or(self.ids.len(), |&e| e as usize);
        &self.ids[start as usize..end]
    }
}

/// The query's tokens and their weights (IDF in the collection), the words of
/// [`SoftMatch::skip_words`] left out, each token once, at most [`MAX_QUERY_TOKENS`] of them
/// (the weightiest; ties keep the query's order).
pub(super) fn query_tokens(soft: &SoftMatch, dense: &DenseIndex, query: &str) -> Vec<(u32, f32)> {
    let table = dense.table();
    let mut ids = Vec::new();
    for_each_piece(query, &mut |piece: &str| {
        if !soft.skip_words.contains(&piece) {
            table.token_ids(piece, &mut ids);
        }
    });
    let mut seen = FastMap::default();
    let mut out: Vec<(u32, f32)> = Vec::new();
    for id in ids {
        let weight = dense.token_weight(id);
        if weight > 0.0 && seen.insert(id, ()).is_none() {
            out.push((id, weight));
        }
    }
    if out.len() > MAX_QUERY_TOKENS {
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out.truncate(MAX_QUERY_TOKENS);
    }
    out
}

/// The floored cosines of the query's tokens with the document tokens met so far in one query
/// (`(cosine - floor) / (1 - floor)`, clamped to `0..=1`): the first results share many tokens,
/// so each pair is worked out once. The query's rows are widened to 16 bits once, so that each
/// pair is one SIMD multiply-add loop ([`row_cosine`]) rather than a scalar 32-bit one.
pub(super) struct Cosines<'a> {
    table: &'a Table,
    query: &'a [(u32, f32)],
    floor: f32,
    /// The query tokens' rows widened, one after the other, [`Table::dims`] each.
    rows: Vec<i16>,
    /// The query tokens' inverse norms ([`Table::inverse_norm`]).
    norms: Vec<f32>,
    /// Document token -> its slot: its floored cosines are `values[slot * n..][..n]`.
    at: FastMap<u32, usize>,
    values: Vec<f32>,
}

impl<'a> Cosines<'a> {
    pub(super) fn new(table: &'a Table, query: &'a [(u32, f32)], floor: f32) -> Cosines<'a> {
        let dims = table.dims();
        let mut rows = Vec::with_capacity(query.len() * dims);
        for &(id, _) in query {
            let start = rows.len();
            rows.extend(table.row(id).iter().map(|&x| i16::from(x)));
            rows.resize(start + dims, 0);
        }
        Cosines {
            table,
            query,
            floor,
            rows,
            norms: query
                .iter()
                .map(|&(id, _)| table.inverse_norm(id))
                .collect(),
            at: FastMap::default(),
            values: Vec::new(),
        }
    }

    /// Token `token`'s floored cosine with each query token, in query order.
    pub(super) fn of(&mut self, token: u32) -> &[f32] {
        let n = self.query.len();
        let start = match self.at.get(&token) {
            Some(&start) => start,
            None => {
                let start = self.values.len();
                let (row, norm) = (self.table.row(token), self.table.inverse_norm(token));
                let dims = self.table.dims();
                let span = (1.0 - self.floor).max(f32::EPSILON);
                for (i, &(q, _)) in self.query.iter().enumerate() {
                    let query_row = &self.rows[i * dims..(i + 1) * dims];
                    let cosine = row_cosine(q == token, query_row, self.norms[i], row, norm);
                    self.values
                        .push(((cosine - self.floor) / span).clamp(0.0, 1.0));
                }
                self.at.insert(token, start);
                start
            }
        };
        &self.values[start..start + n]
    }
}

/// The soft match of one document's token set with the query's tokens, in `0..=1`: each query
/// token's best floored cosine, averaged with the tokens' weights.
fn score(set: &[u32], cosines: &mut Cosines<'_>) -> f32 {
    let mut best = vec![0f32; cosines.query.len()];
    for &token in set {
        for (b, &c) in best.iter_mut().zip(cosines.of(token)) {
            *b = larger(*b, c);
        }
    }
    let (mut sum, mut total) = (0f32, 0f32);
    for (&(_, weight), &b) in cosines.query.iter().zip(&best) {
        sum += weight * b;
        total += weight;
    }
    if total > 0.0 {
        sum / total
    } else {
        0.0
    }
}

/// Reorders the first [`SoftMatch::depth`] of `hits` (best first) by `fused / best fused +
/// weight * soft match`, each hit's score becoming that sum; the hits after them keep their
/// order, their scores scaled to continue below the last reordered one, so that scores still
/// fall down the list. A query none of whose tokens the table knows changes nothing.
pub(crate) fn apply(soft: &SoftMatch, dense: &DenseIndex, query: &str, hits: &mut [HybridHit]) {
    let query = query_tokens(soft, dense, query);
    let n = hits.len().min(soft.depth);
    if query.is_empty() || n == 0 {
        return;
    }
    let Some(sets) = dense.token_sets() else {
        return;
    };
    let mut cosines = Cosines::new(dense.table(), &query, soft.floor);
    rescore_head(hits, n, |hit| {
        soft.weight * score(sets.get(hit.doc), &mut cosines)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::request_options;
    use crate::search::{Document, HybridIndex};

    #[test]
    fn words_that_frame_a_question_are_left_out_of_the_query() {
        let options = request_options(true);
        let soft = options.soft_match.expect("requests have a soft match");
        let docs = [Document::new("", "kafka consumer offsets")];
        let index = HybridIndex::with_options(&docs, options);
        let dense = index.dense().expect("semantic on");
        let framed = query_tokens(&soft, dense, "What did the user ask about Kafka?");
        let bare = query_tokens(&soft, dense, "kafka");
        assert!(!bare.is_empty());
        assert_eq!(framed, bare);
        // Each token once, however often the query says it.
        assert_eq!(query_tokens(&soft, dense, "kafka Kafka KAFKA"), bare);
        // A page pasted as a query weighs its weightiest tokens only.
        let page: String = (0..5000).map(|i| format!("word{i} ")).collect();
        assert_eq!(query_tokens(&soft, dense, &page).len(), MAX_QUERY_TOKENS);
    }

    #[test]
    fn a_query_with_no_token_left_keeps_the_fused_order() {
        let docs: Vec<Document> = [
            "the user asked for a fix",
            "ask me about the user settings later",
            "users",
        ]
        .iter()
        .map(|t| Document::new("", *t))
        .collect();
        let with = HybridIndex::with_options(&docs, request_options(true));
        let without = HybridIndex::with_options(
            &docs,
            crate::search::HybridOptions {
                soft_match: None,
                ..request_options(true)
            },
        );
        // Only frame words: they match lexically, but the soft match has no token to weigh.
        let query = "what did the user ask";
        let hits = with.search(query, 3);
        assert!(!hits.is_empty());
        assert_eq!(hits, without.search(query, 3));
    }

    #[test]
    fn a_token_matches_itself_fully_and_others_less() {
        let table = Table::builtin();
        let id = |w: &str| table.vocab().id(w).expect("in the vocabulary");
        assert!((table.cosine(id("database"), id("database")) - 1.0).abs() < 1e-6);
        let near = table.cosine(id("database"), id("sql"));
        let far = table.cosine(id("database"), id("banana"));
        assert!(near > far, "database~sql {near} vs database~banana {far}");
        assert!(near < 1.0);
        assert_eq!(table.cosine(id("database"), u32::MAX), 0.0, "unknown id");
    }

    #[test]
    fn token_sets_keep_distinct_tokens_in_order_up_to_the_cap() {
        let mut sets = TokenSets::new(3);
        sets.push(&[5, 3, 5, 9, 3, 7]);
        sets.push(&[]);
        sets.push(&[1, 1, 1]);
        assert_eq!(sets.get(0), &[5, 3, 9]);
        assert_eq!(sets.get(1), &[] as &[u32]);
        assert_eq!(sets.get(2), &[1]);
        assert_eq!(sets.get(3), &[] as &[u32], "out of range is empty");
        let mut copy = sets.emptied();
        copy.copy(&sets, 2);
        copy.copy(&sets, 0);
        assert_eq!(copy.get(0), &[1]);
        assert_eq!(copy.get(1), &[5, 3, 9]);
    }
}
