//! Hybrid ranking: the lexical [`Index`] fused with the cosine similarity of static embeddings
//! ([`super::embed`]).
//!
//! Each signal is brought to `0..=1` for the query at hand (the lexical score divided by the
//! best lexical score; the cosine, floored at 0, divided by the best cosine), and a document's
//! score is `(1 - w) * lexical + w * semantic` with `w` = [`HybridOptions::semantic_weight`].
//! Dividing by the query's best keeps either signal from dominating just because of its scale:
//! BM25 scores grow with the number of rare query words, cosines do not.
//!
//! With [`HybridOptions::semantic`] off, this is exactly [`Index::search`].

use std::cmp::Ordering;

use super::answer_kind::{self, AnswerKinds};
use super::embed::{DenseIndex, QueryVector, Table};
use super::index::LexicalScores;
use super::projection::QueryProjection;
use super::request_rerank::RequestReranker;
use super::rerank::{self, Reranker, FEATURES};
use super::soft_match::{self, SoftMatch};
use super::traits::Traits;
use super::{larger, Document, Index, SearchOptions};

/// How many of the best lexical matches always get an exact semantic score, besides the
/// semantic first pass's candidates (at least the result limit).
const LEXICAL_RESCORED: usize = 40;

/// A fused score and its document, ordered best first: higher score, then earlier document.
#[derive(Clone, Copy, Debug)]
struct Fused(f32, u32);

impl Ord for Fused {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Fused {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Fused {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Fused {}

/// Tunables of [`HybridIndex`]. The defaults (tool search's) were chosen on one random half of
/// the MetaTool dev queries and checked on the other (`examples/eval_retrieval.rs --hybrid
/// --tune-hybrid`; the reranker: `--dump-features` and `scripts/rerank/fit_trees.py`).
#[derive(Debug, Clone, PartialEq)]
pub struct HybridOptions {
    /// The lexical index's options.
    pub lexical: SearchOptions,
    /// Whether the semantic signal is used at all; off, ranking is purely lexical and no
    /// document vectors are built.
    pub semantic: bool,
    /// Share of the semantic signal in the fused score, `0..=1`.
    pub semantic_weight: f32,
    /// How many times a document's name tokens count in its vector, relative to its text.
    pub name_weight: f32,
    /// How much a document's context tokens count in its vector, relative to its text.
    pub context_weight: f32,
    /// Documents with no lexical match are returned only with at least this cosine.
    pub min_semantic: f32,
    /// How many documents the semantic signal contributes per query (the best by an approximate
    /// first pass; see [`DenseIndex::candidates`]); the best lexical matches are always scored
    /// too.
    pub semantic_candidates: usize,
    /// Token vectors are weighted by their IDF in the collection raised to this power (0: off).
    pub idf_power: f32,
    /// Reorders the first fused results by a learned model ([`super::rerank`]); `None`: fused
    /// order. Applies only with the semantic signal on.
    pub rerank: Option<Reranker>,
    /// Directions taken out of query vectors before they are compared ([`super::projection`]);
    /// `None`: the query's embedding as it is.
    pub query_projection: Option<QueryProjection>,
    /// Reorders the first results by how well each query word is matched by some word of the
    /// document ([`super::soft_match`]), after the reranker if there is one; `None`: not at
    /// all. Applies only with the semantic signal on.
    pub soft_match: Option<SoftMatch>,
    /// Moves up, among the first results, those that hold what a question about someone asks
    /// for: a time for "when ...", a number for "how many ..." ([`super::answer_kind`]);
    /// `None`: not at all. Applies only with the semantic signal on, after the soft match.
    pub answer_kinds: Option<AnswerKinds>,
    /// Reorders past-request search's first results for a question in the third person, after
    /// neighbour support ([`super::request_rerank`]; applied by `history::rank_requests`, which
    /// knows the dialogs); `None`: not at all. Applies only with the semantic signal on.
    pub request_rerank: Option<RequestReranker>,
}

impl Default for HybridOptions {
    fn default() -> Self {
        HybridOptions {
            lexical: SearchOptions::default(),
            semantic: true,
            semantic_weight: 0.65,
            name_weight: 1.0,
            context_weight: 0.3,
            // 0.2 before the query projection, which lowers every cosine (the right tool's
            // median 0.48 -> 0.41): 0.17 leaves the same share of right tools below it (6% of
            // MetaTool dev half A), and keeps keyword queries as good as before it (benchmarks).
            // With the two-teacher table 7% are below it (median 0.39); 0.16 would keep 6%, and
            // ranks the same within 0.1 point, so it stayed.
            min_semantic: 0.17,
            semantic_candidates: 100,
            idf_power: 1.0,
            rerank: Reranker::tools(),
            query_projection: Some(QueryProjection::TOOLS),
            // Measured on tools and not adopted: descriptions are short (benchmarks).
            soft_match: None,
            // Tool descriptions are not answers to questions about someone.
            answer_kinds: None,
            request_rerank: None,
        }
    }
}

impl HybridOptions {
    /// Lexical ranking only (the semantic part turned off).
    pub fn lexical_only() -> HybridOptions {
        HybridOptions {
            semantic: false,
            ..HybridOptions::default()
        }
    }
}

/// One result of [`HybridIndex::search`].
#[derive(Debug, Clone, PartialEq)]
pub struct HybridHit {
    /// Index into the documents given to [`HybridIndex::build`].
    pub doc: usize,
    /// Fused score, or with a reranker ([`HybridOptions::rerank`]) the logistic of its score for
    /// the first results and the fused score scaled below it for the rest; falls down the list,
    /// only comparable within one query.
    pub score: f32,
    /// The query words (lowercased, as typed) that matched this document lexically.
    pub matched: Vec<String>,
    /// The lexical score divided by the query's best lexical score (0 when no word matched).
    pub lexical: f32,
    /// Cosine similarity of the query's and the document's embeddings (0 when semantic is off).
    pub semantic: f32,
    /// Whether the semantic signal counts as having found this document (see
    /// [`HybridHit::signals`]).
    pub semantic_match: bool,
}

impl HybridHit {
    /// A hit with a document and a score and no signal: a request listed by its time alone.
    pub fn bare(doc: usize, score: f32) -> HybridHit {
        HybridHit {
            doc,
            score,
            matched: Vec::new(),
            lexical: 0.0,
            semantic: 0.0,
            semantic_match: false,
        }
    }

