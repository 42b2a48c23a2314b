//! The request reranker: a learned model that reorders past-request search's first 30 results
//! for a question in the third person ([`super::neighbours::third_person_question`]).
//!
//! The fixed steps before it (fusion, the soft match, the answer kinds, neighbour support) each
//! add a share of one signal. In a conversation between two people, what tells the answering
//! turn from the others is how the signals go together: a turn that asks ("How far is Olympic
//! distance again?") is rarely the answer even when it holds the question's words; a turn that
//! holds few of them but sits beside those that do often is; of two sessions on the same topic
//! (a plan and its outcome), which came later can matter. A [`Forest`] of regression trees
//! (LambdaRank) reads those from features that name no word or person: each candidate's scores
//! and ranks, how its dialog fares among the candidates, what its text says about itself
//! ([`Traits`]: a question mark, its length, the answer kinds, its speaker), how much of the
//! question it and its neighbours hold, where its time falls among the candidates', what
//! kind of collection the candidates are (a turn that asks means something else among one
//! person's requests to an assistant, most of which ask), and how much of it and of its
//! neighbours lies near each word of the question in meaning ([`match_kernels`]: how many of
//! their tokens fall in each band of cosine with the question's, which the single best cosine
//! of the soft match does not tell).
//!
//! Fitted by `scripts/rerank/fit_trees.py` on questions never reported: the `tune` chats (1 to
//! 4) and the `train` chats of `scripts/bench-requests/conversations/`, with and without
//! speakers' names, and the `tune` questions of the natural set put in the third person (without
//! them, such questions about requests to an assistant ranked far worse), from what
//! `examples/eval_requests.rs --dump-request-features` writes (`docs/benchmarks.md`, issue 26,
//! thirteenth pass; the match kernels, fourteenth). Keywords and questions about one's own
//! requests never reach it.

use std::sync::OnceLock;

use super::answer_kind::{self, words, NUMBER, TIME};
use super::index::QueryWords;
use super::match_kernels::{self, KERNELS};
use super::rerank::{median, ranks, reorder, Forest};
use super::traits::{word_key, Traits};
use super::{HybridHit, HybridIndex};

/// Number of features per candidate.
pub const FEATURES: usize = 28 + 2 * KERNELS;

/// The features' names, in order (the columns `eval_requests --dump-request-features` writes).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "score",
    "rank",
    "lexical",
    "semantic",
    "lexical_rank",
    "semantic_rank",
    "dialog_share",
    "dialog_best",
    "dialog_sum",
    "neighbour_best",
    "dialog_rank",
    "kind_wanted",
    "holds_time",
    "holds_number",
    "holds_wanted",
    "log_words",
    "words_relative",
    "position",
    "held",
    "asks",
    "time",
    "later_rivals",
    "earlier_rivals",
    "question_word",
    "speaker_named",
    "held_nearby",
    "median_log_words",
    "asking_share",
    "kernel_exact",
    "kernel_09",
    "kernel_07",
    "kernel_05",
    "kernel_03",
    "kernel_01",
    "nearby_kernel_exact",
    "nearby_kernel_09",
    "nearby_kernel_07",
    "nearby_kernel_05",
    "nearby_kernel_03",
    "nearby_kernel_01",
];

/// The request reranker: a model over the first [`RequestReranker::depth`] results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestReranker {
    /// How many of the first results are reordered.
    pub depth: usize,
    /// The model.
    pub model: &'static Forest,
}

/// Where each indexed request sits (parallel to the index's documents): its dialog and its time.
/// A dialog's requests are consecutive documents, in order, and dialog numbers never decrease
/// (as `history::RequestIndex` numbers them).
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    pub dialogs: &'a [u32],
    pub times: &'a [Option<i64>],
}

impl RequestReranker {
    /// How many of the first results the committed reranker reorders.
    pub const DEPTH: usize = 30;

