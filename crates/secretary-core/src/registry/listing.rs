//! What hosts publish about the tools: the listing (for MCP, `tool_find` and the extension) and the
//! `package.json` `contributes.languageModelTools` entries. Both come from the specs, so a test can
//! prove the committed manifest is in sync.

use serde_json::{json, Value};

use crate::toolkit::{description, ToolDef, ToolSpec, VSCODE_PREFIX};

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
        // The VS Code context key that enables a deferred tool's contribution once loaded.
        "loadedContextKey": spec.deferred.then(|| loaded_context_key(spec.name)),
        "destructive": spec.destructive,
        "example": spec.example,
        "consent": spec.consent.map(|c| json!({
            "field": c.field,
            "value": c.value,
            "why": c.why,
            "when": c.only_when.map(|(field, value)| json!({ "field": field, "value": value })),
        })),
        "confirmation": confirmation(spec),
        "invocationMessage": spec.invocation_message,
    })
}

/// What a host asks the user before a destructive tool runs (VS Code's `confirmationMessages`):
/// what it does, why it needs the user's explicit instruction, and the literal the agent had to
/// pass. `null` for the other tools.
fn confirmation(spec: &ToolSpec) -> Value {
    if !spec.destructive {
        return Value::Null;
    }
    let why = spec
        .consent
        .map_or("It changes or deletes data and cannot be undone.", |c| {
            c.why
        });
    let literal = spec.consent.map_or(String::new(), |c| {
        format!(
            "\n\nThe agent confirmed with `{}: \"{}\"`.",
            c.field, c.value
        )
    });
    json!({
        "title": format!("{}: requires your explicit instruction", spec.display_name),
        "message": format!(
            "{}\n\n{why}{literal}\n\nRun it only if you asked for this.",
            spec.summary
        ),
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
pub fn visible_tools(include_examples: bool) -> impl Iterator<Item = &'static ToolDef> {
    crate::tools::ALL
        .iter()
        .copied()
        .filter(move |tool| include_examples || !tool.spec.example)
}

/// How many tools VS Code offers the model before any `tool_load` (no `when` clause): the README
/// states this number.
pub const DEFAULT_TOOL_COUNT: usize = 9;

/// The VS Code `when` clause of example tools: contributed always (VS Code needs every tool in
/// the manifest) but enabled only by the setting.
pub const EXAMPLE_TOOLS_WHEN: &str = "config.copilotChatSecretary.includeExampleTools";

/// The VS Code context key `tool_load` sets for a deferred tool (`copilotChatSecretary.loaded.memory`).
/// A deferred tool's contribution is enabled only while it is set, so VS Code offers the tool to
/// the model only once it was loaded: dynamic loading with the stable API alone.
pub fn loaded_context_key(plain_name: &str) -> String {
    format!("{LOADED_CONTEXT_PREFIX}{plain_name}")
}

/// The prefix of [`loaded_context_key`].
pub const LOADED_CONTEXT_PREFIX: &str = "copilotChatSecretary.loaded.";

/// The codicon VS Code shows beside a tool (`$(name)`), chosen for what the tool does: the
/// dialog tools a history or search mark, the discovery tools tools, flags a flag, documents a
/// book. Kept here, beside the contribution, so a new tool gets a fitting icon from its name or
/// its tags without a field in every spec.
pub fn icon(spec: &ToolSpec) -> &'static str {
    match spec.name {
        "get_first_request" => "$(history)",
        "get_request" => "$(comment)",
        "list_dialogs" => "$(comment-discussion)",
        "search_requests" => "$(search)",
        "tool_find" => "$(tools)",
        "tool_describe" => "$(info)",
        "tool_load" => "$(plug)",
        "tool_active" => "$(checklist)",
        "tool_call" => "$(play)",
        "get_content" => "$(book)",
        "memory" => "$(notebook)",
        "get_changed_files" => "$(git-compare)",
        "resolve_library_id" => "$(library)",
        "get_library_docs" => "$(book)",
        _ => icon_from_tags(spec),
    }
}

fn icon_from_tags(spec: &ToolSpec) -> &'static str {
    let has = |tag: &str| spec.tags.contains(&tag);
    if spec.example {
        "$(beaker)"
    } else if has("flags") {
        if has("delete") {
            "$(trash)"
        } else {
            "$(flag)"
        }
    } else if has("search") {
        "$(search)"
    } else if has("docs") || has("documentation") {
        "$(book)"
    } else {
        "$(tools)"
    }
}

