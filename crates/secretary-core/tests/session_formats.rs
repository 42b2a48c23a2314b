//! Every format, version and mutation kind on small synthetic files; odd shapes; bad inputs; and
//! the store's incremental reading. Each file here is written by hand from the format notes
//! (`docs/chat-session-formats.md`) and VS Code's sources, so the expectations do not come from
//! the code under test.

#[path = "common/json.rs"]
mod json;

#[path = "common/session_files.rs"]
mod session_files;

use json::assert_has;
use secretary_core::session::{
    parse, parse_with_limit, response_details, DialogStatus, ReadPlan, RequestStatus, SessionError,
    SessionFormat, SessionStore, MAX_SESSION_BYTES,
};
use serde_json::{json, Value};
use session_files::{assert_diagnostic, meta};

fn texts(dialog: &secretary_core::session::Dialog) -> Vec<&str> {
    dialog.requests.iter().map(|r| r.text.as_str()).collect()
}

fn lines(entries: &[Value]) -> String {
    entries.iter().map(|e| format!("{e}\n")).collect()
}

fn req(id: &str, text: &str, ts: i64) -> Value {
    json!({"requestId": id, "timestamp": ts, "message": {"text": text, "parts": [{"text": text, "kind": "text"}]},
           "agent": {"id": "github.copilot.editsAgent", "extensionVersion": "1"}, "modelId": "copilot/gpt-4o",
           "response": [{"value": format!("answer to {text}")}], "result": {"metadata": {"big": [1, 2, 3]}},
           "modelState": {"value": 1, "completedAt": ts + 5}})
}

// ---------------------------------------------------------------- native .json

#[test]
fn native_version_3() {
    let file = json!({"version": 3, "sessionId": "abc", "creationDate": 1000, "lastMessageDate": 9000,
        "customTitle": "My title", "initialLocation": "editor", "requesterUsername": "me",
        "requests": [req("r1", "first", 2000), req("r2", "second", 3000)]});
    let d = parse("/ws/chatSessions/abc.json", file.to_string().as_bytes()).unwrap();
    assert_eq!(d.format, SessionFormat::NativeJson);
    assert_eq!(d.session_id, "abc");
    assert_eq!(d.title, "My title");
    assert_eq!(d.creation_date, Some(1000));
    assert_eq!(d.last_activity, Some(9000));
    assert_eq!(d.location.as_deref(), Some("editor"));
    assert_eq!(texts(&d), ["first", "second"]);
    let r = &d.requests[1];
    assert_eq!(
        (r.index, r.request_id.as_deref(), r.timestamp),
        (2, Some("r2"), Some(3000))
    );
    assert_eq!(r.model_id.as_deref(), Some("copilot/gpt-4o"));
    assert_eq!(r.agent_id.as_deref(), Some("github.copilot.editsAgent"));
    assert_eq!(d.status, DialogStatus::Complete);
    assert!(d.diagnostics.is_empty());
}

#[test]
fn native_version_1_and_2_shapes() {
    // Version 1: no creationDate, a bare-string message, a string response, isCanceled.
    let v1 = json!({"version": 1, "sessionId": "old", "requests": [
        {"message": "bare text from 2023", "response": "plain", "isCanceled": false, "timestamp": 50},
        {"message": "canceled one", "isCanceled": true}]});
    let d = parse("old.json", v1.to_string().as_bytes()).unwrap();
    assert_eq!(texts(&d), ["bare text from 2023", "canceled one"]);
    assert_eq!(
        d.creation_date,
        Some(50),
        "falls back to the first request's timestamp"
    );
    assert_eq!(d.requests[1].status, RequestStatus::Canceled);
    assert_eq!(d.title, "bare text from 2023");
    assert_eq!(
        response_details("old.json", v1.to_string().as_bytes(), 1)
            .unwrap()
            .markdown,
        "plain"
    );
    // Version 2: computedTitle is not a custom title; 2-space indentation.
    let v2 = json!({"version": 2, "sessionId": "v2", "creationDate": 7, "computedTitle": "ignored",
        "requests": [{"message": {"parts": [{"text": "from "}, {"kind": "prompt"}, {"text": "parts"}]}}]});
    let pretty = serde_json::to_string_pretty(&v2).unwrap();
    let d = parse("v2.json", pretty.as_bytes()).unwrap();
    assert_eq!(
        texts(&d),
        ["from parts"],
        "message.parts[].text joined when there is no text"
    );
    assert_eq!(d.title, "from parts");
}