    /// The reranker of past-request search: the committed forest (`assets/request-rerank.json`)
    /// over the first 30. `None` only if that file did not parse, which
    /// `the_committed_forest_parses` rules out.
    pub fn requests() -> Option<RequestReranker> {
        static FOREST: OnceLock<Option<Forest>> = OnceLock::new();
        FOREST
            .get_or_init(|| {
                Forest::parse(
                    include_str!("../../assets/request-rerank.json"),
                    &FEATURE_NAMES,
                )
                .ok()
            })
            .as_ref()
            .map(|model| RequestReranker {
                depth: RequestReranker::DEPTH,
                model,
            })
    }

    /// Reorders the first [`RequestReranker::depth`] of `hits` for `query` by the model (see
    /// [`super::rerank::reorder`]); the caller gives it questions in the third person alone.
    pub(crate) fn apply(
        &self,
        index: &HybridIndex,
        placement: Placement,
        query: &str,
        hits: &mut Vec<HybridHit>,
    ) {
        let n = hits.len().min(self.depth);
        if n < 2 {
            return;
        }
        let features = features(index, placement, query, &hits[..n]);
        let mut scores = vec![0.0; n];
        self.model.score_all(&features, &mut scores);
        reorder(hits, &scores);
    }
}

/// What the question asks, read once for all its candidates.
struct Question {
    /// The answer kind it wants ([`answer_kind::wanted`]).
    wanted: u8,
    /// Its question word as a class ([`question_word`]).
    word: f32,
    /// [`word_key`] of each of its words, to find a speaker it names.
    keys: Vec<u32>,
    /// Its words for [`super::Index::held_share`].
    words: QueryWords,
}

/// The class of a question's first word (after "so", "and", "but", "then"): when 1, how many /
/// much / long / far / old / often 2, where 3, who 4, why 5, what or which 6, another how 7,
/// anything else 0. A class, not an order: the trees split on it.
fn question_word(query: &str, wanted: u8) -> f32 {
    let mut all = words(query).map(str::to_lowercase);
    let mut first = all.next().unwrap_or_default();
    if matches!(first.as_str(), "so" | "and" | "but" | "then") {
        first = all.next().unwrap_or_default();
    }
    match first.as_str() {
        "when" => 1.0,
        "how" if wanted == NUMBER => 2.0,
        "where" => 3.0,
        "who" | "whom" | "whose" => 4.0,
        "why" => 5.0,
        "what" | "which" => 6.0,
        "how" => 7.0,
        _ => 0.0,
    }
}

/// The features of the candidates `hits` (best first) for `query`, in the order of
/// [`FEATURE_NAMES`]. Scores, lengths and times are relative to the other candidates.
pub fn features(
    index: &HybridIndex,
    placement: Placement,
    query: &str,
    hits: &[HybridHit],
) -> Vec<[f32; FEATURES]> {
    let wanted = answer_kind::wanted(query);
    let asked = Question {
        wanted,
        word: question_word(query, wanted),
        keys: words(query).map(word_key).collect(),
        words: index.lexical().query_words(query),
    };
    let c = Candidates::new(index, placement, hits);
    let kernels = c.kernels(query);
    (0..hits.len())
        .map(|i| {
            let t = c.traits(hits[i].doc);
            let [dialog_share, dialog_best, dialog_sum, neighbour_best] = c.in_dialog(i);
            let [time, later_rivals, earlier_rivals] = c.in_time(i);
            let [held, held_nearby] = c.held(&asked.words, i);
            let length = f32::from(t.words);
            let [alone, nearby] = kernels[i];
            let named = [
                c.relative[i],
                1.0 / (1.0 + i as f32),
                hits[i].lexical,
                hits[i].semantic,
                1.0 / (1.0 + c.lexical_rank[i] as f32),
                1.0 / (1.0 + c.semantic_rank[i] as f32),
                dialog_share,
                dialog_best,
                dialog_sum,
                neighbour_best,
                1.0 / (1.0 + c.dialog_rank[i] as f32),
                f32::from(asked.wanted),
                flag(t.kinds & TIME != 0),
                flag(t.kinds & NUMBER != 0),
                flag(asked.wanted != 0 && t.kinds & asked.wanted != 0),
                (1.0 + length).ln(),
                length / c.median_words.max(1.0),
                position(placement.dialogs, hits[i].doc),
                held,
                flag(t.asks),
                time,
                later_rivals,
                earlier_rivals,
                asked.word,
                flag(t.speaker != 0 && asked.keys.contains(&t.speaker)),
                held_nearby,
                (1.0 + c.median_words).ln(),
                c.asking_share,
            ];
            let mut all = [0.0; FEATURES];
            for (to, from) in all
                .iter_mut()
                .zip(named.iter().chain(&alone).chain(&nearby))
            {
                *to = *from;
            }
            all
        })
        .collect()
}

