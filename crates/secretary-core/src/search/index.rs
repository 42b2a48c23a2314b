//! The inverted index (a sparse term-document matrix) and its scoring.
//!
//! Layout: every distinct term gets an id (`terms`); the postings of term `t` are the slice
//! `offsets[t]..offsets[t + 1]` of two parallel arrays, `post_docs` (document numbers, ascending)
//! and `post_weights` (the term's finished score contribution in that document). Storing the
//! finished weight rather than raw counts moves all of the scoring arithmetic to build time: a
//! query is then a few hash lookups plus one add per posting into a dense score array, which
//! keeps queries in the tens of microseconds on 10,000 documents.
//!
//! Scoring is BM25F-flavoured TF-IDF. Every choice below was checked on the MetaTool dev queries
//! (`examples/eval_retrieval.rs`, tuned on one random half, confirmed on the other):
//!
//! * **Fields.** A document has a name, a text and tags. Their terms are merged into one bag,
//!   each occurrence counted with its field's weight ([`SearchOptions::name_weight`],
//!   [`SearchOptions::tag_weight`], 1 for text), so a query word found in a tool's *name* counts
//!   as several mentions in its description: names say what a tool is for, descriptions also
//!   mention incidental things. Run-together names ("stellarexplorer") are also segmented into
//!   the collection's words ([`SearchOptions::split_compound_names`]).
//! * **Saturation** (`k1`): the second and third mention of a term add less than the first, so a
//!   description that repeats "search" five times does not bury one that says it once.
//! * **Length normalisation** (`b`): a match in a short description is worth more than one in a
//!   long description that mentions everything. Kept mild (0.3): in a tool catalog the long
//!   descriptions belong to broad tools, which are *more* often the right answer, not less.
//! * **IDF**: `ln(1 + (N - df + 0.5) / (df + 0.5))`, always positive, raised to
//!   [`SearchOptions::idf_power`] (1.5): between BM25 (IDF once) and cosine TF-IDF (IDF on both
//!   the query and the document vector, i.e. squared). Queries are conversational ("Can you find
//!   me the latest research papers on...") and the rare words carry the intent.
//! * **Prefix matching**: a query stem also matches index stems that extend it, or that it
//!   extends, by a few letters, at half weight ([`SearchOptions::prefix_weight`]). Stemmers
//!   under-conflate derivations ("rent" / "rental", "financ" / "financi"); this catches most of
//!   them without a dictionary, and the reduced weight keeps the occasional false friend
//!   ("list" / "listen") from outranking a real match.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use super::tokenize::{for_each_piece, normalize};
use super::{Document, FastMap, Hit};

/// Tunables of [`Index::with_options`].
///
/// The defaults are the best of a grid search on one random half of the MetaTool dev queries
/// (`eval_retrieval --tune`), confirmed on the other half; neighbouring values score within about
/// a point of recall, so they are not fragile. Past requests use their own values
/// (`history::request_options`: textbook saturation and length normalisation, which suit long
/// free text of very uneven length); [`SearchOptions::classic_bm25`] is the textbook baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOptions {
    /// BM25 term-frequency saturation: 0 means "mentioned or not", large values approach raw
    /// term frequency.
    pub k1: f32,
    /// BM25 length normalisation: 0 ignores document length, 1 divides fully by it.
    pub b: f32,
    /// How many text mentions one occurrence in the document's name counts as.
    pub name_weight: f32,
    /// How many text mentions one occurrence in the document's tags counts as.
    pub tag_weight: f32,
    /// IDF is raised to this power: above 1, rare terms dominate common ones more strongly.
    pub idf_power: f32,
    /// Split names written as one run-together word ("stellarexplorer", "hdbcarpark") into the
    /// words of the collection's vocabulary they are made of, and index those too.
    pub split_compound_names: bool,
    /// Weight of a prefix match relative to an exact one; 0 disables prefix matching. A query
    /// stem matches index stems that extend it, or that it extends, by at most
    /// [`SearchOptions::prefix_max_extra`] characters, the shorter one having at least
    /// [`SearchOptions::prefix_min_len`].
    pub prefix_weight: f32,
    /// Shortest stem that takes part in prefix matching (at least 2).
    pub prefix_min_len: usize,
    /// Most letters by which prefix-matched stems may differ in length.
    pub prefix_max_extra: usize,
    /// How many text mentions one occurrence in the document's context counts as (0: the
    /// context is not indexed).
    pub context_weight: f32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            k1: 2.0,
            b: 0.3,
            name_weight: 2.0,
            tag_weight: 1.5,
            idf_power: 1.5,
            split_compound_names: true,
            prefix_weight: 0.5,
            prefix_min_len: 4,
            prefix_max_extra: 3,
            context_weight: 0.3,
        }
    }
}

