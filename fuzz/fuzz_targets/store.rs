//! A file that grows, shrinks, is rewritten and removed, followed through the store as a host
//! would (plan, read, apply): never a panic, and a log followed in pieces ends where one whole
//! read of the same bytes ends, unless a line was skipped along the way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use secretary_core::session::{parse, FileMeta, ReadPlan, SessionStore};

const NAMES: &[&str] = &[
    "/ws/chatSessions/a.jsonl",
    "/ws/GitHub.copilot-chat/transcripts/a.jsonl",
    "/ws/chatSessions/a.json",
    // Other agents' logs: appended JSON lines, Markdown lines, a task rewritten whole.
    "/h/.claude/projects/-w/s.jsonl",
    "/h/.qwen/projects/-w/chats/s.jsonl",
    "/w/.aider.chat.history.md",
    "/g/saoudrizwan.claude-dev/tasks/1/ui_messages.json",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, mut rest)) = data.split_first() else {
        return;
    };
    let name = NAMES[selector as usize % NAMES.len()];
    let mut store = SessionStore::new();
    let mut file: Vec<u8> = Vec::new();
    let mut mtime = 0.0;
    // Operations: [op][len][len bytes of payload].
    while let [op, len, tail @ ..] = rest {
        let take = (*len as usize).min(tail.len());
        let (payload, next) = tail.split_at(take);
        rest = next;
        mtime += 1.0;
        match op % 8 {
            0..=4 => file.extend_from_slice(payload),
            5 => file.truncate(file.len().saturating_sub(payload.len())),
            6 => {
                store.remove(name);
                continue;
            }
            _ => {
                // A host that reads from an arbitrary offset.
                let offset = u64::from(*len) % (file.len() as u64 + 2);
                let meta = FileMeta {
                    size: file.len() as u64,
                    mtime_ms: mtime,
                };
                let from = (offset as usize).min(file.len());
                let _ = store.apply(name, None, meta, offset, &file[from..]);
                continue;
            }
        }
        let meta = FileMeta {
            size: file.len() as u64,
            mtime_ms: mtime,
        };
        match store.plan(name, meta) {
            ReadPlan::Skip => {}
            ReadPlan::Full => {
                let _ = store.apply(name, None, meta, 0, &file);
            }
            ReadPlan::From { offset } => {
                let from = (offset as usize).min(file.len());
                let outcome = store
                    .apply(name, None, meta, offset, &file[from..])
                    .expect("appends never fail");
                if outcome.needs_full_read {
                    let _ = store.apply(name, None, meta, 0, &file);
                }
            }
        }
        let _ = store.entries().count();
        let _ = store.current(None);
    }
    // Converge: one last sync of the final bytes, then compare with a whole read.
    mtime += 1.0;
    let meta = FileMeta {
        size: file.len() as u64,
        mtime_ms: mtime,
    };
    if let ReadPlan::From { offset } = store.plan(name, meta) {
        let from = (offset as usize).min(file.len());
        if let Ok(outcome) = store.apply(name, None, meta, offset, &file[from..]) {
            if outcome.needs_full_read {
                let _ = store.apply(name, None, meta, 0, &file);
            }
        }
    } else {
        let _ = store.apply(name, None, meta, 0, &file);
    }
    if let (Ok(whole), Some(stored)) = (parse(name, &file), store.entry(name)) {
        if stored.available && stored.dialog != whole {
            let skipped = stored
                .dialog
                .diagnostics
                .iter()
                .chain(&whole.diagnostics)
                .any(|d| d.contains("skipped"));
            assert!(
                skipped,
                "incremental and whole reads diverged: {:?} vs {:?}",
                stored.dialog, whole
            );
        }
    }
});
