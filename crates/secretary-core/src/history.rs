//! The search index over users' past requests, shared by `search_requests` (and later the
//! `@secretary /search` prompt). Building it costs a pass over every request, so it is cached and
//! rebuilt only when the sessions change (the store's generation) or the scope changes.

use std::cell::RefCell;
use std::rc::Rc;

use crate::search::{Document, Index};
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
    pub index: Index,
    generation: u64,
    workspace: Option<String>,
}

impl RequestIndex {
    /// Indexes every request of the available dialogs in `workspace` (`None`: all workspaces).
    pub fn build(store: &SessionStore, workspace: Option<&str>) -> RequestIndex {
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
            index: Index::build(&docs),
            generation: store.generation(),
            workspace: workspace.map(str::to_owned),
        }
    }
}

/// A one-entry cache of the [`RequestIndex`] (hosts serve one workspace at a time).
#[derive(Debug, Default)]
pub struct HistoryCache {
    cached: RefCell<Option<Rc<RequestIndex>>>,
}

impl HistoryCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The index for this store state and scope, built if the cached one is stale.
    pub fn get(&self, store: &SessionStore, workspace: Option<&str>) -> Rc<RequestIndex> {
        let mut cached = self.cached.borrow_mut();
        if let Some(index) = cached.as_ref() {
            if index.generation == store.generation() && index.workspace.as_deref() == workspace {
                return Rc::clone(index);
            }
        }
        let fresh = Rc::new(RequestIndex::build(store, workspace));
        *cached = Some(Rc::clone(&fresh));
        fresh
    }
}
