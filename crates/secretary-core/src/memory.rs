//! Memory: the agent's own notes, kept across dialogs and workspaces.
//!
//! Notes are files in the `memory/` folder of the global state area (VS Code: the extension's
//! `globalStorageUri`; CLI and MCP: `<state dir>/global/memory/`). The core decides every rule here;
//! the host only reads, writes (atomically), lists, stats and removes files.
//!
//! Names: a note is named by a plain file name, never a path. Names that could reach another file
//! or misbehave on some file system are **refused** with an error saying why, never silently
//! rewritten (a rewritten name would make "read what I saved" surprising):
//!
//! - empty (or only spaces), or starting or ending with a space (refused, not trimmed);
//! - folders: `/` or `\` anywhere (so `../x`, `/etc/passwd`, `C:\x`, `a/b`);
//! - control characters (NUL included);
//! - dot-files: a leading `.` (so `.`, `..`, `.hidden`, and the host's `.name.tmp` files);
//! - characters other than letters, digits, spaces, `_`, `-`, `.` (so `:`, `*`, `?`, `<`, `|`...);
//! - a trailing `.` or space (Windows drops them);
//! - Windows device names, in any case and with any extension (`CON`, `PRN`, `AUX`, `NUL`,
//!   `COM0`-`COM9`, `LPT0`-`LPT9`, `COM¹`-`COM³`, `LPT¹`-`LPT³`, `con.md`);
//! - more than [`MAX_NAME_BYTES`] bytes of UTF-8 once `.md` is added.
//!
//! A name without an extension (a final `.` and 1-8 letters or digits, at least one letter) gets
//! `.md`: `project notes` is saved as `project notes.md`, and `project notes.md` is the same note.
//! Names are case-sensitive, but a save that differs only in case from an existing note is refused
//! (on Windows and macOS both names would be the same file).
//!
//! Limits: a note holds at most [`MAX_NOTE_BYTES`] bytes of UTF-8, and there are at most
//! [`MAX_NOTES`] notes; a save past either is refused and changes nothing.

use serde_json::{json, Value};

use crate::error_kind::ErrorKind;
use crate::host::{locked, Area, Host, HostError};
use crate::text::iso8601;

/// The folder of the notes, in [`AREA`].
pub const DIR: &str = "memory";
/// Where notes live: shared by every workspace.
pub const AREA: Area = Area::GlobalState;
/// A note holds at most this many bytes (100 KiB).
pub const MAX_NOTE_BYTES: usize = 100 * 1024;
/// At most this many notes.
pub const MAX_NOTES: usize = 500;
/// A name (with its extension) is at most this many bytes of UTF-8.
pub const MAX_NAME_BYTES: usize = 128;
/// The extension added to names without one.
pub const DEFAULT_EXTENSION: &str = ".md";
/// The rule, as errors state it.
pub const NAME_RULE: &str = "a plain file name of letters, digits, spaces, `_`, `-` and `.`, \
                             not starting with `.` (no folders)";

const RESERVED: [&str; 4] = ["CON", "PRN", "AUX", "NUL"];

/// Why a note could not be saved, read, listed or deleted. The texts are what agents see.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoryError {
    #[error("Invalid memory name {name:?}: {why}. Use {NAME_RULE}.")]
    InvalidName { name: String, why: String },
    #[error(
        "Note too large: {0} bytes, at most {MAX_NOTE_BYTES} bytes (100 KiB) of UTF-8. Nothing was saved; \
         split it into several notes or shorten it."
    )]
    TooLarge(usize),
    #[error(
        "A note named {0:?} already exists: names that differ only in case would be the same file \
         on Windows and macOS. Nothing was saved; use {0:?} to replace it, or another name."
    )]
    CaseConflict(String),
    #[error(
        "Too many notes: at most {MAX_NOTES}. Nothing was saved; delete notes you no longer need \
         (with the user's consent) or add to an existing one."
    )]
    TooMany,
    /// `similar`: a saved note whose name differs only in case.
    #[error("Memory not found: {file}")]
    NotFound {
        file: String,
        similar: Option<String>,
    },
    /// The host could not reach the memory folder (`what`: "save \"x.md\"", "list the notes").
    #[error("Could not {what} (memory folder {AREA}/{DIR}): {message}")]
    Host {
        what: String,
        message: String,
        kind: ErrorKind,
    },
}

