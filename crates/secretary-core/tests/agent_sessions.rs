//! The agent readers (Copilot CLI, Claude Code, Codex) on real logs (`shared/fixtures/agent-sessions`)
//! and on small synthetic ones.
//!
//! The expected prompts of the real logs are computed here, independently of the crate, with
//! `serde_json::Value` and the plain rule each format documents: Copilot CLI `user.message`
//! `data.content` without the appended `<current_datetime>` block; Claude Code `type: "user"` lines
//! that are not meta, not sidechain, not tool results, not harness output or interrupt markers,
//! plus `queued_command` attachments; Codex `event_msg` `user_message`s. The first prompt of each is
//! also pinned literally. When `shared/` is not found the real-log tests say so and pass, except
//! under `CI=true`, where they fail (`common::shared_fixtures`).

mod common;
#[path = "common/session_files.rs"]
mod session_files;

use session_files::assert_diagnostic;

use secretary_core::session::{
    parse, parse_as, response_details, DialogSource, DialogStatus, ReadPlan, RequestStatus,
    SessionFormat, SessionStore,
};
use serde_json::Value;

fn agent_fixture(name: &str) -> Option<(String, Vec<u8>)> {
    let path = common::shared_fixtures("agent-sessions")?.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    Some((path.to_string_lossy().into_owned(), bytes))
}

