//! Differential tests: the byte-level fast path of the `.json` reader gives exactly what the serde
//! visitors alone give (`parse_with_visitors`, `response_details_with_visitors`): the same dialog,
//! the same diagnostics, the same error, on the real sessions in `../shared/fixtures`, on
//! generated sessions with every field shape the readers know, and on damaged copies of both.

mod common;

use proptest::prelude::*;
use secretary_core::session::{
    parse, parse_with_visitors, response_details, response_details_with_visitors,
};
use serde_json::{json, Value};

fn same(name: &str, bytes: &[u8]) {
    let fast = parse(name, bytes);
    let reference = parse_with_visitors(name, bytes);
    assert_eq!(fast, reference, "{name}: parse differs");
    let count = reference.as_ref().map_or(2, |d| d.requests.len());
    for index in 0..=count + 1 {
        assert_eq!(
            response_details(name, bytes, index),
            response_details_with_visitors(name, bytes, index),
            "{name}: response_details({index}) differs"
        );
    }
}

#[test]
fn shared_fixtures_read_the_same() {
    let Some(dir) = common::shared_fixtures("sessions") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut seen = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let name = path.to_string_lossy().into_owned();
        same(&name, &bytes);
        // Each request's slot read on its own must agree too, and so must every prefix that
        // cuts the file inside a request (a session still being written).
        for cut in (0..bytes.len()).step_by((bytes.len() / 97).max(1)) {
            assert_eq!(
                parse(&name, &bytes[..cut]),
                parse_with_visitors(&name, &bytes[..cut])
            );
        }
        seen += 1;
    }
    assert!(seen > 0, "{} holds no session", dir.display());
}

/// A deterministic generator (xorshift) of sessions with every shape a field can take.
struct Gen(std::cell::Cell<u64>);

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen(std::cell::Cell::new(seed.max(1)))
    }
    fn next(&self) -> u64 {
        let mut x = self.0.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0.set(x);
        x
    }
    fn pick<T: Clone>(&self, from: &[T]) -> T {
        from[(self.next() % from.len() as u64) as usize].clone()
    }
    fn text(&self) -> String {
        let words = [
            "plain",
            "é ü",
            "\"quoted\"",
            "back\\slash",
            "tab\there",
            "line\nbreak",
            "😀",
            "\u{1}",
            "</>",
            "",
        ];
        (0..self.next() % 40)
            .map(|_| self.pick(&words))
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn odd(&self) -> Value {
        self.pick(&[
            json!(null),
            json!(true),
            json!(-1.5e3),
            json!("s"),
            json!([1, [2]]),
            json!({"x": {"y": []}}),
        ])
    }
    fn maybe(&self, value: Value) -> Value {
        if self.next().is_multiple_of(6) {
            self.odd()
        } else {
            value
        }
    }
    fn response(&self) -> Value {
        let parts: Vec<Value> = (0..self.next() % 8)
            .map(|i| match i % 4 {
                0 => json!({"value": self.text(), "supportThemeIcons": false}),
                1 => json!({"kind": "toolInvocationSerialized", "resultDetails": {"input": self.text(), "output": [{"value": self.text()}]}}),
                2 => json!({"kind": "inlineReference", "inlineReference": {"uri": {"path": "/a/b.rs"}}}),
                _ => json!({"kind": "markdownContent", "content": {"value": self.text()}}),
            })
            .collect();
        self.maybe(Value::Array(parts))
    }
    fn request(&self, i: u64) -> Value {
        let text = self.text();
        let message = match self.next() % 4 {
            0 => json!(text),
            1 => {
                json!({"text": text, "parts": [{"text": text, "range": {"start": 0}}, {"kind": "var"}]})
            }
            2 => json!({"parts": [{"text": text}, {"text": 5}]}),
            _ => self.maybe(json!({"text": text})),
        };
        let mut obj = serde_json::Map::new();
        let fields: Vec<(&str, Value)> = vec![
            ("requestId", self.maybe(json!(format!("r{i}")))),
            ("timestamp", self.maybe(json!(1_700_000_000_000u64 + i * 1000))),
            ("message", message),
            ("variableData", json!({"variables": [{"value": self.text(), "nested": [[[{"deep": self.text()}]]]}]})),
            ("response", self.response()),
            ("result", self.maybe(json!({"metadata": {"toolCallRounds": [{"response": self.text()}]}, "errorDetails": self.maybe(json!({"code": self.pick(&["canceled", "failed", "quotaExceeded"]), "message": self.text()}))}))),
            ("modelId", self.maybe(json!("copilot/gpt"))),
            ("agent", self.maybe(json!({"id": "github.copilot.editsAgent", "extensionId": {"value": "x"}}))),
            ("modelState", self.maybe(json!({"value": self.next() % 5}))),
            ("isCanceled", self.maybe(json!(self.next().is_multiple_of(2)))),
            ("responseErrorDetails", self.maybe(json!({"code": "x"}))),
            ("followups", json!([])),
        ];
        for (key, value) in fields {
            if !self.next().is_multiple_of(5) {
                obj.insert(key.to_string(), value);
            }
        }
        match self.next() % 25 {
            0 => json!(null),
            1 => json!(text),
            2 => json!([1, 2]),
            _ => Value::Object(obj),
        }
    }
    fn session(&self) -> String {
        let n = self.next() % 6;
        let requests: Vec<Value> = (0..n).map(|i| self.request(i)).collect();
        let mut top = serde_json::Map::new();
        let fields: Vec<(&str, Value)> = vec![
            ("version", self.maybe(json!(self.pick(&[1, 2, 3, 7])))),
            ("requesterUsername", json!("me")),
            ("sessionId", self.maybe(json!("0c7a9b1e-aaaa"))),
            ("creationDate", self.maybe(json!(1_700_000_000_000u64))),
            ("lastMessageDate", self.maybe(json!(1_700_000_500_000u64))),
            ("customTitle", self.maybe(json!(self.text()))),
            ("initialLocation", self.maybe(json!("panel"))),
            ("requests", self.maybe(Value::Array(requests))),
            ("welcomeMessage", json!(["hi"])),
        ];
        for (key, value) in fields {
            if !self.next().is_multiple_of(4) {
                top.insert(key.to_string(), value);
            }
        }
        let text = if self.next().is_multiple_of(2) {
            serde_json::to_string(&Value::Object(top)).unwrap_or_default()
        } else {
            serde_json::to_string_pretty(&Value::Object(top)).unwrap_or_default()
        };
        // Shapes serde_json never writes but files may hold: escaped keys, duplicates, BOM.
        match self.next() % 8 {
            0 => text.replacen("\"requests\"", "\"req\\u0075ests\"", 1),
            1 => text.replacen("\"modelId\"", "\"modelId\":\"first\",\"modelId\"", 1),
            2 => format!("\u{feff}{text}"),
            3 => text.replacen("\"requests\"", "\"requests\": null, \"requests\"", 1),
            _ => text,
        }
    }
}