impl MemoryError {
    /// The machine-readable `error_type` of the tool failure.
    pub fn error_type(&self) -> ErrorKind {
        match self {
            MemoryError::InvalidName { .. } => ErrorKind::InvalidArguments,
            MemoryError::TooLarge(_) | MemoryError::TooMany => ErrorKind::Limit,
            MemoryError::CaseConflict(_) => ErrorKind::Conflict,
            MemoryError::NotFound { .. } => ErrorKind::NotFound,
            MemoryError::Host { kind, .. } => *kind,
        }
    }

    /// What the agent should do next, when there is more to say than the error.
    pub fn instruction(&self) -> Option<String> {
        match self {
            MemoryError::NotFound {
                similar: Some(other),
                ..
            } => Some(format!("Did you mean {other:?}? Names are case-sensitive.")),
            MemoryError::NotFound { similar: None, .. } => {
                Some("Call memory with {\"command\": \"list\"} to see the saved notes.".into())
            }
            _ => None,
        }
    }
}

fn invalid(name: &str, why: &str) -> MemoryError {
    MemoryError::InvalidName {
        name: name.to_string(),
        why: why.to_string(),
    }
}

/// The file name a memory name stands for, or why it is refused (see the module's rules).
pub fn file_name(name: &str) -> Result<String, MemoryError> {
    if name.trim_matches(' ').is_empty() {
        return Err(invalid(name, "it is empty"));
    }
    // Refused rather than trimmed: a note saved as " x" must not quietly become "x".
    if name.starts_with(' ') {
        return Err(invalid(name, "it starts with a space"));
    }
    if name.ends_with(' ') {
        return Err(invalid(name, "it ends with a space (Windows drops it)"));
    }
    let trimmed = name;
    if trimmed.chars().any(char::is_control) {
        return Err(invalid(name, "it contains a control character"));
    }
    if trimmed.contains('/') || trimmed.contains('\\') {
        return Err(invalid(
            name,
            "it is a path; notes are plain names in the memory folder (no `/`, `\\`, `..` or absolute paths)",
        ));
    }
    if trimmed.starts_with('.') {
        return Err(invalid(
            name,
            "names starting with `.` (dot-files) are not allowed",
        ));
    }
    if let Some(bad) = trimmed
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.')))
    {
        return Err(invalid(
            name,
            &format!("the character {bad:?} is not allowed"),
        ));
    }
    if trimmed.ends_with('.') {
        return Err(invalid(name, "it ends with `.`"));
    }
    let stem = trimmed.split('.').next().unwrap_or_default().trim_end();
    let upper = stem.to_ascii_uppercase();
    // `COM` and `LPT` take a digit or a superscript one, two or three (`COM¹` is a port too).
    let port = upper
        .strip_prefix("COM")
        .or_else(|| upper.strip_prefix("LPT"))
        .is_some_and(|rest| {
            let mut chars = rest.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_digit() || matches!(c, '¹' | '²' | '³'))
                && chars.next().is_none()
        });
    let device = RESERVED.contains(&upper.as_str()) || port;
    if device {
        return Err(invalid(
            name,
            &format!("{stem:?} is a reserved device name on Windows"),
        ));
    }
    let file = if has_extension(trimmed) {
        trimmed.to_string()
    } else {
        format!("{trimmed}{DEFAULT_EXTENSION}")
    };
    if file.len() > MAX_NAME_BYTES {
        return Err(invalid(
            name,
            &format!(
                "it is too long ({} bytes; at most {MAX_NAME_BYTES} bytes of UTF-8 with the extension)",
                file.len()
            ),
        ));
    }
    Ok(file)
}

/// Whether a name ends in an extension: `.` then 1-8 letters or digits, at least one a letter
/// (`notes.md`, `log.txt`; not `v1.2`).
fn has_extension(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=8).contains(&ext.chars().count())
            && ext.chars().all(char::is_alphanumeric)
            && ext.chars().any(char::is_alphabetic)
    })
}

fn path_of(file: &str) -> String {
    format!("{DIR}/{file}")
}

fn io(err: HostError, what: &str) -> MemoryError {
    MemoryError::Host {
        what: what.to_string(),
        kind: err.error_type(),
        message: err.message,
    }
}