fn lines(bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Parses the log of `lines` (joined with newlines) as the file `path`; panics naming the path
/// when it is refused.
fn read<S: std::borrow::Borrow<str>>(path: &str, lines: &[S]) -> secretary_core::session::Dialog {
    parse(path, lines.join("\n").as_bytes()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Asserts which agent wrote `d`, its session id and its request texts, in that order.
#[track_caller]
fn assert_read_as(
    d: &secretary_core::session::Dialog,
    source: DialogSource,
    session_id: &str,
    requests: &[&str],
) {
    assert_eq!(d.source, source, "{session_id}");
    assert_eq!(d.session_id, session_id);
    assert_eq!(texts(d), requests, "{session_id}");
}

fn texts(d: &secretary_core::session::Dialog) -> Vec<String> {
    d.requests.iter().map(|r| r.text.clone()).collect()
}

const COPILOT: &str = "copilot-cli__Tokisaki7-Dev__HAWZX-AI__27d7ef99.jsonl";
const CLAUDE: &str = "claude-code__4thehalibit__omarchy-backup__8a3e5a2e.jsonl";
const CODEX: &str = "codex__Xu-Wentao__dotfile__rollout-019d6d75.jsonl";

#[test]
fn copilot_cli_real_log_prompts() {
    let Some((path, bytes)) = agent_fixture(COPILOT) else {
        return;
    };
    let expected: Vec<String> = lines(&bytes)
        .iter()
        .filter(|v| v["type"] == "user.message")
        .map(|v| {
            let text = v["data"]["content"].as_str().unwrap();
            match text.find("<current_datetime>") {
                Some(at) if text.trim_end().ends_with("</current_datetime>") => {
                    text[..at].trim_end().to_string()
                }
                _ => text.to_string(),
            }
        })
        .collect();
    assert_eq!(expected.len(), 5, "the README counts 5 prompts");
    assert_eq!(
        expected[0],
        "qual é melhor pra criar o programa do guia completo voce ou o gemini?"
    );
    let d = parse_as(DialogSource::CopilotCli, &path, &bytes).unwrap();
    assert_eq!(texts(&d), expected);
    assert_eq!(d.source, DialogSource::CopilotCli);
    assert_eq!(d.format, SessionFormat::CopilotCli);
    assert_eq!(d.session_id, "27d7ef99-f7c7-43eb-8599-cb469623c8f7");
    // The last request ended in model errors.
    assert_eq!(d.requests[4].status, RequestStatus::Failed);
    // Under `~/.copilot/session-state/` the file is told apart from a VS Code transcript by
    // its place alone.
    let placed = format!("/home/u/.copilot/session-state/{COPILOT}");
    let d2 = parse(&placed, &bytes).unwrap();
    assert_eq!(d2.source, DialogSource::CopilotCli);
    assert_eq!(texts(&d2), expected);
    // Elsewhere it reads as a Copilot transcript, with the same prompts.
    let d3 = parse(&path, &bytes).unwrap();
    assert_eq!(d3.format, SessionFormat::Transcript);
    assert_eq!(texts(&d3), expected);
}

/// The independent reading of a Claude Code transcript's prompts.
fn claude_expected(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for v in lines(bytes) {
        if v["type"] == "attachment" && v["attachment"]["type"] == "queued_command" {
            out.push(v["attachment"]["prompt"].as_str().unwrap().to_string());
            continue;
        }
        if v["type"] != "user" || v["isMeta"] == true || v["isSidechain"] == true {
            continue;
        }
        let text = match &v["message"]["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => {
                if parts.iter().any(|p| p["type"] == "tool_result") {
                    continue;
                }
                parts
                    .iter()
                    .filter(|p| p["type"] == "text")
                    .map(|p| p["text"].as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            _ => continue,
        };
        if text.starts_with("[Request interrupted")
            || text.starts_with("<bash-stdout>")
            || text.starts_with("<local-command-")
        {
            continue;
        }
        let text = match text
            .strip_prefix("<bash-input>")
            .and_then(|t| t.strip_suffix("</bash-input>"))
        {
            Some(command) => format!("!{command}"),
            None => text,
        };
        out.push(text);
    }
    out
}

#[test]
fn claude_code_real_log_prompts() {
    let Some((path, bytes)) = agent_fixture(CLAUDE) else {
        return;
    };
    let expected = claude_expected(&bytes);
    assert_eq!(
        expected,
        [
            "we changed sleep to 10 minutes but it doesnt seem to be that anymore",
            "stop",
            "we changed wallpaper and sleep time to 10 minutes it seems short again",
            "! killall hypridle && hypridle &",
            "but will it stay as 10 minutes",
        ]
    );
    let d = parse(&path, &bytes).unwrap();
    assert_eq!(d.source, DialogSource::ClaudeCode);
    assert_eq!(texts(&d), expected);
    assert_eq!(d.folder.as_deref(), Some("/home/vwestberg/Claude"));
    assert_eq!(d.session_id, "8a3e5a2e-788d-4759-ad92-56023d9aee60");
    // "stop" was followed by "[Request interrupted by user]".
    assert_eq!(d.requests[1].status, RequestStatus::Canceled);
    assert!(d.requests[0]
        .model_id
        .as_deref()
        .unwrap()
        .starts_with("claude"));
    let first = response_details(&path, &bytes, 1).unwrap();
    assert!(first.tool_calls > 0, "{first:?}");
    assert!(!first.markdown.is_empty());
}

#[test]
fn codex_real_log_prompts() {
    let Some((path, bytes)) = agent_fixture(CODEX) else {
        return;
    };
    let all = lines(&bytes);
    let expected: Vec<String> = all
        .iter()
        .filter(|v| v["type"] == "event_msg" && v["payload"]["type"] == "user_message")
        .map(|v| v["payload"]["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(expected[0], "volcano的podgroup有可能会比pod先创建么?");
    assert_eq!(expected.len(), 2);
    let d = parse(&path, &bytes).unwrap();
    assert_eq!(d.source, DialogSource::Codex);
    assert_eq!(texts(&d), expected);
    assert_eq!(
        d.folder.as_deref(),
        Some("/Users/xuwentao/Projects/github/volcano")
    );
    assert_eq!(d.session_id, all[0]["payload"]["id"].as_str().unwrap());
    assert_eq!(d.status, DialogStatus::Complete);
    let second = response_details(&path, &bytes, 2).unwrap();
    assert!(!second.markdown.is_empty());
}

/// Feeding a real log to the store in growing pieces gives the dialog of a whole read, and each
/// step reads only from where the last one ended.
#[test]
fn agent_logs_follow_appends() {
    for (name, placed) in [
        (COPILOT, format!("/h/.copilot/session-state/x/{COPILOT}")),
        (CLAUDE, format!("/h/.claude/projects/-p/{CLAUDE}")),
        (CODEX, format!("/h/.codex/sessions/2026/04/08/{CODEX}")),
    ] {
        let Some((_, bytes)) = agent_fixture(name) else {
            return;
        };
        let whole = parse(&placed, &bytes).unwrap();
        let mut store = SessionStore::new();
        let mut cut = bytes.len() / 3;
        // Cut in the middle of a line.
        while bytes[cut - 1] == b'\n' {
            cut += 1;
        }
        let meta = |size: usize| session_files::meta(size, size as f64);
        store
            .apply(&placed, None, meta(cut), 0, &bytes[..cut])
            .unwrap();
        let mut end = cut;
        for next in [bytes.len() * 2 / 3, bytes.len()] {
            let plan = store.plan(&placed, meta(next));
            let ReadPlan::From { offset } = plan else {
                panic!("{name}: expected an incremental read, got {plan:?}");
            };
            assert!(offset as usize <= end && end - offset as usize <= 64);
            let out = store
                .apply(
                    &placed,
                    None,
                    meta(next),
                    offset,
                    &bytes[offset as usize..next],
                )
                .unwrap();
            assert!(!out.needs_full_read, "{name}");
            end = next;
        }
        let got = &store.entry(&placed).unwrap().dialog;
        assert_eq!(texts(got), texts(&whole), "{name}");
        assert_eq!(got.status, whole.status, "{name}");
        assert_eq!(got.source, whole.source, "{name}");
    }
}

#[test]
fn claude_code_synthetic_lines() {
    let log = [
        r#"{"type":"summary","summary":"Fixing the build","leafUuid":"x"}"#,
        r#"{"parentUuid":null,"type":"user","isMeta":true,"message":{"role":"user","content":"<command-message>init</command-message> expanded prompt"},"sessionId":"s1","cwd":"/w","timestamp":"2026-01-01T00:00:00Z"}"#,
        r#"{"parentUuid":null,"type":"user","message":{"role":"user","content":"<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>src/lib.rs</command-args>"},"uuid":"u1","sessionId":"s1","cwd":"/w","timestamp":"2026-01-01T00:00:01Z"}"#,
        r#"{"type":"user","message":{"role":"user","content":"<local-command-stdout>done</local-command-stdout>"},"sessionId":"s1","cwd":"/w"}"#,
        r#"{"type":"assistant","message":{"role":"assistant","model":"claude-x","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t","name":"Read","input":{}}]},"sessionId":"s1","cwd":"/w","timestamp":"2026-01-01T00:00:02Z"}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"file body"}]},"sessionId":"s1","cwd":"/w"}"#,
        r#"{"type":"user","isSidechain":true,"message":{"role":"user","content":"sub-agent task"},"sessionId":"s1","cwd":"/w"}"#,
        r#"{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued..."},"sessionId":"s1","cwd":"/w"}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"<ide_opened_file>The user opened a.rs</ide_opened_file>"},{"type":"text","text":"why does it fail?"},{"type":"image","source":{}}]},"uuid":"u2","sessionId":"s1","cwd":"/w","timestamp":"2026-01-01T00:00:03Z"}"#,
        r#"{"type":"brand-new-kind","x":1}"#,
        r#"[1,2]"#,
    ]
    .join("\n");
    let d = parse("/h/.claude/projects/-w/s1.jsonl", log.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["/review src/lib.rs", "why does it fail?"]);
    assert_eq!(d.title, "Fixing the build");
    assert_eq!(d.folder.as_deref(), Some("/w"));
    assert_eq!(d.requests[0].status, RequestStatus::Complete);
    assert_eq!(d.requests[1].status, RequestStatus::InProgress);
    assert_eq!(d.requests[0].model_id.as_deref(), Some("claude-x"));
    assert_diagnostic(&d, |m| m.contains("unknown type `brand-new-kind`"));
    assert!(d.diagnostics.iter().any(|m| m.contains("line 11")));
    let details = response_details("/h/.claude/projects/-w/s1.jsonl", log.as_bytes(), 1).unwrap();
    assert_eq!(details.markdown, "Looking.");
    assert_eq!(details.tool_calls, 1);
}

#[test]
fn codex_older_rollouts_use_response_items() {
    let d = read(
        "/h/.codex/sessions/2025/09/01/rollout-x.jsonl",
        &[
            r#"{"timestamp":"2025-09-01T10:00:00Z","type":"session_meta","payload":{"id":"c1","timestamp":"2025-09-01T10:00:00Z","cwd":"/repo"}}"#,
            r#"{"timestamp":"2025-09-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_instructions>be brief</user_instructions>"}]}}"#,
            r#"{"timestamp":"2025-09-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]}}"#,
            r#"{"timestamp":"2025-09-01T10:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"add a test"}]}}"#,
            r#"{"timestamp":"2025-09-01T10:00:03Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Added."}]}}"#,
        ],
    );
    assert_eq!(texts(&d), ["add a test"]);
    assert_eq!(d.session_id, "c1");
    assert_eq!(d.folder.as_deref(), Some("/repo"));
    assert_eq!(d.requests[0].status, RequestStatus::Complete);

    let d = read(
        "/h/.codex/sessions/2025/05/01/rollout-y.jsonl",
        &[
            r#"{"id":"c2","timestamp":"2025-05-01T10:00:00Z","instructions":null}"#,
            r#"{"record_type":"state"}"#,
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]}"#,
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the bug"}]}"#,
        ],
    );
    assert_eq!(texts(&d), ["fix the bug"]);
    assert_eq!(d.session_id, "c2");
    assert_eq!(d.requests[0].status, RequestStatus::InProgress);

    // A turn aborted by the person.
    let d = read(
        "rollout-z.jsonl",
        &[
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"c3","cwd":"/r"}}"#,
            r#"{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"go"}}"#,
            r#"{"timestamp":"2026-01-01T00:00:02Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}"#,
            r#"{"timestamp":"2026-01-01T00:00:03Z","type":"mystery","payload":{}}"#,
        ],
    );
    assert_eq!(d.requests[0].status, RequestStatus::Canceled);
    assert!(d.diagnostics.iter().any(|m| m.contains("`mystery`")));
}

#[test]
fn copilot_cli_folder_from_start_or_workspace_yaml() {
    let d = read(
        "/h/.copilot/session-state/k1/events.jsonl",
        &[
            r#"{"type":"session.start","data":{"sessionId":"k1","startTime":"2026-01-01T00:00:00Z","context":{"cwd":"/proj","branch":"main"}},"id":"e1","timestamp":"2026-01-01T00:00:00Z"}"#,
            r#"{"type":"user.message","data":{"content":"hello","transformedContent":"hello\n<reminder>x</reminder>"},"id":"e2","timestamp":"2026-01-01T00:00:01Z"}"#,
        ],
    );
    assert_eq!(d.source, DialogSource::CopilotCli);
    assert_eq!(d.folder.as_deref(), Some("/proj"));
    assert_eq!(texts(&d), ["hello"]);
    assert_eq!(
        secretary_core::session::workspace_yaml_cwd("id: k1\ncwd: /some/where\nbranch: main\n"),
        Some("/some/where".into())
    );
    assert_eq!(
        secretary_core::session::workspace_yaml_cwd("cwd: \"C:\\\\Users\\\\me\"\n"),
        Some("C:\\Users\\me".into())
    );
}

/// One store with a VS Code chat and a Claude Code session of the same folder: the workspace of
/// the agent's dialog comes from its `cwd`, the current dialog follows the agent that asks, a
/// source filter narrows what is served, and `find` maps a source and session id to the file.
#[test]
fn store_sources_current_and_find() {
    let folder_uri = secretary_core::session::folder_key("/w/my proj");
    assert_eq!(folder_uri, "file:///w/my%20proj");
    // Windows: one spelling whatever the case of the drive letter an agent's `cwd` has (the hosts
    // spell `workspace.json`'s `file:///c%3A/...` the same way).
    for cwd in ["C:\\Users\\me\\my (proj)", "c:\\Users\\me\\my (proj)\\"] {
        assert_eq!(
            secretary_core::session::folder_key(cwd),
            "file:///c:/Users/me/my%20(proj)"
        );
    }
    let vscode = r#"{"version":3,"sessionId":"v1","creationDate":1767225600000,"requests":[{"requestId":"r","message":{"text":"from vs code"},"timestamp":1767225600000}]}"#;
    let claude = [
        r#"{"parentUuid":null,"type":"user","message":{"role":"user","content":"from claude"},"uuid":"u","sessionId":"c1","cwd":"/w/my proj","timestamp":"2025-12-31T00:00:00Z"}"#,
    ]
    .join("\n");
    let mut store = SessionStore::new();
    let meta = |n: usize| session_files::meta(n, 1.0);
    store
        .apply(
            "/u/ws/chatSessions/v1.json",
            Some(&folder_uri),
            meta(vscode.len()),
            0,
            vscode.as_bytes(),
        )
        .unwrap();
    let claude_path = "/h/.claude/projects/-w-my-proj/c1.jsonl";
    store
        .apply(claude_path, None, meta(claude.len()), 0, claude.as_bytes())
        .unwrap();
    assert_eq!(
        store.entry(claude_path).unwrap().workspace.as_deref(),
        Some(folder_uri.as_str())
    );
    // The VS Code chat is newer, so it is current by default ...
    assert_eq!(
        store.current(Some(&folder_uri)).unwrap().dialog.session_id,
        "v1"
    );
    // ... but Claude Code asking gets its own session.
    store.set_current_source(Some(DialogSource::ClaudeCode));
    assert_eq!(
        store.current(Some(&folder_uri)).unwrap().dialog.session_id,
        "c1"
    );
    // An agent without a session here falls back to any source.
    store.set_current_source(Some(DialogSource::Codex));
    assert_eq!(
        store.current(Some(&folder_uri)).unwrap().dialog.session_id,
        "v1"
    );
    store.set_sources(Some(vec![DialogSource::ClaudeCode]));
    let served: Vec<_> = store
        .entries()
        .map(|e| e.dialog.session_id.clone())
        .collect();
    assert_eq!(served, ["c1"]);
    assert!(store.get("v1").is_none());
    store.set_sources(None);
    assert_eq!(
        store.find(DialogSource::ClaudeCode, "c1").unwrap().path,
        claude_path
    );
    assert!(store.find(DialogSource::CopilotCli, "c1").is_none());
    assert!(store.find(DialogSource::Vscode, "v1").is_some());

    // A log whose id line is not written yet (a brand-new session) is found by its name: Codex
    // `rollout-<time>-<id>.jsonl`, Copilot CLI `<id>/events.jsonl`.
    let rollout = "/h/.codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-k9.jsonl";
    let events = "/h/.copilot/session-state/k8/events.jsonl";
    let codex_line = r#"{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"go"}}"#;
    let cli_line = r#"{"type":"user.message","data":{"content":"go"},"id":"e1","timestamp":"2026-01-01T00:00:01Z"}"#;
    for (path, line) in [(rollout, codex_line), (events, cli_line)] {
        store
            .apply(path, None, meta(line.len()), 0, line.as_bytes())
            .unwrap();
    }
    assert_eq!(store.find(DialogSource::Codex, "k9").unwrap().path, rollout);
    assert_eq!(
        store.find(DialogSource::CopilotCli, "k8").unwrap().path,
        events
    );
    assert!(store.find(DialogSource::Codex, "9").is_none());
    assert!(store.find(DialogSource::Codex, "k8").is_none());
}

/// Timing, not a check: `cargo test --release -p secretary-core --test agent_sessions -- --ignored
/// --nocapture` prints the cost of a whole read of a large Claude Code log next to the cost of
/// following one appended line.
#[test]
#[ignore]
fn timing_whole_read_versus_one_appended_line() {
    let Some((_, sample)) = agent_fixture(CLAUDE) else {
        return;
    };
    let mut bytes = Vec::new();
    while bytes.len() < 40 * 1024 * 1024 {
        bytes.extend_from_slice(&sample);
    }
    let path = "/h/.claude/projects/-w/big.jsonl";
    let meta = |n: usize| session_files::meta(n, n as f64);
    let mut store = SessionStore::new();
    let start = std::time::Instant::now();
    store
        .apply(path, None, meta(bytes.len()), 0, &bytes)
        .unwrap();
    let whole = start.elapsed();
    let line = br#"{"type":"user","message":{"role":"user","content":"one more"},"sessionId":"x","cwd":"/w","timestamp":"2026-05-01T00:00:00Z"}
"#;
    let before = bytes.len();
    bytes.extend_from_slice(line);
    let start = std::time::Instant::now();
    let ReadPlan::From { offset } = store.plan(path, meta(bytes.len())) else {
        panic!("not incremental");
    };
    store
        .apply(
            path,
            None,
            meta(bytes.len()),
            offset,
            &bytes[offset as usize..],
        )
        .unwrap();
    let append = start.elapsed();
    assert!(offset as usize >= before - 64);
    let requests = store.entry(path).unwrap().dialog.requests.len();
    println!(
        "claude log {:.1} MB, {requests} requests: whole read {:?}, one appended line {:?} ({:.0}x)",
        before as f64 / 1048576.0,
        whole,
        append,
        whole.as_secs_f64() / append.as_secs_f64()
    );
}

/// Claude Code's local commands (measured with 2.1.331: `-p "/usage"`, `"/model"`, `"/compact"`)
/// come after a meta `<local-command-caveat>` line and are not requests; a custom command that
/// expands into a prompt (`/rev main.rs`, its expansion a meta line) is one, and so is what the
/// person typed after a compaction.
#[test]
fn claude_code_local_commands_are_not_requests() {
    let caveat = r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request, and its output goes straight to the user.</local-command-caveat>"},"sessionId":"s2","cwd":"/w"}"#;
    let command = |name: &str, args: &str| {
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":"<command-name>/{name}</command-name>\n            <command-message>{name}</command-message>\n            <command-args>{args}</command-args>"}},"sessionId":"s2","cwd":"/w"}}"#
        )
    };
    let stdout = r#"{"type":"system","subtype":"local_command","content":"<local-command-stdout>Current model: Opus</local-command-stdout>","sessionId":"s2","cwd":"/w"}"#;
    let user = |text: &str| {
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":"{text}"}},"sessionId":"s2","cwd":"/w"}}"#
        )
    };
    let answer = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]},"sessionId":"s2","cwd":"/w"}"#;
    let d = read(
        "/h/.claude/projects/-w/s2.jsonl",
        &[
            user("first prompt hello"),
            answer.to_string(),
            caveat.to_string(),
            command("usage", ""),
            stdout.to_string(),
            caveat.to_string(),
            command("model", ""),
            stdout.to_string(),
            // A local command this version does not know by name: the caveat tells.
            caveat.to_string(),
            command("brand-new-local", "x"),
            r#"{"type":"user","message":{"role":"user","content":"<command-message>rev</command-message>\n<command-name>/rev</command-name>\n<command-args>main.rs</command-args>"},"sessionId":"s2","cwd":"/w"}"#.to_string(),
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"Review the file main.rs carefully\n"}]},"sessionId":"s2","cwd":"/w"}"#.to_string(),
            answer.to_string(),
            caveat.to_string(),
            command("compact", ""),
            user("<local-command-stdout>Compacted</local-command-stdout>"),
            // An older log without the caveat: known by name.
            command("clear", ""),
            user("after compact"),
        ],
    );
    assert_eq!(
        texts(&d),
        ["first prompt hello", "/rev main.rs", "after compact"]
    );
}

