//! Content retrieval (`get_content`): the workspace's instructions, prompts and docs, by category
//! and pattern, aggregated into one capped markdown text.
//!
//! Categories come from the setting [`SETTING`] (`name → {folder, patterns}`), by default
//! [`default_categories`]. Expressions:
//!
//! ```text
//! expression := item ("," item)*            lists are aggregated in order, each document once
//! item       := category ["/" patterns]     "docs" or "docs/api" or "lang/python+rust"
//! patterns   := pattern ("+" pattern)*      any of the patterns
//! ```
//!
//! A user pattern selects among the files the category's own patterns match (paths relative to
//! the category folder). With a wildcard (`*`, `?`, `**`) it is a glob, matched against the file
//! name, or against the relative path when it contains `/`. Without one it is a name: `python`
//! matches `python.md`, `python.instructions.md` and everything under a `python/` folder.
//! Patterns that could leave the folder (`..`, absolute, `\`) are refused before any I/O.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error_kind::ErrorKind;
use crate::glob;
use crate::host::{check_rel_path, join, Area, Host, HostError, HostErrorKind};

/// The setting that configures the categories.
pub const SETTING: &str = "copilotChatSecretary.content.categories";
/// The markdown returned is cut at this many characters.
pub const MAX_CHARS: usize = 20_000;
/// At most this many items in one expression.
pub const MAX_ITEMS: usize = 20;
/// At most this many documents are read for one call.
pub const MAX_DOCUMENTS: usize = 200;

/// One category: a folder of the workspace and the globs (relative to it) of its documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Category {
    pub folder: String,
    #[serde(deserialize_with = "one_or_many")]
    pub patterns: Vec<String>,
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(de)? {
        OneOrMany::One(one) => vec![one],
        OneOrMany::Many(many) => many,
    })
}

/// The categories when the setting is not set: `instructions` (`.github/instructions/*.md`),
/// `prompts` (`.github/prompts/*.md`), `docs` (`docs/**/*.md`).
pub fn default_categories() -> BTreeMap<String, Category> {
    [
        ("instructions", ".github/instructions", "*.md"),
        ("prompts", ".github/prompts", "*.md"),
        ("docs", "docs", "**/*.md"),
    ]
    .into_iter()
    .map(|(name, folder, pattern)| {
        (
            name.to_string(),
            Category {
                folder: folder.into(),
                patterns: vec![pattern.into()],
            },
        )
    })
    .collect()
}

/// The default as the setting's JSON (`package.json` declares the same; a test checks).
pub fn default_setting() -> Value {
    serde_json::to_value(default_categories()).unwrap_or(Value::Null)
}

/// Why documents could not be retrieved. The texts are what agents see.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    #[error("The setting {SETTING} is invalid: {0}")]
    InvalidSetting(String),
    /// The expression does not parse (the text says where).
    #[error("{0}")]
    InvalidExpression(String),
    #[error(
        "Unknown content category {category:?}. Known categories: {known} (setting {SETTING})."
    )]
    UnknownCategory { category: String, known: String },
    /// The host has no workspace folder (an empty window).
    #[error("{tool} needs an open workspace folder: {message}")]
    NoWorkspace {
        tool: &'static str,
        message: String,
        kind: ErrorKind,
    },
    #[error("{0}")]
    Host(HostError),
}

impl ContentError {
    /// The machine-readable `error_type` of the tool failure.
    pub fn error_type(&self) -> ErrorKind {
        match self {
            ContentError::InvalidSetting(_) => ErrorKind::InvalidSetting,
            ContentError::InvalidExpression(_) => ErrorKind::InvalidArguments,
            ContentError::UnknownCategory { .. } => ErrorKind::NotFound,
            ContentError::NoWorkspace { kind, .. } => *kind,
            ContentError::Host(err) => err.error_type(),
        }
    }
}

/// What an expression retrieved.
#[derive(Debug, Clone, PartialEq)]
pub enum Retrieved {
    /// No document matched: `categories` describes the known ones for the agent.
    Nothing {
        expression: String,
        unmatched: Vec<String>,
        categories: String,
    },
    /// The documents' markdown (`content`), what each contributed, and what was left out.
    Documents {
        expression: String,
        content: String,
        documents: Vec<Value>,
        omitted: Vec<String>,
        unmatched: Vec<String>,
        truncated: bool,
    },
}

