//! Cursor (the VS Code fork): chats kept in SQLite `state.vscdb` databases, read by the hosts
//! through Node's `node:sqlite` (read-only) and handed to the core as the rows of one
//! conversation. The core never touches SQLite: it parses the JSON values of those rows.
//!
//! What the host hands over (one "file" per conversation, named `<database>#<conversation id>`):
//! `{"cursor": 1, "conversation": "<id>", "folder"?: "<file:// URI>", "rows": [{"key", "value"}]}`,
//! `value` being the row's value as text (`null` for SQL NULL). Three generations, each checked
//! on a real public database (docs/agents.md):
//!
//! - the per-workspace `ItemTable` key `workbench.panel.aichat.view.aichat.chatdata` (Cursor 0.4x,
//!   2024): `{tabs: [{tabId, chatTitle, lastSendTime, bubbles: [{type: "user" | "ai", text}]}]}`;
//!   the conversation is a tab;
//! - the per-workspace `ItemTable` key `composer.composerData` (late 2024): `{allComposers:
//!   [{composerId, name?, createdAt, lastUpdatedAt?, conversation: [{type: 1 | 2, text}]}]}`;
//! - the global `cursorDiskKV` keys `composerData:<id>` (`{_v, composerId, name?, createdAt,
//!   lastUpdatedAt?, fullConversationHeadersOnly: [{bubbleId, type}]}`) and
//!   `bubbleId:<composerId>:<bubbleId>` (`{type, text, createdAt?}`) (2025): the composer lists its
//!   bubbles in order, each bubble is a row of its own.
//!
//! A request is a user bubble (`type` `user` or 1) with text; an empty one is the unsent input
//! box (or a picture alone) and is skipped. The assistant's bubbles (`ai`, 2) are its answer.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{
    counted, database_row, member, object, raw_str, raw_time, whole_dialog, whole_json_text,
    Common, Fields, Turn,
};
use crate::session::model::{Dialog, SessionFormat};
use crate::session::{json_error, SessionError, MAX_REQUESTS};

/// The old chat panel's key (one row for all tabs of a workspace).
pub(crate) const CHAT_DATA_KEY: &str = "workbench.panel.aichat.view.aichat.chatdata";
/// The per-workspace list of composers (with their messages inline in late-2024 builds).
pub(crate) const COMPOSER_LIST_KEY: &str = "composer.composerData";

/// Whether `file_name` is a conversation of a Cursor database: `…state.vscdb#<id>`.
pub(crate) fn detect(file_name: &str) -> bool {
    database_row(file_name)
        .is_some_and(|(db, id)| !id.is_empty() && db.eq_ignore_ascii_case("state.vscdb"))
}

/// The conversation id of such a file name (after the last `#`).
pub(crate) fn conversation_of(file_name: &str) -> Option<&str> {
    database_row(file_name).map(|(_, id)| id)
}

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct Doc<'a> {
    conversation: Option<&'a RawValue>,
    folder: Option<&'a RawValue>,
    rows: Option<Vec<Row>>,
}

#[derive(Deserialize)]
struct Row {
    key: String,
    value: Option<String>,
}

/// The rows by key, the first of a key winning (as a scan would find it): a composer of
/// 100,000 bubbles then costs one lookup each, not a scan of every row for every bubble.
struct Rows<'a>(HashMap<&'a str, Option<&'a str>>);

impl<'a> Rows<'a> {
    fn new(rows: &'a [Row]) -> Self {
        let mut by_key = HashMap::with_capacity(rows.len());
        for row in rows {
            by_key
                .entry(row.key.as_str())
                .or_insert(row.value.as_deref());
        }
        Rows(by_key)
    }