#[test]
fn request_status_from_model_state_is_canceled_and_error_details() {
    let mk = |extra: Value| {
        let mut r = json!({"message": {"text": "x"}});
        for (k, v) in extra.as_object().unwrap() {
            r[k] = v.clone();
        }
        r
    };
    let cases = [
        (
            json!({"modelState": {"value": 0}}),
            RequestStatus::InProgress,
        ),
        (json!({"modelState": {"value": 1}}), RequestStatus::Complete),
        (json!({"modelState": {"value": 2}}), RequestStatus::Canceled),
        (json!({"modelState": {"value": 3}}), RequestStatus::Failed),
        (
            json!({"modelState": {"value": 4}}),
            RequestStatus::NeedsInput,
        ),
        (json!({"isCanceled": true}), RequestStatus::Canceled),
        (json!({"isCanceled": false}), RequestStatus::Complete),
        (
            json!({"result": {"errorDetails": {"code": "canceled", "message": "x"}}}),
            RequestStatus::Canceled,
        ),
        (
            json!({"result": {"errorDetails": {"code": "failed", "message": "x"}}}),
            RequestStatus::Failed,
        ),
        (
            json!({"result": {"errorDetails": {"message": "no code"}}}),
            RequestStatus::Failed,
        ),
        (
            json!({"responseErrorDetails": {"message": "old place"}}),
            RequestStatus::Failed,
        ),
        (json!({"result": {"metadata": {}}}), RequestStatus::Complete),
        (json!({}), RequestStatus::Complete),
    ];
    for (extra, want) in cases {
        let file = json!({"version": 3, "sessionId": "s", "requests": [mk(extra.clone())]});
        let d = parse("s.json", file.to_string().as_bytes()).unwrap();
        assert_eq!(d.requests[0].status, want, "{extra}");
    }
    let dialog_status = |state: i64| {
        let file = json!({"version": 3, "sessionId": "s", "requests": [mk(json!({"modelState": {"value": state}}))]});
        parse("s.json", file.to_string().as_bytes()).unwrap().status
    };
    assert_eq!(dialog_status(0), DialogStatus::Active);
    assert_eq!(dialog_status(4), DialogStatus::NeedsInput);
    assert_eq!(dialog_status(3), DialogStatus::Failed);
    let empty = parse("e.json", br#"{"version":3,"sessionId":"e","requests":[]}"#).unwrap();
    assert_eq!(
        (empty.status, empty.title.as_str()),
        (DialogStatus::Empty, "Untitled dialog")
    );
}

/// A timestamp no millisecond count can hold is said to be out of range, not "a number, not a
/// number"; the request is kept without a time.
#[test]
fn a_timestamp_out_of_range_is_said_so() {
    let file = r#"{"version":3,"sessionId":"far","requests":[
        {"message":{"text":"far"},"timestamp":99999999999999999999999},
        {"message":{"text":"near"},"timestamp":1000}]}"#;
    let d = parse("far.json", file.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["far", "near"]);
    assert_eq!(d.requests[0].timestamp, None);
    assert_eq!(d.requests[1].timestamp, Some(1000));
    let diags = d.diagnostics.join("\n");
    assert!(
        diags.contains("request 1 has a timestamp that is out of range; ignored"),
        "{diags}"
    );
    assert!(!diags.contains("not a number"), "{diags}");
}

#[test]
fn odd_requests_are_kept_and_explained() {
    let file = json!({"version": 3, "sessionId": "odd", "requests": [
        null,
        42,
        {"requestId": "no-message"},
        {"message": {"text": 7}},
        {"message": "fine", "timestamp": "yesterday"},
        {"message": {"text": "ok"}, "modelState": {"value": 99}},
        {"message": {"text": "deep", "parts": [[[[[[[[[[[[1]]]]]]]]]]]]}, "agent": "not an object"},
        "a bare string request"
    ]});
    let d = parse("odd.json", file.to_string().as_bytes()).unwrap();
    assert_eq!(d.requests.len(), 8, "no request is lost");
    assert_eq!(
        texts(&d),
        [
            "",
            "",
            "",
            "",
            "fine",
            "ok",
            "deep",
            "a bare string request"
        ]
    );
    assert_eq!(d.requests[2].request_id.as_deref(), Some("no-message"));
    assert_eq!(d.requests[4].timestamp, None);
    assert_eq!(d.requests[6].agent_id, None);
    let diags = d.diagnostics.join("\n");
    for needle in [
        "request 1 is null",
        "request 2 is a number",
        "request 3 has no message",
        "request 4 has a message without text",
        "request 5 has a timestamp that is a string",
        "request 6 has an unknown modelState 99",
        "request 8 is a string",
    ] {
        assert!(diags.contains(needle), "missing {needle:?} in {diags}");
    }
    assert_eq!(
        d.title, "fine",
        "the title previews the first request with text"
    );
}

#[test]
fn titles_preview_the_first_request() {
    let long = "word ".repeat(40);
    let file = json!({"version": 3, "sessionId": "t", "customTitle": "  ", "requests": [{"message": {"text": long}}]});
    let d = parse("t.json", file.to_string().as_bytes()).unwrap();
    assert_eq!(d.title.chars().count(), 80);
    assert!(d.title.ends_with("..."));
    assert_eq!(d.title, secretary_core::text::preview(&long, 80));
}

// ---------------------------------------------------------------- exports

