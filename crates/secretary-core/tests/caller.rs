//! The calling chat: dialog tools answer for the chat whose token the host decoded, lay its live
//! copy over the saved file only when that copy is provably the caller's, and say which rule
//! chose the dialog. Never another dialog's words.

#[path = "common/json.rs"]
mod json;

#[path = "common/session_files.rs"]
mod session_files;

use json::str_at;
use secretary_core::registry::invoke;
use secretary_core::session::live::{Caller, LiveCopy};
use secretary_core::session::SessionStore;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};
use session_files::{answered_request, put};

const WS: &str = "file:///work/app";

fn request(id: &str, ts: i64, text: &str, state: i64) -> Value {
    let mut request = answered_request(id, ts, text);
    if state != 1 {
        request["response"] = json!([]);
    }
    request["modelState"] = json!({ "value": state });
    request
}

fn session(id: &str, requests: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "version": 3, "sessionId": id, "creationDate": 1_000, "requests": requests,
    }))
    .unwrap()
}

/// What `workbench.action.chat.export` writes: the same requests, no session id.
fn export(requests: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({ "requests": requests })).unwrap()
}

/// `a` (two requests, older) and `b` (one request, the most recent) in the workspace.
fn store() -> SessionStore {
    let mut store = SessionStore::new();
    for (path, bytes) in [
        (
            "/s/a.json",
            session(
                "a",
                vec![
                    request("a1", 1_000, "First words of A", 1),
                    request("a2", 2_000, "Second of A", 1),
                ],
            ),
        ),
        (
            "/s/b.json",
            session("b", vec![request("b1", 9_000, "First words of B", 1)]),
        ),
    ] {
        put(&mut store, path, Some(WS), &bytes);
    }
    store
}

fn call(
    store: &SessionStore,
    tool: &str,
    args: Value,
    caller: Option<&Caller>,
    live: Option<&LiveCopy>,
) -> Value {
    let ctx = ToolContext::new(Some(store), Some(WS)).with_caller(caller, live);
    invoke(tool, &args, &ctx).to_value()
}

/// `get_first_request` with no arguments, called by `caller` with the live copy `live`.
fn first_request(store: &SessionStore, caller: Option<&Caller>, live: Option<&LiveCopy>) -> Value {
    call(store, "get_first_request", json!({}), caller, live)
}

/// `get_request` of request `index`, called by `caller` with the live copy `live`.
fn request_at(
    store: &SessionStore,
    index: u64,
    caller: Option<&Caller>,
    live: Option<&LiveCopy>,
) -> Value {
    call(
        store,
        "get_request",
        json!({ "index": index }),
        caller,
        live,
    )
}

/// `call` by the local chat `id`, with the live copy the host has (or `None`).
fn call_as(
    store: &SessionStore,
    id: &str,
    live: Option<&LiveCopy>,
    tool: &str,
    args: Value,
) -> Value {
    call(store, tool, args, Some(&local(id)), live)
}

/// `call` with no calling chat (no token: the most recent dialog answers).
fn call_without_caller(store: &SessionStore, tool: &str, args: Value) -> Value {
    call(store, tool, args, None, None)
}

/// The live copy of B, the focused chat, whose second request is running: a copy that is never
/// another chat's.
fn b_running() -> LiveCopy {
    LiveCopy::Export(export(vec![
        request("b1", 9_000, "First words of B", 1),
        request("b2", 9_500, "B running", 2),
    ]))
}

/// Chat `abc` of another agent, named by its URI `scheme`.
fn foreign(scheme: &str) -> Caller {
    Caller::Foreign {
        scheme: scheme.into(),
        resource: format!("{scheme}:/abc"),
        session_id: Some("abc".into()),
    }
}

fn local(id: &str) -> Caller {
    Caller::Local {
        session_id: id.into(),
    }
}

#[test]
fn without_a_token_the_most_recent_dialog_answers_and_says_so() {
    let store = store();
    let out = first_request(&store, None, None);
    assert_eq!(out["sessionId"], "b");
    assert_eq!(out["dialogFrom"], "mostRecent");
    assert!(out.get("live").is_none());
}

