//! Every known session file's dialog, kept up to date incrementally.
//!
//! The host does all I/O; the store decides what to read. For each file the host stats, it asks
//! [`SessionStore::plan`] and reads accordingly (nothing, the whole file, or the bytes from an
//! offset), then hands the bytes to [`SessionStore::apply`]. A `.jsonl` file that grew is read
//! from just before where the last read ended, so following a live session costs time
//! proportional to what VS Code appended, not to the session's size. The few bytes read again
//! before that point are compared with what was read last time, which tells an append from a
//! rewrite (VS Code compacts a log into one `kind: 0` line after about a thousand entries).
//!
//! Which file speaks for a session: when `<id>.jsonl` and `<id>.json` both exist, the `.jsonl`
//! is the live one (VS Code never migrates old `.json` files) and the `.json` is shadowed; a
//! Copilot transcript is a secondary source, shadowed by any native file of the same session.
//! A readable file beats an unavailable one, so a session whose live file is gone is still
//! served from another copy. Exports carry no session id (theirs is the file stem) and neither
//! shadow nor are shadowed. Unreadable files are always listed (with their error), so hosts can
//! show them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::lines::{LineLog, LineSink};
use super::model::{Dialog, DialogSource, SessionFormat};
use super::record::{empty_dialog, file_stem};
use super::{detect, log_diags, read_full, FileKind, LiveReader, SessionError, MAX_SESSION_BYTES};

/// What the host knows about a file from a `stat`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileMeta {
    pub size: u64,
    /// Modification time in milliseconds since the Unix epoch.
    pub mtime_ms: f64,
}

/// What the host should read next for a file.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ReadPlan {
    /// Unchanged since the last read: read nothing.
    Skip,
    /// Read the whole file and pass it with offset 0.
    Full,
    /// Read from `offset` to the end and pass it with that offset.
    From { offset: u64 },
}

/// What an [`SessionStore::apply`] did.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyOutcome {
    /// The stored dialog (or its availability) changed; the store's generation moved.
    pub changed: bool,
    /// The bytes could not be applied as an append (the file was rewritten, or the offset does
    /// not follow the last read): read the whole file and apply it with offset 0.
    pub needs_full_read: bool,
}

/// One file's dialog as the store serves it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredDialog {
    /// The file's path, as the host named it.
    pub path: String,
    /// The workspace the host said the file belongs to (`None`: empty window / global).
    pub workspace: Option<String>,
    pub dialog: Dialog,
    /// False when the file is gone or unreadable: tools then answer "Chat data not available
    /// for session".
    pub available: bool,
    /// Why the last read of this file failed, when it did.
    pub error: Option<String>,
}

#[derive(Debug, Clone)]
struct Entry {
    stored: StoredDialog,
    /// The file's meta at the last read (successful or not); `None` after `remove`.
    meta: Option<FileMeta>,
    reader: Option<LiveReader>,
    /// A successful read happened at some point: the session is known.
    known: bool,
    shadowed: bool,
}

impl Entry {
    /// Lower is preferred among files of the same session.
    fn rank(&self) -> u8 {
        match self.stored.dialog.format {
            SessionFormat::NativeJsonl => 0,
            SessionFormat::NativeJson => 1,
            SessionFormat::Export => 2,
            SessionFormat::Transcript => 3,
            SessionFormat::CopilotCli
            | SessionFormat::ClaudeCode
            | SessionFormat::Codex
            | SessionFormat::GeminiCli
            | SessionFormat::QwenCode
            | SessionFormat::Cline
            | SessionFormat::RooCode
            | SessionFormat::KiloCode
            | SessionFormat::Continue
            | SessionFormat::OpenCode
            | SessionFormat::Aider
            | SessionFormat::Cursor => 4,
        }
    }

    /// Takes part in shadowing: readable-at-some-point, non-export, and not in error.
    fn competes(&self) -> bool {
        self.known
            && self.stored.error.is_none()
            && self.stored.dialog.format != SessionFormat::Export
    }
}

