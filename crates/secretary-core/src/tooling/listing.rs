//! What hosts publish about the tools: the listing (for MCP, `tool_find` and the extension) and the
//! `package.json` `contributes.languageModelTools` entries. Both come from the specs, so a test can
//! prove the committed manifest is in sync.

use serde_json::{json, Value};

use super::{description, names::VSCODE_PREFIX, ToolSpec};

/// One tool as every host sees it.
pub fn listing_entry(spec: &ToolSpec) -> Value {
    json!({
        "name": spec.name,
        "vscodeName": format!("{VSCODE_PREFIX}{}", spec.name),
        "referenceName": spec.reference_name,
        "displayName": spec.display_name,
        "summary": spec.summary,
        "description": description(spec),
        "inputSchema": (spec.schema)(),
        "tags": spec.tags,
        "deferred": spec.deferred,
        "destructive": spec.destructive,
        "example": spec.example,
        "consent": spec.consent.map(|c| json!({
            "field": c.field,
            "value": c.value,
            "why": c.why,
            "when": c.only_when.map(|(field, value)| json!({ "field": field, "value": value })),
        })),
        "invocationMessage": spec.invocation_message,
    })
}

/// Every tool's listing entry, in name order, without the example tools.
pub fn listing() -> Value {
    listing_for(false)
}

/// Every tool's listing entry, in name order; example tools only with `include_examples`.
pub fn listing_for(include_examples: bool) -> Value {
    Value::Array(
        visible_tools(include_examples)
            .map(|tool| listing_entry(&tool.spec))
            .collect(),
    )
}

/// The tools a host offers: all of them, less the example tools unless it includes them.
pub fn visible_tools(include_examples: bool) -> impl Iterator<Item = &'static super::ToolDef> {
    crate::tools::ALL
        .iter()
        .copied()
        .filter(move |tool| include_examples || !tool.spec.example)
}

/// The VS Code `when` clause of example tools: contributed always (VS Code needs every tool in
/// the manifest) but enabled only by the setting.
pub const EXAMPLE_TOOLS_WHEN: &str = "config.copilotChatSecretary.includeExampleTools";

/// The `contributes.languageModelTools` array of `package.json`.
pub fn language_model_tools() -> Value {
    Value::Array(
        crate::tools::ALL
            .iter()
            .map(|tool| {
                let spec = &tool.spec;
                let mut entry = json!({
                    "name": format!("{VSCODE_PREFIX}{}", spec.name),
                    "displayName": spec.display_name,
                    "toolReferenceName": spec.reference_name,
                    "canBeReferencedInPrompt": true,
                    "icon": "$(history)",
                    "userDescription": spec.summary,
                    "modelDescription": description(spec),
                    "tags": spec.tags,
                    "inputSchema": (spec.schema)(),
                });
                if spec.example {
                    entry["when"] = json!(EXAMPLE_TOOLS_WHEN);
                }
                entry
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_collected_once() {
        let names: Vec<&str> = crate::tools::ALL
            .iter()
            .map(|tool| tool.spec.name)
            .collect();
        let unique: HashSet<&str> = names.iter().copied().collect();
        assert_eq!(
            unique.len(),
            names.len(),
            "a tool is registered twice: {names:?}"
        );
        // Collecting again yields the very same set, nothing new.
        let again: HashSet<&str> = crate::tools::ALL
            .iter()
            .map(|tool| tool.spec.name)
            .collect();
        assert_eq!(unique, again);
        let refs: HashSet<&str> = crate::tools::ALL
            .iter()
            .map(|tool| tool.spec.reference_name)
            .collect();
        assert_eq!(refs.len(), names.len(), "reference names collide");
    }

    #[test]
    fn no_vscode_name_uses_a_reserved_prefix() {
        for entry in language_model_tools().as_array().into_iter().flatten() {
            let name = entry["name"].as_str().unwrap_or_default();
            assert!(
                !name.starts_with("copilot_") && !name.starts_with("vscode_"),
                "{name}"
            );
            assert!(entry["inputSchema"]["required"].is_array(), "{name}");
        }
    }

    /// `package.json` must carry exactly what the specs generate: run `scripts/gen-manifest` after
    /// changing a tool.
    #[test]
    fn package_json_is_in_sync_with_the_specs() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../package.json");
        let text = std::fs::read_to_string(path).expect("package.json at the repository root");
        let manifest: Value = serde_json::from_str(&text).expect("package.json is JSON");
        assert_eq!(
            manifest["contributes"]["languageModelTools"],
            language_model_tools(),
            "package.json is out of date: run scripts/gen-manifest"
        );
    }
}