    /// Which signals found this document: `"lexical"` when a query word occurs in it,
    /// `"context"` when query words occur only around it (its [`super::Document::context`]: for
    /// a request, the requests next to it), `"semantic"` when its meaning is close to the
    /// query's (cosine at least half the best cosine of the query and above
    /// [`HybridOptions::min_semantic`]).
    pub fn signals(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.matched.is_empty() {
            out.push("lexical");
        } else if self.lexical > 0.0 {
            out.push("context");
        }
        if self.semantic_match {
            out.push("semantic");
        }
        out
    }
}

/// A lexical index plus, unless turned off, the documents' embeddings.
#[derive(Debug, Clone)]
pub struct HybridIndex {
    lexical: Index,
    dense: Option<DenseIndex>,
    options: HybridOptions,
    /// Per document, what its text says about itself ([`Traits`]: the answer kinds it holds,
    /// for the answer kinds and the request reranker); empty without either (tool search).
    traits: Vec<Traits>,
}

impl HybridIndex {
    /// Builds with [`HybridOptions::default`] and the compiled-in table.
    pub fn build(docs: &[Document]) -> HybridIndex {
        HybridIndex::with_options(docs, HybridOptions::default())
    }

    /// Builds with explicit options and the compiled-in table.
    pub fn with_options(docs: &[Document], options: HybridOptions) -> HybridIndex {
        HybridIndex::with_table(docs, options, Table::builtin())
    }

    /// Builds with explicit options and table.
    pub fn with_table(
        docs: &[Document],
        options: HybridOptions,
        table: &'static Table,
    ) -> HybridIndex {
        let lexical = Index::with_options(docs, options.lexical.clone());
        let dense = options.semantic.then(|| {
            DenseIndex::build(
                table,
                docs,
                options.name_weight,
                options.context_weight,
                options.idf_power,
                // The names and texts apart, for the reranker.
                options.rerank.is_some(),
                options.soft_match.map(|soft| soft.max_tokens),
            )
            .with_projection(options.query_projection)
        });
        HybridIndex {
            lexical,
            dense,
            traits: traits_of(docs, &options, |_| None),
            options,
        }
    }

