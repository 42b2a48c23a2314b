//! The soft match of past-request search ([`secretary_core::search::soft_match`]): a long
//! request that holds every word of a question is found above a short one that holds a few,
//! which the fused score alone (BM25's length normalisation, a long text's mean vector) gets
//! the other way round; an index rebuilt around reused requests ranks as the one it came from.

use secretary_core::history::request_options;
use secretary_core::search::{Document, HybridIndex, HybridOptions};

/// A long request that mentions, among much else, every word of [`QUERY`].
const LONG: &str = "We are moving the order pipeline to the new cluster this sprint. The \
    ingestion service reads from three upstream systems, normalises the payloads, enriches each \
    order with customer data from the CRM, and writes the result to the warehouse every hour. \
    Last week the nightly reconciliation job showed duplicates after a deploy, and our on-call \
    engineer traced it to the kafka consumer: it restarted mid-batch and the offset commit had \
    not happened yet, so the whole batch was processed twice. We also want dashboards for \
    throughput and error rates, alerts routed to the team channel, and a runbook for the \
    weekend rotation. Please propose a plan for the migration, the testing strategy, and how \
    we roll back if the new cluster misbehaves during the first days.";

const QUERY: &str = "kafka consumer offset commit duplicates";

fn docs() -> Vec<Document> {
    [
        LONG,
        "Why is my kafka consumer so slow?",
        "Remove duplicates from a Python list while keeping the order",
        "Write a haiku about autumn leaves",
        "Explain git rebase versus merge",
        "How do I center a div with flexbox?",
    ]
    .iter()
    .map(|t| Document::new("", *t))
    .collect()
}

fn top(options: HybridOptions, query: &str) -> usize {
    let index = HybridIndex::with_options(&docs(), options);
    index.search(query, 5)[0].doc
}

#[test]
fn a_long_request_with_every_query_word_outranks_a_short_one_with_some() {
    let without = HybridOptions {
        soft_match: None,
        ..request_options(true)
    };
    assert_ne!(
        top(without, QUERY),
        0,
        "the test needs a case the fused score alone gets wrong"
    );
    assert_eq!(top(request_options(true), QUERY), 0);
}

#[test]
fn a_rebuilt_index_ranks_as_the_index_it_reused() {
    let docs = docs();
    let first = HybridIndex::with_options(&docs, request_options(true));
    let reuse: Vec<Option<u32>> = (0..docs.len() as u32).map(Some).collect();
    let again = HybridIndex::rebuild(&first, &docs, &reuse);
    for query in [QUERY, "python list order", "flexbox centering"] {
        assert_eq!(first.search(query, 5), again.search(query, 5), "{query}");
    }
}
