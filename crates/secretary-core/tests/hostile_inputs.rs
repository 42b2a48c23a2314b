//! Hostile and careless inputs from issue #14 that the core itself must refuse: mutation-log
//! indexes past the end, 64-bit request indexes, flag values that do not survive JSON, and the
//! lock around every read-modify-write of shared state. (The hosts' side, over real processes,
//! is `extension/test/unit/hostile.test.ts`.)

#[path = "common/mutation_log.rs"]
mod mutation_log;

use mutation_log::{initial, lines, req};
use secretary_core::host::{Area, MemoryHost};
use secretary_core::registry::invoke;
use secretary_core::session::parse;
use secretary_core::toolkit::ToolContext;
use serde_json::json;

#[test]
fn a_set_or_delete_past_the_end_of_requests_invents_no_requests() {
    for kind in [1, 3] {
        let mut line = json!({"kind": kind, "k": ["requests", 5]});
        if kind == 1 {
            line["v"] = req("six");
        }
        let log = lines(&[initial(vec![]), line]);
        let d = parse("x.jsonl", log.as_bytes()).unwrap();
        assert!(d.requests.is_empty(), "kind {kind}: {:?}", d.requests);
        assert_eq!(d.diagnostics.len(), 1, "kind {kind}: {:?}", d.diagnostics);
        assert!(
            d.diagnostics[0].contains("request 6 past the end (0 requests)"),
            "kind {kind}: {:?}",
            d.diagnostics
        );
    }
    // Setting the next request (the end itself) still appends it, as VS Code does.
    let log = lines(&[
        initial(vec![req("one")]),
        json!({"kind": 1, "k": ["requests", 1], "v": req("two")}),
    ]);
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    let texts: Vec<_> = d.requests.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(texts, ["one", "two"]);
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
}

#[test]
fn flag_changes_hold_the_lock_around_the_read_and_the_write() {
    let host = MemoryHost::new();
    let ctx = ToolContext::new(None, None).with_host(&host);
    let set = invoke("set_feature_flag", &json!({"name": "a", "value": 1}), &ctx);
    assert_eq!(set.to_value()["success"], true);
    invoke("delete_feature_flag", &json!({"name": "a"}), &ctx);
    assert_eq!(
        host.lock_log(),
        [
            "lock globalState/flags.json",
            "unlock globalState/flags.json",
            "lock globalState/flags.json",
            "unlock globalState/flags.json"
        ]
    );
    let saved = invoke(
        "memory",
        &json!({"command": "save", "path": "n", "content": "x"}),
        &ctx,
    );
    assert_eq!(saved.to_value()["success"], true, "{}", saved.to_value());
    assert_eq!(
        host.lock_log()[4..],
        ["lock globalState/memory", "unlock globalState/memory"]
    );
    assert!(host.text(Area::GlobalState, "memory/n.md").is_some());
}