    /// Indexes `docs` with `previous`'s options, taking document `d`'s vector from `previous`'s
    /// row `reuse[d]` when given (the same document: same name, text, tags and context) instead
    /// of embedding it again; the token weights stay `previous`'s. The lexical index is rebuilt
    /// whole: it costs a fraction of embedding.
    pub fn rebuild(
        previous: &HybridIndex,
        docs: &[Document],
        reuse: &[Option<u32>],
    ) -> HybridIndex {
        let options = previous.options.clone();
        let lexical = Index::with_options(docs, options.lexical.clone());
        let dense = previous.dense.as_ref().map(|dense| {
            DenseIndex::rebuild(
                dense,
                docs,
                reuse,
                options.name_weight,
                options.context_weight,
            )
        });
        // A reused document is the same text: its traits are the previous ones.
        let traits = traits_of(docs, &options, |d| {
            let row = reuse.get(d).copied().flatten()?;
            previous.traits.get(row as usize).copied()
        });
        HybridIndex {
            lexical,
            dense,
            traits,
            options,
        }
    }

    /// Per document, what its text says about itself (empty for tool search and with the
    /// semantic signal off).
    pub fn traits(&self) -> &[Traits] {
        &self.traits
    }

    /// The embeddings, unless the semantic signal is off.
    pub fn dense(&self) -> Option<&DenseIndex> {
        self.dense.as_ref()
    }

    /// The lexical index.
    pub fn lexical(&self) -> &Index {
        &self.lexical
    }

    /// The options this index was built with.
    pub fn options(&self) -> &HybridOptions {
        &self.options
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.lexical.len()
    }

    /// Whether the index has no documents.
    pub fn is_empty(&self) -> bool {
        self.lexical.is_empty()
    }

    /// The best `limit` documents for `query`, best first; ties go to the earlier document.
    pub fn search(&self, query: &str, limit: usize) -> Vec<HybridHit> {
        let Some(dense) = &self.dense else {
            let hits = self.lexical.search(query, limit);
            let top = hits.first().map_or(0.0, |h| h.score);
            return hits
                .into_iter()
                .map(|h| HybridHit {
                    doc: h.doc,
                    score: h.score,
                    matched: h.matched,
                    lexical: if top > 0.0 { h.score / top } else { 0.0 },
                    semantic: 0.0,
                    semantic_match: false,
                })
                .collect();
        };
        if limit == 0 || self.is_empty() {
            return Vec::new();
        }
        let depth = self.depth(limit);
        let (lex, q, hits) = self.first(dense, query, depth);
        self.reranked(query, &lex, q.as_ref(), hits, limit)
    }

    /// The best `depth` documents for `query` by fused score, with the lexical scores and the
    /// query vector they came from.
    fn first(
        &self,
        dense: &DenseIndex,
        query: &str,
        depth: usize,
    ) -> (LexicalScores, Option<QueryVector>, Vec<HybridHit>) {
        let lex = self.lexical.score_all(query);
        let Some(q) = dense.embed_query(query) else {
            let hits = self.fuse(&lex, &[], &lex.touched, depth);
            return (lex, None, hits);
        };
        // The best lexical matches get a semantic score too, whatever the first pass thinks.
        let k = self.options.semantic_candidates.max(depth);
        let extra = top_by(
            &lex.touched,
            |d| lex.scores[d as usize],
            LEXICAL_RESCORED.max(depth),
        );
        let sem = dense.candidates(&q, k, &extra);
        // Only the documents with a cosine need fusing: any other lexical match scores no more
        // than each of the `extra` ones (its lexical score is lower or it comes later, and it
        // has no semantic part), and there are at least `depth` of those. A query's common
        // words touch thousands of documents; this fuses about a hundred.
        let hits = self.fuse(&lex, &sem, &[], depth);
        (lex, Some(q), hits)
    }

    /// How many fused results a query of `limit` needs: the reranker's, the soft match's or the
    /// answer kinds' depth when they reorder more than are asked for.
    fn depth(&self, limit: usize) -> usize {
        let rerank = self.options.rerank.map_or(0, |r| r.depth);
        limit.max(rerank).max(self.reordered_after_rerank())
    }

    /// How many first results the soft match and the answer kinds reorder (0 without them):
    /// the reranker must keep at least as many.
    fn reordered_after_rerank(&self) -> usize {
        let soft = self.options.soft_match.map_or(0, |s| s.depth);
        let kinds = self.options.answer_kinds.map_or(0, |a| a.depth);
        soft.max(kinds)
    }