/// The candidates of one query, with what their features are relative to.
struct Candidates<'a> {
    index: &'a HybridIndex,
    placement: Placement<'a>,
    hits: &'a [HybridHit],
    /// Each one's score over the best's.
    relative: Vec<f32>,
    lexical_rank: Vec<usize>,
    semantic_rank: Vec<usize>,
    dialog_rank: Vec<usize>,
    /// Each one with the requests beside it in its dialog (what `held` and `kernels` read).
    nearby: Vec<Vec<usize>>,
    median_words: f32,
    /// What kind of collection this is: a chat between people (short turns, a few of them
    /// asking) or one person's requests to an assistant (long, most of them asking). The same
    /// question in the third person is answered differently in each.
    asking_share: f32,
    /// The earliest and latest of their times.
    span: Option<(i64, i64)>,
}

impl<'a> Candidates<'a> {
    fn new(
        index: &'a HybridIndex,
        placement: Placement<'a>,
        hits: &'a [HybridHit],
    ) -> Candidates<'a> {
        let best = hits.first().map_or(0.0, |h| h.score);
        let mut c = Candidates {
            index,
            placement,
            hits,
            relative: hits
                .iter()
                .map(|h| if best > 0.0 { h.score / best } else { 0.0 })
                .collect(),
            lexical_rank: ranks(hits, |h| h.lexical),
            semantic_rank: ranks(hits, |h| h.semantic),
            dialog_rank: Vec::new(),
            nearby: Vec::new(),
            median_words: 0.0,
            asking_share: 0.0,
            span: None,
        };
        c.dialog_rank = dialog_ranks(hits, |doc| c.dialog(doc));
        c.nearby = hits.iter().map(|h| c.beside(h.doc)).collect();
        let words = hits.iter().map(|h| f32::from(c.traits(h.doc).words));
        c.median_words = median(words.collect());
        let asking = hits.iter().filter(|h| c.traits(h.doc).asks).count();
        c.asking_share = asking as f32 / hits.len().max(1) as f32;
        let times = hits.iter().filter_map(|h| c.time(h.doc));
        c.span = times.fold(None, |span, t| match span {
            None => Some((t, t)),
            Some((a, b)) => Some((a.min(t), b.max(t))),
        });
        c
    }

    fn dialog(&self, doc: usize) -> Option<u32> {
        self.placement.dialogs.get(doc).copied()
    }

    fn time(&self, doc: usize) -> Option<i64> {
        self.placement.times.get(doc).copied().flatten()
    }

    fn traits(&self, doc: usize) -> Traits {
        self.index.traits().get(doc).copied().unwrap_or_default()
    }

    /// Candidate `i`'s dialog among the candidates: the share of them in it, the best other
    /// one's relative score in it, the sum of all of theirs, and the best one's within two
    /// requests of it.
    fn in_dialog(&self, i: usize) -> [f32; 4] {
        let doc = self.hits[i].doc;
        let own = self.dialog(doc);
        let others: Vec<usize> = (0..self.hits.len())
            .filter(|&j| j != i && own.is_some() && self.dialog(self.hits[j].doc) == own)
            .collect();
        let best = |keep: &dyn Fn(usize) -> bool| {
            let scores = others
                .iter()
                .filter(|&&j| keep(j))
                .map(|&j| self.relative[j]);
            scores.fold(0.0f32, f32::max)
        };
        [
            (1 + others.len()) as f32 / self.hits.len() as f32,
            best(&|_| true),
            self.relative[i] + others.iter().map(|&j| self.relative[j]).sum::<f32>(),
            best(&|j| self.hits[j].doc.abs_diff(doc) <= 2),
        ]
    }

    /// Candidate `i`'s time among the candidates' (0 the earliest, 1 the latest), and how many
    /// candidates of other dialogs scoring above 0.8 of it are later, and earlier.
    fn in_time(&self, i: usize) -> [f32; 3] {
        let doc = self.hits[i].doc;
        let Some(mine) = self.time(doc) else {
            return [0.0; 3];
        };
        let own = self.dialog(doc);
        let rivals = |later: bool| {
            (0..self.hits.len())
                .filter(|&j| own.is_none() || self.dialog(self.hits[j].doc) != own)
                .filter(|&j| self.relative[j] > 0.8 * self.relative[i])
                .filter_map(|j| self.time(self.hits[j].doc))
                .filter(|&t| t != mine && (t > mine) == later)
                .count() as f32
        };
        let time = match self.span {
            Some((a, b)) if b > a => (mine - a) as f32 / (b - a) as f32,
            _ => 0.0,
        };
        [time, rivals(true), rivals(false)]
    }

    /// Request `doc` and the requests beside it in its dialog.
    fn beside(&self, doc: usize) -> Vec<usize> {
        let own = self.dialog(doc);
        (doc.saturating_sub(1)..=doc + 1)
            .filter(|&d| d == doc || (own.is_some() && self.dialog(d) == own))
            .collect()
    }

    /// Each candidate's [`match_kernels`], alone and with the requests beside it (zeros
    /// without a soft match to take the query's tokens from).
    fn kernels(&self, query: &str) -> Vec<[[f32; KERNELS]; 2]> {
        let n = self.hits.len();
        let (Some(dense), Some(soft)) = (self.index.dense(), self.index.options().soft_match)
        else {
            return vec![[[0.0; KERNELS]; 2]; n];
        };
        let mut groups: Vec<Vec<usize>> = self.hits.iter().map(|h| vec![h.doc]).collect();
        groups.extend(self.nearby.iter().cloned());
        let pooled = match_kernels::kernels(&soft, dense, query, &groups);
        (0..n).map(|i| [pooled[i], pooled[n + i]]).collect()
    }

    /// How much of the question candidate `i` holds in its own text, and with the requests
    /// beside it in its dialog ([`super::Index::held_share`]).
    fn held(&self, words: &QueryWords, i: usize) -> [f32; 2] {
        let doc = self.hits[i].doc;
        let nearby: Vec<u32> = self.nearby[i].iter().map(|&d| d as u32).collect();
        let lexical = self.index.lexical();
        [
            lexical.held_share(words, &[doc as u32]),
            lexical.held_share(words, &nearby),
        ]
    }
}

