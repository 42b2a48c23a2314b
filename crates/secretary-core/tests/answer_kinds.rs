//! Answer kinds in past-request search ([`secretary_core::search::answer_kind`]): a question
//! about someone that asks *when* moves up the turn that says a time, which shares few words with
//! the question; a question in the first person does not; an index rebuilt around reused
//! requests keeps the kinds it had.

use secretary_core::history::{push_dialog_documents, request_options};
use secretary_core::search::{Document, HybridIndex, HybridOptions};

const CHAT: &[&str] = &[
    "Sam: I finally signed up for the Hagg Lake triathlon, no backing out now.",
    "Nora: Amazing! When is it?",
    "Sam: Saturday the 14th, and the swim starts at seven.",
    "Sam: The Hagg Lake triathlon swim is cold, so I am renting a wetsuit for the triathlon.",
    "Nora: Elsie wants to make you a sign with a dinosaur on it.",
    "Sam: Tell her I want a stegosaurus wearing goggles.",
];

fn docs() -> Vec<Document> {
    let mut docs = Vec::new();
    push_dialog_documents(CHAT, &mut docs);
    docs
}

fn rank_of(index: &HybridIndex, query: &str, doc: usize) -> Option<usize> {
    index.search(query, 6).iter().position(|h| h.doc == doc)
}

#[test]
fn a_when_question_about_someone_moves_up_the_turn_that_says_the_time() {
    let docs = docs();
    let with = HybridIndex::with_options(&docs, request_options(true));
    let without = HybridIndex::with_options(
        &docs,
        HybridOptions {
            answer_kinds: None,
            ..request_options(true)
        },
    );
    let query = "When is Sam's Hagg Lake triathlon?";
    let (now, before) = (rank_of(&with, query, 2), rank_of(&without, query, 2));
    assert!(
        now < before,
        "the turn with the date ranks {now:?} with answer kinds, {before:?} without"
    );
    // The same question about one's own requests: the answer is the request's time, not a
    // turn that says one.
    let mine = "When did I ask about the Hagg Lake triathlon?";
    assert_eq!(with.search(mine, 6), without.search(mine, 6));
}

#[test]
fn a_rebuilt_index_keeps_the_answer_kinds() {
    let docs = docs();
    let first = HybridIndex::with_options(&docs, request_options(true));
    let reuse: Vec<Option<u32>> = (0..docs.len() as u32).map(Some).collect();
    let again = HybridIndex::rebuild(&first, &docs, &reuse);
    // With nothing reused, the kinds are read afresh.
    let fresh = HybridIndex::rebuild(&first, &docs, &[]);
    let query = "When is Sam's Hagg Lake triathlon?";
    assert_eq!(first.search(query, 6), again.search(query, 6));
    assert_eq!(first.search(query, 6), fresh.search(query, 6));
}

/// Grown from an index of no requests, the kinds are read for every new one: the turn with the
/// date moves up as it does in an index built whole. (The token weights stay the empty
/// index's, so the scores are not those of `first`; the comparison is with the same growth
/// without the answer kinds.)
#[test]
fn an_index_grown_from_none_reads_the_answer_kinds() {
    let docs = docs();
    let grown = |options: HybridOptions| {
        let empty = HybridIndex::with_options(&[], options);
        HybridIndex::rebuild(&empty, &docs, &[])
    };
    let with = grown(request_options(true));
    let without = grown(HybridOptions {
        answer_kinds: None,
        ..request_options(true)
    });
    let query = "When is Sam's Hagg Lake triathlon?";
    let (now, before) = (rank_of(&with, query, 2), rank_of(&without, query, 2));
    assert!(
        now < before,
        "rank {now:?} with answer kinds, {before:?} without"
    );
}