/// Gemini CLI 0.61.0's session file, as it wrote it offline (lines shaped on a real run): the
/// header, a `$set` of the context message, the person's prompts as `user` records, `gemini`
/// answers; the `<session_context>` turn and function responses are not requests; a later
/// `$set` of `messages` (the model's history) neither adds nor drops requests.
#[test]
fn gemini_cli_session_file() {
    let log = [
        r#"{"sessionId":"0ba308b8-090f-4cb1-9753-6e234d71a26e","projectHash":"1301b1a4","startTime":"2026-11-24T20:36:52.894Z","lastUpdated":"2026-11-24T20:36:52.894Z","kind":"main"}"#,
        r#"{"$set":{"messages":[{"id":"d0","timestamp":"2026-11-24T20:36:52.895Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI."}]}]}}"#,
        r#"{"id":"db95","timestamp":"2026-11-24T20:36:52.927Z","type":"user","content":[{"text":"first prompt hello"}]}"#,
        r#"{"$set":{"lastUpdated":"2026-11-24T20:36:52.927Z"}}"#,
        r#"{"id":"8b10","timestamp":"2026-11-24T20:36:53.100Z","type":"gemini","content":"hello","thoughts":[],"model":"scripted"}"#,
        r#"{"id":"f1","timestamp":"2026-11-24T20:37:00.000Z","type":"user","content":[{"functionResponse":{"name":"x","response":{}}}]}"#,
        r#"{"id":"u2","timestamp":"2026-11-24T20:38:00.000Z","type":"user","content":"second, as a string"}"#,
        r#"{"id":"x","type":"brand-new"}"#,
    ]
    .join("\n");
    let path = "/h/.gemini/tmp/work/chats/session-2026-11-24T20-36-0ba308b8.jsonl";
    let d = parse(path, log.as_bytes()).unwrap();
    assert_read_as(
        &d,
        DialogSource::GeminiCli,
        "0ba308b8-090f-4cb1-9753-6e234d71a26e",
        &["first prompt hello", "second, as a string"],
    );
    assert_eq!(d.requests[0].model_id.as_deref(), Some("scripted"));
    assert!(
        d.diagnostics.iter().any(|m| m.contains("brand-new")),
        "{:?}",
        d.diagnostics
    );
    // A compression rewrites the history (measured with 0.61.0: the context message, the summary
    // as a `user` message, the CLI's "Got it", the newest turns): the person's requests stay, the
    // summary is not one, and a hook's `<hook_context>` part is not the person's text.
    let compressed = [
        log.as_str(),
        r#"{"$set":{"messages":[{"id":"d0","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI."}]},{"id":"s9","type":"user","content":[{"text":"<state_snapshot>the model's summary</state_snapshot>"}]},{"id":"g9","type":"gemini","content":[{"text":"Got it. Thanks for the additional context!"}]}],"lastUpdated":"2026-11-24T20:39:00.000Z"}}"#,
        r#"{"id":"u3","timestamp":"2026-11-24T20:40:00.000Z","type":"user","content":[{"text":"third"},{"text":"<hook_context>The person's own words, recalled</hook_context>"}]}"#,
        r#"{"id":"u4","timestamp":"2026-11-24T20:41:00.000Z","type":"user","content":"<hook_context>from a session start hook</hook_context>\n\nfourth"}"#,
    ]
    .join("\n");
    assert_eq!(
        texts(&parse(path, compressed.as_bytes()).unwrap()),
        [
            "first prompt hello",
            "second, as a string",
            "third",
            "fourth"
        ]
    );
}

