//! The readers on real sessions written by VS Code (byte-exact copies kept in `../shared`).
//!
//! Every expectation is computed independently of the crate: request texts come from the file's
//! own `requests[i].message.text`, read with `serde_json::Value` (for `.jsonl`, after replaying
//! the log with the tiny `Value` replayer below); counts and statuses come from the fixtures'
//! README. When `shared/` is not found the tests say so and pass, except under `CI=true`, where
//! they fail (`common::shared_fixtures`).

mod common;

use std::path::PathBuf;

use secretary_core::session::{
    self, parse, response_details, DialogStatus, FileMeta, ReadPlan, RequestStatus, SessionFormat,
    SessionStore,
};
use serde_json::Value;

/// The real sessions (`shared/fixtures/sessions`); `None` when absent (a failure under `CI=true`).
fn fixtures_dir() -> Option<PathBuf> {
    common::shared_fixtures("sessions")
}

fn fixture(name: &str) -> Option<(String, Vec<u8>)> {
    let dir = fixtures_dir()?;
    let path = dir.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    Some((path.to_string_lossy().into_owned(), bytes))
}

/// Sets (or deletes, with `None`) the value at `path`, as VS Code's `_applySet` does.
fn set_at(state: &mut Value, path: &[Value], value: Option<Value>) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut cur = state;
    for seg in parents {
        cur = match seg {
            Value::Number(n) => &mut cur[n.as_u64().unwrap() as usize],
            Value::String(s) => &mut cur[s.as_str()],
            other => panic!("odd path segment {other}"),
        };
    }
    match (last, cur) {
        (Value::Number(n), Value::Array(arr)) => {
            let i = n.as_u64().unwrap() as usize;
            if arr.len() <= i {
                arr.resize(i + 1, Value::Null);
            }
            arr[i] = value.unwrap_or(Value::Null);
        }
        (Value::String(s), Value::Object(obj)) => match value {
            Some(v) => {
                obj.insert(s.clone(), v);
            }
            None => {
                obj.remove(s);
            }
        },
        (seg, cur) => panic!("cannot set {seg} in {cur}"),
    }
}

/// Replays a `.jsonl` mutation log into a `Value`, independently of the crate.
fn replay(text: &str) -> Value {
    let mut state = Value::Null;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).expect("fixture lines are valid JSON");
        let path = entry
            .get("k")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        match entry["kind"].as_u64() {
            Some(0) => state = entry["v"].clone(),
            Some(1) => set_at(&mut state, &path, entry.get("v").cloned()),
            Some(3) => set_at(&mut state, &path, None),
            Some(2) => {
                let Some((last, parents)) = path.split_last() else {
                    continue;
                };
                let mut cur = &mut state;
                for seg in parents {
                    cur = match seg {
                        Value::Number(n) => &mut cur[n.as_u64().unwrap() as usize],
                        Value::String(s) => &mut cur[s.as_str()],
                        _ => unreachable!(),
                    };
                }
                let slot = match last {
                    Value::Number(n) => &mut cur[n.as_u64().unwrap() as usize],
                    Value::String(s) => &mut cur[s.as_str()],
                    _ => unreachable!(),
                };
                if !slot.is_array() {
                    *slot = Value::Array(Vec::new());
                }
                let arr = slot.as_array_mut().unwrap();
                if let Some(i) = entry.get("i").and_then(Value::as_u64) {
                    arr.resize(i as usize, Value::Null);
                }
                if let Some(items) = entry.get("v").and_then(Value::as_array) {
                    arr.extend(items.iter().cloned());
                }
            }
            other => panic!("unknown kind {other:?}"),
        }
    }
    state
}

/// The file's own view: the session object (replayed for `.jsonl`).
fn independent(name: &str, bytes: &[u8]) -> Value {
    let text = std::str::from_utf8(bytes).unwrap();
    if name.ends_with(".jsonl") {
        replay(text)
    } else {
        serde_json::from_str(text).unwrap()
    }
}

const EXPECTED: &[(&str, usize, SessionFormat)] = &[
    (
        "git-ai-project__git-ai__copilot_session_simple.json",
        3,
        SessionFormat::NativeJson,
    ),
    (
        "git-ai-project__git-ai__copilot_session_multiline.jsonl",
        2,
        SessionFormat::NativeJsonl,
    ),
    (
        "konashevich__joplin-vscode-plugin-fork__chat.json",
        1,
        SessionFormat::Export,
    ),
    (
        "bilbo6__data_science__chat_export.json",
        11,
        SessionFormat::Export,
    ),
    (
        "emmertio__declaro__snake-case.md.extracted.json",
        6,
        SessionFormat::Export,
    ),
    (
        "dealenx__copilot-chat-analyzer__chat.json",
        4,
        SessionFormat::Export,
    ),
];

