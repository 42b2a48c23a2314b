//! Neighbour support: in a conversation, the request that answers a question in the third person
//! sits beside the requests that hold the question's words.
//!
//! Two people chatting say a thing over several short turns: "How's the new bike?" / "I took it
//! out on Sauvie Island on Sunday and did 50 km." A question about it ("Where did Sam do his
//! first long ride on the new bike?") matches the first turn, and the second, which holds the
//! answer, ranks far below. Each of the first [`NeighbourSupport::depth`] results therefore gets
//! [`NeighbourSupport::weight`] times the best score among the results one or two requests away
//! from it in the same dialog (scores brought to 1 for the best), and they are reordered.
//!
//! Only a question in the third person is supported ([`third_person_question`]): a question (a
//! wh-word first, or a question mark) with no word of the first or second person, which asks
//! about someone or something rather than for one of the asker's own requests. Keywords
//! ("docker compose networking") and questions about the asker's own requests ("what did I ask
//! about kafka") look for one request with those words, and there support lifts the wrong
//! dialogs that say them in several neighbouring requests: on one person's requests to an
//! assistant it cost up to 3.4 points of dialog hit@1 when given to every query. Measured on the
//! chats of `scripts/bench-requests/conversations/` and the ShareGPT sets (`docs/benchmarks.md`,
//! issue 26, eighth and twelfth passes).

use super::answer_kind::{in_first_or_second_person, words};
use super::hybrid::rescore_head;
use super::HybridHit;

/// Settings of neighbour support.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NeighbourSupport {
    /// Share of the best neighbour's score (brought to 1 for the best result) added to a result.
    pub weight: f32,
    /// How many requests away, before or after, a neighbour may be.
    pub window: usize,
    /// How many of the first results give and get support.
    pub depth: usize,
}

impl NeighbourSupport {
    /// The setting of past-request search, chosen on the `tune` chats (conversations 1 to 4):
    /// weight 0.25 over one or two requests each way among the first 50 (issue 26, eighth pass).
    pub const REQUESTS: NeighbourSupport = NeighbourSupport {
        weight: 0.25,
        window: 2,
        depth: 50,
    };
}

/// Words that open a question.
const QUESTION_WORDS: &[&str] = &[
    "how", "what", "when", "where", "which", "who", "whom", "whose", "why",
];

/// Whether `query` is a question in the third person: it opens with a question word or ends
/// with a question mark, and has no word of the first or second person ("I", "you", "the
/// user"). Such a question asks what a conversation said about someone or something ("Where
/// did Sam ride?", "How was the login bug fixed?"), not for one of the asker's own requests.
pub fn third_person_question(query: &str) -> bool {
    let first = words(query).next().unwrap_or("").to_lowercase();
    let question = query.trim_end().ends_with('?') || QUESTION_WORDS.contains(&first.as_str());
    question && !in_first_or_second_person(query)
}

