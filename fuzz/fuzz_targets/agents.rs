//! Any bytes as another agent's log (Copilot CLI, Claude Code, Codex): `parse`, `parse_as` and
//! `response_details` never panic, and following the file as it grows (two appends at a fuzzed
//! cut) gives the same prompts as reading it whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use secretary_core::session::{
    parse, parse_as, response_details, DialogSource, FileMeta, ReadPlan, SessionStore,
};

const PLACES: &[(&str, DialogSource)] = &[
    ("/h/.copilot/session-state/s/events.jsonl", DialogSource::CopilotCli),
    ("/h/.copilot/session-state/s.jsonl", DialogSource::CopilotCli),
    ("/h/.claude/projects/-w/s.jsonl", DialogSource::ClaudeCode),
    ("/h/.codex/sessions/2026/01/01/rollout-s.jsonl", DialogSource::Codex),
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Some((&cut_byte, bytes)) = rest.split_first() else {
        return;
    };
    let (name, source) = PLACES[selector as usize % PLACES.len()];
    let forced = parse_as(source, name, bytes);
    if let Ok(dialog) = &forced {
        assert_eq!(dialog.source, source);
        for (i, request) in dialog.requests.iter().enumerate() {
            assert_eq!(request.index, i + 1);
        }
    }
    let whole = parse(name, bytes);
    if let Ok(dialog) = &whole {
        for index in [0, 1, dialog.requests.len(), dialog.requests.len() + 1] {
            let _ = response_details(name, bytes, index);
        }
    }
    // Incremental: a first read up to `cut`, then the rest as an append.
    let cut = bytes.len() * cut_byte as usize / 255;
    let meta = |size: usize| FileMeta {
        size: size as u64,
        mtime_ms: size as f64,
    };
    let mut store = SessionStore::new();
    if cut == 0 || store.apply(name, None, meta(cut), 0, &bytes[..cut]).is_err() {
        return;
    }
    let size = bytes.len();
    let bytes_at = match store.plan(name, meta(size)) {
        ReadPlan::From { offset } => offset as usize,
        ReadPlan::Full => 0,
        ReadPlan::Skip => return,
    };
    let outcome = store.apply(name, None, meta(size), bytes_at as u64, &bytes[bytes_at..]);
    let Ok(outcome) = outcome else {
        return;
    };
    if outcome.needs_full_read {
        return;
    }
    let (Ok(whole), Some(entry)) = (&whole, store.entry(name)) else {
        return;
    };
    // Only comparable when the detected format did not change with the cut (the first line
    // decides it, so only cuts inside the first line may differ).
    if entry.dialog.format == whole.format && entry.available {
        let got: Vec<&str> = entry.dialog.requests.iter().map(|r| r.text.as_str()).collect();
        let want: Vec<&str> = whole.requests.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(got, want);
    }
});
