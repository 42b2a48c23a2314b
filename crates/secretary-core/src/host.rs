//! The host I/O bridge: how tools that need files (flags, content, later memory) keep all of their
//! logic in the core and still read and write.
//!
//! A tool never sees an absolute path. It names an [`Area`] (a root the *host* resolves: the
//! workspace folder, this workspace's state folder, the global state folder) and a relative path
//! inside it, and calls the [`Host`] synchronously. The core validates every relative path with
//! [`check_rel_path`] before it reaches the host (the first line of defence); hosts resolve it
//! strictly inside the area's root and refuse `..`, absolute paths and symlink escapes (the
//! second line, `extension/src/host/nodeHost.ts`).
//!
//! Hosts without file access pass no host: tools then answer [`HostError::no_host`]'s clear
//! failure instead of guessing. [`MemoryHost`] is the in-memory host the core's tests use.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

use crate::error_kind::ErrorKind;

/// A named root the host resolves to an absolute folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Area {
    /// The open workspace folder (read: instructions, prompts, docs for `get_content`).
    Workspace,
    /// State kept for this workspace only (project flags). VS Code: `context.storageUri`.
    WorkspaceState,
    /// State shared by every workspace (global flags, memory). VS Code: `context.globalStorageUri`.
    GlobalState,
    /// Read-only: the sources cargo unpacked from registries, `$CARGO_HOME/registry/src`
    /// (`~/.cargo/registry/src`), one folder per registry, then `<crate>-<version>/` (library docs).
    CargoRegistry,
    /// Read-only: the library docs shipped with the extension (`resources/library-docs/`).
    Bundled,
}

impl Area {
    pub const ALL: [Area; 5] = [
        Area::Workspace,
        Area::WorkspaceState,
        Area::GlobalState,
        Area::CargoRegistry,
        Area::Bundled,
    ];

    /// The name hosts receive (`host.read("workspaceState", "flags.json")`).
    pub fn as_str(self) -> &'static str {
        match self {
            Area::Workspace => "workspace",
            Area::WorkspaceState => "workspaceState",
            Area::GlobalState => "globalState",
            Area::CargoRegistry => "cargoRegistry",
            Area::Bundled => "bundled",
        }
    }

    pub fn parse(name: &str) -> Option<Area> {
        Area::ALL.into_iter().find(|area| area.as_str() == name)
    }

    /// How an error names the area to a person.
    pub fn describe(self) -> &'static str {
        match self {
            Area::Workspace => "the workspace folder",
            Area::WorkspaceState => "this workspace's state folder",
            Area::GlobalState => "the global state folder",
            Area::CargoRegistry => "the cargo registry sources",
            Area::Bundled => "the bundled library docs",
        }
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong in a host call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostErrorKind {
    /// No host, or the host has no folder for this area (an empty window has no workspace).
    Unavailable,
    /// The path was refused (outside the area, not a plain relative path).
    Refused,
    /// The file system failed (permissions, disk full, ...).
    Io,
    /// [`Host::http_get`]: the host has no answer for this URL yet. Asynchronous hosts answer
    /// HTTP requests from a per-call cache; on a miss they note the request, let the tool fail
    /// with this kind, fetch, and run the (read-only) tool again.
    Pending,
    /// [`Host::http_get`]: the request failed before an HTTP answer (refused, timed out, DNS).
    Network,
}

/// A failed host call. Its text is shown to agents, so it says what failed and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError {
    pub kind: HostErrorKind,
    pub message: String,
}