#[test]
fn generated_sessions_read_the_same() {
    let gen = Gen::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let session = gen.session();
        same("/ws/chatSessions/s.json", session.as_bytes());
        same("/x/export.json", session.as_bytes());
    }
}

fn token() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"",
            "null",
            "true",
            "-1",
            "0",
            "01",
            "1e400",
            "0.5",
            "1.",
            "\"requests\"",
            "\"message\"",
            "\"text\"",
            "\"result\"",
            "\"errorDetails\"",
            "\"code\"",
            "\"sessionId\"",
            "\"response\"",
            "\"\\u00e9\"",
            "\"\\ud800\"",
            "\\",
            "\\u",
            "é",
            "\u{0}",
            "\u{feff}",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 1..3),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Damaged generated sessions: the same dialog or the same error, byte for byte.
    #[test]
    fn damaged_sessions_read_the_same(
        seed in 1u64..u64::MAX,
        edits in prop::collection::vec((any::<usize>(), 0usize..4, prop::collection::vec(token(), 0..3)), 0..4),
    ) {
        let mut bytes = Gen::new(seed).session().into_bytes();
        for (at, how, tokens) in edits {
            let at = at % (bytes.len() + 1);
            match how {
                0 => bytes.truncate(at),
                1 => { bytes.splice(at..at, tokens.concat()); }
                2 => { let end = (at + 7).min(bytes.len()); bytes.drain(at..end); }
                _ => if at < bytes.len() { bytes[at] ^= 0x20; },
            }
        }
        same("/ws/chatSessions/s.json", &bytes);
    }

    /// Token soup inside a session-like object.
    #[test]
    fn token_soup_reads_the_same(tokens in prop::collection::vec(token(), 0..60)) {
        let mut bytes = b"{\"version\":3,\"requests\":[{".to_vec();
        bytes.extend(tokens.concat());
        same("/ws/chatSessions/s.json", &bytes);
    }
}
