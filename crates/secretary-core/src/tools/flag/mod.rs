//! What the eight flag tools share (`get`/`set`/`delete`/`list` × `project`/`feature`): a
//! project tool and its global twin differ only in their [`Scope`] and their spec's text, so each
//! tool file keeps its spec and argument type and calls these bodies. The storage rules are
//! `crate::flags`'s. (A folder, so the build script does not take it for a tool.)

use serde_json::{json, Value};

use crate::flags::{self, Resolved, Scope};
use crate::host::{self, Host};
use crate::toolkit::{ToolContext, ToolOutcome, ToolResult, ToolSpec};

/// A flag tool's argument type, `Args`, whose schema is described by `$doc` ("Arguments of
/// `get_feature_flag`."): `name` alone, or `name` and a scalar `value` (the `set` tools).
macro_rules! flag_args {
    ($doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        struct Args {
            /// The flag's name.
            #[schemars(schema_with = "crate::flags::name_schema")]
            name: String,
        }
    };
    ($doc:literal, with value) => {
        #[doc = $doc]
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        struct Args {
            /// The flag's name: a letter, then letters, digits, `_`, `.` or `-` (64 characters at most).
            #[schemars(schema_with = "crate::flags::name_schema")]
            name: String,
            /// The value: a string, number, boolean or null (no arrays or objects).
            #[schemars(schema_with = "crate::flags::scalar_schema")]
            value: serde_json::Value,
        }
    };
}
pub(crate) use flag_args;

/// The base of every flag tool's spec: deferred (loaded with `tool_load`), not destructive.
pub const SPEC: ToolSpec = ToolSpec {
    deferred: true,
    ..ToolSpec::BASE
};

/// `set_project_flag` / `set_feature_flag`: stores the value and says what it replaced (and,
/// for the project, which global value it now overrides).
pub fn set(ctx: &ToolContext, scope: Scope, name: &str, value: Value) -> ToolOutcome {
    flags::check_name(name)?;
    flags::check_value(&value)?;
    let host = host::require(ctx.host)?;
    let previous = flags::set(host, scope, name, value.clone())?;
    let mut out = json!({ "name": name, "value": value, "scope": scope.as_str() });
    if let Some(previous) = previous {
        out["previous"] = previous;
    }
    let result = ToolResult::ok(out);
    Ok(match overridden_global(host, scope, name) {
        Some(global) => result.with_message(format!(
            "Overrides the global value {global} in this workspace."
        )),
        None => result,
    })
}

/// `get_project_flag` (project over global) / `get_feature_flag`.
pub fn get(ctx: &ToolContext, scope: Scope, name: &str) -> ToolOutcome {
    flags::check_name(name)?;
    let resolved = flags::resolve(host::require(ctx.host)?, scope, name)?;
    let unset = resolved.source == "unset";
    let result = ToolResult::ok(resolved.to_json());
    if !unset {
        return Ok(result);
    }
    Ok(result.with_message(match scope {
        Scope::Project => format!("Flag {name} is not set for this project or globally."),
        Scope::Global => format!("Global flag {name} is not set."),
    }))
}

/// `list_project_flags` (every flag in effect here) / `list_feature_flags`.
pub fn list(ctx: &ToolContext, scope: Scope) -> ToolOutcome {
    let all = flags::resolve_all(host::require(ctx.host)?, scope)?;
    let total = all.len();
    let flags: Vec<Value> = all.iter().map(Resolved::to_json).collect();
    let result = ToolResult::ok(json!({ "flags": flags, "total": total }));
    if total > 0 {
        return Ok(result);
    }
    Ok(result.with_message(match scope {
        Scope::Project => "No flags are set for this project or globally.",
        Scope::Global => "No global flags are set.",
    }))
}

/// `delete_project_flag` (the global value, if any, applies again) / `delete_feature_flag`.
pub fn delete(ctx: &ToolContext, scope: Scope, name: &str) -> ToolOutcome {
    flags::check_name(name)?;
    let host = host::require(ctx.host)?;
    let previous = flags::remove(host, scope, name)?;
    let mut out = json!({ "name": name, "removed": previous.is_some() });
    if let Some(previous) = previous {
        out["previous"] = previous;
    }
    let result = ToolResult::ok(out);
    Ok(match overridden_global(host, scope, name) {
        Some(global) => result.with_message(format!("The global value {global} applies again.")),
        None => result,
    })
}

/// For a project flag: the global value of the same name, if set.
fn overridden_global(host: &dyn Host, scope: Scope, name: &str) -> Option<Value> {
    match scope {
        Scope::Project => flags::load(host, Scope::Global)
            .ok()
            .and_then(|mut all| all.remove(name)),
        Scope::Global => None,
    }
}