/// Qwen Code 0.24.4's session file (lines shaped on a real run): Claude-like records with
/// `provenance`; only `real_user` prompts are requests; the folder is `cwd`.
#[test]
fn qwen_code_session_file() {
    let line = |kind: &str, provenance: &str, message: &str| {
        format!(
            r#"{{"uuid":"u-{kind}-{provenance}","parentUuid":null,"sessionId":"3536b454","timestamp":"2026-11-24T20:36:16.498Z","type":"{kind}","provenance":"{provenance}","cwd":"/tmp/work","version":"0.24.4","model":"scripted","message":{message}}}"#
        )
    };
    let log = [
        line("user", "real_user", r#"{"role":"user","parts":[{"text":"second prompt"}]}"#),
        r#"{"uuid":"s","parentUuid":"u","sessionId":"3536b454","timestamp":"2026-11-24T20:36:16.508Z","type":"system","provenance":"system","cwd":"/tmp/work","subtype":"attribution_snapshot","systemPayload":{}}"#.to_string(),
        line("assistant", "assistant_output", r#"{"role":"model","parts":[{"text":"hello"}]}"#),
        line("user", "tool_result", r#"{"role":"user","parts":[{"functionResponse":{"name":"x","response":{}}}]}"#),
        line("user", "system_injected", r#"{"role":"user","parts":[{"text":"<system-reminder>memory</system-reminder>"}]}"#),
        line("user", "real_user", r#"{"role":"user","parts":[{"text":"and another"}]}"#),
    ]
    .join("\n");
    let path = "/h/.qwen/projects/-tmp-work/chats/3536b454.jsonl";
    let d = parse(path, log.as_bytes()).unwrap();
    assert_eq!(
        d.source,
        DialogSource::QwenCode,
        "Qwen's records carry parentUuid like Claude Code's"
    );
    assert_eq!(texts(&d), ["second prompt", "and another"]);
    assert_eq!(d.folder.as_deref(), Some("/tmp/work"));
    assert_eq!(d.requests[0].status, RequestStatus::Complete);
}

/// One `ui_messages.json` message of a Cline-family task, as the extensions write them.
fn task_message(fields: Value) -> Value {
    fields
}

/// A Cline task's `ui_messages.json`, shaped like the public log
/// `gmfstu/Online-Card-Architecture` `exported_conversation_1769053680585/ui_messages.json`
/// @0c3f68ab987b911c118cbfb4b36efc796c5f8fd4 (Cline, 2026): the task as `say: "text"` with
/// `conversationHistoryIndex: -1` and `modelInfo`, a checkpoint, the first `api_req_started`
/// whose `request` carries the environment block with the working folder, reasoning, the agent's
/// own `text` (partial, then whole), a tool ask, a `user_feedback` follow-up, an unknown `say`
/// kind, `completion_result`.
fn cline_task(cwd: &str) -> String {
    let model = serde_json::json!({"providerId": "anthropic", "modelId": "claude-sonnet-4-5-20250929", "mode": "act"});
    let request = format!(
        "<task>\nfix the card game\n</task>\n\n<environment_details>\n# Visual Studio Code Visible Files\nDeck.cs\n\n# Current Working Directory ({cwd}) Files\n.gitignore\nDeck.cs\n</environment_details>"
    );
    let api =
        serde_json::json!({"request": request, "tokensIn": 10, "tokensOut": 595, "cost": 0.04})
            .to_string();
    let messages = vec![
        task_message(
            serde_json::json!({"ts": 1769053680628_i64, "type": "say", "say": "text", "text": "fix the card game", "images": [], "files": [], "modelInfo": model, "conversationHistoryIndex": -1}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053680676_i64, "type": "say", "say": "checkpoint_created", "modelInfo": model, "conversationHistoryIndex": -1, "lastCheckpointHash": "9d27c5af"}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053681259_i64, "type": "say", "say": "api_req_started", "text": api, "modelInfo": model, "conversationHistoryIndex": -1}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053682591_i64, "type": "say", "say": "reasoning", "text": "Let me break down what's being asked", "partial": false}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053689455_i64, "type": "say", "say": "text", "text": "I'll help you secure", "partial": true}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053689456_i64, "type": "say", "say": "text", "text": "I'll help you secure this game.", "partial": false}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053690000_i64, "type": "ask", "ask": "tool", "text": "{\"tool\":\"readFile\",\"path\":\"Deck.cs\"}", "partial": false}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053700000_i64, "type": "say", "say": "user_feedback", "text": "also add a BeginTurn action", "images": []}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053700100_i64, "type": "say", "say": "brand_new_kind", "text": "?"}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053700200_i64, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[feedback]\\n# Current Working Directory (/elsewhere) Files\\n\"}"}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053710000_i64, "type": "say", "say": "completion_result", "text": "Added BeginTurnGA."}),
        ),
        task_message(
            serde_json::json!({"ts": 1769053710001_i64, "type": "ask", "ask": "completion_result", "text": ""}),
        ),
    ];
    Value::Array(messages).to_string()
}

