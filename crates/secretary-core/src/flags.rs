//! Project and global flags: small named JSON scalars agents keep between dialogs.
//!
//! - Global ("feature") flags live in `flags.json` of the global state area and apply to every
//!   workspace. `*_feature_flag` tools read and write only them: no merging.
//! - Project flags live in `flags.json` of this workspace's state area. Reading a project flag
//!   resolves it: the project value overrides the global one, the global value is the default.
//!
//! Storage: `{"version": 1, "flags": {"name": value}}`, pretty-printed so people can read and fix
//! it. Every change is read-modify-write through [`Host::write_atomic`] (temporary file in the
//! same folder, flushed, renamed over the old file), so a crash mid-write leaves the last good
//! file in place and at most a temporary file (`.flags.json.*`) behind, which is never read.
//! The read-modify-write holds the host's lock of `flags.json` ([`Host::lock`]): processes sharing
//! the state folder (windows, CLI runs, MCP servers) take turns, so no change undoes another.
//! A flags file that does not parse (truncated or edited by hand) is reported with a clear error
//! naming it, and is never overwritten: reads and writes of that scope fail until it is fixed
//! or deleted, so nothing it held is lost silently.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::host::{locked, Area, Host};
use crate::tool::{kind_of, ToolResult};

/// The file of each scope, relative to its area.
pub const FLAGS_FILE: &str = "flags.json";
/// The version written; files of a newer version are refused rather than rewritten.
pub const FORMAT_VERSION: u64 = 1;
/// At most this many flags per scope.
pub const MAX_FLAGS: usize = 500;
/// String values are at most this many characters.
pub const MAX_STRING_CHARS: usize = 2_000;
/// Names: a letter, then letters, digits, `_`, `.`, `-`; 64 characters in all at most.
pub const NAME_RULE: &str = "a letter, then up to 63 letters, digits, `_`, `.` or `-`";

/// Which flags file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Project,
    Global,
}

impl Scope {
    pub fn area(self) -> Area {
        match self {
            Scope::Project => Area::WorkspaceState,
            Scope::Global => Area::GlobalState,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::Global => "global",
        }
    }
}

/// The flags of one scope, by name.
pub type Flags = BTreeMap<String, Value>;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FlagsFile {
    version: u64,
    flags: Flags,
}

/// Checks a flag name against [`NAME_RULE`] (`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`).
pub fn check_name(name: &str) -> Result<(), ToolResult> {
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && name.len() <= 64;
    if valid {
        Ok(())
    } else {
        Err(ToolResult::failure(
            format!("Invalid flag name {name:?}: use {NAME_RULE}"),
            "invalid_arguments",
        ))
    }
}

/// Checks that a value is a JSON scalar (string, number, boolean or null) of reasonable size.
pub fn check_value(value: &Value) -> Result<(), ToolResult> {
    match value {
        Value::Array(_) | Value::Object(_) => Err(ToolResult::failure(
            format!(
                "Invalid flag value: flags hold a string, number, boolean or null, got {}",
                kind_of(value)
            ),
            "invalid_arguments",
        )),
        Value::String(text) if text.chars().count() > MAX_STRING_CHARS => Err(ToolResult::failure(
            format!("Invalid flag value: strings are at most {MAX_STRING_CHARS} characters"),
            "invalid_arguments",
        )),
        _ => Ok(()),
    }
}

/// The JSON Schema of a flag value: a scalar.
pub fn scalar_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": ["string", "number", "boolean", "null"] })
}

/// The JSON Schema of a flag name.
pub fn name_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "pattern": "^[A-Za-z][A-Za-z0-9_.-]{0,63}$",
        "maxLength": 64
    })
}

/// The flags of a scope; empty when its file does not exist yet.
pub fn load(host: &dyn Host, scope: Scope) -> Result<Flags, ToolResult> {
    let area = scope.area();
    let Some(bytes) = host
        .read(area, FLAGS_FILE)
        .map_err(|err| unavailable(scope, err))?
    else {
        return Ok(Flags::new());
    };
    let damaged = |why: String| {
        ToolResult::failure(
            format!(
                "The {} flags file {area}/{FLAGS_FILE} is damaged: {why}. Nothing was changed; \
                 fix the JSON or delete the file to start over.",
                scope.as_str()
            ),
            "storage_damaged",
        )
    };
    let file: FlagsFile = serde_json::from_slice(&bytes).map_err(|err| damaged(err.to_string()))?;
    if file.version > FORMAT_VERSION {
        return Err(damaged(format!(
            "it was written by a newer version (format {}, this one reads {FORMAT_VERSION})",
            file.version
        )));
    }
    if let Some((name, _)) = file
        .flags
        .iter()
        .find(|(name, value)| check_name(name).is_err() || check_value(value).is_err())
    {
        return Err(damaged(format!(
            "flag {name:?} is not a valid name and scalar value"
        )));
    }
    Ok(file.flags)
}

