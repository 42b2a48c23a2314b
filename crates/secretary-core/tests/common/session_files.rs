//! Session files in tests: the VS Code request they are made of, putting one into a test's
//! `SessionStore` (the whole file read at once, as a host does the first time it sees a file), and
//! checking what a reader noted while reading one. (Included with `#[path]`; each test file uses a
//! part, hence `dead_code`.)
#![allow(dead_code)]

use secretary_core::session::{Dialog, FileMeta, SessionStore};
use serde_json::{json, Value};

/// A file's size and modification time, as a host stats it.
pub fn meta(size: usize, mtime_ms: f64) -> FileMeta {
    FileMeta {
        size: size as u64,
        mtime_ms,
    }
}

/// Reads all of `bytes` as the file at `path` of `workspace` (modified at 1 ms); panics when the
/// store refuses it, since every test file is a valid session.
#[track_caller]
pub fn put(store: &mut SessionStore, path: &str, workspace: Option<&str>, bytes: &[u8]) {
    store
        .apply(path, workspace, meta(bytes.len(), 1.0), 0, bytes)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
}

/// One request of a VS Code `.json` session, answered with the response `"answer"`: what the
/// dialog tests' stores are made of (each adds the fields its case needs, such as `modelState`).
pub fn answered_request(id: &str, ts: i64, text: &str) -> Value {
    json!({
        "requestId": id,
        "timestamp": ts,
        "message": { "text": text, "parts": [] },
        "response": [{ "value": "answer" }],
    })
}

/// Asserts that one of `dialog`'s diagnostics satisfies `holds`, showing them all when none does.
#[track_caller]
pub fn assert_diagnostic(dialog: &Dialog, holds: impl Fn(&str) -> bool) {
    assert!(
        dialog.diagnostics.iter().any(|m| holds(m)),
        "{:?}",
        dialog.diagnostics
    );
}
