//! The tools agents call, one file per tool. Each file defines `pub static TOOL: ToolDef`; the
//! build script collects them into [`ALL`], so adding a file adds the tool.
//!
//! This file holds only what several tools share.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::session::live::{self, Caller, DialogFrom, LiveCopy, Refusal};
use crate::session::{DialogSource, SessionStore, StoredDialog};
use crate::toolkit::catalog::Catalog;
use crate::toolkit::ErrorKind;
use crate::toolkit::{parse_args, ToolContext, ToolOutcome, ToolResult};

include!(concat!(env!("OUT_DIR"), "/tools_registry.rs"));

/// What the flag tools share (a folder: the build script collects only files).
pub(crate) mod flag;

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

/// The dialog a tool answers for, and which rule chose it.
pub(crate) struct Resolved<'a> {
    pub stored: Cow<'a, StoredDialog>,
    pub from: DialogFrom,
    /// For the calling chat: whether its live copy was laid over the saved one (`Ok`: how many
    /// requests were not saved yet), or why not.
    pub live: Option<Result<usize, Refusal>>,
    /// For an agent that called over MCP: why its log may not hold the turn running now.
    pub behind: Option<String>,
    /// For a dialog no caller named: the rule that chose it, in words (`chosenBy`).
    pub chosen_by: Option<String>,
}

impl<'a> Resolved<'a> {
    fn saved(stored: &'a StoredDialog, from: DialogFrom) -> Self {
        Resolved {
            stored: Cow::Borrowed(stored),
            from,
            live: None,
            behind: None,
            chosen_by: None,
        }
    }

    /// `dialogFrom`, `live`, `behind` and `chosenBy`, added to every dialog tool's answer.
    pub fn provenance(&self) -> Map<String, Value> {
        let mut fields = live::provenance(self.from, self.live.as_ref());
        if let Some(behind) = &self.behind {
            fields.insert("behind".into(), Value::from(behind.as_str()));
        }
        if let Some(rule) = &self.chosen_by {
            fields.insert("chosenBy".into(), Value::from(rule.as_str()));
        }
        fields
    }
}

/// Why a calling chat's saved copy answered without a live copy.
const SAVED_ANSWERS: &str = "the request asked for is saved, so no live copy was taken \
                            (requests made since VS Code last saved are not counted)";

/// The dialog an agent means: the given session id; else the chat or agent session that called
/// (VS Code's token, with its live copy: see `session::live`; an agent's session id over MCP);
/// else, when no host said who called, the most recently active dialog of the workspace. A blank
/// id counts as absent, since agents often send `""` for "the current one".
///
/// For a local calling chat without a live copy yet, and for an agent session whose log was not
/// read yet, this fails with `live_pending`: the host then fetches the copy or waits for the log
/// (or notes why it could not) and calls again, as with HTTP replays. A local chat's copy (VS
/// Code's export, 20-130 ms a call) is asked for only when the saved copy lacks `request`, the
/// request (counted from 1) the tool answers with.
pub(crate) fn resolve_dialog<'a>(
    ctx: &ToolContext<'a>,
    session_id: Option<&str>,
    request: u64,
) -> Result<Resolved<'a>, ToolResult> {
    let store = sessions(ctx)?;
    let given = session_id.map(str::trim).filter(|id| !id.is_empty());
    let caller_id = ctx.caller.and_then(Caller::local_id);
    if let Some(id) = given.filter(|id| Some(*id) != caller_id) {
        return store
            .get(id)
            .map(|stored| Resolved::saved(stored, DialogFrom::Argument))
            .ok_or_else(|| ToolResult::error(errors::session_not_found(id)));
    }
    match ctx.caller {
        None => most_recent(store, ctx.workspace),
        Some(Caller::Foreign {
            scheme,
            resource,
            session_id,
        }) => foreign_caller(store, scheme, resource, session_id.as_deref()),
        Some(Caller::Unknown { shape }) => Err(ToolResult::failure(
            format!(
                "Could not tell which chat called this tool (its invocation token is {shape})."
            ),
            ErrorKind::UnknownCaller,
        )
        .with_instruction("Pass sessionId (from list_dialogs) to choose the dialog.")),
        Some(Caller::Agent {
            source,
            session_id,
            via,
            recorded,
        }) => agent_caller(store, ctx.live, source, session_id, via, *recorded),
        Some(Caller::Local { session_id }) => local_caller(store, ctx.live, session_id, request),
    }
}

