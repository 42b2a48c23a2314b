//! A learned reranker over the hybrid's first results ([`super::HybridIndex::search`]).
//!
//! Score fusion sees two numbers per document, the lexical score and the cosine. A few more,
//! all generic (nothing names a tool or a word), tell apart near-twins the fusion ties: how
//! close the query is to the *name* alone and to the description alone
//! ([`super::embed::FieldVectors`], kept only when there is a reranker), whether the query's words are in the name, how many of them
//! the document holds as themselves rather than through a prefix relative, how long it is, and
//! where each signal ranks it among the candidates. A model over those (a [`Forest`] of
//! regression trees) reorders the first [`Reranker::depth`] fused results; the rest keep their
//! order behind them.
//!
//! The forest is LambdaRank (each query's candidates one group, fitted so the right document
//! comes first) fitted on half A of the MetaTool dev queries only, by
//! `scripts/rerank/fit_trees.py` from the features `examples/eval_retrieval.rs --dump-features`
//! writes; half B is reported (`docs/benchmarks.md`, "Issue 26, third pass" for the features,
//! "seventh pass" for the trees).

use std::sync::OnceLock;

use super::hybrid::continue_below;
use super::index::MatchProfile;
use super::HybridHit;

/// Number of features per candidate.
pub const FEATURES: usize = 14;

/// The features' names, in order (the columns `eval_retrieval --dump-features` writes).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "fused",
    "lexical",
    "semantic",
    "cosine",
    "fused_rank",
    "lexical_rank",
    "semantic_rank",
    "name",
    "exact",
    "prefix",
    "all_words",
    "log_len_vs_median",
    "name_cosine_share",
    "text_cosine_share",
];

/// What the reranker reads about a candidate besides its [`HybridHit`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Profile {
    /// How the query's words are found in it.
    pub lexical: MatchProfile,
    /// The query's cosine with its name alone.
    pub name_cosine: f32,
    /// The query's cosine with its text alone.
    pub text_cosine: f32,
}

/// A reranker: the first [`Reranker::depth`] fused results reordered by a forest's score of
/// their features (in the order of [`FEATURE_NAMES`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reranker {
    /// How many of the fused results are reordered.
    pub depth: usize,
    /// The model.
    pub model: &'static Forest,
}

impl Reranker {
    /// The reranker of tool search ([`super::HybridOptions::default`]): the committed forest
    /// (`assets/tool-rerank.json`) over the first 20. `None` only if that file did not parse,
    /// which `the_committed_forest_parses` rules out.
    pub fn tools() -> Option<Reranker> {
        static FOREST: OnceLock<Option<Forest>> = OnceLock::new();
        FOREST
            .get_or_init(|| Forest::from_json(include_str!("../../assets/tool-rerank.json")).ok())
            .as_ref()
            .map(|model| Reranker { depth: 20, model })
    }

    /// Reorders `hits` (fused order, best first) by the model, each hit's score becoming the
    /// logistic of its model score, and keeps `limit`. Hits beyond the depth keep their order,
    /// their fused scores scaled to continue below the last reranked one, so that scores still
    /// fall down the list.
    pub(crate) fn apply(&self, hits: &mut Vec<HybridHit>, profiles: &[Profile], limit: usize) {
        let n = hits.len().min(self.depth).min(profiles.len());
        let features = features(&hits[..n], &profiles[..n]);
        let mut scores = vec![0.0; features.len()];
        self.model.score_all(&features, &mut scores);
        reorder(hits, &scores);
        hits.truncate(limit);
    }
}

