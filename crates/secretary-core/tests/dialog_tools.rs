//! The dialog tools' contract, field by field: every success shape and every error text of
//! `get_first_request`, `get_request`, `list_dialogs` and `search_requests`.

#[path = "common/json.rs"]
mod json;

#[path = "common/session_files.rs"]
mod session_files;

use json::{pairs, strs};
use secretary_core::registry::invoke;
use secretary_core::session::SessionStore;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};
use session_files::{answered_request, put};

const WS: &str = "file:///work/app";
const OTHER_WS: &str = "file:///work/other";

/// An answered request whose model state is 1 (complete).
fn request(id: &str, ts: i64, text: &str) -> Value {
    let mut request = answered_request(id, ts, text);
    request["modelState"] = json!({ "value": 1 });
    request
}

fn session(id: &str, created: i64, requests: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "version": 3,
        "sessionId": id,
        "creationDate": created,
        "requests": requests,
    }))
    .unwrap()
}

fn add(store: &mut SessionStore, path: &str, workspace: &str, bytes: &[u8]) {
    put(store, path, Some(workspace), bytes);
}

/// Two dialogs in the workspace (`new` more recent than `old`), one elsewhere, one empty.
fn store() -> SessionStore {
    let mut store = SessionStore::new();
    let long = format!("{} and the rest", "é".repeat(100));
    add(
        &mut store,
        "/s/old.json",
        WS,
        &session(
            "old",
            1_000,
            vec![
                request("o1", 1_000, "Set up the build with wasm-pack"),
                request(
                    "o2",
                    2_000,
                    "Add a dark mode toggle that persists in localStorage",
                ),
            ],
        ),
    );
    add(
        &mut store,
        "/s/new.json",
        WS,
        &session(
            "new",
            5_000,
            vec![
                request("n1", 1_760_434_353_123, &long),
                request("n2", 1_760_434_400_000, "Second"),
                request("n3", 1_760_434_500_000, "Third request\nwith two lines"),
                request("n4", 1_760_434_600_000, "Fourth"),
                request("n5", 1_760_434_700_000, "Fifth: write Playwright tests"),
            ],
        ),
    );
    add(
        &mut store,
        "/o/elsewhere.json",
        OTHER_WS,
        &session(
            "elsewhere",
            9_000_000_000_000,
            vec![request("e1", 9_000_000_000_000, "dark mode elsewhere")],
        ),
    );
    add(
        &mut store,
        "/s/empty.json",
        WS,
        &session("empty", 100, vec![]),
    );
    store
}

fn call(store: &SessionStore, name: &str, args: Value) -> Value {
    let ctx = ToolContext::new(Some(store), Some(WS));
    invoke(name, &args, &ctx).to_value()
}

/// `search_requests` with `query` alone: this workspace, every dialog.
fn search(store: &SessionStore, query: &str) -> Value {
    call(store, "search_requests", json!({ "query": query }))
}

fn error(text: &str) -> Value {
    json!({ "success": false, "error": text })
}

#[test]
fn first_request_of_the_current_dialog() {
    let store = store();
    let result = call(&store, "get_first_request", json!({}));
    let preview = result["firstRequest"].as_str().unwrap();
    assert_eq!(preview.chars().count(), 80);
    assert!(preview.starts_with("ééé") && preview.ends_with("..."));
    assert_eq!(
        result,
        json!({
            "success": true,
            "sessionId": "new",
            "source": "vscode",
            "firstRequest": preview,
            "timestamp": 1760434353123i64,
            "time": "2025-10-14T09:32:33.123Z",
            "requestsCount": 5,
            "dialogFrom": "mostRecent",
            "chosenBy": format!("the most recently active dialog of {WS}: the client did not say which session is calling")
        })
    );
}