impl SearchOptions {
    /// Plain BM25 (k1 1.2, b 0.75, IDF once, no prefix matching) with the default field weights:
    /// the usual baseline, and a safe choice for long free-text documents of very uneven
    /// length. It scores about 1.3 points of recall@5 below the defaults on MetaTool.
    pub fn classic_bm25() -> SearchOptions {
        SearchOptions {
            k1: 1.2,
            b: 0.75,
            idf_power: 1.0,
            prefix_weight: 0.0,
            ..SearchOptions::default()
        }
    }

    /// The options with every value made usable: non-finite or out-of-range numbers fall back
    /// to the default or are clamped, so that every posting weight is finite and positive
    /// (which [`Index::search`] relies on).
    fn sanitized(self) -> SearchOptions {
        let d = SearchOptions::default();
        let pick = |v: f32, lo: f32, hi: f32, default: f32| {
            if v.is_finite() {
                v.clamp(lo, hi)
            } else {
                default
            }
        };
        SearchOptions {
            k1: pick(self.k1, 0.0, 100.0, d.k1),
            b: pick(self.b, 0.0, 1.0, d.b),
            name_weight: pick(self.name_weight, 0.0, 1000.0, d.name_weight),
            tag_weight: pick(self.tag_weight, 0.0, 1000.0, d.tag_weight),
            idf_power: pick(self.idf_power, 0.0, 4.0, d.idf_power),
            split_compound_names: self.split_compound_names,
            prefix_weight: pick(self.prefix_weight, 0.0, 1.0, 0.0),
            prefix_min_len: self.prefix_min_len.max(2),
            prefix_max_extra: self.prefix_max_extra,
            context_weight: pick(self.context_weight, 0.0, 1000.0, d.context_weight),
        }
    }
}

/// An immutable inverted index over a list of [`Document`]s. Build once, query many times;
/// `Send + Sync`, so one index can serve concurrent queries. Document numbers and posting
/// offsets are `u32`: up to ~4 billion postings, far beyond what fits in wasm memory anyway.
#[derive(Clone)]
pub struct Index {
    terms: FastMap<String, u32>,
    /// The text of each term id.
    term_text: Vec<Box<str>>,
    /// Term ids in lexicographic order of their text, for prefix lookups.
    sorted_terms: Vec<u32>,
    /// Every lowercase word seen while indexing -> its term (None: a stop word). Most query
    /// words are ordinary words already met in the documents; looking them up here skips the
    /// stemmer, which is otherwise the bulk of a query's analysis time.
    words: FastMap<String, Word>,
    /// `offsets[t]..offsets[t + 1]` is term `t`'s range in `post_docs` / `post_weights`.
    offsets: Vec<u32>,
    post_docs: Vec<u32>,
    post_weights: Vec<f32>,
    n_docs: usize,
    options: SearchOptions,
    /// Per posting (parallel to `post_docs`), whether the term is in the document's own fields
    /// rather than only in its context; empty when no document has a context (all own).
    post_own: Vec<bool>,
    /// Document d's name terms (with the parts of run-together name words) are
    /// `name_terms[name_starts[d]..name_starts[d + 1]]`, sorted: the reranker
    /// ([`super::rerank`]) asks whether a query word is in the name, which the merged postings
    /// no longer tell.
    name_terms: Vec<u32>,
    name_starts: Vec<u32>,
    /// Each document's weighted length, as length normalisation saw it.
    doc_len: Vec<f32>,
}

impl std::fmt::Debug for Index {
    /// A summary: the full vocabulary and postings would flood any log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("docs", &self.n_docs)
            .field("terms", &self.terms.len())
            .field("postings", &self.post_docs.len())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// A query word after analysis: the index terms it matches (its own term and prefix relatives),
/// each with a weight factor, and the word as typed (lowercased), for [`Hit::matched`].
struct QueryTerm {
    terms: Vec<(u32, f32)>,
    surface: String,
}

/// A scored document, ordered best first: higher score, then earlier document.
#[derive(Clone, Copy, Debug)]
struct Ranked {
    score: f32,
    doc: u32,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.score
            .total_cmp(&other.score)
            .then(other.doc.cmp(&self.doc))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Ranked {}

/// Words inside run-together names shorter than this are not looked for ("a", "at", "ai" are
/// found inside almost anything).
const MIN_COMPOUND_PART: usize = 3;
/// Longest word looked for inside a run-together name.
const MAX_COMPOUND_PART: usize = 16;
/// Name pieces shorter than this are not segmented: two 3-letter words is the least that counts.
const MIN_COMPOUND_LEN: usize = 6;
/// Weight of a word found inside a run-together name: that of a text mention, not of a name
/// word, because the split is a guess ("heygen" -> "hey" + "gen"). At name weight the guesses
/// cost a little precision on MetaTool; at text weight they are neutral there and still let
/// "keyword explorer" find `keywordexplorer`.
const COMPOUND_PART_WEIGHT: f32 = 1.0;
/// Longer pieces are not worth the quadratic segmentation.
const MAX_COMPOUND_LEN: usize = 40;

impl Index {
    /// Builds an index with [`SearchOptions::default`].
    pub fn build(docs: &[Document]) -> Index {
        Index::with_options(docs, SearchOptions::default())
    }

