//! The VS Code names of the Secretary's tools. Documentation and the core use undecorated names
//! (`get_request`); VS Code needs the fixed [`VSCODE_PREFIX`] (its manifest is static, and it
//! refuses names starting with `copilot_`). The rules take the tool list as an argument so that
//! the discovery catalog (in this layer) and the registry's `lookup` (over every tool) share them.

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

/// Finds a tool of `tools` by its plain or VS Code name; recognises legacy names as renames.
pub fn lookup_in(tools: &[&'static ToolDef], name: &str) -> Lookup {
    let name = name.trim();
    let find = |plain: &str| tools.iter().copied().find(|tool| tool.spec.name == plain);
    if let Some(plain) = name.strip_prefix(LEGACY_VSCODE_PREFIX) {
        return match find(plain) {
            Some(tool) => Lookup::Renamed {
                tool,
                new_name: format!("{VSCODE_PREFIX}{}", tool.spec.name),
            },
            None => Lookup::Unknown,
        };
    }
    let plain = name.strip_prefix(VSCODE_PREFIX).unwrap_or(name);
    match find(plain) {
        Some(tool) => Lookup::Found(tool),
        None => Lookup::Unknown,
    }
}
