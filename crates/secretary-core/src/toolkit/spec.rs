use serde_json::Value;

use super::{Consent, ToolContext, ToolResult};

/// A concrete example shown in a tool's description: real arguments and what the call shows.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The arguments as JSON text, exactly as an agent would send them.
    pub args: &'static str,
    /// What this example demonstrates.
    pub shows: &'static str,
}

/// Everything a host needs to list, describe and contribute a tool. The description hosts show is
/// generated from these parts (see [`super::description`]) so that `package.json`, MCP listings and
/// `tool_describe` never drift apart.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    /// Undecorated name (`get_request`); hosts add their prefix.
    pub name: &'static str,
    /// `#reference` name people type in VS Code chat (`getRequest`).
    pub reference_name: &'static str,
    pub display_name: &'static str,
    /// First line of the description: purpose, at most about 50 characters.
    pub summary: &'static str,
    /// Situations in which an agent should call it.
    pub when_to_use: &'static [&'static str],
    /// Situations in which it should not (VS Code's tool guidance: say when a tool is the wrong
    /// choice, so a model does not call it out of habit or instead of a better tool). Empty: the
    /// description has no such section.
    pub when_not_to_use: &'static [&'static str],
    /// How to call it well: argument advice, follow-ups.
    pub usage: &'static str,
    /// The shape of a successful result.
    pub returns: &'static str,
    pub examples: &'static [Example],
    pub tags: &'static [&'static str],
    /// Deferred tools are listed but only registered once loaded with `tool_load`.
    pub deferred: bool,
    /// Destructive tools need an explicit confirmation literal in their arguments (`consent`).
    pub destructive: bool,
    /// Example tools demonstrate the tool model; hosts offer them only when asked to
    /// (`copilotChatSecretary.includeExampleTools`, `MCP_INCLUDE_EXAMPLE_TOOLS=true`).
    pub example: bool,
    /// The literal a destructive tool requires, checked by `registry::invoke` before the tool runs.
    /// Set exactly when `destructive` is.
    pub consent: Option<Consent>,
    /// The short message VS Code shows while the tool runs.
    pub invocation_message: &'static str,
    /// The JSON Schema of the arguments, generated from the argument type.
    pub schema: fn() -> Value,
}

impl ToolSpec {
    /// The base a spec starts from (`..ToolSpec::BASE`): an ordinary tool, offered from the start
    /// (not deferred), not destructive, no consent, not an example. The texts are empty and the
    /// schema is an empty object, so every tool still names its own (the registry's tests refuse
    /// empty names, summaries and examples).
    pub const BASE: ToolSpec = ToolSpec {
        name: "",
        reference_name: "",
        display_name: "",
        summary: "",
        when_to_use: &[],
        when_not_to_use: &[],
        usage: "",
        returns: "",
        examples: &[],
        tags: &[],
        deferred: false,
        destructive: false,
        example: false,
        consent: None,
        invocation_message: "",
        schema: empty_schema,
    };
}

fn empty_schema() -> Value {
    serde_json::json!({ "type": "object", "properties": {}, "required": [] })
}

/// What a tool's `run` answers. `Ok` is the answer (a success, or a failure the tool words
/// itself); `Err` is a failure passed up with `?` from argument parsing or a domain module (their
/// errors turn into [`ToolResult`]s through `From`). Hosts see the same JSON either way.
pub type ToolOutcome = Result<ToolResult, ToolResult>;

/// A tool: its spec and its logic. Each file in `crate::tools` defines one `pub static TOOL`.
pub struct ToolDef {
    pub spec: ToolSpec,
    pub run: fn(&Value, &ToolContext) -> ToolOutcome,
}

impl ToolDef {
    /// Runs the tool, an `Err` becoming the failure it carries. A destructive tool's consent
    /// literal is checked first, here on every path (the registry's and a prompt's or test's
    /// direct call), so no tool's `run` restates the check.
    pub fn call(&self, args: &Value, ctx: &ToolContext) -> ToolResult {
        if let Some(consent) = self.spec.consent {
            if let Err(refused) = consent.check(args) {
                return refused;
            }
        }
        (self.run)(args, ctx).unwrap_or_else(|failure| failure)
    }
}

impl std::fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.spec.name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::toolkit::{Consent, ErrorKind};

    /// A destructive tool whose run always succeeds: only `call` can refuse it.
    static WIPE: ToolDef = ToolDef {
        spec: ToolSpec {
            name: "wipe",
            destructive: true,
            consent: Some(Consent {
                field: "confirm",
                value: "WIPE",
                why: "It cannot be undone.",
                only_when: None,
            }),
            ..ToolSpec::BASE
        },
        run: |_, _| Ok(ToolResult::ok(json!({ "wiped": true }))),
    };

    #[test]
    fn a_direct_call_checks_the_consent_literal_before_the_run() {
        let ctx = ToolContext::new(None, None);
        let refused = WIPE.call(&json!({}), &ctx).to_value();
        assert_eq!(refused["success"], false);
        assert_eq!(refused["error_type"], ErrorKind::ConsentRequired.as_str());
        let ran = WIPE.call(&json!({ "confirm": "WIPE" }), &ctx).to_value();
        assert_eq!(ran["wiped"], true);
    }
}
