//! `tool_find`: search every tool the agent could use (its own, built-in, other extensions', MCP
//! servers') by what it needs done.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{with_catalog, SearchLimit};
use crate::toolkit::catalog::{short_description, Catalog, SHORT_DESCRIPTION_CHARS};
use crate::toolkit::{schema_for, Example, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// Arguments of `tool_find`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// What you need done, in a few words ("convert currency", "read a file", "create a QR code").
    query: String,
    /// How many tools to return, best first (default 10, at most 50).
    limit: Option<SearchLimit>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "tool_find",
        reference_name: "toolFind",
        display_name: "Find Tools",
        invocation_message: "Searching the tool catalog",
        schema: schema_for::<Args>,
        summary: "Search all available tools by what they do.",
        when_to_use: &[
            "You need a capability none of your current tools has.",
            "You have too many tools to scan and want the few that fit the task.",
            "A tool you used before is no longer in your tool list (it may need loading).",
        ],
        usage: "Describe the task in `query`. Each result says whether the tool is `active` (callable now); \
                read one's full schema with `tool_describe` and activate inactive ones with `tool_load`.",
        returns: "`{\"success\": true, \"query\": \"...\", \"tools\": [{\"name\", \"description\", \"score\", \"active\", \
                  \"source\", \"matched\", \"signals\"}], \"total\": 3}`, best first; `signals` says what \
                  found each tool: `lexical` (shared words) and/or `semantic` (close in meaning).",
        examples: &[
            Example { args: "{\"query\": \"search the web\"}", shows: "tools that can search the internet" },
            Example { args: "{\"query\": \"recall earlier chat request\", \"limit\": 3}", shows: "the Secretary's own dialog tools" },
        ],
        tags: &["tools", "discovery", "search", "find"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| with_catalog(args, ctx, run),
};

fn run(args: Args, catalog: &Catalog) -> ToolOutcome {
    let query = args.query.trim();
    if query.is_empty() {
        return Err(ToolResult::error("Query must not be empty: describe what the tool should do"));
    }
    let limit = SearchLimit::resolve(args.limit)?;
    let tools: Vec<Value> = catalog
        .search(query, limit)
        .into_iter()
        .map(|(hit, tool)| {
            json!({
                "name": tool.name,
                "description": short_description(&tool.description, SHORT_DESCRIPTION_CHARS),
                "score": (f64::from(hit.score) * 1000.0).round() / 1000.0,
                "active": catalog.is_active(&tool.name),
                "source": tool.source,
                "matched": hit.matched,
                "signals": hit.signals(),
            })
        })
        .collect();
    let total = tools.len();
    let result = ToolResult::ok(json!({ "query": query, "tools": tools, "total": total }));
    if total == 0 {
        Ok(result.with_message(format!("No tool matches \"{query}\" among {} tools.", catalog.len())))
    } else {
        Ok(result)
    }
}