/// The categories the host's setting configures (the defaults when unset or null).
pub fn categories(host: &dyn Host) -> Result<BTreeMap<String, Category>, ContentError> {
    let value = match host.setting(SETTING) {
        None | Some(Value::Null) => return Ok(default_categories()),
        Some(value) => value,
    };
    let bad = ContentError::InvalidSetting;
    let Value::Object(map) = value else {
        return Err(bad(
            "it must be an object of `name: {\"folder\": ..., \"patterns\": [...]}`".into(),
        ));
    };
    let mut out = BTreeMap::new();
    for (name, entry) in map {
        check_category_name(&name).map_err(bad)?;
        let category: Category = serde_json::from_value(entry)
            .map_err(|err| bad(format!("category {name:?}: {err}")))?;
        check_rel_path(&category.folder, true)
            .map_err(|err| bad(format!("category {name:?}: folder {}", err.message)))?;
        if category.patterns.is_empty() {
            return Err(bad(format!("category {name:?} has no patterns")));
        }
        for pattern in &category.patterns {
            check_pattern(pattern).map_err(|why| bad(format!("category {name:?}: {why}")))?;
        }
        out.insert(name, category);
    }
    Ok(out)
}

/// One item of an expression: a category and the patterns that select in it (none: all of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub category: String,
    pub patterns: Vec<String>,
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.category)?;
        if !self.patterns.is_empty() {
            write!(f, "/{}", self.patterns.join("+"))?;
        }
        Ok(())
    }
}

/// Parses an expression (see the module documentation). Errors are sentences for agents.
pub fn parse(expression: &str) -> Result<Vec<Item>, String> {
    let expression = expression.trim();
    if expression.is_empty() {
        return Err(
            "Expression is empty: give a category such as `instructions` or `docs/api`".into(),
        );
    }
    let mut items = Vec::new();
    for raw in expression.split(',') {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(format!(
                "Expression {expression:?} has an empty item: remove the extra comma"
            ));
        }
        let (category, rest) = match raw.split_once('/') {
            Some((category, rest)) => (category.trim(), Some(rest)),
            None => (raw, None),
        };
        if category.is_empty() {
            return Err(format!(
                "Item {raw:?} has no category before `/` (patterns are relative to a category folder; \
                 absolute paths are not allowed)"
            ));
        }
        check_category_name(category)?;
        let mut patterns = Vec::new();
        if let Some(rest) = rest.filter(|rest| !rest.trim().is_empty()) {
            for pattern in rest.split('+') {
                let pattern = pattern.trim();
                if pattern.is_empty() {
                    return Err(format!("Item {raw:?} has an empty pattern around `+`"));
                }
                check_pattern(pattern)?;
                patterns.push(pattern.to_string());
            }
        }
        items.push(Item {
            category: category.to_string(),
            patterns,
        });
    }
    if items.len() > MAX_ITEMS {
        return Err(format!(
            "Expression has {} items; at most {MAX_ITEMS}",
            items.len()
        ));
    }
    Ok(items)
}

/// The expression of `get_content(category, pattern)`: `category/pattern`, or `category`.
pub fn expression_of(category: &str, pattern: Option<&str>) -> String {
    match pattern.map(str::trim).filter(|p| !p.is_empty()) {
        Some(pattern) => format!("{}/{pattern}", category.trim()),
        None => category.trim().to_string(),
    }
}

fn check_category_name(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if valid {
        Ok(())
    } else {
        Err(format!(
            "Invalid category name {name:?}: use letters, digits, `_`, `-` or `.`"
        ))
    }
}