const CLINE_TASK: &str =
    "/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1769053680585/ui_messages.json";

/// Cline's task: the task and the follow-up are the requests (not the agent's `text`, not the
/// environment block, not the tool asks); the folder is the first `api_req_started`'s working
/// folder; the session id is the task folder; the model is `modelInfo.modelId`; an unknown `say`
/// kind is skipped and named in the diagnostics.
#[test]
fn cline_task_ui_messages() {
    let d = parse(CLINE_TASK, cline_task("/workspaces/Online Card").as_bytes()).unwrap();
    assert_eq!(d.source, DialogSource::Cline);
    assert_eq!(d.format, SessionFormat::Cline);
    assert_eq!(d.session_id, "1769053680585");
    assert_eq!(
        texts(&d),
        ["fix the card game", "also add a BeginTurn action"]
    );
    assert_eq!(d.folder.as_deref(), Some("/workspaces/Online Card"));
    assert_eq!(d.requests[0].timestamp, Some(1769053680628));
    assert_eq!(d.requests[1].timestamp, Some(1769053700000));
    assert_eq!(
        d.requests[0].model_id.as_deref(),
        Some("claude-sonnet-4-5-20250929")
    );
    assert_eq!(d.requests[0].status, RequestStatus::Complete);
    assert_eq!(d.requests[1].status, RequestStatus::Complete);
    assert_eq!(d.creation_date, Some(1769053680628));
    assert_eq!(d.last_activity, Some(1769053710001));
    assert_eq!(d.title, "fix the card game");
    assert!(
        d.diagnostics.iter().any(|m| m.contains("brand_new_kind")),
        "{:?}",
        d.diagnostics
    );
    // The agent's answer, on demand.
    let details = response_details(CLINE_TASK, cline_task("/w").as_bytes(), 1).unwrap();
    assert!(
        details.markdown.contains("I'll help you secure this game."),
        "{}",
        details.markdown
    );
    assert_eq!(details.tool_calls, 1);
    let second = response_details(CLINE_TASK, cline_task("/w").as_bytes(), 2).unwrap();
    assert_eq!(second.markdown, "Added BeginTurnGA.");
    assert!(response_details(CLINE_TASK, cline_task("/w").as_bytes(), 3).is_err());
}

