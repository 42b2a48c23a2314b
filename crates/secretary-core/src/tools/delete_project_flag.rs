//! `delete_project_flag`: remove this workspace's value of a flag, so the global value applies again.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::Delete,
    Scope::Project,
    FlagSpec {
        name: "delete_project_flag",
        reference_name: "deleteProjectFlag",
        display_name: "Delete Project Flag",
        summary: "Remove a flag's value for this workspace.",
        when_to_use: &[
            "The user withdraws a project decision recorded earlier.",
            "This workspace should follow the global value of a flag again.",
        ],
        usage: "Pass `name`. Only this workspace's value is removed; a global value of the same name (from \
                `set_feature_flag`) applies again. Removing a flag that is not set changes nothing.",
        returns: "`{\"success\": true, \"name\": \"strictMode\", \"removed\": true, \"previous\": true}`.",
        examples: &[Example { args: "{\"name\": \"strictMode\"}", shows: "drop the project override of strictMode" }],
        tags: &["flags", "settings", "project", "workspace", "delete", "reset"],
    },
);