/// Preference among files of one session: available first, then the live format, then the most
/// recent activity, then the path (for a stable answer).
fn better(a: &Entry, b: &Entry) -> bool {
    let key = |e: &Entry| {
        (
            !e.stored.available,
            e.rank(),
            std::cmp::Reverse(e.stored.dialog.last_activity),
        )
    };
    let (ka, kb) = (key(a), key(b));
    ka < kb || (ka == kb && a.stored.path < b.stored.path)
}

/// The files of one session id, and which of them wins.
#[derive(Debug, Clone, Default)]
struct Group {
    /// In path order, so that a lookup by id finds the same file whatever order they came in.
    paths: BTreeSet<String>,
    /// The best of the files that compete ([`better`]), the one of them not shadowed; `None`
    /// when none competes. Kept so that a change to another file weighs that file alone: a
    /// session id shared by 10,000 files (copies, or planted) must not cost 10,000 for each.
    winner: Option<String>,
    /// The files that do not compete (exports, failed reads): never shadowed, so with the
    /// winner they are all [`SessionStore::get`] weighs, not every copy behind the winner.
    loose: BTreeSet<String>,
}

/// Every known session file's dialog. See the module docs for how hosts drive it.
#[derive(Debug, Clone)]
pub struct SessionStore {
    entries: BTreeMap<String, Entry>,
    /// The files of each dialog session id.
    by_id: HashMap<String, Group>,
    generation: u64,
    max_bytes: usize,
    /// The sources served (`None`: all); see [`SessionStore::set_sources`].
    sources: Option<Vec<DialogSource>>,
    /// The agent whose dialogs are "current" first; see [`SessionStore::set_current_source`].
    current_source: Option<DialogSource>,
}

impl Default for SessionStore {
    fn default() -> Self {
        Self::new()
    }
}

impl SessionStore {
    pub fn new() -> Self {
        Self::with_max_bytes(MAX_SESSION_BYTES)
    }

    /// A store that refuses files larger than `max_bytes` (tests, constrained hosts).
    pub fn with_max_bytes(max_bytes: usize) -> Self {
        SessionStore {
            entries: BTreeMap::new(),
            by_id: HashMap::new(),
            generation: 0,
            max_bytes,
            sources: None,
            current_source: None,
        }
    }

    /// Increments on every change to what the store serves; hosts and indexes compare it to
    /// know when to rebuild.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Narrows what the store serves to dialogs of these sources (`None`: every source): a
    /// `--source` flag or a setting. Files of other sources are still read, just not served.
    pub fn set_sources(&mut self, sources: Option<Vec<DialogSource>>) {
        if self.sources != sources {
            self.sources = sources;
            self.generation += 1;
        }
    }

    /// The agent whose most recent dialog of a workspace is the current one (the agent that
    /// runs the MCP server: its own session, not a VS Code chat in the same folder). When that
    /// agent has no dialog there, the rule falls back to every served source.
    /// The agent whose dialogs are "current" first, when the host said.
    pub fn current_source(&self) -> Option<DialogSource> {
        self.current_source
    }

    pub fn set_current_source(&mut self, source: Option<DialogSource>) {
        if self.current_source != source {
            self.current_source = source;
            self.generation += 1;
        }
    }

    fn serves(&self, entry: &Entry) -> bool {
        self.sources
            .as_ref()
            .is_none_or(|s| s.contains(&entry.stored.dialog.source))
    }

    /// The dialog of `source` with `session_id` (a VS Code chat token's `copilotcli:` or
    /// `claude-code:` session, say), whatever the source filter. Agent logs are named by the
    /// session id too (Claude Code `<id>.jsonl`, Copilot CLI `<id>/events.jsonl`, Codex
    /// `rollout-<time>-<id>.jsonl`), so a log whose id line is not read yet is found by its path.
    pub fn find(&self, source: DialogSource, session_id: &str) -> Option<&StoredDialog> {
        if session_id.is_empty() {
            return None;
        }
        let of_source = |e: &&Entry| !e.shadowed && e.stored.dialog.source == source;
        if let Some(found) = self
            .by_id
            .get(session_id)
            .into_iter()
            .flat_map(|group| &group.paths)
            .filter_map(|p| self.entries.get(p))
            .find(of_source)
        {
            return Some(&found.stored);
        }
        // Made once: a brand-new chat's id is asked for before its file exists, so this walk
        // over every file runs on each of its tool calls until then.
        let dashed = format!("-{session_id}");
        self.entries
            .values()
            .filter(of_source)
            .find(|e| {
                let path = e.stored.path.as_str();
                let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
                let stem = base.strip_suffix(".jsonl").unwrap_or(base);
                stem == session_id
                    || stem.ends_with(&dashed)
                    || (stem == "events"
                        && path
                            .rsplit(['/', '\\'])
                            .nth(1)
                            .is_some_and(|dir| dir == session_id))
            })
            .map(|e| &e.stored)
    }

