//! The libraries installed where the host can read, with their exact versions, and their docs:
//!
//! - npm: `node_modules/<name>/` and `node_modules/@scope/<name>/` of the workspace (name,
//!   version, description and repository from `package.json`); docs: the README and the markdown
//!   under `docs/`.
//! - crates: the registry packages of the workspace's `Cargo.lock` (else the dependencies named in
//!   its `Cargo.toml`, at the highest version unpacked), found in the cargo registry sources
//!   ([`Area::CargoRegistry`]: `<registry>/<crate>-<version>/`); docs: the README.
//! - pypi: `.venv` / `venv` site-packages (`lib/python3.*/site-packages`, Windows
//!   `Lib/site-packages`), one `*.dist-info/METADATA` per package; docs: its description.
//! - bundled: one folder per library under [`Area::Bundled`], an optional `library.json`
//!   (`{"name", "version", "description", "aliases"}`) and markdown files.
//!
//! What cannot be read (a missing area, a broken `package.json`) is skipped, never guessed.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::host::{join, Area, Host};

/// At most this many packages are read per source.
pub const MAX_PACKAGES: usize = 5000;
/// At most this many documents are read for one library.
pub const MAX_DOCUMENTS: usize = 100;
/// At most this many bytes of documents are read for one library.
pub const MAX_DOC_BYTES: usize = 4 * 1024 * 1024;

/// Where a library comes from; the first segment of its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    Npm,
    Crates,
    Pypi,
    Bundled,
}

impl Source {
    pub const ALL: [Source; 4] = [Source::Npm, Source::Crates, Source::Pypi, Source::Bundled];

    pub fn as_str(self) -> &'static str {
        match self {
            Source::Npm => "npm",
            Source::Crates => "crates",
            Source::Pypi => "pypi",
            Source::Bundled => "bundled",
        }
    }

    pub fn parse(text: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.as_str() == text)
    }

    fn area(self) -> Area {
        match self {
            Source::Npm | Source::Pypi => Area::Workspace,
            Source::Crates => Area::CargoRegistry,
            Source::Bundled => Area::Bundled,
        }
    }
}

/// An installed library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Library {
    pub source: Source,
    /// As its package manager spells it (`playwright`, `@playwright/test`, `serde_json`).
    pub name: String,
    /// The exact installed version (a bundled library may have none).
    pub version: Option<String>,
    pub description: Option<String>,
    /// `owner/repo` of its source repository, lowercase, when known.
    pub repository: Option<String>,
    /// More names it answers to (bundled `library.json`).
    pub aliases: Vec<String>,
    /// Its folder in its source's area (pypi: the `*.dist-info` folder).
    pub dir: String,
}

impl Library {
    /// `/npm/playwright@1.48.0`, `/crates/serde@1.0.219`, `/bundled/copilot-chat-secretary`.
    pub fn id(&self) -> String {
        match &self.version {
            Some(version) => format!("/{}/{}@{version}", self.source.as_str(), self.name),
            None => format!("/{}/{}", self.source.as_str(), self.name),
        }
    }

    pub fn area(&self) -> Area {
        self.source.area()
    }
}

/// A library id of this host's sources, parsed: `/npm/<name>[@<version>]` (scoped names
/// included: `/npm/@scope/name@1.0.0`), `/crates/...`, `/pypi/...`, `/bundled/...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalId {
    pub source: Source,
    pub name: String,
    pub version: Option<String>,
}

/// What a `libraryId` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Id {
    Local(LocalId),
    /// Any other `/owner/project[/...]`: a Context7 id.
    Remote(String),
    Invalid,
}

/// Parses a `libraryId`.
pub fn parse_id(id: &str) -> Id {
    let id = id.trim();
    let Some(rest) = id.strip_prefix('/') else {
        return Id::Invalid;
    };
    if let Some((first, tail)) = rest.split_once('/') {
        if let Some(source) = Source::parse(first) {
            // The version follows the last `@` that does not start the name (`@scope/x@1.0`).
            let (name, version) = match tail.rfind('@') {
                Some(at) if at > 0 => (&tail[..at], Some(tail[at + 1..].to_string())),
                _ => (tail, None),
            };
            let name_ok = !name.is_empty()
                && !name.ends_with('/')
                && ((source == Source::Npm
                    && name.starts_with('@')
                    && name.matches('/').count() == 1)
                    || !name.contains('/'));
            if !name_ok || version.as_deref().is_some_and(str::is_empty) {
                return Id::Invalid;
            }
            return Id::Local(LocalId {
                source,
                name: name.to_string(),
                version,
            });
        }
    }
    let segments: Vec<&str> = rest.split('/').collect();
    if segments.len() >= 2
        && segments
            .iter()
            .all(|s| !s.is_empty() && !s.chars().any(char::is_whitespace))
    {
        Id::Remote(id.to_string())
    } else {
        Id::Invalid
    }
}