#[test]
fn first_request_errors() {
    let store = store();
    assert_eq!(
        call(&store, "get_first_request", json!({"sessionId": "nope"})),
        error("Session not found: nope")
    );
    assert_eq!(
        call(&store, "get_first_request", json!({"sessionId": "empty"})),
        error("First request not available")
    );
    let empty = SessionStore::new();
    assert_eq!(
        call(&empty, "get_first_request", json!({})),
        error("No active dialog found")
    );
    let not_ready = ToolContext::new(None, Some(WS));
    assert_eq!(
        invoke("get_first_request", &json!({}), &not_ready).to_value(),
        error("Service temporarily unavailable")
    );
    assert_eq!(
        invoke("get_request", &json!({"index": 1}), &not_ready).to_value(),
        error("Service temporarily unavailable")
    );
}

#[test]
fn a_blank_session_id_means_the_current_dialog() {
    let store = store();
    assert_eq!(
        call(&store, "get_first_request", json!({"sessionId": "  "}))["sessionId"],
        "new"
    );
}

#[test]
fn get_request_returns_the_full_text() {
    let store = store();
    assert_eq!(
        call(&store, "get_request", json!({"index": 3})),
        json!({
            "success": true,
            "sessionId": "new",
            "source": "vscode",
            "request": "Third request\nwith two lines",
            "index": 3,
            "timestamp": 1760434500000i64,
            "time": "2025-10-14T09:35:00.000Z",
            "totalRequests": 5,
            "dialogFrom": "mostRecent",
            "chosenBy": format!("the most recently active dialog of {WS}: the client did not say which session is calling")
        })
    );
    let other = call(
        &store,
        "get_request",
        json!({"index": 2, "sessionId": "old"}),
    );
    assert_eq!(
        other["request"],
        "Add a dark mode toggle that persists in localStorage"
    );
    assert_eq!(other["totalRequests"], 2);
    // 2.0 is a whole number.
    assert_eq!(
        call(&store, "get_request", json!({"index": 2.0}))["request"],
        "Second"
    );
}

#[test]
fn get_request_index_errors() {
    let store = store();
    assert_eq!(
        call(&store, "get_request", json!({})),
        error("Index parameter is required")
    );
    assert_eq!(
        call(&store, "get_request", json!({"index": 0})),
        error("Index must be 1 or greater")
    );
    assert_eq!(
        call(&store, "get_request", json!({"index": -3})),
        error("Index must be 1 or greater")
    );
    assert_eq!(
        call(&store, "get_request", json!({"index": 10})),
        error("Index 10 exceeds total requests (5)")
    );
    for bad in [json!(2.5), json!("2"), Value::Null, json!([2]), json!(true)] {
        let result = call(&store, "get_request", json!({ "index": bad }));
        assert_eq!(result["success"], false);
        let text = result["error"].as_str().unwrap();
        assert!(
            text.starts_with("Index must be a whole number"),
            "{bad}: {text}"
        );
    }
    assert_eq!(
        call(
            &store,
            "get_request",
            json!({"index": 1, "sessionId": "nope"})
        ),
        error("Session not found: nope")
    );
    let empty = SessionStore::new();
    assert_eq!(
        call(&empty, "get_request", json!({"index": 1})),
        error("No active dialog found")
    );
}

#[test]
fn unknown_arguments_are_refused_with_the_allowed_ones() {
    let store = store();
    let result = call(&store, "get_request", json!({"index": 1, "session": "new"}));
    let text = result["error"].as_str().unwrap();
    assert!(
        text.contains("unknown field `session`") && text.contains("`sessionId`"),
        "{text}"
    );
}

#[test]
fn a_removed_file_makes_the_session_unavailable() {
    let mut store = store();
    store.remove("/s/old.json");
    assert_eq!(
        call(
            &store,
            "get_request",
            json!({"index": 1, "sessionId": "old"})
        ),
        error("Chat data not available for session")
    );
}