impl HostError {
    pub fn new(kind: HostErrorKind, message: impl Into<String>) -> Self {
        HostError {
            kind,
            message: message.into(),
        }
    }

    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(HostErrorKind::Unavailable, message)
    }

    pub fn refused(message: impl Into<String>) -> Self {
        Self::new(HostErrorKind::Refused, message)
    }

    pub fn io(message: impl Into<String>) -> Self {
        Self::new(HostErrorKind::Io, message)
    }

    /// The error of a host that offers no file access at all.
    pub fn no_host() -> Self {
        Self::unavailable(
            "This host offers no file access (no I/O bridge was passed to the core), so this tool cannot run here",
        )
    }

    /// The machine-readable `error_type` of the tool failure.
    pub fn error_type(&self) -> ErrorKind {
        match self.kind {
            HostErrorKind::Unavailable => ErrorKind::HostUnavailable,
            HostErrorKind::Refused => ErrorKind::PathRefused,
            HostErrorKind::Io => ErrorKind::IoError,
            HostErrorKind::Pending => ErrorKind::FetchPending,
            HostErrorKind::Network => ErrorKind::NetworkError,
        }
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for HostError {}

/// The host's I/O, called synchronously by tools. Paths are relative to the area's root, use `/`,
/// and have passed [`check_rel_path`].
pub trait Host {
    /// The bytes of a file, `None` when it does not exist.
    fn read(&self, area: Area, path: &str) -> Result<Option<Vec<u8>>, HostError>;
    /// Replaces (or creates) a file atomically: after a crash the file holds either its old or its
    /// new bytes, never a mix. Missing parent folders are created.
    fn write_atomic(&self, area: Area, path: &str, bytes: &[u8]) -> Result<(), HostError>;
    /// Removes a file; `false` when it did not exist.
    fn remove(&self, area: Area, path: &str) -> Result<bool, HostError>;
    /// The files under a folder ("" is the area's root), as `/`-separated paths relative to it,
    /// in any order; with `recursive`, files in subfolders too. A missing folder lists nothing.
    /// Hosts skip what they cannot safely follow (symlinks out of the area) and may cap the count.
    fn list(&self, area: Area, dir: &str, recursive: bool) -> Result<Vec<String>, HostError>;
    /// A setting's value (`copilotChatSecretary.content.categories`), `None` when unset.
    fn setting(&self, key: &str) -> Option<Value>;
    /// A file's size and modification time, `None` when it does not exist or the host cannot
    /// tell (the default): callers treat it as optional detail (`memory`'s `list`).
    fn stat(&self, _area: Area, _path: &str) -> Option<FileInfo> {
        None
    }
    /// The absolute folder of an area as the host sees it (`/home/me/proj`, `C:\\proj`), `None`
    /// when it has none or does not say (the default). Lets the core turn an absolute path an
    /// agent sends into one relative to the area, and refuse it when it lies outside.
    fn root(&self, _area: Area) -> Option<String> {
        None
    }
    /// The output of `git status --porcelain=v1 -z --untracked-files=all` for the folder `repo`
    /// of the workspace area (`""`: the workspace folder itself; checked by [`check_rel_path`]).
    /// The host only gathers it (the git CLI without a shell, or an editor's Git API rendered in
    /// the same format); the core parses and formats it (`crate::git`). The default: no git.
    fn git_status(&self, _repo: &str) -> Result<Vec<u8>, HostError> {
        Err(HostError::unavailable(
            "This host cannot read git status (no git access was given to the core)",
        ))
    }
    /// The names of the folders directly under `dir` ("" is the area's root), in any order; a
    /// missing folder lists nothing. Hosts skip links that lead out of the area. The default
    /// derives them from a recursive [`Host::list`] (enough for in-memory hosts; real hosts
    /// answer directly, since `list` skips folders such as `node_modules`).
    fn dirs(&self, area: Area, dir: &str) -> Result<Vec<String>, HostError> {
        dirs_from_list(self, area, dir)
    }
    /// An HTTP GET. Any HTTP answer (404 and 500 included) is `Ok`; [`HostErrorKind::Network`]
    /// when no answer came (refused, timed out), [`HostErrorKind::Pending`] when an asynchronous
    /// host has yet to fetch it (see there). Only read-only tools may call it: an asynchronous
    /// host runs the tool again once it has fetched the URL. The default: no network.
    fn http_get(&self, _request: &HttpRequest) -> Result<HttpResponse, HostError> {
        Err(HostError::unavailable(
            "This host cannot make HTTP requests",
        ))
    }
    /// Takes the exclusive lock of `path` (a file or a folder of `area`, whether it exists or
    /// not) for a read-modify-write, waiting a bounded time for another process that holds it.
    /// Several processes (VS Code windows, CLI runs, MCP servers) share one state folder, and a
    /// change read before another process's write and written after it would undo that write.
    /// [`HostErrorKind::Io`] when the lock stays taken. Callers pair it with
    /// [`Host::unlock`] through [`locked`]. The default: no other process, nothing to lock.
    fn lock(&self, _area: Area, _path: &str) -> Result<(), HostError> {
        Ok(())
    }
    /// Releases a lock [`Host::lock`] took.
    fn unlock(&self, _area: Area, _path: &str) {}
}

/// Runs `change` (a read-modify-write of `path`) while holding the host's lock of `path`, and
/// releases it whatever `change` answers. `failed` words a lock that could not be taken in the
/// caller's own error type.
pub fn locked<T, E>(
    host: &dyn Host,
    area: Area,
    path: &str,
    failed: impl FnOnce(HostError) -> E,
    change: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    host.lock(area, path).map_err(failed)?;
    let out = change();
    host.unlock(area, path);
    out
}

/// The folders under `dir` as a recursive [`Host::list`] shows them (the folders holding files).
pub fn dirs_from_list<H: Host + ?Sized>(
    host: &H,
    area: Area,
    dir: &str,
) -> Result<Vec<String>, HostError> {
    let mut out: Vec<String> = host
        .list(area, dir, true)?
        .iter()
        .filter_map(|path| path.split_once('/').map(|(first, _)| first.to_string()))
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// An HTTP GET request of the core ([`Host::http_get`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    pub url: String,
    /// Extra request headers (`Authorization`, `Accept`).
    pub headers: Vec<(String, String)>,
    /// The host gives up after this long and answers [`HostErrorKind::Network`].
    pub timeout_ms: u64,
}

/// The answer to an [`HttpRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    /// The body as text (UTF-8, invalid sequences replaced).
    pub body: String,
}

