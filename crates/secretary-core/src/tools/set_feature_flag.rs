//! `set_feature_flag`: set a global flag, shared by every workspace.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::Set,
    Scope::Global,
    FlagSpec {
        name: "set_feature_flag",
        reference_name: "setFeatureFlag",
        display_name: "Set Feature Flag",
        summary: "Set a global flag shared by every workspace.",
        when_to_use: &[
            "The user states a preference for all of their projects (\"always answer in British English\").",
            "You turn a behaviour on or off everywhere, not just in this workspace.",
        ],
        usage: "Pass `name` and a scalar `value`. Global flags are the defaults every workspace sees; a project can \
                override one with `set_project_flag`. Use `set_project_flag` instead when the choice is about this \
                workspace only.",
        returns: "`{\"success\": true, \"name\": \"spelling\", \"value\": \"en-GB\", \"scope\": \"global\", \
                  \"previous\": \"en-US\"}` (`previous` only when the flag was set before).",
        examples: &[
            Example { args: "{\"name\": \"spelling\", \"value\": \"en-GB\"}", shows: "a preference for every project" },
            Example { args: "{\"name\": \"experimentalTools\", \"value\": false}", shows: "turn a feature off everywhere" },
        ],
        tags: &["flags", "settings", "global", "feature", "remember", "preference"],
    },
);