/// A name compared loosely: lowercase, runs of `-`, `_` and `.` as one `-` (PEP 503; crates.io
/// also treats `-` and `_` alike).
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Every library the host can read, sorted by source, name and version.
pub fn discover(host: &dyn Host) -> Vec<Library> {
    let mut out = Vec::new();
    npm(host, &mut out);
    crates(host, &mut out);
    pypi(host, &mut out);
    bundled(host, &mut out);
    out.sort_by(|a, b| {
        (a.source, a.name.to_lowercase(), &a.version).cmp(&(
            b.source,
            b.name.to_lowercase(),
            &b.version,
        ))
    });
    let mut seen = BTreeSet::new();
    out.retain(|lib| seen.insert(lib.id()));
    out
}

fn dirs(host: &dyn Host, area: Area, dir: &str) -> Vec<String> {
    let mut dirs = host.dirs(area, dir).unwrap_or_default();
    dirs.sort();
    dirs
}

fn read_text(host: &dyn Host, area: Area, path: &str) -> Option<String> {
    let bytes = host.read(area, path).ok()??;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn npm(host: &dyn Host, out: &mut Vec<Library>) {
    let mut folders = Vec::new();
    for entry in dirs(host, Area::Workspace, "node_modules") {
        if entry.starts_with('.') {
            continue;
        }
        if entry.starts_with('@') {
            let scope = format!("node_modules/{entry}");
            for name in dirs(host, Area::Workspace, &scope) {
                if !name.starts_with('.') {
                    folders.push(format!("{scope}/{name}"));
                }
            }
        } else {
            folders.push(format!("node_modules/{entry}"));
        }
    }
    for dir in folders.into_iter().take(MAX_PACKAGES) {
        let Some(text) = read_text(host, Area::Workspace, &join(&dir, "package.json")) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let folder_name = dir.trim_start_matches("node_modules/").to_string();
        let string = |key: &str| {
            json.get(key)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
        };
        out.push(Library {
            source: Source::Npm,
            name: string("name").map(str::to_string).unwrap_or(folder_name),
            version: string("version").map(str::to_string),
            description: string("description").map(str::to_string),
            repository: json.get("repository").and_then(|repo| {
                repo.as_str()
                    .or_else(|| repo.get("url").and_then(Value::as_str))
                    .and_then(repository_slug)
            }),
            aliases: Vec::new(),
            dir,
        });
    }
}

/// `owner/repo` of a repository URL or npm shorthand (`github:owner/repo`, `owner/repo`,
/// `git+https://github.com/owner/repo.git`, `git@github.com:owner/repo.git`), lowercase.
pub fn repository_slug(url: &str) -> Option<String> {
    let lower = url.trim().to_lowercase();
    let mut rest = lower.as_str();
    for prefix in ["git+", "github:", "gitlab:", "bitbucket:"] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let path = ["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"]
        .iter()
        .find_map(|host| rest.find(host).map(|at| &rest[at + host.len()..]))
        .map(|tail| tail.trim_start_matches([':', '/']))
        .unwrap_or_else(|| if rest.contains(':') { "" } else { rest });
    let mut parts = path.split('/').filter(|p| !p.is_empty());
    let owner = parts.next()?;
    let repo = parts.next()?.trim_end_matches(".git");
    let ok = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    (ok(owner) && ok(repo)).then(|| format!("{owner}/{repo}"))
}

/// The registry packages of a `Cargo.lock`: `(name, version)`.
pub fn cargo_lock_packages(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(Option<String>, Option<String>, bool)> = None;
    let finish = |entry: Option<(Option<String>, Option<String>, bool)>,
                  out: &mut Vec<(String, String)>| {
        if let Some((Some(name), Some(version), true)) = entry {
            out.push((name, version));
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            finish(current.take(), &mut out);
            if line == "[[package]]" {
                current = Some((None, None, false));
            }
            continue;
        }
        let Some(entry) = current.as_mut() else {
            continue;
        };
        let Some((key, value)) = toml_string(line) else {
            continue;
        };
        match key.as_str() {
            "name" => entry.0 = Some(value),
            "version" => entry.1 = Some(value),
            "source" => entry.2 = value.starts_with("registry+") || value.starts_with("sparse+"),
            _ => {}
        }
    }
    finish(current, &mut out);
    out
}

/// The dependencies a `Cargo.toml` names (every `*dependencies` table, `[dependencies.<name>]`
/// tables, renamed ones by their `package`).
pub fn cargo_toml_dependencies(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_deps = false;
    let mut table_dep: Option<String> = None;
    let push = |name: String, out: &mut Vec<String>| {
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    };
    for raw in text.lines() {
        let line = raw.split(" #").next().unwrap_or("").trim();
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some(name) = table_dep.take() {
                push(name, &mut out);
            }
            let header = header.trim();
            in_deps = header.ends_with("dependencies");
            if let Some((table, name)) = header.rsplit_once('.') {
                if table.ends_with("dependencies") {
                    table_dep = Some(name.trim().trim_matches('"').to_string());
                }
            }
            continue;
        }
        if let Some(name) = table_dep.as_mut() {
            if let Some(("package", package)) = toml_string(line)
                .as_ref()
                .map(|(k, v)| (k.as_str(), v.clone()))
            {
                *name = package;
            }
            continue;
        }
        if !in_deps {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches('"').to_string();
        if key.is_empty() || key.contains(' ') {
            continue;
        }
        let package = value
            .split_once("package")
            .and_then(|(_, rest)| rest.trim_start().strip_prefix('='))
            .and_then(|rest| rest.trim_start().strip_prefix('"'))
            .and_then(|rest| rest.split_once('"'))
            .map(|(name, _)| name.to_string());
        push(package.unwrap_or(key), &mut out);
    }
    if let Some(name) = table_dep.take() {
        push(name, &mut out);
    }
    out
}

/// `key = "value"` (a basic string; `\"` and `\\` unescaped).
fn toml_string(line: &str) -> Option<(String, String)> {
    let (key, value) = line.split_once('=')?;
    let value = value.trim().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((key.trim().trim_matches('"').to_string(), out)),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// Compares versions by their numeric parts; a pre-release (`-beta`) sorts before its release.
pub fn compare_versions(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |v: &str| {
        let (core, pre) = match v.split_once('-') {
            Some((core, pre)) => (core, Some(pre.to_string())),
            None => (v, None),
        };
        let core = core.split('+').next().unwrap_or("");
        let nums: Vec<u64> = core.split('.').map(|p| p.parse().unwrap_or(0)).collect();
        (nums, pre.is_none(), pre)
    };
    key(a).cmp(&key(b))
}

fn crates(host: &dyn Host, out: &mut Vec<Library>) {
    let locked =
        read_text(host, Area::Workspace, "Cargo.lock").map(|text| cargo_lock_packages(&text));
    let wanted: Vec<(String, Option<String>)> = match locked {
        Some(packages) if !packages.is_empty() => {
            packages.into_iter().map(|(n, v)| (n, Some(v))).collect()
        }
        _ => match read_text(host, Area::Workspace, "Cargo.toml") {
            Some(text) => cargo_toml_dependencies(&text)
                .into_iter()
                .map(|n| (n, None))
                .collect(),
            None => return,
        },
    };
    if wanted.is_empty() {
        return;
    }
    // Every unpacked `<crate>-<version>` folder, by registry.
    let unpacked: Vec<(String, BTreeSet<String>)> = dirs(host, Area::CargoRegistry, "")
        .into_iter()
        .map(|registry| {
            let folders = dirs(host, Area::CargoRegistry, &registry)
                .into_iter()
                .collect();
            (registry, folders)
        })
        .collect();
    for (name, version) in wanted.into_iter().take(MAX_PACKAGES) {
        let found = match &version {
            Some(version) => {
                let folder = format!("{name}-{version}");
                unpacked
                    .iter()
                    .find(|(_, folders)| folders.contains(&folder))
                    .map(|(registry, _)| (format!("{registry}/{folder}"), version.clone()))
            }
            None => {
                let prefix = format!("{name}-");
                let prefix = prefix.as_str();
                unpacked
                    .iter()
                    .flat_map(|(registry, folders)| {
                        folders.iter().filter_map(move |folder| {
                            let v = folder.strip_prefix(prefix)?;
                            v.starts_with(|c: char| c.is_ascii_digit())
                                .then(|| (format!("{registry}/{folder}"), v.to_string()))
                        })
                    })
                    .max_by(|a, b| compare_versions(&a.1, &b.1))
            }
        };
        if let Some((dir, version)) = found {
            out.push(Library {
                source: Source::Crates,
                name,
                version: Some(version),
                description: None,
                repository: None,
                aliases: Vec::new(),
                dir,
            });
        }
    }
}

/// A crate's `[package]` fields from its `Cargo.toml` in the registry: description, repository,
/// readme. Read only when needed (a match, a repository lookup).
pub fn crate_manifest(host: &dyn Host, lib: &Library) -> CrateManifest {
    let mut manifest = CrateManifest::default();
    let Some(text) = read_text(host, Area::CargoRegistry, &join(&lib.dir, "Cargo.toml")) else {
        return manifest;
    };
    let mut in_package = false;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        if !in_package {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        let value = value.trim();
        let text = if let Some(rest) = value.strip_prefix("\"\"\"") {
            // A multi-line string.
            let mut body = rest.to_string();
            while !body.contains("\"\"\"") {
                match lines.next() {
                    Some(next) => {
                        body.push('\n');
                        body.push_str(next);
                    }
                    None => break,
                }
            }
            body.split("\"\"\"").next().unwrap_or("").trim().to_string()
        } else {
            match toml_string(&format!("k = {value}")) {
                Some((_, text)) => text,
                None => continue,
            }
        };
        match key {
            "description" => {
                manifest.description = Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
            }
            "repository" => manifest.repository = repository_slug(&text),
            "readme" => manifest.readme = Some(text),
            _ => {}
        }
    }
    manifest
}

/// See [`crate_manifest`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrateManifest {
    pub description: Option<String>,
    pub repository: Option<String>,
    pub readme: Option<String>,
}

/// The headers and description of a Python `METADATA` (or `PKG-INFO`) file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PythonMetadata {
    pub name: Option<String>,
    pub version: Option<String>,
    pub summary: Option<String>,
    pub repository: Option<String>,
    pub description: String,
}

