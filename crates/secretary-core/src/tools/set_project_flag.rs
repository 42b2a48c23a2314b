//! `set_project_flag`: set a flag for this workspace; it overrides the global value of the same name.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::Set,
    Scope::Project,
    FlagSpec {
        name: "set_project_flag",
        reference_name: "setProjectFlag",
        display_name: "Set Project Flag",
        summary: "Set a flag for this workspace (overrides global).",
        when_to_use: &[
            "The user states a preference or decision that holds for this project only (\"in this repo we use pnpm\").",
            "You want to remember a project setting across dialogs, e.g. that a migration step is done.",
            "A global (feature) flag should have a different value in this workspace.",
        ],
        usage: "Pass `name` and a scalar `value`. The value is stored with this workspace and survives restarts; \
                `get_project_flag` returns it in later dialogs. It overrides a global flag of the same name \
                (set with `set_feature_flag`) in this workspace only; `delete_project_flag` removes the override.",
        returns: "`{\"success\": true, \"name\": \"packageManager\", \"value\": \"pnpm\", \"scope\": \"project\", \
                  \"previous\": \"npm\"}` (`previous` only when the flag was set before).",
        examples: &[
            Example { args: "{\"name\": \"packageManager\", \"value\": \"pnpm\"}", shows: "remember the project's package manager" },
            Example { args: "{\"name\": \"strictMode\", \"value\": true}", shows: "turn a flag on for this workspace only" },
        ],
        tags: &["flags", "settings", "project", "workspace", "remember", "preference"],
    },
);
