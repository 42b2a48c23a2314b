//! `get_request`: the full text of the Nth request of a dialog, 1-based.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{errors, request_time, resolve_dialog};
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// Arguments of `get_request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// Which request, counting from 1 (the first request of the dialog).
    #[allow(dead_code)]
    index: i64,
    /// The chat session to read. Omit it for the chat that called (in VS Code), else the most
    /// recent dialog of this workspace.
    session_id: Option<String>,
    /// Where to start in the request's text, in characters (default 0). A long request comes in
    /// parts: pass the `nextOffset` of the previous answer.
    offset: Option<u64>,
    /// How many characters to return at most (default 20000, what agents take inline: the
    /// Copilot CLI moves a tool result over about 30 KB to a file the model must grep).
    max_chars: Option<u64>,
}

/// The part of a request returned when the caller names no `maxChars`: a tool result of about
/// 20,000 characters stays under the ~30 KB that the Copilot CLI inlines, JSON escaping included.
pub const DEFAULT_MAX_CHARS: u64 = 20_000;

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "get_request",
        reference_name: "getRequest",
        display_name: "Get Request",
        summary: "Recall the full text of the Nth user request.",
        when_to_use: &[
            "You need the user's exact words from earlier in the dialog, after the history was compressed.",
            "A summary mentions a request and you want its full text (code, paths, constraints).",
            "You are reviewing every request of a dialog in order: call it with index 1, 2, 3...",
        ],
        when_not_to_use: &[
            "The request is still in your context word for word: the call adds nothing.",
            "You do not know which request says it: `search_requests` finds it without reading them all.",
            "You want what was answered or changed: it returns the user's words only, not the replies.",
        ],
        usage: "Pass `index` counting from 1; `get_first_request` tells how many requests the dialog has \
                (`requestsCount`). Omit `sessionId` for the current dialog: the chat or agent session you are \
                called from, including the request running now (elsewhere the most recent dialog of this \
                workspace). A request longer than `maxChars` (default 20000) comes in parts: the answer has \
                `length` (all characters) and `nextOffset`; call again with `offset` set to it.",
        returns: "`{\"success\": true, \"sessionId\": \"...\", \"request\": \"<full text>\", \"index\": 2, \
                  \"timestamp\": 1760434800000, \"time\": \"2025-10-14T09:40:00.000Z\", \"totalRequests\": 5, \
                  \"dialogFrom\": \"caller\", \"live\": true}`; on failure \
                  `{\"success\": false, \"error\": \"Index 10 exceeds total requests (5)\"}`.",
        examples: &[
            Example { args: "{\"index\": 1}", shows: "the full first request of the current dialog" },
            Example { args: "{\"index\": 3}", shows: "the third request, e.g. a follow-up with extra constraints" },
            Example {
                args: "{\"index\": 1, \"offset\": 20000}",
                shows: "the next part of a long first request (after an answer with `nextOffset: 20000`)",
            },
            Example {
                args: "{\"index\": 2, \"sessionId\": \"0b7e4f7c-2f43-4c55-9a8e-0c1d2e3f4a5b\"}",
                shows: "a request of another dialog",
            },
        ],
        tags: &["chat", "history", "dialog", "recall", "request"],
        invocation_message: "Recalling a request of the dialog",
        schema: schema_for::<Args>,
        ..ToolSpec::BASE
    },
    run,
};

/// The largest index a JSON client (JavaScript) holds exactly: `Number.MAX_SAFE_INTEGER`.
const MAX_EXACT_INDEX: i64 = (1 << 53) - 1;