/// Roo Code and Kilo Code write the same format under their own folders; the older spelling of
/// the task (`say: "task"`, as in Cline before 3.x and described by `CoreGems/Cline-Xray`) and
/// Roo Code's `Current Workspace Directory` are read; a task still waiting for the model is in
/// progress. Roo Code shaped like the public log `Extremity/scratchspace` `ui_messages.json`
/// @7573c059bf651b63b52b1df24d58f512d5b369d4, whose `api_req_started` carries no `request`
/// (no folder then).
#[test]
fn roo_and_kilo_code_tasks() {
    let roo = serde_json::json!([
        {"ts": 1787366936311_i64, "type": "say", "say": "text", "text": "# Task 6M\n\nplan the migration"},
        {"ts": 1787366980501_i64, "type": "say", "say": "api_req_started", "text": "{\"apiProtocol\":\"openai\",\"tokensIn\":33240,\"tokensOut\":198}"},
        {"ts": 1787366984494_i64, "type": "say", "say": "reasoning", "text": "Let's start", "partial": false},
        {"ts": 1787366987198_i64, "type": "ask", "ask": "tool", "text": "{\"tool\":\"readFile\"}", "isAnswered": true},
    ]);
    let kilo = serde_json::json!([
        {"ts": 1700000000000_i64, "type": "say", "say": "task", "text": "old style task"},
        {"ts": 1700000000100_i64, "type": "say", "say": "api_req_started", "text": serde_json::json!({"request": "<task>\nold style task\n</task>\n# Current Workspace Directory (c:/Projects/kilo) Files\n"}).to_string()},
        {"ts": 1700000000200_i64, "type": "say", "say": "text", "text": "on it"},
        {"ts": 1700000000300_i64, "type": "ask", "ask": "followup", "text": "{\"question\":\"which file?\"}"},
        {"ts": 1700000000400_i64, "type": "say", "say": "user_feedback", "text": "main.rs"},
        {"ts": 1700000000500_i64, "type": "ask", "ask": "api_req_failed", "text": "429"},
    ]);
    let roo_path = "/h/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/0a1b-2c/ui_messages.json";
    let kilo_path = "C:\\Users\\a\\AppData\\Roaming\\Code\\User\\globalStorage\\kilocode.kilo-code\\tasks\\k1\\ui_messages.json";
    // (file, its task, the dialog's source, id, requests and folder, and the last request's status)
    let cases = [
        (
            roo_path,
            roo,
            DialogSource::RooCode,
            "0a1b-2c",
            &["# Task 6M\n\nplan the migration"][..],
            None,
            RequestStatus::InProgress,
        ),
        (
            kilo_path,
            kilo,
            DialogSource::KiloCode,
            "k1",
            &["old style task", "main.rs"],
            Some("c:/Projects/kilo"),
            RequestStatus::Failed,
        ),
    ];
    for (path, task, source, id, requests, folder, last) in cases {
        let d = parse(path, task.to_string().as_bytes()).unwrap();
        assert_read_as(&d, source, id, requests);
        assert_eq!(d.folder.as_deref(), folder, "{id}");
        assert_eq!(d.requests.last().map(|r| r.status), Some(last), "{id}");
    }
}

