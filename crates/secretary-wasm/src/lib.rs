//! The wasm-bindgen facade over `secretary-core`: one [`Secretary`] type, JSON in and out.
//!
//! Nothing here decides anything: every rule lives in the core, so that the VS Code extension,
//! the MCP server and the CLI (all JavaScript hosts loading this module) answer alike.

mod host;
pub mod listing;

use std::cell::OnceCell;

use secretary_core::history::HistoryCache;
use secretary_core::recall;
use secretary_core::registry;
use secretary_core::session::live::{Caller, LiveCopy};
use secretary_core::session::{self, FileMeta, SessionStore};
use secretary_core::toolkit::catalog::{Catalog, CatalogTool};
use secretary_core::toolkit::ErrorKind;
use secretary_core::toolkit::{ToolContext, ToolResult, VSCODE_PREFIX};
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
    /// Every tool the agent could use, for discovery. Built on first use: most calls never
    /// need it, and building it costs start-up time.
    catalog: OnceCell<Catalog>,
    /// How the host names and offers the own tools (see `configureTools`).
    own_prefix: String,
    legacy_prefixes: Vec<String>,
    excluded: Vec<String>,
    /// Whether tool search fuses the semantic signal (setting `copilotChatSecretary.search.semantic`).
    semantic: bool,
    /// Whether this host offers the example tools (`setIncludeExamples`).
    include_examples: bool,
}