/// Writes a scope's flags atomically.
pub fn save(host: &dyn Host, scope: Scope, flags: &Flags) -> Result<(), ToolResult> {
    let file = FlagsFile {
        version: FORMAT_VERSION,
        flags: flags.clone(),
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    host.write_atomic(scope.area(), FLAGS_FILE, text.as_bytes())
        .map_err(|err| unavailable(scope, err))
}

/// Sets a flag; returns its previous value in that scope.
pub fn set(
    host: &dyn Host,
    scope: Scope,
    name: &str,
    value: Value,
) -> Result<Option<Value>, ToolResult> {
    check_name(name)?;
    check_value(&value)?;
    update(host, scope, |flags| {
        if !flags.contains_key(name) && flags.len() >= MAX_FLAGS {
            return Err(ToolResult::failure(
                format!(
                    "Too many {} flags (at most {MAX_FLAGS}); delete some first",
                    scope.as_str()
                ),
                "limit",
            ));
        }
        let previous = flags.insert(name.to_string(), value);
        save(host, scope, flags)?;
        Ok(previous)
    })
}

/// Removes a flag; returns the value it had (`None`: it was not set, nothing was written).
pub fn remove(host: &dyn Host, scope: Scope, name: &str) -> Result<Option<Value>, ToolResult> {
    check_name(name)?;
    update(host, scope, |flags| {
        let previous = flags.remove(name);
        if previous.is_some() {
            save(host, scope, flags)?;
        }
        Ok(previous)
    })
}

/// Runs a read-modify-write of a scope's flags under the flags file's lock, so concurrent
/// writers (other windows, the MCP server) never lose each other's updates.
fn update<T>(
    host: &dyn Host,
    scope: Scope,
    change: impl FnOnce(&mut Flags) -> Result<T, ToolResult>,
) -> Result<T, ToolResult> {
    locked(
        host,
        scope.area(),
        FLAGS_FILE,
        |err| unavailable(scope, err),
        || change(&mut load(host, scope)?),
    )
}

/// A flag's effective value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub name: String,
    /// `Null` when unset.
    pub value: Value,
    /// `"project"`, `"global"` or `"unset"`.
    pub source: &'static str,
    /// The global value a project value overrides.
    pub global: Option<Value>,
}

impl Resolved {
    pub fn to_json(&self) -> Value {
        let mut out = json!({ "name": self.name, "value": self.value, "source": self.source });
        if let Some(global) = &self.global {
            out["globalValue"] = global.clone();
        }
        out
    }
}

/// A flag as a scope sees it: with [`Scope::Project`], the project value over the global one;
/// with [`Scope::Global`], the global value alone.
pub fn resolve(host: &dyn Host, scope: Scope, name: &str) -> Result<Resolved, ToolResult> {
    check_name(name)?;
    let global = load(host, Scope::Global)?.remove(name);
    let project = match scope {
        Scope::Project => load(host, Scope::Project)?.remove(name),
        Scope::Global => None,
    };
    Ok(match (project, global) {
        (Some(value), global) => Resolved {
            name: name.into(),
            value,
            source: "project",
            global,
        },
        (None, Some(value)) => Resolved {
            name: name.into(),
            value,
            source: "global",
            global: None,
        },
        (None, None) => Resolved {
            name: name.into(),
            value: Value::Null,
            source: "unset",
            global: None,
        },
    })
}

/// Every flag a scope sees, by name: for [`Scope::Project`] the union of both files, project
/// values winning.
pub fn resolve_all(host: &dyn Host, scope: Scope) -> Result<Vec<Resolved>, ToolResult> {
    let global = load(host, Scope::Global)?;
    let project = match scope {
        Scope::Project => load(host, Scope::Project)?,
        Scope::Global => Flags::new(),
    };
    let mut out: BTreeMap<String, Resolved> = global
        .into_iter()
        .map(|(name, value)| {
            let resolved = Resolved {
                name: name.clone(),
                value,
                source: "global",
                global: None,
            };
            (name, resolved)
        })
        .collect();
    for (name, value) in project {
        let global = out.remove(&name).map(|r| r.value);
        out.insert(
            name.clone(),
            Resolved {
                name,
                value,
                source: "project",
                global,
            },
        );
    }
    Ok(out.into_values().collect())
}