/// Parses `METADATA`: `Key: value` headers (continuation lines start with whitespace) up to the
/// first blank line, then the description (or, in older files, a `Description:` header).
pub fn python_metadata(text: &str) -> PythonMetadata {
    let text = text.replace("\r\n", "\n");
    let (head, body) = match text.split_once("\n\n") {
        Some((head, body)) => (head.to_string(), body.to_string()),
        None => (text.clone(), String::new()),
    };
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = headers.last_mut() {
                let cont = line.trim_start();
                let cont = cont.strip_prefix('|').unwrap_or(cont);
                value.push('\n');
                value.push_str(cont);
            }
        } else if let Some((key, value)) = line.split_once(':') {
            headers.push((key.trim().to_lowercase(), value.trim().to_string()));
        }
    }
    let get = |key: &str| {
        headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let repository = headers
        .iter()
        .filter(|(k, _)| k == "project-url" || k == "home-page")
        .find_map(|(_, v)| repository_slug(v.rsplit(',').next().unwrap_or(v)));
    let description = if body.trim().is_empty() {
        get("description").unwrap_or_default()
    } else {
        body
    };
    PythonMetadata {
        name: get("name"),
        version: get("version"),
        summary: get("summary").filter(|s| !s.is_empty() && s != "UNKNOWN"),
        repository,
        description: description.trim().to_string(),
    }
}

