//! The one tool model every host speaks: specs, validated arguments, results, generated
//! descriptions and names. A tool is a file in `crate::tools` that fills a [`ToolDef`]; hosts
//! (VS Code, MCP, the CLI) only ever see [`invoke`] and the specs.

mod args;
mod context;
mod describe;
mod listing;
mod names;
mod result;
mod spec;

pub use args::{parse_args, schema_for, ArgError};
pub use context::ToolContext;
pub use describe::{description, schema_markdown};
pub use listing::{language_model_tools, listing, listing_entry};
pub use names::{lookup, Lookup, LEGACY_VSCODE_PREFIX, VSCODE_PREFIX};
pub use result::ToolResult;
pub use spec::{Example, ToolDef, ToolSpec};

/// Runs a tool by its plain name on raw JSON arguments. Unknown names, renamed names and argument
/// errors all come back as failed results, never as panics or `Err`, so every host can return
/// the text as it is.
pub fn invoke(name: &str, args: &serde_json::Value, ctx: &ToolContext) -> ToolResult {
    match lookup(name) {
        Lookup::Found(tool) => (tool.run)(args, ctx),
        Lookup::Renamed { new_name, .. } => ToolResult::failure(
            format!("Tool not found: {name}. It was renamed to {new_name}."),
            "renamed",
        ),
        Lookup::Unknown => ToolResult::failure(format!("Tool not found: {name}"), "not_found"),
    }
}
