//! The past-requests index is rebuilt incrementally: as a session grows, the requests already
//! indexed keep their vectors and only the new ones (and the one before each, whose context
//! changed) are embedded.

use secretary_core::history::{HistoryCache, RequestIndex};
use secretary_core::session::{FileMeta, SessionStore};
use serde_json::{json, Value};

const WS: &str = "file:///work/app";

fn session(id: &str, texts: &[&str]) -> Vec<u8> {
    let requests: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            json!({
                "requestId": format!("{id}-{i}"),
                "timestamp": 1_760_000_000_000i64 + i as i64 * 60_000,
                "message": { "text": text, "parts": [] },
                "response": [],
            })
        })
        .collect();
    serde_json::to_vec(&json!({
        "version": 3,
        "sessionId": id,
        "creationDate": 1_760_000_000_000i64,
        "requests": requests,
    }))
    .expect("json")
}

fn put(store: &mut SessionStore, id: &str, texts: &[&str]) {
    let bytes = session(id, texts);
    let meta = FileMeta {
        size: bytes.len() as u64,
        mtime_ms: texts.len() as f64,
    };
    store
        .apply(&format!("/s/{id}.json"), Some(WS), meta, 0, &bytes)
        .expect("valid session");
}

/// Asserts that the best of three hits for `query` in `history` is request `index` of `session`.
#[track_caller]
fn assert_top(history: &RequestIndex, query: &str, session: &str, index: usize) {
    let hits = history.search(query, 3);
    let best = hits
        .first()
        .unwrap_or_else(|| panic!("no hit for {query:?}"));
    let found = &history.refs[best.0.doc];
    assert_eq!(
        (found.session_id.as_str(), found.index),
        (session, index),
        "{query}: {hits:?}"
    );
}

#[test]
fn a_growing_session_reuses_the_vectors_of_unchanged_requests() {
    let mut store = SessionStore::new();
    let a = [
        "Set up the build with wasm-pack",
        "Add a dark mode toggle that persists in localStorage",
        "Write Playwright tests for the toggle",
        "Profile the list rendering",
    ];
    put(&mut store, "a", &a);
    put(
        &mut store,
        "b",
        &["Translate the README into French", "Fix the CI cache"],
    );
    let cache = HistoryCache::new();
    let first = cache.get(&store, Some(WS));
    assert_eq!(first.refs.len(), 6);
    assert_eq!(first.reused, 0, "the first build embeds everything");

    // One request more in `b`: the four of `a` and the first of `b` are unchanged; the second
    // of `b` has a new neighbour (its context changed) and the third is new.
    put(
        &mut store,
        "b",
        &[
            "Translate the README into French",
            "Fix the CI cache",
            "Rename the crate to secretary-core",
        ],
    );
    let second = cache.get(&store, Some(WS));
    assert_eq!(second.refs.len(), 7);
    assert_eq!(
        second.reused, 5,
        "only the changed and new requests are embedded"
    );
    assert_top(&second, "rename crate", "b", 3);
    // A paraphrase of a reused request still finds it through its kept vector.
    assert_top(&second, "night theme switch", "a", 2);

    // Growing by more than a quarter since the last full build embeds everything again, so
    // that the token weights follow the collection.
    put(
        &mut store,
        "c",
        &["Upgrade serde", "Bump the MSRV", "Document the CLI flags"],
    );
    let third = cache.get(&store, Some(WS));
    assert_eq!(third.refs.len(), 10);
    assert_eq!(third.reused, 0);
}

#[test]
fn turning_semantic_search_off_and_on_builds_afresh() {
    let mut store = SessionStore::new();
    let a = ["Set up the build", "Add a dark mode toggle"];
    put(&mut store, "a", &a);
    let cache = HistoryCache::new();
    let _ = cache.get(&store, Some(WS));
    cache.set_semantic(false);
    assert_eq!(cache.get(&store, Some(WS)).reused, 0);
    cache.set_semantic(true);
    assert_eq!(cache.get(&store, Some(WS)).reused, 0);
}

#[test]
fn a_request_takes_its_context_from_600_characters_before_it_and_the_request_after() {
    use secretary_core::history::push_dialog_documents;
    use secretary_core::search::Document;
    let long = "x".repeat(700);
    let texts = [
        "How is the half marathon training going?",
        "Great!",
        "Finished it on Sunday: 1:58:40, under two hours.",
        long.as_str(),
        "And after that?",
        "Nothing",
    ];
    let mut docs: Vec<Document> = Vec::new();
    push_dialog_documents(&texts, &mut docs);
    // A short turn's context reaches back past the turn before it, to where the topic was set.
    assert!(
        docs[2].context.contains("half marathon"),
        "{:?}",
        docs[2].context
    );
    assert!(docs[2].context.contains("Great!"));
    // ... and takes the one request after it, cut at 300 characters.
    assert!(docs[2].context.contains(&"x".repeat(300)));
    assert!(!docs[2].context.contains(&"x".repeat(301)));
    // A long request before fills the budget: 600 characters of it, nothing earlier.
    assert!(docs[4].context.contains(&"x".repeat(600)));
    assert!(!docs[4].context.contains(&"x".repeat(601)));
    assert!(!docs[4].context.contains("1:58:40"));
    // Only the one request after: nothing two ahead.
    assert!(
        !docs[0].context.contains("1:58:40"),
        "{:?}",
        docs[0].context
    );
    assert!(docs[0].context.contains("Great!"));
    assert!(docs[5].context.contains("And after that?"));
}
