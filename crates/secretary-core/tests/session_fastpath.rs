//! Differential tests: the byte-level fast paths of the `.json` reader and of the `.jsonl` line
//! reader give exactly what the serde visitors alone give (`parse_with_visitors`,
//! `response_details_with_visitors`): the same dialog, the same diagnostics, the same error, on
//! the real sessions in `../shared/fixtures`, on generated sessions and mutation logs with every
//! field shape and mutation target the readers know, and on damaged copies of both. A store
//! following a generated log in pieces (the fast path only) ends where the visitors' whole read
//! ends.

mod common;
mod follow_file;
#[path = "common/proptest_inputs.rs"]
mod proptest_inputs;

use proptest::prelude::*;
use proptest_inputs::cases;
use secretary_core::session::{
    parse, parse_with_visitors, response_details, response_details_with_visitors, SessionStore,
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
    /// A whole session object, as `.json` holds it and a `.jsonl` `kind: 0` line sets it.
    fn state(&self) -> serde_json::Map<String, Value> {
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
        top
    }
    fn session(&self) -> String {
        let top = self.state();
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

/// The tokens of the `.json` and `.jsonl` readers' fast paths beyond `proptest_inputs`' own: a
/// space, leading zeros, a cut number, an escape and a cut one.
fn token() -> impl Strategy<Value = Vec<u8>> {
    proptest_inputs::token(&[" ", "01", "1.", "\"\\u00e9\"", "\\u"], 1..3)
}

/// A file `generate` writes from a random seed, then damaged by up to four random edits
/// (`damage`): what the damaged-file properties read, sessions and logs alike.
fn damaged(generate: fn(&Gen) -> String) -> impl Strategy<Value = Vec<u8>> {
    let edit = (
        any::<usize>(),
        0usize..4,
        prop::collection::vec(token(), 0..3),
    );
    let edits = prop::collection::vec(edit, 0..4);
    (1u64..u64::MAX, edits).prop_map(move |(seed, edits)| {
        let mut bytes = generate(&Gen::new(seed)).into_bytes();
        damage(&mut bytes, edits);
        bytes
    })
}

/// Applies proptest's `edits` to `bytes`: at a position, cut the rest, insert tokens, drop 7 bytes
/// or flip one byte's case bit.
fn damage(bytes: &mut Vec<u8>, edits: Vec<(usize, usize, Vec<Vec<u8>>)>) {
    for (at, how, tokens) in edits {
        let at = at % (bytes.len() + 1);
        match how {
            0 => bytes.truncate(at),
            1 => {
                bytes.splice(at..at, tokens.concat());
            }
            2 => {
                let end = (at + 7).min(bytes.len());
                bytes.drain(at..end);
            }
            _ => {
                if at < bytes.len() {
                    bytes[at] ^= 0x20;
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(3000))]

    /// Damaged generated sessions: the same dialog or the same error, byte for byte.
    #[test]
    fn damaged_sessions_read_the_same(bytes in damaged(Gen::session)) {
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

// ---- `.jsonl` mutation logs: the line fast path against the visitors alone ----

impl Gen {
    /// A path segment for request `n`: mostly the number VS Code writes, sometimes what a
    /// damaged or hand-written log may hold.
    fn index(&self, n: u64) -> Value {
        match self.next() % 14 {
            0 => json!(n.to_string()),
            1 => json!(format!("0{n}")),
            2 => json!(-1),
            3 => json!(n as f64 + 0.5),
            4 => json!(n as f64),
            5 => json!(1u64 << 40),
            6 => json!(null),
            _ => json!(n),
        }
    }
    /// The value of a request's `result`: with or without error details, and metadata that is
    /// the bulk of a real agent-mode line.
    fn result(&self) -> Value {
        let mut obj = serde_json::Map::new();
        if !self.next().is_multiple_of(3) {
            obj.insert(
                "metadata".into(),
                json!({"toolCallRounds": [{"response": self.text(), "toolCalls": [{"name": "read", "arguments": self.text()}]}], "toolCallResults": {"c1": {"content": [{"value": self.text()}]}}}),
            );
        }
        if self.next().is_multiple_of(2) {
            obj.insert(
                "errorDetails".into(),
                self.maybe(
                    json!({"code": self.pick(&["canceled", "failed"]), "message": self.text()}),
                ),
            );
        }
        if self.next().is_multiple_of(4) {
            obj.insert("timings".into(), json!({"totalElapsed": 900}));
        }
        self.maybe(Value::Object(obj))
    }
    /// One mutation: its `kind`, path and value (`None`: no `v`), and an `i` for pushes.
    fn mutation(&self, requests: u64) -> (Value, Value, Option<Value>, Option<Value>) {
        let n = self.next() % (requests + 2);
        let req = |tail: &[Value]| {
            let mut path = vec![json!("requests"), self.index(n)];
            path.extend_from_slice(tail);
            Value::Array(path)
        };
        let m = self.next() % 4;
        let (kind, path, value) = match self.next() % 26 {
            0 => (0, json!([]), Value::Object(self.state())),
            1 => (
                1,
                json!([self.pick(&[
                    "customTitle",
                    "sessionId",
                    "version",
                    "creationDate",
                    "lastMessageDate",
                    "initialLocation"
                ])]),
                self.maybe(json!(self.text())),
            ),
            2 => (1, json!(["inputState", "inputText"]), json!(self.text())),
            3 => (2, json!(["requests"]), json!([self.request(n)])),
            4 => (
                1,
                json!(["requests"]),
                self.maybe(json!([self.request(0), self.request(1)])),
            ),
            5 => (1, req(&[]), self.request(n)),
            6..=8 => (1, req(&[json!("result")]), self.result()),
            9 => (
                1,
                req(&[json!("result"), json!("errorDetails")]),
                self.maybe(json!({"code": "failed"})),
            ),
            10 => (
                1,
                req(&[json!("result"), json!("errorDetails"), json!("code")]),
                self.maybe(json!("canceled")),
            ),
            11 | 12 => (2, req(&[json!("response")]), self.response()),
            13 => (1, req(&[json!("response")]), self.response()),
            14 => (
                1,
                req(&[json!("response"), json!(m)]),
                json!({"value": self.text()}),
            ),
            15 => (
                1,
                req(&[json!("message")]),
                json!({"text": self.text(), "parts": [{"text": self.text()}]}),
            ),
            16 => (
                1,
                req(&[json!("message"), json!("text")]),
                self.maybe(json!(self.text())),
            ),
            17 => (
                2,
                req(&[json!("message"), json!("parts")]),
                json!([{"text": self.text()}]),
            ),
            18 => (
                1,
                req(&[json!("message"), json!("parts"), json!(m)]),
                json!({"text": self.text()}),
            ),
            19 => (
                1,
                req(&[json!("message"), json!("parts"), json!(m), json!("text")]),
                json!(self.text()),
            ),
            20 => (
                1,
                req(&[json!("modelState")]),
                self.maybe(json!({"value": self.next() % 5})),
            ),
            21 => (
                1,
                req(&[json!("modelState"), json!("value")]),
                self.maybe(json!(self.next() % 6)),
            ),
            22 => (
                1,
                req(&[json!("agent"), json!("id")]),
                self.maybe(json!("agent")),
            ),
            23 => (
                1,
                req(&[json!(self.pick(&[
                    "requestId",
                    "timestamp",
                    "modelId",
                    "agent",
                    "isCanceled",
                    "responseErrorDetails",
                    "variableData",
                    "followups"
                ]))]),
                self.odd(),
            ),
            24 => (
                3,
                self.pick(&[
                    req(&[]),
                    req(&[json!("result")]),
                    req(&[json!("message"), json!("text")]),
                    req(&[json!("response"), json!(m)]),
                    json!(["customTitle"]),
                    json!(["requests"]),
                ]),
                json!(null),
            ),
            _ => (
                self.pick(&[1, 2, 3]),
                json!(self.pick(&["requests", "inputState"])),
                self.odd(),
            ),
        };
        let value = match (kind, self.next() % 12) {
            (3, _) | (_, 0) => None,
            _ => Some(value),
        };
        let index = match (kind, self.next() % 5) {
            (2, 0) => Some(json!(m)),
            (2, 1) => Some(self.pick(&[
                json!(null),
                json!(-1),
                json!(1.5),
                json!("2"),
                json!(99_999),
                json!(0),
            ])),
            _ => None,
        };
        (json!(kind), path, value, index)
    }
    /// One line of a log: VS Code's member order (`kind`, `k`, `v`, `i`) or another, and now and
    /// then a shape VS Code never writes.
    fn mutation_line(&self, requests: u64) -> String {
        let (kind, path, value, index) = self.mutation(requests);
        let mut members: Vec<(String, String)> = vec![
            ("kind".into(), kind.to_string()),
            ("k".into(), path.to_string()),
        ];
        if let Some(value) = value {
            members.push(("v".into(), value.to_string()));
        }
        if let Some(index) = index {
            members.push(("i".into(), index.to_string()));
        }
        match self.next() % 24 {
            0 => members.reverse(),
            1 => members.rotate_left(1),
            2 => members.insert(1, ("extra".into(), self.odd().to_string())),
            3 => members.push((
                "kind".into(),
                self.pick(&[json!(1), json!(2), json!("x")]).to_string(),
            )),
            4 => members.insert(0, ("k".into(), json!(["customTitle"]).to_string())),
            5 => members.push(("v".into(), self.odd().to_string())),
            6 => members[0].0 = "\\u006bind".into(),
            7 => {
                members[0].1 = self
                    .pick(&[
                        json!(7),
                        json!(-1),
                        json!("1"),
                        json!(1.0),
                        json!(null),
                        json!([0]),
                    ])
                    .to_string()
            }
            8 => {
                members[1].1 = self
                    .pick(&[json!("requests"), json!({"a": 1}), json!(null), json!(3)])
                    .to_string()
            }
            9 => members.retain(|(key, _)| key != "kind"),
            10 => members.push(("i".into(), json!(0).to_string())),
            _ => {}
        }
        let sep = if self.next().is_multiple_of(5) {
            " , "
        } else {
            ","
        };
        let colon = if self.next().is_multiple_of(5) {
            " : "
        } else {
            ":"
        };
        let body: Vec<String> = members
            .iter()
            .map(|(key, value)| format!("\"{key}\"{colon}{value}"))
            .collect();
        let mut line = format!("{{{}}}", body.join(sep));
        match self.next() % 40 {
            0 => line.push_str(" \t"),
            1 => line.push_str(" x"),
            2 => line = format!("  {line}"),
            3 => line = half(&line).to_string(),
            4 => line = "[1]".into(),
            5 => line = "{}".into(),
            _ => {}
        }
        line
    }
    /// A mutation log: a `kind: 0` state first (usually), then mutations.
    fn mutation_log(&self) -> String {
        let mut out = String::new();
        if !self.next().is_multiple_of(10) {
            let state = Value::Object(self.state());
            out.push_str(&json!({"kind": 0, "v": state}).to_string());
            out.push('\n');
        }
        for _ in 0..self.next() % 24 {
            out.push_str(&self.mutation_line(6));
            out.push('\n');
        }
        if self.next().is_multiple_of(3) {
            // A log cut while a line is being written.
            let line = self.mutation_line(6);
            out.push_str(half(&line));
        }
        out
    }
}

/// The first half of `text`, cut on a character boundary.
fn half(text: &str) -> &str {
    let mut cut = text.len() / 2;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

const JSONL: &str = "/ws/chatSessions/s.jsonl";

/// A store following `bytes` as they grow, cut at `cuts`, ends where the visitors' whole read
/// ends: the line fast path holds on the incremental path too.
fn same_in_pieces(bytes: &[u8], cuts: &[usize]) {
    let mut store = SessionStore::new();
    follow_file::feed(&mut store, JSONL, bytes, cuts);
    let reference = parse_with_visitors(JSONL, bytes);
    match (store.entry(JSONL), reference) {
        (Some(stored), Ok(whole)) if stored.available => {
            assert_eq!(stored.dialog, whole, "the store differs from a whole read")
        }
        (stored, reference) => assert!(
            reference.is_err() || stored.is_none_or(|s| !s.available),
            "the store and a whole read disagree on whether the log reads"
        ),
    }
}

#[test]
fn generated_mutation_logs_read_the_same() {
    let gen = Gen::new(0x2545_F491_4F6C_DD1D);
    for _ in 0..800 {
        let log = gen.mutation_log();
        same(JSONL, log.as_bytes());
        let cuts: Vec<usize> = (0..gen.next() % 6).map(|_| gen.next() as usize).collect();
        same_in_pieces(log.as_bytes(), &cuts);
    }
}

/// Every cut of the real `.jsonl` fixture (a log still being written), whole and followed in
/// two pieces.
#[test]
fn every_cut_of_the_shared_mutation_log_reads_the_same() {
    let Some(dir) = common::shared_fixtures("sessions") else {
        return;
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for cut in 0..=bytes.len() {
            let head = &bytes[..cut];
            assert_eq!(
                parse(JSONL, head),
                parse_with_visitors(JSONL, head),
                "cut at {cut}"
            );
        }
        for cut in (0..=bytes.len()).step_by(61) {
            same_in_pieces(&bytes, &[cut]);
        }
        same(JSONL, &bytes);
        seen += 1;
    }
    assert!(seen > 0, "{} holds no .jsonl session", dir.display());
}

proptest! {
    #![proptest_config(cases(1000))]

    /// Damaged generated mutation logs: the same dialog or the same error, byte for byte.
    #[test]
    fn damaged_mutation_logs_read_the_same(bytes in damaged(Gen::mutation_log)) {
        same(JSONL, &bytes);
    }

    /// Token soup inside a mutation line, after a valid initial state.
    #[test]
    fn mutation_token_soup_reads_the_same(
        head in prop::sample::select(vec![
            "{\"kind\":1,\"k\":[\"requests\",0,\"result\"],\"v\":",
            "{\"kind\":1,\"k\":[\"requests\",0,\"result\"],\"v\":{\"metadata\":",
            "{\"kind\":2,\"k\":[\"requests\"],\"v\":[{",
            "{\"kind\":1,\"k\":[\"requests\",0],\"v\":{",
            "{\"kind\":0,\"v\":{\"requests\":[{",
            "{\"kind\":2,\"k\":[\"requests\",0,\"response\"],\"v\":[",
            "{\"kind\":",
            "{\"k\":[\"requests\",0,",
            "{",
        ]),
        tokens in prop::collection::vec(token(), 0..40),
    ) {
        let mut bytes = b"{\"kind\":0,\"v\":{\"version\":3,\"requests\":[{\"message\":{\"text\":\"a\"},\"result\":{}}]}}\n".to_vec();
        bytes.extend_from_slice(head.as_bytes());
        bytes.extend(tokens.concat());
        same(JSONL, &bytes);
    }
}
