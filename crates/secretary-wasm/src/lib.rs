//! The wasm-bindgen facade over `secretary-core`: one [`Secretary`] type, JSON in and out.
//!
//! Nothing here decides anything: every rule lives in the core, so that the VS Code extension,
//! the MCP server and the CLI (all JavaScript hosts loading this module) answer alike.

use secretary_core::history::HistoryCache;
use secretary_core::session::{self, FileMeta, SessionStore};
use secretary_core::tooling::{self, ToolContext};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The core's state as one JavaScript object: the parsed sessions and the tool catalog.
#[wasm_bindgen]
pub struct Secretary {
    store: SessionStore,
    /// False until the host has fed its first scan: dialog tools then answer "Service temporarily
    /// unavailable" rather than "No active dialog found".
    ready: bool,
    /// The request search index, rebuilt only when the sessions change.
    history: HistoryCache,
}

impl Default for Secretary {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl Secretary {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Secretary {
        Secretary {
            store: SessionStore::new(),
            ready: false,
            history: HistoryCache::new(),
        }
    }

    /// Marks the sessions service ready (or not).
    #[wasm_bindgen(js_name = setReady)]
    pub fn set_ready(&mut self, ready: bool) {
        self.ready = ready;
    }

    /// What the host should read of `path`: `{"kind":"skip"}`, `{"kind":"full"}` or
    /// `{"kind":"from","offset":N}`.
    pub fn plan(&self, path: &str, size: f64, mtime_ms: f64) -> Result<JsValue, JsError> {
        to_js(&self.store.plan(path, meta(size, mtime_ms)))
    }

    /// Feeds the bytes the plan asked for (`offset` 0: the whole file).
    pub fn apply(
        &mut self,
        path: &str,
        workspace: Option<String>,
        size: f64,
        mtime_ms: f64,
        offset: f64,
        bytes: &[u8],
    ) -> Result<JsValue, JsError> {
        let outcome = self
            .store
            .apply(
                path,
                workspace.as_deref(),
                meta(size, mtime_ms),
                offset.max(0.0) as u64,
                bytes,
            )
            .map_err(into_error)?;
        to_js(&outcome)
    }

    /// The file at `path` is gone.
    pub fn remove(&mut self, path: &str) {
        self.store.remove(path);
    }

    /// Increments whenever the known dialogs change.
    pub fn generation(&self) -> f64 {
        self.store.generation() as f64
    }

    /// Runs a tool. Always returns the JSON text of a tool result, success or failure.
    pub fn invoke(&self, name: &str, args_json: &str, workspace: Option<String>) -> String {
        let args = match serde_json::from_str(if args_json.trim().is_empty() {
            "{}"
        } else {
            args_json
        }) {
            Ok(args) => args,
            Err(err) => {
                return tooling::ToolResult::failure(
                    format!("Invalid arguments: not JSON ({err})"),
                    "invalid_arguments",
                )
                .to_json()
            }
        };
        let sessions = self.ready.then_some(&self.store);
        let ctx = ToolContext::new(sessions, workspace.as_deref()).with_history(&self.history);
        tooling::invoke(name, &args, &ctx).to_json()
    }

    /// Every tool's name, schema and generated description, as JSON text.
    pub fn tools(&self) -> String {
        tooling::listing().to_string()
    }

    /// Every known dialog (with path, workspace and availability), as JSON text.
    pub fn dialogs(&self) -> String {
        let entries: Vec<_> = self.store.entries().collect();
        serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into())
    }

    /// One dialog by session id, as JSON text (`null` when unknown).
    pub fn dialog(&self, session_id: &str) -> String {
        serde_json::to_string(&self.store.get(session_id)).unwrap_or_else(|_| "null".into())
    }

    /// The current dialog of `workspace` (`null` when none), as JSON text.
    #[wasm_bindgen(js_name = currentDialog)]
    pub fn current_dialog(&self, workspace: Option<String>) -> String {
        serde_json::to_string(&self.store.current(workspace.as_deref()))
            .unwrap_or_else(|_| "null".into())
    }
}

/// Parses one session file without keeping it (the CLI's `show`).
#[wasm_bindgen(js_name = parseSession)]
pub fn parse_session(file_name: &str, bytes: &[u8]) -> Result<String, JsError> {
    let dialog = session::parse(file_name, bytes).map_err(into_error)?;
    serde_json::to_string(&dialog).map_err(into_error)
}

/// The response of one request (markdown and tool-call count), parsed on demand.
#[wasm_bindgen(js_name = responseDetails)]
pub fn response_details(file_name: &str, bytes: &[u8], index: usize) -> Result<String, JsError> {
    let details = session::response_details(file_name, bytes, index).map_err(into_error)?;
    serde_json::to_string(&details).map_err(into_error)
}

/// The `contributes.languageModelTools` array for `package.json`, as JSON text.
#[wasm_bindgen(js_name = languageModelTools)]
pub fn language_model_tools() -> String {
    tooling::language_model_tools().to_string()
}

/// The core's version, to log at start-up.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Traps on purpose. Hosts' tests call it to prove that a panic inside the module is caught,
/// answered as a tool error, and followed by a fresh instance.
#[wasm_bindgen(js_name = debugTrap)]
pub fn debug_trap() {
    panic!("debugTrap: deliberate trap for testing recovery");
}

fn meta(size: f64, mtime_ms: f64) -> FileMeta {
    FileMeta {
        size: size.max(0.0) as u64,
        mtime_ms,
    }
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value).map_err(into_error)
}

/// The one place core errors become JavaScript exceptions.
fn into_error<E: std::fmt::Display>(err: E) -> JsError {
    JsError::new(&err.to_string())
}
