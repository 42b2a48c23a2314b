//! Library docs (`resolve_library_id` → `get_library_docs`): local first, offline and
//! version-exact, with Context7 as the fallback.
//!
//! - [`local`] finds the libraries installed where the host can read (npm packages in
//!   `node_modules`, the crates of `Cargo.lock` in the cargo registry sources, Python packages in
//!   `.venv`, the bundled docs) and reads their READMEs and markdown docs.
//! - [`sections`] splits docs at `## ` headings, scores them against the query and joins the best
//!   within `maxChars`.
//! - [`context7`] builds the fallback's requests and reads its answers. The host only performs the
//!   GET ([`Host::http_get`]); an asynchronous host answers [`HostErrorKind::Pending`] until it
//!   has fetched the URL, and runs the tool again (both tools are read-only and deterministic).
//!
//! Names resolve case-insensitively, through a few well-known aliases (`pw` → `playwright`),
//! `owner/repo` (the repository a package names, or its last segment), scope (`@playwright/...`)
//! and prefix (`playwright-core`). Ids are `/<source>/<name>@<version>` for local libraries and
//! Context7's own ids (`/microsoft/playwright`) for the fallback.

pub mod context7;
pub mod local;
pub mod sections;

use serde_json::{json, Value};

use crate::error_kind::ErrorKind;
use crate::host::{Host, HostErrorKind, HttpResponse};
use context7::Settings;
use local::{Id, Library, Source};

/// The default `maxChars` of `get_library_docs`.
pub const DEFAULT_MAX_CHARS: usize = 4000;
/// `maxChars` above this is capped.
pub const MAX_CHARS: usize = 50_000;
/// At most this many local matches are returned.
pub const MAX_MATCHES: usize = 10;
/// Errors list at most this many local library ids.
pub const MAX_LISTED: usize = 30;

/// Short names agents use for well-known libraries, and the package they mean.
pub const ALIASES: &[(&str, &str)] = &[
    ("pw", "playwright"),
    ("ts", "typescript"),
    ("rn", "react-native"),
    ("mui", "@mui/material"),
    ("rtl", "@testing-library/react"),
    ("np", "numpy"),
    ("pd", "pandas"),
    ("sklearn", "scikit-learn"),
    ("tf", "tensorflow"),
    ("bs4", "beautifulsoup4"),
    ("cv2", "opencv-python"),
    ("pil", "pillow"),
    ("yaml", "pyyaml"),
    ("dateutil", "python-dateutil"),
];

/// A local library that matches a name, and how.
#[derive(Debug, Clone)]
pub struct Found<'a> {
    pub lib: &'a Library,
    pub score: u32,
    /// `id`, `name`, `alias`, `repository`, `similar name`, `scope` or `prefix`.
    pub how: &'static str,
}

/// The local libraries a name (or a local id) stands for, best first, at most [`MAX_MATCHES`].
pub fn find<'a>(host: &dyn Host, libs: &'a [Library], name: &str) -> Vec<Found<'a>> {
    let query = name.trim().to_lowercase();
    if query.is_empty() {
        return Vec::new();
    }
    if let Id::Local(id) = local::parse_id(&query) {
        return find_id(libs, &id)
            .into_iter()
            .filter(|lib| {
                id.version.is_none() || lib.version.as_deref().map(str::to_lowercase) == id.version
            })
            .map(|lib| Found {
                lib,
                score: 100,
                how: "id",
            })
            .collect();
    }
    let owner_repo = owner_repo(&query);
    let keys = query_keys(&query, owner_repo);
    let mut found: Vec<Found<'a>> = libs
        .iter()
        .filter_map(|lib| best_match(lib, &keys, &query, owner_repo))
        .collect();
    // `owner/repo` of a crate: its Cargo.toml says, read only when nothing better matched.
    if owner_repo.is_some() && !found.iter().any(|f| f.score >= 90) {
        for lib in libs
            .iter()
            .filter(|lib| lib.source == Source::Crates)
            .take(local::MAX_PACKAGES)
        {
            if local::crate_manifest(host, lib).repository.as_deref() == Some(query.as_str()) {
                found.retain(|f| f.lib.id() != lib.id());
                found.push(Found {
                    lib,
                    score: 95,
                    how: "repository",
                });
            }
        }
    }
    found.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(a.lib.source.cmp(&b.lib.source))
            .then(a.lib.name.cmp(&b.lib.name))
    });
    found.truncate(MAX_MATCHES);
    found
}