#[test]
fn a_calling_chat_asks_the_host_for_its_live_copy_when_the_saved_copy_lacks_the_request() {
    let store = store();
    // A has two saved requests: the third can only be in the live chat.
    let out = call_as(&store, "a", None, "get_request", json!({"index": 3}));
    assert_eq!(out["success"], false);
    assert_eq!(out["error_type"], "live_pending");
    // So can anything of a chat with nothing saved.
    let out = call_as(&store, "c", None, "get_first_request", json!({}));
    assert_eq!(out["error_type"], "live_pending");
}

/// The export costs 20-130 ms a call in VS Code: a request the saved copy holds is answered
/// without it, and the answer says the newest requests are not counted.
#[test]
fn a_saved_request_is_answered_without_a_live_copy() {
    let store = store();
    for (tool, args, field, text) in [
        (
            "get_first_request",
            json!({}),
            "firstRequest",
            "First words of A",
        ),
        ("get_request", json!({"index": 2}), "request", "Second of A"),
    ] {
        let out = call(&store, tool, args, Some(&local("a")), None);
        assert_eq!(out["success"], true, "{out}");
        assert_eq!(out["sessionId"], "a");
        assert_eq!(out[field], text);
        assert_eq!(out["dialogFrom"], "caller");
        assert_eq!(out["live"], false);
        let behind = out["behind"].as_str().unwrap_or_default();
        assert!(behind.contains("no live copy was taken"), "{behind}");
    }
}

#[test]
fn the_caller_not_the_most_recent_dialog_answers_with_its_unsaved_request() {
    let store = store();
    let live = LiveCopy::Export(export(vec![
        request("a1", 1_000, "First words of A", 1),
        request("a2", 2_000, "Second of A", 1),
        // The running request: VS Code's export writes it as cancelled, with no response.
        request("a3", 3_000, "Third of A, sent a moment ago", 2),
    ]));
    let first = call_as(&store, "a", Some(&live), "get_first_request", json!({}));
    assert_eq!(first["sessionId"], "a");
    assert_eq!(first["firstRequest"], "First words of A");
    assert_eq!(first["requestsCount"], 3);
    assert_eq!(first["dialogFrom"], "caller");
    assert_eq!(first["live"], true);
    let third = call_as(&store, "a", Some(&live), "get_request", json!({"index": 3}));
    assert_eq!(third["request"], "Third of A, sent a moment ago");
    assert_eq!(third["totalRequests"], 3);
}

#[test]
fn another_chats_live_copy_is_refused_and_the_saved_copy_answers() {
    let store = store();
    // The last focused chat is B (its ids are B's), but A called.
    let live = b_running();
    let out = call_as(&store, "a", Some(&live), "get_request", json!({"index": 1}));
    assert_eq!(out["sessionId"], "a");
    assert_eq!(out["request"], "First words of A");
    assert_eq!(out["totalRequests"], 2);
    assert_eq!(out["live"], false);
    let behind = out["behind"].as_str().unwrap();
    assert!(behind.contains("not the calling chat"), "{behind}");
    assert!(!out.to_string().contains("B running"));
}