/// Reorders the first `scores.len()` of `hits` by their model scores (ties: the order they were
/// in), each hit's score becoming the logistic of its model score; the hits after them keep
/// their order, their scores scaled to continue below the last reordered one, so that scores
/// still fall down the list.
pub(crate) fn reorder(hits: &mut Vec<HybridHit>, scores: &[f32]) {
    let n = scores.len().min(hits.len());
    let mut order: Vec<(f32, usize)> = scores[..n].iter().copied().zip(0..).collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut head: Vec<HybridHit> = order
        .iter()
        .map(|&(score, i)| HybridHit {
            score: 1.0 / (1.0 + (-score).exp()),
            ..hits[i].clone()
        })
        .collect();
    let last = head.last().map_or(0.0, |h| h.score);
    let boundary = n
        .checked_sub(1)
        .and_then(|i| hits.get(i))
        .map_or(0.0, |h| h.score);
    head.extend(hits.drain(n..));
    continue_below(&mut head[n..], boundary, last);
    *hits = head;
}

/// Why a forest file was refused ([`Forest::from_json`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ForestError {
    /// Not JSON of the expected shape.
    #[error("not a forest: {0}")]
    Json(String),
    /// Another format, or another version of this one.
    #[error("format {0:?}, expected {FOREST_FORMAT:?}")]
    Format(String),
    /// Fitted on other features than this build computes: its splits would read the wrong ones.
    #[error("fitted on features {found:?}, this build computes {expected:?}")]
    Features {
        found: Vec<String>,
        expected: Vec<String>,
    },
    /// Trees deeper than [`MAX_DEPTH`] (or of no depth).
    #[error("trees of depth {0}, expected 1 to {MAX_DEPTH}")]
    Depth(u32),
    /// A tree whose arrays are not a complete tree of the declared depth.
    #[error("tree {tree}: {why}")]
    Tree { tree: usize, why: &'static str },
}

/// The `format` a forest file declares.
pub const FOREST_FORMAT: &str = "secretary-forest-2";

/// The deepest trees a forest file may have (a tree of depth `d` is `2^d - 1` splits).
pub const MAX_DEPTH: u32 = 8;

/// A forest of regression trees: a candidate's score is the sum of the leaf each tree sends
/// its features to. Gradient-boosted (LambdaRank) by `scripts/rerank/fit_trees.py`, which
/// writes LightGBM's trees made complete to one depth (a leaf above the bottom becomes splits
/// that always go left, over copies of its value).
///
/// Why trees rather than the weighted sum of features and their products that came before
/// (`docs/benchmarks.md`, "Issue 26, seventh pass"): what the features mean depends on one
/// another by thresholds ("the name cosine matters when no query word is in the name"), which
/// trees cut directly; on the same folds of MetaTool's dev half A they put the right tool in
/// the first five for more of the queries. Why complete trees: every walk is then `depth`
/// steps of arithmetic, with no branch on the data to mispredict; walking LightGBM's uneven
/// trees node by node cost about four times as much per query.
#[derive(Clone, PartialEq)]
pub struct Forest {
    /// How many features a candidate has (the names it was read with).
    width: usize,
    /// Every tree's depth.
    depth: u32,
    /// Every tree's `2^depth - 1` splits in breadth-first order (split `i`'s children are
    /// `2i + 1` and `2i + 2`), one tree after the other.
    splits: Vec<Split>,
    /// Every tree's `2^depth` leaf values, left to right, one tree after the other.
    leaves: Vec<f32>,
}

impl std::fmt::Debug for Forest {
    /// A summary: thousands of splits would flood any log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forest")
            .field("trees", &self.len())
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

/// A split: features at or below the threshold go left.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Split {
    threshold: f32,
    feature: u8,
}

/// The file as written by the fit script.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ForestFile {
    format: String,
    features: Vec<String>,
    depth: u32,
    trees: Vec<TreeFile>,
}

/// One complete tree: its splits' features and thresholds, then its leaves.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeFile {
    feature: Vec<u32>,
    threshold: Vec<f64>,
    leaf: Vec<f64>,
}

impl Forest {
    /// Reads and checks a forest of tool search's reranker ([`FEATURE_NAMES`]).
    pub fn from_json(text: &str) -> Result<Forest, ForestError> {
        Forest::parse(text, &FEATURE_NAMES)
    }