fn pypi(host: &dyn Host, out: &mut Vec<Library>) {
    let mut sites = Vec::new();
    for venv in [".venv", "venv"] {
        for python in dirs(host, Area::Workspace, &format!("{venv}/lib")) {
            if python.starts_with("python") {
                sites.push(format!("{venv}/lib/{python}/site-packages"));
            }
        }
        sites.push(format!("{venv}/Lib/site-packages"));
    }
    let mut count = 0;
    for site in sites {
        for entry in dirs(host, Area::Workspace, &site) {
            if !entry.ends_with(".dist-info") || count >= MAX_PACKAGES {
                continue;
            }
            count += 1;
            let dir = format!("{site}/{entry}");
            let Some(text) = read_text(host, Area::Workspace, &join(&dir, "METADATA")) else {
                continue;
            };
            let meta = python_metadata(&text);
            // `requests-2.32.3.dist-info` when the headers lack them.
            let stem = entry.trim_end_matches(".dist-info");
            let (folder_name, folder_version) = stem.split_once('-').unwrap_or((stem, ""));
            let Some(name) = meta
                .name
                .clone()
                .or_else(|| Some(folder_name.to_string()))
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            let version = meta
                .version
                .clone()
                .or_else(|| (!folder_version.is_empty()).then(|| folder_version.to_string()));
            out.push(Library {
                source: Source::Pypi,
                name,
                version,
                description: meta.summary,
                repository: meta.repository,
                aliases: Vec::new(),
                dir,
            });
        }
    }
}