/// A pattern must stay inside its category folder.
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    let escapes = |why: &str| {
        Err(format!(
            "Pattern {pattern:?} escapes the category folder ({why}): patterns are relative to it"
        ))
    };
    if pattern.starts_with('/') || pattern.starts_with('~') {
        return escapes("absolute path");
    }
    let bytes = pattern.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        return escapes("drive letter");
    }
    if pattern.contains('\\') {
        return escapes("`\\`; use `/` between folders");
    }
    if pattern.chars().any(char::is_control) {
        return Err(format!("Pattern {pattern:?} contains a control character"));
    }
    for segment in pattern.split('/') {
        match segment {
            ".." => return escapes("`..`"),
            "." | "" => {
                return Err(format!(
                    "Pattern {pattern:?} has an empty or `.` folder name"
                ))
            }
            _ => {}
        }
    }
    if pattern.len() > 200 {
        return Err(format!("Pattern {pattern:?} is longer than 200 characters"));
    }
    Ok(())
}

/// Whether a user pattern selects the file at `rel` (relative to the category folder).
pub fn pattern_selects(pattern: &str, rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if glob::has_wildcards(pattern) {
        return if pattern.contains('/') {
            glob::matches(pattern, rel)
        } else {
            glob::matches(pattern, name)
        };
    }
    let p = pattern.to_ascii_lowercase();
    let rel = rel.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    let named = |target: &str| target == p || target.starts_with(&format!("{p}."));
    (!p.contains('/') && named(&name)) || named(&rel) || rel.starts_with(&format!("{p}/"))
}

/// Whether a category's own patterns take the file at `rel`.
fn category_takes(category: &Category, rel: &str) -> bool {
    category.patterns.iter().any(|p| glob::matches(p, rel))
}

/// One document found for an item.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    category: String,
    /// Relative to the workspace folder.
    path: String,
}

/// Runs an expression: the documents' markdown, one header per document, capped at
/// [`MAX_CHARS`] with a note when cut.
pub fn retrieve(host: &dyn Host, expression: &str) -> Result<Retrieved, ContentError> {
    let items = parse(expression).map_err(ContentError::InvalidExpression)?;
    let categories = categories(host)?;
    let known = || categories.keys().cloned().collect::<Vec<_>>().join(", ");
    if let Some(item) = items.iter().find(|i| !categories.contains_key(&i.category)) {
        return Err(ContentError::UnknownCategory {
            category: item.category.clone(),
            known: known(),
        });
    }
    let (found, unmatched) = find_documents(host, &items, &categories)?;
    let normalized = items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    if found.is_empty() {
        return Ok(Retrieved::Nothing {
            expression: normalized,
            unmatched,
            categories: describe_categories(&categories),
        });
    }
    let Assembled {
        markdown,
        documents,
        omitted,
        truncated,
    } = assemble(host, &found)?;
    Ok(Retrieved::Documents {
        expression: normalized,
        content: markdown,
        documents,
        omitted,
        unmatched,
        truncated,
    })
}

/// Every document the items select (all-or-nothing on errors), each once, in expression order,
/// and the items that selected none (as written).
fn find_documents(
    host: &dyn Host,
    items: &[Item],
    categories: &BTreeMap<String, Category>,
) -> Result<(Vec<Found>, Vec<String>), ContentError> {
    let mut found: Vec<Found> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut unmatched = Vec::new();
    let mut listings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for item in items {
        let category = &categories[&item.category];
        if !listings.contains_key(&item.category) {
            listings.insert(item.category.clone(), category_files(host, category)?);
        }
        let mut matched_any = false;
        for rel in &listings[&item.category] {
            if !item.patterns.is_empty() && !item.patterns.iter().any(|p| pattern_selects(p, rel)) {
                continue;
            }
            matched_any = true;
            let path = join(folder_of(category), rel);
            if seen.insert(path.clone()) {
                found.push(Found {
                    category: item.category.clone(),
                    path,
                });
            }
        }
        if !matched_any {
            unmatched.push(item.to_string());
        }
    }
    Ok((found, unmatched))
}

/// The files of a category's folder its patterns take, sorted (relative to the folder; a
/// recursive listing only when a pattern reaches into subfolders).
fn category_files(host: &dyn Host, category: &Category) -> Result<Vec<String>, ContentError> {
    let recursive = category
        .patterns
        .iter()
        .any(|p| p.contains('/') || p.contains("**"));
    let mut files = host
        .list(Area::Workspace, folder_of(category), recursive)
        .map_err(|err| workspace_error(err, "get_content"))?;
    files.retain(|rel| check_rel_path(rel, false).is_ok() && category_takes(category, rel));
    files.sort();
    Ok(files)
}