#[test]
fn list_dialogs_is_scoped_and_newest_first() {
    let store = store();
    let result = call(&store, "list_dialogs", json!({}));
    let ids = strs(&result["dialogs"], "sessionId");
    assert_eq!(ids, ["new", "old", "empty"]);
    assert_eq!(result["total"], 3);
    let first = &result["dialogs"][0];
    assert_eq!(first["requestsCount"], 5);
    assert_eq!(first["status"], "complete");
    assert_eq!(first["lastActivity"], "2025-10-14T09:38:20.000Z");
    let filtered = call(
        &store,
        "list_dialogs",
        json!({"query": "DARK mode", "limit": 5}),
    );
    assert_eq!(filtered["total"], 1);
    assert_eq!(filtered["dialogs"][0]["sessionId"], "old");
    assert_eq!(
        call(&store, "list_dialogs", json!({"limit": 1}))["dialogs"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        call(&store, "list_dialogs", json!({"limit": 0})),
        error("Limit must be 1 or greater")
    );
    let none = call(&store, "list_dialogs", json!({"query": "zebra"}));
    assert_eq!(none["message"], "No dialogs found.");
}

#[test]
fn search_requests_ranks_matches_in_this_workspace() {
    let store = store();
    let result = search(&store, "dark mode localStorage");
    let results = result["results"].as_array().unwrap();
    assert_eq!(results[0]["sessionId"], "old");
    assert_eq!(results[0]["index"], 2);
    // The same two time fields as get_request: milliseconds, and the instant in ISO 8601.
    assert_eq!(results[0]["timestamp"], 2_000);
    assert_eq!(results[0]["time"], "1970-01-01T00:00:02.000Z");
    assert!(results[0]["snippet"]
        .as_str()
        .unwrap()
        .contains("dark mode"));
    assert!(
        results.iter().all(|r| r["sessionId"] != "elsewhere"),
        "other workspaces are out of scope"
    );
    let in_session = call(
        &store,
        "search_requests",
        json!({"query": "playwright", "sessionId": "new"}),
    );
    assert_eq!(in_session["results"][0]["index"], 5);
    assert_eq!(in_session["results"][0]["signals"][0], "lexical");
    // Request 4 comes just before it: found through its context, with no matched word.
    assert_eq!(in_session["results"][1]["index"], 4, "{in_session}");
    assert_eq!(in_session["results"][1]["matched"], json!([]));
    assert_eq!(in_session["results"][1]["signals"][0], "context");
    assert_eq!(search(&store, " "), error("Query must not be empty"));
    assert_eq!(
        call(&store, "search_requests", json!({})),
        error("Invalid arguments: missing field `query`")
    );
    assert_eq!(
        call(
            &store,
            "search_requests",
            json!({"query": "x", "sessionId": "nope"})
        ),
        error("Session not found: nope")
    );
    let nothing = search(&store, "zebra");
    assert_eq!(nothing["total"], 0);
    assert_eq!(nothing["message"], "No matching requests.");
}

#[test]
fn legacy_names_answer_with_the_new_name() {
    let store = store();
    assert_eq!(
        call(&store, "copilot_chat_secretary_get_request", json!({"index": 1}))["error"],
        "Tool not found: copilot_chat_secretary_get_request. It was renamed to chat_secretary_get_request."
    );
    assert_eq!(
        call(&store, "copilot_chat_secretary_get_first_request", json!({}))["error"],
        "Tool not found: copilot_chat_secretary_get_first_request. It was renamed to chat_secretary_get_first_request."
    );
    // The VS Code name works in every host.
    assert_eq!(
        call(&store, "chat_secretary_get_request", json!({"index": 2}))["request"],
        "Second"
    );
}

#[test]
fn an_empty_session_newer_than_a_real_dialog_is_not_current() {
    // VS Code writes an empty session file as soon as a chat view opens.
    let mut store = store();
    add(
        &mut store,
        "/s/fresh.json",
        WS,
        &session("fresh", 9_999_999_999_999, vec![]),
    );
    assert_eq!(
        call(&store, "get_first_request", json!({}))["sessionId"],
        "new"
    );
    // With no dialog that has requests, the empty one is current and says so.
    let mut only_empty = SessionStore::new();
    add(
        &mut only_empty,
        "/s/fresh.json",
        WS,
        &session("fresh", 1, vec![]),
    );
    assert_eq!(
        call(&only_empty, "get_first_request", json!({})),
        error("First request not available")
    );
}

#[test]
fn search_requests_reads_dates_in_the_query() {
    let store = store();
    // Relative to the newest request of the workspace (2025-10-14): "today" is that day.
    let today = search(&store, "playwright today");
    assert_eq!(today["results"][0]["index"], 5, "{today}");
    let signals = today["results"][0]["signals"].as_array().unwrap();
    assert!(
        signals.contains(&json!("lexical")) && signals.last() == Some(&json!("date")),
        "{today}"
    );
    // Nothing about dark mode that day: the older match still comes, without `date`.
    let older = search(&store, "dark mode today");
    assert_eq!(older["results"][0]["sessionId"], "old", "{older}");
    assert!(!older["results"][0]["signals"]
        .as_array()
        .unwrap()
        .contains(&json!("date")));
    // Only a time: that time's requests, newest first.
    let year = search(&store, "what did I ask in 1970");
    let found = pairs(&year["results"], "sessionId", "index");
    assert_eq!(
        found,
        [("old".to_string(), 2), ("old".to_string(), 1)],
        "{year}"
    );
    assert_eq!(year["results"][0]["signals"], json!(["date"]));
}

#[test]
fn search_requests_finds_paraphrases_unless_semantic_is_off() {
    use secretary_core::history::HistoryCache;
    let store = store();
    let history = HistoryCache::new();
    let search = |history: &HistoryCache| {
        let ctx = ToolContext::new(Some(&store), Some(WS)).with_history(history);
        invoke(
            "search_requests",
            &json!({"query": "night theme switch"}),
            &ctx,
        )
        .to_value()
    };
    // No word of the query occurs in any request; the meaning matches the dark mode toggle.
    let found = search(&history);
    assert_eq!(found["results"][0]["sessionId"], "old", "{found}");
    assert_eq!(found["results"][0]["index"], 2);
    assert_eq!(found["results"][0]["signals"], json!(["semantic"]));
    assert_eq!(found["results"][0]["matched"], json!([]));

    history.set_semantic(false);
    let lexical = search(&history);
    assert_eq!(lexical["total"], 0, "{lexical}");

    // Lexical hits say so, and an unrelated query still finds nothing with semantic on.
    history.set_semantic(true);
    let ctx = ToolContext::new(Some(&store), Some(WS)).with_history(&history);
    let both = invoke("search_requests", &json!({"query": "dark mode"}), &ctx).to_value();
    assert_eq!(
        both["results"][0]["signals"],
        json!(["lexical", "semantic"])
    );
    let none = invoke(
        "search_requests",
        &json!({"query": "zebra migration"}),
        &ctx,
    )
    .to_value();
    assert_eq!(none["total"], 0, "{none}");
}

/// With the host's clock, a session timed far ahead of it (a wrong clock, or a planted file)
/// is not the "today" that "yesterday" is read from; a day ahead still is (a remote machine's
/// clock may run ahead). Without a clock the newest request is today, whatever its date.
#[test]
fn a_request_timed_ahead_of_the_clock_does_not_move_today() {
    const DAY: i64 = 86_400_000;
    let oct_8 = 1_759_924_800_000; // 2025-10-08T12:00:00Z
    let mut store = SessionStore::new();
    let dialogs = [
        ("a", oct_8, "Rotate the signing keys"),
        ("b", oct_8 + DAY, "Pin the toolchain version"),
        ("ahead", oct_8 + 400 * DAY, "A request from next year"),
    ];
    for (id, time, text) in dialogs {
        let bytes = session(id, time, vec![request(&format!("{id}1"), time, text)]);
        add(&mut store, &format!("/s/{id}.json"), WS, &bytes);
    }
    let yesterday = |now: Option<i64>| {
        let ctx = ToolContext::new(Some(&store), Some(WS));
        let ctx = match now {
            Some(now) => ctx.with_now(now),
            None => ctx,
        };
        let args = json!({"query": "what did I ask yesterday"});
        let found = invoke("search_requests", &args, &ctx).to_value();
        strs(&found["results"], "sessionId")
    };
    let now = oct_8 + DAY + 3_600_000;
    assert_eq!(yesterday(Some(now)), ["a"]);
    assert!(yesterday(None).is_empty());
    // 23 hours ahead of the clock, b is still the newest ("yesterday" the day of a); 26 hours
    // ahead it is not, a is, and the day before a holds nothing.
    assert_eq!(yesterday(Some(oct_8 + 3_600_000)), ["a"]);
    assert!(yesterday(Some(oct_8 - 2 * 3_600_000)).is_empty());
}

/// A session filter on a dialog of the caller's workspace searches through the index the
/// searches without one keep (the one the cache holds), so a chat alternating the two does not
/// embed every request again at each call; a dialog of another workspace is still found.
#[test]
fn a_session_filter_in_this_workspace_keeps_the_cached_index() {
    use secretary_core::history::HistoryCache;
    use std::rc::Rc;
    let store = store();
    let history = HistoryCache::new();
    let ctx = ToolContext::new(Some(&store), Some(WS)).with_history(&history);
    let search = |args: Value| invoke("search_requests", &args, &ctx).to_value();
    let all = search(json!({"query": "dark mode"}));
    assert_eq!(all["results"][0]["sessionId"], "old", "{all}");
    let kept = history.get(&store, Some(WS));
    let filtered = search(json!({"query": "dark mode", "sessionId": "old"}));
    assert_eq!(filtered["results"][0]["index"], 2, "{filtered}");
    assert!(filtered["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["sessionId"] == "old"));
    assert!(Rc::ptr_eq(&kept, &history.get(&store, Some(WS))));
    // Another workspace's dialog: searched among all workspaces.
    let elsewhere = search(json!({"query": "dark mode", "sessionId": "elsewhere"}));
    assert_eq!(
        elsewhere["results"][0]["sessionId"], "elsewhere",
        "{elsewhere}"
    );
    assert_eq!(elsewhere["total"], 1);
}

/// The one dialog order hosts show (`SessionStore::recent`, the sidebar and the CLI through the
/// facade's `recentDialogs`): newest first, ties by session id, not by file path.
#[test]
fn recent_dialogs_break_ties_by_session_id() {
    let mut store = SessionStore::new();
    // (file, workspace, session id, time of its one request): zz and aa tie, in path order zz first.
    for (file, workspace, id, ts) in [
        ("a", WS, "zz", 5_000),
        ("b", WS, "aa", 5_000),
        ("c", WS, "mm", 9_000),
        ("d", OTHER_WS, "other", 9_500),
    ] {
        let bytes = session(id, 1_000, vec![request(&format!("{id}1"), ts, id)]);
        add(&mut store, &format!("/s/{file}.json"), workspace, &bytes);
    }
    let ids = |workspace: Option<&str>| -> Vec<String> {
        store
            .recent(workspace)
            .iter()
            .map(|d| d.dialog.session_id.clone())
            .collect()
    };
    assert_eq!(ids(Some(WS)), ["mm", "aa", "zz"]);
    assert_eq!(ids(None), ["other", "mm", "aa", "zz"]);
    let listed = call(&store, "list_dialogs", json!({}));
    let listed = strs(&listed["dialogs"], "sessionId");
    assert_eq!(listed, ["mm", "aa", "zz"]);
}

/// Neighbour support reads each request's dialog from the index: a dialog's requests share
/// one number and come in order, and no two dialogs share one.
#[test]
fn the_request_index_numbers_each_dialog_once_in_order() {
    use secretary_core::history::RequestIndex;
    let store = store();
    let index = RequestIndex::build(&store, Some(WS), true);
    assert_eq!(index.dialogs.len(), index.refs.len());
    let mut seen: Vec<(u32, &str)> = Vec::new();
    for (i, (dialog, reference)) in index.dialogs.iter().zip(&index.refs).enumerate() {
        match seen.last() {
            Some(&(last, session)) if last == *dialog => {
                assert_eq!(session, reference.session_id);
                assert_eq!(index.refs[i - 1].index + 1, reference.index);
            }
            _ => {
                assert!(seen.iter().all(|&(d, _)| d != *dialog), "{dialog} again");
                assert_eq!(reference.index, 1);
                seen.push((*dialog, &reference.session_id));
            }
        }
    }
    // "old" and "new" (the empty dialog has no requests, "elsewhere" is another workspace).
    assert_eq!(seen.len(), 2);
}
