//! The registry on top of the tools: every tool (`crate::tools::ALL`) by name, how hosts call
//! them ([`invoke`]), list them ([`listing`], the `package.json` contributions), name them
//! ([`host_name`] for MCP, [`lookup`]), the discovery catalog's constructors and the Copilot
//! language server's registrations ([`copilot_ls`]). Hosts (VS Code, MCP, the CLI) only ever
//! see this module and the specs.
//!
//! Layer order, bottom up: `toolkit` (what a tool is) <- `tools` (one file per tool) <- `registry`.
//! Nothing below names this module (test: `layers`).

pub mod copilot_ls;
#[cfg(test)]
mod layers;
mod listing;
mod mcp_names;
mod own_catalog;

pub use listing::{
    icon, language_model_tools, listing, listing_entry, listing_for, loaded_context_key,
    visible_tools, when_clause, DEFAULT_TOOL_COUNT, EXAMPLE_TOOLS_WHEN, LOADED_CONTEXT_PREFIX,
};
pub use mcp_names::{host_name, lookup, mcp_prefix, plain_name, DEFAULT_MCP_PREFIX};

use crate::toolkit::ErrorKind;
use crate::toolkit::{Lookup, ToolContext, ToolDef, ToolResult};

/// Runs a tool by its plain name on raw JSON arguments. Unknown names, renamed names and argument
/// errors all come back as failed results, never as panics or `Err`, so every host can return
/// the text as it is.
pub fn invoke(name: &str, args: &serde_json::Value, ctx: &ToolContext) -> ToolResult {
    if let Some(catalog) = ctx.catalog {
        use crate::toolkit::catalog::Resolved;
        match catalog.resolve(name) {
            Resolved::Renamed { old, new_name } => {
                return ToolResult::renamed_tool(&old, &new_name)
            }
            Resolved::Found(_, tool) => match tool.own.and_then(|plain| match lookup(plain) {
                Lookup::Found(def) => Some(def),
                _ => None,
            }) {
                Some(def) if !catalog.is_active(&tool.name) => {
                    return ToolResult::failure(format!("Tool {} is not loaded.", tool.name), ErrorKind::NotLoaded)
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
                        ErrorKind::ExternalTool,
                    )
                }
            },
            Resolved::Unknown => {}
        }
    }
    match lookup(name) {
        Lookup::Found(tool) if ctx.catalog.is_some_and(|c| c.is_excluded(tool.spec.name)) => {
            ToolResult::failure(format!("Tool not found: {name}"), ErrorKind::NotFound)
        }
        Lookup::Found(tool) => run_tool(tool, name, args, ctx),
        Lookup::Renamed { new_name, .. } => ToolResult::renamed_tool(name, &new_name),
        Lookup::Unknown => {
            ToolResult::failure(format!("Tool not found: {name}"), ErrorKind::NotFound)
        }
    }
}

/// Runs a found tool with the checks every host shares: example tools exist only where the host
/// includes them (else "Tool not found", as if they were not there), and a destructive tool's
/// consent literal is checked before it runs ([`ToolDef::call`]).
pub fn run_tool(
    tool: &ToolDef,
    name: &str,
    args: &serde_json::Value,
    ctx: &ToolContext,
) -> ToolResult {
    if tool.spec.example && !ctx.include_examples {
        return ToolResult::failure(format!("Tool not found: {name}"), ErrorKind::NotFound);
    }
    tool.call(args, ctx)
}