/// Two brand-new chats running at once (VS Code 1.139.1: C in an editor, D in the view, each
/// sending its first request within a second): the focused one's copy is unknown and running for
/// both, so it proves nothing. Neither is answered from it: the answer says it is uncertain.
#[test]
fn two_new_chats_at_once_get_an_uncertain_answer_never_the_other_ones_words() {
    let store = store();
    let focused_is_d = LiveCopy::Export(export(vec![request("d1", 10_000, "D's first words", 2)]));
    let focused_is_c = LiveCopy::Export(export(vec![request("c1", 10_000, "C's first words", 2)]));
    for (caller, live, words) in [
        ("c", &focused_is_d, "D's first words"),
        ("d", &focused_is_d, "D's first words"),
        ("c", &focused_is_c, "C's first words"),
    ] {
        for (tool, args) in [
            ("get_first_request", json!({})),
            ("get_request", json!({"index": 1})),
        ] {
            let out = call(&store, tool, args, Some(&local(caller)), Some(live));
            assert_eq!(out["success"], false, "{out}");
            assert_eq!(out["error_type"], "caller_uncertain", "{out}");
            assert!(out.get("live").is_none(), "never live: {out}");
            assert!(!out.to_string().contains(words), "{out}");
            assert!(out["error"].as_str().unwrap().contains("not saved yet"));
        }
    }
    // VS Code writes an empty session file as a chat opens: that is nothing saved either (the
    // e2e run met it when C's empty file was written before its first request was sent).
    let mut store = store;
    let empty = session("c", vec![]);
    put(&mut store, "/s/c.json", Some(WS), &empty);
    for (tool, args) in [
        ("get_first_request", json!({})),
        ("get_request", json!({"index": 1})),
    ] {
        let out = call(&store, tool, args, Some(&local("c")), Some(&focused_is_d));
        assert_eq!(out["error_type"], "caller_uncertain", "{tool}: {out}");
        assert!(!out.to_string().contains("D's first words"), "{out}");
    }
    // Once VS Code has saved C, C's copy extends the saved file: exact, and live.
    let bytes = session("c", vec![request("c1", 10_000, "C's first words", 2)]);
    put(&mut store, "/s/c.json", Some(WS), &bytes);
    let out = call_as(
        &store,
        "c",
        Some(&focused_is_c),
        "get_request",
        json!({"index": 1}),
    );
    assert_eq!(out["request"], "C's first words");
    assert_eq!(out["live"], true);
}

#[test]
fn a_new_chat_never_gets_a_known_dialogs_words() {
    let store = store();
    // Focus is on B, a known dialog: its copy must not be taken for the new chat C.
    let known = b_running();
    let out = call_as(&store, "c", Some(&known), "get_first_request", json!({}));
    assert_eq!(out["success"], false);
    assert_eq!(out["error_type"], "caller_not_found");
    assert!(str_at(&out, "error").contains("another dialog (b)"));
    // An unknown chat, idle or not, proves nothing either: uncertain, its words never given.
    let idle = LiveCopy::Export(export(vec![request("d1", 9_000, "Idle chat", 1)]));
    let out = call_as(&store, "c", Some(&idle), "get_first_request", json!({}));
    assert_eq!(out["error_type"], "caller_uncertain");
    assert!(!out.to_string().contains("Idle chat"));
}

#[test]
fn bad_live_copies_give_a_clear_answer_never_a_panic() {
    let store = store();
    for bytes in [
        b"".to_vec(),
        b"{not json".to_vec(),
        b"[1,2,3]".to_vec(),
        b"{\"requests\": 5}".to_vec(),
        b"{\"requests\": []}".to_vec(),
        vec![0xff; 64],
    ] {
        let live = LiveCopy::Export(bytes.clone());
        let out = call_as(&store, "a", Some(&live), "get_first_request", json!({}));
        assert_eq!(out["sessionId"], "a", "{bytes:?}: {out}");
        assert_eq!(out["live"], false);
        let out = call_as(&store, "zz", Some(&live), "get_first_request", json!({}));
        assert_eq!(out["error_type"], "caller_not_found", "{out}");
    }
    let unavailable = LiveCopy::Unavailable("VS Code wrote no live copy within 2000 ms".into());
    let out = call_as(
        &store,
        "a",
        Some(&unavailable),
        "get_first_request",
        json!({}),
    );
    assert_eq!(out["live"], false);
    assert!(str_at(&out, "behind").contains("VS Code wrote no live copy"));
}

