//! `list_feature_flags`: every global flag.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::List,
    Scope::Global,
    FlagSpec {
        name: "list_feature_flags",
        reference_name: "listFeatureFlags",
        display_name: "List Feature Flags",
        summary: "List every global flag.",
        when_to_use: &[
            "You want to know the preferences the user set for all of their projects.",
            "You are unsure of a global flag's exact name.",
        ],
        usage: "Call it without arguments. Only global flags are listed; `list_project_flags` shows what is in \
                effect in this workspace.",
        returns: "`{\"success\": true, \"flags\": [{\"name\": \"spelling\", \"value\": \"en-GB\", \"source\": \"global\"}], \
                  \"total\": 1}`, by name.",
        examples: &[Example { args: "{}", shows: "every global flag" }],
        tags: &["flags", "settings", "global", "feature", "list"],
    },
);
