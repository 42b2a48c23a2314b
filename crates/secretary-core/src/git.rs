//! Changed files of a git repository (`get_changed_files`): the host hands over the raw output of
//! `git status --porcelain=v1 -z --untracked-files=all` ([`crate::host::Host::git_status`]); the
//! core checks where the repository may be, parses the output and formats the groups.
//!
//! Porcelain v1 with `-z`: entries `XY <path>\0`, where `X` is the index (staged) state and `Y`
//! the work tree (unstaged) state; a rename or copy (`R`/`C`) is followed by `<original path>\0`;
//! `??` is untracked, `!!` ignored. Paths are relative to the repository root and never quoted.

use serde::Serialize;
use serde_json::{json, Value};

use crate::error_kind::ErrorKind;
use crate::host::{check_rel_path, Area, Host};
use crate::text::percent_decode;

/// One changed file in one group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub path: String,
    /// `modified`, `added`, `deleted`, `renamed`, `copied`, `type changed`, `unmerged`, `untracked`.
    pub status: &'static str,
    /// The original path of a rename or copy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// The changes of a repository, by group.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Status {
    pub staged: Vec<Change>,
    pub unstaged: Vec<Change>,
    pub untracked: Vec<Change>,
}

/// The most files an answer lists, all groups together: 100,000 untracked files made a 17 MB
/// answer (issue 27). The rest is counted ("and N more").
pub const MAX_LISTED_FILES: usize = 1_000;
/// The most bytes of paths an answer lists, all groups together.
pub const MAX_LISTED_BYTES: usize = 256 * 1024;

/// How many files of each group (staged, unstaged, untracked) an answer leaves out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Omitted {
    pub staged: usize,
    pub unstaged: usize,
    pub untracked: usize,
}

/// Keeps the groups `filter` shows (emptying the others) and cuts them to [`MAX_LISTED_FILES`] files
/// and [`MAX_LISTED_BYTES`] bytes of paths in all, in order; returns how many each group lost.
pub fn cap(status: &mut Status, filter: Filter) -> Omitted {
    let mut files = 0;
    let mut bytes = 0;
    let mut cut = |group: &mut Vec<Change>, which: Filter| -> usize {
        if !(filter == Filter::All || filter == which) {
            group.clear();
            return 0;
        }
        let keep = group
            .iter()
            .take_while(|change| {
                let size = change.path.len() + change.from.as_ref().map_or(0, String::len);
                if files < MAX_LISTED_FILES && bytes + size <= MAX_LISTED_BYTES {
                    files += 1;
                    bytes += size;
                    true
                } else {
                    files = MAX_LISTED_FILES;
                    false
                }
            })
            .count();
        let lost = group.len() - keep;
        group.truncate(keep);
        lost
    };
    Omitted {
        staged: cut(&mut status.staged, Filter::Staged),
        unstaged: cut(&mut status.unstaged, Filter::Unstaged),
        untracked: cut(&mut status.untracked, Filter::Untracked),
    }
}

/// Which groups to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    All,
    Staged,
    Unstaged,
    Untracked,
}

fn status_word(code: u8) -> &'static str {
    match code {
        b'M' => "modified",
        b'A' => "added",
        b'D' => "deleted",
        b'R' => "renamed",
        b'C' => "copied",
        b'T' => "type changed",
        b'U' => "unmerged",
        _ => "changed",
    }
}

/// Parses porcelain v1 `-z` output. Unknown or malformed entries are skipped, never guessed.
pub fn parse(porcelain: &[u8]) -> Status {
    let mut status = Status::default();
    let mut entries = porcelain
        .split(|&b| b == 0)
        .filter(|entry| !entry.is_empty());
    while let Some(entry) = entries.next() {
        if entry.len() < 4 || entry[2] != b' ' {
            continue;
        }
        let (x, y) = (entry[0], entry[1]);
        let path = String::from_utf8_lossy(&entry[3..]).into_owned();
        let from = if matches!(x, b'R' | b'C') || matches!(y, b'R' | b'C') {
            entries
                .next()
                .map(|orig| String::from_utf8_lossy(orig).into_owned())
        } else {
            None
        };
        match (x, y) {
            (b'?', b'?') => status.untracked.push(Change {
                path,
                status: "untracked",
                from: None,
            }),
            (b'!', b'!') => {}
            // Merge conflicts (`DD`, `AU`, `UD`, `UA`, `DU`, `AA`, `UU`) need work in the tree.
            (b'U', _) | (_, b'U') | (b'D', b'D') | (b'A', b'A') => status.unstaged.push(Change {
                path,
                status: "unmerged",
                from: None,
            }),
            _ => {
                if x != b' ' {
                    status.staged.push(Change {
                        path: path.clone(),
                        status: status_word(x),
                        from: from.clone(),
                    });
                }
                if y != b' ' {
                    status.unstaged.push(Change {
                        path,
                        status: status_word(y),
                        from,
                    });
                }
            }
        }
    }
    for group in [
        &mut status.staged,
        &mut status.unstaged,
        &mut status.untracked,
    ] {
        group.sort_by(|a, b| a.path.cmp(&b.path));
    }
    status
}

/// The groups as text: "Staged files:", "Unstaged changes:", "Untracked files:" with one
/// `- <status>: <path>` line per file, or "No changed files found.".
pub fn format(status: &Status, filter: Filter) -> String {
    format_cut(status, filter, Omitted::default())
}

