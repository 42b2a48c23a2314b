//! `list_feature_flags`: every global flag.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::flags::Scope;
use crate::toolkit::{parse_args, schema_for, Example, ToolDef, ToolSpec};

/// Arguments of `list_feature_flags` (none).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "list_feature_flags",
        reference_name: "listFeatureFlags",
        display_name: "List Feature Flags",
        summary: "List every global flag.",
        when_to_use: &[
            "You want to know the preferences the user set for all of their projects.",
            "You are unsure of a global flag's exact name.",
        ],
        usage: "Call it without arguments. Only global flags are listed; `list_project_flags` shows what is in \
                effect in this workspace.",
        returns: "`{\"success\": true, \"flags\": [{\"name\": \"spelling\", \"value\": \"en-GB\", \"source\": \"global\"}], \
                  \"total\": 1}`, by name.",
        examples: &[Example { args: "{}", shows: "every global flag" }],
        tags: &["flags", "settings", "global", "feature", "list"],
        invocation_message: "Listing global flags",
        schema: schema_for::<Args>,
        ..super::flag::SPEC
    },
    run: |args, ctx| {
        parse_args::<Args>(args)?;
        super::flag::list(ctx, Scope::Global)
    },
};