#[test]
fn three_generations_of_exports() {
    let y2024 = json!({"requesterUsername": "me", "responderUsername": "GitHub Copilot", "initialLocation": "panel",
        "welcomeMessage": ["Hi **@me**, how can I help you?"],
        "requests": [{"message": {"text": "2024 question", "parts": []}, "response": [{"value": "A"}], "isCanceled": false}]});
    let y2025 = json!({"requesterUsername": "me", "initialLocation": "panel", "requests": [
        {"requestId": "request_1", "timestamp": 1_750_000_000_000i64, "agent": {"id": "github.copilot.default"},
         "message": {"text": "2025 question"}, "isCanceled": true}]});
    let dec2025 = json!({"initialLocation": "panel", "requests": [
        {"requestId": "request_2", "timestamp": 1_765_000_000_000i64, "modelId": "copilot/gpt-5",
         "message": {"text": "late 2025"}, "modelState": {"value": 1}}]});
    for (file, name, text, status) in [
        (
            y2024,
            "/tmp/export-2024.json",
            "2024 question",
            RequestStatus::Complete,
        ),
        (
            y2025,
            "/tmp/chat.json",
            "2025 question",
            RequestStatus::Canceled,
        ),
        (
            dec2025,
            "C:\\Users\\me\\late.json",
            "late 2025",
            RequestStatus::Complete,
        ),
    ] {
        let d = parse(name, file.to_string().as_bytes()).unwrap();
        assert_eq!(d.format, SessionFormat::Export, "{name}");
        assert_eq!(texts(&d), [text]);
        assert_eq!(d.requests[0].status, status);
    }
    let d = parse(
        "/tmp/chat.json",
        br#"{"requests":[{"message":{"text":"q"}}]}"#,
    )
    .unwrap();
    assert_eq!(d.session_id, "chat", "exports use the file stem");
    let d = parse("C:\\Users\\me\\late.json", br#"{"requests":[]}"#).unwrap();
    assert_eq!(d.session_id, "late");
}

// ---------------------------------------------------------------- native .jsonl

fn initial(requests: Vec<Value>) -> Value {
    json!({"kind": 0, "v": {"version": 3, "creationDate": 100, "customTitle": "Log", "initialLocation": "panel",
        "sessionId": "log-1", "requests": requests, "inputState": {"inputText": ""}}})
}

#[test]
fn every_mutation_kind() {
    let log = lines(&[
        initial(vec![req("r1", "one", 1000)]),
        json!({"kind": 1, "k": ["inputState", "inputText"], "v": "typing"}),
        json!({"kind": 2, "k": ["requests"], "v": [req("r2", "two", 2000)]}),
        json!({"kind": 2, "k": ["requests", 1, "response"], "v": [{"value": "streamed"}]}),
        json!({"kind": 1, "k": ["requests", 1, "modelState"], "v": {"value": 0}}),
        json!({"kind": 1, "k": ["requests", 0, "message", "text"], "v": "one (edited)"}),
        json!({"kind": 1, "k": ["customTitle"], "v": "Renamed"}),
        json!({"kind": 2, "k": ["requests"], "v": [req("r3", "three", 3000), req("r4", "four", 4000)]}),
        // Push with `i`: truncate to 3 then push: request 4 is replaced.
        json!({"kind": 2, "k": ["requests"], "v": [req("r4b", "four again", 4500)], "i": 3}),
        json!({"kind": 3, "k": ["requests", 2, "modelState"]}),
        json!({"kind": 1, "k": ["requests", 2, "isCanceled"], "v": true}),
        json!({"kind": 3, "k": ["customTitle"]}),
        json!({"kind": 1, "k": ["requests", 3, "result"], "v": {"errorDetails": {"code": "failed"}, "metadata": {"x": 1}}}),
    ]);
    let d = parse("log-1.jsonl", log.as_bytes()).unwrap();
    assert_eq!(d.format, SessionFormat::NativeJsonl);
    assert_eq!(d.session_id, "log-1");
    assert_eq!(texts(&d), ["one (edited)", "two", "three", "four again"]);
    let statuses: Vec<_> = d.requests.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [
            RequestStatus::Complete,
            RequestStatus::InProgress,
            RequestStatus::Canceled,
            RequestStatus::Failed
        ]
    );
    assert_eq!(d.requests[3].request_id.as_deref(), Some("r4b"));
    assert_eq!(d.title, "one (edited)", "customTitle was deleted");
    assert_eq!(d.last_activity, Some(4500));
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    // Truncating to fewer items drops the rest.
    let shrink = format!("{log}{}\n", json!({"kind": 2, "k": ["requests"], "i": 1}));
    assert_eq!(
        texts(&parse("log-1.jsonl", shrink.as_bytes()).unwrap()),
        ["one (edited)"]
    );
}

#[test]
fn set_without_value_is_a_delete_and_delete_on_an_index_leaves_a_slot() {
    // `JSON.stringify({kind: 1, k, v: undefined})` drops `v`.
    let log = lines(&[
        initial(vec![
            req("r1", "one", 1000),
            req("r2", "two", 2000),
            req("r3", "three", 3000),
        ]),
        json!({"kind": 1, "k": ["requests", 0, "modelState"]}),
        json!({"kind": 1, "k": ["requests", 0, "isCanceled"], "v": true}),
        json!({"kind": 3, "k": ["requests", 1]}),
    ]);
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(
        d.requests[0].status,
        RequestStatus::Canceled,
        "modelState gone, isCanceled applies"
    );
    assert_eq!(
        texts(&d),
        ["one", "", "three"],
        "later requests keep their numbers"
    );
    assert!(d
        .diagnostics
        .iter()
        .any(|m| m.contains("request 2 was deleted")));
}

#[test]
fn compaction_replaces_everything() {
    let log = lines(&[
        initial(vec![req("r1", "old one", 1000)]),
        json!({"kind": 2, "k": ["requests"], "v": [req("r2", "old two", 2000)]}),
        json!({"kind": 0, "v": {"version": 3, "sessionId": "log-1", "creationDate": 100,
            "requests": [req("n1", "new one", 5000)]}}),
        json!({"kind": 2, "k": ["requests"], "v": [req("n2", "new two", 6000)]}),
    ]);
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["new one", "new two"]);
    assert_eq!(d.title, "new one", "the compacted state has no customTitle");
}

#[test]
fn cut_off_last_line_keeps_the_last_complete_state() {
    let mut log = lines(&[
        initial(vec![req("r1", "one", 1000)]),
        json!({"kind": 2, "k": ["requests"], "v": [req("r2", "two", 2000)]}),
    ]);
    let third = json!({"kind": 2, "k": ["requests"], "v": [req("r3", "three", 3000)]}).to_string();
    log.push_str(&third[..third.len() / 2]);
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["one", "two"]);
    assert_diagnostic(&d, |m| m.contains("line 3") && m.contains("cut off"));
    // A last line that is complete but has no newline yet is applied, as VS Code's reader does.
    let whole = format!("{}{third}", lines(&[initial(vec![req("r1", "one", 1000)])]));
    assert_eq!(
        texts(&parse("x.jsonl", whole.as_bytes()).unwrap()),
        ["one", "three"]
    );
}

#[test]
fn bad_middle_lines_are_skipped_without_losing_requests() {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(lines(&[initial(vec![req("r1", "one", 1000)])]).as_bytes());
    bytes.extend_from_slice(b"{\"kind\":2,\"k\":[\"requests\"],\"v\":[{broken\n");
    bytes.extend_from_slice(
        lines(&[json!({"kind": 2, "k": ["requests"], "v": [req("r2", "two", 2000)]})]).as_bytes(),
    );
    bytes.extend_from_slice(b"\xff\xfe not utf8\n");
    bytes.extend_from_slice(
        lines(&[json!({"kind": 1, "k": ["requests", 9, "modelState"], "v": {"value": 2}})])
            .as_bytes(),
    );
    bytes.extend_from_slice(lines(&[json!({"kind": 7, "k": ["x"], "v": 1})]).as_bytes());
    bytes.extend_from_slice(b"[1,2,3]\n");
    bytes.extend_from_slice(
        lines(&[json!({"kind": 2, "k": ["requests"], "v": [req("r3", "three", 3000)]})]).as_bytes(),
    );
    let d = parse("x.jsonl", &bytes).unwrap();
    // The broken push keeps its place (issue 27): "two" stays request 3, "three" request 4.
    assert_eq!(texts(&d), ["one", "", "two", "three"]);
    let diags = d.diagnostics.join("\n");
    assert!(diags.contains("line 2 skipped"), "{diags}");
    assert!(diags.contains("request 2 could not be read"), "{diags}");
    assert!(diags.contains("line 4 skipped: not valid UTF-8"), "{diags}");
    assert_has(
        &diags,
        "line 5 skipped: goes into request 10 but there are only 3",
    );
    assert_has(&diags, "line 6 skipped: unknown mutation kind 7");
    assert_has(&diags, "line 7 skipped: the line is an array");
}

