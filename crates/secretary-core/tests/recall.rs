//! What `secretary hook` answers after a compaction (`secretary_core::recall`): the budget, the
//! first and the newest request whole, the middle ones whole while the budget lasts and numbered
//! otherwise, the agents' output shapes, and hostile hook inputs.

#[path = "common/json.rs"]
mod json;

use json::assert_has;
use secretary_core::recall::{self, HookEvent};
use secretary_core::session::{self, DialogSource};
use serde_json::{json, Value};

/// A Claude Code log holding `prompts` as the person's requests.
fn claude_log(prompts: &[String]) -> Vec<u8> {
    let mut out = String::new();
    for (i, p) in prompts.iter().enumerate() {
        let line = json!({"type": "user", "message": {"role": "user", "content": p}, "uuid": format!("u{i}"),
            "sessionId": "s1", "cwd": "/w", "timestamp": format!("2026-01-01T00:00:{:02}Z", i % 60)});
        out.push_str(&line.to_string());
        out.push('\n');
        let reply = json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
            "sessionId": "s1", "cwd": "/w"});
        out.push_str(&reply.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

fn recall_of(prompts: &[String], max: usize) -> String {
    let bytes = claude_log(prompts);
    let dialog =
        session::parse_as(DialogSource::ClaudeCode, "/x/s1.jsonl", &bytes).expect("log parses");
    assert_eq!(dialog.requests.len(), prompts.len());
    recall::recall_text(&dialog, max).expect("some text")
}

fn words(tag: &str, n: usize) -> String {
    (0..n).map(|i| format!("{tag}-{i} ")).collect()
}

#[test]
fn everything_whole_when_it_fits() {
    let prompts: Vec<String> = vec![
        "First: write the invoice module".into(),
        "Second: handle refunds".into(),
        "Third: tests".into(),
    ];
    let text = recall_of(&prompts, 12_000);
    for p in &prompts {
        assert!(text.contains(p.as_str()), "{text}");
    }
    assert!(text.contains("=== Request 1 of 3, the first ==="), "{text}");
    assert!(text.contains("=== Request 2 of 3 ==="), "{text}");
    assert_has(&text, "=== Request 3 of 3, the newest ===");
    assert!(!text.contains("Not shown here"), "{text}");
    // In order: first, middle, newest.
    let (a, b, c) = (
        text.find("First:").unwrap(),
        text.find("Second:").unwrap(),
        text.find("Third:").unwrap(),
    );
    assert!(a < b && b < c);
}

#[test]
fn the_budget_holds_and_the_first_and_newest_stay_whole() {
    // 20 middle requests of ~1,500 characters each: far over a 12,000 budget.
    let mut prompts = vec!["FIRST-REQUEST build the ledger".to_string()];
    for i in 2..=21 {
        prompts.push(format!("MIDDLE-{i}: {}", words(&format!("m{i}"), 250)));
    }
    prompts.push("NEWEST-REQUEST add a changelog".to_string());
    let text = recall_of(&prompts, 12_000);
    assert!(
        text.chars().count() <= 12_000,
        "{} characters",
        text.chars().count()
    );
    assert!(text.contains("FIRST-REQUEST build the ledger"));
    assert!(text.contains("NEWEST-REQUEST add a changelog"));
    // The newest middle requests are whole, the older ones listed by number with a preview.
    assert!(text.contains(&prompts[20]), "request 21 should be whole");
    assert!(
        !text.contains(&prompts[1]),
        "request 2 cannot be whole within the budget"
    );
    assert!(
        text.contains("- request 2 ("),
        "request 2 should be listed: {text}"
    );
    let listed = text.lines().filter(|l| l.starts_with("- request ")).count();
    let whole = text.matches("=== Request ").count();
    assert_eq!(
        listed + whole,
        22,
        "every request is either whole or listed:\n{text}"
    );
    // A listed line is short: the preview, not the text.
    for line in text.lines().filter(|l| l.starts_with("- request ")) {
        assert!(line.chars().count() < 160, "{line}");
    }
}

#[test]
fn a_huge_request_is_cut_and_says_so_and_the_output_stays_bounded() {
    let huge = "x".repeat(5 * 1024 * 1024);
    let prompts = vec![
        "small first".to_string(),
        "a middle one".to_string(),
        huge.clone(),
    ];
    let text = recall_of(&prompts, 12_000);
    assert!(text.chars().count() <= 12_000, "{}", text.chars().count());
    assert!(text.contains("small first") && text.contains("a middle one"));
    assert!(
        text.contains("[... cut here: 5242880 characters in all; get_request 3 returns the rest]"),
        "{}",
        &text[text.len() - 300..]
    );
    // A huge first request is cut too.
    let text = recall_of(&[huge, "second".to_string()], 12_000);
    assert!(text.chars().count() <= 12_000);
    assert!(text.contains("get_request 1 returns the rest") && text.contains("second"));
}

#[test]
fn many_tiny_middle_requests_fold_into_one_line() {
    let mut prompts = vec!["first".to_string()];
    prompts.extend((2..=600).map(|i| format!("middle request number {i} {}", words("w", 40))));
    prompts.push("newest".to_string());
    let text = recall_of(&prompts, 4_000);
    assert!(text.chars().count() <= 4_000, "{}", text.chars().count());
    assert!(text.contains("earlier requests (from request 2)"), "{text}");
    assert!(text.contains("first") && text.contains("newest"));
}

#[test]
fn budget_is_clamped_and_an_empty_log_answers_nothing() {
    let prompts: Vec<String> = (0..30)
        .map(|i| format!("request {i} {}", words("z", 60)))
        .collect();
    // A budget of 10 becomes the minimum, 1,000.
    let text = recall_of(&prompts, 10);
    assert!(text.chars().count() <= recall::MIN_MAX_CHARS);
    let no_request = br#"{"type":"assistant","message":{"role":"assistant","content":"hi"},"sessionId":"e","cwd":"/w"}
"#;
    let empty = session::parse_as(DialogSource::ClaudeCode, "/x/e.jsonl", no_request).expect("log");
    assert_eq!(recall::recall_text(&empty, 12_000), None);
    assert_eq!(
        recall::answer(
            DialogSource::ClaudeCode,
            HookEvent::SessionStart,
            &recall::HookInput::default(),
            "/x/e.jsonl",
            no_request,
            12_000
        ),
        Ok(None)
    );
    // An empty file is an error the host logs, not an answer.
    assert!(recall::answer(
        DialogSource::ClaudeCode,
        HookEvent::SessionStart,
        &recall::HookInput::default(),
        "/x/e.jsonl",
        b"",
        12_000
    )
    .is_err());
}

#[test]
fn output_shapes_per_agent() {
    let bytes = claude_log(&["hello there".to_string()]);
    let out = recall::answer(
        DialogSource::ClaudeCode,
        HookEvent::SessionStart,
        &recall::HookInput::default(),
        "/x/s1.jsonl",
        &bytes,
        12_000,
    )
    .expect("answer")
    .expect("some output");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    assert!(v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .contains("hello there"));
    let out = recall::hook_output(
        DialogSource::CopilotCli,
        HookEvent::UserPromptSubmitted,
        "words",
    );
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({"additionalContext": "words"})
    );
    let out = recall::hook_output(DialogSource::Codex, HookEvent::SessionStart, "words");
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["hookSpecificOutput"]["hookEventName"],
        "SessionStart"
    );
}

