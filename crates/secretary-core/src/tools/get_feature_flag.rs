//! `get_feature_flag`: a global flag's value (project values are not consulted).

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::Get,
    Scope::Global,
    FlagSpec {
        name: "get_feature_flag",
        reference_name: "getFeatureFlag",
        display_name: "Get Feature Flag",
        summary: "Read a global flag.",
        when_to_use: &[
            "You need a preference the user set for all of their projects.",
            "You want the global default of a flag regardless of this workspace's override.",
        ],
        usage: "Pass `name`. Only the global value is read; for the value in effect in this workspace (which a \
                project value may override) use `get_project_flag`. `source` is `global`, or `unset` with a null \
                `value`.",
        returns: "`{\"success\": true, \"name\": \"spelling\", \"value\": \"en-GB\", \"source\": \"global\"}`.",
        examples: &[Example { args: "{\"name\": \"spelling\"}", shows: "the user's global spelling preference" }],
        tags: &["flags", "settings", "global", "feature", "recall"],
    },
);