/// 1 for true, 0 for false.
fn flag(b: bool) -> f32 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// Each hit's dialog's rank (0 = best) among the dialogs of `hits` (best first, so a dialog's
/// first hit is its best, and dialogs rank in the order they are first met); a hit in no dialog
/// is a dialog of its own.
fn dialog_ranks(hits: &[HybridHit], dialog: impl Fn(usize) -> Option<u32>) -> Vec<usize> {
    let mut seen: Vec<Option<u32>> = Vec::new();
    let mut rank = Vec::with_capacity(hits.len());
    for h in hits {
        let own = dialog(h.doc);
        let at = match own {
            Some(_) => seen.iter().position(|&d| d == own),
            None => None,
        };
        rank.push(at.unwrap_or_else(|| {
            seen.push(own);
            seen.len() - 1
        }));
    }
    rank
}

/// Where request `doc` falls in its dialog: 0 for the first, 1 for the last (0 alone or in
/// none). Two binary searches ([`Placement`]'s dialog numbers never decrease), not a walk
/// through a dialog that may hold thousands of requests.
fn position(dialogs: &[u32], doc: usize) -> f32 {
    let Some(&own) = dialogs.get(doc) else {
        return 0.0;
    };
    let first = dialogs[..doc].partition_point(|&d| d < own);
    let end = doc + dialogs[doc..].partition_point(|&d| d <= own);
    let len = end - first;
    if len > 1 {
        (doc - first) as f32 / (len - 1) as f32
    } else {
        0.0
    }
}