    /// `None` when there is no row of `key`, `Some(None)` when its value is NULL.
    fn get(&self, key: &str) -> Option<Option<&'a str>> {
        self.0.get(key).copied()
    }
}

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct ChatData<'a> {
    tabs: Option<Vec<&'a RawValue>>,
}

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct ComposerList<'a> {
    #[serde(rename = "allComposers")]
    all_composers: Option<Vec<&'a RawValue>>,
}

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct Composer<'a> {
    #[serde(rename = "composerId")]
    composer_id: Option<&'a RawValue>,
    name: Option<&'a RawValue>,
    #[serde(rename = "createdAt")]
    created_at: Option<&'a RawValue>,
    #[serde(rename = "lastUpdatedAt")]
    last_updated_at: Option<&'a RawValue>,
    conversation: Option<Vec<&'a RawValue>>,
    #[serde(rename = "fullConversationHeadersOnly")]
    headers: Option<Vec<&'a RawValue>>,
}

/// Who wrote a bubble.
enum Who {
    User,
    Assistant,
    Other(String),
}

fn who(kind: Option<&RawValue>) -> Who {
    let Some(kind) = kind else {
        return Who::Other("(none)".into());
    };
    match kind.get() {
        "1" | "\"user\"" => Who::User,
        "2" | "\"ai\"" => Who::Assistant,
        other => Who::Other(other.trim_matches('"').to_string()),
    }
}

/// The reduced state of one Cursor conversation.
#[derive(Debug, Clone)]
pub(crate) struct CursorState {
    pub common: Common,
    /// Bubbles the composer lists whose row is missing (deleted, or not written yet).
    missing: usize,
    /// Rows or bubbles that are not JSON objects of the known shape.
    odd: usize,
}

/// Reads the rows of one conversation (see the module docs).
pub(crate) fn read(
    bytes: &[u8],
    file_name: &str,
    details: Option<usize>,
) -> Result<CursorState, SessionError> {
    let text = whole_json_text(bytes, "an object", "Cursor database rows")?;
    let doc: Doc = serde_json::from_str(&text).map_err(json_error)?;
    let id = raw_str(doc.conversation)
        .or_else(|| conversation_of(file_name).map(str::to_string))
        .filter(|id| !id.is_empty())
        .ok_or_else(|| SessionError::NotASession("no conversation id".into()))?;
    let rows = doc
        .rows
        .ok_or_else(|| SessionError::NotASession("no `rows` of a Cursor database".into()))?;
    let mut state = CursorState {
        common: Common::new(details),
        missing: 0,
        odd: 0,
    };
    state.common.session_id = Some(id.clone());
    state.common.folder = raw_str(doc.folder).and_then(|f| super::continue_dev::folder_of(&f));
    let rows = Rows::new(&rows);
    let composer_key = format!("composerData:{id}");
    if let Some(value) = rows.get(&composer_key) {
        let value = value.ok_or_else(|| {
            SessionError::NotASession(format!("the row `{composer_key}` is NULL"))
        })?;
        let composer: Composer = serde_json::from_str(value).map_err(json_error)?;
        read_composer(&mut state, &composer, &rows, &id);
        return Ok(state);
    }
    if let Some(Some(value)) = rows.get(COMPOSER_LIST_KEY) {
        let list: ComposerList = serde_json::from_str(value).map_err(json_error)?;
        let found = list
            .all_composers
            .unwrap_or_default()
            .into_iter()
            .find_map(|raw| {
                serde_json::from_str::<Composer>(raw.get())
                    .ok()
                    .filter(|c| raw_str(c.composer_id).as_deref() == Some(id.as_str()))
            });
        if let Some(composer) = found.filter(|c| c.conversation.is_some()) {
            read_composer(&mut state, &composer, &rows, &id);
            return Ok(state);
        }
    }
    if let Some(Some(value)) = rows.get(CHAT_DATA_KEY) {
        let data: ChatData = serde_json::from_str(value).map_err(json_error)?;
        // A tab: `{tabId, chatTitle, lastSendTime, bubbles: [...]}`.
        let found = data.tabs.unwrap_or_default().into_iter().find_map(|raw| {
            let tab: Fields = object(Some(raw))?;
            let bubbles: Option<Vec<&RawValue>> = member(tab.bubbles).ok()?;
            (raw_str(tab.tab_id).as_deref() == Some(id.as_str())).then_some((tab, bubbles))
        });
        if let Some((tab, bubbles)) = found {
            let c = &mut state.common;
            c.title = raw_str(tab.chat_title).filter(|t| !t.trim().is_empty());
            c.last_event = raw_time(tab.last_send_time);
            for bubble in bubbles.unwrap_or_default() {
                apply_bubble(&mut state, bubble.get());
            }
            return Ok(state);
        }
    }
    Err(SessionError::NotASession(format!(
        "no Cursor conversation `{}` in the rows given",
        crate::text::preview(&id, 80)
    )))
}