    /// What to read for `path`, given its current `stat`.
    pub fn plan(&self, path: &str, meta: FileMeta) -> ReadPlan {
        let Some(entry) = self.entries.get(path) else {
            return ReadPlan::Full;
        };
        if entry.meta == Some(meta) {
            return ReadPlan::Skip;
        }
        if !entry.stored.available || entry.stored.error.is_some() {
            return ReadPlan::Full;
        }
        let Some(log) = entry.reader.as_ref().and_then(LiveReader::log) else {
            return ReadPlan::Full;
        };
        let end = (log.read_end(), log.resume_at());
        if meta.size > end.0 {
            ReadPlan::From { offset: end.1 }
        } else {
            ReadPlan::Full
        }
    }

    /// Applies what the host read. `offset` 0: `bytes` is the whole file; otherwise `bytes` runs
    /// from `offset` to the end of the file, as [`SessionStore::plan`] asked.
    ///
    /// A failed whole-file read returns the error and still records it: the path stays listed
    /// (unavailable, with the error), and a session known from it keeps its last dialog.
    pub fn apply(
        &mut self,
        path: &str,
        workspace: Option<&str>,
        meta: FileMeta,
        offset: u64,
        bytes: &[u8],
    ) -> Result<ApplyOutcome, SessionError> {
        if meta.size > self.max_bytes as u64 {
            let error = SessionError::TooLarge {
                size: meta.size,
                limit: self.max_bytes as u64,
            };
            self.record_failure(path, workspace, meta, bytes, &error);
            return Err(error);
        }
        if offset == 0 {
            return self.full_read(path, workspace, meta, bytes);
        }
        let max_bytes = self.max_bytes as u64;
        let Some(entry) = self.entries.get_mut(path) else {
            return Ok(ApplyOutcome {
                changed: false,
                needs_full_read: true,
            });
        };
        if !entry.stored.available || entry.stored.error.is_some() {
            return Ok(ApplyOutcome {
                changed: false,
                needs_full_read: true,
            });
        }
        let old_id = entry.stored.dialog.session_id.clone();
        let fed = entry
            .reader
            .as_mut()
            .and_then(LiveReader::log_mut)
            .and_then(|log| log.append(offset, bytes, max_bytes, &mut entry.stored.dialog, path));
        let Some(changed) = fed else {
            return Ok(ApplyOutcome {
                changed: false,
                needs_full_read: true,
            });
        };
        entry.meta = Some(meta);
        let workspace = workspace
            .map(str::to_owned)
            .or_else(|| entry.stored.dialog.folder.as_deref().map(super::folder_key));
        let workspace_changed = entry.stored.workspace != workspace;
        if workspace_changed {
            entry.stored.workspace = workspace;
        }
        let changed = changed || workspace_changed;
        if changed {
            let new_id = entry.stored.dialog.session_id.clone();
            self.reindex(path, &old_id, &new_id);
            self.generation += 1;
        }
        Ok(ApplyOutcome {
            changed,
            needs_full_read: false,
        })
    }

