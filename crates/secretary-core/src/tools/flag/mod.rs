//! What the eight flag tools share (`get`/`set`/`delete`/`list` × `project`/`feature`): a
//! project tool and its global twin differ only in their [`Scope`] and their spec's texts. Each
//! tool file keeps those texts in a [`FlagSpec`] and names its [`Action`] and scope; [`tool`] adds
//! what follows from them (the argument type, the message VS Code shows while it runs, deferred
//! loading) and the bodies below do the work. The storage rules are `crate::flags`'s. (A folder,
//! so the build script does not take it for a tool.)

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::flags::{self, Resolved, Scope};
use crate::host::{self, Host};
use crate::toolkit::{
    parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec,
};

/// What a flag tool does with the flags of its scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Get,
    Set,
    Delete,
    List,
}

/// The texts of a flag tool's spec: the parts a tool and its twin in the other scope do not share.
/// The fields mean what [`ToolSpec`]'s of the same names mean.
#[derive(Debug, Clone, Copy)]
pub struct FlagSpec {
    pub name: &'static str,
    pub reference_name: &'static str,
    pub display_name: &'static str,
    pub summary: &'static str,
    pub when_to_use: &'static [&'static str],
    pub usage: &'static str,
    pub returns: &'static str,
    pub examples: &'static [Example],
    pub tags: &'static [&'static str],
}

/// Arguments of the flag tools that read or remove one flag.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NameArgs {
    /// The flag's name.
    #[schemars(schema_with = "crate::flags::name_schema")]
    name: String,
}

/// Arguments of the flag tools that set a flag.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ValueArgs {
    /// The flag's name: a letter, then letters, digits, `_`, `.` or `-` (64 characters at most).
    #[schemars(schema_with = "crate::flags::name_schema")]
    name: String,
    /// The value: a string, number, boolean or null (no arrays or objects).
    #[schemars(schema_with = "crate::flags::scalar_schema")]
    value: Value,
}

/// Arguments of the flag tools that list flags (none).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NoArgs {}

/// A tool's `run`.
type Run = fn(&Value, &ToolContext) -> ToolOutcome;

/// The flag tool that does `action` in `scope`, described by `texts`: deferred (loaded with
/// `tool_load`), not destructive.
pub const fn tool(action: Action, scope: Scope, texts: FlagSpec) -> ToolDef {
    let (run, invocation_message) = wiring(action, scope);
    ToolDef {
        spec: ToolSpec {
            name: texts.name,
            reference_name: texts.reference_name,
            display_name: texts.display_name,
            summary: texts.summary,
            when_to_use: texts.when_to_use,
            usage: texts.usage,
            returns: texts.returns,
            examples: texts.examples,
            tags: texts.tags,
            deferred: true,
            invocation_message,
            schema: match action {
                Action::Get | Action::Delete => schema_for::<NameArgs>,
                Action::Set => schema_for::<ValueArgs>,
                Action::List => schema_for::<NoArgs>,
            },
            ..ToolSpec::BASE
        },
        run,
    }
}

/// Each flag tool's run (its action in its scope: a `fn` pointer cannot carry the scope, so the
/// eight are spelled out) and the message VS Code shows while it runs.
const fn wiring(action: Action, scope: Scope) -> (Run, &'static str) {
    match (action, scope) {
        (Action::Get, Scope::Project) => {
            (|a, c| get(c, Scope::Project, a), "Reading a project flag")
        }
        (Action::Get, Scope::Global) => (|a, c| get(c, Scope::Global, a), "Reading a global flag"),
        (Action::Set, Scope::Project) => {
            (|a, c| set(c, Scope::Project, a), "Setting a project flag")
        }
        (Action::Set, Scope::Global) => (|a, c| set(c, Scope::Global, a), "Setting a global flag"),
        (Action::Delete, Scope::Project) => (
            |a, c| delete(c, Scope::Project, a),
            "Removing a project flag",
        ),
        (Action::Delete, Scope::Global) => {
            (|a, c| delete(c, Scope::Global, a), "Removing a global flag")
        }
        (Action::List, Scope::Project) => {
            (|a, c| list(c, Scope::Project, a), "Listing project flags")
        }
        (Action::List, Scope::Global) => (|a, c| list(c, Scope::Global, a), "Listing global flags"),
    }
}

/// `set_project_flag` / `set_feature_flag`: stores the value and says what it replaced (and,
/// for the project, which global value it now overrides).
fn set(ctx: &ToolContext, scope: Scope, args: &Value) -> ToolOutcome {
    let ValueArgs { name, value } = parse_args(args)?;
    flags::check_name(&name)?;
    flags::check_value(&value)?;
    let host = host::require(ctx.host)?;
    let previous = flags::set(host, scope, &name, value.clone())?;
    let mut out = json!({ "name": name, "value": value, "scope": scope.as_str() });
    if let Some(previous) = previous {
        out["previous"] = previous;
    }
    let result = ToolResult::ok(out);
    Ok(match overridden_global(host, scope, &name) {
        Some(global) => result.with_message(format!(
            "Overrides the global value {global} in this workspace."
        )),
        None => result,
    })
}

/// `get_project_flag` (project over global) / `get_feature_flag`.
fn get(ctx: &ToolContext, scope: Scope, args: &Value) -> ToolOutcome {
    let NameArgs { name } = parse_args(args)?;
    flags::check_name(&name)?;
    let resolved = flags::resolve(host::require(ctx.host)?, scope, &name)?;
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
fn list(ctx: &ToolContext, scope: Scope, args: &Value) -> ToolOutcome {
    let NoArgs {} = parse_args(args)?;
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
fn delete(ctx: &ToolContext, scope: Scope, args: &Value) -> ToolOutcome {
    let NameArgs { name } = parse_args(args)?;
    flags::check_name(&name)?;
    let host = host::require(ctx.host)?;
    let previous = flags::remove(host, scope, &name)?;
    let mut out = json!({ "name": name, "removed": previous.is_some() });
    if let Some(previous) = previous {
        out["previous"] = previous;
    }
    let result = ToolResult::ok(out);
    Ok(match overridden_global(host, scope, &name) {
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
