//! The calling chat, and its live copy.
//!
//! VS Code saves a chat to disk on its storage flush (every few seconds in the web build, every
//! minute on desktop, and when the chat closes), so the request that is running when an agent
//! calls a tool is never in the file yet, and a chat opened a moment ago may have no file at all.
//! The host therefore tells the core *which* chat called (decoded from the tool invocation
//! token: a [`Caller`]) and, when the core asks for it, hands over a *live copy*: VS Code's export
//! of the last focused chat, taken during the call.
//!
//! The export carries no session id and comes from whichever chat had focus last, which is not
//! always the caller. So the core accepts it only when it can prove it is the caller's
//! ([`merge_live`]): its request ids must extend the saved file's. A chat with nothing saved yet
//! has nothing to compare with, and nothing else ties a copy to it: VS Code hands a tool no
//! request id (only to extensions using proposed API) and the export names no session. Two new
//! chats running at once would each take the focused one's copy for their own (seen in VS Code
//! 1.139.1, 3 of 3), so such a copy is never used: the answer says it is uncertain
//! ([`Refusal::uncertain`]). Anything refused leaves the saved copy to answer, saying it may be
//! behind: never with another dialog's words.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::model::{Dialog, DialogStatus, RequestStatus};
use super::store::{SessionStore, StoredDialog};

/// Who called a tool, as the host read it from the chat's tool invocation token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Caller {
    /// A chat of VS Code's own (`vscode-chat-session://local/<base64url(sessionId)>`, or an older
    /// token's `sessionId`): its file is `chatSessions/<sessionId>.jsonl` (or `.json`).
    #[serde(rename_all = "camelCase")]
    Local { session_id: String },
    /// A chat VS Code hosts for another agent (`copilotcli:/<id>`, `claude-code:/<id>`,
    /// `agent-host-*`...): `session_id` is the resource's last path segment, when it has one.
    #[serde(rename_all = "camelCase")]
    Foreign {
        scheme: String,
        resource: String,
        #[serde(default)]
        session_id: Option<String>,
    },
    /// A token was given but the host could not read it (a shape this version does not know).
    #[serde(rename_all = "camelCase")]
    Unknown { shape: String },
    /// A session of another agent that called over MCP and said which one it is: Copilot CLI's
    /// `COPILOT_AGENT_SESSION_ID` and Claude Code's `CLAUDE_CODE_SESSION_ID` in the server's
    /// environment, Codex's `_meta.sessionId` on each call. `source` is the agent as the core
    /// names it (`copilot-cli`...), `via` where the host read the id (for the answer's wording).
    /// Both come from outside the core and are checked before use (`agent_caller`).
    #[serde(rename_all = "camelCase")]
    Agent {
        source: String,
        session_id: String,
        via: String,
        /// Whether the host saw the running turn in the log (the call's id, or a request in
        /// progress). `false` makes the core ask the host to wait for it (`live_pending`).
        #[serde(default = "recorded_by_default")]
        recorded: bool,
    },
}

/// A host that does not check the log's turn lets the log answer as it is.
fn recorded_by_default() -> bool {
    true
}

/// The longest agent session id the core accepts (the agents write UUIDs).
const MAX_AGENT_ID: usize = 128;

/// Whether `id` can be an agent's session id: what the agents write (UUIDs, Codex's time-ordered
/// ids) is letters, digits and `-`, `_`, `.`, `:`; anything else (paths, control characters, a
/// megabyte of text) is refused before it is looked up or quoted.
pub fn plausible_agent_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_AGENT_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
        && !id.starts_with('.')
}

impl Caller {
    /// The session id of a local chat.
    pub fn local_id(&self) -> Option<&str> {
        match self {
            Caller::Local { session_id } => Some(session_id),
            _ => None,
        }
    }
}

/// The live copy of the last focused chat, as the host could get it during this call.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveCopy {
    /// The bytes VS Code exported (the export format, no session id).
    Export(Vec<u8>),
    /// The host tried and got nothing usable: why (export refused, timed out, nothing written).
    Unavailable(String),
}

/// Which rule chose the dialog a tool answered for (`dialogFrom` in results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogFrom {
    /// The chat that called the tool (its invocation token).
    Caller,
    /// The most recently active dialog of the workspace: no token told who called.
    MostRecent,
    /// The `sessionId` the agent passed.
    Argument,
}

impl DialogFrom {
    pub fn as_str(self) -> &'static str {
        match self {
            DialogFrom::Caller => "caller",
            DialogFrom::MostRecent => "mostRecent",
            DialogFrom::Argument => "argument",
        }
    }
}

/// The calling chat's dialog with the live copy laid over the saved one.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveDialog {
    pub stored: StoredDialog,
    /// How many requests the saved copy lacked.
    pub unsaved: usize,
}

/// Why a live copy was not taken as the caller's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

/// Why the live copy of a chat with nothing saved is not used.
const UNTIED: &str = "nothing of the calling chat is saved yet, and VS Code's live copy (of the last \
                      focused chat) carries nothing that ties it to the calling chat: another new chat \
                      running at the same time could be the one it shows";

impl Refusal {
    /// The refusal of a copy that may well be the caller's but cannot be proven to be (the chat
    /// has nothing saved): the tools then answer `caller_uncertain`.
    pub fn uncertain() -> Refusal {
        Refusal(UNTIED.into())
    }

