//! Issue 27's session defects the core itself must handle: lone UTF-16 surrogate escapes (a cut
//! emoji, as `JSON.stringify` writes it), a log line that cannot be read (it must not renumber the
//! requests after it), and the cap on requests that keeps the wasm instance's memory bounded. (The
//! hosts' side, over real processes, is `extension/test/unit/hostile3.test.ts`.)

#[path = "common/mutation_log.rs"]
mod mutation_log;

#[path = "common/session_files.rs"]
mod session_files;

use mutation_log::{initial, lines, req};
use secretary_core::session::{parse, parse_with_visitors, SessionStore, MAX_REQUESTS};
use serde_json::json;
use session_files::{assert_diagnostic, put};

fn push(text: &str) -> String {
    format!(
        "{}\n",
        json!({"kind": 2, "k": ["requests"], "v": [req(text)]})
    )
}

fn texts(d: &secretary_core::session::Dialog) -> Vec<&str> {
    d.requests.iter().map(|r| r.text.as_str()).collect()
}

/// `JSON.stringify("cut 😀".slice(0, 5))`: the high half of the emoji alone.
const CUT: &str = r#"cut \ud83d"#;

#[test]
fn a_lone_surrogate_in_a_json_session_reads_as_the_replacement_character() {
    let text = format!(
        r#"{{"version":3,"sessionId":"s","requests":[{{"requestId":"a","message":{{"text":"{CUT}","parts":[]}}}},{{"requestId":"b","message":{{"text":"\ude00 then \ud83d\ude00","parts":[]}}}}]}}"#
    );
    for d in [
        parse("s.json", text.as_bytes()).expect("readable"),
        parse_with_visitors("s.json", text.as_bytes()).expect("readable"),
    ] {
        assert_eq!(texts(&d), ["cut \u{fffd}", "\u{fffd} then 😀"]);
    }
}

#[test]
fn a_lone_surrogate_in_a_log_line_keeps_the_line_and_the_numbering() {
    let log = format!(
        "{}{}{}",
        lines(&[initial(vec![req("one")])]),
        push("two").replace("two", CUT),
        push("three")
    );
    for d in [
        parse("x.jsonl", log.as_bytes()).unwrap(),
        parse_with_visitors("x.jsonl", log.as_bytes()).unwrap(),
    ] {
        assert_eq!(texts(&d), ["one", "cut \u{fffd}", "three"]);
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
    }
}

#[test]
fn an_unreadable_request_line_keeps_its_place_and_says_so() {
    for broken in [
        // An escape JSON does not have.
        push("two").replace("two", r"t\xo"),
        // A value cut in the middle (the line ends, the log goes on).
        r#"{"kind":2,"k":["requests"],"v":[{"requestId":"two","message":{"text":"tw"#.to_string()
            + "\n",
        // `requests[1]` set to something unreadable.
        r#"{"kind":1,"k":["requests",1],"v":{"message":{"text":"t\q"}}}"#.to_string() + "\n",
    ] {
        let log = format!(
            "{}{broken}{}",
            lines(&[initial(vec![req("one")])]),
            push("three")
        );
        let d = parse("x.jsonl", log.as_bytes()).unwrap();
        assert_eq!(texts(&d), ["one", "", "three"], "{broken}");
        assert_eq!(d.requests[2].index, 3);
        assert_diagnostic(&d, |n| n.starts_with("line 2 skipped"));
        assert_diagnostic(&d, |n| n.contains("request 2 could not be read"));
    }
    // A skipped line that adds no request (a response edit) adds no placeholder.
    let log = format!(
        "{}{}{}",
        lines(&[initial(vec![req("one")])]),
        "{\"kind\":2,\"k\":[\"requests\",0,\"response\"],\"v\":[\"\\x\"]}\n",
        push("two")
    );
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["one", "two"]);
}

