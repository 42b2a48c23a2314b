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

/// The question about someone that every test here asks.
const WHEN: &str = "When is Sam's Hagg Lake triathlon?";

/// `request_options` without the answer kinds: what each test compares with.
fn without_kinds() -> HybridOptions {
    HybridOptions {
        answer_kinds: None,
        ..request_options(true)
    }
}

/// Asserts that the turn with the date (request 2) ranks higher in `with` than in `without`.
fn moves_up_the_dated_turn(with: &HybridIndex, without: &HybridIndex) {
    let (now, before) = (rank_of(with, WHEN, 2), rank_of(without, WHEN, 2));
    assert!(
        now < before,
        "the turn with the date ranks {now:?} with answer kinds, {before:?} without"
    );
}

#[test]
fn a_when_question_about_someone_moves_up_the_turn_that_says_the_time() {
    let docs = docs();
    let with = HybridIndex::with_options(&docs, request_options(true));
    let without = HybridIndex::with_options(&docs, without_kinds());
    moves_up_the_dated_turn(&with, &without);
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
    assert_eq!(first.search(WHEN, 6), again.search(WHEN, 6));
    assert_eq!(first.search(WHEN, 6), fresh.search(WHEN, 6));
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
    moves_up_the_dated_turn(&grown(request_options(true)), &grown(without_kinds()));
}