#[test]
fn mutations_into_unkept_fields_are_ignored_but_checked() {
    let log = lines(&[
        initial(vec![req("r1", "one", 1000)]),
        json!({"kind": 2, "k": ["requests", 0, "response"], "v": [{"kind": "toolInvocationSerialized", "toolCallId": "a"}, {"value": "more"}]}),
        json!({"kind": 1, "k": ["requests", 0, "result", "metadata", "deep"], "v": {"x": [[[[1]]]]}}),
        json!({"kind": 2, "k": ["requests", 0, "editedFileEvents"], "v": [{"eventKind": 1}]}),
        json!({"kind": 1, "k": ["hasPendingEdits"], "v": true}),
        json!({"kind": 1, "k": ["requests", 4, "response"], "v": []}),
    ]);
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["one"]);
    assert_eq!(d.diagnostics.len(), 1, "{:?}", d.diagnostics);
    assert!(d.diagnostics[0].contains("line 6 skipped: goes into request 5"));
    // The on-demand path does read the response pushes.
    let details = response_details("x.jsonl", log.as_bytes(), 1).unwrap();
    assert_eq!(details.tool_calls, 1);
    assert_eq!(details.markdown, "answer to one\n\nmore");
}

#[test]
fn details_follow_push_with_truncation_on_the_response() {
    let log = lines(&[
        initial(vec![
            json!({"requestId": "r1", "message": {"text": "q"}, "response": []}),
        ]),
        json!({"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "Hel"}]}),
        json!({"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "Hello"}], "i": 0}),
        json!({"kind": 2, "k": ["requests", 0, "response"], "v": [{"kind": "inlineReference", "inlineReference": {"path": "/src/main.rs"}}, {"value": " world"}]}),
        json!({"kind": 2, "k": ["requests"], "v": [{"requestId": "r2", "message": {"text": "q2"}, "response": [{"value": "second"}]}]}),
    ]);
    assert_eq!(
        response_details("x.jsonl", log.as_bytes(), 1)
            .unwrap()
            .markdown,
        "Hello`main.rs` world"
    );
    assert_eq!(
        response_details("x.jsonl", log.as_bytes(), 2)
            .unwrap()
            .markdown,
        "second"
    );
    assert!(matches!(
        response_details("x.jsonl", log.as_bytes(), 3),
        Err(SessionError::RequestOutOfRange { index: 3, count: 2 })
    ));
    assert!(matches!(
        response_details("x.jsonl", log.as_bytes(), 0),
        Err(SessionError::RequestOutOfRange { .. })
    ));
}

#[test]
fn mutation_before_the_initial_state_and_logs_without_one() {
    let log = lines(&[
        json!({"kind": 2, "k": ["requests"], "v": [req("r0", "too early", 1)]}),
        initial(vec![req("r1", "one", 1000)]),
    ]);
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["one"]);
    let log = lines(&[json!({"kind": 1, "k": ["customTitle"], "v": "x"})]);
    assert!(matches!(
        parse("x.jsonl", log.as_bytes()),
        Err(SessionError::NoInitialState(_))
    ));
    let half = &initial(vec![]).to_string()[..20];
    let err = parse("x.jsonl", half.as_bytes()).unwrap_err();
    assert!(matches!(err, SessionError::NoInitialState(_)), "{err}");
}

#[test]
fn value_before_path_is_read_once_the_path_is_known() {
    let log = format!(
        "{}{}\n",
        lines(&[initial(vec![req("r1", "one", 1000)])]),
        r#"{"v":"late text","k":["requests",0,"message","text"],"kind":1}"#
    );
    assert_eq!(
        texts(&parse("x.jsonl", log.as_bytes()).unwrap()),
        ["late text"]
    );
}

// ---------------------------------------------------------------- transcripts

fn event(kind: &str, data: Value, ts: &str, id: &str) -> Value {
    json!({"type": kind, "data": data, "id": id, "timestamp": ts, "parentId": null})
}

/// A transcript of `(timestamp, type, data)` events, one a line, with the ids `e1`, `e2`... in
/// order.
fn events(list: Vec<(&str, &str, Value)>) -> String {
    let values: Vec<Value> = list
        .into_iter()
        .enumerate()
        .map(|(i, (ts, kind, data))| event(kind, data, ts, &format!("e{}", i + 1)))
        .collect();
    lines(&values)
}

fn transcript() -> String {
    events(vec![
        (
            "2026-01-15T10:00:00.000Z",
            "session.start",
            json!({"sessionId": "tr-1", "version": 1, "producer": "copilot-agent",
            "copilotVersion": "0.33.0", "startTime": "2026-01-15T10:00:00.000Z", "selectedModel": "claude-sonnet-4",
            "context": {"cwd": "/home/me/p"}}),
        ),
        (
            "2026-01-15T10:00:01.000Z",
            "user.message",
            json!({"content": "Fix the login bug", "attachments": [], "interactionId": "int-1"}),
        ),
        (
            "2026-01-15T10:00:02.000Z",
            "assistant.turn_start",
            json!({"turnId": "0", "interactionId": "int-1"}),
        ),
        (
            "2026-01-15T10:00:03.000Z",
            "assistant.message",
            json!({"messageId": "m1", "content": "Looking at login.ts.",
            "toolRequests": [{"toolCallId": "c1", "name": "read_file", "type": "function"}]}),
        ),
        (
            "2026-01-15T10:00:04.000Z",
            "tool.execution_start",
            json!({"toolCallId": "c1", "toolName": "read_file", "arguments": {"path": "login.ts"}}),
        ),
        (
            "2026-01-15T10:00:05.000Z",
            "tool.execution_complete",
            json!({"toolCallId": "c1", "success": true, "result": "x".repeat(1000)}),
        ),
        (
            "2026-01-15T10:00:06.000Z",
            "assistant.message",
            json!({"messageId": "m2", "content": "Fixed it.", "toolRequests": []}),
        ),
        (
            "2026-01-15T10:00:07.000Z",
            "assistant.turn_end",
            json!({"turnId": "0"}),
        ),
        (
            "2026-01-15T10:01:00.000Z",
            "session.model_change",
            json!({"newModel": "gpt-5"}),
        ),
        (
            "2026-01-15T10:02:00.000Z",
            "user.message",
            json!({"content": "Also add a test", "attachments": []}),
        ),
        (
            "2026-01-15T10:02:01.000Z",
            "assistant.turn_start",
            json!({"turnId": "0"}),
        ),
        (
            "2026-01-15T10:02:02.000Z",
            "abort",
            json!({"reason": "user"}),
        ),
        (
            "2026-01-15T10:03:00.000Z",
            "user.message",
            json!({"content": "Try again"}),
        ),
        (
            "2026-01-15T10:03:01.000Z",
            "assistant.turn_start",
            json!({"turnId": "0"}),
        ),
    ])
}

#[test]
fn copilot_transcripts() {
    let path = "/u/workspaceStorage/abc/GitHub.copilot-chat/transcripts/tr-1.jsonl";
    let d = parse(path, transcript().as_bytes()).unwrap();
    assert_eq!(d.format, SessionFormat::Transcript);
    assert_eq!(d.session_id, "tr-1");
    assert_eq!(
        texts(&d),
        ["Fix the login bug", "Also add a test", "Try again"]
    );
    assert_eq!(d.requests[0].request_id.as_deref(), Some("int-1"));
    assert_eq!(
        d.requests[1].request_id.as_deref(),
        Some("e10"),
        "no interactionId: the event id"
    );
    assert_eq!(d.requests[0].timestamp, Some(1_768_471_201_000));
    assert_eq!(d.requests[0].model_id.as_deref(), Some("claude-sonnet-4"));
    assert_eq!(d.requests[1].model_id.as_deref(), Some("gpt-5"));
    let statuses: Vec<_> = d.requests.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [
            RequestStatus::Complete,
            RequestStatus::Canceled,
            RequestStatus::InProgress
        ]
    );
    assert_eq!(d.status, DialogStatus::Active);
    assert_eq!(d.creation_date, Some(1_768_471_200_000));
    assert_eq!(d.last_activity, Some(1_768_471_381_000));
    let details = response_details(path, transcript().as_bytes(), 1).unwrap();
    assert_eq!(
        (details.markdown.as_str(), details.tool_calls),
        ("Looking at login.ts.\n\nFixed it.", 1)
    );
    // Detected by content too, whatever the name; `data` before `type` is fine.
    let d = parse("events.jsonl", transcript().as_bytes()).unwrap();
    assert_eq!(d.format, SessionFormat::Transcript);
    let reordered = r#"{"data":{"content":"data first"},"timestamp":"2026-01-15T10:00:01Z","type":"user.message"}"#;
    let d = parse("/x/transcripts/y.jsonl", reordered.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["data first"]);
    assert_eq!(d.session_id, "y");
    let junk = "not json\n{\"no\":\"type\"}\n";
    assert!(matches!(
        parse("/x/transcripts/y.jsonl", junk.as_bytes()),
        Err(SessionError::NotASession(_))
    ));
}

// ---------------------------------------------------------------- bad inputs

#[test]
fn bad_files_fail_with_clear_errors() {
    type Check = fn(&SessionError) -> bool;
    let cases: Vec<(&str, Vec<u8>, Check)> = vec![
        ("a.json", vec![], |e| *e == SessionError::Empty),
        ("a.jsonl", b" \n\n ".to_vec(), |e| *e == SessionError::Empty),
        (
            "a.json",
            b"{\"version\":3,\"requests\":[{\"message\":{\"text\":\"hi".to_vec(),
            |e| matches!(e, SessionError::Truncated { .. }),
        ),
        ("a.json", b"{\"version\":3,\"requests\":[}".to_vec(), |e| {
            matches!(e, SessionError::Malformed { line: 1, .. })
        }),
        ("a.json", b"{\"requests\":[]} trailing".to_vec(), |e| {
            matches!(e, SessionError::Malformed { .. })
        }),
        (
            "a.json",
            b"{\"version\":3,\"sessionId\":\"\xff\"}".to_vec(),
            |e| matches!(e, SessionError::NotUtf8 { offset: 26 }),
        ),
        (
            "a.jsonl",
            b"\xff\xfe{\x00\"\x00".to_vec(),
            |e| matches!(e, SessionError::NoInitialState(m) if m.contains("UTF-8")),
        ),
        ("a.jsonl", b"[[[[\n".to_vec(), |e| {
            matches!(e, SessionError::NoInitialState(_))
        }),
    ];
    for (name, bytes, check) in cases {
        assert_fails(name, &bytes, check);
    }
    // Valid JSON that is no session: the error says what was found instead.
    for (bytes, found) in [
        (&b"[1,2,3]"[..], "array"),
        (b"42", "number"),
        (b"{\"hello\":\"world\"}", "requests"),
        (b"{\"requests\":\"no\"}", "string"),
    ] {
        assert_fails(
            "a.json",
            bytes,
            |e| matches!(e, SessionError::NotASession(m) if m.contains(found)),
        );
    }
}

/// Asserts that `parse` refuses `bytes` as the file `name` with an error `check` accepts and a
/// message that says something.
#[track_caller]
fn assert_fails(name: &str, bytes: &[u8], check: impl Fn(&SessionError) -> bool) {
    let err = parse(name, bytes).expect_err(&String::from_utf8_lossy(bytes));
    assert!(
        check(&err),
        "{name} {:?}: got {err:?}",
        String::from_utf8_lossy(bytes)
    );
    assert!(!err.to_string().is_empty());
}

#[test]
fn deep_nesting_never_overflows_the_stack() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    // A whole file of brackets.
    for name in [
        "deep.json",
        "deep.jsonl",
        "transcripts/deep.jsonl",
        "chat.json",
    ] {
        assert!(parse(name, deep(100_000).as_bytes()).is_err(), "{name}");
        assert!(
            parse(name, "[".repeat(100_000).as_bytes()).is_err(),
            "{name} unclosed"
        );
    }
    // Deep nesting inside skipped fields is scanned without recursion: the session still reads.
    let file = format!(
        r#"{{"version":3,"sessionId":"d","requests":[{{"message":{{"text":"ok","parts":{}}},"response":{},"result":{{"metadata":{}}}}}]}}"#,
        deep(100_000),
        deep(100_000),
        deep(100_000)
    );
    let d = parse("d.json", file.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["ok"]);
    let details = response_details("d.json", file.as_bytes(), 1).unwrap();
    assert_eq!(details.tool_calls, 0);
    let log = format!(
        "{}{{\"kind\":2,\"k\":[\"requests\",0,\"response\"],\"v\":{}}}\n{{\"kind\":1,\"k\":[\"requests\",0,\"message\"],\"v\":{}}}\n",
        lines(&[initial(vec![req("r1", "one", 1000)])]),
        deep(100_000),
        deep(100_000)
    );
    let d = parse("d.jsonl", log.as_bytes()).unwrap();
    assert_eq!(d.requests.len(), 1, "{:?}", d.diagnostics);
    assert_diagnostic(&d, |m| m.contains("message that is an array"));
    assert!(response_details("d.jsonl", log.as_bytes(), 1).is_ok());
    // Nesting past serde_json's recursion limit (128) in a skipped field is fine too.
    let objects = format!("{}1{}", "{\"a\":".repeat(200), "}".repeat(200));
    let file = format!(
        r#"{{"version":3,"sessionId":"d","requests":[{{"message":{{"text":"ok"}},"x":{objects}}}]}}"#
    );
    assert_eq!(texts(&parse("d.json", file.as_bytes()).unwrap()), ["ok"]);
}

#[test]
fn size_cap() {
    assert_eq!(MAX_SESSION_BYTES, 512 * 1024 * 1024);
    let file = br#"{"version":3,"sessionId":"s","requests":[]}"#;
    assert!(parse_with_limit("s.json", file, file.len()).is_ok());
    let err = parse_with_limit("s.json", file, file.len() - 1).unwrap_err();
    assert_eq!(
        err,
        SessionError::TooLarge {
            size: file.len() as u64,
            limit: file.len() as u64 - 1
        }
    );
    assert!(err.to_string().contains("over the"));
}

// ---------------------------------------------------------------- the store

/// Applies `bytes` (the whole current file) the way a host would: plan, read, apply.
fn sync(
    store: &mut SessionStore,
    path: &str,
    ws: Option<&str>,
    bytes: &[u8],
    mtime: f64,
) -> Option<ReadPlan> {
    let m = meta(bytes.len(), mtime);
    let plan = store.plan(path, m);
    match plan {
        ReadPlan::Skip => {}
        ReadPlan::Full => {
            let _ = store.apply(path, ws, m, 0, bytes);
        }
        ReadPlan::From { offset } => {
            let outcome = store
                .apply(path, ws, m, offset, &bytes[offset as usize..])
                .unwrap();
            if outcome.needs_full_read {
                let _ = store.apply(path, ws, m, 0, bytes);
            }
        }
    }
    Some(plan)
}

#[test]
fn store_reads_only_what_was_appended() {
    let path = "/ws1/chatSessions/log-1.jsonl";
    let mut store = SessionStore::new();
    let mut file = lines(&[initial(vec![req("r1", "one", 1000)])]).into_bytes();
    assert_eq!(store.plan(path, meta(file.len(), 1.0)), ReadPlan::Full);
    store
        .apply(path, Some("ws1"), meta(file.len(), 1.0), 0, &file)
        .unwrap();
    let g1 = store.generation();
    assert_eq!(store.plan(path, meta(file.len(), 1.0)), ReadPlan::Skip);

    // Append one push: the plan asks for a little before the old end (to check the overlap).
    let old_len = file.len();
    file.extend_from_slice(
        lines(&[json!({"kind": 2, "k": ["requests"], "v": [req("r2", "two", 2000)]})]).as_bytes(),
    );
    let ReadPlan::From { offset } = store.plan(path, meta(file.len(), 2.0)) else {
        panic!("expected From")
    };
    assert!(
        offset < old_len as u64 && old_len as u64 - offset <= 64,
        "offset {offset} for old length {old_len}"
    );
    // Only the bytes from `offset` are handed over: the store never sees the start again.
    let outcome = store
        .apply(
            path,
            Some("ws1"),
            meta(file.len(), 2.0),
            offset,
            &file[offset as usize..],
        )
        .unwrap();
    assert!(outcome.changed && !outcome.needs_full_read);
    assert_eq!(
        texts(&store.get("log-1").unwrap().dialog),
        ["one", "two"],
        "the push was applied once"
    );
    assert!(store.generation() > g1);

    // A partial trailing line waits; its completion is applied once.
    let push3 = json!({"kind": 2, "k": ["requests"], "v": [req("r3", "three", 3000)]}).to_string();
    let (head, tail) = push3.split_at(40);
    file.extend_from_slice(head.as_bytes());
    sync(&mut store, path, Some("ws1"), &file, 3.0);
    let stored = store.get("log-1").unwrap();
    assert_eq!(texts(&stored.dialog), ["one", "two"]);
    assert!(stored
        .dialog
        .diagnostics
        .iter()
        .any(|m| m.contains("cut off")));
    file.extend_from_slice(tail.as_bytes());
    file.push(b'\n');
    let g2 = store.generation();
    assert!(matches!(
        sync(&mut store, path, Some("ws1"), &file, 4.0),
        Some(ReadPlan::From { .. })
    ));
    let stored = store.get("log-1").unwrap();
    assert_eq!(texts(&stored.dialog), ["one", "two", "three"]);
    assert!(
        stored.dialog.diagnostics.is_empty(),
        "{:?}",
        stored.dialog.diagnostics
    );
    assert!(store.generation() > g2);
    assert_eq!(
        stored.dialog,
        parse(path, &file).unwrap(),
        "incremental == whole read"
    );

    // Nothing new: no change, generation unchanged.
    let g3 = store.generation();
    assert_eq!(store.plan(path, meta(file.len(), 4.0)), ReadPlan::Skip);
    let same = store
        .apply(
            path,
            Some("ws1"),
            meta(file.len(), 5.0),
            file.len() as u64 - 10,
            &file[file.len() - 10..],
        )
        .unwrap();
    assert!(!same.changed && !same.needs_full_read);
    assert_eq!(store.generation(), g3);
}

#[test]
fn store_detects_rewrites_and_shrinks() {
    let path = "/ws/chatSessions/log-1.jsonl";
    let mut store = SessionStore::new();
    let long = lines(&[
        initial(vec![req("r1", "one", 1000)]),
        json!({"kind": 2, "k": ["requests"], "v": [req("r2", "two", 2000)]}),
    ]);
    store
        .apply(path, None, meta(long.len(), 1.0), 0, long.as_bytes())
        .unwrap();
    // Compaction into a single, shorter kind 0 line: a shrink means a full read.
    let compacted = lines(&[initial(vec![
        req("r1", "one", 1000),
        req("r2", "two", 2000),
    ])]);
    assert!(compacted.len() < long.len());
    assert_eq!(store.plan(path, meta(compacted.len(), 2.0)), ReadPlan::Full);
    // A rewrite that ends up longer: the overlap check catches it.
    let rewritten = lines(&[initial(vec![
        req("x1", "rewritten one", 1000),
        req("x2", "rewritten two", 2000),
        req("x3", "three", 3000),
    ])]);
    assert!(rewritten.len() > long.len());
    let ReadPlan::From { offset } = store.plan(path, meta(rewritten.len(), 3.0)) else {
        panic!()
    };
    let outcome = store
        .apply(
            path,
            None,
            meta(rewritten.len(), 3.0),
            offset,
            &rewritten.as_bytes()[offset as usize..],
        )
        .unwrap();
    assert!(outcome.needs_full_read && !outcome.changed);
    store
        .apply(
            path,
            None,
            meta(rewritten.len(), 3.0),
            0,
            rewritten.as_bytes(),
        )
        .unwrap();
    assert_eq!(
        texts(&store.get("log-1").unwrap().dialog),
        ["rewritten one", "rewritten two", "three"]
    );
    // Same size, new mtime: a possible same-size rewrite, read fully; an offset past the end is refused.
    assert_eq!(store.plan(path, meta(rewritten.len(), 9.0)), ReadPlan::Full);
    let gap = store
        .apply(
            path,
            None,
            meta(rewritten.len() + 10, 9.0),
            rewritten.len() as u64 + 5,
            b"xxxxx",
        )
        .unwrap();
    assert!(gap.needs_full_read);
    // A .json file that changed is always read fully.
    let json_path = "/ws/chatSessions/other.json";
    let file = br#"{"version":3,"sessionId":"other","requests":[]}"#;
    store
        .apply(json_path, None, meta(file.len(), 1.0), 0, file)
        .unwrap();
    assert_eq!(
        store.plan(json_path, meta(file.len() + 5, 2.0)),
        ReadPlan::Full
    );
    assert_eq!(store.plan(json_path, meta(file.len(), 1.0)), ReadPlan::Skip);
}

#[test]
fn store_shadowing_removal_and_errors() {
    let mut store = SessionStore::new();
    let json_file =
        json!({"version": 3, "sessionId": "s1", "requests": [req("a", "from json", 1000)]})
            .to_string();
    let jsonl_file = lines(&[
        json!({"kind": 0, "v": {"version": 3, "sessionId": "s1", "requests": [req("a", "from jsonl", 1000), req("b", "newer", 2000)]}}),
    ]);
    let transcript_file = events(vec![
        (
            "2026-01-01T00:00:00Z",
            "session.start",
            json!({"sessionId": "s1"}),
        ),
        (
            "2026-01-01T00:00:01Z",
            "user.message",
            json!({"content": "from transcript"}),
        ),
    ]);
    sync(
        &mut store,
        "/ws/chatSessions/s1.json",
        Some("ws"),
        json_file.as_bytes(),
        1.0,
    );
    sync(
        &mut store,
        "/ws/GitHub.copilot-chat/transcripts/s1.jsonl",
        Some("ws"),
        transcript_file.as_bytes(),
        1.0,
    );
    assert_eq!(
        store.get("s1").unwrap().dialog.format,
        SessionFormat::NativeJson,
        "transcripts are secondary"
    );
    sync(
        &mut store,
        "/ws/chatSessions/s1.jsonl",
        Some("ws"),
        jsonl_file.as_bytes(),
        1.0,
    );
    let listed: Vec<_> = store.entries().map(|e| e.path.as_str()).collect();
    assert_eq!(
        listed,
        ["/ws/chatSessions/s1.jsonl"],
        "the .json and the transcript are shadowed"
    );
    assert_eq!(
        texts(&store.get("s1").unwrap().dialog),
        ["from jsonl", "newer"]
    );
    assert_eq!(
        store.current(Some("ws")).unwrap().path,
        "/ws/chatSessions/s1.jsonl"
    );
    assert!(store.current(Some("other-ws")).is_none());

    // The live file is gone: the session is still served from the old .json.
    let g = store.generation();
    store.remove("/ws/chatSessions/s1.jsonl");
    assert!(store.generation() > g);
    assert_eq!(store.get("s1").unwrap().path, "/ws/chatSessions/s1.json");
    store.remove("/ws/chatSessions/s1.json");
    store.remove("/ws/GitHub.copilot-chat/transcripts/s1.jsonl");
    let gone = store.get("s1").expect("still known");
    assert!(!gone.available);
    assert!(
        store.current(None).is_none(),
        "unavailable dialogs are never current"
    );
    assert_eq!(
        store.plan("/ws/chatSessions/s1.jsonl", meta(jsonl_file.len(), 1.0)),
        ReadPlan::Full
    );

    // A file that was a session and becomes unreadable keeps its dialog, unavailable, with the error.
    let path = "/ws/chatSessions/s2.json";
    let good =
        json!({"version": 3, "sessionId": "s2", "requests": [req("a", "kept", 1000)]}).to_string();
    sync(&mut store, path, Some("ws"), good.as_bytes(), 1.0);
    let err = store
        .apply(path, Some("ws"), meta(5, 2.0), 0, b"{\"ver")
        .unwrap_err();
    assert!(matches!(err, SessionError::Truncated { .. }));
    let s2 = store.get("s2").unwrap();
    assert!(!s2.available);
    assert_eq!(texts(&s2.dialog), ["kept"]);
    assert!(s2.error.as_deref().unwrap().contains("ends in the middle"));
    // ...and a never-readable file is listed with its error.
    let bad = "/ws/chatSessions/broken.json";
    assert!(store
        .apply(bad, Some("ws"), meta(3, 1.0), 0, b"\xff\xff\xff")
        .is_err());
    let listed = store
        .entries()
        .find(|e| e.path == bad)
        .expect("unreadable files are listed");
    assert!(!listed.available && listed.error.as_deref().unwrap().contains("UTF-8"));
    assert_eq!(
        store.plan(bad, meta(3, 1.0)),
        ReadPlan::Skip,
        "not retried until it changes"
    );
    store.remove(bad);
    assert!(
        store.entries().all(|e| e.path != bad),
        "an unreadable file that is gone is forgotten"
    );

    // Exports never shadow each other, even with the same stem.
    sync(
        &mut store,
        "/a/chat.json",
        None,
        br#"{"requests":[{"message":{"text":"a"}}]}"#,
        1.0,
    );
    sync(
        &mut store,
        "/b/chat.json",
        None,
        br#"{"requests":[{"message":{"text":"b"}}]}"#,
        1.0,
    );
    assert_eq!(
        store
            .entries()
            .filter(|e| e.dialog.session_id == "chat")
            .count(),
        2
    );

    // Over the cap.
    let mut small = SessionStore::with_max_bytes(10);
    let err = small
        .apply(
            "/x/chatSessions/big.json",
            None,
            meta(11, 1.0),
            0,
            &[b' '; 11],
        )
        .unwrap_err();
    assert!(matches!(
        err,
        SessionError::TooLarge {
            size: 11,
            limit: 10
        }
    ));
    assert_eq!(small.entries().count(), 1);
}

#[test]
fn current_is_the_most_recent_available_dialog_of_the_workspace() {
    let mut store = SessionStore::new();
    let file = |id: &str, ts: i64| {
        json!({"version": 3, "sessionId": id, "requests": [req("r", id, ts)]}).to_string()
    };
    sync(
        &mut store,
        "/w1/chatSessions/a.json",
        Some("w1"),
        file("a", 1000).as_bytes(),
        1.0,
    );
    sync(
        &mut store,
        "/w1/chatSessions/b.json",
        Some("w1"),
        file("b", 3000).as_bytes(),
        1.0,
    );
    sync(
        &mut store,
        "/w2/chatSessions/c.json",
        Some("w2"),
        file("c", 5000).as_bytes(),
        1.0,
    );
    assert_eq!(store.current(Some("w1")).unwrap().dialog.session_id, "b");
    assert_eq!(store.current(None).unwrap().dialog.session_id, "c");
    store.remove("/w1/chatSessions/b.json");
    assert_eq!(store.current(Some("w1")).unwrap().dialog.session_id, "a");
    let json = serde_json::to_value(store.get("a").unwrap()).unwrap();
    assert_eq!(json["workspace"], "w1");
    assert_eq!(json["dialog"]["sessionId"], "a");
    assert_eq!(
        serde_json::to_value(ReadPlan::From { offset: 7 }).unwrap(),
        json!({"kind": "from", "offset": 7})
    );
    assert_eq!(
        serde_json::to_value(ReadPlan::Skip).unwrap(),
        json!({"kind": "skip"})
    );
}

#[test]
fn transcripts_are_followed_incrementally_too() {
    let path = "/ws/GitHub.copilot-chat/transcripts/tr-1.jsonl";
    let full = transcript();
    let mut store = SessionStore::new();
    let cut = full.find("\"abort\"").unwrap();
    sync(&mut store, path, None, &full.as_bytes()[..cut], 1.0);
    assert_eq!(
        store.get("tr-1").unwrap().dialog.requests[1].status,
        RequestStatus::InProgress
    );
    assert!(matches!(
        sync(&mut store, path, None, full.as_bytes(), 2.0),
        Some(ReadPlan::From { .. })
    ));
    assert_eq!(
        store.get("tr-1").unwrap().dialog,
        parse(path, full.as_bytes()).unwrap()
    );
}

/// A transcript or an agent's log none of whose lines is readable is refused with the first
/// skipped line's reason, so a person sees why.
#[test]
fn a_log_with_no_readable_line_says_why() {
    let junk = "not json\n{\"no\":\"type\"}\n";
    let transcript = parse("/x/transcripts/y.jsonl", junk.as_bytes()).unwrap_err();
    assert_eq!(
        transcript.to_string(),
        "not a chat session: no readable transcript event (line 1 skipped: the line is null, not an event object)"
    );
    let agent = secretary_core::session::parse_as(
        secretary_core::session::DialogSource::ClaudeCode,
        "s1.jsonl",
        junk.as_bytes(),
    )
    .unwrap_err();
    assert_eq!(
        agent.to_string(),
        "not a chat session: no readable line (line 1 skipped: the line is null, not an object)"
    );
}