    /// Reads and checks a forest file fitted on the features `names`: its features must be
    /// those, in order, and every tree complete to the declared depth (so scoring needs no
    /// further checks).
    pub fn parse(text: &str, names: &[&str]) -> Result<Forest, ForestError> {
        let file: ForestFile =
            serde_json::from_str(text).map_err(|e| ForestError::Json(e.to_string()))?;
        if file.format != FOREST_FORMAT {
            return Err(ForestError::Format(file.format));
        }
        if file
            .features
            .iter()
            .map(String::as_str)
            .ne(names.iter().copied())
        {
            return Err(ForestError::Features {
                found: file.features,
                expected: names.iter().map(|n| n.to_string()).collect(),
            });
        }
        if !(1..=MAX_DEPTH).contains(&file.depth) {
            return Err(ForestError::Depth(file.depth));
        }
        let bottom = 1usize << file.depth;
        let mut forest = Forest {
            width: names.len(),
            depth: file.depth,
            splits: Vec::with_capacity(file.trees.len() * (bottom - 1)),
            leaves: Vec::with_capacity(file.trees.len() * bottom),
        };
        for (tree, t) in file.trees.into_iter().enumerate() {
            forest
                .push(t, bottom)
                .map_err(|why| ForestError::Tree { tree, why })?;
        }
        Ok(forest)
    }

    /// Checks one tree of `bottom` leaves and appends it.
    fn push(&mut self, t: TreeFile, bottom: usize) -> Result<(), &'static str> {
        if t.feature.len() != bottom - 1 || t.threshold.len() != bottom - 1 {
            return Err("not 2^depth - 1 splits");
        }
        if t.leaf.len() != bottom {
            return Err("not 2^depth leaves");
        }
        if t.feature.iter().any(|&f| f as usize >= self.width) {
            return Err("a split on a feature this build does not have");
        }
        // An infinite leaf would make some sums NaN, and NaN scores do not fall down a list.
        if t.leaf.iter().any(|&v| !(v as f32).is_finite()) {
            return Err("a leaf value that is not a finite f32");
        }
        self.splits
            .extend(t.feature.iter().zip(&t.threshold).map(|(&f, &t)| Split {
                threshold: t as f32,
                feature: f as u8,
            }));
        self.leaves.extend(t.leaf.iter().map(|&v| v as f32));
        Ok(())
    }

    /// The model's score for one candidate's features (higher is better): the sum over the
    /// trees of the leaf each sends them to.
    pub fn score<const N: usize>(&self, features: &[f32; N]) -> f32 {
        let mut out = [0.0];
        self.score_all(std::slice::from_ref(features), &mut out);
        out[0]
    }

    /// [`Forest::score`] of every candidate of `features` into `out` (parallel; the extra
    /// entries of the longer one are left alone). Tree by tree, the candidates walk down one
    /// level at a time together: their walks do not wait on one another, so the processor
    /// overlaps them. A forest read for another number of features scores every candidate 0.
    pub fn score_all<const N: usize>(&self, features: &[[f32; N]], out: &mut [f32]) {
        const BATCH: usize = 32;
        if N != self.width {
            out.iter_mut().for_each(|o| *o = 0.0);
            return;
        }
        let bottom = 1usize << self.depth;
        let n = features.len().min(out.len());
        let (features, out) = (&features[..n], &mut out[..n]);
        for (features, out) in features.chunks(BATCH).zip(out.chunks_mut(BATCH)) {
            out.iter_mut().for_each(|o| *o = 0.0);
            let mut at = [0usize; BATCH];
            for (splits, leaves) in self
                .splits
                .chunks_exact(bottom - 1)
                .zip(self.leaves.chunks_exact(bottom))
            {
                let at = &mut at[..features.len()];
                at.iter_mut().for_each(|a| *a = 0);
                for _ in 0..self.depth {
                    for (a, f) in at.iter_mut().zip(features) {
                        let split = splits[*a];
                        let right = f[split.feature as usize] > split.threshold;
                        *a = 2 * *a + 1 + usize::from(right);
                    }
                }
                for (o, &a) in out.iter_mut().zip(at.iter()) {
                    *o += leaves[a + 1 - bottom];
                }
            }
        }
    }

    /// A forest of no trees: every candidate scores 0, so the fused order stays (what
    /// `--dump-features` ranks with: a reranker that keeps the order but has the field vectors
    /// built).
    pub fn none() -> &'static Forest {
        static NONE: Forest = Forest {
            width: FEATURES,
            depth: 1,
            splits: Vec::new(),
            leaves: Vec::new(),
        };
        &NONE
    }

    /// How many trees it has.
    pub fn len(&self) -> usize {
        self.leaves.len() >> self.depth
    }

    /// `true` for a forest of no trees (every score 0).
    pub fn is_empty(&self) -> bool {
        self.leaves.is_empty()
    }
}