    /// Builds an index with explicit tunables: the documents' terms (pass 1), run-together name
    /// words split into known words (1b), each document's terms merged (2), postings laid out
    /// term by term with their finished weights (3).
    pub fn with_options(docs: &[Document], options: SearchOptions) -> Index {
        let options = options.sanitized();
        let mut analysis = Analysis::of(docs, &options);
        let parts_of = compound_parts(&analysis.words, &analysis.name_words, analysis.terms.len());
        let (name_terms, name_starts) = analysis.name_terms(&parts_of);
        let merged = Merged::of(&mut analysis, &parts_of);
        let n_terms = analysis.terms.len();
        let (offsets, post_docs, post_weights, post_own) = lay_out(
            &merged,
            &analysis.doc_len,
            analysis.has_context,
            n_terms,
            &options,
        );

        let mut term_text: Vec<Box<str>> = vec![Box::from(""); n_terms];
        for (text, &id) in &analysis.terms {
            term_text[id as usize] = text.as_str().into();
        }
        let mut sorted_terms: Vec<u32> = (0..n_terms as u32).collect();
        sorted_terms.sort_unstable_by(|&a, &b| term_text[a as usize].cmp(&term_text[b as usize]));
        Index {
            terms: analysis.terms,
            term_text,
            sorted_terms,
            words: analysis.words,
            offsets,
            post_docs,
            post_weights,
            n_docs: docs.len(),
            options,
            post_own,
            name_terms,
            name_starts,
            doc_len: analysis.doc_len,
        }
    }

    /// Number of documents indexed.
    pub fn len(&self) -> usize {
        self.n_docs
    }

    /// `true` when the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.n_docs == 0
    }

    /// The tunables this index was built with (after clamping out-of-range values).
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Number of distinct terms (rows of the term-document matrix).
    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Number of documents containing `term`, an analysed term as [`super::tokenize()`] returns
    /// it (so "search", not "searching").
    pub fn document_frequency(&self, term: &str) -> usize {
        self.terms
            .get(term)
            .map_or(0, |&t| self.postings(t).0.len())
    }

    /// The weight of `term` in document `doc` (one cell of the term-document matrix), 0 when
    /// the document does not contain it.
    pub fn weight(&self, term: &str, doc: usize) -> f32 {
        let Some(&t) = self.terms.get(term) else {
            return 0.0;
        };
        let (docs, weights) = self.postings(t);
        u32::try_from(doc)
            .ok()
            .and_then(|d| docs.binary_search(&d).ok())
            .map_or(0.0, |i| weights[i])
    }

    fn postings(&self, term: u32) -> (&[u32], &[f32]) {
        let range = self.offsets[term as usize] as usize..self.offsets[term as usize + 1] as usize;
        (&self.post_docs[range.clone()], &self.post_weights[range])
    }

    /// The query's distinct terms that match something in the index, in query order.
    fn query_terms(&self, query: &str) -> Vec<QueryTerm> {
        let mut out: Vec<QueryTerm> = Vec::new();
        // A set: a query of many distinct words (any length reaches the core) must not cost
        // the square of their number.
        let mut seen: HashSet<String> = HashSet::new();
        for_each_piece(query, &mut |piece: &str| {
            let (id, term): (Option<u32>, Cow<'_, str>) = match self.words.get(piece) {
                Some(Word { term: None, .. }) => return, // a stop word
                Some(Word { term: Some(id), .. }) => {
                    (Some(*id), Cow::Borrowed(&*self.term_text[*id as usize]))
                }
                None => match normalize(piece) {
                    None => return,
                    Some(term) => (self.terms.get(term.as_ref()).copied(), term),
                },
            };
            // A word repeated in a query does not make it more relevant to a document.
            if seen.contains(term.as_ref()) {
                return;
            }
            let mut terms: Vec<(u32, f32)> = Vec::new();
            if let Some(id) = id {
                terms.push((id, 1.0));
            }
            self.prefix_matches(&term, &mut terms);
            seen.insert(term.into_owned());
            if !terms.is_empty() {
                out.push(QueryTerm {
                    terms,
                    surface: piece.to_string(),
                });
            }
        });
        out
    }

    /// Adds the index terms that extend `term`, or that `term` extends, by a few letters.
    fn prefix_matches(&self, term: &str, out: &mut Vec<(u32, f32)>) {
        let o = &self.options;
        if o.prefix_weight <= 0.0 || !term.bytes().all(|b| b.is_ascii_lowercase()) {
            return;
        }
        let n = term.len();
        if n >= o.prefix_min_len {
            let start = self
                .sorted_terms
                .partition_point(|&id| &*self.term_text[id as usize] < term);
            for id in &self.sorted_terms[start..] {
                let t = &*self.term_text[*id as usize];
                if !t.starts_with(term) {
                    break;
                }
                if t.len() > n && t.len() - n <= o.prefix_max_extra {
                    out.push((*id, o.prefix_weight));
                }
            }
        }
        let shortest = o.prefix_min_len.max(n.saturating_sub(o.prefix_max_extra));
        for len in shortest..n {
            if let Some(&id) = self.terms.get(&term[..len]) {
                out.push((id, o.prefix_weight));
            }
        }
    }

