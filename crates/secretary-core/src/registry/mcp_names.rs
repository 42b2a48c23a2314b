//! Tool names across hosts, over every tool: [`lookup`] by plain or VS Code name (the rules are
//! `toolkit::lookup_in`'s), and MCP names, where hosts add a configurable prefix (`MCP_TOOL_PREFIX`).

use crate::toolkit::{lookup_in, Lookup};

/// Finds a tool by its plain or VS Code name; recognises legacy names as renames.
pub fn lookup(name: &str) -> Lookup {
    lookup_in(crate::tools::ALL, name)
}

/// The prefix of MCP tool names when `MCP_TOOL_PREFIX` is not set.
pub const DEFAULT_MCP_PREFIX: &str = "secretary";

/// The text put before every plain name under `MCP_TOOL_PREFIX` semantics: `None` for the default
/// ([`DEFAULT_MCP_PREFIX`]), `Some("")` (or blanks) for no prefix, else the trimmed prefix joined
/// with `_` (a prefix already ending in `_` is not given a second one).
pub fn mcp_prefix(prefix: Option<&str>) -> String {
    let prefix = prefix.unwrap_or(DEFAULT_MCP_PREFIX).trim();
    if prefix.is_empty() || prefix.ends_with('_') {
        prefix.to_string()
    } else {
        format!("{prefix}_")
    }
}

/// The name an MCP host gives the tool `tool` (a plain name) under `prefix` (see [`mcp_prefix`]).
pub fn host_name(prefix: Option<&str>, tool: &str) -> String {
    format!("{}{tool}", mcp_prefix(prefix))
}

/// The plain name of the tool an MCP host calls `name` under the same prefix rules; `None` when
/// no tool has that host name (a plain name is not accepted unless the prefix is disabled).
pub fn plain_name(prefix: Option<&str>, name: &str) -> Option<&'static str> {
    let name = name.trim();
    crate::tools::ALL
        .iter()
        .map(|tool| tool.spec.name)
        .find(|plain| host_name(prefix, plain) == name)
}

#[cfg(test)]
mod prefix_tests {
    use super::*;

    #[test]
    fn default_custom_and_disabled_prefixes() {
        assert_eq!(host_name(None, "get_request"), "secretary_get_request");
        assert_eq!(host_name(Some("sec"), "get_request"), "sec_get_request");
        assert_eq!(host_name(Some("sec_"), "get_request"), "sec_get_request");
        assert_eq!(host_name(Some(""), "get_request"), "get_request");
        assert_eq!(host_name(Some("  "), "get_request"), "get_request");
    }

    #[test]
    fn reverse_lookup_inverts_host_name() {
        for tool in crate::tools::ALL {
            for prefix in [None, Some(""), Some("x")] {
                let name = host_name(prefix, tool.spec.name);
                assert_eq!(plain_name(prefix, &name), Some(tool.spec.name), "{name}");
            }
        }
        assert_eq!(plain_name(None, "list_dialogs"), None);
        assert_eq!(
            plain_name(None, "secretary_list_dialogs"),
            Some("list_dialogs")
        );
        assert_eq!(plain_name(None, "secretary_nope"), None);
    }
}