/// `owner/repo` in a (lowercase) query that is not an npm scope (`@scope/name`).
fn owner_repo(query: &str) -> Option<(&str, &str)> {
    (!query.starts_with('@'))
        .then(|| query.split_once('/'))
        .flatten()
        .filter(|(owner, repo)| !owner.is_empty() && !repo.is_empty() && !repo.contains('/'))
}

/// The names a query may mean, with the score of an exact match and how it matched: itself, an
/// alias's package, the name without `.js`/`js`, a repository's name and `@owner/repo`.
fn query_keys(query: &str, owner_repo: Option<(&str, &str)>) -> Vec<(String, u32, &'static str)> {
    let mut keys: Vec<(String, u32, &'static str)> = vec![(query.to_string(), 100, "name")];
    for (alias, target) in ALIASES {
        if *alias == query {
            keys.push((target.to_string(), 95, "alias"));
        }
    }
    if let Some(stem) = query.strip_suffix(".js") {
        keys.push((stem.to_string(), 90, "name"));
    } else if let Some(stem) = query.strip_suffix("js").filter(|_| query.len() > 4) {
        keys.push((stem.to_string(), 85, "name"));
    }
    if let Some((owner, repo)) = owner_repo {
        keys.push((repo.to_string(), 90, "repository name"));
        keys.push((format!("@{owner}/{repo}"), 90, "name"));
    }
    keys
}

/// How well one library matches the query's keys: its best score and how, or `None`.
fn best_match<'a>(
    lib: &'a Library,
    keys: &[(String, u32, &'static str)],
    query: &str,
    owner_repo: Option<(&str, &str)>,
) -> Option<Found<'a>> {
    let name = lib.name.to_lowercase();
    let normalized = local::normalize(&name);
    let (bare, scope) = match name.strip_prefix('@').and_then(|n| n.split_once('/')) {
        Some((scope, bare)) => (bare.to_string(), Some(scope.to_string())),
        None => (name.clone(), None),
    };
    let mut best: Option<(u32, &'static str)> = None;
    let mut offer = |score: u32, how: &'static str| {
        let better = match best {
            Some((s, _)) => score > s,
            None => true,
        };
        if better {
            best = Some((score, how));
        }
    };
    for (key, score, how) in keys {
        if name == *key {
            offer(*score, how);
        } else if normalized == local::normalize(key) {
            offer(score - 5, "similar name");
        } else if *how == "repository name" {
            // A repository's last segment (`json` of serde-rs/json) is too short a word to
            // match scopes and prefixes by.
            continue;
        } else if scope.as_deref() == Some(key.as_str()) {
            offer(60, "scope");
        } else if [format!("{key}-"), format!("{key}_")]
            .iter()
            .any(|p| bare.starts_with(p.as_str()))
        {
            offer(50, "prefix");
        }
    }
    if lib.repository.as_deref() == Some(query) {
        // The package named after the repository (`playwright` of microsoft/playwright) comes
        // before the other packages of the same repository (`@playwright/test`).
        let named_after = owner_repo.is_some_and(|(_, repo)| bare == repo);
        offer(if named_after { 98 } else { 95 }, "repository");
    }
    if lib.aliases.iter().any(|alias| alias == query) {
        offer(95, "alias");
    }
    best.map(|(score, how)| Found { lib, score, how })
}

/// The installed libraries an id names (any version): same source, same name (npm exactly, the
/// others compared loosely, as their registries do).
fn find_id<'a>(libs: &'a [Library], id: &local::LocalId) -> Vec<&'a Library> {
    libs.iter()
        .filter(|lib| lib.source == id.source)
        .filter(|lib| {
            lib.name.eq_ignore_ascii_case(&id.name)
                || (id.source != Source::Npm
                    && local::normalize(&lib.name) == local::normalize(&id.name))
        })
        .collect()
}

/// "Local libraries: /npm/a@1, ... (and 12 more)." for errors.
pub fn local_summary(libs: &[Library]) -> String {
    if libs.is_empty() {
        return "No local libraries were found (node_modules, the cargo registry sources of the Cargo.lock \
                crates, .venv site-packages, bundled docs)."
            .to_string();
    }
    let ids: Vec<String> = libs.iter().take(MAX_LISTED).map(Library::id).collect();
    let more = libs.len().saturating_sub(MAX_LISTED);
    if more > 0 {
        format!("Local libraries: {} (and {more} more).", ids.join(", "))
    } else {
        format!("Local libraries: {}.", ids.join(", "))
    }
}

