//! Tool names across hosts. Documentation and the core use undecorated names (`get_request`);
//! VS Code needs the fixed `chat_secretary_` prefix (its manifest is static, and it refuses names
//! starting with `copilot_`); MCP hosts add their own configurable prefix.

use super::ToolDef;

/// The prefix of every tool the extension contributes to VS Code.
pub const VSCODE_PREFIX: &str = "chat_secretary_";
/// The prefix of the original design, refused by VS Code. Still recognised, and answered with the
/// new name, so that agents and prompts written for it learn where the tool went.
pub const LEGACY_VSCODE_PREFIX: &str = "copilot_chat_secretary_";

/// What a name refers to.
#[derive(Debug)]
pub enum Lookup {
    Found(&'static ToolDef),
    /// An old name: the tool exists under `new_name` (its VS Code name).
    Renamed {
        tool: &'static ToolDef,
        new_name: String,
    },
    Unknown,
}

/// Finds a tool by its plain or VS Code name; recognises legacy names as renames.
pub fn lookup(name: &str) -> Lookup {
    let name = name.trim();
    if let Some(plain) = name.strip_prefix(LEGACY_VSCODE_PREFIX) {
        return match find_plain(plain) {
            Some(tool) => Lookup::Renamed {
                tool,
                new_name: format!("{VSCODE_PREFIX}{}", tool.spec.name),
            },
            None => Lookup::Unknown,
        };
    }
    let plain = name.strip_prefix(VSCODE_PREFIX).unwrap_or(name);
    match find_plain(plain) {
        Some(tool) => Lookup::Found(tool),
        None => Lookup::Unknown,
    }
}

fn find_plain(plain: &str) -> Option<&'static ToolDef> {
    crate::tools::ALL
        .iter()
        .copied()
        .find(|tool| tool.spec.name == plain)
}

/// The prefix of MCP tool names when `MCP_TOOL_PREFIX` is not set.
pub const DEFAULT_MCP_PREFIX: &str = "secretary";

/// The name an MCP host gives a tool (`MCP_TOOL_PREFIX` semantics). `prefix`: `None` for the
/// default ([`DEFAULT_MCP_PREFIX`]), `Some("")` for no prefix, else the prefix, joined to the plain
/// name with `_` (a prefix already ending in `_` is not doubled). `overrides` maps a plain name to
/// that tool's own prefix, where `""` disables the prefix for that tool alone.
pub fn host_name(
    prefix: Option<&str>,
    overrides: &std::collections::BTreeMap<String, String>,
    tool: &str,
) -> String {
    let prefix = match overrides.get(tool) {
        Some(own) => own.as_str(),
        None => prefix.unwrap_or(DEFAULT_MCP_PREFIX),
    }
    .trim();
    if prefix.is_empty() {
        tool.to_string()
    } else if prefix.ends_with('_') {
        format!("{prefix}{tool}")
    } else {
        format!("{prefix}_{tool}")
    }
}

/// The plain name of the tool an MCP host calls `name` under the same prefix rules; `None` when
/// no tool has that host name (a plain name is not accepted unless its prefix is disabled).
pub fn plain_name(
    prefix: Option<&str>,
    overrides: &std::collections::BTreeMap<String, String>,
    name: &str,
) -> Option<&'static str> {
    let name = name.trim();
    crate::tools::ALL
        .iter()
        .map(|tool| tool.spec.name)
        .find(|plain| host_name(prefix, overrides, plain) == name)
}

#[cfg(test)]
mod prefix_tests {
    use super::*;
    use std::collections::BTreeMap;

    fn overrides(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn default_custom_and_disabled_prefixes() {
        let none = BTreeMap::new();
        assert_eq!(
            host_name(None, &none, "get_request"),
            "secretary_get_request"
        );
        assert_eq!(
            host_name(Some("sec"), &none, "get_request"),
            "sec_get_request"
        );
        assert_eq!(
            host_name(Some("sec_"), &none, "get_request"),
            "sec_get_request"
        );
        assert_eq!(host_name(Some(""), &none, "get_request"), "get_request");
        assert_eq!(host_name(Some("  "), &none, "get_request"), "get_request");
    }

    #[test]
    fn per_tool_overrides_win_and_empty_disables_for_that_tool() {
        let map = overrides(&[("get_request", ""), ("list_dialogs", "chat")]);
        assert_eq!(host_name(None, &map, "get_request"), "get_request");
        assert_eq!(host_name(None, &map, "list_dialogs"), "chat_list_dialogs");
        assert_eq!(
            host_name(None, &map, "search_requests"),
            "secretary_search_requests"
        );
        assert_eq!(
            host_name(Some(""), &map, "list_dialogs"),
            "chat_list_dialogs"
        );
    }

    #[test]
    fn reverse_lookup_inverts_host_name() {
        let map = overrides(&[("get_request", "")]);
        for tool in crate::tools::ALL {
            for prefix in [None, Some(""), Some("x")] {
                let name = host_name(prefix, &map, tool.spec.name);
                assert_eq!(
                    plain_name(prefix, &map, &name),
                    Some(tool.spec.name),
                    "{name}"
                );
            }
        }
        assert_eq!(plain_name(None, &map, "get_request"), Some("get_request"));
        assert_eq!(plain_name(None, &map, "list_dialogs"), None);
        assert_eq!(
            plain_name(None, &map, "secretary_list_dialogs"),
            Some("list_dialogs")
        );
        assert_eq!(plain_name(None, &map, "secretary_nope"), None);
    }
}
