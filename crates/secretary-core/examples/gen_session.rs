//! Generates a realistic synthetic VS Code chat session of a target size, for benchmarks.
//!
//! ```text
//! cargo run --release -p secretary-core --example gen_session -- --format json --mb 100 --out /tmp/x.json
//! cargo run --release -p secretary-core --example gen_session -- --format jsonl --mb 100 --out /tmp/x.jsonl
//! ```
//!
//! Why it looks the way it does: real sessions are dominated by what the Secretary skips —
//! streamed markdown parts, `toolInvocationSerialized` parts with big result details, and
//! `result.metadata` holding every tool-call round and tool result — so a benchmark on small,
//! flat files would flatter any parser. Each request here carries a few kilobytes of user text
//! and tens to hundreds of kilobytes of response and metadata, with escapes and non-ASCII text.
//! The `.jsonl` variant is written the way VS Code's mutation log grows: an initial `kind: 0`
//! state, then per request a push onto `requests`, many pushes onto its `response` (some with
//! `i` replacing the last part, as streaming does), and sets of `modelState`, `result` and the
//! input state. `--seed N` changes the content, deterministically.

use std::fs::File;
use std::io::{BufWriter, Write};

use serde_json::{json, Value};

/// A small deterministic PRNG (xorshift64*), so the examples need no extra dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const WORDS: &[&str] = &[
    "function",
    "the",
    "return",
    "value",
    "error",
    "fix",
    "test",
    "build",
    "module",
    "async",
    "await",
    "const",
    "struct",
    "impl",
    "trait",
    "résumé",
    "naïve",
    "データ",
    "ошибка",
    "😀",
    "\"quoted\"",
    "back\\slash",
    "tab\there",
    "line\nbreak",
    "<html>",
    "{json}",
    "[array]",
    "path/to/file.rs",
    "café",
    "straße",
    "Überprüfung",
    "null",
    "true",
];

fn words(rng: &mut Rng, n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push(if rng.below(12) == 0 { '\n' } else { ' ' });
        }
        out.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    out
}

fn uri(path: &str) -> Value {
    json!({"$mid": 1, "fsPath": path, "external": format!("file://{path}"), "path": path, "scheme": "file"})
}

fn markdown(rng: &mut Rng, n: usize) -> Value {
    json!({"value": words(rng, n), "supportThemeIcons": false, "supportHtml": false,
           "baseUri": {"$mid": 1, "path": "/home/dev/project/", "scheme": "file"}})
}

fn tool_part(rng: &mut Rng, id: u64) -> Value {
    let output = {
        let n = 200 + rng.below(1500) as usize;
        words(rng, n)
    };
    json!({
        "kind": "toolInvocationSerialized",
        "invocationMessage": {"value": format!("Running `tool_{id}`"), "isTrusted": false, "supportThemeIcons": false, "supportHtml": false},
        "pastTenseMessage": {"value": format!("Ran `tool_{id}`"), "isTrusted": false},
        "isConfirmed": {"type": 1},
        "isComplete": true,
        "source": {"type": "internal", "label": "Built-In"},
        "toolCallId": format!("call_{id:016x}"),
        "toolId": "copilot_readFile",
        "resultDetails": {"input": format!("{{\"path\":\"/src/file_{id}.rs\"}}"), "output": [{"type": "embed", "isText": true, "value": output}]},
        "presentation": match id % 3 { 0 => Value::Null, _ => json!("hidden") }
    })
}

fn response_parts(rng: &mut Rng, index: u64) -> Vec<Value> {
    let mut parts = Vec::new();
    let rounds = 1 + rng.below(6);
    for r in 0..rounds {
        parts.push({
            let n = 20 + rng.below(400) as usize;
            markdown(rng, n)
        });
        parts.push(json!({"kind": "prepareToolInvocation", "toolName": "copilot_readFile"}));
        parts.push(tool_part(rng, index * 100 + r));
        if rng.below(3) == 0 {
            parts.push(json!({"id": format!("undo-{index}-{r}"), "kind": "undoStop"}));
            parts.push(json!({"kind": "codeblockUri", "uri": uri(&format!("/home/dev/project/src/m{r}.rs"))}));
            parts.push(json!({"kind": "textEditGroup", "uri": uri(&format!("/home/dev/project/src/m{r}.rs")),
                "edits": [[{"text": words(rng, 80), "range": {"startLineNumber": 1, "startColumn": 1, "endLineNumber": 9, "endColumn": 1}}]],
                "done": true}));
        }
        if rng.below(4) == 0 {
            parts.push(json!({"kind": "inlineReference", "inlineReference": uri("/home/dev/project/src/lib.rs")}));
        }
    }
    parts.push({
        let n = 50 + rng.below(300) as usize;
        markdown(rng, n)
    });
    parts
}