/// A host error while reaching a scope's file, worded for that scope.
fn unavailable(scope: Scope, err: crate::host::HostError) -> ToolResult {
    use crate::host::HostErrorKind;
    let kind = err.error_type();
    let message = match (scope, err.kind) {
        (Scope::Project, HostErrorKind::Unavailable) => format!(
            "Project flags need a workspace: {}. Open a folder, or use the global *_feature_flag tools.",
            err.message
        ),
        (_, HostErrorKind::Unavailable) => err.message,
        _ => format!(
            "Could not access the {} flags ({}/{FLAGS_FILE}): {}",
            scope.as_str(),
            scope.area(),
            err.message
        ),
    };
    ToolResult::failure(message, kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rule() {
        for ok in [
            "a",
            "darkMode",
            "ui.theme-v2_x",
            &format!("a{}", "b".repeat(63)),
        ] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "1a",
            "_a",
            "a b",
            "a/b",
            "é",
            &format!("a{}", "b".repeat(64)),
            "a..b/../c",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_are_scalars() {
        for ok in [json!(null), json!(true), json!(3.5), json!("x")] {
            assert!(check_value(&ok).is_ok());
        }
        let err = check_value(&json!([1])).unwrap_err();
        assert!(err.error_text().unwrap().contains("got an array"));
        assert!(check_value(&json!({"a": 1})).is_err());
        assert!(check_value(&json!("x".repeat(MAX_STRING_CHARS + 1))).is_err());
    }
}

/// The bodies of the eight flag tools. A project tool and its global twin differ only in their
/// [`Scope`] (and spec text), so each tool file keeps its spec and arguments and calls these.
pub mod run {
    use serde_json::{json, Value};

    use super::{Resolved, Scope};
    use crate::host;
    use crate::tool::{ToolContext, ToolResult};

    /// `set_project_flag` / `set_feature_flag`: stores the value and says what it replaced (and,
    /// for the project, which global value it now overrides).
    pub fn set(ctx: &ToolContext, scope: Scope, name: &str, value: Value) -> ToolResult {
        if let Err(err) = super::check_name(name).and_then(|()| super::check_value(&value)) {
            return err;
        }
        let host = match host::require(ctx.host) {
            Ok(host) => host,
            Err(err) => return err,
        };
        let previous = match super::set(host, scope, name, value.clone()) {
            Ok(previous) => previous,
            Err(err) => return err,
        };
        let scope_name = match scope {
            Scope::Project => "project",
            Scope::Global => "global",
        };
        let mut out = json!({ "name": name, "value": value, "scope": scope_name });
        if let Some(previous) = previous {
            out["previous"] = previous;
        }
        let result = ToolResult::ok(out);
        match overridden_global(host, scope, name) {
            Some(global) => result.with_message(format!(
                "Overrides the global value {global} in this workspace."
            )),
            None => result,
        }
    }

    /// `get_project_flag` (project over global) / `get_feature_flag`.
    pub fn get(ctx: &ToolContext, scope: Scope, name: &str) -> ToolResult {
        if let Err(err) = super::check_name(name) {
            return err;
        }
        let resolved =
            match host::require(ctx.host).and_then(|host| super::resolve(host, scope, name)) {
                Ok(resolved) => resolved,
                Err(err) => return err,
            };
        let unset = resolved.source == "unset";
        let result = ToolResult::ok(resolved.to_json());
        if !unset {
            return result;
        }
        result.with_message(match scope {
            Scope::Project => format!("Flag {name} is not set for this project or globally."),
            Scope::Global => format!("Global flag {name} is not set."),
        })
    }

    /// `list_project_flags` (every flag in effect here) / `list_feature_flags`.
    pub fn list(ctx: &ToolContext, scope: Scope) -> ToolResult {
        let all = match host::require(ctx.host).and_then(|host| super::resolve_all(host, scope)) {
            Ok(all) => all,
            Err(err) => return err,
        };
        let total = all.len();
        let flags: Vec<Value> = all.iter().map(Resolved::to_json).collect();
        let result = ToolResult::ok(json!({ "flags": flags, "total": total }));
        if total > 0 {
            return result;
        }
        result.with_message(match scope {
            Scope::Project => "No flags are set for this project or globally.",
            Scope::Global => "No global flags are set.",
        })
    }

    /// `delete_project_flag` (the global value, if any, applies again) / `delete_feature_flag`.
    pub fn delete(ctx: &ToolContext, scope: Scope, name: &str) -> ToolResult {
        if let Err(err) = super::check_name(name) {
            return err;
        }
        let host = match host::require(ctx.host) {
            Ok(host) => host,
            Err(err) => return err,
        };
        let previous = match super::remove(host, scope, name) {
            Ok(previous) => previous,
            Err(err) => return err,
        };
        let mut out = json!({ "name": name, "removed": previous.is_some() });
        if let Some(previous) = previous {
            out["previous"] = previous;
        }
        let result = ToolResult::ok(out);
        match overridden_global(host, scope, name) {
            Some(global) => {
                result.with_message(format!("The global value {global} applies again."))
            }
            None => result,
        }
    }

    /// For a project flag: the global value of the same name, if set.
    fn overridden_global(host: &dyn host::Host, scope: Scope, name: &str) -> Option<Value> {
        match scope {
            Scope::Project => super::load(host, Scope::Global)
                .ok()
                .and_then(|mut all| all.remove(name)),
            Scope::Global => None,
        }
    }
}
