//! `delete_feature_flag`: remove a global flag.

use super::flag::{self, Action, FlagSpec};
use crate::flags::Scope;
use crate::toolkit::{Example, ToolDef};

pub static TOOL: ToolDef = flag::tool(
    Action::Delete,
    Scope::Global,
    FlagSpec {
        name: "delete_feature_flag",
        reference_name: "deleteFeatureFlag",
        display_name: "Delete Feature Flag",
        summary: "Remove a global flag.",
        when_to_use: &["The user withdraws a preference they had set for all of their projects."],
        usage: "Pass `name`. Only the global value is removed; project values of the same name stay. Removing a \
                flag that is not set changes nothing.",
        returns: "`{\"success\": true, \"name\": \"spelling\", \"removed\": true, \"previous\": \"en-GB\"}`.",
        examples: &[Example { args: "{\"name\": \"spelling\"}", shows: "forget the global spelling preference" }],
        tags: &["flags", "settings", "global", "feature", "delete", "reset"],
    },
);