impl Secretary {
    /// What a tool or prompt may read during one call.
    fn context<'a>(&'a self, workspace: Option<&'a str>, call: &'a CallerInput) -> ToolContext<'a> {
        // Dialog tools answer "Service temporarily unavailable" until the host's first scan.
        let sessions = self.ready.then_some(&self.store);
        ToolContext::new(sessions, workspace)
            .with_history(&self.history)
            .with_catalog(self.catalog())
            .with_examples(self.include_examples)
            .with_caller(call.caller.as_ref(), call.live.as_ref())
            .with_now(js_sys::Date::now() as i64)
    }

    fn catalog(&self) -> &Catalog {
        self.catalog.get_or_init(|| {
            Catalog::excluding(
                &self.own_prefix,
                Vec::new(),
                &self.legacy_prefixes,
                &self.excluded,
            )
        })
    }
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
            catalog: OnceCell::new(),
            own_prefix: VSCODE_PREFIX.to_string(),
            legacy_prefixes: Vec::new(),
            excluded: Vec::new(),
            semantic: true,
            include_examples: false,
        }
    }

    /// Offers (or hides) the example tools, as the host's setting says
    /// (`copilotChatSecretary.includeExampleTools`, `MCP_INCLUDE_EXAMPLE_TOOLS`).
    #[wasm_bindgen(js_name = setIncludeExamples)]
    pub fn set_include_examples(&mut self, include: bool) {
        self.include_examples = include;
    }

    /// Names the host gives the Secretary's own tools (`chat_secretary_` in VS Code, the
    /// `MCP_TOOL_PREFIX` form over MCP), old prefixes to answer with a rename, and own tools
    /// (plain names) the host does not offer. Resets the catalog's external tools and active set.
    #[wasm_bindgen(js_name = configureTools)]
    pub fn configure_tools(
        &mut self,
        own_prefix: &str,
        legacy_prefixes: Vec<String>,
        excluded: Option<Vec<String>>,
    ) {
        self.own_prefix = own_prefix.to_string();
        self.legacy_prefixes = legacy_prefixes;
        self.excluded = excluded.unwrap_or_default();
        self.catalog = OnceCell::new();
    }

    /// Turns the semantic signal of tool search and request search on or off (off: pure TF-IDF).
    #[wasm_bindgen(js_name = setSemanticSearch)]
    pub fn set_semantic_search(&mut self, on: bool) {
        self.semantic = on;
        self.history.set_semantic(on);
        if let Some(catalog) = self.catalog.get_mut() {
            catalog.set_semantic(on);
        }
    }

    /// The host's other tools (`[{name, description, inputSchema?, tags?, source?, ...}]`), for
    /// discovery. Loaded tools stay loaded when they are still present.
    #[wasm_bindgen(js_name = setExternalTools)]
    pub fn set_external_tools(&mut self, tools_json: &str) -> Result<(), JsError> {
        let tools: Vec<CatalogTool> = serde_json::from_str(tools_json).map_err(into_error)?;
        let next = self.catalog().with_external(tools);
        self.catalog = OnceCell::from(next);
        Ok(())
    }

    /// The catalog with each tool's active flag, as JSON text.
    #[wasm_bindgen(js_name = catalogTools)]
    pub fn catalog_tools(&self) -> String {
        let tools: Vec<CatalogTool> = self
            .catalog()
            .tools()
            .iter()
            .map(|tool| CatalogTool {
                active: self.catalog().is_active(&tool.name),
                ..tool.clone()
            })
            .collect();
        serde_json::to_string(&tools).unwrap_or_else(|_| "[]".into())
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
    /// `host` is the optional I/O bridge (see `host.rs`); without it, tools that need files answer
    /// that this host offers no file access. `caller_json` is the calling chat as the host decoded
    /// it (`{"kind":"local","sessionId"}`...; see `session::live::Caller`), `live` the bytes of
    /// its live copy and `live_error` why there is none, once a tool asked (`live_pending`).
    #[allow(clippy::too_many_arguments)]
    pub fn invoke(
        &self,
        name: &str,
        args_json: &str,
        workspace: Option<String>,
        host: JsValue,
        caller_json: Option<String>,
        live: Option<Vec<u8>>,
        live_error: Option<String>,
    ) -> String {
        let call = match CallerInput::read(caller_json, live, live_error) {
            Ok(call) => call,
            Err(error) => return ToolResult::failure(error, ErrorKind::Internal).to_json(),
        };
        let args = match serde_json::from_str(if args_json.trim().is_empty() {
            "{}"
        } else {
            args_json
        }) {
            Ok(args) => args,
            Err(err) => {
                return ToolResult::failure(
                    format!("Invalid arguments: not JSON ({err})"),
                    ErrorKind::InvalidArguments,
                )
                .to_json()
            }
        };
        let ctx = self.context(workspace.as_deref(), &call);
        let bridge = host::JsHost::from_js(host);
        let ctx = match &bridge {
            Some(bridge) => ctx.with_host(bridge),
            None => ctx,
        };
        registry::invoke(name, &args, &ctx).to_json()
    }

    /// Renders a prompt (the chat participant's `/first`, MCP's `recall_first_request`...): the
    /// prompt's MCP name or slash command, and `args_json` as `prompts::args_from_json` reads it.
    /// Calls the tools' logic directly, not `invoke`. Always returns `{"markdown", "followups",
    /// "text"?, "error"?}`.
    pub fn prompt(
        &self,
        name: &str,
        args_json: &str,
        workspace: Option<String>,
        caller_json: Option<String>,
        live: Option<Vec<u8>>,
        live_error: Option<String>,
    ) -> String {
        use secretary_core::prompts::{self, PromptOutput};
        let output = match CallerInput::read(caller_json, live, live_error) {
            Ok(call) => {
                prompts::answer(name, args_json, &self.context(workspace.as_deref(), &call))
            }
            Err(error) => PromptOutput::failure(error),
        };
        serde_json::to_string(&output).unwrap_or_else(|_| "{}".into())
    }

    /// Every prompt's names, summary, generated description and arguments, as JSON text.
    pub fn prompts(&self) -> String {
        secretary_core::prompts::listing().to_string()
    }

    /// Every tool's name, schema and generated description, as JSON text.
    pub fn tools(&self) -> String {
        registry::listing_for(self.include_examples).to_string()
    }

    /// The tools to register with `@github/copilot-language-server` as client tools, as JSON text:
    /// `[{"plain", "deferred", "tool": {name, description, inputSchema}}]` (the tools this host
    /// offers, less those `configureTools` excluded; see `registry::copilot_ls`).
    #[wasm_bindgen(js_name = copilotLsTools)]
    pub fn copilot_ls_tools(&self) -> String {
        registry::copilot_ls::registration(
            registry::visible_tools(self.include_examples)
                .filter(|tool| !self.excluded.iter().any(|name| name == tool.spec.name))
                .map(|tool| &tool.spec),
        )
        .to_string()
    }

    /// Every known dialog (with path, workspace and availability), as JSON text.
    pub fn dialogs(&self) -> String {
        let entries: Vec<_> = self.store.entries().collect();
        serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into())
    }

    /// [`Secretary::recent_dialogs`] without the requests (`DialogSummary[]`): a listing whose size
    /// does not grow with the dialogs' text (every dialog as one string can exceed what V8 holds).
    #[wasm_bindgen(js_name = dialogSummaries)]
    pub fn dialog_summaries(&self, workspace: Option<String>) -> String {
        let summaries: Vec<_> = self
            .store
            .recent(workspace.as_deref())
            .into_iter()
            .map(session::DialogSummary::of)
            .collect();
        serde_json::to_string(&summaries).unwrap_or_else(|_| "[]".into())
    }

    /// The workspaces the served dialogs belong to, each once, as a JSON array of strings.
    #[wasm_bindgen(js_name = dialogWorkspaces)]
    pub fn dialog_workspaces(&self) -> String {
        let mut keys: Vec<&str> = self
            .store
            .entries()
            .filter_map(|entry| entry.workspace.as_deref())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        serde_json::to_string(&keys).unwrap_or_else(|_| "[]".into())
    }

    /// The dialogs of `workspace` (every workspace when absent), most recently active first, in
    /// the core's order (`SessionStore::recent`), as JSON text.
    #[wasm_bindgen(js_name = recentDialogs)]
    pub fn recent_dialogs(&self, workspace: Option<String>) -> String {
        serde_json::to_string(&self.store.recent(workspace.as_deref()))
            .unwrap_or_else(|_| "[]".into())
    }

    /// One dialog by session id, as JSON text (`null` when unknown).
    pub fn dialog(&self, session_id: &str) -> String {
        serde_json::to_string(&self.store.get(session_id)).unwrap_or_else(|_| "null".into())
    }

    /// Narrows the dialogs served to these sources (`vscode`, `copilot-cli`, `claude-code`,
    /// `codex`); an empty list serves every source. Unknown names are refused.
    #[wasm_bindgen(js_name = setSources)]
    pub fn set_sources(&mut self, sources: Vec<String>) -> Result<(), JsError> {
        let parsed = parse_sources(&sources)?;
        self.store
            .set_sources((!parsed.is_empty()).then_some(parsed));
        Ok(())
    }

    /// The agent whose own most recent dialog of the workspace is "current" (the client of the
    /// MCP server); `None`/`undefined`: the most recent dialog of any source.
    #[wasm_bindgen(js_name = setCurrentSource)]
    pub fn set_current_source(&mut self, source: Option<String>) -> Result<(), JsError> {
        let parsed = match source.as_deref() {
            None | Some("") => None,
            Some(name) => Some(parse_sources(&[name.to_string()])?[0]),
        };
        self.store.set_current_source(parsed);
        Ok(())
    }

    /// The dialog of `source` with `sessionId` (a VS Code chat's `copilotcli:` / `claude-code:`
    /// session resource maps to the agent's own log), as JSON text; `null` when unknown.
    #[wasm_bindgen(js_name = findDialog)]
    pub fn find_dialog(&self, source: &str, session_id: &str) -> Result<String, JsError> {
        let source = parse_sources(&[source.to_string()])?[0];
        Ok(serde_json::to_string(&self.store.find(source, session_id))
            .unwrap_or_else(|_| "null".into()))
    }

    /// The current dialog of `workspace` (`null` when none), as JSON text.
    #[wasm_bindgen(js_name = currentDialog)]
    pub fn current_dialog(&self, workspace: Option<String>) -> String {
        serde_json::to_string(&self.store.current(workspace.as_deref()))
            .unwrap_or_else(|_| "null".into())
    }
}

