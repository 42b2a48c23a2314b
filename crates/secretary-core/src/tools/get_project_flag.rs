//! `get_project_flag`: a flag as this workspace sees it: its project value, else the global one.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::Get,
    Scope::Project,
    FlagSpec {
        name: "get_project_flag",
        reference_name: "getProjectFlag",
        display_name: "Get Project Flag",
        summary: "Read a flag for this workspace (or its global default).",
        when_to_use: &[
            "Before acting on a project decision the user may have recorded earlier (package manager, style, done steps).",
            "You need the effective value of a flag in this workspace, whether set here or globally.",
        ],
        usage: "Pass `name`. The project value wins; without one the global value (from `set_feature_flag`) is the \
                default; `source` says which applied, `unset` when neither exists (then `value` is null).",
        returns: "`{\"success\": true, \"name\": \"strictMode\", \"value\": true, \"source\": \"project\", \
                  \"globalValue\": false}` (`globalValue` only when a project value overrides a global one).",
        examples: &[
            Example { args: "{\"name\": \"packageManager\"}", shows: "which package manager this project uses" },
            Example { args: "{\"name\": \"strictMode\"}", shows: "a flag set globally, unless this workspace overrides it" },
        ],
        tags: &["flags", "settings", "project", "workspace", "recall", "preference"],
    },
);