/// The `when` clause of a tool's contribution: example tools follow their setting, deferred tools
/// their [`loaded_context_key`]; the others have none (always offered).
pub fn when_clause(spec: &ToolSpec) -> Option<String> {
    if spec.example {
        Some(EXAMPLE_TOOLS_WHEN.to_string())
    } else if spec.deferred {
        Some(loaded_context_key(spec.name))
    } else {
        None
    }
}

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
                    "icon": icon(spec),
                    "userDescription": spec.summary,
                    "modelDescription": description(spec),
                    "tags": spec.tags,
                    "inputSchema": (spec.schema)(),
                });
                if let Some(when) = when_clause(spec) {
                    entry["when"] = json!(when);
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

    #[test]
    fn deferred_tools_are_gated_by_their_loaded_context_key_and_the_others_are_not() {
        let tools = language_model_tools();
        let entries = tools.as_array().expect("an array");
        for tool in crate::tools::ALL.iter() {
            let name = format!("{VSCODE_PREFIX}{}", tool.spec.name);
            let entry = entries
                .iter()
                .find(|e| e["name"] == name.as_str())
                .expect("contributed");
            let when = entry["when"].as_str();
            if tool.spec.example {
                assert_eq!(when, Some(EXAMPLE_TOOLS_WHEN), "{name}");
            } else if tool.spec.deferred {
                assert_eq!(
                    when,
                    Some(format!("copilotChatSecretary.loaded.{}", tool.spec.name).as_str()),
                    "{name}"
                );
            } else {
                assert_eq!(when, None, "{name} is on by default");
            }
        }
        assert_eq!(
            entries.iter().filter(|e| e.get("when").is_none()).count(),
            DEFAULT_TOOL_COUNT,
            "the README states how many tools are on by default"
        );
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
                .expect("README.md at the repository root");
        assert!(
            readme.contains(&format!("**On by default: {DEFAULT_TOOL_COUNT} tools**")),
            "README.md must state the default tool count"
        );
    }

    #[test]
    fn every_tool_has_a_codicon_and_they_are_not_all_the_same() {
        let icons: HashSet<&str> = crate::tools::ALL
            .iter()
            .map(|tool| icon(&tool.spec))
            .collect();
        for icon in &icons {
            assert!(icon.starts_with("$(") && icon.ends_with(')'), "{icon}");
        }
        assert!(icons.len() >= 10, "{icons:?}");
        let by_name = |name: &str| {
            icon(
                &crate::tools::ALL
                    .iter()
                    .find(|t| t.spec.name == name)
                    .expect("a tool")
                    .spec,
            )
        };
        assert_eq!(by_name("search_requests"), "$(search)");
        assert_eq!(by_name("tool_find"), "$(tools)");
        assert_eq!(by_name("set_project_flag"), "$(flag)");
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

    /// VS Code's tool guidance asks a description to say when a tool is the wrong choice; the
    /// dialog tools, which a model could otherwise call on every turn, say it.
    #[test]
    fn the_dialog_tools_say_when_not_to_use_them() {
        for name in [
            "get_first_request",
            "get_request",
            "list_dialogs",
            "search_requests",
        ] {
            let tool = crate::tools::ALL
                .iter()
                .find(|t| t.spec.name == name)
                .expect("a dialog tool");
            assert!(!tool.spec.when_not_to_use.is_empty(), "{name}");
            let text = description(&tool.spec);
            let section = text
                .split("Do not use it when:\n")
                .nth(1)
                .unwrap_or_else(|| panic!("{name} lacks the section"));
            for line in tool.spec.when_not_to_use {
                assert!(section.contains(&format!("- {line}\n")), "{name}: {line}");
            }
            assert!(text.contains("Returns: "), "{name}");
        }
        // A tool without such lines has no empty section.
        let plain = crate::tools::ALL
            .iter()
            .find(|t| t.spec.when_not_to_use.is_empty())
            .expect("a tool without the section");
        assert!(!description(&plain.spec).contains("Do not use it when:"));
    }

    #[test]
    fn every_tool_description_has_the_four_sections() {
        for tool in crate::tools::ALL {
            let text = description(&tool.spec);
            let first = text.lines().next().unwrap_or_default();
            assert!(!first.is_empty(), "{}", tool.spec.name);
            for section in [
                "Use this tool when:",
                "Input schema:\n```json",
                "Usage:",
                "Example usage scenarios:",
            ] {
                assert!(text.contains(section), "{} lacks {section}", tool.spec.name);
            }
            assert!(
                tool.spec.summary.chars().count() <= 60,
                "{} summary too long",
                tool.spec.name
            );
            assert!(
                !tool.spec.examples.is_empty(),
                "{} has no examples",
                tool.spec.name
            );
            for example in tool.spec.examples {
                let parsed: Value =
                    serde_json::from_str(example.args).expect("example args are JSON");
                assert!(parsed.is_object(), "{}", tool.spec.name);
            }
        }
    }
}
