//! `example_echo`: an example tool (offered only when the host includes example tools). It
//! echoes its text and, when the host has file access, counts its calls in the global state, to
//! show the I/O bridge at work. `example_reset` clears that count.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::host::{Area, Host};
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// Where the example tools keep their count, in the global state area.
pub const STATE_FILE: &str = "examples/echo.json";

/// Arguments of `example_echo`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The text to echo back.
    text: String,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "example_echo",
        reference_name: "exampleEcho",
        display_name: "Example: Echo",
        invocation_message: "Echoing (example tool)",
        schema: schema_for::<Args>,
        summary: "Example tool: echo a text back.",
        when_to_use: &[
            "You are testing that the Secretary's tools can be called from this host.",
            "The user asks to try the example tools.",
        ],
        usage: "Pass `text`; it comes back unchanged with the number of echoes so far (kept in the global state when \
                the host has file access). Example tools exist only when `copilotChatSecretary.includeExampleTools` \
                (VS Code) or `MCP_INCLUDE_EXAMPLE_TOOLS=true` (MCP) enables them.",
        returns: "`{\"success\": true, \"echo\": \"hello\", \"count\": 3, \"persisted\": true}`.",
        examples: &[Example { args: "{\"text\": \"hello\"}", shows: "the text back, with the call count" }],
        tags: &["example", "test", "echo"],
        example: true,
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

/// The number of echoes recorded in the global state (0 when none or unreadable).
pub fn count(host: &dyn Host) -> u64 {
    host.read(Area::GlobalState, STATE_FILE)
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|state| state["count"].as_u64())
        .unwrap_or(0)
}

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let Some(host) = ctx.host else {
        return Ok(ToolResult::ok(json!({ "echo": args.text, "count": 1, "persisted": false })));
    };
    let next = count(host) + 1;
    let persisted = host
        .write_atomic(Area::GlobalState, STATE_FILE, json!({ "count": next }).to_string().as_bytes())
        .is_ok();
    Ok(ToolResult::ok(json!({ "echo": args.text, "count": next, "persisted": persisted })))
}