#[test]
fn hook_inputs_are_checked() {
    let input = recall::read_hook_input(
        br#"{"session_id":"0b5e2c1a-8f3d","transcript_path":"/h/.claude/projects/p/0b5e2c1a-8f3d.jsonl","cwd":"/w","hook_event_name":"SessionStart","source":"compact"}"#,
    )
    .expect("input");
    assert_eq!(input.session_id.as_deref(), Some("0b5e2c1a-8f3d"));
    assert_eq!(
        input.transcript_path.as_deref(),
        Some("/h/.claude/projects/p/0b5e2c1a-8f3d.jsonl")
    );
    assert!(input.wants_recall(HookEvent::SessionStart));
    let startup = recall::read_hook_input(br#"{"session_id":"a","source":"startup"}"#).unwrap();
    assert!(
        !startup.wants_recall(HookEvent::SessionStart),
        "a plain start recalls nothing"
    );
    let copilot = recall::read_hook_input(br#"{"sessionId":"c-1","prompt":"hi"}"#).unwrap();
    assert_eq!(copilot.session_id.as_deref(), Some("c-1"));
    // Garbage ids and paths are refused, named for the log line, never used.
    let bad = recall::read_hook_input(
        br#"{"session_id":"../../etc/passwd","transcript_path":"/etc/shadow"}"#,
    )
    .unwrap();
    assert_eq!(bad.session_id, None);
    assert_eq!(bad.transcript_path, None);
    assert_eq!(bad.refused.len(), 2);
    let wrong_type = recall::read_hook_input(br#"{"session_id": 42}"#).unwrap();
    assert_eq!(wrong_type.session_id, None);
    assert!(matches!(
        recall::read_hook_input(b"not json"),
        Err(recall::RecallError::NotJson(_))
    ));
    assert!(matches!(
        recall::read_hook_input(b"[1,2]"),
        Err(recall::RecallError::NotJson(_))
    ));
    assert_eq!(
        recall::read_hook_input(&vec![b' '; recall::MAX_INPUT_BYTES + 1]),
        Err(recall::RecallError::TooLarge)
    );
    assert!(recall::HookEvent::parse("rm -rf").is_err());
    assert!(recall::hook_agent("vscode").is_err());
    assert_eq!(recall::hook_agent("codex"), Ok(DialogSource::Codex));
}

/// A Copilot CLI log: `user.message` and `session.compaction_complete` events as it writes them.
fn copilot_log(events: &[(&str, &str)]) -> Vec<u8> {
    let mut out = String::new();
    out.push_str(&json!({"type": "session.start", "data": {"sessionId": "c1", "context": {"cwd": "/w"}}, "id": "e0", "timestamp": "2026-01-01T00:00:00Z"}).to_string());
    out.push('\n');
    for (i, (kind, text)) in events.iter().enumerate() {
        let line = match *kind {
            "user" => {
                json!({"type": "user.message", "data": {"content": text}, "id": format!("e{}", i + 1), "timestamp": "2026-01-01T00:00:01Z"})
            }
            "compaction" => {
                json!({"type": "session.compaction_complete", "data": {"success": *text != "failed"}, "id": format!("e{}", i + 1), "timestamp": "2026-01-01T00:00:02Z"})
            }
            _ => {
                json!({"type": "assistant.message", "data": {"content": text}, "id": format!("e{}", i + 1), "timestamp": "2026-01-01T00:00:02Z"})
            }
        };
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

#[test]
fn a_prompt_hook_answers_once_after_each_compaction() {
    let prompt_input = |prompt: &str| {
        recall::read_hook_input(
            json!({"sessionId": "c1", "prompt": prompt})
                .to_string()
                .as_bytes(),
        )
        .unwrap()
    };
    let answer = |log: &[u8], prompt: &str| {
        recall::answer(
            DialogSource::CopilotCli,
            HookEvent::UserPromptSubmitted,
            &prompt_input(prompt),
            "/h/.copilot/session-state/c1/events.jsonl",
            log,
            12_000,
        )
        .unwrap()
    };
    // No compaction: nothing.
    let plain = copilot_log(&[
        ("user", "one"),
        ("assistant", "ok"),
        ("user", "two"),
        ("assistant", "ok"),
    ]);
    assert_eq!(answer(&plain, "three"), None);
    // A compaction after the last request: the requests come back, as Copilot CLI reads them.
    let compacted = copilot_log(&[
        ("user", "one"),
        ("assistant", "ok"),
        ("user", "two middle"),
        ("compaction", "ok"),
        ("assistant", "ok"),
    ]);
    let out = answer(&compacted, "three").expect("recall after a compaction");
    let v: Value = serde_json::from_str(&out).unwrap();
    let context = v["additionalContext"].as_str().unwrap();
    assert!(
        context.contains("one") && context.contains("two middle"),
        "{context}"
    );
    // The prompt being submitted already logged: still the first prompt since the compaction.
    let mut logged = compacted.clone();
    logged.extend_from_slice(&copilot_log(&[("user", "three")])[copilot_log(&[]).len()..]);
    assert!(answer(&logged, "three").is_some());
    // The next prompt after that: nothing again.
    let later = copilot_log(&[
        ("user", "one"),
        ("compaction", "ok"),
        ("user", "three"),
        ("assistant", "ok"),
    ]);
    assert_eq!(answer(&later, "four"), None);
    // A failed compaction dropped nothing.
    let failed = copilot_log(&[("user", "one"), ("compaction", "failed")]);
    assert_eq!(answer(&failed, "two"), None);
    // Session start hooks of Claude Code and Codex answer only after a compaction.
    let claude = claude_log(&["hello".to_string()]);
    let startup = recall::read_hook_input(br#"{"session_id":"s1","source":"startup"}"#).unwrap();
    assert_eq!(
        recall::answer(
            DialogSource::ClaudeCode,
            HookEvent::SessionStart,
            &startup,
            "/x/s1.jsonl",
            &claude,
            12_000
        ),
        Ok(None)
    );
}