/// A standalone catalog over a catalog file, for evaluating the search outside VS Code
/// (`secretary find-tools --catalog`): thousands of queries run against one catalog. JavaScript
/// knows it as `Catalog`, the glossary's word (the core's own `Catalog` is the type it wraps).
#[wasm_bindgen(js_name = Catalog)]
pub struct WasmCatalog {
    catalog: Catalog,
}

#[wasm_bindgen(js_class = Catalog)]
impl WasmCatalog {
    /// Builds the catalog over `[{name, description, inputSchema?, tags?}]` (no Secretary tools);
    /// `semantic: false` ranks by TF-IDF alone.
    #[wasm_bindgen(constructor)]
    pub fn new(catalog_json: &str, semantic: Option<bool>) -> Result<WasmCatalog, JsError> {
        let tools: Vec<CatalogTool> = serde_json::from_str(catalog_json).map_err(into_error)?;
        Ok(WasmCatalog {
            catalog: Catalog::external_only_with(tools, semantic.unwrap_or(true)),
        })
    }

    /// `[{"name", "score"}]`, best first, as JSON text.
    pub fn search(&self, query: &str, limit: usize) -> String {
        let hits: Vec<serde_json::Value> = self
            .catalog
            .search(query, limit)
            .into_iter()
            .map(|(hit, tool)| serde_json::json!({ "name": tool.name, "score": hit.score }))
            .collect();
        serde_json::to_string(&hits).unwrap_or_else(|_| "[]".into())
    }

    pub fn size(&self) -> usize {
        self.catalog.len()
    }
}

/// The text an MCP host puts before every plain tool name: `prefix` as `MCP_TOOL_PREFIX`
/// (`undefined`: the default `secretary`; `""` or blanks: none) joined with `_` (`secretary_`).
#[wasm_bindgen(js_name = toolPrefix)]
pub fn tool_prefix(prefix: Option<String>) -> String {
    registry::mcp_prefix(prefix.as_deref())
}

