//! The tools agents call, one file per tool. Each file defines `pub static TOOL: ToolDef`; the
//! build script collects them into [`ALL`], so adding a file adds the tool.
//!
//! This file holds only what several tools share.

use serde_json::Value;

use crate::session::{SessionStore, StoredDialog};
use crate::tooling::{ToolContext, ToolResult};

include!(concat!(env!("OUT_DIR"), "/tools_registry.rs"));

/// Contract errors shared by the dialog tools (exact texts: agents and tests match them).
pub(crate) mod errors {
    pub const UNAVAILABLE: &str = "Service temporarily unavailable";
    pub const NO_ACTIVE_DIALOG: &str = "No active dialog found";
    pub const NO_CHAT_DATA: &str = "Chat data not available for session";
    pub fn session_not_found(id: &str) -> String {
        format!("Session not found: {id}")
    }
}

/// The sessions store, or the "not ready" failure.
pub(crate) fn sessions<'a>(ctx: &ToolContext<'a>) -> Result<&'a SessionStore, ToolResult> {
    ctx.sessions
        .ok_or_else(|| ToolResult::error(errors::UNAVAILABLE))
}

/// The dialog an agent means: the given session id, else the current dialog of its workspace.
/// A blank id counts as absent, since agents often send `""` for "the current one".
pub(crate) fn resolve_dialog<'a>(
    ctx: &ToolContext<'a>,
    session_id: Option<&str>,
) -> Result<&'a StoredDialog, ToolResult> {
    let store = sessions(ctx)?;
    match session_id.map(str::trim).filter(|id| !id.is_empty()) {
        Some(id) => store
            .get(id)
            .ok_or_else(|| ToolResult::error(errors::session_not_found(id))),
        None => store
            .current(ctx.workspace)
            .ok_or_else(|| ToolResult::error(errors::NO_ACTIVE_DIALOG)),
    }
}

/// A timestamp as ISO 8601, or JSON null when the file did not record one.
pub(crate) fn timestamp_value(ms: Option<i64>) -> Value {
    ms.map_or(Value::Null, |ms| Value::String(crate::text::iso8601(ms)))
}

/// Unwraps a `Result<T, ToolResult>` inside a tool's `run`, returning the failure as the result.
macro_rules! try_tool {
    ($expr:expr) => {
        match $expr {
            Ok(value) => value,
            Err(failure) => return failure,
        }
    };
}
pub(crate) use try_tool;

/// The host's tool catalog, or a failure saying this host has none.
pub(crate) fn catalog<'a>(
    ctx: &ToolContext<'a>,
) -> Result<&'a crate::catalog::Catalog, ToolResult> {
    ctx.catalog.ok_or_else(|| {
        ToolResult::failure(
            "Tool discovery is not available in this host",
            "unavailable",
        )
    })
}

/// A `limit` argument: absent means `default`, 0 is refused, anything above `max` is capped.
pub(crate) fn limit(given: Option<u32>, default: usize, max: usize) -> Result<usize, ToolResult> {
    match given {
        Some(0) => Err(ToolResult::error("Limit must be 1 or greater")),
        Some(n) => Ok((n as usize).min(max)),
        None => Ok(default),
    }
}