/// What a host can tell about a file without reading it ([`Host::stat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileInfo {
    /// Size in bytes.
    pub size: u64,
    /// Last modification, in milliseconds since the Unix epoch, when known.
    pub modified_ms: Option<i64>,
}

/// The host of a tool context, or the "no file access" error.
pub fn require(host: Option<&dyn Host>) -> Result<&dyn Host, HostError> {
    host.ok_or_else(HostError::no_host)
}

/// Checks a relative path before it reaches a host: non-empty `/`-separated segments, none of them
/// `.` or `..`, no leading `/`, no backslash, no drive letter, no NUL or other control character.
/// `allow_root` accepts `""` and `"."` for the area's root (listing).
pub fn check_rel_path(path: &str, allow_root: bool) -> Result<(), HostError> {
    let refuse = |why: &str| Err(HostError::refused(format!("Path {path:?} refused: {why}")));
    if path.is_empty() || path == "." {
        return if allow_root {
            Ok(())
        } else {
            refuse("it is empty")
        };
    }
    if path.chars().any(|c| c.is_control()) {
        return refuse("it contains a control character");
    }
    if path.contains('\\') {
        return refuse("use `/` to separate folders");
    }
    if path.starts_with('/') || path.starts_with('~') {
        return refuse("it must be relative");
    }
    let bytes = path.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        return refuse("it must be relative (no drive letter)");
    }
    for segment in path.split('/') {
        match segment {
            "" => return refuse("it has an empty folder name (`//` or a trailing `/`)"),
            "." | ".." => return refuse("`.` and `..` are not allowed"),
            _ => {}
        }
    }
    Ok(())
}

/// Joins two relative paths with `/` ("" and "." are the root).
pub fn join(dir: &str, rel: &str) -> String {
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() || dir == "." {
        rel.to_string()
    } else if rel.is_empty() {
        dir.to_string()
    } else {
        format!("{dir}/{rel}")
    }
}

/// An in-memory [`Host`] for tests (and hosts that want state without persistence). It can
/// simulate a crash in the middle of an atomic write: the temporary file stays behind and the
/// target keeps its old bytes, as a real temp-file-and-rename write would leave them.
#[derive(Debug, Default)]
pub struct MemoryHost {
    files: RefCell<BTreeMap<(Area, String), Vec<u8>>>,
    settings: RefCell<BTreeMap<String, Value>>,
    modified: RefCell<BTreeMap<(Area, String), i64>>,
    roots: RefCell<BTreeMap<Area, String>>,
    git: RefCell<BTreeMap<String, Vec<u8>>>,
    missing: RefCell<BTreeSet<Area>>,
    crash_next_write: Cell<bool>,
    writes: Cell<usize>,
    http: RefCell<BTreeMap<String, Result<HttpResponse, HostError>>>,
    http_requests: RefCell<Vec<HttpRequest>>,
    locks: RefCell<Vec<String>>,
}

impl MemoryHost {
    pub fn new() -> Self {
        Self::default()
    }

    /// Puts a file in place (no atomicity needed: test setup).
    pub fn put(&self, area: Area, path: &str, bytes: impl Into<Vec<u8>>) {
        self.files
            .borrow_mut()
            .insert((area, path.to_string()), bytes.into());
    }

