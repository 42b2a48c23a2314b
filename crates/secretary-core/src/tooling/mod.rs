//! The one tool model every host speaks: specs, validated arguments, results, generated
//! descriptions and names. A tool is a file in `crate::tools` that fills a [`ToolDef`]; hosts
//! (VS Code, MCP, the CLI) only ever see [`invoke`] and the specs.

mod args;
mod consent;
mod context;
pub mod copilot_ls;
mod describe;
mod listing;
mod names;
mod result;
mod spec;

pub use args::{kind_of, parse_args, schema_for, ArgError};
pub use consent::{require_literal, Consent};
pub use context::ToolContext;
pub use describe::{description, schema_markdown};
pub use listing::{
    icon, language_model_tools, listing, listing_entry, listing_for, loaded_context_key,
    visible_tools, when_clause, DEFAULT_TOOL_COUNT, EXAMPLE_TOOLS_WHEN, LOADED_CONTEXT_PREFIX,
};
pub use names::{
    host_name, lookup, plain_name, Lookup, DEFAULT_MCP_PREFIX, LEGACY_VSCODE_PREFIX, VSCODE_PREFIX,
};
pub use result::ToolResult;
pub use spec::{Example, ToolDef, ToolSpec};

/// Runs a tool by its plain name on raw JSON arguments. Unknown names, renamed names and argument
/// errors all come back as failed results, never as panics or `Err`, so every host can return
/// the text as it is.
pub fn invoke(name: &str, args: &serde_json::Value, ctx: &ToolContext) -> ToolResult {
    if let Some(catalog) = ctx.catalog {
        use crate::catalog::Resolved;
        match catalog.resolve(name) {
            Resolved::Renamed { old, new_name } => {
                return ToolResult::failure(
                    format!("Tool not found: {old}. It was renamed to {new_name}."),
                    "renamed",
                )
            }
            Resolved::Found(_, tool) => match tool.own.and_then(|plain| match lookup(plain) {
                Lookup::Found(def) => Some(def),
                _ => None,
            }) {
                Some(def) if !catalog.is_active(&tool.name) => {
                    return ToolResult::failure(format!("Tool {} is not loaded.", tool.name), "not_loaded")
                        .with_instruction(format!(
                            "Load it first: call {}tool_load with {{\"names\": [\"{}\"]}}, then call it again.",
                            catalog.own_prefix(),
                            tool.name
                        ))
                        .with_message(format!("{} is a deferred tool.", def.spec.display_name));
                }
                Some(def) => return run_tool(def, name, args, ctx),
                None => {
                    return ToolResult::failure(
                        format!(
                            "{} is not a Secretary tool: call it through {}tool_call.",
                            tool.name,
                            catalog.own_prefix()
                        ),
                        "external_tool",
                    )
                }
            },
            Resolved::Unknown => {}
        }
    }
    match lookup(name) {
        Lookup::Found(tool) if ctx.catalog.is_some_and(|c| c.is_excluded(tool.spec.name)) => {
            ToolResult::failure(format!("Tool not found: {name}"), "not_found")
        }
        Lookup::Found(tool) => run_tool(tool, name, args, ctx),
        Lookup::Renamed { new_name, .. } => ToolResult::failure(
            format!("Tool not found: {name}. It was renamed to {new_name}."),
            "renamed",
        ),
        Lookup::Unknown => ToolResult::failure(format!("Tool not found: {name}"), "not_found"),
    }
}

/// Runs a found tool with the checks every host shares: example tools exist only where the host
/// includes them (else "Tool not found", as if they were not there), and a destructive tool's
/// consent literal is checked before it runs.
pub fn run_tool(
    tool: &ToolDef,
    name: &str,
    args: &serde_json::Value,
    ctx: &ToolContext,
) -> ToolResult {
    if tool.spec.example && !ctx.include_examples {
        return ToolResult::failure(format!("Tool not found: {name}"), "not_found");
    }
    if let Some(consent) = tool.spec.consent {
        if let Err(refused) = consent.check(args) {
            return refused;
        }
    }
    (tool.run)(args, ctx)
}