/// No caller named: the most recently active dialog of the workspace (of the calling agent's own
/// sessions first, when the host knows the agent; `SessionStore::current`).
fn most_recent<'a>(
    store: &'a SessionStore,
    workspace: Option<&str>,
) -> Result<Resolved<'a>, ToolResult> {
    let stored = store
        .current(workspace)
        .ok_or_else(|| ToolResult::error(errors::NO_ACTIVE_DIALOG))?;
    let mut resolved = Resolved::saved(stored, DialogFrom::MostRecent);
    let whose = match store.current_source() {
        Some(source) if source == stored.dialog.source => format!("{} session", source.as_str()),
        _ => "dialog".to_string(),
    };
    let place = workspace.map_or_else(|| "of any workspace".to_string(), |w| format!("of {w}"));
    resolved.chosen_by = Some(format!(
        "the most recently active {whose} {place}: the client did not say which session is calling"
    ));
    Ok(resolved)
}

/// A chat VS Code hosts for another agent: that agent's own log is the live chat.
fn foreign_caller<'a>(
    store: &'a SessionStore,
    scheme: &str,
    resource: &str,
    session_id: Option<&str>,
) -> Result<Resolved<'a>, ToolResult> {
    let Some(source) = DialogSource::of_chat_scheme(scheme) else {
        return Err(ToolResult::failure(
            format!(
                "This chat is a {scheme} session ({resource}); the Secretary cannot read that agent's sessions."
            ),
            ErrorKind::UnsupportedChat,
        )
        .with_instruction("Pass sessionId (from list_dialogs) to read another dialog instead."));
    };
    session_id
        .and_then(|id| store.find(source, id))
        .map(|stored| Resolved::saved(stored, DialogFrom::Caller))
        .ok_or_else(|| {
            ToolResult::failure(
                format!(
                    "This chat is a {} session ({resource}) whose log the Secretary has not found.",
                    source.as_str()
                ),
                ErrorKind::CallerNotFound,
            )
            .with_instruction(
                "Check that the Secretary reads this agent's logs (setting copilotChatSecretary.sources), or pass sessionId (from list_dialogs).",
            )
        })
}

/// An agent session that said who it is over MCP. Its log is the dialog; until the host has read
/// the turn running now (`recorded`), the answer is `live_pending` and the host waits for the log
/// (bounded); after that wait (`LiveCopy::Unavailable`, why) the log answers with `behind`, or,
/// when it is still missing, a clear failure: never another session's words.
fn agent_caller<'a>(
    store: &'a SessionStore,
    live: Option<&LiveCopy>,
    source: &str,
    session_id: &str,
    via: &str,
    recorded: bool,
) -> Result<Resolved<'a>, ToolResult> {
    let Some(agent) = DialogSource::parse(source).filter(|s| *s != DialogSource::Vscode) else {
        return Err(ToolResult::failure(
            format!(
                "The calling agent says it is {}, which the Secretary does not read.",
                crate::text::preview(source, 40)
            ),
            ErrorKind::UnknownCaller,
        )
        .with_instruction("Pass sessionId (from list_dialogs) to choose the dialog."));
    };
    if !live::plausible_agent_id(session_id) {
        return Err(ToolResult::failure(
            format!(
                "The calling {} session's id ({via}) is not a session id: {}.",
                agent.as_str(),
                crate::text::preview(session_id, 40)
            ),
            ErrorKind::UnknownCaller,
        )
        .with_instruction("Pass sessionId (from list_dialogs) to choose the dialog."));
    }
    let found = store.find(agent, session_id);
    match (found, live) {
        (Some(stored), _) if recorded => Ok(Resolved::saved(stored, DialogFrom::Caller)),
        (Some(_), None) => Err(ToolResult::failure(
            "The running turn of the calling session's log is needed",
            ErrorKind::LivePending,
        )),
        (Some(stored), Some(waited)) => {
            let mut resolved = Resolved::saved(stored, DialogFrom::Caller);
            resolved.behind = Some(format!(
                "This answer comes from the {} log, which had not recorded the turn running now: {}.",
                agent.as_str(),
                waited_why(waited)
            ));
            Ok(resolved)
        }
        (None, None) => Err(ToolResult::failure(
            "The calling session's log is needed",
            ErrorKind::LivePending,
        )),
        (None, Some(waited)) => Err(ToolResult::failure(
            format!(
                "The calling {} session {session_id} (from {via}) has no log the Secretary could read: {}.",
                agent.as_str(),
                waited_why(waited)
            ),
            ErrorKind::CallerNotFound,
        )
        .with_instruction(
            "Call again in a moment (the agent may not have written its log yet), or pass sessionId (from list_dialogs).",
        )),
    }
}