    /// The `limit` best documents for `query`, best first; equal scores go to the earlier
    /// document, so results are fully deterministic.
    ///
    /// Only documents sharing at least one term with the query are returned, so there may be
    /// fewer than `limit`; none for an empty or stop-word-only query or `limit == 0`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        if limit == 0 || self.n_docs == 0 {
            return Vec::new();
        }
        let lexical = self.score_all(query);
        if lexical.words.qterms.is_empty() {
            return Vec::new();
        }

        // Top k by a bounded min-heap of the best so far: almost every touched document is
        // rejected by one comparison with the current k-th best, which beats partitioning
        // thousands of candidates.
        let mut best: BinaryHeap<Reverse<Ranked>> = BinaryHeap::with_capacity(limit + 1);
        // Score of the current k-th best, for a cheap first test (scores are finite, >= 0).
        let mut threshold = f32::NEG_INFINITY;
        for &d in &lexical.touched {
            let score = lexical.scores[d as usize];
            if score < threshold {
                continue;
            }
            let candidate = Ranked { score, doc: d };
            if best.len() < limit {
                best.push(Reverse(candidate));
            } else if let Some(mut worst) = best.peek_mut() {
                if candidate > worst.0 {
                    *worst = Reverse(candidate);
                }
            }
            if best.len() == limit {
                threshold = best.peek().map_or(f32::NEG_INFINITY, |w| w.0.score);
            }
        }
        let mut ranked: Vec<Ranked> = best.into_iter().map(|Reverse(r)| r).collect();
        ranked.sort_unstable_by(|a, b| b.cmp(a));

        ranked
            .into_iter()
            .map(|Ranked { score, doc: d }| Hit {
                doc: d as usize,
                score,
                matched: self.matched_words(&lexical, d),
            })
            .collect()
    }
}

/// A query's words with their IDFs ([`Index::query_words`]).
pub struct QueryWords {
    qterms: Vec<QueryTerm>,
    /// Per query word, the highest BM25 IDF of its terms: what [`Index::match_profile`] and
    /// [`Index::held_share`] weigh the word by, the same for every document, so found once per
    /// query.
    idfs: Vec<f32>,
}

/// Every document's lexical score for one query, for fusion with other signals
/// ([`super::hybrid`]): `scores[d]` is 0 for a document not in `touched`.
pub(crate) struct LexicalScores {
    pub scores: Vec<f32>,
    pub touched: Vec<u32>,
    /// The query's words, scored.
    words: QueryWords,
}

impl Index {
    /// The lexical score of every document for `query` (the dense form of [`Index::search`]).
    pub(crate) fn score_all(&self, query: &str) -> LexicalScores {
        let words = self.query_words(query);
        // Dense accumulator: one add per posting, no hashing. Every weight is positive, so a
        // zero score means "not touched yet".
        let mut scores = vec![0f32; self.n_docs];
        let mut touched: Vec<u32> = Vec::new();
        for qt in &words.qterms {
            for &(id, factor) in &qt.terms {
                let (docs, weights) = self.postings(id);
                for (&d, &w) in docs.iter().zip(weights) {
                    let slot = &mut scores[d as usize];
                    if *slot == 0.0 {
                        touched.push(d);
                    }
                    *slot += w * factor;
                }
            }
        }
        LexicalScores {
            scores,
            touched,
            words,
        }
    }

    /// `query`'s words and their IDFs: what [`Index::score_all`] scores, and what
    /// [`Index::held_share`] asks a few documents about without scoring every document.
    pub fn query_words(&self, query: &str) -> QueryWords {
        let qterms = self.query_terms(query);
        let n = self.n_docs as f32;
        let idfs = qterms
            .iter()
            .map(|qt| {
                qt.terms.iter().fold(0f32, |idf, &(id, _)| {
                    idf.max(bm25_idf(n, self.postings(id).0.len() as f32))
                })
            })
            .collect();
        QueryWords { qterms, idfs }
    }

    /// The share of `words`, each weighted by its IDF, that some document of `docs` holds as
    /// the same term (not a prefix relative) in its own fields; 0 for a query of no known word.
    pub fn held_share(&self, words: &QueryWords, docs: &[u32]) -> f32 {
        let mut held = 0.0f32;
        let mut total = 0.0f32;
        for (qt, &idf) in words.qterms.iter().zip(&words.idfs) {
            total += idf;
            let holds = |&(id, factor): &(u32, f32)| {
                factor >= 1.0 && docs.iter().any(|&d| self.holds_own(id, d))
            };
            if qt.terms.iter().any(holds) {
                held += idf;
            }
        }
        if total > 0.0 {
            held / total
        } else {
            0.0
        }
    }

