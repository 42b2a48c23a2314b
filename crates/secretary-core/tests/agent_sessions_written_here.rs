//! The OpenCode, Aider and Continue (`cn`) readers on files those tools wrote here, offline
//! against the scripted model (`tests/data/written-here/README.md`), and on damaged copies of them.
//! The expected requests are what the prompts were, pinned literally.

use secretary_core::session::{
    parse, parse_as, response_details, DialogSource, FileMeta, ReadPlan, RequestStatus,
    SessionFormat, SessionStore,
};

fn data(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/written-here")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn texts(d: &secretary_core::session::Dialog) -> Vec<String> {
    d.requests.iter().map(|r| r.text.clone()).collect()
}

const AIDER_FILE: &str = "/tmp/a2ai/work/.aider.chat.history.md";
const OPENCODE_DB: &str =
    "/home/me/.local/share/opencode/opencode.db#ses_df04b5ed1ffe6aZd1GWVlHWvoo";

#[test]
fn aider_history_requests_are_the_typed_messages() {
    let bytes = data("aider-0.86.2.chat.history.md");
    let d = parse(AIDER_FILE, &bytes).unwrap();
    assert_eq!(d.format, SessionFormat::Aider);
    assert_eq!(d.format.source(), DialogSource::Aider);
    assert_eq!(
        texts(&d),
        [
            "Aider check one: rename the module",
            "Aider check two: then update the imports",
            "Aider check three: first line\nsecond line of the same message",
            // `/add notes.txt` is Aider's command; `/ask ...` is logged again as its words.
            "what does notes.txt say?",
        ]
    );
    assert_eq!(d.folder.as_deref(), Some("/tmp/a2ai/work"));
    assert!(d.session_id.starts_with("aider-"), "{}", d.session_id);
    // Each request carries its run's start (written without a zone, read as UTC).
    let first = d.requests[0].timestamp.unwrap();
    assert_eq!(first, 1_795_559_955_000, "2026-11-24 22:39:15");
    assert_eq!(d.requests[0].model_id.as_deref(), Some("openai/scripted"));
    assert!(d
        .requests
        .iter()
        .all(|r| r.status == RequestStatus::Complete));
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    // The answer to request 1, on the details path.
    let details = response_details(AIDER_FILE, &bytes, 1).unwrap();
    assert_eq!(details.markdown, "ok");
    // Read as Aider's wherever it lies (`show --source aider`).
    let copy = parse_as(DialogSource::Aider, "/x/history.md", &bytes).unwrap();
    assert_eq!(texts(&copy), texts(&d));
}

#[test]
fn aider_history_grows_by_appends_and_a_cut_last_line_waits() {
    let bytes = data("aider-0.86.2.chat.history.md");
    let whole = parse(AIDER_FILE, &bytes).unwrap();
    let mut store = SessionStore::new();
    let meta = |size: usize| FileMeta {
        size: size as u64,
        mtime_ms: size as f64,
    };
    // The first two runs, then the rest appended in two pieces, the first cut mid-message.
    let two = String::from_utf8_lossy(&bytes)
        .find("# aider chat started at 2026-11-24 22:44:08")
        .unwrap();
    store
        .apply(AIDER_FILE, None, meta(two), 0, &bytes[..two])
        .unwrap();
    assert_eq!(store.entry(AIDER_FILE).unwrap().dialog.requests.len(), 2);
    let cut = two
        + String::from_utf8_lossy(&bytes[two..])
            .find("#### second line")
            .unwrap()
        + 9;
    let mut end = two;
    for next in [cut, bytes.len()] {
        let ReadPlan::From { offset } = store.plan(AIDER_FILE, meta(next)) else {
            panic!("expected an incremental read");
        };
        assert!(offset as usize <= end);
        let out = store
            .apply(
                AIDER_FILE,
                None,
                meta(next),
                offset,
                &bytes[offset as usize..next],
            )
            .unwrap();
        assert!(!out.needs_full_read);
        end = next;
        if next == cut {
            // The two-line message is half written: its first line is read, the rest waits.
            let got = &store.entry(AIDER_FILE).unwrap().dialog;
            assert_eq!(got.requests.len(), 3, "{:?}", got.requests);
        }
    }
    let got = &store.entry(AIDER_FILE).unwrap().dialog;
    assert_eq!(texts(got), texts(&whole));
    assert_eq!(got.session_id, whole.session_id);
}