    fn full_read(
        &mut self,
        path: &str,
        workspace: Option<&str>,
        meta: FileMeta,
        bytes: &[u8],
    ) -> Result<ApplyOutcome, SessionError> {
        match read_full(path, bytes, self.max_bytes) {
            Ok((mut dialog, reader)) => {
                // Continue's messages carry no times: the file's stands for the last activity.
                if dialog.format == SessionFormat::Continue
                    && dialog.last_activity.is_none()
                    && meta.mtime_ms.is_finite()
                    && meta.mtime_ms > 0.0
                {
                    dialog.last_activity = Some(meta.mtime_ms as i64);
                }
                let workspace = workspace
                    .map(str::to_owned)
                    .or_else(|| dialog.folder.as_deref().map(super::folder_key));
                let stored = StoredDialog {
                    path: path.to_owned(),
                    workspace,
                    dialog,
                    available: true,
                    error: None,
                };
                let old_id = self
                    .entries
                    .get(path)
                    .map(|e| e.stored.dialog.session_id.clone());
                let changed = !matches!(self.entries.get(path), Some(e) if e.stored == stored);
                let new_id = stored.dialog.session_id.clone();
                self.entries.insert(
                    path.to_owned(),
                    Entry {
                        stored,
                        meta: Some(meta),
                        reader: Some(reader),
                        known: true,
                        shadowed: false,
                    },
                );
                self.reindex(path, old_id.as_deref().unwrap_or(&new_id), &new_id);
                if changed {
                    self.generation += 1;
                }
                Ok(ApplyOutcome {
                    changed,
                    needs_full_read: false,
                })
            }
            Err(error) => {
                self.record_failure(path, workspace, meta, bytes, &error);
                Err(error)
            }
        }
    }

    /// Keeps a failed read visible: a known session keeps its dialog but becomes unavailable; an
    /// unknown file gets a placeholder dialog carrying the error.
    fn record_failure(
        &mut self,
        path: &str,
        workspace: Option<&str>,
        meta: FileMeta,
        bytes: &[u8],
        error: &SessionError,
    ) {
        let message = error.to_string();
        let old_id;
        let new_id;
        let changed;
        match self.entries.get_mut(path) {
            Some(entry) => {
                old_id = entry.stored.dialog.session_id.clone();
                changed = entry.stored.available
                    || entry.stored.error.as_deref() != Some(message.as_str());
                entry.stored.available = false;
                entry.stored.error = Some(message);
                entry.stored.workspace = workspace.map(str::to_owned);
                entry.meta = Some(meta);
                entry.reader = None;
                new_id = entry.stored.dialog.session_id.clone();
            }
            None => {
                let dialog = failed_dialog(path, bytes, &message);
                new_id = dialog.session_id.clone();
                old_id = new_id.clone();
                self.entries.insert(
                    path.to_owned(),
                    Entry {
                        stored: StoredDialog {
                            path: path.to_owned(),
                            workspace: workspace.map(str::to_owned),
                            dialog,
                            available: false,
                            error: Some(message),
                        },
                        meta: Some(meta),
                        reader: None,
                        known: false,
                        shadowed: false,
                    },
                );
                changed = true;
            }
        }
        self.reindex(path, &old_id, &new_id);
        if changed {
            self.generation += 1;
        }
    }

    /// The file is gone. A session known from it stays known but unavailable; an unreadable file
    /// that was never a session is forgotten.
    pub fn remove(&mut self, path: &str) {
        let Some(entry) = self.entries.get_mut(path) else {
            return;
        };
        let id = entry.stored.dialog.session_id.clone();
        if !entry.known {
            self.entries.remove(path);
            self.unindex(path, &id);
            self.generation += 1;
            return;
        }
        let changed = entry.stored.available || entry.stored.error.is_some();
        entry.stored.available = false;
        entry.stored.error = None;
        entry.meta = None;
        entry.reader = None;
        self.refresh_shadows(&id, Some(path));
        if changed {
            self.generation += 1;
        }
    }

    /// Every dialog the store serves, shadowed duplicates left out, in path order.
    pub fn entries(&self) -> impl Iterator<Item = &StoredDialog> {
        self.entries
            .values()
            .filter(|e| !e.shadowed && self.serves(e))
            .map(|e| &e.stored)
    }

    /// The dialogs of `workspace` (`None`: of every workspace), most recently active first; ties
    /// (and dialogs without a recorded activity, last) by session id. The one order every host
    /// shows: `list_dialogs`, the sidebar, the CLI.
    pub fn recent(&self, workspace: Option<&str>) -> Vec<&StoredDialog> {
        let mut found: Vec<&StoredDialog> = self
            .entries()
            .filter(|entry| workspace.is_none() || entry.workspace.as_deref() == workspace)
            .collect();
        found.sort_by(|a, b| {
            b.dialog
                .last_activity
                .cmp(&a.dialog.last_activity)
                .then_with(|| a.dialog.session_id.cmp(&b.dialog.session_id))
        });
        found
    }