/// A task's file cut off while the extension rewrote it, or not an array at all: a clear
/// error, never a panic; elements that are not messages are skipped and counted. `--source`
/// reads a file elsewhere (an exported copy) as that format.
#[test]
fn cline_task_bad_input() {
    let whole = cline_task("/w");
    let cut = &whole[..whole.len() / 2];
    let err = parse(CLINE_TASK, cut.as_bytes()).unwrap_err().to_string();
    assert!(err.contains("cut off"), "{err}");
    let err = parse(CLINE_TASK, b"{\"ts\":1}").unwrap_err().to_string();
    assert!(err.contains("not the array"), "{err}");
    let err = parse(CLINE_TASK, b"[1, \"x\"]").unwrap_err().to_string();
    assert!(err.contains("no element"), "{err}");
    let err = parse(CLINE_TASK, b"[{\"ts\":1,}]").unwrap_err().to_string();
    assert!(err.contains("malformed"), "{err}");
    let mixed = r#"[7, {"ts": 5, "type": "say", "say": "task", "text": "hi \ud83d"}, {"ts": "x", "type": 3}]"#;
    let d = parse(CLINE_TASK, mixed.as_bytes()).unwrap();
    assert_eq!(texts(&d), ["hi \u{fffd}"]);
    assert!(
        d.diagnostics.iter().any(|m| m.contains("1 element")),
        "{:?}",
        d.diagnostics
    );
    // Each prefix of a task file: read or refused, never a panic.
    for end in (0..whole.len()).step_by(97) {
        let _ = parse(CLINE_TASK, &whole.as_bytes()[..end]);
    }
    // An exported copy, outside any `tasks` folder, read as Cline's format on request.
    let exported = "/x/exported_conversation_1769053680585/ui_messages.json";
    let d = parse_as(DialogSource::Cline, exported, whole.as_bytes()).unwrap();
    assert_eq!(d.source, DialogSource::Cline);
    assert_eq!(texts(&d).len(), 2);
    let d = parse_as(DialogSource::RooCode, exported, whole.as_bytes()).unwrap();
    assert_eq!(d.source, DialogSource::RooCode);
}