    /// A file's bytes as text, for assertions.
    pub fn text(&self, area: Area, path: &str) -> Option<String> {
        self.files
            .borrow()
            .get(&(area, path.to_string()))
            .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
    }

    /// Every path of an area, sorted.
    pub fn paths(&self, area: Area) -> Vec<String> {
        self.files
            .borrow()
            .keys()
            .filter(|(a, _)| *a == area)
            .map(|(_, p)| p.clone())
            .collect()
    }

    pub fn set_setting(&self, key: &str, value: Value) {
        self.settings.borrow_mut().insert(key.to_string(), value);
    }

    /// Sets the modification time [`Host::stat`] reports for a file (none by default).
    pub fn set_modified(&self, area: Area, path: &str, ms: i64) {
        self.modified
            .borrow_mut()
            .insert((area, path.to_string()), ms);
    }

    /// Sets the absolute folder [`Host::root`] reports for an area.
    pub fn set_root(&self, area: Area, root: &str) {
        self.roots.borrow_mut().insert(area, root.to_string());
    }

    /// Sets the porcelain output [`Host::git_status`] answers for a repository folder (other
    /// folders answer "not a git repository").
    pub fn set_git_status(&self, repo: &str, porcelain: impl Into<Vec<u8>>) {
        self.git
            .borrow_mut()
            .insert(repo.to_string(), porcelain.into());
    }

    /// Sets what [`Host::http_get`] answers for a URL: an HTTP response, or an error (use
    /// [`HostErrorKind::Network`] for a refused connection or a timeout). Other URLs answer
    /// [`HostErrorKind::Pending`], as an asynchronous host does before it fetched them.
    pub fn set_http(&self, url: &str, answer: Result<HttpResponse, HostError>) {
        self.http.borrow_mut().insert(url.to_string(), answer);
    }

    /// Every HTTP request made so far, in order.
    pub fn http_requests(&self) -> Vec<HttpRequest> {
        self.http_requests.borrow().clone()
    }

    /// Every `lock` and `unlock` so far, in order (`"lock globalState/flags.json"`).
    pub fn lock_log(&self) -> Vec<String> {
        self.locks.borrow().clone()
    }

    /// Makes an area unavailable (as an empty window has no workspace folder).
    pub fn without_area(self, area: Area) -> Self {
        self.missing.borrow_mut().insert(area);
        self
    }

    /// The next `write_atomic` writes its temporary file and then fails before the rename.
    pub fn crash_next_write(&self) {
        self.crash_next_write.set(true);
    }

    /// How many atomic writes completed.
    pub fn writes(&self) -> usize {
        self.writes.get()
    }

    fn check(&self, area: Area, path: &str, allow_root: bool) -> Result<(), HostError> {
        if self.missing.borrow().contains(&area) {
            return Err(HostError::unavailable(format!(
                "No folder for {} in this host",
                area.describe()
            )));
        }
        check_rel_path(path, allow_root)
    }
}

impl Host for MemoryHost {
    fn read(&self, area: Area, path: &str) -> Result<Option<Vec<u8>>, HostError> {
        self.check(area, path, false)?;
        Ok(self.files.borrow().get(&(area, path.to_string())).cloned())
    }

    fn write_atomic(&self, area: Area, path: &str, bytes: &[u8]) -> Result<(), HostError> {
        self.check(area, path, false)?;
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        let temp = join(dir, &format!(".{name}.tmp"));
        self.put(area, &temp, bytes.to_vec());
        if self.crash_next_write.replace(false) {
            return Err(HostError::io(format!(
                "simulated crash while writing {area}/{path}"
            )));
        }
        let mut files = self.files.borrow_mut();
        let data = files.remove(&(area, temp)).unwrap_or_default();
        files.insert((area, path.to_string()), data);
        self.writes.set(self.writes.get() + 1);
        Ok(())
    }

    fn remove(&self, area: Area, path: &str) -> Result<bool, HostError> {
        self.check(area, path, false)?;
        Ok(self
            .files
            .borrow_mut()
            .remove(&(area, path.to_string()))
            .is_some())
    }

    fn list(&self, area: Area, dir: &str, recursive: bool) -> Result<Vec<String>, HostError> {
        self.check(area, dir, true)?;
        let dir = dir.trim_end_matches('/');
        let prefix = if dir.is_empty() || dir == "." {
            String::new()
        } else {
            format!("{dir}/")
        };
        Ok(self
            .files
            .borrow()
            .keys()
            .filter(|(a, _)| *a == area)
            .filter_map(|(_, p)| p.strip_prefix(prefix.as_str()))
            .filter(|rel| recursive || !rel.contains('/'))
            .map(str::to_string)
            .collect())
    }