#[test]
fn every_fixture_parses_with_the_files_own_request_texts() {
    let Some(dir) = fixtures_dir() else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let dialog =
            parse(&path.to_string_lossy(), &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let truth = independent(&name, &bytes);
        let requests = truth["requests"].as_array().unwrap();
        assert_eq!(
            dialog.requests.len(),
            requests.len(),
            "{name}: request count"
        );
        for (i, (ours, theirs)) in dialog.requests.iter().zip(requests).enumerate() {
            let n = i + 1;
            assert_eq!(ours.index, n, "{name}");
            assert_eq!(
                ours.timestamp,
                theirs["timestamp"].as_i64(),
                "{name}: timestamp {n}"
            );
            // The text fields, each against where the file keeps it.
            for (field, read, written) in [
                (
                    "request",
                    Some(ours.text.as_str()),
                    &theirs["message"]["text"],
                ),
                (
                    "requestId",
                    ours.request_id.as_deref(),
                    &theirs["requestId"],
                ),
                ("modelId", ours.model_id.as_deref(), &theirs["modelId"]),
                ("agent", ours.agent_id.as_deref(), &theirs["agent"]["id"]),
            ] {
                assert_eq!(read, written.as_str(), "{name}: {field} {n}");
            }
        }
        // Real files are well-formed: nothing to complain about.
        assert!(
            dialog.diagnostics.is_empty(),
            "{name}: {:?}",
            dialog.diagnostics
        );
        seen += 1;
    }
    assert_eq!(
        seen,
        EXPECTED.len(),
        "the README lists {} session fixtures",
        EXPECTED.len()
    );
}

#[test]
fn counts_and_formats_match_the_readme() {
    for &(name, count, format) in EXPECTED {
        let Some((path, bytes)) = fixture(name) else {
            return;
        };
        let dialog = parse(&path, &bytes).unwrap();
        assert_eq!(dialog.requests.len(), count, "{name}");
        assert_eq!(dialog.format, format, "{name}");
    }
}

#[test]
fn canceled_and_failed_requests_are_recognised() {
    let Some((path, bytes)) = fixture("konashevich__joplin-vscode-plugin-fork__chat.json") else {
        return;
    };
    let dialog = parse(&path, &bytes).unwrap();
    assert_eq!(dialog.requests[0].status, RequestStatus::Canceled);
    assert_eq!(dialog.status, DialogStatus::Canceled);

    let Some((path, bytes)) = fixture("dealenx__copilot-chat-analyzer__chat.json") else {
        return;
    };
    let dialog = parse(&path, &bytes).unwrap();
    let statuses: Vec<_> = dialog.requests.iter().map(|r| r.status).collect();
    // Request 1 ended with errorDetails code "failed"; request 4 has isCanceled: true.
    assert_eq!(
        statuses,
        [
            RequestStatus::Failed,
            RequestStatus::Complete,
            RequestStatus::Complete,
            RequestStatus::Canceled
        ]
    );
    assert_eq!(dialog.status, DialogStatus::Canceled);

    for name in [
        "git-ai-project__git-ai__copilot_session_simple.json",
        "bilbo6__data_science__chat_export.json",
    ] {
        let Some((path, bytes)) = fixture(name) else {
            return;
        };
        let dialog = parse(&path, &bytes).unwrap();
        assert!(
            dialog
                .requests
                .iter()
                .all(|r| r.status == RequestStatus::Complete),
            "{name}"
        );
        assert_eq!(dialog.status, DialogStatus::Complete);
    }
}