/// A host call on one note's file (`op` gets its path); a failure says what was done (`verb`) to
/// which note.
fn note_io<T>(
    file: &str,
    verb: &str,
    op: impl FnOnce(&str) -> Result<T, HostError>,
) -> Result<T, MemoryError> {
    op(&path_of(file)).map_err(|err| io(err, &format!("{verb} {file:?}")))
}

/// Every note's file name, sorted. Files that are not valid note names (the host's temporary
/// files, anything put there by hand) are left out.
pub fn names(host: &dyn Host) -> Result<Vec<String>, MemoryError> {
    let mut names: Vec<String> = host
        .list(AREA, DIR, false)
        .map_err(|err| io(err, "list the notes"))?
        .into_iter()
        .filter(|name| file_name(name).as_deref() == Ok(name.as_str()))
        .collect();
    names.sort();
    Ok(names)
}

/// Saves (creates or replaces) a note.
pub fn save(host: &dyn Host, name: &str, content: &str) -> Result<Value, MemoryError> {
    let file = file_name(name)?;
    if content.len() > MAX_NOTE_BYTES {
        return Err(MemoryError::TooLarge(content.len()));
    }
    // The count and case checks and the write are one step for every process sharing the folder.
    locked(
        host,
        AREA,
        DIR,
        |err| io(err, &format!("save {file:?}")),
        || save_locked(host, &file, content),
    )
}

fn save_locked(host: &dyn Host, file: &str, content: &str) -> Result<Value, MemoryError> {
    let file = file.to_string();
    let existing = names(host)?;
    let replaced = existing.contains(&file);
    if !replaced {
        if let Some(other) = existing
            .iter()
            .find(|n| n.to_lowercase() == file.to_lowercase())
        {
            return Err(MemoryError::CaseConflict(other.clone()));
        }
        if existing.len() >= MAX_NOTES {
            return Err(MemoryError::TooMany);
        }
    }
    note_io(&file, "save", |path| {
        host.write_atomic(AREA, path, content.as_bytes())
    })?;
    Ok(json!({ "path": file, "bytes": content.len(), "created": !replaced }))
}

/// Reads a note.
pub fn read(host: &dyn Host, name: &str) -> Result<Value, MemoryError> {
    let file = file_name(name)?;
    match note_io(&file, "read", |path| host.read(AREA, path))? {
        Some(bytes) => Ok(json!({
            "path": file,
            "content": String::from_utf8_lossy(&bytes),
            "bytes": bytes.len(),
        })),
        None => Err(not_found(host, &file)),
    }
}

/// Deletes a note. The caller has checked the user's consent.
pub fn delete(host: &dyn Host, name: &str) -> Result<Value, MemoryError> {
    let file = file_name(name)?;
    if note_io(&file, "delete", |path| host.remove(AREA, path))? {
        Ok(json!({ "path": file, "deleted": true }))
    } else {
        Err(not_found(host, &file))
    }
}

/// Every note with its size and modification time where the host tells them.
pub fn list(host: &dyn Host) -> Result<Value, MemoryError> {
    let notes: Vec<Value> = names(host)?
        .into_iter()
        .map(|file| {
            let mut entry = json!({ "path": file });
            if let Some(info) = host.stat(AREA, &path_of(&file)) {
                entry["bytes"] = json!(info.size);
                if let Some(ms) = info.modified_ms {
                    entry["modified"] = json!(iso8601(ms));
                }
            }
            entry
        })
        .collect();
    Ok(json!({ "total": notes.len(), "notes": notes, "maxNotes": MAX_NOTES }))
}

fn not_found(host: &dyn Host, file: &str) -> MemoryError {
    let similar = names(host).ok().and_then(|names| {
        names
            .into_iter()
            .find(|n| n.to_lowercase() == file.to_lowercase())
    });
    MemoryError::NotFound {
        file: file.to_string(),
        similar,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_added_only_when_missing() {
        assert_eq!(file_name("notes").unwrap(), "notes.md");
        assert_eq!(file_name("notes.md").unwrap(), "notes.md");
        assert_eq!(file_name("log.txt").unwrap(), "log.txt");
        assert_eq!(file_name("release v1.2").unwrap(), "release v1.2.md");
        assert_eq!(file_name("spaced name").unwrap(), "spaced name.md");
        assert_eq!(file_name("Über Notizen").unwrap(), "Über Notizen.md");
    }
}