#[test]
fn other_agents_chats_and_unreadable_tokens_are_said_plainly() {
    let store = store();
    // An agent whose logs the Secretary reads, but whose session is not among them.
    let copilot_cli = foreign("copilotcli");
    let out = first_request(&store, Some(&copilot_cli), None);
    assert_eq!(out["error_type"], "caller_not_found");
    assert!(!out.to_string().contains("words of"));
    // A scheme of an agent it cannot read.
    let other = foreign("agent-host-x");
    let out = first_request(&store, Some(&other), None);
    assert_eq!(out["error_type"], "unsupported_chat");
    let unknown = Caller::Unknown {
        shape: "an object with keys [foo]".into(),
    };
    let out = request_at(&store, 1, Some(&unknown), None);
    assert_eq!(out["error_type"], "unknown_caller");
    assert!(!out.to_string().contains("words of"));
}

#[test]
fn a_session_id_argument_wins_over_the_caller() {
    let store = store();
    let out = call_as(
        &store,
        "a",
        None,
        "get_first_request",
        json!({"sessionId": "b"}),
    );
    assert_eq!(out["sessionId"], "b");
    assert_eq!(out["dialogFrom"], "argument");
    // Naming the caller's own session is the caller's rule (with its live copy when the saved
    // copy lacks the request).
    let out = call_as(
        &store,
        "a",
        None,
        "get_request",
        json!({"sessionId": "a", "index": 3}),
    );
    assert_eq!(out["error_type"], "live_pending");
}

fn agent(source: &str, id: &str) -> Caller {
    Caller::Agent {
        source: source.into(),
        session_id: id.into(),
        via: "COPILOT_AGENT_SESSION_ID".into(),
        recorded: true,
    }
}

/// Two Copilot CLI sessions of one folder; `one` is older, `two` the most recent.
fn agent_store() -> SessionStore {
    let log = |id: &str, ts: &str, text: &str| {
        format!(
            "{{\"type\":\"session.start\",\"data\":{{\"sessionId\":\"{id}\",\"context\":{{\"cwd\":\"/work/app\"}}}},\"timestamp\":\"{ts}\"}}\n\
             {{\"type\":\"user.message\",\"data\":{{\"content\":\"{text}\"}},\"timestamp\":\"{ts}\"}}\n"
        )
    };
    let mut store = SessionStore::new();
    for (id, ts, text) in [
        (
            "11111111-aaaa-4aaa-8aaa-000000000001",
            "2026-01-01T00:00:00Z",
            "words of one",
        ),
        (
            "22222222-bbbb-4bbb-8bbb-000000000002",
            "2026-01-02T00:00:00Z",
            "words of two",
        ),
    ] {
        let bytes = log(id, ts, text);
        let path = format!("/h/.copilot/session-state/{id}/events.jsonl");
        put(&mut store, &path, None, bytes.as_bytes());
    }
    store
}

#[test]
fn an_agent_session_that_says_who_it_is_gets_its_own_words() {
    let store = agent_store();
    let one = agent("copilot-cli", "11111111-aaaa-4aaa-8aaa-000000000001");
    let out = first_request(&store, Some(&one), None);
    assert_eq!(out["firstRequest"], "words of one", "{out}");
    assert_eq!(out["dialogFrom"], "caller");
    assert!(out.get("behind").is_none());
    // Without the caller, the most recent session answers and says by which rule.
    let out = first_request(&store, None, None);
    assert_eq!(out["firstRequest"], "words of two");
    assert_eq!(out["dialogFrom"], "mostRecent");
    assert!(
        str_at(&out, "chosenBy").contains("most recently active"),
        "{out}"
    );
}

