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
    assert_eq!(recall::hook_agent("vscode"), Ok(DialogSource::Vscode));
    assert!(recall::hook_agent("../../bin/sh").is_err());
    assert_eq!(recall::hook_agent("codex"), Ok(DialogSource::Codex));
}

/// A Copilot CLI log: `user.message` and `session.compaction_complete` events as it writes them.
/// Each event is `"<kind> <text>"`: `user` (a request), `compaction` (`failed` or not) or any
/// other kind (an answer).
fn copilot_log(events: &[&str]) -> Vec<u8> {
    let mut out = String::new();
    out.push_str(&json!({"type": "session.start", "data": {"sessionId": "c1", "context": {"cwd": "/w"}}, "id": "e0", "timestamp": "2026-01-01T00:00:00Z"}).to_string());
    out.push('\n');
    for (i, event) in events.iter().enumerate() {
        let (kind, text) = event.split_once(' ').unwrap_or((event, ""));
        let line = match kind {
            "user" => {
                json!({"type": "user.message", "data": {"content": text}, "id": format!("e{}", i + 1), "timestamp": "2026-01-01T00:00:01Z"})
            }
            "compaction" => {
                json!({"type": "session.compaction_complete", "data": {"success": text != "failed"}, "id": format!("e{}", i + 1), "timestamp": "2026-01-01T00:00:02Z"})
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
    let plain = copilot_log(&["user one", "assistant ok", "user two", "assistant ok"]);
    assert_eq!(answer(&plain, "three"), None);
    // A compaction after the last request: the requests come back, as Copilot CLI reads them.
    let compacted = copilot_log(&[
        "user one",
        "assistant ok",
        "user two middle",
        "compaction ok",
        "assistant ok",
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
    logged.extend_from_slice(&copilot_log(&["user three"])[copilot_log(&[]).len()..]);
    assert!(answer(&logged, "three").is_some());
    // The next prompt after that: nothing again.
    let later = copilot_log(&["user one", "compaction ok", "user three", "assistant ok"]);
    assert_eq!(answer(&later, "four"), None);
    // A failed compaction dropped nothing.
    let failed = copilot_log(&["user one", "compaction failed"]);
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

/// The `hookSpecificOutput.additionalContext` of a hook's output, checking its event's name.
fn additional_context(out: &str, event: &str) -> String {
    let v: Value = serde_json::from_str(out).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], event);
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A Gemini CLI 0.61.0 log as it wrote it in a headless run, one process per turn (lines shaped
/// on the measured log of extension/test/agents/hooks.test.ts): the header and the context
/// message as a `$set`, then per turn the prompt and the answer on their own lines; each resume
/// writes the header again and the history back as `$set`s; a compression writes the history as
/// the summary, the CLI's "Got it" and the newest turns.
struct GeminiLog(String);

impl GeminiLog {
    fn new() -> Self {
        let mut log = GeminiLog(String::new());
        log.resume(&[]);
        log
    }
    fn push(&mut self, value: Value) {
        self.0.push_str(&value.to_string());
        self.0.push('\n');
    }
    fn context() -> Value {
        json!({"id": "ctx", "type": "user", "content": [{"text": "<session_context>\nThis is the Gemini CLI."}]})
    }
    /// A new process: the header, the context alone, then the history it read back.
    fn resume(&mut self, history: &[Value]) {
        self.push(json!({"sessionId": "g1", "projectHash": "ab", "startTime": "2026-11-24T22:49:00Z", "lastUpdated": "2026-11-24T22:49:00Z", "kind": "main"}));
        self.push(json!({"$set": {"messages": [Self::context()]}}));
        if !history.is_empty() {
            let mut all = vec![Self::context()];
            all.extend_from_slice(history);
            self.push(json!({"$set": {"messages": all}}));
        }
    }
    fn turn(&mut self, id: &str, parts: Value) -> Vec<Value> {
        let user = json!({"id": id, "timestamp": "2026-11-24T22:50:00Z", "type": "user", "content": parts});
        let answer = json!({"id": format!("{id}-a"), "timestamp": "2026-11-24T22:50:01Z", "type": "gemini", "content": "ok", "model": "scripted"});
        self.push(user.clone());
        self.push(json!({"$set": {"lastUpdated": "2026-11-24T22:50:00Z"}}));
        self.push(answer.clone());
        vec![user, answer]
    }
    fn compress(&mut self, summary_id: &str) -> Vec<Value> {
        let kept = vec![
            json!({"id": summary_id, "type": "user", "content": [{"text": "<state_snapshot>summary</state_snapshot>"}]}),
            json!({"id": format!("{summary_id}-ok"), "type": "gemini", "content": [{"text": "Got it. Thanks for the additional context!"}]}),
        ];
        let mut all = vec![Self::context()];
        all.extend(kept.clone());
        self.push(json!({"$set": {"messages": all}}));
        kept
    }
}

#[test]
fn gemini_before_agent_answers_once_after_each_compression() {
    let answer = |log: &GeminiLog, prompt: &str| {
        let input = recall::read_hook_input(
            json!({"session_id": "g1", "transcript_path": "/h/.gemini/tmp/w/chats/session-x-g1.jsonl", "prompt": prompt, "hook_event_name": "BeforeAgent"})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
        recall::answer(
            DialogSource::GeminiCli,
            HookEvent::BeforeAgent,
            &input,
            "/h/.gemini/tmp/w/chats/session-x-g1.jsonl",
            log.0.as_bytes(),
            12_000,
        )
        .unwrap()
    };
    let mut log = GeminiLog::new();
    let mut history = log.turn("u1", json!([{"text": "First gamma-1"}]));
    log.resume(&history);
    history.extend(log.turn("u2", json!([{"text": "Middle delta-7731"}])));
    log.resume(&history);
    // Resumed sessions rewrite the history they read back: no compression, nothing.
    assert_eq!(answer(&log, "Third"), None);
    history.extend(log.turn("u3", json!([{"text": "Third epsilon-3"}])));
    log.resume(&history);
    // The fourth turn's hook ran before its compression; the compression, then its prompt.
    let mut history = log.compress("s1");
    history.extend(log.turn("u4", json!([{"text": "Fourth eta-4"}])));
    log.resume(&history);
    // The fifth prompt's hook: the requests come back, in the shape Gemini CLI reads, all of them
    // although the rewritten history holds only the summary and the fourth.
    let out = answer(&log, "Fifth zeta-5").expect("recall after a compression");
    let context = additional_context(&out, "BeforeAgent");
    for words in [
        "First gamma-1",
        "Middle delta-7731",
        "Third epsilon-3",
        "Fourth eta-4",
    ] {
        assert!(context.contains(words), "{words}: {context}");
    }
    assert!(
        !context.contains("state_snapshot"),
        "the summary is not a request"
    );
    // Gemini CLI records the answer as a part of the fifth prompt: the next hooks stay silent,
    // and the recalled text is not read as the person's words.
    history.extend(log.turn(
        "u5",
        json!([{"text": "Fifth zeta-5"}, {"text": format!("<hook_context>{context}</hook_context>")}]),
    ));
    log.resume(&history);
    assert_eq!(answer(&log, "Sixth"), None);
    let dialog = session::parse_as(
        DialogSource::GeminiCli,
        "/h/.gemini/tmp/w/chats/session-x-g1.jsonl",
        log.0.as_bytes(),
    )
    .unwrap();
    let texts: Vec<&str> = dialog.requests.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "First gamma-1",
            "Middle delta-7731",
            "Third epsilon-3",
            "Fourth eta-4",
            "Fifth zeta-5"
        ]
    );
    // A second compression: once more.
    let mut history = log.compress("s2");
    history.extend(log.turn("u6", json!([{"text": "Sixth"}])));
    log.resume(&history);
    assert!(answer(&log, "Seventh").is_some());
    // Only Gemini CLI's log is read this way.
    let claude = recall::answer(
        DialogSource::ClaudeCode,
        HookEvent::BeforeAgent,
        &recall::read_hook_input(br#"{"session_id":"s1"}"#).unwrap(),
        "/x/s1.jsonl",
        &claude_log(&["one".into()]),
        12_000,
    )
    .unwrap();
    assert_eq!(claude, None);
}

/// A request of a VS Code session as its mutation log writes it (shaped on the shared fixture
/// git-ai-project__git-ai__copilot_session_multiline.jsonl): `result.metadata` is Copilot Chat's
/// `IResultMetadata`, with `summaries` when it compacted the conversation within that request
/// (src/extension/prompt/common/conversation.ts of
/// microsoft/vscode-copilot-chat@31acd00a86424e2ee6e980e54919cf31fbf88030).
fn vscode_request(id: &str, text: &str, result: Option<Value>) -> Value {
    let mut r = json!({"requestId": id, "timestamp": 1760520001000u64, "message": {"text": text, "parts": [{"kind": "text", "text": text}]},
        "variableData": {"variables": []}, "agent": {"id": "github.copilot.editsAgent"}, "modelId": "copilot/gpt-4o", "response": [{"value": "ok"}]});
    if let Some(result) = result {
        r["result"] = result;
    }
    r
}

fn result_with(summaries: bool) -> Value {
    let mut metadata = json!({"sessionId": "copilot-s1", "responseId": "r", "toolCallRounds": []});
    if summaries {
        metadata["summaries"] =
            json!([{"toolCallRoundId": "round1", "text": "<summary>the model's</summary>"}]);
    }
    json!({"timings": {"totalElapsed": 10}, "metadata": metadata})
}

#[test]
fn vscode_user_prompt_submit_answers_once_after_copilot_chat_compacted() {
    let line = |v: Value| format!("{v}\n");
    let mut log = line(
        json!({"kind": 0, "v": {"version": 3, "sessionId": "v1", "creationDate": 1760520000000u64, "requests": [
        vscode_request("q1", "First gamma-1: write the invoice module", Some(result_with(false)))]}}),
    );
    log += &line(
        json!({"kind": 2, "k": ["requests"], "v": [vscode_request("q2", "Middle delta-7731: handle refunds", None)]}),
    );
    log += &line(json!({"kind": 1, "k": ["requests", 1, "result"], "v": result_with(false)}));
    let input = recall::read_hook_input(
        json!({"session_id": "copilot-s1", "transcript_path": "/u/workspaceStorage/h/GitHub.copilot-chat/transcripts/copilot-s1.jsonl",
            "hook_event_name": "UserPromptSubmit", "prompt": "Third", "timestamp": "2026-11-24T23:00:00.000Z"})
        .to_string()
        .as_bytes(),
    )
    .unwrap();
    let answer = |log: &str| {
        recall::answer(
            DialogSource::Vscode,
            HookEvent::UserPromptSubmitted,
            &input,
            "/u/workspaceStorage/h/chatSessions/v1.jsonl",
            log.as_bytes(),
            12_000,
        )
        .unwrap()
    };
    assert_eq!(answer(&log), None, "no compaction yet");
    // The third request compacted the conversation (its result carries Copilot Chat's summary);
    // the fourth prompt, already in the log without a result, gets the words back.
    log += &line(
        json!({"kind": 2, "k": ["requests"], "v": [vscode_request("q3", "Third epsilon-3", None)]}),
    );
    log += &line(json!({"kind": 1, "k": ["requests", 2, "result"], "v": result_with(true)}));
    log += &line(
        json!({"kind": 2, "k": ["requests"], "v": [vscode_request("q4", "Fourth eta-4", None)]}),
    );
    let out = answer(&log).expect("recall after a compaction");
    let context = additional_context(&out, "UserPromptSubmit");
    for words in [
        "First gamma-1: write the invoice module",
        "Middle delta-7731: handle refunds",
    ] {
        assert!(context.contains(words), "{words}: {context}");
    }
    // The fourth answered without compacting: the fifth prompt gets nothing.
    log += &line(json!({"kind": 1, "k": ["requests", 3, "result"], "v": result_with(false)}));
    assert_eq!(answer(&log), None);
    // The older `summary` field counts too, in a whole `.json` session as well.
    let mut old = result_with(false);
    old["metadata"]["summary"] = json!({"toolCallRoundId": "r", "text": "s"});
    let whole = json!({"version": 3, "sessionId": "v1", "requests": [
        vscode_request("q1", "one", Some(result_with(false))), vscode_request("q2", "two", Some(old)), vscode_request("q3", "three", None)]});
    assert!(recall::vscode_last_result_compacted(
        "/u/chatSessions/v1.json",
        whole.to_string().as_bytes()
    ));
    // Hostile indexes and garbage lines change nothing and allocate nothing large.
    let hostile = format!(
        "{log}{}{}not json\n",
        line(
            json!({"kind": 1, "k": ["requests", 999_999_999u64, "result"], "v": result_with(true)})
        ),
        line(json!({"kind": 3, "k": ["requests", 77]}))
    );
    assert!(!recall::vscode_last_result_compacted(
        "/u/chatSessions/v1.jsonl",
        hostile.as_bytes()
    ));
}