    /// The file entry for a path, shadowed or not.
    pub fn entry(&self, path: &str) -> Option<&StoredDialog> {
        self.entries.get(path).map(|e| &e.stored)
    }

    /// The dialog for a session id: the preferred file of that session (see the module docs).
    pub fn get(&self, session_id: &str) -> Option<&StoredDialog> {
        let group = self.by_id.get(session_id)?;
        let mut best: Option<&Entry> = None;
        // Every other file of the id is shadowed behind the winner.
        let unshadowed = group.winner.iter().chain(&group.loose);
        for entry in unshadowed.filter_map(|p| self.entries.get(p)) {
            if !self.serves(entry) {
                continue;
            }
            if !matches!(best, Some(b) if !better(entry, b)) {
                best = Some(entry);
            }
        }
        best.map(|e| &e.stored)
    }

    /// The most recently active available dialog of `workspace` (`None`: of any workspace).
    pub fn current(&self, workspace: Option<&str>) -> Option<&StoredDialog> {
        // VS Code writes an empty session file when a chat view opens; such a session must not
        // shadow the dialog the user is actually in, so dialogs with requests come first and an
        // empty one is current only when no dialog has requests.
        let candidates = || {
            self.entries
                .values()
                .filter(|e| !e.shadowed && e.stored.available && self.serves(e))
                .filter(|e| workspace.is_none() || e.stored.workspace.as_deref() == workspace)
        };
        let own = self
            .current_source
            .filter(|source| candidates().any(|e| e.stored.dialog.source == *source));
        candidates()
            .filter(|e| own.is_none_or(|source| e.stored.dialog.source == source))
            .max_by(|a, b| {
                let (a, b) = (&a.stored, &b.stored);
                (!a.dialog.requests.is_empty())
                    .cmp(&!b.dialog.requests.is_empty())
                    .then_with(|| a.dialog.last_activity.cmp(&b.dialog.last_activity))
                    .then_with(|| b.path.cmp(&a.path))
            })
            .map(|e| &e.stored)
    }

    /// Takes `path` out of `id`'s group; the group's shadows are weighed again only when it was
    /// the winner.
    fn unindex(&mut self, path: &str, id: &str) {
        let Some(group) = self.by_id.get_mut(id) else {
            return;
        };
        group.paths.remove(path);
        group.loose.remove(path);
        if group.paths.is_empty() {
            self.by_id.remove(id);
        } else if group.winner.as_deref() == Some(path) {
            group.winner = None;
            self.refresh_shadows(id, None);
        }
    }

    /// Moves `path` from `old_id`'s group to `new_id`'s and settles the shadows of both.
    fn reindex(&mut self, path: &str, old_id: &str, new_id: &str) {
        if old_id != new_id {
            self.unindex(path, old_id);
        }
        let group = self.by_id.entry(new_id.to_owned()).or_default();
        if !group.paths.contains(path) {
            group.paths.insert(path.to_owned());
        }
        self.refresh_shadows(new_id, Some(path));
    }

    /// Settles which files of one session are shadowed after `changed` (one of them) changed, or
    /// weighs them all again (`changed` is `None`, or it was the winner and may have lost).
    fn refresh_shadows(&mut self, id: &str, changed: Option<&str>) {
        let Some(group) = self.by_id.get_mut(id) else {
            return;
        };
        if changed.is_some_and(|path| weigh_one(&mut self.entries, group, path)) {
            return;
        }
        let mut winner: Option<&Entry> = None;
        for entry in group.paths.iter().filter_map(|p| self.entries.get(p)) {
            if entry.competes() && !matches!(winner, Some(w) if !better(entry, w)) {
                winner = Some(entry);
            }
        }
        group.winner = winner.map(|w| w.stored.path.clone());
        group.loose.clear();
        for path in &group.paths {
            if let Some(entry) = self.entries.get_mut(path) {
                entry.shadowed = entry.competes() && group.winner.as_ref() != Some(path);
                if !entry.competes() {
                    group.loose.insert(path.clone());
                }
            }
        }
    }
}