/// A Markdown line is whole only at its newline: a message cut right after a `}` (which a JSON
/// line would end with) is not read before its newline. It was, and when the line grew by another
/// `}`-ended piece the longer line was read as the message's second line ("fix {x}\nfix {x} and
/// {y}" where a whole read gives "fix {x} and {y}": found by the fuzz target `agents`).
#[test]
fn aider_message_cut_after_a_brace_is_read_once() {
    let text = "# aider chat started at 2026-11-24 22:44:08\n\n#### a first request, long enough that a read resumes past the file's start  \n\nOk.\n\n#### fix {x} and {y}  \n\nDone.\n";
    let cuts = [
        text.find("} and").unwrap() + 1,
        text.find("}  ").unwrap() + 1,
        text.len(),
    ];
    let meta = |size: usize| FileMeta {
        size: size as u64,
        mtime_ms: size as f64,
    };
    let mut store = SessionStore::new();
    let mut end = 0;
    for cut in cuts {
        let offset = match store.plan(AIDER_FILE, meta(cut)) {
            ReadPlan::From { offset } => offset as usize,
            _ => end,
        };
        store
            .apply(
                AIDER_FILE,
                None,
                meta(cut),
                offset as u64,
                &text.as_bytes()[offset..cut],
            )
            .unwrap();
        end = cut;
        let got = texts(&store.entry(AIDER_FILE).unwrap().dialog);
        let whole = texts(&parse(AIDER_FILE, &text.as_bytes()[..cut]).unwrap());
        assert_eq!(got, whole, "after {cut} bytes");
        if cut < text.len() {
            assert_eq!(got.len(), 1, "a line without its newline was read: {got:?}");
        }
    }
    assert_eq!(
        texts(&store.entry(AIDER_FILE).unwrap().dialog),
        [
            "a first request, long enough that a read resumes past the file's start",
            "fix {x} and {y}"
        ]
    );
}

#[test]
fn aider_history_damage_and_odd_lines_never_fail() {
    // A person's hand edit, an unknown header, a command alone and a stray `####`.
    let text = "\n# aider chat started at not a time\n\n#### hello there  \n\nanswer\n\n####\n\n#### /drop x  \n> Removed x  \n\n#### second request  \n";
    let d = parse(AIDER_FILE, text.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["hello there", "second request"]);
    assert_eq!(d.requests[0].timestamp, None);
    assert_eq!(d.requests[1].status, RequestStatus::InProgress);
    // Invalid UTF-8 in a line is reported, the rest read.
    let mut bytes = b"#### one\n\nok\n\n#### tw\xff\n\n#### three\n".to_vec();
    let d = parse(AIDER_FILE, &bytes).unwrap();
    assert_eq!(texts(&d), ["one", "three"]);
    assert!(
        d.diagnostics.iter().any(|m| m.contains("line 5")),
        "{:?}",
        d.diagnostics
    );
    bytes.clear();
    assert!(parse(AIDER_FILE, &bytes).is_err());
}

#[test]
fn opencode_export_requests_title_folder_and_times() {
    let bytes = data("opencode-1.18.33-export.json");
    // An `opencode export` file is recognised by its keys, wherever it lies.
    let d = parse("/tmp/export.json", &bytes).unwrap();
    assert_eq!(d.format, SessionFormat::OpenCode);
    assert_eq!(d.format.source(), DialogSource::OpenCode);
    assert_eq!(d.session_id, "ses_df04b5ed1ffe6aZd1GWVlHWvoo");
    assert_eq!(
        texts(&d),
        [
            // OpenCode quotes a one-argument prompt that has spaces (`opencode run "a b"`): its words.
            "\"OpenCode check one: rename the module\"",
            "\"OpenCode check two: CALL probe_probe\"",
            "OpenCode check two: CALL probe_probe",
        ]
    );
    assert_eq!(d.folder.as_deref(), Some("/tmp/a2oc/work"));
    assert_eq!(d.title, "ok");
    assert_eq!(d.creation_date, Some(1_795_559_825_711));
    assert_eq!(d.last_activity, Some(1_795_559_993_344));
    assert_eq!(d.requests[0].timestamp, Some(1_795_559_826_632));
    assert_eq!(
        d.requests[0].request_id.as_deref(),
        Some("msg_20fb4a4c7001MjeQ7IA0jgi1KB")
    );
    assert_eq!(d.requests[2].model_id.as_deref(), Some("scripted"));
    assert!(d
        .requests
        .iter()
        .all(|r| r.status == RequestStatus::Complete));
    let details = response_details("/tmp/export.json", &bytes, 3).unwrap();
    assert_eq!(
        (details.markdown.as_str(), details.tool_calls),
        ("noted", 1)
    );
    // The same bytes under a database session's name.
    let db = parse(OPENCODE_DB, &bytes).unwrap();
    assert_eq!(texts(&db), texts(&d));
}

