//! `get_first_request`: the opening words of a dialog, the request agents lose first when the
//! history is compressed.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{errors, request_time, resolve_dialog};
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// The first request is previewed to this many characters; `get_request` gives the full text.
pub const PREVIEW_CHARS: usize = 80;

/// Arguments of `get_first_request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The chat session to read. Omit it for the chat that called (in VS Code), else the most
    /// recent dialog of this workspace.
    session_id: Option<String>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "get_first_request",
        reference_name: "getFirstRequest",
        display_name: "Get First Request",
        invocation_message: "Recalling the first request of the dialog",
        schema: schema_for::<Args>,
        summary: "Recall the first request of a chat dialog.",
        when_to_use: &[
            "The conversation history was summarized or compressed and you need the user's original goal.",
            "You want to check the current work still matches what the user first asked for.",
            "You need the id and request count of the current dialog before reading a specific request.",
            "You are about to report a task done: check the result against the user's own words first.",
        ],
        when_not_to_use: &[
            "The user's first message is still in your context word for word: read it there.",
            "You need the full text or a later request: use `get_request` (this answers an 80-character preview).",
            "You look for something the user said in another chat: use `search_requests`.",
        ],
        usage: "Call it without arguments for the current dialog: in VS Code the chat you are called from \
                (live, with requests not saved yet), elsewhere the most recent dialog of this workspace; \
                `dialogFrom` says which. Pass `sessionId` (from `list_dialogs`) for another dialog. The result \
                is a preview of at most 80 characters; call `get_request` with `index: 1` for the full text.",
        returns: "`{\"success\": true, \"sessionId\": \"...\", \"firstRequest\": \"Add a dark mode toggle...\", \
                  \"timestamp\": 1760434353123, \"time\": \"2025-10-14T09:32:33.123Z\", \"requestsCount\": 5, \
                  \"dialogFrom\": \"caller\", \"live\": true}` (`timestamp`: Unix milliseconds, `time`: the same \
                  in ISO 8601; `dialogFrom`: `caller`, `mostRecent` or `argument`; `live: false` comes with \
                  `behind`, why the answer may miss the newest requests); on failure \
                  `{\"success\": false, \"error\": \"No active dialog found\"}` (`error_type: \"caller_uncertain\"`: \
                  this chat has nothing saved yet and cannot be told apart from another new chat; call again \
                  in a moment).",
        examples: &[
            Example { args: "{}", shows: "the first request of the current dialog" },
            Example {
                args: "{\"sessionId\": \"0b7e4f7c-2f43-4c55-9a8e-0c1d2e3f4a5b\"}",
                shows: "the first request of a dialog found with list_dialogs",
            },
        ],
        tags: &["chat", "history", "dialog", "recall", "first request"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let resolved = resolve_dialog(ctx, args.session_id.as_deref(), 1)?;
    let stored = &*resolved.stored;
    if !stored.available {
        return Err(ToolResult::error(errors::NO_CHAT_DATA));
    }
    let dialog = &stored.dialog;
    let Some(first) = dialog.requests.first() else {
        return Err(ToolResult::error("First request not available"));
    };
    let (timestamp, time) = request_time(first.timestamp);
    Ok(ToolResult::ok(json!({
        "sessionId": dialog.session_id,
        "source": dialog.source,
        "firstRequest": crate::text::preview(&first.text, PREVIEW_CHARS),
        "timestamp": timestamp,
        "time": time,
        "requestsCount": dialog.requests.len(),
    })).with_fields(resolved.provenance()))
}
