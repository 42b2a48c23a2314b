use crate::history::HistoryCache;
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
}

impl<'a> ToolContext<'a> {
    pub fn new(sessions: Option<&'a SessionStore>, workspace: Option<&'a str>) -> Self {
        Self {
            sessions,
            workspace,
            history: None,
        }
    }

    /// The same context with a request-index cache that outlives the call.
    pub fn with_history(mut self, history: &'a HistoryCache) -> Self {
        self.history = Some(history);
        self
    }
}