    /// The query words (as typed) that occur in document `d`'s own fields (not only in its
    /// context), as in [`Hit::matched`].
    pub(crate) fn matched_words(&self, lexical: &LexicalScores, d: u32) -> Vec<String> {
        lexical
            .words
            .qterms
            .iter()
            .filter(|qt| qt.terms.iter().any(|&(id, _)| self.holds_own(id, d)))
            .map(|qt| qt.surface.clone())
            .collect()
    }
}

/// How one document matches a query's words, each share weighted by the words' IDF (so a
/// rare word found counts more than a common one): the generic signals the reranker
/// ([`super::rerank`]) reads beside the fused score.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MatchProfile {
    /// Share of the query words found in the document's name.
    pub name: f32,
    /// Share found as the same term in the document's own fields (name, text, tags).
    pub exact: f32,
    /// Share found in its own fields only through a prefix relative ("rent" for "rental").
    pub prefix: f32,
    /// The document's weighted length, as length normalisation saw it.
    pub len: f32,
}

impl Index {
    /// The [`MatchProfile`] of document `d` for the query `lexical` was scored for.
    pub(crate) fn match_profile(&self, lexical: &LexicalScores, d: u32) -> MatchProfile {
        let mut profile = MatchProfile {
            len: self.doc_len.get(d as usize).copied().unwrap_or(0.0),
            ..MatchProfile::default()
        };
        let names = match (
            self.name_starts.get(d as usize),
            self.name_starts.get(d as usize + 1),
        ) {
            (Some(&s), Some(&e)) => &self.name_terms[s as usize..e as usize],
            _ => &[],
        };
        let mut total = 0.0f32;
        for (qt, &idf) in lexical.words.qterms.iter().zip(&lexical.words.idfs) {
            let (mut exact, mut prefix, mut name) = (false, false, false);
            for &(id, factor) in &qt.terms {
                if self.holds_own(id, d) {
                    if factor >= 1.0 {
                        exact = true;
                    } else {
                        prefix = true;
                    }
                }
                name |= names.binary_search(&id).is_ok();
            }
            total += idf;
            profile.exact += if exact { idf } else { 0.0 };
            profile.prefix += if prefix && !exact { idf } else { 0.0 };
            profile.name += if name { idf } else { 0.0 };
        }
        if total > 0.0 {
            profile.exact /= total;
            profile.prefix /= total;
            profile.name /= total;
        }
        profile
    }

    /// Whether term `id` occurs in document `d`'s own fields (not only in its context).
    fn holds_own(&self, id: u32, d: u32) -> bool {
        let start = self.offsets[id as usize] as usize;
        self.postings(id)
            .0
            .binary_search(&d)
            .is_ok_and(|i| self.post_own.get(start + i).copied().unwrap_or(true))
    }
}

/// A lowercase surface word met while indexing.
#[derive(Debug, Clone, Copy)]
struct Word {
    /// Its term (None: a stop word).
    term: Option<u32>,
    /// Whether it occurs in some text or tag, not only in names.
    in_text: bool,
}

/// The term id of a lowercase surface piece (`None` for a stop word), memoised in `cache`.
fn lookup(
    piece: &str,
    in_text: bool,
    cache: &mut FastMap<String, Word>,
    terms: &mut FastMap<String, u32>,
) -> Option<u32> {
    if let Some(word) = cache.get_mut(piece) {
        word.in_text |= in_text;
        return word.term;
    }
    let term = normalize(piece).map(|term| intern(terms, &term));
    cache.insert(piece.to_string(), Word { term, in_text });
    term
}

/// Pass 1 of [`Index::with_options`]: every document's (term, weighted count) entries, unmerged,
/// in one flat array; document d's entries are `entries[starts[d]..starts[d + 1]]`, its name's
/// come first and end at `name_ends[d]`.
struct Analysis {
    terms: FastMap<String, u32>,
    /// Surface piece -> term id (None for a stop word). Stemming is the expensive step of the
    /// analysis, and a collection has far fewer distinct words than words.
    words: FastMap<String, Word>,
    entries: Vec<(u32, f32)>,
    starts: Vec<usize>,
    name_ends: Vec<usize>,
    doc_len: Vec<f32>,
    /// Long all-letter name words, candidates for compound splitting, with their term.
    name_words: FastMap<String, u32>,
    has_context: bool,
}

impl Analysis {
    fn of(docs: &[Document], options: &SearchOptions) -> Analysis {
        let mut a = Analysis {
            terms: FastMap::default(),
            words: FastMap::default(),
            entries: Vec::new(),
            starts: Vec::with_capacity(docs.len() + 1),
            name_ends: Vec::with_capacity(docs.len()),
            doc_len: Vec::with_capacity(docs.len()),
            name_words: FastMap::default(),
            has_context: false,
        };
        for doc in docs {
            a.starts.push(a.entries.len());
            let mut len = a.field(&doc.name, options.name_weight, true, options);
            a.name_ends.push(a.entries.len());
            len += a.field(&doc.text, 1.0, false, options);
            for tag in &doc.tags {
                len += a.field(tag, options.tag_weight, false, options);
            }
            len += a.context(&doc.context, options.context_weight);
            a.doc_len.push(len);
        }
        a.starts.push(a.entries.len());
        a
    }