/// [`format`] of groups cut by [`cap`]: each cut group ends with "- ... and N more".
pub fn format_cut(status: &Status, filter: Filter, omitted: Omitted) -> String {
    let groups = [
        (
            "Staged files",
            &status.staged,
            Filter::Staged,
            omitted.staged,
        ),
        (
            "Unstaged changes",
            &status.unstaged,
            Filter::Unstaged,
            omitted.unstaged,
        ),
        (
            "Untracked files",
            &status.untracked,
            Filter::Untracked,
            omitted.untracked,
        ),
    ];
    let mut out = String::new();
    for (title, changes, which, more) in groups {
        if (changes.is_empty() && more == 0) || !(filter == Filter::All || filter == which) {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(title);
        out.push_str(":\n");
        for change in changes {
            match &change.from {
                Some(from) => out.push_str(&format!(
                    "- {}: {} (from {from})\n",
                    change.status, change.path
                )),
                None => out.push_str(&format!("- {}: {}\n", change.status, change.path)),
            }
        }
        if more > 0 {
            out.push_str(&format!("- ... and {more} more\n"));
        }
    }
    if out.is_empty() {
        "No changed files found.".into()
    } else {
        out.trim_end().to_string()
    }
}

/// Why the changed files could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// `repositoryPath` points outside the workspace folder (or cannot be checked).
    #[error("repositoryPath {given:?} refused: it must lie inside the workspace folder ({why})")]
    Outside { given: String, why: String },
    /// The host could not give the status; `kind` is the host error's kind.
    #[error("Could not read the git status of {place}: {message}")]
    Status {
        place: String,
        message: String,
        kind: ErrorKind,
    },
}

impl GitError {
    /// The machine-readable `error_type` of the tool failure.
    pub fn error_type(&self) -> ErrorKind {
        match self {
            GitError::Outside { .. } => ErrorKind::PathRefused,
            GitError::Status { kind, .. } => *kind,
        }
    }
}

fn outside(given: &str, why: &str) -> GitError {
    GitError::Outside {
        given: given.to_string(),
        why: why.to_string(),
    }
}

fn is_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with('/')
        || (bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic())
}

/// Where `repositoryPath` points, relative to the workspace folder (`""`: the folder itself).
/// Relative paths must stay inside (no `..`); absolute paths and `file://` URIs must lie under the
/// workspace folder the host reports; without one, only relative paths are accepted.
pub fn repository(host: &dyn Host, given: Option<&str>) -> Result<String, GitError> {
    let Some(raw) = given.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(String::new());
    };
    let mut path = match raw.strip_prefix("file://") {
        Some(rest) => {
            let decoded = percent_decode(rest);
            // file:///c:/x → c:/x
            match decoded.strip_prefix('/') {
                Some(tail) if is_absolute(tail) && !tail.starts_with('/') => tail.to_string(),
                _ => decoded,
            }
        }
        None => raw.to_string(),
    };
    if is_absolute(&path) {
        path = path.replace('\\', "/");
        let Some(root) = host.root(Area::Workspace) else {
            return Err(outside(
                raw,
                "this host does not tell its folder; pass a path relative to it",
            ));
        };
        let root = root.replace('\\', "/").trim_end_matches('/').to_string();
        let windows = root.as_bytes().get(1) == Some(&b':');
        let trimmed = path.trim_end_matches('/');
        // Windows compares drive and folders without case (ASCII only: byte offsets stay put).
        let (p, r) = if windows {
            (trimmed.to_ascii_lowercase(), root.to_ascii_lowercase())
        } else {
            (trimmed.to_string(), root.clone())
        };
        let rest = if p == r {
            ""
        } else if p.starts_with(&format!("{r}/")) {
            &trimmed[r.len() + 1..]
        } else {
            return Err(outside(raw, &root));
        };
        path = rest.to_string();
    }
    let rel = path.trim_end_matches('/');
    let rel = if rel == "." { "" } else { rel };
    check_rel_path(rel, true).map_err(|err| outside(raw, &err.message))?;
    Ok(rel.to_string())
}

/// The changes of a repository of the workspace, formatted, as a tool's result.
pub fn changed_files(
    host: &dyn Host,
    repository_path: Option<&str>,
    filter: Filter,
) -> Result<Value, GitError> {
    let repo = repository(host, repository_path)?;
    let porcelain = host.git_status(&repo).map_err(|err| {
        let kind = err.error_type();
        let place = if repo.is_empty() {
            "the workspace folder".to_string()
        } else {
            format!("{repo:?} of the workspace")
        };
        GitError::Status {
            place,
            message: err.message.trim().to_string(),
            kind,
        }
    })?;
    let mut status = parse(&porcelain);
    let omitted = cap(&mut status, filter);
    let keep = |group: &Vec<Change>, which: Filter| {
        if filter == Filter::All || filter == which {
            serde_json::to_value(group).unwrap_or(Value::Null)
        } else {
            Value::Null
        }
    };
    let mut out = json!({
        "repositoryPath": if repo.is_empty() { ".".to_string() } else { repo },
        "text": format_cut(&status, filter, omitted),
    });
    if omitted != Omitted::default() {
        // The answer is cut (see `MAX_LISTED_FILES`): how many files each group did not list.
        out["omitted"] = json!({
            "staged": omitted.staged,
            "unstaged": omitted.unstaged,
            "untracked": omitted.untracked,
        });
    }
    for (name, group, which) in [
        ("staged", &status.staged, Filter::Staged),
        ("unstaged", &status.unstaged, Filter::Unstaged),
        ("untracked", &status.untracked, Filter::Untracked),
    ] {
        let value = keep(group, which);
        if !value.is_null() {
            out[name] = value;
        }
    }
    Ok(out)
}
