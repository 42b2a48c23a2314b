//! Lines of a `.jsonl` mutation log for the tests that write one by hand: the `kind: 0` initial
//! state of session `log-1` and a minimal request, joined one JSON value a line.
// Each test file uses the part it needs.
#![allow(dead_code)]

use serde_json::{json, Value};

/// The log's text: one JSON value a line, each line ended.
pub fn lines(entries: &[Value]) -> String {
    entries.iter().map(|e| format!("{e}\n")).collect()
}

/// The `kind: 0` line of session `log-1` (created at 100) holding `requests`.
pub fn initial(requests: Vec<Value>) -> Value {
    json!({"kind": 0, "v": {"version": 3, "creationDate": 100, "sessionId": "log-1", "requests": requests}})
}

/// A request whose id and text are `text`, at time 1000, with no response.
pub fn req(text: &str) -> Value {
    json!({"requestId": text, "timestamp": 1000, "message": {"text": text, "parts": []}})
}