    /// Whether this is [`Refusal::uncertain`].
    pub fn is_uncertain(&self) -> bool {
        self.0 == UNTIED
    }
}

/// The largest live copy the core parses (an export is one chat, not a history of them).
pub const MAX_LIVE_BYTES: usize = 64 * 1024 * 1024;

/// Lays the live copy `bytes` over `saved` (the caller's saved dialog, if any) when it is provably
/// the caller's chat `session_id`; see the module docs for the rule.
pub fn merge_live(
    store: &SessionStore,
    session_id: &str,
    saved: Option<&StoredDialog>,
    bytes: &[u8],
) -> Result<LiveDialog, Refusal> {
    let live = super::parse_with_limit("live-export.json", bytes, MAX_LIVE_BYTES)
        .map_err(|err| Refusal(format!("the live copy could not be read ({err})")))?;
    if live.requests.is_empty() {
        return Err(Refusal("the last focused chat has no requests".into()));
    }
    let live_keys: Vec<Key> = live.requests.iter().map(Key::of).collect();
    let saved_requests = saved.map_or(&[][..], |s| &s.dialog.requests[..]);
    if saved_requests.is_empty() {
        // Nothing saved to compare with. A copy of a known dialog is plainly another chat; any
        // other is unknown and running for every new chat at once, so it proves nothing.
        if let Some(owner) = known_owner(store, session_id, &live_keys) {
            return Err(Refusal(format!(
                "the last focused chat is another dialog ({owner})"
            )));
        }
        return Err(Refusal::uncertain());
    } else {
        let saved_keys: Vec<Key> = saved_requests.iter().map(Key::of).collect();
        if live_keys.len() < saved_keys.len() || live_keys[..saved_keys.len()] != saved_keys[..] {
            return Err(Refusal(
                "the last focused chat is not the calling chat (its requests do not extend the saved ones)"
                    .into(),
            ));
        }
    }
    let unsaved = live.requests.len() - saved_requests.len();
    Ok(LiveDialog {
        stored: overlay(session_id, saved, live),
        unsaved,
    })
}

/// The identity of a request across copies: its id when it has one, else its text.
#[derive(Debug, PartialEq, Eq)]
enum Key {
    Id(String),
    Text(String),
}

impl Key {
    fn of(request: &super::model::Request) -> Key {
        match &request.request_id {
            Some(id) if !id.is_empty() => Key::Id(id.clone()),
            _ => Key::Text(request.text.clone()),
        }
    }
}

/// Another known session holding one of `keys`' request ids.
fn known_owner(store: &SessionStore, session_id: &str, keys: &[Key]) -> Option<String> {
    let ids: Vec<&str> = keys
        .iter()
        .filter_map(|k| match k {
            Key::Id(id) => Some(id.as_str()),
            Key::Text(_) => None,
        })
        .collect();
    if ids.is_empty() {
        return None;
    }
    store
        .entries()
        .filter(|s| s.dialog.session_id != session_id)
        .find(|s| {
            s.dialog
                .requests
                .iter()
                .any(|r| r.request_id.as_deref().is_some_and(|id| ids.contains(&id)))
        })
        .map(|s| s.dialog.session_id.clone())
}

/// The saved dialog (or a new one) with the live requests, the running request marked in
/// progress, and the saved copy's identity (path, workspace, title).
fn overlay(session_id: &str, saved: Option<&StoredDialog>, mut live: Dialog) -> StoredDialog {
    // The caller is inside a request right now: the live copy's last request is that one.
    if let Some(last) = live.requests.last_mut() {
        if matches!(
            last.status,
            RequestStatus::Canceled | RequestStatus::InProgress
        ) {
            last.status = RequestStatus::InProgress;
        }
    }
    live.status = match live.requests.last().map(|r| r.status) {
        Some(RequestStatus::InProgress) => DialogStatus::Active,
        _ => live.status,
    };
    live.session_id = session_id.to_string();
    match saved {
        Some(saved) => {
            let mut stored = saved.clone();
            let dialog = &mut stored.dialog;
            dialog.requests = live.requests;
            dialog.status = live.status;
            dialog.last_activity = dialog.last_activity.max(live.last_activity);
            if dialog.creation_date.is_none() {
                dialog.creation_date = live.creation_date;
            }
            stored.available = true;
            stored.error = None;
            stored
        }
        None => StoredDialog {
            path: String::new(),
            workspace: None,
            dialog: live,
            available: true,
            error: None,
        },
    }
}

/// The fields every dialog tool adds to say where its answer came from: `dialogFrom`, and for
/// the caller's dialog `live` (true: the live chat; false: the saved copy, with `behind` saying
/// why the live one was not used).
pub fn provenance(from: DialogFrom, live: Option<&Result<usize, Refusal>>) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("dialogFrom".into(), Value::from(from.as_str()));
    match live {
        Some(Ok(_)) => {
            fields.insert("live".into(), Value::Bool(true));
        }
        Some(Err(Refusal(why))) => {
            fields.insert("live".into(), Value::Bool(false));
            fields.insert(
                "behind".into(),
                Value::from(format!(
                    "This answer comes from the copy VS Code saved, which may miss the newest requests: {why}."
                )),
            );
        }
        None => {}
    }
    fields
}