    /// Enters one field's pieces at `weight` and returns the length they add; a field weighted
    /// 0 is not indexed.
    fn field(&mut self, text: &str, weight: f32, is_name: bool, options: &SearchOptions) -> f32 {
        if weight <= 0.0 {
            return 0.0;
        }
        let mut len = 0.0f32;
        for_each_piece(text, &mut |piece: &str| {
            let Some(id) = lookup(piece, !is_name, &mut self.words, &mut self.terms) else {
                return;
            };
            self.entries.push((id, weight));
            len += weight;
            if is_name
                && options.split_compound_names
                && piece.len() >= MIN_COMPOUND_LEN
                && is_ascii_word(piece)
                && !self.name_words.contains_key(piece)
            {
                self.name_words.insert(piece.to_string(), id);
            }
        });
        len
    }

    /// Every document's name terms and the parts of its run-together name words, sorted and
    /// deduplicated, as a flat list and each document's start in it (see [`Index::name_terms`]).
    fn name_terms(&self, parts_of: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
        let mut flat: Vec<u32> = Vec::new();
        let mut starts: Vec<u32> = Vec::with_capacity(self.name_ends.len() + 1);
        let mut one: Vec<u32> = Vec::new();
        for (d, &end) in self.name_ends.iter().enumerate() {
            starts.push(flat.len() as u32);
            one.clear();
            for &(id, _) in &self.entries[self.starts[d]..end] {
                one.push(id);
                one.extend_from_slice(&parts_of[id as usize]);
            }
            one.sort_unstable();
            one.dedup();
            flat.extend_from_slice(&one);
        }
        starts.push(flat.len() as u32);
        (flat, starts)
    }

    /// Context words count towards the same terms as text words, at their weight, but are
    /// entered negated so that the merge can tell whether the document's own fields hold a
    /// term (what [`Index::matched_words`] reports) or only its context.
    fn context(&mut self, context: &str, weight: f32) -> f32 {
        if weight <= 0.0 {
            return 0.0;
        }
        let mut len = 0.0f32;
        for_each_piece(context, &mut |piece: &str| {
            if let Some(id) = lookup(piece, true, &mut self.words, &mut self.terms) {
                self.entries.push((id, -weight));
                len += weight;
                self.has_context = true;
            }
        });
        len
    }
}

/// Pass 1b: run-together name words, segmented against the words of the texts and tags, as term
/// of the whole word -> terms of its parts. A name word that also occurs in a text is a word in
/// its own right ("broadway", "performance") and is left alone.
fn compound_parts(
    words: &FastMap<String, Word>,
    name_words: &FastMap<String, u32>,
    n_terms: usize,
) -> Vec<Vec<u32>> {
    let mut parts_of: Vec<Vec<u32>> = vec![Vec::new(); n_terms];
    if name_words.is_empty() {
        return parts_of;
    }
    let vocab: FastMap<&str, u32> = words
        .iter()
        .filter(|(word, w)| w.in_text && word.len() >= MIN_COMPOUND_PART && is_ascii_word(word))
        .filter_map(|(word, w)| w.term.map(|id| (word.as_str(), id)))
        .collect();
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for (word, &id) in name_words {
        if parts_of[id as usize].is_empty()
            && !vocab.contains_key(word.as_str())
            && segment(word, &vocab, &mut parts)
        {
            parts_of[id as usize] = parts
                .iter()
                .filter_map(|&(s, e)| vocab.get(&word[s..e]).copied())
                .collect();
        }
    }
    parts_of
}

/// Pass 2: each document's terms with compound parts added and duplicates merged, as (term,
/// weighted count, whether the document's own fields hold it); `df` counts documents per term.
struct Merged {
    merged: Vec<(u32, f32, bool)>,
    starts: Vec<usize>,
    df: Vec<u32>,
}

impl Merged {
    /// Consumes pass 1's entries; adds the compound parts' weight to `doc_len`.
    fn of(a: &mut Analysis, parts_of: &[Vec<u32>]) -> Merged {
        let n_docs = a.doc_len.len();
        let entries = std::mem::take(&mut a.entries);
        let mut m = Merged {
            merged: Vec::with_capacity(entries.len()),
            starts: Vec::with_capacity(n_docs + 1),
            df: vec![0u32; a.terms.len()],
        };
        let mut scratch: Vec<(u32, f32)> = Vec::new();
        for d in 0..n_docs {
            scratch.clear();
            scratch.extend_from_slice(&entries[a.starts[d]..a.starts[d + 1]]);
            for &(id, _) in &entries[a.starts[d]..a.name_ends[d]] {
                for &part in &parts_of[id as usize] {
                    scratch.push((part, COMPOUND_PART_WEIGHT));
                    a.doc_len[d] += COMPOUND_PART_WEIGHT;
                }
            }
            scratch.sort_unstable_by_key(|&(id, _)| id);
            m.push_document(&scratch);
        }
        m.starts.push(m.merged.len());
        m
    }