/// The markdown of the found documents, what each contributed, and what the cap left out.
struct Assembled {
    markdown: String,
    documents: Vec<Value>,
    omitted: Vec<String>,
    truncated: bool,
}

/// Reads the documents in order into one markdown text of at most [`MAX_CHARS`] characters and
/// [`MAX_DOCUMENTS`] documents, cut at a line, with a closing note when anything was left out.
fn assemble(host: &dyn Host, found: &[Found]) -> Result<Assembled, ContentError> {
    let mut out = Assembled {
        markdown: String::new(),
        documents: Vec::new(),
        omitted: Vec::new(),
        truncated: false,
    };
    let mut used = 0usize;
    for (n, doc) in found.iter().enumerate() {
        if out.truncated || n >= MAX_DOCUMENTS {
            out.truncated = true;
            out.omitted.push(doc.path.clone());
            continue;
        }
        let bytes = host
            .read(Area::Workspace, &doc.path)
            .map_err(|err| workspace_error(err, "get_content"))?
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end();
        let header = format!("{}## {}\n\n", if n > 0 { "\n\n" } else { "" }, doc.path);
        let size = header.chars().count() + text.chars().count();
        let left = MAX_CHARS.saturating_sub(used);
        let (body, cut) = if size <= left {
            (text.to_string(), false)
        } else {
            let room = left.saturating_sub(header.chars().count());
            (cut_at_line(text, room), true)
        };
        if cut && body.is_empty() {
            out.truncated = true;
            out.omitted.push(doc.path.clone());
            continue;
        }
        out.markdown.push_str(&header);
        out.markdown.push_str(&body);
        used += header.chars().count() + body.chars().count();
        out.documents.push(json!({
            "category": doc.category,
            "path": doc.path,
            "chars": text.chars().count(),
            "cut": cut,
        }));
        out.truncated |= cut;
    }
    if out.truncated {
        let markdown = &mut out.markdown;
        let _ = write!(markdown, "\n\n---\n*Content cut at {MAX_CHARS} characters.");
        if !out.omitted.is_empty() {
            let _ = write!(
                markdown,
                " {} more document(s) not shown: {}.",
                out.omitted.len(),
                out.omitted.join(", ")
            );
        }
        markdown.push_str(
            " Ask for fewer documents (one category/pattern at a time) to read the rest.*",
        );
    }
    Ok(out)
}

/// The category's folder as a relative path ("" for the workspace root).
fn folder_of(category: &Category) -> &str {
    match category.folder.as_str() {
        "." => "",
        folder => folder,
    }
}

/// `name (folder: patterns)` for each category, for instructions to agents.
pub fn describe_categories(categories: &BTreeMap<String, Category>) -> String {
    categories
        .iter()
        .map(|(name, c)| format!("{name} ({}: {})", c.folder, c.patterns.join(" ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// At most `room` characters of `text`, cut at the last line end when there is one nearby.
fn cut_at_line(text: &str, room: usize) -> String {
    let cut: String = text.chars().take(room).collect();
    match cut.rfind('\n') {
        Some(at) if at * 2 >= cut.len() => cut[..at].trim_end().to_string(),
        _ => cut,
    }
}

fn workspace_error(err: HostError, tool: &'static str) -> ContentError {
    match err.kind {
        HostErrorKind::Unavailable => ContentError::NoWorkspace {
            tool,
            kind: err.error_type(),
            message: err.message,
        },
        _ => ContentError::Host(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_patterns_select_names_paths_and_folders() {
        // (pattern, path, whether the pattern selects the path)
        for (pattern, path, expected) in [
            ("python", "python.md", true),
            ("python", "lang/python.instructions.md", true),
            ("Python", "python.md", true),
            ("python", "pythonic.md", false),
            ("api", "api/v1.md", true),
            ("api/v1", "api/v1.md", true),
            ("api/v1", "other/api/v1.md", false),
            ("*.prompt.md", "deep/x.prompt.md", true),
            ("api/*.md", "api/a.md", true),
            ("api/*.md", "api/x/a.md", false),
        ] {
            assert_eq!(
                pattern_selects(pattern, path),
                expected,
                "{pattern} ~ {path}"
            );
        }
    }
}