fn metadata(rng: &mut Rng, index: u64) -> Value {
    let rounds: Vec<Value> = (0..1 + rng.below(5))
        .map(|r| {
            json!({"response": words(rng, 100), "toolCalls": [{"name": "copilot_readFile",
                "arguments": format!("{{\"filePath\":\"/src/{index}/{r}.rs\",\"startLine\":1,\"endLine\":400}}"),
                "id": format!("call_{index}_{r}")}], "toolInputRetry": 0, "id": format!("round_{index}_{r}")})
        })
        .collect();
    let results: serde_json::Map<String, Value> = (0..rounds.len())
        .map(|r| {
            let n = 300 + rng.below(2000) as usize;
            let value = words(rng, n);
            (
                format!("call_{index}_{r}"),
                json!({"$mid": 20, "content": [{"$mid": 21, "value": value}]}),
            )
        })
        .collect();
    json!({"codeBlocks": [], "renderedUserMessage": [{"type": 1, "text": words(rng, 120)}],
           "toolCallRounds": rounds, "toolCallResults": results, "modelMessageId": format!("m{index}"),
           "responseId": format!("r{index}"), "sessionId": "s", "agentId": "github.copilot.editsAgent",
           "nested": {"a": {"b": {"c": {"d": [1, 2, {"e": [words(rng, 10)]}]}}}}})
}

fn request(rng: &mut Rng, index: u64, base_ts: i64, with_response: bool) -> Value {
    let text = {
        let n = 10 + rng.below(200) as usize;
        words(rng, n)
    };
    let len = text.encode_utf16().count();
    let state = match rng.below(20) {
        0 => 2,
        1 => 3,
        _ => 1,
    };
    json!({
        "requestId": format!("request_{index:08x}-0000-4000-8000-{:012x}", rng.next() & 0xffff_ffff_ffff),
        "timestamp": base_ts + index as i64 * 60_000,
        "agent": {"extensionId": {"value": "GitHub.copilot-chat", "_lower": "github.copilot-chat"}, "extensionVersion": "0.37.1",
                  "publisherDisplayName": "GitHub", "extensionPublisherId": "GitHub", "extensionDisplayName": "GitHub Copilot Chat",
                  "id": "github.copilot.editsAgent", "description": "Edit files in your workspace in agent mode", "metadata": {"themeIcon": {"id": "tools"}},
                  "name": "agent", "fullName": "GitHub Copilot", "isDefault": true, "locations": ["panel"], "modes": ["agent"], "slashCommands": [], "disambiguation": []},
        "modelId": "copilot/claude-sonnet-4",
        "responseId": format!("response_{index}"),
        "result": {"timings": {"firstProgress": 1200, "totalElapsed": 53000}, "metadata": metadata(rng, index)},
        "responseMarkdownInfo": [],
        "followups": [],
        "modelState": {"value": state, "completedAt": base_ts + index as i64 * 60_000 + 30_000},
        "contentReferences": [{"kind": "reference", "reference": uri("/home/dev/project/README.md")}],
        "codeCitations": [],
        "timeSpentWaiting": base_ts + index as i64 * 60_000 + 5,
        "response": if with_response { Value::Array(response_parts(rng, index)) } else { json!([]) },
        "message": {"text": text, "parts": [{"range": {"start": 0, "endExclusive": len}, "editorRange": {"startLineNumber": 1, "startColumn": 1, "endLineNumber": 1, "endColumn": len + 1}, "text": text, "kind": "text"}]},
        "variableData": {"variables": [{"kind": "file", "id": "file:///home/dev/project/src/lib.rs", "name": "lib.rs", "value": uri("/home/dev/project/src/lib.rs")}]}
    })
}

fn header(session_id: &str, base_ts: i64) -> serde_json::Map<String, Value> {
    let mut h = serde_json::Map::new();
    h.insert("version".into(), json!(3));
    h.insert("creationDate".into(), json!(base_ts));
    h.insert("customTitle".into(), json!("Synthetic benchmark session"));
    h.insert("initialLocation".into(), json!("panel"));
    h.insert("responderUsername".into(), json!("GitHub Copilot"));
    h.insert("sessionId".into(), json!(session_id));
    h.insert("hasPendingEdits".into(), json!(false));
    h
}

