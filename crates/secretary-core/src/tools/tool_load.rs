//! `tool_load`: activate tools so the agent can call them. All or nothing: every name is checked
//! before any tool is loaded.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::with_catalog;
use crate::toolkit::catalog::{Catalog, Resolved};
use crate::toolkit::{schema_for, Example, ToolDef, ToolOutcome, ToolResult, ToolSpec};
use crate::toolkit::ErrorKind;

/// Arguments of `tool_load`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The tools to activate, by the names `tool_find` lists.
    names: Vec<String>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "tool_load",
        reference_name: "toolLoad",
        display_name: "Load Tools",
        invocation_message: "Loading tools",
        schema: schema_for::<Args>,
        summary: "Activate tools found with tool_find.",
        when_to_use: &[
            "tool_find returned a tool with `active: false` that you want to call.",
            "A call answered that a tool is not loaded.",
        ],
        usage: "Pass every tool you need in `names`. If any name is unknown nothing is loaded and the error lists \
                the unknown ones. Loading an active tool does nothing. External tools (other extensions, MCP servers) \
                are then called through `tool_call`.",
        returns: "`{\"success\": true, \"loaded\": [\"...\"], \"alreadyActive\": [\"...\"], \"activeCount\": 12}`.",
        examples: &[
            Example { args: "{\"names\": [\"chat_secretary_memory\"]}", shows: "activating a deferred Secretary tool" },
            Example { args: "{\"names\": [\"fetch_webpage\", \"github_search\"]}", shows: "activating two external tools at once" },
        ],
        tags: &["tools", "discovery", "load", "activate"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| with_catalog(args, ctx, run),
};

fn run(args: Args, catalog: &Catalog) -> ToolOutcome {
    if args.names.is_empty() {
        return Err(ToolResult::error("Names must list at least one tool"));
    }
    let mut found = Vec::new();
    let mut unknown = Vec::new();
    let mut renamed = Vec::new();
    for name in &args.names {
        match catalog.resolve(name) {
            Resolved::Found(i, _) => found.push(i),
            Resolved::Renamed { old, new_name } => renamed.push(format!("{old} (renamed to {new_name})")),
            Resolved::Unknown => unknown.push(name.trim().to_string()),
        }
    }
    if !unknown.is_empty() || !renamed.is_empty() {
        let mut parts = Vec::new();
        if !unknown.is_empty() {
            parts.push(format!("Unknown tools: {}", unknown.join(", ")));
        }
        if !renamed.is_empty() {
            parts.push(format!("Renamed tools: {}", renamed.join(", ")));
        }
        return Err(ToolResult::failure(format!("{}. Nothing was loaded.", parts.join(". ")), ErrorKind::NotFound)
            .with_instruction(format!("Use {}tool_find to get the exact names.", catalog.own_prefix())));
    }
    found.sort_unstable();
    found.dedup();
    let already: Vec<String> =
        found.iter().filter_map(|&i| catalog.tools().get(i)).filter(|t| catalog.is_active(&t.name)).map(|t| t.name.clone()).collect();
    let loaded = catalog.activate(&found);
    let active_count = catalog.active_tools().len();
    Ok(ToolResult::ok(json!({ "loaded": loaded, "alreadyActive": already, "activeCount": active_count })))
}
