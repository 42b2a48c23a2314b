//! `list_project_flags`: every flag this workspace sees, project values over global ones.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::List,
    Scope::Project,
    FlagSpec {
        name: "list_project_flags",
        reference_name: "listProjectFlags",
        display_name: "List Project Flags",
        summary: "List the flags in effect for this workspace.",
        when_to_use: &[
            "At the start of work in a project, to learn the decisions and preferences recorded for it.",
            "You are unsure of a flag's exact name.",
        ],
        usage: "Call it without arguments. Each flag shows its effective value and `source`: `project` (set for this \
                workspace, with the overridden `globalValue` if any) or `global` (the default from `set_feature_flag`).",
        returns: "`{\"success\": true, \"flags\": [{\"name\": \"packageManager\", \"value\": \"pnpm\", \"source\": \"project\"}, \
                  {\"name\": \"strictMode\", \"value\": false, \"source\": \"global\"}], \"total\": 2}`, by name.",
        examples: &[Example { args: "{}", shows: "every flag in effect for this workspace" }],
        tags: &["flags", "settings", "project", "workspace", "list"],
    },
);