#[test]
fn an_agent_session_not_read_yet_makes_the_host_wait_then_fails_plainly() {
    let store = agent_store();
    let missing = agent("copilot-cli", "33333333-cccc-4ccc-8ccc-000000000003");
    let out = request_at(&store, 1, Some(&missing), None);
    assert_eq!(out["error_type"], "live_pending", "{out}");
    let waited = LiveCopy::Unavailable("its log did not appear within 1000 ms".into());
    let out = request_at(&store, 1, Some(&missing), Some(&waited));
    assert_eq!(out["success"], false);
    assert_eq!(out["error_type"], "caller_not_found");
    let error = out["error"].as_str().unwrap();
    assert!(
        error.contains("33333333-cccc-4ccc-8ccc-000000000003") && error.contains("1000 ms"),
        "{error}"
    );
    assert!(
        !out.to_string().contains("words of"),
        "another session's words: {out}"
    );
    // A log that exists but did not record the running turn: the host waits, then the log
    // answers and says so.
    let mut one = agent("copilot-cli", "11111111-aaaa-4aaa-8aaa-000000000001");
    if let Caller::Agent { recorded, .. } = &mut one {
        *recorded = false;
    }
    let out = first_request(&store, Some(&one), None);
    assert_eq!(out["error_type"], "live_pending", "{out}");
    let waited =
        LiveCopy::Unavailable("the log did not record the running turn within 1000 ms".into());
    let out = first_request(&store, Some(&one), Some(&waited));
    assert_eq!(out["firstRequest"], "words of one");
    assert!(
        out["behind"].as_str().unwrap().contains("copilot-cli log"),
        "{out}"
    );
}

#[test]
fn garbage_agent_callers_are_refused_never_guessed() {
    let store = agent_store();
    for caller in [
        agent("copilot-cli", "../../etc/passwd"),
        agent("copilot-cli", &"x".repeat(10_000)),
        agent("copilot-cli", ""),
        agent("copilot-cli", "id with spaces"),
        agent("emacs", "11111111-aaaa-4aaa-8aaa-000000000001"),
        agent("vscode", "11111111-aaaa-4aaa-8aaa-000000000001"),
    ] {
        let out = first_request(&store, Some(&caller), None);
        assert_eq!(out["success"], false, "{out}");
        assert_eq!(out["error_type"], "unknown_caller", "{out}");
        assert!(
            out.to_string().len() < 1_000,
            "the answer quotes a bounded part"
        );
        assert!(!out.to_string().contains("words of"), "{out}");
    }
    // Another agent's id of the same session is not this agent's.
    let claude = agent("claude-code", "11111111-aaaa-4aaa-8aaa-000000000001");
    let waited = LiveCopy::Unavailable("waited".into());
    let out = first_request(&store, Some(&claude), Some(&waited));
    assert_eq!(out["error_type"], "caller_not_found", "{out}");
}

#[test]
fn a_long_request_comes_in_parts() {
    let text: String = "é".repeat(45_000) + "END";
    let mut store = SessionStore::new();
    let bytes = session("long", vec![request("l1", 1_000, &text, 1)]);
    put(&mut store, "/s/long.json", Some(WS), &bytes);
    let first = request_at(&store, 1, None, None);
    assert_eq!(first["request"].as_str().unwrap().chars().count(), 20_000);
    assert_eq!(first["length"], 45_003);
    assert_eq!(first["offset"], 0);
    assert_eq!(first["nextOffset"], 20_000);
    let mut whole = String::new();
    let mut offset = json!(0);
    while !offset.is_null() {
        let part =
            call_without_caller(&store, "get_request", json!({"index": 1, "offset": offset}));
        whole.push_str(part["request"].as_str().unwrap());
        offset = part["nextOffset"].clone();
    }
    assert_eq!(whole, text);
    let all = call_without_caller(
        &store,
        "get_request",
        json!({"index": 1, "maxChars": 100_000}),
    );
    assert_eq!(all["request"], text.as_str());
    assert!(
        all.get("nextOffset").is_none(),
        "a whole request has no parts: {all}"
    );
    let past = call_without_caller(&store, "get_request", json!({"index": 1, "offset": 45_004}));
    assert_eq!(
        past["error"],
        "Offset 45004 is past the end of the request (45003 characters)"
    );
    let zero = call_without_caller(&store, "get_request", json!({"index": 1, "maxChars": 0}));
    assert_eq!(zero["error"], "maxChars must be 1 or greater");
    let negative = call_without_caller(&store, "get_request", json!({"index": 1, "offset": -1}));
    assert_eq!(negative["success"], false);
}