fn describe(host: &dyn Host, lib: &Library) -> Option<String> {
    match lib.source {
        Source::Crates => local::crate_manifest(host, lib).description,
        _ => lib.description.clone(),
    }
}

/// Why a library's docs could not be given: the text agents see and its kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DocsError {
    pub message: String,
    pub kind: ErrorKind,
}

impl DocsError {
    fn new(message: impl Into<String>, kind: ErrorKind) -> Self {
        DocsError {
            message: message.into(),
            kind,
        }
    }
}

/// A successful answer: its fields, and what to tell the user (`message`) and the agent
/// (`instruction`) beside them. The tools turn it into their result.
#[derive(Debug, Clone, PartialEq)]
pub struct DocsAnswer {
    pub fields: Value,
    pub message: Option<String>,
    pub instruction: Option<String>,
}

impl DocsAnswer {
    fn new(fields: Value) -> Self {
        DocsAnswer {
            fields,
            message: None,
            instruction: None,
        }
    }

    fn with_message(mut self, text: impl Into<String>) -> Self {
        self.message = Some(text.into());
        self
    }

    fn with_instruction(mut self, text: impl Into<String>) -> Self {
        self.instruction = Some(text.into());
        self
    }
}

/// A GET through the host, or the tool's failure: pending (the host fetches and calls again),
/// no answer (the network error, with the local libraries), or an HTTP error status. `libs` lists
/// the local libraries for the error texts; it is called only on an error.
fn fetch(
    host: &dyn Host,
    settings: &Settings,
    url: String,
    libs: impl FnOnce() -> Vec<Library>,
    what: &str,
) -> Result<HttpResponse, DocsError> {
    let failure = |text: String, kind: ErrorKind| Err(DocsError::new(text, kind));
    match host.http_get(&settings.request(url.clone())) {
        Ok(response) if (200..300).contains(&response.status) => Ok(response),
        Ok(response) => failure(
            format!(
                "{what}: Context7 answered {}. {}",
                context7::error_message(response.status, &response.body),
                local_summary(&libs())
            ),
            if response.status == 404 { ErrorKind::NotFound } else { ErrorKind::Context7Error },
        ),
        Err(err) if err.kind == HostErrorKind::Pending => failure(
            format!("The host has not fetched {url} yet (an asynchronous host fetches it and runs the tool again)"),
            ErrorKind::FetchPending,
        ),
        Err(err) => failure(
            format!(
                "{what}, and Context7 ({}) could not be reached: {}. {}",
                settings.base_url,
                err.message.trim().trim_end_matches('.'),
                local_summary(&libs())
            ),
            ErrorKind::NetworkError,
        ),
    }
}

fn context7_off(what: &str, libs: &[Library]) -> DocsError {
    DocsError::new(
        format!(
            "{what}, and the Context7 fallback is off (setting {}). {}",
            context7::SETTING_ENABLED,
            local_summary(libs)
        ),
        ErrorKind::NotFound,
    )
}

fn settings(host: &dyn Host) -> Result<Settings, DocsError> {
    Settings::read(host).map_err(|err| DocsError::new(err, ErrorKind::InvalidSetting))
}

