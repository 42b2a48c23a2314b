//! A learned reranker over the hybrid's first results ([`super::HybridIndex::search`]).
//!
//! Score fusion sees two numbers per document, the lexical score and the cosine. A few more,
//! all generic (nothing names a tool or a word), tell apart near-twins the fusion ties: how
//! close the query is to the *name* alone and to the description alone
//! ([`super::embed::FieldVectors`], kept only when there is a reranker), whether the query's words are in the name, how many of them
//! the document holds as themselves rather than through a prefix relative, how long it is, and
//! where each signal ranks it among the candidates. A model over those ([`Reranker::weights`]:
//! linear, or linear plus every product of two features) reorders the first
//! [`Reranker::depth`] fused results; the rest keep their order behind them.
//!
//! The weights are a conditional logit (the softmax over one query's candidates of the model's
//! score, fitted so the right document gets the mass) fitted on half A of the MetaTool dev
//! queries only, by `scripts/rerank/fit.py` from the features `examples/eval_retrieval.rs
//! --dump-features` writes; half B is reported (`docs/benchmarks.md`, "Issue 26, third pass").

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
    "log_len",
    "name_cosine",
    "text_cosine",
];

/// Number of weights of a model with every product of two features: the features, then the
/// products `f[i] * f[j]` for `i <= j` in order (`(0,0), (0,1), ..., (1,1), ...`).
pub const QUADRATIC: usize = FEATURES + FEATURES * (FEATURES + 1) / 2;

/// A reranker: a candidate's score is its features (in the order of [`FEATURE_NAMES`]), then,
/// with [`QUADRATIC`] weights, their products two by two, dotted with `weights`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reranker {
    /// How many of the fused results are reordered.
    pub depth: usize,
    /// [`FEATURES`] weights (linear) or [`QUADRATIC`] (with the products); weights beyond
    /// either count are ignored.
    pub weights: &'static [f32],
}

impl Reranker {
    /// The reranker of tool search ([`super::HybridOptions::default`]): quadratic, over the
    /// first 20, fitted on half A of the MetaTool dev queries (L2 penalty 1e-4, both chosen by
    /// cross-validation inside half A).
    pub const TOOLS: Reranker = Reranker {
        depth: 20,
        weights: &TOOL_WEIGHTS,
    };

    /// The score of one candidate's features.
    pub fn score(&self, features: &[f32; FEATURES]) -> f32 {
        let (linear, pairs) = self.weights.split_at(self.weights.len().min(FEATURES));
        let mut score: f32 = features.iter().zip(linear).map(|(f, w)| f * w).sum();
        let mut w = pairs.iter();
        for i in 0..FEATURES {
            for j in i..FEATURES {
                match w.next() {
                    Some(w) => score += w * features[i] * features[j],
                    None => return score,
                }
            }
        }
        score
    }

    /// Reorders `hits` (fused order, best first) by the model, each hit's score becoming the
    /// logistic of its model score, and keeps `limit`. Hits beyond the depth keep their order,
    /// their fused scores scaled to continue below the last reranked one, so that scores still
    /// fall down the list.
    pub(crate) fn apply(
        &self,
        hits: &mut Vec<HybridHit>,
        profiles: &[(MatchProfile, (f32, f32))],
        limit: usize,
    ) {
        let n = hits.len().min(self.depth).min(profiles.len());
        let features = features(&hits[..n], &profiles[..n]);
        let mut order: Vec<(f32, usize)> = features
            .iter()
            .enumerate()
            .map(|(i, f)| (self.score(f), i))
            .collect();
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
        head.truncate(limit);
        *hits = head;
    }
}

