//! The search index over users' past requests, shared by `search_requests` (and later the
//! `@secretary /search` prompt). Building it costs a pass over every request, so it is cached and
//! rebuilt only when the sessions change (the store's generation) or the scope changes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::search::{Document, HybridIndex, HybridOptions};
use crate::session::SessionStore;

/// One indexed request: which dialog and which request (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRef {
    pub session_id: String,
    pub index: usize,
}

/// The requests of one scope, indexed.
#[derive(Debug)]
pub struct RequestIndex {
    pub refs: Vec<RequestRef>,
    pub index: HybridIndex,
    generation: u64,
    workspace: Option<String>,
    semantic: bool,
}

/// The cosine a request with no query word in it needs to be returned at all. Higher than for
/// tools: a user's history is large and varied, and "No matching requests." must stay possible
/// for a query about something never discussed.
const MIN_SEMANTIC: f32 = 0.3;

/// How requests are ranked: the same hybrid engine as tool search (TF-IDF fused with the static
/// embeddings; past requests are prose too), or TF-IDF alone when the semantic setting is off.
pub fn request_options(semantic: bool) -> HybridOptions {
    if semantic {
        HybridOptions {
            min_semantic: MIN_SEMANTIC,
            ..HybridOptions::default()
        }
    } else {
        HybridOptions::lexical_only()
    }
}

impl RequestIndex {
    /// Indexes every request of the available dialogs in `workspace` (`None`: all workspaces).
    pub fn build(store: &SessionStore, workspace: Option<&str>, semantic: bool) -> RequestIndex {
        let mut refs = Vec::new();
        let mut docs = Vec::new();
        for entry in store.entries() {
            if !entry.available || (workspace.is_some() && entry.workspace.as_deref() != workspace)
            {
                continue;
            }
            for request in &entry.dialog.requests {
                refs.push(RequestRef {
                    session_id: entry.dialog.session_id.clone(),
                    index: request.index,
                });
                docs.push(Document::new("", request.text.clone()));
            }
        }
        RequestIndex {
            refs,
            index: HybridIndex::with_options(&docs, request_options(semantic)),
            generation: store.generation(),
            workspace: workspace.map(str::to_owned),
            semantic,
        }
    }
}

/// A one-entry cache of the [`RequestIndex`] (hosts serve one workspace at a time).
#[derive(Debug, Default)]
pub struct HistoryCache {
    cached: RefCell<Option<Rc<RequestIndex>>>,
    /// `true` unless the semantic setting turned it off (see [`HistoryCache::set_semantic`]).
    lexical_only: Cell<bool>,
}

impl HistoryCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// Turns the semantic signal of request search on or off (setting
    /// `copilotChatSecretary.search.semantic`); the next search rebuilds the index.
    pub fn set_semantic(&self, on: bool) {
        self.lexical_only.set(!on);
    }

    /// Whether request search fuses the semantic signal.
    pub fn is_semantic(&self) -> bool {
        !self.lexical_only.get()
    }

    /// The index for this store state and scope, built if the cached one is stale.
    pub fn get(&self, store: &SessionStore, workspace: Option<&str>) -> Rc<RequestIndex> {
        let mut cached = self.cached.borrow_mut();
        if let Some(index) = cached.as_ref() {
            if index.generation == store.generation()
                && index.workspace.as_deref() == workspace
                && index.semantic == self.is_semantic()
            {
                return Rc::clone(index);
            }
        }
        let fresh = Rc::new(RequestIndex::build(store, workspace, self.is_semantic()));
        *cached = Some(Rc::clone(&fresh));
        fresh
    }
}