    /// `hits` reordered by the reranker, then the soft match, then the answer kinds, where
    /// there are, cut to `limit`.
    fn reranked(
        &self,
        query: &str,
        lex: &LexicalScores,
        q: Option<&QueryVector>,
        mut hits: Vec<HybridHit>,
        limit: usize,
    ) -> Vec<HybridHit> {
        let Some(dense) = &self.dense else {
            hits.truncate(limit);
            return self.with_matched(lex, hits);
        };
        if let Some(model) = &self.options.rerank {
            let profiles = self.profiles(lex, q, &hits[..hits.len().min(model.depth)]);
            // The soft match and the answer kinds below reorder their whole depth, not just
            // `limit`.
            let keep = limit.max(self.reordered_after_rerank());
            model.apply(&mut hits, &profiles, keep);
        }
        if let Some(soft) = &self.options.soft_match {
            soft_match::apply(soft, dense, query, &mut hits);
        }
        if let Some(kinds) = &self.options.answer_kinds {
            answer_kind::apply(kinds, &self.traits, query, &mut hits);
        }
        hits.truncate(limit);
        self.with_matched(lex, hits)
    }

    /// `hits` with their [`HybridHit::matched`] words: found only for the hits a query
    /// returns, not for every candidate the reranker reads (each is a few lookups and a string
    /// per word).
    fn with_matched(&self, lex: &LexicalScores, mut hits: Vec<HybridHit>) -> Vec<HybridHit> {
        for hit in &mut hits {
            if lex.scores.get(hit.doc).is_some_and(|&l| l > 0.0) {
                hit.matched = self.lexical.matched_words(lex, hit.doc as u32);
            }
        }
        hits
    }

    /// What the reranker reads about each of `hits` besides the hit itself
    /// ([`rerank::Profile`]).
    fn profiles(
        &self,
        lex: &LexicalScores,
        q: Option<&QueryVector>,
        hits: &[HybridHit],
    ) -> Vec<rerank::Profile> {
        hits.iter()
            .map(|h| {
                let (name_cosine, text_cosine) = match (&self.dense, q) {
                    (Some(dense), Some(q)) => dense.field_cosines(q, h.doc),
                    _ => (0.0, 0.0),
                };
                rerank::Profile {
                    lexical: self.lexical.match_profile(lex, h.doc as u32),
                    name_cosine,
                    text_cosine,
                }
            })
            .collect()
    }

    /// The first `depth` fused results for `query` with the reranker's features of each (in
    /// the order of [`rerank::FEATURE_NAMES`]): what the reranker is fitted on
    /// (`examples/eval_retrieval.rs --dump-features`). Empty with the semantic signal off; the
    /// name and text cosines are 0 unless the index was built with a reranker (any model).
    pub fn candidates(&self, query: &str, depth: usize) -> Vec<(HybridHit, [f32; FEATURES])> {
        let Some(dense) = &self.dense else {
            return Vec::new();
        };
        if depth == 0 || self.is_empty() {
            return Vec::new();
        }
        let (lex, q, hits) = self.first(dense, query, depth);
        let profiles = self.profiles(&lex, q.as_ref(), &hits);
        let features = rerank::features(&hits, &profiles);
        let hits = self.with_matched(&lex, hits);
        hits.into_iter().zip(features).collect()
    }