    /// Appends one document's sorted entries, merging runs of the same term.
    fn push_document(&mut self, sorted: &[(u32, f32)]) {
        let doc_start = self.merged.len();
        self.starts.push(doc_start);
        for &(id, tf) in sorted {
            let in_doc = self.merged.len() > doc_start;
            // Context entries are negated (pass 1).
            let own = tf > 0.0;
            match self.merged.last_mut() {
                Some(last) if in_doc && last.0 == id => {
                    last.1 += tf.abs();
                    last.2 |= own;
                }
                _ => {
                    self.merged.push((id, tf.abs(), own));
                    self.df[id as usize] += 1;
                }
            }
        }
    }
}

/// Pass 3: the postings laid out term by term (CSR) with their finished weights: offsets,
/// documents, weights, and (only when some document has context) whether each is the document's
/// own.
fn lay_out(
    m: &Merged,
    doc_len: &[f32],
    has_context: bool,
    n_terms: usize,
    options: &SearchOptions,
) -> (Vec<u32>, Vec<u32>, Vec<f32>, Vec<bool>) {
    let mut offsets = vec![0u32; n_terms + 1];
    for t in 0..n_terms {
        offsets[t + 1] = offsets[t] + m.df[t];
    }
    let total = m.merged.len();
    let mut post_docs = vec![0u32; total];
    let mut post_weights = vec![0f32; total];
    let mut post_own = if has_context {
        vec![true; total]
    } else {
        Vec::new()
    };
    let mut cursor: Vec<u32> = offsets[..n_terms].to_vec();
    let n = doc_len.len() as f32;
    let avg_len = doc_len.iter().sum::<f32>() / n.max(1.0);
    let avg_len = if avg_len > 0.0 { avg_len } else { 1.0 };
    let idf: Vec<f32> =
        m.df.iter()
            .map(|&df| bm25_idf(n, df as f32).powf(options.idf_power))
            .collect();
    let (k1, b) = (options.k1, options.b);
    // Documents are visited in order, so every posting list comes out sorted by document.
    for (d, &len) in doc_len.iter().enumerate() {
        let norm = k1 * (1.0 - b + b * len / avg_len);
        for &(id, tf, own) in &m.merged[m.starts[d]..m.starts[d + 1]] {
            let slot = cursor[id as usize] as usize;
            cursor[id as usize] += 1;
            post_docs[slot] = d as u32;
            if let Some(flag) = post_own.get_mut(slot) {
                *flag = own;
            }
            let saturation = if k1 == 0.0 {
                1.0
            } else {
                tf * (k1 + 1.0) / (tf + norm)
            };
            post_weights[slot] = idf[id as usize] * saturation;
        }
    }
    (offsets, post_docs, post_weights, post_own)
}

/// The id of `term`, adding it to the vocabulary when new.
fn intern(terms: &mut FastMap<String, u32>, term: &str) -> u32 {
    if let Some(&id) = terms.get(term) {
        return id;
    }
    let id = terms.len() as u32;
    terms.insert(term.to_string(), id);
    id
}

fn is_ascii_word(word: &str) -> bool {
    word.bytes().all(|b| b.is_ascii_lowercase())
}

/// Segments a run-together lowercase word into known words of at least [`MIN_COMPOUND_PART`]
/// letters, by dynamic programming that prefers long words (score = sum of squared lengths) and
/// may skip letters (misspellings, brand fragments). Writes the byte ranges of the words to
/// `parts` and returns `true` when at least two words cover at least half of `word`: a single
/// word found inside another is too weak a sign to index it as if the name said it.
fn segment<V>(word: &str, vocab: &FastMap<&str, V>, parts: &mut Vec<(usize, usize)>) -> bool {
    parts.clear();
    let n = word.len();
    if n > MAX_COMPOUND_LEN || !word.is_ascii() {
        return false;
    }
    // best[i]: (score, previous cut, whether word[prev..i] is a vocabulary word).
    let mut best: Vec<(usize, usize, bool)> = vec![(0, 0, false); n + 1];
    for i in 1..=n {
        best[i] = (best[i - 1].0, i - 1, false);
        for j in i.saturating_sub(MAX_COMPOUND_PART)..=i.saturating_sub(MIN_COMPOUND_PART) {
            let piece = &word[j..i];
            if piece.len() == n || !vocab.contains_key(piece) {
                continue;
            }
            let score = best[j].0 + piece.len() * piece.len();
            if score > best[i].0 {
                best[i] = (score, j, true);
            }
        }
    }
    let mut i = n;
    let mut covered = 0;
    while i > 0 {
        let (_, j, is_word) = best[i];
        if is_word {
            parts.push((j, i));
            covered += i - j;
        }
        i = j;
    }
    parts.reverse();
    parts.len() >= 2 && covered * 2 >= n
}