/// Adds support to the first [`NeighbourSupport::depth`] of `hits` and reorders them (the rest
/// stay below, in order); the caller gives it to questions in the third person
/// ([`third_person_question`]) alone. `dialogs` holds each
/// document's dialog, the documents of a dialog being its requests in order: document `d + 1`
/// is the request after `d` when both are of the same dialog (a document past `dialogs` is in
/// none).
pub(crate) fn apply(settings: &NeighbourSupport, dialogs: &[u32], hits: &mut [HybridHit]) {
    let n = hits.len().min(settings.depth);
    if n < 2 {
        return;
    }
    let best = hits[0].score;
    let norm = if best > 0.0 { 1.0 / best } else { 1.0 };
    // (document, score over the best), sorted by document for the lookups below.
    let mut head: Vec<(usize, f32)> = hits[..n].iter().map(|h| (h.doc, h.score * norm)).collect();
    head.sort_unstable_by_key(|&(doc, _)| doc);
    let score_of = |doc: usize| {
        head.binary_search_by_key(&doc, |&(d, _)| d)
            .map_or(0.0, |i| head[i].1)
    };
    let dialog = |doc: usize| dialogs.get(doc).copied();
    rescore_head(hits, n, |hit| {
        let Some(own) = dialog(hit.doc) else {
            return 0.0;
        };
        let before = hit.doc.saturating_sub(settings.window)..hit.doc;
        let after = hit.doc + 1..=hit.doc + settings.window;
        let best_near = before
            .chain(after)
            .filter(|&doc| dialog(doc) == Some(own))
            .map(score_of)
            .fold(0.0f32, f32::max);
        settings.weight * best_near
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::HybridHit;

    fn hit(doc: usize, score: f32) -> HybridHit {
        HybridHit::bare(doc, score)
    }

    #[test]
    fn which_queries_are_questions_in_the_third_person() {
        assert!(third_person_question(
            "Where did Sam do his first long ride?"
        ));
        assert!(third_person_question("when did Jonah get his greyhound"));
        assert!(third_person_question("Sam's finishing time at Hagg Lake?"));
        // Keywords, and questions about the asker's own requests.
        assert!(!third_person_question("docker compose networking"));
        assert!(!third_person_question("What did I ask about kafka?"));
        assert!(!third_person_question(
            "when did the user mention the migration"
        ));
        assert!(!third_person_question(
            "what did you suggest for the cache?"
        ));
        assert!(!third_person_question(""));
    }

    /// Dialog 0 is documents 0 to 3, dialog 1 documents 4 to 6; the depth is 4, so document 0
    /// (fifth) neither gives nor gets support.
    fn ranked() -> Vec<HybridHit> {
        let dialogs = [0, 0, 0, 0, 1, 1, 1];
        let mut hits = vec![
            hit(6, 2.0),
            hit(2, 1.9),
            hit(5, 1.8),
            hit(4, 1.7),
            hit(0, 0.5),
        ];
        let settings = NeighbourSupport {
            weight: 0.25,
            window: 2,
            depth: 4,
        };
        apply(&settings, &dialogs, &mut hits);
        hits
    }

    #[test]
    fn results_beside_a_high_one_in_their_dialog_move_up() {
        let hits = ranked();
        let got: Vec<(usize, f32)> = hits.iter().map(|h| (h.doc, h.score)).collect();
        // Over the best (2.0): 6 is 1.0 + 0.25 * 0.9 (5, one before); 5 is 0.9 + 0.25 * 1.0
        // (6); 4 is 0.85 + 0.25 * 1.0 (6, two on: the window reaches it); 2 is 0.95 with
        // nothing (0 is below the depth, 4 in another dialog); 0 falls below them.
        let want = [(6, 1.225), (5, 1.15), (4, 1.1), (2, 0.95)];
        for ((doc, score), (want_doc, want_score)) in got.iter().zip(want) {
            assert_eq!(*doc, want_doc, "{got:?}");
            assert!((score - want_score).abs() < 1e-6, "{got:?}");
        }
        assert_eq!(got[4].0, 0);
        assert!(got[4].1 < 0.95, "{got:?}");
    }

    #[test]
    fn documents_without_a_dialog_get_no_support() {
        // Document 2 is past the list of dialogs: it is in none, so 1 beside it and 0 two
        // before it neither give it support nor take any from it.
        let mut hits = vec![hit(0, 2.0), hit(2, 1.9), hit(1, 1.0)];
        apply(&NeighbourSupport::REQUESTS, &[0, 0], &mut hits);
        let got: Vec<(usize, f32)> = hits.iter().map(|h| (h.doc, h.score)).collect();
        // 0: 1.0 + 0.25 * 0.5 (1); 2: 0.95; 1: 0.5 + 0.25 * 1.0 (0).
        let want = [(0, 1.125), (2, 0.95), (1, 0.75)];
        for ((doc, score), (want_doc, want_score)) in got.iter().zip(want) {
            assert_eq!(*doc, want_doc, "{got:?}");
            assert!((score - want_score).abs() < 1e-6, "{got:?}");
        }
    }
}