/// A composer: its inline `conversation` (late 2024) or the bubbles its headers list, each in a
/// row `bubbleId:<composer>:<bubble>` (2025).
fn read_composer(state: &mut CursorState, composer: &Composer, rows: &Rows, id: &str) {
    let c = &mut state.common;
    c.title = raw_str(composer.name).filter(|t| !t.trim().is_empty());
    c.start = raw_time(composer.created_at);
    c.last_event = raw_time(composer.last_updated_at).or(c.start);
    if let Some(conversation) = &composer.conversation {
        if !conversation.is_empty() || composer.headers.is_none() {
            for bubble in conversation {
                apply_bubble(state, bubble.get());
            }
            return;
        }
    }
    let prefix = format!("bubbleId:{id}:");
    for header in composer.headers.as_deref().unwrap_or_default() {
        let bubble_id = object::<Fields>(Some(header)).and_then(|h| raw_str(h.bubble_id));
        let Some(bubble_id) = bubble_id else {
            state.odd += 1;
            continue;
        };
        let key = format!("{prefix}{bubble_id}");
        match rows.get(&key).flatten() {
            Some(value) => apply_bubble(state, value),
            None => state.missing += 1,
        }
    }
}

/// One message: a request when the person wrote it and it has text, else the answer to the
/// last request.
fn apply_bubble(state: &mut CursorState, text: &str) {
    let Ok(bubble) = serde_json::from_str::<Fields>(text) else {
        state.odd += 1;
        return;
    };
    let c = &mut state.common;
    c.events += 1;
    match who(bubble.kind) {
        Who::User => {
            let Some(words) = raw_str(bubble.text).filter(|t| !t.trim().is_empty()) else {
                return;
            };
            if c.turns.len() < MAX_REQUESTS {
                c.turns.push(Turn {
                    id: raw_str(bubble.bubble_id).or_else(|| raw_str(bubble.id)),
                    text: words,
                    timestamp: raw_time(bubble.created_at),
                    ..Default::default()
                });
            }
        }
        Who::Assistant => {
            c.answered(None, raw_str(bubble.text));
            c.end_turn();
        }
        Who::Other(kind) => c.unknown_type(&kind),
    }
}

/// The dialog of a conversation read by [`read`].
pub(crate) fn dialog(state: &CursorState, file_name: &str) -> Dialog {
    let skipped: Vec<String> = [
        counted(
            state.missing,
            "message",
            "the conversation lists have no row; not read",
        ),
        counted(state.odd, "message", "of an unknown shape skipped"),
    ]
    .into_iter()
    .flatten()
    .collect();
    whole_dialog(
        &state.common,
        SessionFormat::Cursor,
        file_name,
        &skipped,
        ("message", "type"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_conversations_of_a_state_database_are_detected() {
        assert!(detect(
            "/h/.config/Cursor/User/globalStorage/state.vscdb#abc"
        ));
        assert!(detect(
            "C:\\Users\\a\\AppData\\Roaming\\Cursor\\User\\workspaceStorage\\f8\\state.vscdb#t-1"
        ));
        assert!(!detect("/h/.config/Cursor/User/globalStorage/state.vscdb"));
        assert!(!detect("/h/.config/Cursor/User/globalStorage/state.vscdb#"));
        assert!(!detect("/h/chatSessions/a#b.json"));
        assert_eq!(conversation_of("/x/state.vscdb#a#b"), Some("b"));
    }
}
