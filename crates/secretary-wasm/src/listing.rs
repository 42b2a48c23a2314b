//! The shapes of the listings the facade hands the hosts as JSON text: `tools()` (one
//! [`ToolListing`] per tool), `prompts()` (one [`PromptListing`] per prompt) and `copilotLsTools()`
//! (one [`ClientToolEntry`] per tool for the Copilot language server). The core builds them
//! as JSON values; these types name their fields once, for the TypeScript declarations the hosts
//! import (`extension/src/core/generated/`), and the tests below prove every entry the facade
//! gives reads back into them, field for field, so a field added or renamed in the core fails here
//! until the shape (and so the hosts' types) follows.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool's entry in the core's listing (`Secretary.tools()`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ToolListing {
    /// The plain name (`get_request`).
    pub name: String,
    /// The name VS Code knows it by (`chat_secretary_get_request`).
    pub vscode_name: String,
    pub reference_name: String,
    pub display_name: String,
    pub summary: String,
    /// The generated four-section description.
    pub description: String,
    /// The JSON Schema of the arguments.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub input_schema: Value,
    pub tags: Vec<String>,
    pub deferred: bool,
    /// A deferred tool's VS Code context key (`copilotChatSecretary.loaded.<name>`), set by `tool_load`.
    pub loaded_context_key: Option<String>,
    pub destructive: bool,
    /// Example tools are listed only when the host includes them.
    pub example: bool,
    /// The literal a destructive tool requires, and why (`null` for other tools).
    pub consent: Option<ConsentListing>,
    /// What the host asks the user before a destructive tool runs (`null` for other tools).
    pub confirmation: Option<ConfirmationListing>,
    pub invocation_message: String,
}

/// The core's confirmation text for a destructive tool (VS Code's `confirmationMessages`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConfirmationListing {
    pub title: String,
    pub message: String,
}

/// What a destructive tool needs before it runs: `field` set to exactly `value`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConsentListing {
    pub field: String,
    pub value: String,
    pub why: String,
    /// A per-command consent: the literal is needed only when `input[when.field] === when.value`.
    pub when: Option<ConsentWhen>,
}

/// The argument and value a per-command consent applies to (`memory`'s `command: "delete"`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConsentWhen {
    pub field: String,
    pub value: String,
}

/// A prompt of the core's listing (`Secretary.prompts()`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PromptListing {
    /// The MCP prompt name (`recall_first_request`).
    pub name: String,
    /// The chat participant's slash command (`first`).
    pub command: String,
    pub summary: String,
    pub description: String,
    /// The words after the command, as the participant's help shows them.
    pub usage: String,
    pub arguments: Vec<PromptArgument>,
}

/// One argument of a prompt (a named string over MCP, a word in chat).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PromptArgument {
    pub name: String,
    pub description: String,
    pub required: bool,
}

/// One tool to register with `@github/copilot-language-server` (`Secretary.copilotLsTools()`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClientToolEntry {
    /// The core's name of the tool.
    pub plain: String,
    /// Registered only once `tool_load` loaded it.
    pub deferred: bool,
    /// What `conversation/registerTools` takes.
    pub tool: ClientTool,
}

/// A tool as `conversation/registerTools` takes it (name clear of the server's own tools).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClientTool {
    pub name: String,
    pub description: String,
    /// An object schema fitted to the server's TypeBox rules, `required` always present
    /// (`secretary-wasm`'s listing tests check these three parts).
    #[cfg_attr(
        feature = "ts",
        ts(
            type = "{ type: 'object'; properties: Record<string, unknown>; required: string[]; [key: string]: unknown }"
        )
    )]
    pub input_schema: Value,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secretary;

    /// Every entry reads into the shape and writes back to the very same JSON; the entries, typed.
    fn round_trips<T: Serialize + for<'de> Deserialize<'de>>(json: &str) -> Vec<T> {
        let value: Value = serde_json::from_str(json).expect("the listing is JSON");
        let entries = value.as_array().expect("the listing is an array");
        entries
            .iter()
            .map(|entry| {
                let typed: T = serde_json::from_value(entry.clone())
                    .unwrap_or_else(|e| panic!("{e}: the shape does not match {entry}"));
                assert_eq!(&serde_json::to_value(&typed).unwrap(), entry);
                typed
            })
            .collect()
    }

    /// A core that lists the example tools too, so every kind of entry occurs.
    fn with_examples() -> Secretary {
        let mut core = Secretary::new();
        core.set_include_examples(true);
        core
    }

    #[test]
    fn every_tool_listing_entry_has_exactly_the_fields_of_tool_listing() {
        let tools: Vec<ToolListing> = round_trips(&with_examples().tools());
        assert!(tools.len() > 20, "{} tools", tools.len());
        // Each optional part occurs, so its shape is checked too.
        assert!(tools.iter().any(|t| t.loaded_context_key.is_some()));
        assert!(tools
            .iter()
            .any(|t| t.consent.as_ref().is_some_and(|c| c.when.is_some())));
        assert!(tools
            .iter()
            .any(|t| t.consent.as_ref().is_some_and(|c| c.when.is_none())));
        // Exactly the destructive tools carry a confirmation, and it names the literal.
        for tool in &tools {
            assert_eq!(
                tool.confirmation.is_some(),
                tool.destructive,
                "{}",
                tool.name
            );
            if let (Some(asked), Some(consent)) = (&tool.confirmation, &tool.consent) {
                assert!(asked.message.contains(&consent.why), "{}", tool.name);
                assert!(asked
                    .message
                    .contains(&format!("{}: \"{}\"", consent.field, consent.value)));
            }
        }
    }

    #[test]
    fn every_copilot_ls_entry_has_exactly_the_fields_of_client_tool_entry() {
        let entries: Vec<ClientToolEntry> = round_trips(&with_examples().copilot_ls_tools());
        assert!(entries.len() > 20, "{} tools", entries.len());
        for entry in &entries {
            let schema = &entry.tool.input_schema;
            assert_eq!(schema["type"], "object", "{}", entry.plain);
            assert!(schema["properties"].is_object(), "{}", entry.plain);
            assert!(
                schema["required"]
                    .as_array()
                    .is_some_and(|names| names.iter().all(Value::is_string)),
                "{}",
                entry.plain
            );
        }
    }

    #[test]
    fn every_prompt_listing_entry_has_exactly_the_fields_of_prompt_listing() {
        let prompts: Vec<PromptListing> = round_trips(&Secretary::new().prompts());
        assert!(prompts.len() >= 4, "{} prompts", prompts.len());
    }
}
