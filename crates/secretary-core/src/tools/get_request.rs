//! `get_request`: the full text of the Nth request of a dialog, 1-based.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{errors, request_time, resolve_dialog};
use crate::tool::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

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
}

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
                (`requestsCount`). Omit `sessionId` for the current dialog: in VS Code the chat you are called \
                from, including the request running now; elsewhere the most recent dialog of this workspace.",
        returns: "`{\"success\": true, \"sessionId\": \"...\", \"request\": \"<full text>\", \"index\": 2, \
                  \"timestamp\": 1760434800000, \"time\": \"2025-10-14T09:40:00.000Z\", \"totalRequests\": 5, \
                  \"dialogFrom\": \"caller\", \"live\": true}`; on failure \
                  `{\"success\": false, \"error\": \"Index 10 exceeds total requests (5)\"}`.",
        examples: &[
            Example { args: "{\"index\": 1}", shows: "the full first request of the current dialog" },
            Example { args: "{\"index\": 3}", shows: "the third request, e.g. a follow-up with extra constraints" },
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
    let (timestamp, time) = request_time(request.timestamp);
    Ok(ToolResult::ok(json!({
        "sessionId": dialog.session_id,
        "source": dialog.source,
        "request": request.text,
        "index": index,
        "timestamp": timestamp,
        "time": time,
        "totalRequests": total,
    })).with_fields(resolved.provenance()))
}