/// What the tests of the request reranker and of its callers build.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Forest, FEATURE_NAMES};
    use crate::history::push_dialog_documents;
    use crate::search::rerank::forest_json;
    use crate::search::Document;

    /// A forest of one stump: a candidate whose `feature` is at or below `threshold` scores
    /// `low`, any other `high`.
    pub(crate) fn stump(feature: &str, threshold: f64, low: f64, high: f64) -> &'static Forest {
        let at = FEATURE_NAMES
            .iter()
            .position(|n| *n == feature)
            .expect(feature);
        let tree =
            format!(r#"{{"feature":[{at}],"threshold":[{threshold}],"leaf":[{low},{high}]}}"#);
        let text = forest_json(&FEATURE_NAMES, 1, &tree);
        Box::leak(Box::new(
            Forest::parse(&text, &FEATURE_NAMES).expect("a forest"),
        ))
    }

    /// The documents of `sessions` (each a dialog of requests), their dialogs and times: session
    /// `s` starts at `start + s * gap` milliseconds, a request every 30 s.
    pub(crate) fn sessions(
        sessions: &[&[&str]],
        start: i64,
        gap: i64,
    ) -> (Vec<Document>, Vec<u32>, Vec<Option<i64>>) {
        let mut docs = Vec::new();
        let mut dialogs = Vec::new();
        let mut times = Vec::new();
        for (s, turns) in sessions.iter().enumerate() {
            push_dialog_documents(turns, &mut docs);
            dialogs.resize(dialogs.len() + turns.len(), s as u32);
            let day = start + s as i64 * gap;
            times.extend((0..turns.len()).map(|i| Some(day + i as i64 * 30_000)));
        }
        (docs, dialogs, times)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::history::request_options;
    use crate::search::HybridOptions;

    #[test]
    fn the_committed_forest_parses() {
        let reranker = RequestReranker::requests().expect("assets/request-rerank.json parses");
        assert_eq!(reranker.depth, 30);
        assert!(!reranker.model.is_empty());
        assert_eq!(request_options(true).request_rerank, Some(reranker));
        assert_eq!(request_options(false).request_rerank, None);
    }

    /// Two sessions of a chat (documents 0 to 3 and 4 to 6), the second a day later.
    fn chat() -> (HybridIndex, Vec<u32>, Vec<Option<i64>>) {
        let sessions: [&[&str]; 2] = [
            &[
                "Nora: How's the new bike?",
                "Sam: I took it out on Sauvie Island on Sunday and did 50 km.",
                "Nora: Wow, that's far!",
                "Sam: My legs were jelly after.",
            ],
            &[
                "Nora: Are you riding the bike to work now?",
                "Sam: Twice a week, it's 12 km each way.",
                "Nora: Nice.",
            ],
        ];
        let (docs, dialogs, times) = testing::sessions(&sessions, 0, 86_400_000);
        let options = HybridOptions {
            request_rerank: None,
            ..request_options(true)
        };
        (HybridIndex::with_options(&docs, options), dialogs, times)
    }

    fn feature(name: &str) -> usize {
        FEATURE_NAMES.iter().position(|n| *n == name).expect(name)
    }

    #[test]
    fn features_say_where_each_candidate_sits_and_what_it_says() {
        let (index, dialogs, times) = chat();
        let placement = Placement {
            dialogs: &dialogs,
            times: &times,
        };
        // Candidates in this order, scores falling: 0 (asks), 1, 5, 4.
        let hits: Vec<HybridHit> = [(0, 2.0), (1, 1.8), (5, 1.0), (4, 0.9)]
            .map(|(d, s)| HybridHit::bare(d, s))
            .to_vec();
        let f = features(
            &index,
            placement,
            "How far did Sam ride the bike on Sunday?",
            &hits,
        );
        let at = |i: usize, name: &str| f[i][feature(name)];
        assert_eq!(at(0, "score"), 1.0);
        assert_eq!(at(1, "score"), 0.9);
        assert_eq!(at(3, "rank"), 0.25);
        assert_eq!(at(0, "asks"), 1.0);
        assert_eq!(at(1, "asks"), 0.0);
        assert_eq!(at(0, "asking_share"), 0.5);
        // The question names Sam: his turns, not Nora's.
        assert_eq!(at(1, "speaker_named"), 1.0);
        assert_eq!(at(0, "speaker_named"), 0.0);
        // "how far" wants a number; turn 1 says "50 km".
        assert_eq!(at(1, "kind_wanted"), f32::from(NUMBER));
        assert_eq!(at(1, "holds_wanted"), 1.0);
        // Dialog 0 has two of the four candidates and ranks first; dialog 1 second.
        assert_eq!(at(0, "dialog_share"), 0.5);
        assert_eq!(at(2, "dialog_rank"), 0.5);
        assert!((at(2, "dialog_sum") - 0.95).abs() < 1e-6);
        // 5 and 4 are neighbours; 0 and 1 too.
        assert_eq!(at(1, "neighbour_best"), 1.0);
        assert!((at(2, "neighbour_best") - 0.45).abs() < 1e-6);
        // First of four, second of four, second of three.
        assert_eq!(at(0, "position"), 0.0);
        assert!((at(1, "position") - 1.0 / 3.0).abs() < 1e-6);
        assert_eq!(at(2, "position"), 0.5);
        // The second session is later. Dialog 1's candidates have two earlier rivals (0 and 1
        // score above 0.8 of theirs); dialog 0's have no later one (0.5 is below 0.8 of 1.0).
        assert_eq!(at(2, "time"), 1.0);
        assert_eq!(at(0, "time"), 0.0);
        assert_eq!(at(2, "earlier_rivals"), 2.0);
        assert_eq!(at(0, "later_rivals"), 0.0);
        // Turn 1 holds "bike"? No: it says "it"; its neighbour 0 does.
        assert!(at(1, "held_nearby") > at(1, "held"));
        assert_eq!(at(0, "question_word"), 2.0);
        // The same in meaning: turn 0 says "bike" itself, turn 1 only with its neighbour 0;
        // with it, turn 1 has at least as many tokens near the question's in every band.
        assert!(at(0, "kernel_exact") > 0.0);
        assert!(at(1, "nearby_kernel_exact") > at(1, "kernel_exact"));
        let bands = ["exact", "09", "07", "05", "03", "01"];
        for band in bands {
            let alone = at(1, &format!("kernel_{band}"));
            assert!(at(1, &format!("nearby_kernel_{band}")) >= alone, "{band}");
        }
        assert!(bands.iter().any(|b| at(1, &format!("kernel_{b}")) > 0.0));
    }

    #[test]
    fn the_model_decides_the_order_of_the_first_results() {
        let (index, dialogs, times) = chat();
        let placement = Placement {
            dialogs: &dialogs,
            times: &times,
        };
        // A turn that asks scores -1, any other +1.
        let reranker = RequestReranker {
            depth: 3,
            model: testing::stump("asks", 0.5, 1.0, -1.0),
        };
        // 0 and 4 ask; 5 is past the depth and stays last, below every reordered score.
        let mut hits: Vec<HybridHit> = [(0, 2.0), (4, 1.9), (1, 1.8), (5, 1.7)]
            .map(|(d, s)| HybridHit::bare(d, s))
            .to_vec();
        reranker.apply(&index, placement, "Where did Sam ride?", &mut hits);
        let order: Vec<usize> = hits.iter().map(|h| h.doc).collect();
        assert_eq!(order, [1, 0, 4, 5]);
        assert!(
            hits.windows(2).all(|w| w[0].score >= w[1].score),
            "{hits:?}"
        );
        // A forest fitted on other features is refused, not read wrong.
        assert!(Forest::parse(
            include_str!("../../assets/request-rerank.json"),
            &super::super::rerank::FEATURE_NAMES
        )
        .is_err());
    }
}