    /// The best `limit` documents for `query` among those `keep` accepts, best first, every
    /// kept document scored exactly (for a subset such as the requests of one week; costs one
    /// cosine per kept document).
    pub fn search_within(
        &self,
        query: &str,
        limit: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<HybridHit> {
        if limit == 0 || self.is_empty() {
            return Vec::new();
        }
        let mut lex = self.lexical.score_all(query);
        lex.touched.retain(|&d| keep(d as usize));
        let q = self
            .dense
            .as_ref()
            .and_then(|dense| dense.embed_query(query));
        let sem: Vec<(u32, f32)> = match (&self.dense, &q) {
            (Some(dense), Some(q)) => (0..self.len())
                .filter(|&d| keep(d))
                .map(|d| (d as u32, dense.cosine(q, d)))
                .collect(),
            _ => Vec::new(),
        };
        let depth = self.depth(limit);
        // With a query vector, every kept document has its cosine in `sem`.
        let lexical_only: &[u32] = if q.is_some() { &[] } else { &lex.touched };
        let hits = self.fuse(&lex, &sem, lexical_only, depth);
        self.reranked(query, &lex, q.as_ref(), hits, limit)
    }

    /// The best `limit` documents by fused score among those of `sem` (`(document, cosine)`,
    /// each with its lexical score, if any) and `lexical_only` (lexical matches without a
    /// cosine, which count as 0; none of them in `sem`). A document of `sem` with no lexical
    /// match needs [`HybridOptions::min_semantic`]. Each signal is divided by its best: the
    /// lexical one over every lexical match, the semantic one over `sem`.
    fn fuse(
        &self,
        lex: &LexicalScores,
        sem: &[(u32, f32)],
        lexical_only: &[u32],
        limit: usize,
    ) -> Vec<HybridHit> {
        let w = self.options.semantic_weight.clamp(0.0, 1.0);
        let lex_max = lex
            .touched
            .iter()
            .map(|&d| lex.scores[d as usize])
            .fold(0f32, larger);
        let sem_max = sem.iter().map(|&(_, s)| s).fold(0f32, larger);
        let lex_scale = if lex_max > 0.0 {
            (1.0 - w) / lex_max
        } else {
            0.0
        };
        let sem_scale = if sem_max > 0.0 { w / sem_max } else { 0.0 };
        let min_sem = self.options.min_semantic;
        let lexical = |d: u32| lex.scores.get(d as usize).copied().unwrap_or(0.0);
        // Every candidate's fused score (with its cosine), then the best `limit` by selection,
        // then those sorted.
        let mut ranked: Vec<(Fused, f32)> = Vec::with_capacity(sem.len() + lexical_only.len());
        for &(d, s) in sem {
            let l = lexical(d);
            if l > 0.0 {
                ranked.push((Fused(l * lex_scale + s.max(0.0) * sem_scale, d), s));
            } else if s >= min_sem {
                ranked.push((Fused(s * sem_scale, d), s));
            }
        }
        for &d in lexical_only {
            ranked.push((Fused(lexical(d) * lex_scale, d), 0.0));
        }
        if limit == 0 {
            ranked.clear();
        } else if ranked.len() > limit {
            ranked.select_nth_unstable_by(limit - 1, |a, b| b.0.cmp(&a.0));
            ranked.truncate(limit);
        }
        ranked.sort_unstable_by_key(|&(fused, _)| std::cmp::Reverse(fused));
        ranked
            .into_iter()
            .map(|(Fused(score, d), s)| {
                let l = lexical(d);
                HybridHit {
                    doc: d as usize,
                    score,
                    // Filled for the hits that are returned ([`HybridIndex::with_matched`]).
                    matched: Vec::new(),
                    lexical: if lex_max > 0.0 { l / lex_max } else { 0.0 },
                    semantic: s,
                    semantic_match: s >= min_sem && s >= 0.5 * sem_max,
                }
            })
            .collect()
    }

    /// Cosine similarity of `query` with every document (empty when semantic is off); for
    /// evaluation of the semantic signal alone.
    pub fn semantic_scores(&self, query: &str) -> Vec<f32> {
        let Some(dense) = &self.dense else {
            return Vec::new();
        };
        let mut out = Vec::new();
        match dense.embed_query(query) {
            Some(q) => dense.scores(&q, &mut out),
            None => out.resize(self.len(), 0.0),
        }
        out
    }
}

/// Rescores the first `n` of `hits` as `score / best score + bonus(hit)` (the best score taken
/// as 1 when it is not positive; fused scores never are negative), reorders them by the new
/// score (a stable sort: equal scores keep their order) and scales the hits after them to
/// continue below ([`continue_below`]). What the soft match and the answer kinds share.
pub(crate) fn rescore_head(
    hits: &mut [HybridHit],
    n: usize,
    mut bonus: impl FnMut(&HybridHit) -> f32,
) {
    let n = n.min(hits.len());
    if n == 0 {
        return;
    }
    let best = hits[0].score;
    let norm = if best > 0.0 { 1.0 / best } else { 1.0 };
    let boundary = hits[n - 1].score;
    for hit in hits[..n].iter_mut() {
        hit.score = hit.score * norm + bonus(hit);
    }
    hits[..n].sort_by(|a, b| b.score.total_cmp(&a.score));
    let last = hits[n - 1].score;
    continue_below(&mut hits[n..], boundary, last);
}

/// Scales the scores of `tail`, the hits after a head that was reordered and rescored (by the
/// reranker, by the soft match), so that they continue below it: `boundary` was the head's last
/// score before, `last` is its last score now. Scores still fall down the list, and the tail
/// keeps its order.
pub(crate) fn continue_below(tail: &mut [HybridHit], boundary: f32, last: f32) {
    let scale = if boundary > 0.0 { last / boundary } else { 0.0 };
    for hit in tail {
        hit.score *= scale;
    }
}

/// Per document, the traits of its text, when `options` asks for answer kinds or the request
/// reranker (past-request search): `known(d)` where it has them (a reused document), else read
/// from the text.
fn traits_of(
    docs: &[Document],
    options: &HybridOptions,
    known: impl Fn(usize) -> Option<Traits>,
) -> Vec<Traits> {
    let wanted = options.answer_kinds.is_some() || options.request_rerank.is_some();
    if !wanted || !options.semantic {
        return Vec::new();
    }
    let traits = |(d, doc): (usize, &Document)| known(d).unwrap_or_else(|| Traits::of(&doc.text));
    docs.iter().enumerate().map(traits).collect()
}

/// The `k` documents of `docs` with the highest `score` (ties: the earlier document), in no
/// particular order; all of them when `k` is 0.
///
/// One pass with a bar: candidates gather in a buffer of `2k`; when it fills, the best `k` are
/// kept and the worst of them becomes the bar, which later documents must beat to get in. Most
/// of a large list falls below the bar after the first fill, so it costs about a comparison per
/// document instead of a selection over all of them.
fn top_by(docs: &[u32], score: impl Fn(u32) -> f32, k: usize) -> Vec<u32> {
    // Best first: higher score, then earlier document.
    let order = |a: &(f32, u32), b: &(f32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    if k == 0 || docs.len() <= k {
        return docs.to_vec();
    }
    let mut kept: Vec<(f32, u32)> = Vec::with_capacity(2 * k);
    let mut bar: Option<(f32, u32)> = None;
    for &d in docs {
        let candidate = (score(d), d);
        if bar.is_some_and(|bar| order(&candidate, &bar) != Ordering::Less) {
            continue;
        }
        kept.push(candidate);
        if kept.len() == 2 * k {
            kept.select_nth_unstable_by(k - 1, order);
            kept.truncate(k);
            bar = Some(kept[k - 1]);
        }
    }
    if kept.len() > k {
        kept.select_nth_unstable_by(k - 1, order);
        kept.truncate(k);
    }
    kept.into_iter().map(|(_, d)| d).collect()
}

#[cfg(test)]
mod tests {
    use super::{top_by, HybridIndex};
    use crate::search::Document;
    use proptest::prelude::*;

    /// A query of words the embedding table does not know has no query vector; its lexical
    /// matches are then fused on their own and still found.
    #[test]
    fn a_query_without_a_vector_finds_its_lexical_matches() {
        let docs = [
            Document::new("weather", "Forecasts for any city"),
            Document::new("qzxvblorp_sync", "Syncs qzxvblorp archives"),
            Document::new("calendar", "Plans meetings and reminders"),
        ];
        let index = HybridIndex::build(&docs);
        let dense = index.dense().expect("semantic on by default");
        assert!(dense.embed_query("qzxvblorp").is_none(), "no vector");
        let hits = index.search("qzxvblorp", 5);
        assert_eq!(hits.first().map(|h| h.doc), Some(1), "{hits:?}");
        assert_eq!(hits[0].matched, ["qzxvblorp"]);
    }

    /// The first `k` of `docs` fully sorted best first (higher score, then earlier document):
    /// what `top_by` must keep, in some order.
    fn sorted_top(docs: &[u32], scores: &[f32], k: usize) -> Vec<u32> {
        let mut all: Vec<u32> = docs.to_vec();
        all.sort_by(|&a, &b| {
            scores[b as usize]
                .total_cmp(&scores[a as usize])
                .then(a.cmp(&b))
        });
        if k > 0 {
            all.truncate(k);
        }
        all.sort_unstable();
        all
    }

    proptest! {
        /// The bar never keeps out a document of the true top `k`, ties included (scores are
        /// drawn from a few values so that many are equal), whatever order the documents come in.
        #[test]
        fn top_by_keeps_exactly_the_best_k(
            scores in proptest::collection::vec(0u8..6, 0..300),
            k in 0usize..60,
            seed in any::<u64>(),
        ) {
            let scores: Vec<f32> = scores.into_iter().map(f32::from).collect();
            let mut docs: Vec<u32> = (0..scores.len() as u32).collect();
            // A fixed shuffle: posting order is not document order.
            let mut state = seed | 1;
            for i in (1..docs.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                docs.swap(i, (state % (i as u64 + 1)) as usize);
            }
            let mut got = top_by(&docs, |d| scores[d as usize], k);
            got.sort_unstable();
            prop_assert_eq!(got, sorted_top(&docs, &scores, k));
        }
    }
}
