//! A dialog without its requests: what a listing of every session needs.
//!
//! Why: the hosts used to take every dialog with every request's text as one JSON string to list
//! sessions or to learn their workspaces. Two sessions of 450 MB of requests made that string longer
//! than V8 can hold, and every command failed (issue 27). A summary is a few hundred bytes whatever
//! the dialog's size.

use serde::Serialize;

use super::model::{DialogSource, DialogStatus, SessionFormat};
use super::store::StoredDialog;

/// One stored dialog as a listing shows it: its file, workspace and counts, not its requests.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DialogSummary {
    pub session_id: String,
    pub title: String,
    pub path: String,
    pub workspace: Option<String>,
    pub format: SessionFormat,
    pub source: DialogSource,
    pub folder: Option<String>,
    pub requests_count: usize,
    pub creation_date: Option<i64>,
    pub last_activity: Option<i64>,
    pub status: DialogStatus,
    pub available: bool,
}

impl DialogSummary {
    pub fn of(stored: &StoredDialog) -> Self {
        let dialog = &stored.dialog;
        DialogSummary {
            session_id: dialog.session_id.clone(),
            title: dialog.title.clone(),
            path: stored.path.clone(),
            workspace: stored.workspace.clone(),
            format: dialog.format,
            source: dialog.source,
            folder: dialog.folder.clone(),
            requests_count: dialog.requests.len(),
            creation_date: dialog.creation_date,
            last_activity: dialog.last_activity,
            status: dialog.status,
            available: stored.available,
        }
    }
}
