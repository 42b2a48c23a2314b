//! Cursor's conversations (`agents::cursor`): the rows of a `state.vscdb` a host read, in the three
//! generations seen in real public databases (docs/agents.md): the old chat panel's tabs
//! (`workbench.panel.aichat.view.aichat.chatdata`, `slevin48/cursor-history` @74b0ce6c, Nov 2024),
//! composers with their messages inline (`composer.composerData`, same database), and 2025's
//! `composerData:<id>` + `bubbleId:<id>:<bubble>` rows of `cursorDiskKV` (`AdamEps/urpg_app`
//! @e78fd6a7, Sep 2025). The rows here are synthetic, of the same shapes (field names, types,
//! nesting and the empty trailing user bubble as those databases hold them).

use secretary_core::session::{
    parse, parse_as, response_details, DialogSource, FileMeta, RequestStatus, SessionFormat,
    SessionStore,
};
use serde_json::{json, Value};

const GLOBAL: &str = "/h/.config/Cursor/User/globalStorage/state.vscdb";
const WORKSPACE: &str = "/h/.config/Cursor/User/workspaceStorage/f87f6e0b/state.vscdb";

/// The document a host hands over for one conversation: each value as the text SQLite holds.
fn doc(conversation: &str, folder: Option<&str>, rows: &[(&str, Option<Value>)]) -> Vec<u8> {
    let rows: Vec<Value> = rows
        .iter()
        .map(|(key, value)| json!({"key": key, "value": value.as_ref().map(|v| v.to_string())}))
        .collect();
    let mut doc = json!({"cursor": 1, "conversation": conversation, "rows": rows});
    if let Some(folder) = folder {
        doc["folder"] = json!(folder);
    }
    doc.to_string().into_bytes()
}

fn texts(d: &secretary_core::session::Dialog) -> Vec<String> {
    d.requests.iter().map(|r| r.text.clone()).collect()
}

fn chat_data() -> Value {
    json!({
        "tabs": [
            {"tabId": "2aa483d1", "chatTitle": "Ionic App Sidebar Customization Guide", "lastSendTime": 1731818231743_i64,
             "bubbles": [
                {"type": "user", "id": "9e6e", "messageType": 2, "text": "We are building an ionic app for android", "richText": "{}", "selections": []},
                {"type": "ai", "id": "a1", "messageType": 3, "text": "I'll help you modify the sidebar."},
                {"type": "user", "id": "u2", "text": "remove the folder subpages"},
                {"type": "ai", "id": "a2", "text": "Here is the routing without folders."},
                {"type": "user", "id": "u3", "text": ""}
             ]},
            {"tabId": "f73a2965", "chatTitle": "Running a Local Python Server via CLI", "lastSendTime": 1731814419726_i64,
             "bubbles": [{"type": "user", "text": "how to run a local server with python in a simple cli command"}, {"type": "user", "text": ""}]}
        ],
        "selectedTabId": "2aa483d1"
    })
}

fn composer_list() -> Value {
    json!({
        "allComposers": [
            {"composerId": "cf2ead9f", "name": "create a dedicated page for the copilot icon from the",
             "createdAt": 1731797537671_i64, "lastUpdatedAt": 1731797581874_i64, "status": "completed",
             "conversation": [
                {"type": 1, "bubbleId": "16c0", "text": "create a dedicated page for the copilot icon from the menu."},
                {"type": 2, "bubbleId": "4255", "text": "I'll help you create a Copilot page."},
                {"type": 1, "bubbleId": "9c19", "text": "ion footer is not a known element"},
                {"type": 2, "bubbleId": "228b", "text": "Let's fix the issues."}
             ]},
            {"composerId": "headers-only", "createdAt": 1731797540000_i64}
        ],
        "selectedComposerId": "cf2ead9f",
        "composerDataVersion": 1
    })
}