#[test]
fn a_placeholder_is_kept_across_appends_in_the_store() {
    let mut store = SessionStore::new();
    let head = format!(
        "{}{}",
        lines(&[initial(vec![req("one")])]),
        push("two").replace("two", r"t\xo")
    );
    let meta = |size: usize| session_files::meta(size, size as f64);
    store
        .apply("x.jsonl", None, meta(head.len()), 0, head.as_bytes())
        .unwrap();
    let more = push("three");
    let full = format!("{head}{more}");
    let offset = match store.plan("x.jsonl", meta(full.len())) {
        secretary_core::session::ReadPlan::From { offset } => offset,
        other => panic!("{other:?}"),
    };
    store
        .apply(
            "x.jsonl",
            None,
            meta(full.len()),
            offset,
            &full.as_bytes()[offset as usize..],
        )
        .unwrap();
    let d = &store.get("log-1").expect("stored").dialog;
    assert_eq!(texts(d), ["one", "", "three"]);
}

#[test]
fn a_log_of_more_requests_than_the_cap_stops_at_the_cap() {
    let mut log = lines(&[initial(vec![])]);
    for i in 0..MAX_REQUESTS + 25 {
        log.push_str(&format!(
            "{{\"kind\":2,\"k\":[\"requests\"],\"v\":[{{\"message\":{{\"text\":\"r{i}\"}}}}]}}\n"
        ));
    }
    let d = parse("x.jsonl", log.as_bytes()).unwrap();
    assert_eq!(d.requests.len(), MAX_REQUESTS);
    assert_eq!(
        d.requests[MAX_REQUESTS - 1].text,
        format!("r{}", MAX_REQUESTS - 1)
    );
    assert_diagnostic(&d, |n| {
        n.contains(&format!("cap of {MAX_REQUESTS} requests"))
    });
    // The log stops applying lines there (each line of another agent's log adds a request).
    let line = MAX_REQUESTS + 2;
    assert_diagnostic(&d, |n| {
        n.contains(&format!("lines from {line} on are not read"))
    });
}