/// One OpenCode session as the hosts build it from the database rows.
fn opencode_session(info: &str, messages: &[&str]) -> String {
    format!(r#"{{"info":{info},"messages":[{}]}}"#, messages.join(","))
}

#[test]
fn opencode_leaves_out_synthetic_parts_sub_agents_and_placeholders() {
    let user = |id: &str, parts: &str| {
        format!(
            r#"{{"id":"{id}","info":{{"role":"user","time":{{"created":5}}}},"parts":[{parts}]}}"#
        )
    };
    let text = opencode_session(
        r#"{"id":"ses_1","title":"New session - 2026-11-24T22:37:05.711Z","directory":"/w","time":{"created":1,"updated":9}}"#,
        &[
            &user(
                "msg_1",
                r#"{"type":"text","text":"fix the parser"},{"type":"text","synthetic":true,"text":"Called the Read tool"},{"type":"file","url":"file:///w/a.rs"}"#,
            ),
            r#"{"info":{"role":"assistant","modelID":"m1","time":{"created":6}},"parts":[{"type":"text","text":"done"}]}"#,
            &user("msg_2", r#"{"type":"compaction","auto":true}"#),
            &user(
                "msg_3",
                r#"{"type":"text","text":"ignored one","ignored":true}"#,
            ),
            r#"{"info":{"role":"narrator"},"parts":[]}"#,
            r#"{"parts":[]}"#,
            r#"42"#,
            &user(
                "msg_4",
                r#"{"type":"text","text":"and the tests","newField":{"x":1}}"#,
            ),
        ],
    );
    let d = parse(OPENCODE_DB, text.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["fix the parser", "and the tests"]);
    // The model that answered a request, else the last one that answered.
    assert_eq!(d.requests[0].model_id.as_deref(), Some("m1"));
    assert_eq!(d.requests[1].model_id.as_deref(), Some("m1"));
    assert_eq!(d.requests[1].status, RequestStatus::InProgress);
    // The placeholder title is none: the first request's words stand for it.
    assert!(d.title.starts_with("fix the parser"), "{}", d.title);
    assert!(
        d.diagnostics.iter().any(|m| m.contains("3 messages")),
        "{:?}",
        d.diagnostics
    );
    // A sub-agent's session is not a dialog: said, not crashed.
    let child = opencode_session(r#"{"id":"ses_2","parentID":"ses_1","title":"t"}"#, &[]);
    let err = parse(OPENCODE_DB, child.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(err.contains("sub-agent"), "{err}");
    // Cut off, not an object, without the keys: errors with a reason.
    assert!(parse(OPENCODE_DB, &text.as_bytes()[..text.len() / 2]).is_err());
    assert!(parse(OPENCODE_DB, b"[1,2]").is_err());
    assert!(parse_as(DialogSource::OpenCode, "/x.json", br#"{"info":{}}"#).is_err());
}

#[test]
fn continue_cn_sessions_read_with_their_placeholder_title_dropped() {
    let bytes = data("continue-cn-1.5.47-three-turns.json");
    let file = "/tmp/a2cn/.continue/sessions/d238e90b-900b-421f-baf2-60421c9793f6.json";
    let d = parse(file, &bytes).unwrap();
    assert_eq!(d.format, SessionFormat::Continue);
    assert_eq!(
        texts(&d),
        [
            "Continue check one: rename the module",
            "Continue check two: then update the imports",
            "Continue check three: and the docs",
        ]
    );
    assert_eq!(d.folder.as_deref(), Some("/tmp/a2cn/work"));
    // `cn` names a new session `Untitled Session`: no title, the first request's words instead.
    assert!(d.title.starts_with("Continue check one"), "{}", d.title);
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    let tool = data("continue-cn-1.5.47-tool-call.json");
    let file = "/tmp/a2cn/.continue/sessions/92a9bec2-e4b3-4ba8-a557-0a71f8ddb49a.json";
    let d = parse(file, &tool).unwrap();
    assert_eq!(texts(&d), ["Continue MCP: CALL probe"]);
    let details = response_details(file, &tool, 1).unwrap();
    assert_eq!(
        (details.markdown.as_str(), details.tool_calls),
        ("noted", 1)
    );
}
