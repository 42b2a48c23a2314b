//! `tool_active`: the tools that are active (callable) now.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::with_catalog;
use crate::toolkit::catalog::{short_description, Catalog, SHORT_DESCRIPTION_CHARS};
use crate::toolkit::{schema_for, Example, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// `tool_active` takes no arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "tool_active",
        reference_name: "toolActive",
        display_name: "Active Tools",
        invocation_message: "Listing active tools",
        schema: schema_for::<Args>,
        summary: "List the tools that are active now.",
        when_to_use: &[
            "You want to know which loaded tools you can call.",
            "You want to check that tool_load worked.",
        ],
        usage: "Call it without arguments.",
        returns: "`{\"success\": true, \"tools\": [{\"name\", \"description\", \"source\"}], \"count\": 7}`.",
        examples: &[Example { args: "{}", shows: "every active tool with a one-line description" }],
        tags: &["tools", "discovery", "active", "list"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| with_catalog(args, ctx, run),
};

fn run(_: Args, catalog: &Catalog) -> ToolOutcome {
    let tools: Vec<Value> = catalog
        .active_tools()
        .into_iter()
        .map(|tool| json!({ "name": tool.name, "description": short_description(&tool.description, SHORT_DESCRIPTION_CHARS), "source": tool.source }))
        .collect();
    let count = tools.len();
    let result = ToolResult::ok(json!({ "tools": tools, "count": count }));
    if count == 0 {
        Ok(result.with_message("No tools are active."))
    } else {
        Ok(result)
    }
}
