use super::catalog::Catalog;
use crate::history::HistoryCache;
use crate::host::Host;
use crate::session::live::{Caller, LiveCopy};
use crate::session::SessionStore;

/// What a tool may read while it runs. Hosts build one per call; it borrows, so a call costs no
/// copies of the parsed sessions.
#[derive(Clone, Copy)]
pub struct ToolContext<'a> {
    /// `None` while the host's sessions service is still starting: dialog tools then answer
    /// "Service temporarily unavailable" instead of guessing.
    pub sessions: Option<&'a SessionStore>,
    /// The workspace key of the caller (the folder the agent works in), used to pick the current
    /// dialog and to scope searches. `None` means every workspace.
    pub workspace: Option<&'a str>,
    /// The request search index, cached across calls by the host's facade.
    pub history: Option<&'a HistoryCache>,
    /// The tool catalog for discovery (`tool_find`...). `None` in hosts without one; deferred
    /// tools are then callable directly.
    pub catalog: Option<&'a Catalog>,
    /// The host's file I/O (`crate::host`). `None` in hosts without file access: tools that need
    /// files then answer a clear "no file access" failure.
    pub host: Option<&'a dyn Host>,
    /// Whether the host offers the example tools (`ToolSpec::example`).
    pub include_examples: bool,
    /// The chat that called, when the host knows it (VS Code's tool invocation token). Dialog
    /// tools then answer for that chat, not for the most recent one.
    pub caller: Option<&'a Caller>,
    /// The live copy of the last focused chat, once the host fetched it because a tool asked
    /// (`live_pending`); see `crate::session::live`.
    pub live: Option<&'a LiveCopy>,
    /// The host's clock (milliseconds since the epoch), when it has one. The core keeps none:
    /// request search reads "last week" relative to the newest request, and this bounds which
    /// requests may be the newest (see `history::Layout::now`).
    pub now: Option<i64>,
}

impl<'a> ToolContext<'a> {
    pub fn new(sessions: Option<&'a SessionStore>, workspace: Option<&'a str>) -> Self {
        Self {
            sessions,
            workspace,
            history: None,
            catalog: None,
            host: None,
            include_examples: false,
            caller: None,
            live: None,
            now: None,
        }
    }

    /// The same context knowing which chat called, and its live copy if the host has it.
    pub fn with_caller(mut self, caller: Option<&'a Caller>, live: Option<&'a LiveCopy>) -> Self {
        self.caller = caller;
        self.live = live;
        self
    }

    /// The same context with the host's tool catalog.
    pub fn with_catalog(mut self, catalog: &'a Catalog) -> Self {
        self.catalog = Some(catalog);
        self
    }

    /// The same context with the host's file I/O.
    pub fn with_host(mut self, host: &'a dyn Host) -> Self {
        self.host = Some(host);
        self
    }

    /// The same context offering (or hiding) the example tools.
    pub fn with_examples(mut self, include: bool) -> Self {
        self.include_examples = include;
        self
    }

    /// The same context reading the host's clock, `now` in milliseconds since the epoch.
    pub fn with_now(mut self, now: i64) -> Self {
        self.now = Some(now);
        self
    }

    /// The same context with a request-index cache that outlives the call.
    pub fn with_history(mut self, history: &'a HistoryCache) -> Self {
        self.history = Some(history);
        self
    }
}