#[test]
fn one_array_of_more_requests_than_the_cap_is_cut_while_it_is_read() {
    let many: String = (0..MAX_REQUESTS + 7)
        .map(|i| format!("{{\"message\":{{\"text\":\"r{i}\"}}}}"))
        .collect::<Vec<_>>()
        .join(",");
    let json = format!(r#"{{"version":3,"sessionId":"s","requests":[{many}]}}"#);
    let jsonl = format!(r#"{{"kind":0,"v":{json}}}"#) + "\n";
    for (name, text) in [("s.json", &json), ("s.jsonl", &jsonl)] {
        for d in [
            parse(name, text.as_bytes()).unwrap(),
            parse_with_visitors(name, text.as_bytes()).unwrap(),
        ] {
            assert_eq!(d.requests.len(), MAX_REQUESTS, "{name}");
            assert!(
                d.diagnostics.iter().any(|n| n.contains("cap of")),
                "{name}: {:?}",
                d.diagnostics
            );
        }
    }
}

#[test]
fn changed_files_answers_are_capped_with_a_count_of_the_rest() {
    use secretary_core::git::{MAX_LISTED_BYTES, MAX_LISTED_FILES};
    use secretary_core::host::MemoryHost;
    use secretary_core::registry::invoke;
    use secretary_core::toolkit::ToolContext;
    let host = MemoryHost::new();
    // 100,000 untracked files and one staged change: the staged one is listed first.
    let mut porcelain = b"M  a.rs\0".to_vec();
    for i in 0..100_000 {
        porcelain.extend_from_slice(format!("?? new/file-{i:06}.txt\0").as_bytes());
    }
    host.set_git_status("", porcelain);
    let ctx = ToolContext::new(None, None).with_host(&host);
    let out = invoke("get_changed_files", &json!({}), &ctx).to_value();
    assert_eq!(out["success"], true);
    let text = out["text"].as_str().unwrap();
    assert!(text.len() < 64 * 1024, "{} bytes of text", text.len());
    assert_eq!(out["staged"].as_array().unwrap().len(), 1);
    assert_eq!(
        out["untracked"].as_array().unwrap().len(),
        MAX_LISTED_FILES - 1
    );
    let more = 100_000 - (MAX_LISTED_FILES - 1);
    assert_eq!(
        out["omitted"],
        json!({"staged": 0, "unstaged": 0, "untracked": more})
    );
    assert!(
        text.ends_with(&format!("- ... and {more} more")),
        "{}",
        &text[text.len() - 100..]
    );
    assert!(out.to_string().len() < 200 * 1024);
    // Long paths hit the byte cap first.
    let long = "x".repeat(4000);
    let mut porcelain = Vec::new();
    for i in 0..1000 {
        porcelain.extend_from_slice(format!("?? {long}{i}\0").as_bytes());
    }
    host.set_git_status("", porcelain);
    let out = invoke(
        "get_changed_files",
        &json!({"sourceControlState": "untracked"}),
        &ctx,
    )
    .to_value();
    let listed = out["untracked"].as_array().unwrap().len();
    assert_eq!(listed, MAX_LISTED_BYTES / 4004);
    assert_eq!(out["omitted"]["untracked"], 1000 - listed);
    // Under the caps nothing is cut and nothing is said.
    host.set_git_status("", b"?? one.txt\0".to_vec());
    let out = invoke("get_changed_files", &json!({}), &ctx).to_value();
    assert!(out.get("omitted").is_none(), "{out}");
}

#[test]
fn a_request_index_past_2_pow_53_is_refused_not_rounded() {
    use secretary_core::registry::invoke;
    use secretary_core::toolkit::ToolContext;
    let mut store = SessionStore::new();
    let log = lines(&[initial(vec![req("one")])]);
    put(&mut store, "x.jsonl", Some("ws"), log.as_bytes());
    let ctx = ToolContext::new(Some(&store), Some("ws"));
    for index in [
        json!(9_007_199_254_740_993_u64),
        json!(9_007_199_254_740_992_u64),
    ] {
        let out = invoke("get_request", &json!({"index": index}), &ctx).to_value();
        assert_eq!(out["success"], false);
        assert!(
            out["error"].as_str().unwrap().contains("past 2^53 - 1"),
            "{out}"
        );
    }
}

/// One log line may pad a list by at most a thousand or so empty slots, and a log pads its lists
/// with at most a budget of them in all: a log of lines each padding a request's message parts
/// would otherwise ask for gigabytes at 50 bytes a line. Past the budget such lines are refused
/// and said; the lines after them still apply.
#[test]
fn a_log_padding_its_lists_line_after_line_stops_at_a_budget() {
    let mut entries = vec![initial(vec![req("one")])];
    for k in 1..=1100u64 {
        let parts = json!(["requests", 0, "message", "parts"]);
        entries.push(json!({"kind": 2, "k": parts, "v": [], "i": k * 1000}));
    }
    entries.push(json!({"kind": 2, "k": ["requests"], "v": [req("two")]}));
    let log = lines(&entries);
    for d in [
        parse("x.jsonl", log.as_bytes()).unwrap(),
        parse_with_visitors("x.jsonl", log.as_bytes()).unwrap(),
    ] {
        assert_eq!(texts(&d), ["one", "two"]);
        assert_diagnostic(&d, |n| {
            n.contains("truncates the message parts past the end") && n.contains("empty slots")
        });
    }
}

/// The hook's reading of a chat log for a compaction stops at the cap on requests, as the
/// session reader does, however far line after line of results reaches.
#[test]
fn the_compaction_check_reads_no_request_past_the_cap() {
    use secretary_core::recall::vscode_last_result_compacted;
    let mut entries = vec![initial(vec![])];
    let compacted = json!({"metadata": {"summary": {"text": "s"}}});
    for k in 1..=MAX_REQUESTS as u64 / 1000 {
        let v = if k * 1000 == MAX_REQUESTS as u64 {
            compacted.clone()
        } else {
            json!({})
        };
        entries.push(json!({"kind": 1, "k": ["requests", k * 1000, "result"], "v": v}));
    }
    let log = lines(&entries);
    assert!(!vscode_last_result_compacted("x.jsonl", log.as_bytes()));
    // Under the cap the same line is read.
    let under = log.replace(
        &format!(",{MAX_REQUESTS},"),
        &format!(",{},", MAX_REQUESTS - 1),
    );
    assert_ne!(under, log);
    assert!(vscode_last_result_compacted("x.jsonl", under.as_bytes()));
}