/// Settles the shadow of `path` alone, against the group's winner when that is another file
/// (it stays behind it, or takes its place) or as the only competitor when none competes. False
/// when `path` was the winner: it may have lost, and the whole group must be weighed again.
fn weigh_one(entries: &mut BTreeMap<String, Entry>, group: &mut Group, path: &str) -> bool {
    let Some(entry) = entries.get(path) else {
        return false;
    };
    let competes = entry.competes();
    let takes_over = match group.winner.as_deref() {
        Some(winner) if winner == path => return false,
        Some(winner) => match entries.get(winner) {
            Some(w) if w.competes() => competes && better(entry, w),
            _ => return false,
        },
        None => competes,
    };
    if takes_over {
        if let Some(old) = group.winner.replace(path.to_owned()) {
            if let Some(w) = entries.get_mut(&old) {
                w.shadowed = true;
            }
        }
    }
    if let Some(entry) = entries.get_mut(path) {
        entry.shadowed = competes && !takes_over;
    }
    if competes {
        group.loose.remove(path);
    } else {
        group.loose.insert(path.to_owned());
    }
    true
}

/// What the store asks of every appendable reader, whatever its line format.
pub(crate) trait LiveLog {
    /// The stream offset just after the last byte fed.
    fn read_end(&self) -> u64;
    /// Where the host should read from next (the start of a cut-off last line).
    fn resume_at(&self) -> u64;
    /// Feeds the bytes read from `offset` and refreshes `dialog`. `Some(changed)`, or `None` when
    /// the bytes do not continue what was read (a rewritten file) or would pass the size cap:
    /// the host must read the whole file again.
    fn append(
        &mut self,
        offset: u64,
        bytes: &[u8],
        max_bytes: u64,
        dialog: &mut Dialog,
        path: &str,
    ) -> Option<bool>;
}

impl<S: LineSink> LiveLog for LineLog<S> {
    fn read_end(&self) -> u64 {
        self.end()
    }

    fn resume_at(&self) -> u64 {
        self.resume_offset()
    }

    fn append(
        &mut self,
        offset: u64,
        bytes: &[u8],
        max_bytes: u64,
        dialog: &mut Dialog,
        path: &str,
    ) -> Option<bool> {
        let skip = self.check_overlap(offset, bytes)?;
        if self.end() + (bytes.len() - skip) as u64 > max_bytes {
            return None;
        }
        if !self.feed(&bytes[skip..]) {
            return Some(false);
        }
        let diags = log_diags(self);
        Some(self.sink.refresh(dialog, path, diags))
    }
}

