//! `list_dialogs`: the recent dialogs of this workspace, newest first.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{limit, sessions, timestamp_value};
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

pub(crate) const DEFAULT_LIMIT: usize = 20;
pub(crate) const MAX_LIMIT: usize = 200;

/// Arguments of `list_dialogs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// How many dialogs to return, newest first (default 20, at most 200).
    #[schemars(range(min = 1, max = 200))]
    limit: Option<u32>,
    /// Only dialogs whose title or requests contain all these words (case-insensitive).
    query: Option<String>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "list_dialogs",
        reference_name: "listDialogs",
        display_name: "List Dialogs",
        invocation_message: "Listing recent dialogs",
        schema: schema_for::<Args>,
        summary: "List recent chat dialogs of this workspace.",
        when_to_use: &[
            "You need the id of an earlier dialog to read its requests.",
            "The user refers to \"the chat from yesterday\" or \"where we discussed X\".",
            "You want an overview of recent work in this workspace.",
        ],
        when_not_to_use: &[
            "You want the chat you are in: the dialog tools answer for it without a `sessionId`.",
            "You look for something the user said: `search_requests` finds the request itself.",
        ],
        usage: "Call it bare for the 20 most recent dialogs; pass `query` to keep dialogs mentioning those words \
                and `limit` for more or fewer. Use a returned `sessionId` with `get_request`.",
        returns: "`{\"success\": true, \"dialogs\": [{\"sessionId\", \"title\", \"created\", \"lastActivity\", \
                  \"requestsCount\", \"status\"}], \"total\": 12}`, newest first.",
        examples: &[
            Example { args: "{}", shows: "the 20 most recent dialogs" },
            Example { args: "{\"query\": \"dark mode\", \"limit\": 5}", shows: "dialogs that talked about dark mode" },
        ],
        tags: &["chat", "history", "dialogs", "sessions", "list"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let store = sessions(ctx)?;
    let limit = limit(args.limit, DEFAULT_LIMIT, MAX_LIMIT)?;
    let words: Vec<String> = args
        .query
        .as_deref()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let found: Vec<_> = store
        .recent(ctx.workspace)
        .into_iter()
        .filter(|entry| entry.available)
        .filter(|entry| {
            words.is_empty() || {
                let dialog = &entry.dialog;
                let mut haystack = dialog.title.to_lowercase();
                for request in &dialog.requests {
                    haystack.push('\n');
                    haystack.push_str(&request.text.to_lowercase());
                }
                words.iter().all(|word| haystack.contains(word.as_str()))
            }
        })
        .collect();
    let total = found.len();
    let dialogs: Vec<Value> = found
        .into_iter()
        .take(limit)
        .map(|entry| {
            let dialog = &entry.dialog;
            json!({
                "sessionId": dialog.session_id,
                "source": dialog.source,
                "title": dialog.title,
                "created": timestamp_value(dialog.creation_date),
                "lastActivity": timestamp_value(dialog.last_activity),
                "requestsCount": dialog.requests.len(),
                "status": dialog.status,
            })
        })
        .collect();
    let result = ToolResult::ok(json!({ "dialogs": dialogs, "total": total }));
    if total == 0 {
        Ok(result.with_message("No dialogs found."))
    } else {
        Ok(result)
    }
}