/// The features of the candidates `hits` (fused order, best first), with each one's
/// [`Profile`] (parallel).
pub(crate) fn features(hits: &[HybridHit], profiles: &[Profile]) -> Vec<[f32; FEATURES]> {
    let top = hits.first().map_or(0.0, |h| h.score);
    let best_cosine = hits.iter().map(|h| h.semantic).fold(0f32, f32::max);
    let lexical_rank = ranks(hits, |h| h.lexical);
    let semantic_rank = ranks(hits, |h| h.semantic);
    let share = |x: f32, max: f32| if max > 0.0 { x / max } else { 0.0 };
    // Relative to the other candidates, not absolute: a catalog's descriptions may be one line
    // (MetaTool, which the model was fitted on) or a page (VS Code's own tools), and a model
    // that read absolute lengths and cosines ranked well on the first and badly on the second
    // (`docs/benchmarks.md`, "Issue 26, seventh pass").
    let log_len = |p: &Profile| (1.0 + p.lexical.len).ln();
    let median_log_len = median(profiles.iter().map(log_len).collect());
    let best_name = profiles
        .iter()
        .map(|p| p.name_cosine)
        .fold(f32::MIN, f32::max);
    let best_text = profiles
        .iter()
        .map(|p| p.text_cosine)
        .fold(f32::MIN, f32::max);
    hits.iter()
        .zip(profiles)
        .enumerate()
        .map(|(i, (h, profile))| {
            let p = &profile.lexical;
            [
                share(h.score, top),
                h.lexical,
                share(h.semantic.max(0.0), best_cosine),
                h.semantic,
                1.0 / (1.0 + i as f32),
                1.0 / (1.0 + lexical_rank[i] as f32),
                1.0 / (1.0 + semantic_rank[i] as f32),
                p.name,
                p.exact,
                p.prefix,
                if p.exact + p.prefix >= 0.999 {
                    1.0
                } else {
                    0.0
                },
                log_len(profile) - median_log_len,
                share(profile.name_cosine, best_name),
                share(profile.text_cosine, best_text),
            ]
        })
        .collect()
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
pub(crate) fn median(mut values: Vec<f32>) -> f32 {
    values.sort_by(f32::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Each hit's rank (0 = best) by `key` among `hits`; ties keep the fused order.
pub(crate) fn ranks(hits: &[HybridHit], key: impl Fn(&HybridHit) -> f32) -> Vec<usize> {
    let mut order: Vec<usize> = (0..hits.len()).collect();
    order.sort_by(|&a, &b| key(&hits[b]).total_cmp(&key(&hits[a])).then(a.cmp(&b)));
    let mut rank = vec![0; hits.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    rank
}

/// A forest file fitted on the features `names`, of `trees` (JSON objects, comma-separated) of
/// depth `depth`: what the tests of both rerankers parse.
#[cfg(test)]
pub(crate) fn forest_json(names: &[&str], depth: u32, trees: &str) -> String {
    let names = serde_json::to_string(names).unwrap_or_default();
    format!(
        r#"{{"format":"{FOREST_FORMAT}","features":{names},"depth":{depth},"trees":[{trees}]}}"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Document, HybridIndex, HybridOptions};

    /// A forest of one stump: `feature` above `threshold` scores `high`, else `low`.
    fn stump(feature: &str, threshold: f64, low: f64, high: f64) -> String {
        let at = FEATURE_NAMES
            .iter()
            .position(|n| *n == feature)
            .unwrap_or(0);
        forest(
            1,
            &format!(r#"{{"feature":[{at}],"threshold":[{threshold}],"leaf":[{low},{high}]}}"#),
        )
    }

    /// A forest file of `depth` with the trees `trees` (JSON objects, comma-separated).
    fn forest(depth: u32, trees: &str) -> String {
        forest_json(&FEATURE_NAMES, depth, trees)
    }

    fn leaked(text: &str) -> &'static Forest {
        Box::leak(Box::new(Forest::from_json(text).expect("a valid forest")))
    }

    #[test]
    fn the_committed_forest_parses() {
        let tools = Reranker::tools().expect("assets/tool-rerank.json parses");
        assert!(tools.model.len() >= 50, "{} trees", tools.model.len());
        assert_eq!(tools.depth, 20);
    }

    #[test]
    fn trees_are_walked_breadth_first_to_their_leaves() {
        // Depth 2. Tree 1: root on `name` (0.5); left child on `exact` (0.25), right child a
        // padded leaf (threshold 1e30: always left, both leaves 2.0). Tree 2 the same shape
        // with other leaves.
        let (name, exact) = (7, 8);
        assert_eq!(
            (FEATURE_NAMES[name], FEATURE_NAMES[exact]),
            ("name", "exact")
        );
        let text = forest(
            2,
            &format!(
                r#"{{"feature":[{name},{exact},0],"threshold":[0.5,0.25,1e30],"leaf":[-1.0,0.5,2.0,2.0]}},
                   {{"feature":[{name},0,{exact}],"threshold":[0.5,1e30,0.75],"leaf":[0.125,0.125,1.0,4.0]}}"#
            ),
        );
        let forest = Forest::from_json(&text).expect("valid");
        assert_eq!(forest.len(), 2);
        let mut f = [0f32; FEATURES];
        assert_eq!(forest.score(&f), -1.0 + 0.125);
        f[exact] = 0.5; // right of 0.25, left of 0.75
        assert_eq!(forest.score(&f), 0.5 + 0.125);
        f[name] = 0.5; // at the threshold: still left
        assert_eq!(forest.score(&f), 0.5 + 0.125);
        f[name] = 0.9;
        assert_eq!(forest.score(&f), 2.0 + 1.0);
        f[exact] = 1.0;
        assert_eq!(forest.score(&f), 2.0 + 4.0);
    }

    #[test]
    fn a_forest_that_is_not_complete_trees_is_refused() {
        let tree = |depth: u32, body: &str| Forest::from_json(&forest(depth, body));
        let short = tree(2, r#"{"feature":[0],"threshold":[0],"leaf":[0,0]}"#);
        assert!(
            matches!(short, Err(ForestError::Tree { tree: 0, .. })),
            "{short:?}"
        );
        let leaves = tree(1, r#"{"feature":[0],"threshold":[0],"leaf":[0,0,0]}"#);
        assert!(matches!(leaves, Err(ForestError::Tree { .. })));
        let feature_out = tree(
            1,
            &format!(r#"{{"feature":[{FEATURES}],"threshold":[0],"leaf":[0,0]}}"#),
        );
        assert!(matches!(feature_out, Err(ForestError::Tree { .. })));
        let huge = tree(40, "");
        assert_eq!(huge, Err(ForestError::Depth(40)));
        assert_eq!(tree(0, ""), Err(ForestError::Depth(0)));
        let other = Forest::from_json(r#"{"format":"x","features":[],"depth":1,"trees":[]}"#);
        assert_eq!(other, Err(ForestError::Format("x".into())));
        let stale = Forest::from_json(&format!(
            r#"{{"format":"{FOREST_FORMAT}","features":["fused"],"depth":1,"trees":[]}}"#
        ));
        assert!(matches!(stale, Err(ForestError::Features { .. })));
        assert!(matches!(Forest::from_json("{"), Err(ForestError::Json(_))));
        assert_eq!(Forest::none().score(&[1.0; FEATURES]), 0.0);
        let infinite = tree(1, r#"{"feature":[0],"threshold":[0],"leaf":[1e300,0]}"#);
        assert!(
            matches!(infinite, Err(ForestError::Tree { .. })),
            "{infinite:?}"
        );
    }

    #[test]
    fn scoring_many_candidates_matches_scoring_each_and_leaves_extra_outputs_alone() {
        let forest = leaked(&stump("name", 0.5, -1.0, 1.0));
        let name = FEATURE_NAMES.iter().position(|n| *n == "name").unwrap_or(0);
        // 70 candidates: more than one batch of the walk.
        let features: Vec<[f32; FEATURES]> = (0..70)
            .map(|i| {
                let mut f = [0f32; FEATURES];
                f[name] = (i % 3) as f32 * 0.4;
                f
            })
            .collect();
        let mut out = vec![9.0; 75];
        forest.score_all(&features, &mut out);
        for (i, f) in features.iter().enumerate() {
            assert_eq!(out[i], forest.score(f), "candidate {i}");
        }
        assert!(out[70..].iter().all(|&o| o == 9.0), "{:?}", &out[70..]);
        let mut short = vec![9.0; 3];
        forest.score_all(&features, &mut short);
        assert_eq!(short, vec![-1.0, -1.0, 1.0]);
    }

    /// The same two tools ranked with a model that likes the query's words in the name and with
    /// one that dislikes them: the order must follow the model, whatever the fusion said.
    #[test]
    fn the_model_decides_the_order_of_the_first_results() {
        let docs = vec![
            Document::new(
                "forecast_hub",
                "Weather reports, weather maps and weather alerts.",
            ),
            Document::new("weather", "Reports for places."),
        ];
        let first = |model: &'static Forest| {
            let options = HybridOptions {
                rerank: Some(Reranker { depth: 20, model }),
                ..HybridOptions::default()
            };
            let hits = HybridIndex::with_options(&docs, options).search("weather", 2);
            assert_eq!(hits.len(), 2);
            assert!(hits[0].score >= hits[1].score, "scores fall down the list");
            hits[0].doc
        };
        let likes = leaked(&stump("name", 0.0, 0.0, 1.0));
        let dislikes = leaked(&stump("name", 0.0, 0.0, -1.0));
        assert_eq!(first(likes), 1, "the name holds the query word");
        assert_eq!(first(dislikes), 0);
    }

    #[test]
    fn scores_fall_past_the_reranked_depth() {
        let docs: Vec<Document> = (0..30)
            .map(|i| Document::new(format!("tool{i}"), format!("weather {}", "x ".repeat(i))))
            .collect();
        let hits = HybridIndex::build(&docs).search("weather", 30);
        assert_eq!(hits.len(), 30);
        for pair in hits.windows(2) {
            assert!(pair[0].score >= pair[1].score, "{hits:?}");
        }
    }

    #[test]
    fn features_tell_name_text_and_prefix_matches_apart() {
        let docs = vec![
            Document::new("rental_finder", "Find flats to rent in any city."),
            Document::new("city_guide", "Museums and parks of a city."),
        ];
        let options = HybridOptions {
            rerank: Some(Reranker {
                depth: 20,
                model: Forest::none(),
            }),
            ..HybridOptions::default()
        };
        let index = HybridIndex::with_options(&docs, options);
        let at = |name: &str| FEATURE_NAMES.iter().position(|n| *n == name).unwrap_or(0);
        let hits = index.candidates("rental flats", 2);
        let (_, f) = hits
            .iter()
            .find(|(h, _)| h.doc == 0)
            .expect("the rental tool is a candidate");
        assert!(f[at("name")] > 0.0, "rental is in the name: {f:?}");
        assert!(
            (f[at("exact")] - 1.0).abs() < 1e-6,
            "both words in the tool: {f:?}"
        );
        assert_eq!(f[at("all_words")], 1.0);
        assert!(f[at("name_cosine_share")] > 0.0 && f[at("text_cosine_share")] > 0.0);
        let hits = index.candidates("parks", 2);
        let (_, f) = &hits[0];
        assert_eq!(hits[0].0.doc, 1);
        assert_eq!(f[at("name")], 0.0, "parks is only in the text");
        assert_eq!(f[at("exact")], 1.0);
    }

    /// Length and field cosines are read against the other candidates, so a catalog of long
    /// descriptions (VS Code's own tools) looks to the model like one of short ones: the same
    /// tools with every description ten times longer get the same relative features.
    #[test]
    fn length_and_field_cosines_are_relative_to_the_other_candidates() {
        let tools = [
            (
                "weather_now",
                "Current weather and the forecast for a city.",
            ),
            (
                "weather_alerts",
                "Storm and heat warnings for a region, with maps.",
            ),
            ("city_guide", "Museums, parks and weather tips for a city."),
        ];
        let options = HybridOptions {
            rerank: Some(Reranker {
                depth: 20,
                model: Forest::none(),
            }),
            ..HybridOptions::default()
        };
        let at = |name: &str| FEATURE_NAMES.iter().position(|n| *n == name).unwrap_or(0);
        let relative = |times: usize| {
            let docs: Vec<Document> = tools
                .iter()
                .map(|(n, d)| Document::new(*n, vec![*d; times].join(" ")))
                .collect();
            let mut hits = HybridIndex::with_options(&docs, options.clone())
                .candidates("weather forecast for a city", 3);
            hits.sort_by_key(|(h, _)| h.doc);
            hits.iter()
                .map(|(_, f)| [f[at("log_len_vs_median")], f[at("text_cosine_share")]])
                .collect::<Vec<_>>()
        };
        let (short, long) = (relative(1), relative(10));
        assert_eq!(short.len(), 3, "{short:?}");
        // The median candidate's length is the reference; the best text cosine is 1.
        assert!(short.iter().any(|f| f[0] == 0.0), "{short:?}");
        assert!(short.iter().any(|f| (f[1] - 1.0).abs() < 1e-6), "{short:?}");
        // Absolute log lengths would all move by about ln 10 = 2.3; relative ones stay within
        // a fraction of that (log(1 + length) is not quite scale-free), and the shares equal.
        for (s, l) in short.iter().zip(&long) {
            assert!((s[0] - l[0]).abs() < 0.3, "length: {short:?} / {long:?}");
            assert!(
                (s[1] - l[1]).abs() < 1e-3,
                "text share: {short:?} / {long:?}"
            );
        }
    }

    #[test]
    fn field_vectors_survive_an_incremental_rebuild() {
        let docs = vec![
            Document::new("weather", "Forecasts and alerts."),
            Document::new("flights", "Book a flight."),
        ];
        let index = HybridIndex::build(&docs);
        let mut grown = docs.clone();
        grown.push(Document::new("hotels", "Rooms to book."));
        let rebuilt = HybridIndex::rebuild(&index, &grown, &[Some(0), Some(1), None]);
        let at = |name: &str| FEATURE_NAMES.iter().position(|n| *n == name).unwrap_or(0);
        let features = |ix: &HybridIndex| {
            let mut v = ix.candidates("book a flight", 3);
            v.sort_by_key(|(h, _)| h.doc);
            v.iter()
                .map(|(h, f)| {
                    (
                        h.doc,
                        f[at("name_cosine_share")],
                        f[at("text_cosine_share")],
                    )
                })
                .collect::<Vec<_>>()
        };
        let got = features(&rebuilt);
        let added = got.iter().find(|&&(d, _, _)| d == 2);
        assert!(
            added.is_some_and(|&(_, n, t)| n > 0.0 && t > 0.0),
            "the new tool is embedded by field: {got:?}"
        );
        // Token weights stay the first build's, so compare the reused rows with the first index.
        for (doc, n, t) in got.into_iter().filter(|&(d, _, _)| d < 2) {
            let before = features(&index)
                .into_iter()
                .find(|&(d, _, _)| d == doc)
                .map(|(_, n, t)| (n, t));
            assert_eq!(before, Some((n, t)), "doc {doc}");
        }
    }
}