#[test]
fn old_chat_panel_tabs() {
    let file = format!("{WORKSPACE}#2aa483d1");
    let bytes = doc(
        "2aa483d1",
        Some("file:///c%3A/Users/ydebray/Documents/mobilechat"),
        &[(
            "workbench.panel.aichat.view.aichat.chatdata",
            Some(chat_data()),
        )],
    );
    let d = parse(&file, &bytes).unwrap();
    assert_eq!(d.source, DialogSource::Cursor);
    assert_eq!(d.format, SessionFormat::Cursor);
    assert_eq!(d.session_id, "2aa483d1");
    assert_eq!(
        texts(&d),
        [
            "We are building an ionic app for android",
            "remove the folder subpages"
        ]
    );
    assert_eq!(d.title, "Ionic App Sidebar Customization Guide");
    assert_eq!(
        d.folder.as_deref(),
        Some("c:/Users/ydebray/Documents/mobilechat")
    );
    assert_eq!(d.last_activity, Some(1_731_818_231_743));
    assert!(d
        .requests
        .iter()
        .all(|r| r.status == RequestStatus::Complete));
    let details = response_details(&file, &bytes, 2).unwrap();
    assert_eq!(details.markdown, "Here is the routing without folders.");

    // The other tab of the same row, unanswered: in progress.
    let other = doc(
        "f73a2965",
        None,
        &[(
            "workbench.panel.aichat.view.aichat.chatdata",
            Some(chat_data()),
        )],
    );
    let d = parse(&format!("{WORKSPACE}#f73a2965"), &other).unwrap();
    assert_eq!(
        texts(&d),
        ["how to run a local server with python in a simple cli command"]
    );
    assert_eq!(d.requests[0].status, RequestStatus::InProgress);
    assert_eq!(d.folder, None);
}

