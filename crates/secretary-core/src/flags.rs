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

use crate::error_kind::ErrorKind;
use crate::host::{locked, Area, Host, HostError, HostErrorKind};
use crate::text::kind_of;

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

/// Why a flag could not be read or written. The texts are what agents see.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FlagError {
    #[error("Invalid flag name {0:?}: use {NAME_RULE}")]
    InvalidName(String),
    /// The value is an array or an object (its kind, as `kind_of` words it).
    #[error("Invalid flag value: flags hold a string, number, boolean or null, got {0}")]
    NotScalar(&'static str),
    #[error("Invalid flag value: strings are at most {MAX_STRING_CHARS} characters")]
    TooLong,
    #[error("Too many {0} flags (at most {MAX_FLAGS}); delete some first")]
    TooMany(&'static str),
    /// The scope's file does not parse or was written by a newer version; it is left alone.
    #[error(
        "The {scope} flags file {area}/{FLAGS_FILE} is damaged: {why}. Nothing was changed; \
         fix the JSON or delete the file to start over."
    )]
    Damaged {
        scope: &'static str,
        area: Area,
        why: String,
    },
    /// The host could not reach the scope's file, worded for that scope.
    #[error("{message}")]
    Host { message: String, kind: ErrorKind },
}

impl FlagError {
    /// The machine-readable `error_type` of the tool failure.
    pub fn error_type(&self) -> ErrorKind {
        match self {
            FlagError::InvalidName(_) | FlagError::NotScalar(_) | FlagError::TooLong => {
                ErrorKind::InvalidArguments
            }
            FlagError::TooMany(_) => ErrorKind::Limit,
            FlagError::Damaged { .. } => ErrorKind::StorageDamaged,
            FlagError::Host { kind, .. } => *kind,
        }
    }
}

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
pub fn check_name(name: &str) -> Result<(), FlagError> {
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && name.len() <= 64;
    if valid {
        Ok(())
    } else {
        Err(FlagError::InvalidName(name.to_string()))
    }
}

/// Checks that a value is a JSON scalar (string, number, boolean or null) of reasonable size.
pub fn check_value(value: &Value) -> Result<(), FlagError> {
    match value {
        Value::Array(_) | Value::Object(_) => Err(FlagError::NotScalar(kind_of(value))),
        Value::String(text) if text.chars().count() > MAX_STRING_CHARS => Err(FlagError::TooLong),
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
pub fn load(host: &dyn Host, scope: Scope) -> Result<Flags, FlagError> {
    let area = scope.area();
    let Some(bytes) = host
        .read(area, FLAGS_FILE)
        .map_err(|err| unavailable(scope, err))?
    else {
        return Ok(Flags::new());
    };
    let damaged = |why: String| FlagError::Damaged {
        scope: scope.as_str(),
        area,
        why,
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
pub fn save(host: &dyn Host, scope: Scope, flags: &Flags) -> Result<(), FlagError> {
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
) -> Result<Option<Value>, FlagError> {
    check_name(name)?;
    check_value(&value)?;
    update(host, scope, |flags| {
        if !flags.contains_key(name) && flags.len() >= MAX_FLAGS {
            return Err(FlagError::TooMany(scope.as_str()));
        }
        let previous = flags.insert(name.to_string(), value);
        save(host, scope, flags)?;
        Ok(previous)
    })
}

/// Removes a flag; returns the value it had (`None`: it was not set, nothing was written).
pub fn remove(host: &dyn Host, scope: Scope, name: &str) -> Result<Option<Value>, FlagError> {
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
    change: impl FnOnce(&mut Flags) -> Result<T, FlagError>,
) -> Result<T, FlagError> {
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
pub fn resolve(host: &dyn Host, scope: Scope, name: &str) -> Result<Resolved, FlagError> {
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
pub fn resolve_all(host: &dyn Host, scope: Scope) -> Result<Vec<Resolved>, FlagError> {
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
fn unavailable(scope: Scope, err: HostError) -> FlagError {
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
    FlagError::Host { message, kind }
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
        assert!(err.to_string().contains("got an array"));
        assert!(check_value(&json!({"a": 1})).is_err());
        assert!(check_value(&json!("x".repeat(MAX_STRING_CHARS + 1))).is_err());
    }
}
