//! Match kernels: how many of a text's tokens lie near each query token, band by band of
//! cosine, pooled over the query's tokens.
//!
//! The soft match ([`super::soft_match`]) keeps one number per query token, its best cosine
//! with any token of a request. That says whether a word of the question is *there*, in the
//! same or other words; it does not say how much of the request is *about* it. Two turns that
//! both say "bike" score alike, though one is about the bike ride ("rode", "island", "km", all
//! near "ride") and the other about something else that mentions it. Kernel pooling, as in the
//! KNRM ranker (Xiong et al., SIGIR 2017), counts instead, for each query token, the request's
//! tokens in each band of cosine: exactly the same token, then around 0.9, 0.7, 0.5, 0.3 and
//! 0.1 (triangles 0.2 wide, so that a cosine between two centres is shared between them), and
//! pools each band over the query's tokens as the IDF-weighted mean of `ln(1 + count)`. The
//! request reranker ([`super::request_rerank`]) reads the six figures of a request alone and
//! of the request with its neighbours in its dialog; a learned model is what turns a histogram
//! into a judgement, so nothing here is weighed by hand.
//!
//! The query tokens are the soft match's ([`SoftMatch::skip_words`] left out, at most
//! [`super::soft_match::MAX_QUERY_TOKENS`]), each text's tokens the distinct ones the index
//! keeps ([`SoftMatch::max_tokens`] per request); every pair's cosine is worked out once per
//! query, however many groups share the token.

use super::embed::DenseIndex;
use super::soft_match::{query_tokens, Cosines, SoftMatch};

/// How many kernels: exact tokens, then one per centre of `CENTRES`.
pub const KERNELS: usize = 6;

/// The centres of the kernels after the first (which counts exact tokens).
const CENTRES: [f32; KERNELS - 1] = [0.9, 0.7, 0.5, 0.3, 0.1];

/// How far from its centre a kernel reaches (it falls linearly to 0 there): the distance
/// between two centres, so the kernels of a cosine between them add up to 1.
const REACH: f32 = 0.2;

/// A cosine counts as the same token from here up: [`super::embed::row_cosine`] gives exactly
/// 1 for one token, and two different tokens this close are near-duplicates (a plural and its
/// singular whose rows rounded alike), as good as the same.
const EXACT: f32 = 0.999;

/// The kernels of each group of documents in `groups` (each group's tokens taken together, once
/// each) for `query`: per kernel, the query tokens' weighted mean of `ln(1 + tokens in the
/// band)`. All zeros when the index keeps no token sets or the table knows no query token.
pub fn kernels(
    soft: &SoftMatch,
    dense: &DenseIndex,
    query: &str,
    groups: &[Vec<usize>],
) -> Vec<[f32; KERNELS]> {
    let none = vec![[0.0; KERNELS]; groups.len()];
    let Some(sets) = dense.token_sets() else {
        return none;
    };
    let query = query_tokens(soft, dense, query);
    let total: f32 = query.iter().map(|&(_, w)| w).sum();
    if query.is_empty() || total <= 0.0 {
        return none;
    }
    // A floor of -1 keeps every cosine, as (cosine + 1) / 2.
    let mut cosines = Cosines::new(dense.table(), &query, -1.0);
    let mut tokens: Vec<u32> = Vec::new();
    let mut counts = vec![[0f32; KERNELS]; query.len()];
    groups
        .iter()
        .map(|group| {
            tokens.clear();
            for &doc in group {
                tokens.extend_from_slice(sets.get(doc));
            }
            tokens.sort_unstable();
            tokens.dedup();
            counts.iter_mut().for_each(|c| *c = [0.0; KERNELS]);
            for &token in &tokens {
                for (count, &kept) in counts.iter_mut().zip(cosines.of(token)) {
                    add(count, 2.0 * kept - 1.0);
                }
            }
            let mut pooled = [0f32; KERNELS];
            for (count, &(_, weight)) in counts.iter().zip(&query) {
                for (p, &c) in pooled.iter_mut().zip(count) {
                    *p += weight * c.ln_1p();
                }
            }
            pooled.map(|p| p / total)
        })
        .collect()
}

/// Adds one document token's `cosine` with a query token to that query token's bands.
fn add(count: &mut [f32; KERNELS], cosine: f32) {
    if cosine >= EXACT {
        count[0] += 1.0;
        return;
    }
    for (c, &centre) in count[1..].iter_mut().zip(&CENTRES) {
        *c += (1.0 - (cosine - centre).abs() / REACH).max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::request_options;
    use crate::search::{Document, HybridIndex};

    #[test]
    fn a_cosine_between_two_centres_is_shared_between_them() {
        let mut count = [0.0; KERNELS];
        add(&mut count, 0.8);
        assert!((count[1] - 0.5).abs() < 1e-6 && (count[2] - 0.5).abs() < 1e-6);
        add(&mut count, 1.0);
        assert_eq!(count[0], 1.0);
        // The exact token counts in its own kernel alone, not also around 0.9.
        assert!((count[1] - 0.5).abs() < 1e-6);
        let mut low = [0.0; KERNELS];
        add(&mut low, -0.5);
        assert_eq!(low, [0.0; KERNELS]);
    }

    /// A request that says the question's word counts it in the exact kernel; one that says
    /// other words only does not, and a group of both counts it once.
    #[test]
    fn exact_tokens_and_groups() {
        let docs = [
            Document::new("", "I rode the bike to the island"),
            Document::new("", "The weather was lovely"),
        ];
        let options = request_options(true);
        let soft = options.soft_match.expect("requests have a soft match");
        let index = HybridIndex::with_options(&docs, options);
        let dense = index.dense().expect("semantic on");
        let groups = [vec![0], vec![1], vec![0, 1], vec![0, 0]];
        let k = kernels(&soft, dense, "Where did Sam take the bike?", &groups);
        assert!(k[0][0] > 0.0, "{:?}", k[0]);
        assert_eq!(k[1][0], 0.0);
        assert_eq!(k[2][0], k[0][0]);
        assert_eq!(k[3], k[0]);
        // Every band of the pair is at least what either alone has.
        for ((both, first), second) in k[2].iter().zip(&k[0]).zip(&k[1]) {
            assert!(*both >= first.max(*second) - 1e-6);
        }
        // A query of no token has no kernels.
        assert_eq!(kernels(&soft, dense, "?!", &groups)[0], [0.0; KERNELS]);
    }
}