/// Comma-separated weights as `scripts/rerank/fit.py` prints them, checked to be [`FEATURES`]
/// or [`QUADRATIC`] numbers: what the eval examples' `--rerank-weights` measures.
pub fn parse_weights(text: &str) -> Result<Vec<f32>, String> {
    let numbers: Vec<f32> = text
        .split(',')
        .map(|x| x.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--rerank-weights: {e}"))?;
    if numbers.len() != FEATURES && numbers.len() != QUADRATIC {
        return Err(format!(
            "--rerank-weights: need {FEATURES} or {QUADRATIC} numbers, got {}",
            numbers.len()
        ));
    }
    Ok(numbers)
}

/// [`Reranker::TOOLS`]'s weights, as `scripts/rerank/fit.py` printed them.
#[rustfmt::skip]
const TOOL_WEIGHTS: [f32; QUADRATIC] = [
    2.2563, 4.3636, 1.2812, 1.0318, 0.7714, 0.5614, 1.4754, 0.7716, -0.1390, -0.9863, -0.2552,
    -5.0999, 1.3189, 2.2018, -0.3376, -0.1121, 0.2839, 0.3590, -1.1961, -0.7396, -0.8190, 0.2547,
    -0.7251, -0.3511, 0.0114, -0.0421, 1.7019, 0.7922, 0.0186, 1.1778, 0.1969, -0.6259, -0.0801,
    -0.4893, 0.9355, 0.8082, 0.2129, -0.0505, -1.2830, -0.9398, 1.0366, -0.1887, 0.1960, -0.2156,
    -0.2391, -0.3953, -0.2434, 0.1492, -0.3320, -0.2331, 0.4704, 1.1661, 0.6805, -0.3395, -0.0185,
    -0.1121, 0.2670, -0.5479, 0.6195, -0.0802, 0.3584, -3.0775, -1.2327, 0.2613, -0.3745, 0.9675,
    -0.8985, -0.8246, 0.6897, 1.2298, 0.2938, 0.5289, -0.2748, 0.2502, 0.0809, 0.4257, -0.0779,
    0.2142, -0.0126, 0.1905, -0.1196, -2.0695, 0.7686, 0.0777, -0.6231, 0.6305, 0.4581, 0.0224,
    0.1132, -0.5172, -0.3868, -1.8776, 1.0380, 0.3785, 1.1711, -0.5435, -0.2633, -0.3838, -0.8116,
    0.3667, -0.2978, 0.2833, -1.0890, 0.4873, -0.1094, 0.0426, 0.1255, -0.2997, 0.0230, -0.2552,
    -0.1183, 0.5049, 0.1229, 1.0261, 0.8994, 0.8253, 3.2278, -2.0068, 0.9493,
];

/// The features of the candidates `hits` (fused order, best first), with each one's
/// [`MatchProfile`] and the query's cosines with its name and its text (parallel).
pub(crate) fn features(
    hits: &[HybridHit],
    profiles: &[(MatchProfile, (f32, f32))],
) -> Vec<[f32; FEATURES]> {
    let top = hits.first().map_or(0.0, |h| h.score);
    let best_cosine = hits.iter().map(|h| h.semantic).fold(0f32, f32::max);
    let lexical_rank = ranks(hits, |h| h.lexical);
    let semantic_rank = ranks(hits, |h| h.semantic);
    let share = |x: f32, max: f32| if max > 0.0 { x / max } else { 0.0 };
    hits.iter()
        .zip(profiles)
        .enumerate()
        .map(|(i, (h, (p, (name_cosine, text_cosine))))| {
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
                (1.0 + p.len).ln(),
                *name_cosine,
                *text_cosine,
            ]
        })
        .collect()
}

/// Each hit's rank (0 = best) by `key` among `hits`; ties keep the fused order.
fn ranks(hits: &[HybridHit], key: impl Fn(&HybridHit) -> f32) -> Vec<usize> {
    let mut order: Vec<usize> = (0..hits.len()).collect();
    order.sort_by(|&a, &b| key(&hits[b]).total_cmp(&key(&hits[a])).then(a.cmp(&b)));
    let mut rank = vec![0; hits.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Document, HybridIndex, HybridOptions};

    /// Weights that read one feature (linear) or one product (quadratic) only.
    fn only(at: usize, value: f32) -> &'static [f32] {
        let mut w = vec![0f32; QUADRATIC];
        w[at] = value;
        Box::leak(w.into_boxed_slice())
    }

    #[test]
    fn weights_are_read_as_the_fit_script_prints_them() {
        let linear = vec!["0.5"; FEATURES].join(", ");
        assert_eq!(parse_weights(&linear), Ok(vec![0.5; FEATURES]));
        assert!(parse_weights("1,2,3").is_err_and(|e| e.contains("got 3")));
        assert!(parse_weights("1,x").is_err());
    }

    #[test]
    fn products_follow_the_fit_scripts_order() {
        let mut f = [0f32; FEATURES];
        f[1] = 2.0;
        f[2] = 3.0;
        // After the FEATURES linear weights: (0,0), (0,1), ..., (0,13), then (1,1), (1,2).
        let at_1_2 = FEATURES + FEATURES + 1;
        let model = Reranker {
            depth: 20,
            weights: only(at_1_2, 1.0),
        };
        assert_eq!(model.score(&f), 6.0);
        let linear = Reranker {
            depth: 20,
            weights: &[0.0, 1.0, 1.0],
        };
        assert_eq!(linear.score(&f), 5.0);
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
        let name = FEATURE_NAMES.iter().position(|n| *n == "name").unwrap_or(0);
        let first = |weight: f32| {
            let options = HybridOptions {
                rerank: Some(Reranker {
                    depth: 20,
                    weights: only(name, weight),
                }),
                ..HybridOptions::default()
            };
            let hits = HybridIndex::with_options(&docs, options).search("weather", 2);
            assert_eq!(hits.len(), 2);
            assert!(hits[0].score >= hits[1].score, "scores fall down the list");
            hits[0].doc
        };
        assert_eq!(first(1.0), 1, "the name holds the query word");
        assert_eq!(first(-1.0), 0);
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
                weights: &[],
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
        assert!(f[at("name_cosine")] > 0.0 && f[at("text_cosine")] > 0.0);
        let hits = index.candidates("parks", 2);
        let (_, f) = &hits[0];
        assert_eq!(hits[0].0.doc, 1);
        assert_eq!(f[at("name")], 0.0, "parks is only in the text");
        assert_eq!(f[at("exact")], 1.0);
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
        let features = |ix: &HybridIndex| {
            let mut v = ix.candidates("book a flight", 3);
            v.sort_by_key(|(h, _)| h.doc);
            v.iter()
                .map(|(h, f)| (h.doc, f[FEATURES - 2], f[FEATURES - 1]))
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