/// The store re-reads a task's file as a whole when the extension rewrote it (never an
/// incremental read from an offset: the array's closing bracket moved).
#[test]
fn cline_task_rewritten_in_place() {
    let mut store = SessionStore::new();
    let first =
        serde_json::json!([{"ts": 1, "type": "say", "say": "task", "text": "one"}]).to_string();
    let meta = |size: usize, mtime: f64| session_files::meta(size, mtime);
    store
        .apply(
            CLINE_TASK,
            None,
            meta(first.len(), 1.0),
            0,
            first.as_bytes(),
        )
        .unwrap();
    let second = serde_json::json!([
        {"ts": 1, "type": "say", "say": "task", "text": "one"},
        {"ts": 2, "type": "say", "say": "user_feedback", "text": "two"},
    ])
    .to_string();
    let plan = store.plan(CLINE_TASK, meta(second.len(), 2.0));
    assert!(matches!(plan, ReadPlan::Full), "{plan:?}");
    store
        .apply(
            CLINE_TASK,
            None,
            meta(second.len(), 2.0),
            0,
            second.as_bytes(),
        )
        .unwrap();
    let stored = store.entry(CLINE_TASK).unwrap();
    assert_eq!(texts(&stored.dialog), ["one", "two"]);
    assert!(stored.available);
    // Caught mid-rewrite: unavailable with the reason, the session id still the task's.
    let cut = &second.as_bytes()[..second.len() - 3];
    assert!(store
        .apply(CLINE_TASK, None, meta(cut.len(), 3.0), 0, cut)
        .is_err());
    let stored = store.entry(CLINE_TASK).unwrap();
    assert!(!stored.available);
    assert_eq!(stored.dialog.session_id, "1769053680585");
}

/// A Continue session file, shaped by the `Session` / `ChatHistoryItem` types of
/// `continuedev/continue` `core/index.d.ts` @275e116d9c2f028f3c812d2b5b935f7be9ac27df (not a log
/// Continue wrote here): the person's messages (a string, or text and image parts) are the
/// requests, not the attached `contextItems`, the assistant's, thinking or tool messages; the
/// folder is `workspaceDirectory` (a `file://` URI in newer versions); `New Session` is no title.
#[test]
fn continue_session_file() {
    let session = serde_json::json!({
        "sessionId": "5f0c2b1e-aaaa-4bbb-8ccc-000000000001",
        "title": "New Session",
        "workspaceDirectory": "file:///Users/me/my%20app",
        "history": [
            {"message": {"role": "user", "content": "Add an offline queue for login"},
             "contextItems": [{"content": "fn login() {}", "name": "auth.rs", "description": "file", "id": {"providerTitle": "file", "itemId": "1"}}]},
            {"message": {"role": "thinking", "content": "The user wants"}, "contextItems": []},
            {"message": {"role": "assistant", "content": "The queue drains on reconnect.", "toolCalls": [{"id": "t1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}]}, "contextItems": []},
            {"message": {"role": "tool", "content": "file body", "toolCallId": "t1"}, "contextItems": []},
            {"message": {"role": "user", "content": [{"type": "text", "text": "and retry"}, {"type": "imageUrl", "imageUrl": {"url": "data:"}}]}, "contextItems": []},
            {"message": {"role": "robot", "content": "?"}, "contextItems": []},
            {"contextItems": []},
        ],
        "mode": "agent",
        "chatModelTitle": "Claude Sonnet 4",
    })
    .to_string();
    let path = "/h/.continue/sessions/5f0c2b1e-aaaa-4bbb-8ccc-000000000001.json";
    let d = parse(path, session.as_bytes()).unwrap();
    assert_read_as(
        &d,
        DialogSource::Continue,
        "5f0c2b1e-aaaa-4bbb-8ccc-000000000001",
        &["Add an offline queue for login", "and retry"],
    );
    assert_eq!(d.folder.as_deref(), Some("/Users/me/my app"));
    assert_eq!(d.title, "Add an offline queue for login");
    assert_eq!(d.requests[0].model_id.as_deref(), Some("Claude Sonnet 4"));
    assert_eq!(d.requests[0].status, RequestStatus::Complete);
    assert_eq!(d.requests[1].status, RequestStatus::InProgress);
    assert!(
        d.diagnostics.iter().any(|m| m.contains("robot"))
            && d.diagnostics.iter().any(|m| m.contains("1 history item")),
        "{:?}",
        d.diagnostics
    );
    let details = response_details(path, session.as_bytes(), 1).unwrap();
    assert_eq!(details.markdown, "The queue drains on reconnect.");
    assert_eq!(details.tool_calls, 1);

    // The index beside the sessions is not a session; a cut-off file is a clear error.
    let index = "/h/.continue/sessions/sessions.json";
    let listed = r#"[{"sessionId":"a","title":"t","dateCreated":"1700000000000","workspaceDirectory":"/w"}]"#;
    assert_ne!(
        parse(index, listed.as_bytes()).map(|d| d.source).ok(),
        Some(DialogSource::Continue)
    );
    let err = parse(path, &session.as_bytes()[..session.len() / 2])
        .unwrap_err()
        .to_string();
    assert!(err.contains("cut off"), "{err}");
    let err = parse(path, br#"{"sessionId":"x"}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("without `history`"), "{err}");
    // A plain path and `--source continue` on a copy elsewhere.
    let plain = r#"{"sessionId":"s2","title":"Fix leak","workspaceDirectory":"E:\\Code\\Alpha","history":[{"message":{"role":"user","content":"fix the leak"}}]}"#;
    let d = parse_as(DialogSource::Continue, "/tmp/s2.json", plain.as_bytes()).unwrap();
    assert_eq!(
        (d.title.as_str(), d.folder.as_deref()),
        ("Fix leak", Some("E:\\Code\\Alpha"))
    );

    // The store: the file's time stands for the last activity (the messages have none).
    let mut store = SessionStore::new();
    let meta = session_files::meta(session.len(), 1_790_852_400_000.0);
    store
        .apply(path, None, meta, 0, session.as_bytes())
        .unwrap();
    let stored = store.entry(path).unwrap();
    assert_eq!(stored.dialog.last_activity, Some(1_790_852_400_000));
    assert_eq!(
        stored.workspace.as_deref(),
        Some("file:///Users/me/my%20app")
    );
}
