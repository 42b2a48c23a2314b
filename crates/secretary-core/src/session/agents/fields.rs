//! The one borrowed shape of the agents' JSON objects: [`Fields`].
//!
//! Why one type for every format: the agents write objects that share most of their keys (`type`,
//! `sessionId`, `timestamp`, `id`, `message`, `role`, `content`, `text`, `model`...), and a reader
//! only ever asks "is this member there, and what is it". One struct that borrows each member
//! it knows as a [`RawValue`] answers that for a Claude Code line, a Codex payload, a Gemini part,
//! a Cline message or an OpenCode message's `info` alike: serde skips the members an object lacks
//! or the struct does not name (without building them), and a member a format does not use costs
//! nothing but its slot. Members that are lists or objects stay raw too; a reader that needs them
//! typed reads them with [`member`], so a list of the wrong type fails where that
//! reader asks, not in every format that happens to have a key of that name.
//!
//! A format's own keys are listed in its reader's module docs; adding one here is adding a line.

use serde::Deserialize;
use serde_json::value::RawValue;

/// A member of an agent's JSON object, borrowed from the text it was read from (`None`: absent
/// or `null`).
pub(crate) type Raw<'a> = Option<&'a RawValue>;

/// The members of an agent's JSON object that some reader looks at (see the module docs).
/// `#[serde(default, bound(...))]` says once that every member may be missing and borrows from
/// the text, rather than `#[serde(borrow, default)]` on every member; `expecting` is what a
/// reader's error says when the value is not an object (Codex's `payload`).
#[derive(Default, Deserialize)]
#[serde(
    default,
    rename_all = "camelCase",
    bound(deserialize = "'de: 'a"),
    expecting = "an object"
)]
pub(crate) struct Fields<'a> {
    // What most objects have: which kind of line, part or message it is, and its ids and times.
    #[serde(rename = "type")]
    pub kind: Raw<'a>,
    pub id: Raw<'a>,
    pub uuid: Raw<'a>,
    pub session_id: Raw<'a>,
    pub timestamp: Raw<'a>,
    pub ts: Raw<'a>,
    pub created_at: Raw<'a>,
    pub time: Raw<'a>,
    pub created: Raw<'a>,
    pub updated: Raw<'a>,
    pub completed: Raw<'a>,
    pub cwd: Raw<'a>,
    pub title: Raw<'a>,
    // Messages and their parts.
    pub message: Raw<'a>,
    pub role: Raw<'a>,
    pub content: Raw<'a>,
    pub parts: Raw<'a>,
    pub text: Raw<'a>,
    pub model: Raw<'a>,
    /// Cline's `modelInfo.modelId`; OpenCode's message `info.modelID`.
    #[serde(alias = "modelID")]
    pub model_id: Raw<'a>,
    pub error: Raw<'a>,
    // Claude Code's lines.
    pub is_meta: Raw<'a>,
    pub is_sidechain: Raw<'a>,
    pub is_compact_summary: Raw<'a>,
    #[serde(rename = "isVisibleInTranscriptOnly")]
    pub transcript_only: Raw<'a>,
    pub attachment: Raw<'a>,
    pub prompt: Raw<'a>,
    pub summary: Raw<'a>,
    pub custom_title: Raw<'a>,
    // Qwen Code's lines and Gemini's parts.
    pub provenance: Raw<'a>,
    pub function_response: Raw<'a>,
    // Gemini CLI's lines.
    pub project_hash: Raw<'a>,
    pub start_time: Raw<'a>,
    #[serde(rename = "$set")]
    pub set: Raw<'a>,
    // Codex's lines.
    pub payload: Raw<'a>,
    #[serde(rename = "record_type")]
    pub record_type: Raw<'a>,
    // Cline's messages.
    pub say: Raw<'a>,
    pub ask: Raw<'a>,
    pub model_info: Raw<'a>,
    // Continue's sessions.
    pub workspace_directory: Raw<'a>,
    pub chat_model_title: Raw<'a>,
    pub history: Raw<'a>,
    pub tool_calls: Raw<'a>,
    // Cursor's tabs, composers and bubbles.
    pub tab_id: Raw<'a>,
    pub chat_title: Raw<'a>,
    pub last_send_time: Raw<'a>,
    pub bubbles: Raw<'a>,
    pub bubble_id: Raw<'a>,
    // OpenCode's sessions and messages.
    pub info: Raw<'a>,
    pub directory: Raw<'a>,
    #[serde(rename = "parentID")]
    pub parent_id: Raw<'a>,
    pub synthetic: Raw<'a>,
    pub ignored: Raw<'a>,
}

impl<'a> Fields<'a> {
    /// Reads `raw` as an object's members; `None` when it is not one.
    pub(crate) fn of(raw: Raw<'a>) -> Option<Fields<'a>> {
        serde_json::from_str(raw?.get()).ok()
    }
}

/// A member read as `T` (a list, an object): `Ok(None)` when it is absent or `null`, an error when
/// it is not a `T` (what a typed `Option<T>` member of the object would have refused, so a reader
/// that needs a list fails where it asks for it).
pub(crate) fn member<'a, T: Deserialize<'a>>(raw: Raw<'a>) -> Result<Option<T>, serde_json::Error> {
    raw.map(|raw| serde_json::from_str(raw.get())).transpose()
}