/// `resolve_library_id`'s answer from the local libraries that match (`found`, not empty).
fn local_matches(host: &dyn Host, name: &str, found: &[Found<'_>]) -> DocsAnswer {
    let libraries: Vec<Value> = found
        .iter()
        .map(|f| {
            let mut entry = json!({
                "libraryId": f.lib.id(),
                "name": f.lib.name,
                "source": f.lib.source.as_str(),
                "match": f.how,
            });
            if let Some(version) = &f.lib.version {
                entry["version"] = json!(version);
            }
            if let Some(text) = describe(host, f.lib) {
                entry["description"] = json!(text);
            }
            entry
        })
        .collect();
    DocsAnswer::new(json!({
        "libraryName": name,
        "source": "local",
        "libraries": libraries,
    }))
    .with_instruction(format!(
        "Call get_library_docs with {{\"libraryId\": \"{}\", \"query\": \"<what you need>\"}}.",
        found[0].lib.id()
    ))
}

/// `resolve_library_id`: the local libraries a name stands for, else Context7's search.
pub fn resolve(host: &dyn Host, library_name: &str) -> Result<DocsAnswer, DocsError> {
    let name = library_name.trim();
    if name.is_empty() {
        return Err(DocsError::new(
            "Invalid arguments: `libraryName` is empty (give a package name such as \"playwright\")",
            ErrorKind::InvalidArguments,
        ));
    }
    let libs = local::discover(host);
    let found = find(host, &libs, name);
    if !found.is_empty() {
        return Ok(local_matches(host, name, &found));
    }
    let what = format!("No local library matches {name:?}");
    let settings = settings(host)?;
    if !settings.enabled {
        return Err(context7_off(&what, &libs));
    }
    // An alias names the library better than its short form does.
    let lower = name.to_lowercase();
    let search_name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map_or(name, |(_, target)| *target);
    let response = fetch(
        host,
        &settings,
        settings.search_url(search_name, name),
        || libs.clone(),
        &what,
    )?;
    let libraries = context7::parse_search(&response.body).map_err(|err| {
        DocsError::new(
            format!("{what}, and Context7's answer could not be read: {err}"),
            ErrorKind::Context7Error,
        )
    })?;
    let Some(first) = libraries.first() else {
        return Err(DocsError::new(
            format!(
                "No library matches {name:?}, locally or on Context7. {}",
                local_summary(&libs)
            ),
            ErrorKind::NotFound,
        ));
    };
    let instruction = format!(
        "Call get_library_docs with {{\"libraryId\": \"{}\", \"query\": \"<what you need>\"}}.",
        first["libraryId"].as_str().unwrap_or_default()
    );
    Ok(DocsAnswer::new(json!({
        "libraryName": name,
        "source": "context7",
        "libraries": libraries,
    }))
    .with_message(format!("{what}; these come from Context7."))
    .with_instruction(instruction))
}

/// `get_library_docs`: the sections of a local library's docs that answer `query` (or an
/// overview), else Context7's documentation for its id; at most `max_chars` characters.
pub fn get_docs(
    host: &dyn Host,
    library_id: &str,
    query: Option<&str>,
    max_chars: Option<u32>,
) -> Result<DocsAnswer, DocsError> {
    let max_chars = match max_chars {
        Some(0) => {
            return Err(DocsError::new(
                "Invalid arguments: `maxChars` must be 1 or greater",
                ErrorKind::InvalidArguments,
            ))
        }
        Some(n) => (n as usize).min(MAX_CHARS),
        None => DEFAULT_MAX_CHARS,
    };
    let wanted = Wanted {
        query: query.map(str::trim).filter(|q| !q.is_empty()),
        max_chars,
    };
    let id = library_id.trim();
    match local::parse_id(id) {
        Id::Invalid => Err(invalid_id(host, id)),
        Id::Local(lid) => {
            let libs = local::discover(host);
            let lib = installed(&libs, &lid, id)?;
            local_docs(host, lib, wanted)
        }
        Id::Remote(remote) => remote_docs(host, &remote, wanted),
    }
}

/// What `get_library_docs` was asked for: the sections about `query` (else an overview), in at
/// most `max_chars` characters.
#[derive(Debug, Clone, Copy)]
struct Wanted<'q> {
    query: Option<&'q str>,
    max_chars: usize,
}

/// A malformed `libraryId`: what ids look like, and the local library it may have meant.
fn invalid_id(host: &dyn Host, id: &str) -> DocsError {
    let libs = local::discover(host);
    let hint = find(host, &libs, id)
        .first()
        .map(|f| format!(" Did you mean {}?", f.lib.id()))
        .unwrap_or_default();
    DocsError::new(
        format!(
            "Invalid libraryId {id:?}: ids look like /npm/playwright@1.48.0, /crates/serde@1.0.219, \
             /pypi/requests@2.32.3 or a Context7 id such as /microsoft/playwright; call resolve_library_id \
             first.{hint}"
        ),
        ErrorKind::InvalidArguments,
    )
}