/// BM25's IDF of a term in `df` of `n` documents: `ln(1 + (n - df + 0.5) / (df + 0.5))`, always
/// positive. One formula for the index's weights, the reranker's word shares and the embedding's
/// token weights.
pub(crate) fn bm25_idf(n: f32, df: f32) -> f32 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab<'a>(words: &[&'a str]) -> FastMap<&'a str, ()> {
        words.iter().map(|w| (*w, ())).collect()
    }

    fn words<'a>(word: &'a str, parts: &[(usize, usize)]) -> Vec<&'a str> {
        parts.iter().map(|&(s, e)| &word[s..e]).collect()
    }

    #[test]
    fn segments_run_together_names() {
        let v = vocab(&[
            "stellar", "explorer", "car", "park", "explore", "air", "quality",
        ]);
        let mut parts = Vec::new();
        assert!(segment("stellarexplorer", &v, &mut parts));
        assert_eq!(words("stellarexplorer", &parts), ["stellar", "explorer"]);
        assert!(segment("hdbcarpark", &v, &mut parts));
        assert_eq!(words("hdbcarpark", &parts), ["car", "park"]);
        // A misspelt tail ("foreast") is skipped; the words before it still count.
        assert!(segment("airqualityforeast", &v, &mut parts));
        assert_eq!(words("airqualityforeast", &parts), ["air", "quality"]);
        assert!(
            !segment("explorer", &v, &mut parts),
            "a word is not split into itself"
        );
        assert!(!segment("xyzzyplugh", &v, &mut parts));
        assert!(
            !segment("carxxxxxxxxxpark", &v, &mut parts),
            "too little of it is known"
        );
    }

    /// A query is its distinct terms: a word said again, however far apart, counts once, and a
    /// query of many thousands of distinct words (any length reaches the core from the wire)
    /// still finds what one of them names. Before the set, 100,000 distinct words took 7 s
    /// natively (`docs/benchmarks.md`, robustness).
    #[test]
    fn a_query_counts_each_distinct_term_once() {
        let docs = vec![
            Document::new("", "Rotate the signing keys"),
            Document::new("", "Signing keys and more signing keys"),
        ];
        let index = Index::build(&docs);
        let once = index.search("rotate keys", 2);
        let mut noise: String = (0..20_000).map(|i| format!("zq{i} ")).collect();
        noise.insert_str(0, "rotate keys ");
        noise.push_str("keys rotate keys");
        let again = index.search(&noise, 2);
        assert_eq!(once.len(), 2);
        for (a, b) in once.iter().zip(&again) {
            assert_eq!((a.doc, a.score), (b.doc, b.score), "{once:?} {again:?}");
        }
    }

    #[test]
    fn compound_name_parts_are_searchable() {
        let docs = vec![
            Document::new("stellarexplorer", "Pictures of space from the rover."),
            Document::new("telescope", "A stellar catalogue."),
            Document::new("maps", "Explorer for maps."),
        ];
        let index = Index::build(&docs);
        let hits = index.search("stellar explorer", 3);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
    }

    #[test]
    fn context_words_find_a_document_but_are_not_its_matched_words() {
        let docs = vec![
            Document {
                context: "Set up Playwright for the todo app".into(),
                ..Document::new("", "Now write tests for it")
            },
            Document::new("", "Playwright tests are flaky on CI"),
            Document::new("", "Unrelated request about the build"),
        ];
        let index = Index::build(&docs);
        let hits = index.search("playwright", 5);
        let found: Vec<usize> = hits.iter().map(|h| h.doc).collect();
        assert_eq!(found, [1, 0], "own words first, then context: {hits:?}");
        assert_eq!(hits[0].matched, ["playwright"]);
        assert!(hits[1].matched.is_empty(), "{hits:?}");
        let both = index.search("playwright tests", 5);
        assert_eq!(both[1].doc, 0);
        assert_eq!(both[1].matched, ["tests"], "only the word of its own text");

        let ignored = Index::with_options(
            &docs,
            SearchOptions {
                context_weight: 0.0,
                ..SearchOptions::default()
            },
        );
        let found: Vec<usize> = ignored
            .search("playwright", 5)
            .iter()
            .map(|h| h.doc)
            .collect();
        assert_eq!(found, [1], "a context weighted 0 is not indexed");
    }

    #[test]
    fn weights_are_the_term_document_matrix() {
        let docs = vec![
            Document::new("", "weather forecast"),
            Document::new("", "stock prices"),
        ];
        let index = Index::build(&docs);
        assert!(index.weight("weather", 0) > 0.0);
        assert_eq!(index.weight("weather", 1), 0.0);
        assert_eq!(index.weight("nothing", 0), 0.0);
        assert_eq!(index.weight("weather", usize::MAX), 0.0);
        assert_eq!(index.document_frequency("price"), 1);
    }
}
