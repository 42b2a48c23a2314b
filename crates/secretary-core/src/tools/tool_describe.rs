//! `tool_describe`: one tool's full description and input schema.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{unknown_tool, with_catalog};
use crate::toolkit::catalog::{Catalog, Resolved};
use crate::toolkit::{schema_for, Example, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// Arguments of `tool_describe`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The tool's name, as `tool_find` lists it.
    name: String,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "tool_describe",
        reference_name: "toolDescribe",
        display_name: "Describe Tool",
        invocation_message: "Reading a tool's description",
        schema: schema_for::<Args>,
        summary: "Read a tool's full description and schema.",
        when_to_use: &[
            "tool_find returned a promising tool and you need its arguments before calling it.",
            "A call failed with an argument error and you want the exact schema.",
        ],
        usage: "Pass the `name` exactly as `tool_find` returned it. An unknown name answers with the closest names.",
        returns: "`{\"success\": true, \"name\", \"description\", \"inputSchema\": {...}, \"active\", \"source\", \
                  \"category\"?, \"keywords\"?}`.",
        examples: &[
            Example { args: "{\"name\": \"chat_secretary_get_request\"}", shows: "the schema of the request-recall tool" },
        ],
        tags: &["tools", "discovery", "schema", "describe"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| with_catalog(args, ctx, run),
};

fn run(args: Args, catalog: &Catalog) -> ToolOutcome {
    match catalog.resolve(&args.name) {
        Resolved::Found(_, tool) => {
            let mut value = json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.input_schema.clone().unwrap_or_else(|| json!({"type": "object", "properties": {}, "required": []})),
                "active": catalog.is_active(&tool.name),
                "source": tool.source,
            });
            if let Some(map) = value.as_object_mut() {
                if let Some(category) = &tool.category {
                    map.insert("category".into(), json!(category));
                }
                if !tool.keywords.is_empty() {
                    map.insert("keywords".into(), json!(tool.keywords));
                }
            }
            Ok(ToolResult::ok(value))
        }
        Resolved::Renamed { old, new_name } => Err(ToolResult::renamed_tool(&old, &new_name)),
        Resolved::Unknown => Err(unknown_tool(catalog, &args.name, &catalog.closest(&args.name, 3))),
    }
}