fn waited_why(live: &LiveCopy) -> &str {
    match live {
        LiveCopy::Unavailable(why) => why,
        LiveCopy::Export(_) => "the host sent a chat export, which an agent session has none of",
    }
}

/// A chat of VS Code's own: its saved file when it holds the request asked for, else with the
/// live copy laid over it when provably its.
fn local_caller<'a>(
    store: &'a SessionStore,
    live: Option<&LiveCopy>,
    session_id: &str,
    request: u64,
) -> Result<Resolved<'a>, ToolResult> {
    let saved = store.get(session_id);
    if let (Some(stored), None) = (saved, live) {
        let held =
            usize::try_from(request).is_ok_and(|n| n >= 1 && n <= stored.dialog.requests.len());
        if stored.available && held {
            return Ok(Resolved {
                live: Some(Err(Refusal(SAVED_ANSWERS.into()))),
                ..Resolved::saved(stored, DialogFrom::Caller)
            });
        }
    }
    let refusal = match live {
        None => {
            return Err(ToolResult::failure(
                "The live copy of the calling chat is needed",
                ErrorKind::LivePending,
            ))
        }
        Some(LiveCopy::Export(bytes)) => match live::merge_live(store, session_id, saved, bytes) {
            Ok(merged) => {
                return Ok(Resolved {
                    stored: Cow::Owned(merged.stored),
                    from: DialogFrom::Caller,
                    live: Some(Ok(merged.unsaved)),
                    behind: None,
                    chosen_by: None,
                })
            }
            Err(refusal) => refusal,
        },
        Some(LiveCopy::Unavailable(why)) => Refusal(why.clone()),
    };
    // VS Code writes an empty session file as soon as a chat opens: a saved copy without requests
    // is nothing saved, and the answer says so (uncertain or not found) rather than "no first
    // request" from a file that cannot hold the caller's words yet.
    match saved.filter(|stored| !stored.dialog.requests.is_empty()) {
        Some(stored) => Ok(Resolved {
            live: Some(Err(refusal)),
            ..Resolved::saved(stored, DialogFrom::Caller)
        }),
        None => Err(ToolResult::failure(
            format!(
                "The calling chat ({session_id}) is not saved yet and its live copy could not be used: {}.",
                refusal.0
            ),
            if refusal.is_uncertain() {
                ErrorKind::CallerUncertain
            } else {
                ErrorKind::CallerNotFound
            },
        )
        .with_instruction(
            "Call again once VS Code has saved this chat (within seconds in a browser, a minute on desktop), or pass sessionId (from list_dialogs).",
        )),
    }
}

/// A timestamp as ISO 8601, or JSON null when the file did not record one.
pub(crate) fn timestamp_value(ms: Option<i64>) -> Value {
    ms.map_or(Value::Null, |ms| Value::String(crate::text::iso8601(ms)))
}

/// A request's time as the dialog tools answer it: `timestamp` in milliseconds since the Unix
/// epoch (a number, as VS Code records it and scripts compare it) and `time`, the same instant as
/// ISO 8601 for people and models; both JSON null when the file did not record one.
pub(crate) fn request_time(ms: Option<i64>) -> (Value, Value) {
    (ms.map_or(Value::Null, Value::from), timestamp_value(ms))
}