#[test]
fn composers_with_inline_messages() {
    let file = format!("{WORKSPACE}#cf2ead9f");
    let bytes = doc(
        "cf2ead9f",
        None,
        &[("composer.composerData", Some(composer_list()))],
    );
    let d = parse(&file, &bytes).unwrap();
    assert_eq!(
        texts(&d),
        [
            "create a dedicated page for the copilot icon from the menu.",
            "ion footer is not a known element"
        ]
    );
    assert_eq!(
        d.title,
        "create a dedicated page for the copilot icon from the"
    );
    assert_eq!(d.creation_date, Some(1_731_797_537_671));
    assert_eq!(d.last_activity, Some(1_731_797_581_874));
    assert_eq!(d.requests[0].request_id.as_deref(), Some("16c0"));

    // A composer listed without its messages (they live in the global database) is not here.
    let err = parse(
        &format!("{WORKSPACE}#headers-only"),
        &doc(
            "headers-only",
            None,
            &[("composer.composerData", Some(composer_list()))],
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("no Cursor conversation `headers-only`"),
        "{err}"
    );
}

fn bubble(kind: u8, text: &str) -> Value {
    json!({"_v": 3, "type": kind, "bubbleId": "x", "text": text, "richText": "{}", "capabilityStatuses": {}, "isAgentic": true, "supportedTools": [1, 3]})
}

#[test]
fn global_composer_rows_and_bubble_rows() {
    let id = "04fa7261-6802-4618-be42-7c4661b9821d";
    let composer = json!({
        "_v": 9, "composerId": id, "name": "Troubleshooting chat history access", "richText": "", "text": "",
        "createdAt": 1757730112697_i64, "lastUpdatedAt": 1757730933105_i64, "status": "completed",
        "fullConversationHeadersOnly": [
            {"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2, "serverBubbleId": "s2"},
            {"bubbleId": "b3", "type": 1}, {"bubbleId": "b4", "type": 2},
            {"bubbleId": "b5", "type": 1}, {"bubbleId": "gone", "type": 2}, {"bubbleId": "b7", "type": 1},
            {"noBubbleId": true}
        ],
        "conversationMap": {}, "unifiedMode": "agent"
    });
    let mut b3 = bubble(
        1,
        " in ~/Library/Application Support/Cursor/ there are no chat folders",
    );
    b3["createdAt"] = json!("2025-09-13T02:20:00.000Z");
    let rows = [
        (format!("composerData:{id}"), Some(composer)),
        (
            format!("bubbleId:{id}:b1"),
            Some(bubble(
                1,
                "I am completely unable to access my past chat history in cursor.",
            )),
        ),
        (
            format!("bubbleId:{id}:b2"),
            Some(bubble(2, "I understand you're having trouble.")),
        ),
        (format!("bubbleId:{id}:b3"), Some(b3)),
        (
            format!("bubbleId:{id}:b4"),
            Some(bubble(2, "That's a key finding!")),
        ),
        // A picture alone: an empty user bubble.
        (format!("bubbleId:{id}:b5"), Some(bubble(1, ""))),
        (
            format!("bubbleId:{id}:b7"),
            Some(json!({"_v": 3, "type": 7, "text": "a kind from a newer version"})),
        ),
        // Another composer's bubble is not this conversation's.
        ("bubbleId:other:b1".to_string(), Some(bubble(1, "not mine"))),
    ];
    let rows: Vec<(&str, Option<Value>)> =
        rows.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let file = format!("{GLOBAL}#{id}");
    let bytes = doc(id, None, &rows);
    let d = parse(&file, &bytes).unwrap();
    assert_eq!(
        texts(&d),
        [
            "I am completely unable to access my past chat history in cursor.",
            " in ~/Library/Application Support/Cursor/ there are no chat folders"
        ]
    );
    assert_eq!(d.title, "Troubleshooting chat history access");
    assert_eq!(d.requests[1].timestamp, Some(1_757_730_000_000));
    let notes = d.diagnostics.join(" | ");
    assert!(
        notes.contains("1 message the conversation lists have no row"),
        "{notes}"
    );
    assert!(notes.contains("unknown type `7`"), "{notes}");
    assert!(notes.contains("1 message of an unknown shape"), "{notes}");
    assert_eq!(
        response_details(&file, &bytes, 2).unwrap().markdown,
        "That's a key finding!"
    );

    // `--source cursor` reads such rows under any name.
    let d = parse_as(DialogSource::Cursor, "/tmp/rows.json", &bytes).unwrap();
    assert_eq!(d.requests.len(), 2);
}

#[test]
fn bad_rows_are_clear_errors() {
    let file = format!("{GLOBAL}#c1");
    // A composer whose row is NULL (Cursor leaves such rows for drafts).
    let err = parse(&file, &doc("c1", None, &[("composerData:c1", None)]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("NULL"), "{err}");
    // A value that is not JSON, a document cut off, a document without rows.
    let broken = br#"{"cursor":1,"conversation":"c1","rows":[{"key":"composerData:c1","value":"{\"_v\":9,"}]}"#;
    let err = parse(&file, broken).unwrap_err().to_string();
    assert!(err.contains("cut off"), "{err}");
    let err = parse(&file, &doc("c1", None, &[])[..20])
        .unwrap_err()
        .to_string();
    assert!(err.contains("cut off"), "{err}");
    let err = parse(&file, br#"{"cursor":1}"#).unwrap_err().to_string();
    assert!(err.contains("no `rows`"), "{err}");
    let err = parse(&file, b"[1]").unwrap_err().to_string();
    assert!(err.contains("not Cursor database rows"), "{err}");
    // Unknown keys of a newer version are ignored: only the conversation's rows count.
    let newer = doc(
        "c1",
        None,
        &[
            (
                "composerData:c1",
                Some(
                    json!({"_v": 99, "composerId": "c1", "futureField": {"a": 1}, "fullConversationHeadersOnly": [{"bubbleId": "b", "type": 1}]}),
                ),
            ),
            (
                "bubbleId:c1:b",
                Some(json!({"_v": 99, "type": 1, "text": "still read", "newThing": [1, 2]})),
            ),
            ("agentKv:blob:abc", Some(json!("opaque"))),
        ],
    );
    assert_eq!(texts(&parse(&file, &newer).unwrap()), ["still read"]);
}

#[test]
fn the_store_files_conversations_by_their_id() {
    let mut store = SessionStore::new();
    let file = format!("{WORKSPACE}#2aa483d1");
    let bytes = doc(
        "2aa483d1",
        None,
        &[(
            "workbench.panel.aichat.view.aichat.chatdata",
            Some(chat_data()),
        )],
    );
    let meta = FileMeta {
        size: bytes.len() as u64,
        mtime_ms: 1_731_818_231_743.0,
    };
    store
        .apply(
            &file,
            Some("file:///c%3A/Users/ydebray/Documents/mobilechat"),
            meta,
            0,
            &bytes,
        )
        .unwrap();
    let found = store
        .find(DialogSource::Cursor, "2aa483d1")
        .expect("found by id");
    assert_eq!(found.dialog.requests.len(), 2);
    // A conversation that could not be read keeps its id, with why.
    let bad = format!("{WORKSPACE}#broken");
    assert!(store
        .apply(
            &bad,
            None,
            FileMeta {
                size: 3,
                mtime_ms: 1.0
            },
            0,
            b"{\""
        )
        .is_err());
    let broken = store.find(DialogSource::Cursor, "broken");
    assert!(broken.is_some_and(|d| d.error.is_some()));
}