fn parse_sources(names: &[String]) -> Result<Vec<session::DialogSource>, JsError> {
    names
        .iter()
        .map(|name| {
            session::DialogSource::parse(name.trim()).ok_or_else(|| {
                let known: Vec<&str> = session::DialogSource::ALL
                    .iter()
                    .map(|source| source.as_str())
                    .collect();
                JsError::new(&format!(
                    "unknown source `{name}`; known: {}",
                    known.join(", ")
                ))
            })
        })
        .collect()
}

/// Every agent the core reads the dialogs of, by its wire name (`vscode`, `copilot-cli`...), as a
/// JSON array: the build writes it into `listing.json`, so the hosts check `--source` against the
/// core's own list without loading the module.
#[wasm_bindgen(js_name = dialogSources)]
pub fn dialog_sources() -> String {
    let names: Vec<&str> = session::DialogSource::ALL
        .iter()
        .map(|source| source.as_str())
        .collect();
    serde_json::to_string(&names).unwrap_or_else(|_| "[]".into())
}

/// Parses one session file as the given source's format (`show --source`).
#[wasm_bindgen(js_name = parseSessionAs)]
pub fn parse_session_as(source: &str, file_name: &str, bytes: &[u8]) -> Result<String, JsError> {
    let source = parse_sources(&[source.to_string()])?[0];
    let dialog = session::parse_as(source, file_name, bytes).map_err(into_error)?;
    serde_json::to_string(&dialog).map_err(into_error)
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

/// A hook's stdin, checked (`secretary hook`): `{sessionId?, transcriptPath?, source?, refused,
/// wantsRecall}` as JSON text. Throws when the event is unknown or the input is not a JSON object.
#[wasm_bindgen(js_name = hookInput)]
pub fn hook_input(event: &str, input: &[u8]) -> Result<String, JsError> {
    let event = recall::HookEvent::parse(event).map_err(into_error)?;
    let input = recall::read_hook_input(input).map_err(into_error)?;
    let wants = input.wants_recall(event);
    let mut value = serde_json::to_value(&input).map_err(into_error)?;
    value["wantsRecall"] = serde_json::Value::Bool(wants);
    Ok(value.to_string())
}

/// What `secretary hook` prints for the agent's log (`undefined`: nothing), see
/// `secretary_core::recall::answer`.
#[wasm_bindgen(js_name = hookAnswer)]
pub fn hook_answer(
    agent: &str,
    event: &str,
    input: &[u8],
    file_name: &str,
    bytes: &[u8],
    max_chars: Option<u32>,
) -> Result<Option<String>, JsError> {
    let agent = recall::hook_agent(agent).map_err(into_error)?;
    let event = recall::HookEvent::parse(event).map_err(into_error)?;
    let input = recall::read_hook_input(input).map_err(into_error)?;
    let max = max_chars.map_or(recall::DEFAULT_MAX_CHARS, |n| n as usize);
    recall::answer(agent, event, &input, file_name, bytes, max).map_err(into_error)
}

/// The largest hook input `secretary hook` reads from stdin.
#[wasm_bindgen(js_name = hookMaxInputBytes)]
pub fn hook_max_input_bytes() -> f64 {
    recall::MAX_INPUT_BYTES as f64
}

/// The answer to the Copilot language server's `conversation/invokeClientTool` for a tool's JSON
/// text: `[{"content": [{"value": text}], "status": "success" | "error"}, null]`, as JSON text.
#[wasm_bindgen(js_name = copilotLsResult)]
pub fn copilot_ls_result(text: &str) -> String {
    registry::copilot_ls::wrap_result(text).to_string()
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

/// The calling chat and its live copy, as a call's extra arguments carry them.
struct CallerInput {
    caller: Option<Caller>,
    live: Option<LiveCopy>,
}

impl CallerInput {
    fn read(
        caller_json: Option<String>,
        live: Option<Vec<u8>>,
        live_error: Option<String>,
    ) -> Result<Self, String> {
        let caller =
            match caller_json.filter(|text| !text.trim().is_empty()) {
                None => None,
                Some(text) => Some(serde_json::from_str::<Caller>(&text).map_err(|err| {
                    format!("The host described the calling chat wrongly ({err})")
                })?),
            };
        let live = match (live, live_error) {
            (Some(bytes), _) => Some(LiveCopy::Export(bytes)),
            (None, Some(why)) => Some(LiveCopy::Unavailable(why)),
            (None, None) => None,
        };
        Ok(CallerInput { caller, live })
    }
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

/// The largest session file the core reads (`session::MAX_SESSION_BYTES`), for hosts that must
/// refuse a larger file before reading it (`secretary show`).
#[wasm_bindgen(js_name = maxSessionBytes)]
pub fn max_session_bytes() -> f64 {
    session::MAX_SESSION_BYTES as f64
}