fn bundled(host: &dyn Host, out: &mut Vec<Library>) {
    for folder in dirs(host, Area::Bundled, "") {
        if folder.starts_with('.') {
            continue;
        }
        let json: Value = read_text(host, Area::Bundled, &join(&folder, "library.json"))
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null);
        let string = |key: &str| {
            json.get(key)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        out.push(Library {
            source: Source::Bundled,
            name: folder.clone(),
            version: string("version"),
            description: string("description"),
            repository: string("repository").and_then(|r| repository_slug(&r)),
            aliases: json
                .get("aliases")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_lowercase)
                        .collect()
                })
                .unwrap_or_default(),
            dir: folder,
        });
    }
}

/// One document of a library: its path relative to the library's folder, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub file: String,
    pub text: String,
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_lowercase();
    [".md", ".markdown", ".mdx"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// The README of a folder's file list: `README.md` first, then other `README*` files.
fn readme(files: &[String]) -> Option<String> {
    let mut candidates: Vec<&String> = files
        .iter()
        .filter(|f| !f.contains('/') && f.to_lowercase().starts_with("readme"))
        .collect();
    candidates.sort_by_key(|f| (!is_markdown(f), f.len(), f.to_string()));
    candidates.first().map(|f| f.to_string())
}

/// The documents of a library and the ones left out for their size.
#[derive(Debug, Default)]
pub struct Documents {
    pub docs: Vec<Document>,
    /// Files that exist but were not read: `"README.md (9437184 bytes)"`, so that "nothing to
    /// read" can say the docs are too large rather than missing.
    pub too_large: Vec<String>,
}

/// The documents of a library, README first, within [`MAX_DOCUMENTS`] and [`MAX_DOC_BYTES`].
/// A file that would pass the byte budget (or that the host refuses as too large) is skipped and
/// named in [`Documents::too_large`]; smaller files after it are still read.
pub fn documents(host: &dyn Host, lib: &Library) -> Documents {
    let area = lib.area();
    let files = match lib.source {
        Source::Pypi => return python_documents(host, lib),
        Source::Npm | Source::Crates => package_doc_files(host, lib),
        Source::Bundled => {
            let mut all: Vec<String> = host
                .list(area, &lib.dir, true)
                .unwrap_or_default()
                .into_iter()
                .filter(|f| is_markdown(f))
                .collect();
            all.sort_by_key(|f| {
                (
                    readme(std::slice::from_ref(f)).is_none(),
                    f.matches('/').count(),
                    f.clone(),
                )
            });
            all
        }
    };
    let mut out = Documents::default();
    let mut bytes = 0usize;
    for file in files.into_iter().take(MAX_DOCUMENTS) {
        let path = join(&lib.dir, &file);
        let data = match host.read(area, &path) {
            Ok(Some(data)) => data,
            Ok(None) => continue,
            Err(_) => {
                // Hosts refuse files over their read cap; say so when the size is known.
                if let Some(info) = host.stat(area, &path) {
                    out.too_large.push(format!("{file} ({} bytes)", info.size));
                }
                continue;
            }
        };
        if bytes + data.len() > MAX_DOC_BYTES {
            out.too_large.push(format!("{file} ({} bytes)", data.len()));
            continue;
        }
        bytes += data.len();
        out.docs.push(Document {
            file,
            text: String::from_utf8_lossy(&data).into_owned(),
        });
    }
    out
}

/// A Python package's one document: the long description of its `METADATA`.
fn python_documents(host: &dyn Host, lib: &Library) -> Documents {
    let text = read_text(host, lib.area(), &join(&lib.dir, "METADATA")).unwrap_or_default();
    let meta = python_metadata(&text);
    if meta.description.is_empty() {
        return Documents::default();
    }
    let file = format!(
        "{}/METADATA",
        lib.dir.rsplit('/').next().unwrap_or(&lib.dir)
    );
    Documents {
        docs: vec![Document {
            file,
            text: meta.description,
        }],
        too_large: Vec::new(),
    }
}

/// The doc files of an npm package or a crate, in reading order: the README its `Cargo.toml`
/// names (crates), the folder's README, then an npm package's `docs/**/*.md`.
fn package_doc_files(host: &dyn Host, lib: &Library) -> Vec<String> {
    let area = lib.area();
    let mut files: Vec<String> = Vec::new();
    let top = host.list(area, &lib.dir, false).unwrap_or_default();
    if lib.source == Source::Crates {
        if let Some(path) = crate_manifest(host, lib).readme {
            let path = path.trim_start_matches("./").to_string();
            if crate::host::check_rel_path(&path, false).is_ok() && !files.contains(&path) {
                files.push(path);
            }
        }
    }
    if let Some(readme) = readme(&top) {
        if !files.iter().any(|f| f.eq_ignore_ascii_case(&readme)) {
            files.push(readme);
        }
    }
    if lib.source == Source::Npm {
        let mut docs: Vec<String> = host
            .list(area, &join(&lib.dir, "docs"), true)
            .unwrap_or_default()
            .into_iter()
            .filter(|f| is_markdown(f))
            .map(|f| format!("docs/{f}"))
            .collect();
        docs.sort();
        files.extend(docs);
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse() {
        let local = |s: Source, n: &str, v: Option<&str>| {
            Id::Local(LocalId {
                source: s,
                name: n.into(),
                version: v.map(str::to_string),
            })
        };
        assert_eq!(
            parse_id("/npm/playwright@1.48.0"),
            local(Source::Npm, "playwright", Some("1.48.0"))
        );
        assert_eq!(
            parse_id("/npm/@playwright/test@1.48.0"),
            local(Source::Npm, "@playwright/test", Some("1.48.0"))
        );
        assert_eq!(
            parse_id("/npm/@playwright/test"),
            local(Source::Npm, "@playwright/test", None)
        );
        assert_eq!(
            parse_id("/crates/serde"),
            local(Source::Crates, "serde", None)
        );
        assert_eq!(
            parse_id("/microsoft/playwright"),
            Id::Remote("/microsoft/playwright".into())
        );
        assert_eq!(
            parse_id("/vercel/next.js/v14.3.0"),
            Id::Remote("/vercel/next.js/v14.3.0".into())
        );
        for bad in [
            "playwright",
            "/",
            "/npm",
            "/x",
            "/npm/a/b@1",
            "/npm/x@",
            "//a",
            "/a b/c",
        ] {
            assert_eq!(parse_id(bad), Id::Invalid, "{bad}");
        }
    }

    #[test]
    fn repository_slugs() {
        for (url, slug) in [
            (
                "git+https://github.com/microsoft/playwright.git",
                "microsoft/playwright",
            ),
            ("github:Microsoft/Playwright", "microsoft/playwright"),
            ("microsoft/playwright", "microsoft/playwright"),
            ("git@github.com:serde-rs/serde.git", "serde-rs/serde"),
            ("https://github.com/psf/requests/tree/main", "psf/requests"),
        ] {
            assert_eq!(repository_slug(url).as_deref(), Some(slug), "{url}");
        }
        assert_eq!(repository_slug("https://example.com/x"), None);
    }

    #[test]
    fn versions_compare_numerically() {
        use std::cmp::Ordering::*;
        assert_eq!(compare_versions("1.10.0", "1.9.3"), Greater);
        assert_eq!(compare_versions("1.0.0-beta.1", "1.0.0"), Less);
        assert_eq!(compare_versions("2.0.0", "2.0.0"), Equal);
    }

    #[test]
    fn names_normalize() {
        assert_eq!(normalize("Serde_JSON"), "serde-json");
        assert_eq!(normalize("zope.interface"), "zope-interface");
    }
}
