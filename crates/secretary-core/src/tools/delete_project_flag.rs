//! `delete_project_flag`: remove this workspace's value of a flag, so the global value applies again.

use crate::flags::Scope;
use crate::toolkit::{parse_args, schema_for, Example, ToolDef, ToolSpec};

super::flag::flag_args!("Arguments of `delete_project_flag`.");

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
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
        invocation_message: "Removing a project flag",
        schema: schema_for::<Args>,
        ..super::flag::SPEC
    },
    run: |args, ctx| super::flag::delete(ctx, Scope::Project, &parse_args::<Args>(args)?.name),
};