/// Checks `index` before serde does, so agents get the contract's own messages. The index stays
/// 64-bit: on wasm32 `usize` has 32 bits, and `4294967297 as usize` would be request 1.
fn check_index(args: &Value) -> Result<u64, ToolResult> {
    let Some(index) = args.get("index") else {
        return Err(ToolResult::error("Index parameter is required"));
    };
    let whole = match index {
        Value::Number(number) => number.as_i64().or_else(|| {
            number.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15).map(|f| f as i64)
        }),
        _ => None,
    };
    match whole {
        None => Err(ToolResult::error(format!(
            "Index must be a whole number (1, 2, 3...), got {}",
            if index.is_string() { format!("the string {index}") } else { index.to_string() }
        ))),
        Some(n) if n < 1 => Err(ToolResult::error("Index must be 1 or greater")),
        // A JSON client rounds past 2^53 (`9007199254740993` arrives as ...992): never answer another request.
        Some(n) if n > MAX_EXACT_INDEX => Err(ToolResult::error(format!(
            "Index {n} is past 2^53 - 1, where JSON clients round numbers; no dialog has that many requests"
        ))),
        Some(n) => Ok(n.unsigned_abs()),
    }
}

fn run(args: &Value, ctx: &ToolContext) -> ToolOutcome {
    let index = check_index(args)?;
    // `index` was validated above; normalise it so serde sees an integer even for `2.0`.
    let mut normalized = args.clone();
    if let Some(map) = normalized.as_object_mut() {
        map.insert("index".into(), json!(index));
    }
    let args: Args = parse_args(&normalized)?;
    let resolved = resolve_dialog(ctx, args.session_id.as_deref(), index)?;
    let stored = &*resolved.stored;
    if !stored.available {
        return Err(ToolResult::error(errors::NO_CHAT_DATA));
    }
    let dialog = &stored.dialog;
    let total = dialog.requests.len();
    let request = usize::try_from(index - 1)
        .ok()
        .and_then(|at| dialog.requests.get(at));
    let Some(request) = request else {
        let mut error = format!("Index {index} exceeds total requests ({total})");
        if let Some(Err(refusal)) = &resolved.live {
            // The calling chat's newest requests may exist but not be saved yet: say so.
            error.push_str(&format!(
                ". The chat's newest requests may not be saved yet: {}",
                refusal.0
            ));
        }
        return Err(ToolResult::error(error));
    };
    let part = Part::of(&request.text, args.offset.unwrap_or(0), args.max_chars)?;
    let (timestamp, time) = request_time(request.timestamp);
    let mut answer = json!({
        "sessionId": dialog.session_id,
        "source": dialog.source,
        "request": part.text,
        "index": index,
        "timestamp": timestamp,
        "time": time,
        "totalRequests": total,
    });
    if part.text.len() != request.text.len() {
        answer["offset"] = json!(part.offset);
        answer["length"] = json!(part.length);
        answer["nextOffset"] = part.next.map_or(Value::Null, Value::from);
    }
    Ok(ToolResult::ok(answer).with_fields(resolved.provenance()))
}

/// The characters `offset..offset + max` of a request's text.
struct Part<'a> {
    text: &'a str,
    offset: u64,
    /// The whole text's length in characters.
    length: u64,
    /// Where the next part starts, when there is one.
    next: Option<u64>,
}

impl<'a> Part<'a> {
    fn of(text: &'a str, offset: u64, max: Option<u64>) -> Result<Part<'a>, ToolResult> {
        let max = max.unwrap_or(DEFAULT_MAX_CHARS);
        if max == 0 {
            return Err(ToolResult::error("maxChars must be 1 or greater"));
        }
        let length = text.chars().count() as u64;
        if offset > length {
            return Err(ToolResult::error(format!(
                "Offset {offset} is past the end of the request ({length} characters)"
            )));
        }
        let byte_at = |chars: u64| {
            text.char_indices()
                .nth(usize::try_from(chars).unwrap_or(usize::MAX))
                .map_or(text.len(), |(at, _)| at)
        };
        let start = byte_at(offset);
        let end_chars = offset.saturating_add(max).min(length);
        let end = start
            + text[start..]
                .char_indices()
                .nth(usize::try_from(end_chars - offset).unwrap_or(usize::MAX))
                .map_or(text.len() - start, |(at, _)| at);
        Ok(Part {
            text: &text[start..end],
            offset,
            length,
            next: (end_chars < length).then_some(end_chars),
        })
    }
}
