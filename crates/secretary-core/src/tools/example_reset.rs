//! `example_reset`: an example of a destructive tool. It deletes the example tools' state (the
//! echo count), and only runs with the explicit consent literal `"confirm": "RESET_EXAMPLES"`,
//! which `ToolDef::call` checks before it runs.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::example_echo;
use crate::host::{self, Area};
use crate::toolkit::{parse_args, schema_for, Consent, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// The literal `example_reset` requires, and why.
pub const CONSENT: Consent = Consent {
    field: "confirm",
    value: "RESET_EXAMPLES",
    why: "It permanently deletes the example tools' saved state (the echo count); it cannot be undone.",
    only_when: None,
};

/// Arguments of `example_reset`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// Must be exactly "RESET_EXAMPLES", and only when the user explicitly asked for the reset.
    #[schemars(extend("const" = "RESET_EXAMPLES"))]
    #[allow(dead_code)]
    confirm: String,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "example_reset",
        reference_name: "exampleReset",
        display_name: "Example: Reset",
        summary: "Example destructive tool: reset the echo count.",
        when_to_use: &["The user explicitly asks to reset the example tools' state."],
        usage: "Pass `confirm` with exactly \"RESET_EXAMPLES\", and only when the user has asked for the reset in so \
                many words; without it nothing is deleted. Example tools exist only when example tools are enabled.",
        returns: "`{\"success\": true, \"removed\": true, \"previousCount\": 3}`.",
        examples: &[Example { args: "{\"confirm\": \"RESET_EXAMPLES\"}", shows: "the reset, after the user asked for it" }],
        tags: &["example", "test", "reset", "destructive"],
        destructive: true,
        example: true,
        consent: Some(CONSENT),
        invocation_message: "Resetting the example tools' state",
        schema: schema_for::<Args>,
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

/// Runs after [`ToolDef::call`] checked the consent literal.
fn run(_: Args, ctx: &ToolContext) -> ToolOutcome {
    let host = host::require(ctx.host)?;
    let previous = example_echo::count(host);
    let removed = host.remove(Area::GlobalState, example_echo::STATE_FILE)?;
    Ok(ToolResult::ok(json!({ "removed": removed, "previousCount": previous })))
}