    fn setting(&self, key: &str) -> Option<Value> {
        self.settings.borrow().get(key).cloned()
    }

    fn root(&self, area: Area) -> Option<String> {
        self.roots.borrow().get(&area).cloned()
    }

    fn git_status(&self, repo: &str) -> Result<Vec<u8>, HostError> {
        self.check(Area::Workspace, repo, true)?;
        self.git.borrow().get(repo).cloned().ok_or_else(|| {
            HostError::io(format!(
                "fatal: not a git repository (or any of the parent directories): {repo:?}"
            ))
        })
    }

    fn http_get(&self, request: &HttpRequest) -> Result<HttpResponse, HostError> {
        self.http_requests.borrow_mut().push(request.clone());
        self.http
            .borrow()
            .get(&request.url)
            .cloned()
            .unwrap_or_else(|| {
                Err(HostError::new(
                    HostErrorKind::Pending,
                    format!("Fetching {}", request.url),
                ))
            })
    }

    fn lock(&self, area: Area, path: &str) -> Result<(), HostError> {
        self.check(area, path, false)?;
        self.locks.borrow_mut().push(format!("lock {area}/{path}"));
        Ok(())
    }

    fn unlock(&self, area: Area, path: &str) {
        self.locks
            .borrow_mut()
            .push(format!("unlock {area}/{path}"));
    }

    fn stat(&self, area: Area, path: &str) -> Option<FileInfo> {
        self.check(area, path, false).ok()?;
        let key = (area, path.to_string());
        let size = self.files.borrow().get(&key)?.len() as u64;
        Some(FileInfo {
            size,
            modified_ms: self.modified.borrow().get(&key).copied(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_checked() {
        for ok in [
            "flags.json",
            "a/b.md",
            ".github/instructions/x.md",
            "a..b/c",
        ] {
            assert!(check_rel_path(ok, false).is_ok(), "{ok}");
        }
        for bad in [
            "",
            ".",
            "..",
            "../x",
            "a/../b",
            "a/./b",
            "/etc/passwd",
            "C:/x",
            "c:x",
            "a\\b",
            "a//b",
            "a/",
            "~/x",
            "a\0b",
        ] {
            let err = check_rel_path(bad, false).unwrap_err();
            assert_eq!(err.kind, HostErrorKind::Refused, "{bad}");
        }
        assert!(check_rel_path("", true).is_ok());
        assert!(check_rel_path(".", true).is_ok());
    }

    #[test]
    fn areas_round_trip_their_names() {
        for area in Area::ALL {
            assert_eq!(Area::parse(area.as_str()), Some(area));
        }
        assert_eq!(Area::parse("elsewhere"), None);
    }

    #[test]
    fn memory_host_lists_reads_writes_and_crashes() {
        let host = MemoryHost::new();
        host.put(Area::Workspace, "docs/a.md", "a");
        host.put(Area::Workspace, "docs/sub/b.md", "b");
        host.put(Area::Workspace, "top.md", "t");
        let mut flat = host.list(Area::Workspace, "docs", false).unwrap();
        flat.sort();
        assert_eq!(flat, ["a.md"]);
        let mut deep = host.list(Area::Workspace, "docs", true).unwrap();
        deep.sort();
        assert_eq!(deep, ["a.md", "sub/b.md"]);
        host.write_atomic(Area::GlobalState, "flags.json", b"1")
            .unwrap();
        host.crash_next_write();
        assert!(host
            .write_atomic(Area::GlobalState, "flags.json", b"2")
            .is_err());
        assert_eq!(
            host.text(Area::GlobalState, "flags.json").as_deref(),
            Some("1")
        );
        assert_eq!(
            host.paths(Area::GlobalState),
            [".flags.json.tmp", "flags.json"]
        );
        assert!(host.remove(Area::GlobalState, "flags.json").unwrap());
        assert!(!host.remove(Area::GlobalState, "flags.json").unwrap());
        let empty = MemoryHost::new().without_area(Area::WorkspaceState);
        let err = empty.read(Area::WorkspaceState, "flags.json").unwrap_err();
        assert_eq!(err.kind, HostErrorKind::Unavailable);
    }
}
