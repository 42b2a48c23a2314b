//! `tool_call`: call an active external tool (another extension's or an MCP server's) through the
//! Secretary. The core validates; the host performs the call (in VS Code with
//! `vscode.lm.invokeTool` and the caller's invocation token, so the tool's own confirmation shows).
//! This is how agents reach tools beyond VS Code's 128-tool limit.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::{unknown_tool, with_catalog};
use crate::toolkit::catalog::{Catalog, Resolved};
use crate::toolkit::{schema_for, Example, ToolDef, ToolOutcome, ToolResult, ToolSpec};
use crate::toolkit::ErrorKind;

/// Arguments of `tool_call`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The active tool to call, as `tool_find` lists it.
    name: String,
    /// The tool's own arguments (see `tool_describe`).
    #[serde(default)]
    input: Map<String, Value>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "tool_call",
        reference_name: "toolCall",
        display_name: "Call Tool",
        invocation_message: "Calling a loaded tool",
        schema: schema_for::<Args>,
        summary: "Call a loaded tool that is not in your list.",
        when_to_use: &[
            "You loaded an external tool with tool_load and it is not among your own tools.",
            "A tool you need was left out of your tool list by the tool limit.",
        ],
        usage: "Load the tool with `tool_load` first, read its schema with `tool_describe`, then pass its name and \
                its arguments in `input`. The tool's own confirmation is shown to the user.",
        returns: "the called tool's own result.",
        examples: &[Example {
            args: "{\"name\": \"fetch_webpage\", \"input\": {\"urls\": [\"https://example.com\"]}}",
            shows: "calling a loaded external tool",
        }],
        tags: &["tools", "discovery", "call", "invoke"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| with_catalog(args, ctx, run),
};

/// Validates the call; on success the result carries `{"call": {"name", "input"}}` for the host
/// to perform.
fn run(args: Args, catalog: &Catalog) -> ToolOutcome {
    match catalog.resolve(&args.name) {
        Resolved::Found(_, tool) if !catalog.is_active(&tool.name) => Err(ToolResult::failure(
            format!("Tool {} is not loaded.", tool.name),
            ErrorKind::NotLoaded,
        )
        .with_instruction(format!(
            "Call {}tool_load with {{\"names\": [\"{}\"]}} first.",
            catalog.own_prefix(),
            tool.name
        ))),
        Resolved::Found(_, tool) if tool.own.is_some() => Err(ToolResult::failure(
            format!("{} is one of your own tools: call it directly.", tool.name),
            ErrorKind::OwnTool,
        )),
        Resolved::Found(_, tool) => Ok(ToolResult::ok(json!({ "call": { "name": tool.name, "input": args.input } }))),
        Resolved::Renamed { old, new_name } => Err(ToolResult::renamed_tool(&old, &new_name)),
        Resolved::Unknown => Err(unknown_tool(catalog, &args.name, &[])),
    }
}