/// The installed library a local id names: its version when the id has one (another version
/// installed is a `version_mismatch`), else the newest installed.
fn installed<'a>(
    libs: &'a [Library],
    lid: &local::LocalId,
    id: &str,
) -> Result<&'a Library, DocsError> {
    let installed = find_id(libs, lid);
    let Some(&first) = installed.first() else {
        return Err(DocsError::new(
            format!("Library not found: {id}. {}", local_summary(libs)),
            ErrorKind::NotFound,
        ));
    };
    let Some(version) = &lid.version else {
        return Ok(installed
            .iter()
            .copied()
            .max_by(|a, b| {
                local::compare_versions(
                    a.version.as_deref().unwrap_or(""),
                    b.version.as_deref().unwrap_or(""),
                )
            })
            .unwrap_or(first));
    };
    if let Some(lib) = installed
        .iter()
        .find(|lib| lib.version.as_deref() == Some(version.as_str()))
    {
        return Ok(lib);
    }
    let have: Vec<String> = installed.iter().map(|lib| lib.id()).collect();
    Err(DocsError::new(
        format!(
            "{id} is not installed: this workspace has {}. Docs are only given for the installed \
             version.",
            have.join(", ")
        ),
        ErrorKind::VersionMismatch,
    ))
}

/// The sections of an installed library's docs that answer `query`, or its first sections.
fn local_docs(host: &dyn Host, lib: &Library, wanted: Wanted) -> Result<DocsAnswer, DocsError> {
    let Wanted { query, max_chars } = wanted;
    let documents = local::documents(host, lib);
    let all: Vec<sections::Section> = documents
        .docs
        .iter()
        .flat_map(|doc| sections::split(&doc.file, &doc.text))
        .collect();
    if all.is_empty() && !documents.too_large.is_empty() {
        return Err(DocsError::new(
            format!(
                "{}'s docs are too large to read: {} (at most {} bytes are read).",
                lib.id(),
                documents.too_large.join(", "),
                local::MAX_DOC_BYTES
            ),
            ErrorKind::TooLarge,
        ));
    }
    if all.is_empty() {
        return Err(DocsError::new(
            format!("{} has no README or markdown docs to read.", lib.id()),
            ErrorKind::NoDocs,
        ));
    }
    let selection = sections::select(&all, query, max_chars);
    let picked: Vec<Value> = selection
        .picks
        .iter()
        .map(|(index, score)| {
            let section = &all[*index];
            let mut entry = json!({"file": section.file, "heading": section.heading});
            if selection.mode == sections::Mode::Search {
                entry["score"] = json!(score);
            }
            entry
        })
        .collect();
    let mut out = json!({
        "libraryId": lib.id(),
        "name": lib.name,
        "source": lib.source.as_str(),
        "mode": selection.mode.as_str(),
        "sections": picked,
        "totalSections": all.len(),
        "text": selection.text,
        "truncated": selection.truncated,
        "maxChars": max_chars,
    });
    if let Some(version) = &lib.version {
        out["version"] = json!(version);
    }
    if let Some(query) = query {
        out["query"] = json!(query);
    }
    let result = DocsAnswer::new(out);
    Ok(match (query, selection.mode) {
        (Some(query), sections::Mode::Overview) => result.with_message(format!(
            "No section of {} mentions {query:?}; here is an overview (its first sections).",
            lib.id()
        )),
        _ => result,
    })
}

/// Context7's documentation for a library id that is not local (when the fallback is on).
fn remote_docs(host: &dyn Host, remote: &str, wanted: Wanted) -> Result<DocsAnswer, DocsError> {
    let Wanted { query, max_chars } = wanted;
    let what = format!("{remote} is not a local library");
    let settings = settings(host)?;
    if !settings.enabled {
        let libs = local::discover(host);
        return Err(context7_off(&what, &libs));
    }
    let topic = query.unwrap_or_else(|| {
        remote
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(remote)
    });
    let url = settings.context_url(remote, topic, max_chars.div_ceil(3));
    let what = format!("Could not get the docs of {remote}");
    let response = fetch(host, &settings, url, || local::discover(host), &what)?;
    let Some(text) = context7::parse_context(&response.body) else {
        return Err(DocsError::new(
            format!(
                "Context7 has no documentation for {remote}{}.",
                query.map(|q| format!(" about {q:?}")).unwrap_or_default()
            ),
            ErrorKind::NotFound,
        ));
    };
    let cut = sections::cut(&text, max_chars);
    let mut out = json!({
        "libraryId": remote,
        "source": "context7",
        "text": cut,
        "truncated": cut.len() < text.len(),
        "maxChars": max_chars,
    });
    if let Some(query) = query {
        out["query"] = json!(query);
    }
    Ok(DocsAnswer::new(out))
}