/// The fixture `name` as the crate reads it and as `independent` reads it; `None` when the
/// fixtures are absent.
fn read_both(name: &str) -> Option<(session::Dialog, Value)> {
    let (path, bytes) = fixture(name)?;
    let dialog = parse(&path, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    Some((dialog, independent(name, &bytes)))
}

/// Asserts that the dialog's session id, title and creation date are the file's.
#[track_caller]
fn assert_header_follows(dialog: &session::Dialog, truth: &Value) {
    let id = &dialog.session_id;
    assert_eq!(id, truth["sessionId"].as_str().unwrap(), "sessionId");
    assert_eq!(
        dialog.title,
        truth["customTitle"].as_str().unwrap(),
        "{id}: title"
    );
    assert_eq!(
        dialog.creation_date,
        truth["creationDate"].as_i64(),
        "{id}: creationDate"
    );
}

#[test]
fn session_ids_titles_and_dates_follow_the_file() {
    let Some((dialog, truth)) = read_both("git-ai-project__git-ai__copilot_session_simple.json")
    else {
        return;
    };
    assert_header_follows(&dialog, &truth);
    assert_eq!(dialog.last_activity, truth["lastMessageDate"].as_i64());
    assert_eq!(dialog.location.as_deref(), Some("panel"));

    let Some((dialog, truth)) =
        read_both("git-ai-project__git-ai__copilot_session_multiline.jsonl")
    else {
        return;
    };
    assert_header_follows(&dialog, &truth);
    let last_request_ts = truth["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["timestamp"].as_i64())
        .max();
    assert_eq!(dialog.last_activity, last_request_ts);

    // Exports carry no id: the file stem stands in; the title previews the first request.
    let Some((path, bytes)) = fixture("emmertio__declaro__snake-case.md.extracted.json") else {
        return;
    };
    let dialog = parse(&path, &bytes).unwrap();
    assert_eq!(
        dialog.session_id,
        "emmertio__declaro__snake-case.md.extracted"
    );
    let first = independent("x.json", &bytes)["requests"][0]["message"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(dialog.title, secretary_core::text::preview(&first, 80));
    // The 2024 export has no timestamps at all.
    assert_eq!(dialog.creation_date, None);
    assert_eq!(dialog.last_activity, None);
}

/// Tool invocations and markdown, counted independently from the file's parts.
#[test]
fn response_details_match_the_files_parts() {
    let mut total_dealenx = 0;
    for &(name, count, _) in EXPECTED {
        let Some((path, bytes)) = fixture(name) else {
            return;
        };
        let truth = independent(name, &bytes);
        for index in 1..=count {
            let details = response_details(&path, &bytes, index).unwrap();
            let parts = truth["requests"][index - 1]["response"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let tools = parts
                .iter()
                .filter(|p| p["kind"] == "toolInvocationSerialized")
                .count();
            assert_eq!(details.tool_calls, tools, "{name} request {index}");
            // Every markdown part's text (trimmed) appears in the markdown, in order.
            let mut from = 0;
            for part in parts.iter().filter(|p| p.get("kind").is_none()) {
                let Some(value) = part["value"].as_str() else {
                    continue;
                };
                let needle = value.trim();
                if needle.is_empty() || needle.contains("```") {
                    continue;
                }
                let found = details.markdown[from..].find(needle.lines().next().unwrap_or(needle));
                assert!(
                    found.is_some(),
                    "{name} request {index}: {needle:?} missing"
                );
                from += found.unwrap();
            }
            if name.starts_with("dealenx") {
                total_dealenx += details.tool_calls;
            }
        }
        let out_of_range = response_details(&path, &bytes, count + 1).unwrap_err();
        assert!(
            matches!(
                out_of_range,
                session::SessionError::RequestOutOfRange { .. }
            ),
            "{name}"
        );
    }
    if fixtures_dir().is_some() {
        // The README: "1 MB, 18 tool invocations".
        assert_eq!(total_dealenx, 18);
    }
}

/// The store reads a real `.jsonl` appended piece by piece exactly as `parse` reads it whole.
#[test]
fn store_follows_the_real_jsonl_as_it_grows() {
    let Some((path, bytes)) = fixture("git-ai-project__git-ai__copilot_session_multiline.jsonl")
    else {
        return;
    };
    let whole = parse(&path, &bytes).unwrap();
    for chunk in [1usize, 7, 100, 4096] {
        let mut store = SessionStore::new();
        let mut size = 0usize;
        let mut mtime = 0.0;
        while size < bytes.len() {
            size = (size + chunk).min(bytes.len());
            mtime += 1.0;
            let meta = FileMeta {
                size: size as u64,
                mtime_ms: mtime,
            };
            let visible = &bytes[..size];
            match store.plan(&path, meta) {
                ReadPlan::Full => {
                    // Until a first complete `kind: 0` line is there, the file is unreadable.
                    let _ = store.apply(&path, None, meta, 0, visible);
                }
                ReadPlan::From { offset } => {
                    let outcome = store
                        .apply(&path, None, meta, offset, &visible[offset as usize..])
                        .unwrap();
                    assert!(!outcome.needs_full_read);
                }
                ReadPlan::Skip => panic!("the file grew"),
            }
        }
        let stored = store.get(&whole.session_id).expect("known session");
        assert!(stored.available);
        assert_eq!(stored.dialog, whole, "chunk size {chunk}");
    }
}