/// The dialog that stands for a file no reader could read: its format and session id guessed
/// from its name and first bytes, untitled, the error as its one diagnostic.
fn failed_dialog(path: &str, bytes: &[u8], message: &str) -> Dialog {
    let format = match detect(path, bytes) {
        FileKind::Json if path.split(['/', '\\']).any(|c| c == "chatSessions") => {
            SessionFormat::NativeJson
        }
        FileKind::Json => SessionFormat::Export,
        FileKind::Jsonl => SessionFormat::NativeJsonl,
        FileKind::Transcript => SessionFormat::Transcript,
        FileKind::Agent(agent) => agent.format(),
        FileKind::Task(agent) => agent.format(),
        FileKind::Continue => SessionFormat::Continue,
        FileKind::OpenCode => super::agents::opencode::format_of(path),
        FileKind::Cursor => SessionFormat::Cursor,
    };
    let mut dialog = empty_dialog(format);
    dialog.session_id = match format {
        SessionFormat::OpenCode | SessionFormat::KiloCode
            if super::agents::opencode::detect(path) =>
        {
            path.rsplit_once('#')
                .map_or_else(|| file_stem(path), |(_, id)| id.to_string())
        }
        SessionFormat::Cline | SessionFormat::RooCode | SessionFormat::KiloCode => {
            super::agents::cline::task_id(path)
        }
        SessionFormat::Aider => super::agents::aider::session_id_of(path),
        SessionFormat::Cursor => super::agents::cursor::conversation_of(path)
            .unwrap_or_default()
            .to_string(),
        _ => file_stem(path),
    };
    dialog.title = "Untitled dialog".to_string();
    dialog.diagnostics = vec![message.to_owned()];
    dialog
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One change a host may make: a file written (as a session of `id`, active at `time`),
    /// spoilt, or removed.
    #[derive(Debug, Clone)]
    enum Op {
        Write { file: usize, id: usize, time: i64 },
        Spoil { file: usize },
        Remove { file: usize },
    }

    const FILES: [&str; 6] = [
        "/w/chatSessions/a.json",
        "/w/chatSessions/a.jsonl",
        "/w/chatSessions/b.json",
        "/w/chatSessions/b.jsonl",
        "/w/chatSessions/c.json",
        "/w/export.json",
    ];

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0..FILES.len(), 0..3usize, 0..4i64)
                .prop_map(|(file, id, time)| Op::Write { file, id, time }),
            1 => (0..FILES.len()).prop_map(|file| Op::Spoil { file }),
            1 => (0..FILES.len()).prop_map(|file| Op::Remove { file }),
        ]
    }

    fn bytes(path: &str, id: usize, time: i64) -> String {
        let request = format!(
            r#"{{"requestId":"r","timestamp":{},"message":{{"text":"t"}}}}"#,
            1000 + time
        );
        let session = format!(r#"{{"version":3,"sessionId":"s{id}","requests":[{request}]}}"#);
        if path.ends_with("export.json") {
            format!(r#"{{"requests":[{request}]}}"#)
        } else if path.ends_with(".jsonl") {
            format!("{{\"kind\":0,\"v\":{session}}}\n")
        } else {
            session
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// However files come, change, spoil and go, each session's shadows are those that
        /// weighing all its files again gives: the winner kept per session stays the best.
        #[test]
        fn shadows_kept_per_change_match_a_whole_weighing(ops in prop::collection::vec(op(), 1..40)) {
            let mut store = SessionStore::new();
            for (step, op) in ops.iter().enumerate() {
                let mtime = step as f64 + 1.0;
                match *op {
                    Op::Write { file, id, time } => {
                        let path = FILES[file];
                        let text = bytes(path, id, time);
                        let meta = FileMeta { size: text.len() as u64, mtime_ms: mtime };
                        let _ = store.apply(path, Some("w"), meta, 0, text.as_bytes());
                    }
                    Op::Spoil { file } => {
                        let meta = FileMeta { size: 3, mtime_ms: mtime };
                        let _ = store.apply(FILES[file], Some("w"), meta, 0, b"{\"v");
                    }
                    Op::Remove { file } => store.remove(FILES[file]),
                }
                for (id, group) in &store.by_id {
                    let mut best: Option<&Entry> = None;
                    for entry in group.paths.iter().filter_map(|p| store.entries.get(p)) {
                        prop_assert_eq!(&entry.stored.dialog.session_id, id);
                        if entry.competes() && !matches!(best, Some(b) if !better(entry, b)) {
                            best = Some(entry);
                        }
                    }
                    let best = best.map(|b| b.stored.path.clone());
                    prop_assert_eq!(&group.winner, &best, "{:?}", ops);
                    for path in &group.paths {
                        let entry = &store.entries[path];
                        let shadowed = entry.competes() && best.as_ref() != Some(path);
                        prop_assert_eq!(entry.shadowed, shadowed, "{} after {:?}", path, ops);
                        let loose = group.loose.contains(path);
                        prop_assert_eq!(loose, !entry.competes(), "{} after {:?}", path, ops);
                    }
                    prop_assert!(group.loose.is_subset(&group.paths));
                    // `get` answers what weighing every unshadowed file of the id gives.
                    let mut answer: Option<&Entry> = None;
                    for entry in group.paths.iter().filter_map(|p| store.entries.get(p)) {
                        if !entry.shadowed && !matches!(answer, Some(b) if !better(entry, b)) {
                            answer = Some(entry);
                        }
                    }
                    let answer = answer.map(|e| e.stored.path.as_str());
                    prop_assert_eq!(store.get(id).map(|d| d.path.as_str()), answer, "{:?}", ops);
                }
                let grouped: usize = store.by_id.values().map(|g| g.paths.len()).sum();
                prop_assert_eq!(grouped, store.entries.len());
            }
        }
    }
}