/// Runs a discovery tool (`tool_find`, `tool_describe`, `tool_load`, `tool_call`,
/// `tool_active`): its arguments checked, then its `run` on the host's tool catalog, or a failure
/// saying this host has none.
pub(crate) fn with_catalog<A: DeserializeOwned>(
    args: &Value,
    ctx: &ToolContext,
    run: fn(A, &Catalog) -> ToolOutcome,
) -> ToolOutcome {
    let args = parse_args(args)?;
    let catalog = ctx.catalog.ok_or_else(|| {
        ToolResult::failure(
            "Tool discovery is not available in this host",
            ErrorKind::Unavailable,
        )
    })?;
    run(args, catalog)
}

/// The failure of a discovery tool for a name the catalog does not know: where to look instead,
/// and the `closest` names, if any.
pub(crate) fn unknown_tool(catalog: &Catalog, name: &str, closest: &[String]) -> ToolResult {
    let closest = if closest.is_empty() {
        String::new()
    } else {
        format!(" Closest names: {}.", closest.join(", "))
    };
    ToolResult::failure(
        format!(
            "Tool not found: {}. Use {}tool_find to search for tools.{closest}",
            name.trim(),
            catalog.own_prefix(),
        ),
        ErrorKind::NotFound,
    )
}

/// The `limit` argument of the ranked searches (`search_requests`, `tool_find`): how many results,
/// best first. One type, so the range their schemas show and the cap [`SearchLimit::resolve`]
/// applies are the same numbers.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(transparent)]
pub(crate) struct SearchLimit(u32);

impl SearchLimit {
    const DEFAULT: usize = 10;
    const MAX: u32 = 50;

    /// 10 results unless asked; 0 is refused, more than 50 are capped.
    pub fn resolve(given: Option<SearchLimit>) -> Result<usize, ToolResult> {
        limit(
            given.map(|SearchLimit(n)| n),
            Self::DEFAULT,
            Self::MAX as usize,
        )
    }
}

impl JsonSchema for SearchLimit {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "SearchLimit".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "integer",
            "format": "uint32",
            "minimum": 1,
            "maximum": Self::MAX,
        })
    }
}

/// A `limit` argument: absent means `default`, 0 is refused, anything above `max` is capped.
pub(crate) fn limit(given: Option<u32>, default: usize, max: usize) -> Result<usize, ToolResult> {
    match given {
        Some(0) => Err(ToolResult::error("Limit must be 1 or greater")),
        Some(n) => Ok((n as usize).min(max)),
        None => Ok(default),
    }
}

/// The limits a tool's words name (schema doc comments and `usage` are literal text, read by agents
/// and written into `package.json`) are the numbers its code applies: a changed const fails here
/// instead of leaving the description wrong.
#[cfg(test)]
mod limits_in_words {
    use super::*;
    use crate::docs;

    /// All the words an agent reads about a tool: its schema and its spec's texts.
    fn words(tool: &crate::toolkit::ToolDef) -> String {
        format!(
            "{} {} {}",
            (tool.spec.schema)(),
            tool.spec.usage,
            tool.spec.returns
        )
    }

    #[track_caller]
    fn says(tool: &crate::toolkit::ToolDef, phrase: &str) {
        let text = words(tool);
        assert!(
            text.contains(phrase),
            "{}: its description should say {phrase:?}",
            tool.spec.name
        );
    }

    /// How the schemas word a limit with a default and a cap.
    fn range(default: impl std::fmt::Display, max: impl std::fmt::Display) -> String {
        format!("default {default}, at most {max}")
    }

    #[test]
    fn each_limit_is_said_as_the_code_applies_it() {
        let search = range(SearchLimit::DEFAULT, SearchLimit::MAX);
        says(&search_requests::TOOL, &search);
        says(&tool_find::TOOL, &search);
        let dialogs = range(list_dialogs::DEFAULT_LIMIT, list_dialogs::MAX_LIMIT);
        says(&list_dialogs::TOOL, &dialogs);
        let request = format!("default {}", get_request::DEFAULT_MAX_CHARS);
        says(&get_request::TOOL, &request);
        let docs_limits = range(docs::DEFAULT_MAX_CHARS, docs::MAX_CHARS);
        says(&get_library_docs::TOOL, &docs_limits);
        let docs_answer = format!("\"maxChars\": {}", docs::DEFAULT_MAX_CHARS);
        says(&get_library_docs::TOOL, &docs_answer);
    }
}