struct Counter<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut format = "json".to_string();
    let mut mb = 10.0f64;
    let mut out = None;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => format = args.next().ok_or("--format needs json or jsonl")?,
            "--mb" => mb = args.next().ok_or("--mb needs a number")?.parse()?,
            "--out" => out = Some(args.next().ok_or("--out needs a path")?),
            "--seed" => {
                seed = args
                    .next()
                    .ok_or("--seed needs a number")?
                    .parse::<u64>()?
                    .max(1)
            }
            "-h" | "--help" => {
                println!("gen_session --format json|jsonl --mb N --out PATH [--seed N]");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let out = out.ok_or("--out PATH is required")?;
    let target = (mb * 1024.0 * 1024.0) as u64;
    let mut rng = Rng(seed);
    let base_ts = 1_770_000_000_000i64;
    let session_id = "5e55101d-0000-4000-8000-000000000001";
    let mut w = Counter {
        inner: BufWriter::with_capacity(1 << 20, File::create(&out)?),
        written: 0,
    };
    let mut count = 0u64;
    let mut lines = 0u64;
    match format.as_str() {
        "json" => {
            let head = serde_json::to_string(&Value::Object(header(session_id, base_ts)))?;
            // Reopen the object to append `requests` after the header keys.
            w.write_all(&head.as_bytes()[..head.len() - 1])?;
            w.write_all(b",\"requests\":[")?;
            while w.written < target || count == 0 {
                if count > 0 {
                    w.write_all(b",")?;
                }
                serde_json::to_writer(&mut w, &request(&mut rng, count, base_ts, true))?;
                count += 1;
            }
            w.write_all(b"],\"lastMessageDate\":")?;
            w.write_all((base_ts + count as i64 * 60_000).to_string().as_bytes())?;
            w.write_all(b"}")?;
        }
        "jsonl" => {
            let mut state = header(session_id, base_ts);
            let initial: Vec<Value> = (0..2)
                .map(|i| request(&mut rng, i, base_ts, true))
                .collect();
            count = 2;
            state.insert("requests".into(), Value::Array(initial));
            state.insert("inputState".into(), json!({"attachments": [], "mode": {"id": "agent", "kind": "agent"}, "inputText": ""}));
            serde_json::to_writer(&mut w, &json!({"kind": 0, "v": state}))?;
            w.write_all(b"\n")?;
            lines += 1;
            while w.written < target {
                let n = count;
                // VS Code writes `kind`, `k`, `v`, `i` in that order (serde_json's map would sort them).
                let line = |w: &mut Counter<BufWriter<File>>, v: Value| -> std::io::Result<()> {
                    let field = |name: &str| v.get(name).map(|x| x.to_string());
                    let mut text = format!("{{\"kind\":{}", field("kind").unwrap_or_default());
                    for name in ["k", "v", "i"] {
                        if let Some(x) = field(name) {
                            text.push_str(&format!(",\"{name}\":{x}"));
                        }
                    }
                    text.push_str("}\n");
                    w.write_all(text.as_bytes())
                };
                line(
                    &mut w,
                    json!({"kind": 1, "k": ["inputState", "inputText"], "v": words(&mut rng, 12)}),
                )?;
                let mut req = request(&mut rng, n, base_ts, false);
                if let Some(obj) = req.as_object_mut() {
                    obj.insert("modelState".into(), json!({"value": 0}));
                    obj.remove("result");
                }
                line(&mut w, json!({"kind": 2, "k": ["requests"], "v": [req]}))?;
                line(
                    &mut w,
                    json!({"kind": 1, "k": ["inputState", "inputText"], "v": ""}),
                )?;
                let parts = response_parts(&mut rng, n);
                for (len, part) in parts.into_iter().enumerate() {
                    // Streaming: a markdown part is often pushed short, then replaced (push with `i`).
                    if part.get("kind").is_none() && rng.below(2) == 0 {
                        let mut partial = part.clone();
                        if let Some(v) = partial.get_mut("value") {
                            *v = json!(words(&mut rng, 5));
                        }
                        line(
                            &mut w,
                            json!({"kind": 2, "k": ["requests", n, "response"], "v": [partial]}),
                        )?;
                        line(
                            &mut w,
                            json!({"kind": 2, "k": ["requests", n, "response"], "v": [part], "i": len}),
                        )?;
                        lines += 2;
                    } else {
                        line(
                            &mut w,
                            json!({"kind": 2, "k": ["requests", n, "response"], "v": [part]}),
                        )?;
                        lines += 1;
                    }
                }
                line(
                    &mut w,
                    json!({"kind": 1, "k": ["requests", n, "result"], "v": {"timings": {"totalElapsed": 900}, "metadata": metadata(&mut rng, n)}}),
                )?;
                line(
                    &mut w,
                    json!({"kind": 1, "k": ["requests", n, "modelState"], "v": {"value": 1, "completedAt": base_ts + n as i64 * 60_000 + 30_000}}),
                )?;
                line(
                    &mut w,
                    json!({"kind": 1, "k": ["requests", n, "timeSpentWaiting"], "v": base_ts + n as i64 * 60_000 + 9}),
                )?;
                lines += 6;
                count += 1;
            }
        }
        other => return Err(format!("unknown format {other} (json or jsonl)").into()),
    }
    w.flush()?;
    eprintln!(
        "wrote {out}: {:.1} MiB, {count} requests{}",
        w.written as f64 / 1048576.0,
        if lines > 0 {
            format!(", {lines} lines")
        } else {
            String::new()
        }
    );
    Ok(())
}
