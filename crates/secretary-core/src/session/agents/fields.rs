//! The borrowed shapes of the agents' JSON objects: [`Line`], [`Part`], [`Fields`].
//!
//! Why shared shapes rather than a struct per format and object: the agents write objects that
//! share most of their keys (`type`, `sessionId`, `timestamp`, `id`, `message`, `role`, `content`,
//! `text`, `model`...), and a reader only ever asks "is this member there, and what is it". A
//! struct that borrows each member it knows as a [`RawValue`] answers that for a Claude Code line
//! and a Codex payload alike: serde skips the members an object lacks or the struct does not name
//! (without building them). Members that are lists or objects stay raw too; a reader that needs
//! them typed reads them with [`member`], so a list of the wrong type fails where that reader asks,
//! not in every format that happens to have a key of that name.
//!
//! Why three and not one: a member costs its slot (16 bytes) in every object read, named or not,
//! and the agent readers read many small objects. One struct of every key made them 12 to 29%
//! slower (docs/benchmarks.md); so each shape holds the keys of one role: a log line and what it
//! nests ([`Line`]), a content part ([`Part`]), an object of a session read as a whole
//! ([`Fields`]). A format's own keys are listed in its reader's module docs; adding one here is
//! adding a line.

use serde::Deserialize;
use serde_json::value::RawValue;

/// A member of an agent's JSON object, borrowed from the text it was read from (`None`: absent
/// or `null`).
pub(crate) type Raw<'a> = Option<&'a RawValue>;

/// A line of an agent's JSON Lines log (Claude Code, Qwen Code, Gemini CLI, Codex) or an object it
/// nests (a message, an attachment, Codex's `payload`). No `#[serde(default)]`: a missing
/// `Option` member is `None` anyway, and the default would be built for every object read.
/// `expecting` is what a reader's error says when the value is not an object (Codex's `payload`).
#[derive(Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(deserialize = "'de: 'a"),
    expecting = "an object"
)]
pub(crate) struct Line<'a> {
    #[serde(rename = "type")]
    pub kind: Raw<'a>,
    pub id: Raw<'a>,
    pub uuid: Raw<'a>,
    pub session_id: Raw<'a>,
    pub timestamp: Raw<'a>,
    pub cwd: Raw<'a>,
    pub message: Raw<'a>,
    pub role: Raw<'a>,
    pub content: Raw<'a>,
    pub parts: Raw<'a>,
    pub model: Raw<'a>,
    // Claude Code's.
    pub is_meta: Raw<'a>,
    pub is_sidechain: Raw<'a>,
    pub is_compact_summary: Raw<'a>,
    #[serde(rename = "isVisibleInTranscriptOnly")]
    pub transcript_only: Raw<'a>,
    pub attachment: Raw<'a>,
    pub prompt: Raw<'a>,
    pub summary: Raw<'a>,
    pub custom_title: Raw<'a>,
    // Qwen Code's.
    pub provenance: Raw<'a>,
    // Gemini CLI's.
    pub project_hash: Raw<'a>,
    pub start_time: Raw<'a>,
    #[serde(rename = "$set")]
    pub set: Raw<'a>,
    // Codex's.
    pub payload: Raw<'a>,
    #[serde(rename = "record_type")]
    pub record_type: Raw<'a>,
}

/// A content part of a message, in every format that has them: `{type?, text?}` (Anthropic and
/// OpenAI style, Gemini's `{text}`), Gemini's `functionResponse`, OpenCode's `synthetic` and
/// `ignored` flags.
#[derive(Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(deserialize = "'de: 'a"),
    expecting = "an object"
)]
pub(crate) struct Part<'a> {
    #[serde(rename = "type")]
    pub kind: Raw<'a>,
    pub text: Raw<'a>,
    pub function_response: Raw<'a>,
    pub synthetic: Raw<'a>,
    pub ignored: Raw<'a>,
}

/// An object of a session read as a whole (Cline's messages, Continue's session and messages,
/// Cursor's tabs and bubbles, OpenCode's infos and messages).
#[derive(Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(deserialize = "'de: 'a"),
    expecting = "an object"
)]
pub(crate) struct Fields<'a> {
    #[serde(rename = "type")]
    pub kind: Raw<'a>,
    pub id: Raw<'a>,
    pub session_id: Raw<'a>,
    pub title: Raw<'a>,
    pub ts: Raw<'a>,
    pub created_at: Raw<'a>,
    pub time: Raw<'a>,
    pub created: Raw<'a>,
    pub updated: Raw<'a>,
    pub completed: Raw<'a>,
    pub message: Raw<'a>,
    pub role: Raw<'a>,
    pub content: Raw<'a>,
    pub parts: Raw<'a>,
    pub text: Raw<'a>,
    /// Cline's `modelInfo.modelId`; OpenCode's message `info.modelID`.
    #[serde(alias = "modelID")]
    pub model_id: Raw<'a>,
    pub error: Raw<'a>,
    // Cline's messages.
    pub say: Raw<'a>,
    pub ask: Raw<'a>,
    pub model_info: Raw<'a>,
    // Continue's sessions.
    pub workspace_directory: Raw<'a>,
    pub chat_model_title: Raw<'a>,
    pub history: Raw<'a>,
    pub tool_calls: Raw<'a>,
    // Cursor's tabs and bubbles.
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
}

/// Reads `raw` as an object of shape `T`; `None` when it is not one.
pub(crate) fn object<'a, T: Deserialize<'a>>(raw: Raw<'a>) -> Option<T> {
    serde_json::from_str(raw?.get()).ok()
}

/// A member read as `T` (a list, an object): `Ok(None)` when it is absent or `null`, an error when
/// it is not a `T` (what a typed `Option<T>` member of the object would have refused, so a reader
/// that needs a list fails where it asks for it).
pub(crate) fn member<'a, T: Deserialize<'a>>(raw: Raw<'a>) -> Result<Option<T>, serde_json::Error> {
    raw.map(|raw| serde_json::from_str(raw.get())).transpose()
}
