//! OpenCode (npm `opencode-ai`): one session as `opencode export <sessionID>` prints it, `{info,
//! messages: [{info, parts}]}` (measured with opencode-ai 1.18.33 running offline). OpenCode keeps
//! its sessions in a SQLite database, `opencode.db` in its data folder; the hosts read a session's
//! rows from it (`session`, `message`, `part`: each `data` column is the JSON of a message's or a
//! part's info) and hand the core this same shape, so an exported file reads the same way.
//!
//! `info` is the session: `{id, title, directory, parentID?, version, time: {created, updated}}`.
//! A message's `info` is `{id, role, time: {created}, modelID?, model?: {modelID}}`; its `parts`
//! are `{type, text?, synthetic?, ignored?}`. A request is a `user` message's `text` parts, without
//! the `synthetic` ones (OpenCode's own additions: a file's contents, a command's expansion notes)
//! and the `ignored` ones; a user message without such text (a compaction marker, an attached file
//! alone) is none. A sub-agent's session (`parentID`) holds the agent's prompts, not the person's:
//! it is not a dialog. OpenCode titles a new session `New session - <time>` until the model names
//! it: that placeholder is no title.
//!
//! Kilo Code's CLI (npm `@kilocode/cli`, built on OpenCode) keeps the same tables in `kilo.db` in its
//! own data folder (`$XDG_DATA_HOME/kilo`; measured with 7.7.7 running offline): its sessions read
//! the same way, as Kilo Code's (`kilo-code`).

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{
    database_row, member, object, raw_str, raw_time, raw_true, whole_json_text, Common, Fields,
    Part, Raw, WholeState,
};
use crate::session::model::{Dialog, SessionFormat};
use crate::session::{json_error, SessionError, MAX_REQUESTS};

/// The databases whose sessions the hosts read, by file name, and whose they are: OpenCode's, and
/// Kilo Code's CLI's (the same tables under another name).
const DATABASES: [(&str, SessionFormat); 2] = [
    ("opencode.db", SessionFormat::OpenCode),
    ("kilo.db", SessionFormat::KiloCode),
];

/// The format of a session the hosts read from OpenCode's or Kilo Code's database,
/// `<db>#<sessionID>`, or `None` for any other file.
fn database_format(file_name: &str) -> Option<SessionFormat> {
    let (db, id) = database_row(file_name)?;
    if !id.starts_with("ses_") {
        return None;
    }
    DATABASES
        .iter()
        .find(|(wanted, _)| db.eq_ignore_ascii_case(wanted))
        .map(|(_, format)| *format)
}

/// Whether `file_name` is a session the hosts read from OpenCode's (or Kilo Code's) database:
/// `<db>#<sessionID>`.
pub(crate) fn detect(file_name: &str) -> bool {
    database_format(file_name).is_some()
}

/// Whose session `file_name` is: Kilo Code's for its CLI's `kilo.db`, else OpenCode's (its database
/// or an `opencode export` file anywhere).
pub(crate) fn format_of(file_name: &str) -> SessionFormat {
    database_format(file_name).unwrap_or(SessionFormat::OpenCode)
}

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct Export<'a> {
    info: Option<&'a RawValue>,
    messages: Option<Vec<&'a RawValue>>,
}

/// A message `{id?, info: {id, role, time?: {created, completed?}, modelID?, error?}, parts: [{type,
/// text?, synthetic?, ignored?}]}` (the hosts put the message's id beside its `info`: the database
/// keeps it in a column); `None` when it is not of that shape.
struct Message<'a> {
    id: Raw<'a>,
    info: Fields<'a>,
    time: Option<Fields<'a>>,
    parts: Vec<Part<'a>>,
}

impl<'a> Message<'a> {
    fn read(raw: &'a RawValue) -> Option<Self> {
        let message: Fields = object(Some(raw))?;
        let info: Fields = member(message.info).ok()??;
        Some(Message {
            id: message.id,
            time: member(info.time).ok()?,
            parts: member(message.parts).ok()?.unwrap_or_default(),
            info,
        })
    }
}

/// OpenCode's placeholder title of a session the model has not named yet.
fn placeholder_title(title: &str) -> bool {
    title.starts_with("New session - ") || title.starts_with("Child session - ")
}

/// The reduced state of an OpenCode session: `odd` counts the messages that are not `{info:
/// {role: user|assistant}, parts}`.
pub(crate) type OpenCodeState = WholeState;

/// Reads a whole session (an export, or what a host read from the database).
pub(crate) fn read(bytes: &[u8], details: Option<usize>) -> Result<OpenCodeState, SessionError> {
    let text = whole_json_text(bytes, "an object", "an OpenCode session object")?;
    let export: Export = serde_json::from_str(&text).map_err(json_error)?;
    let (Some(info), Some(messages)) = (export.info, export.messages) else {
        return Err(SessionError::NotASession(
            "a JSON object without `info` and `messages`".into(),
        ));
    };
    // `{id, title, directory, parentID?, time: {created, updated}}`.
    let (info, time) = object::<Fields>(Some(info))
        .and_then(|info| Some((member::<Fields>(info.time).ok()?, info)))
        .map(|(time, info)| (info, time))
        .ok_or_else(|| SessionError::NotASession("`info` is not an object".into()))?;
    if let Some(parent) = raw_str(info.parent_id) {
        return Err(SessionError::NotASession(format!(
            "a sub-agent's session (parent {}): its prompts are the agent's, not the person's",
            crate::text::preview(&parent, 40)
        )));
    }
    let mut state = WholeState::new(details);
    let c = &mut state.common;
    c.session_id = raw_str(info.id).filter(|id| !id.is_empty());
    c.title = raw_str(info.title).filter(|t| !t.trim().is_empty() && !placeholder_title(t));
    c.folder = raw_str(info.directory).filter(|d| !d.is_empty() && d.len() <= 4096);
    if let Some(time) = &time {
        c.start = raw_time(time.created);
        c.seen_at(raw_time(time.updated));
    }
    for message in messages {
        let Some(message) = Message::read(message) else {
            state.odd += 1;
            continue;
        };
        let c = &mut state.common;
        c.events += 1;
        let created = message.time.as_ref().and_then(|t| raw_time(t.created));
        c.seen_at(created);
        match raw_str(message.info.role).as_deref() {
            Some("user") => push_request(c, &message, created),
            Some("assistant") => push_answer(c, &message),
            // `system` or a role of a newer version: not the person's, counted.
            _ => state.odd += 1,
        }
    }
    Ok(state)
}

/// A user message: a request made of its text parts that are neither OpenCode's own notes
/// (`synthetic`) nor `ignored`; nothing when none is left (a compaction marker, a file alone).
fn push_request(c: &mut Common, message: &Message, created: Option<i64>) {
    let texts: Vec<String> = message
        .parts
        .iter()
        .filter(|p| raw_str(p.kind).as_deref() == Some("text"))
        .filter(|p| !raw_true(p.synthetic) && !raw_true(p.ignored))
        .filter_map(|p| raw_str(p.text))
        .collect();
    let text = texts.join("\n");
    if text.trim().is_empty() || c.turns.len() >= MAX_REQUESTS {
        return;
    }
    c.next_turn(
        raw_str(message.info.id).or_else(|| raw_str(message.id)),
        text,
        created,
    );
}

/// An assistant message: the answer to the newest request, its tool calls, and whether it
/// completed or failed.
fn push_answer(c: &mut Common, message: &Message) {
    let (info, parts) = (&message.info, &message.parts);
    let completed = message.time.as_ref().and_then(|t| raw_time(t.completed));
    c.seen_at(completed);
    let wants = c.wants_details();
    let text = wants.then(|| {
        parts
            .iter()
            .filter(|p| raw_str(p.kind).as_deref() == Some("text"))
            .filter_map(|p| raw_str(p.text))
            .collect::<Vec<_>>()
            .join("\n\n")
    });
    c.answered(raw_str(info.model_id), text);
    let tools = parts
        .iter()
        .filter(|p| raw_str(p.kind).as_deref() == Some("tool"))
        .count();
    if let Some(turn) = c.turns.last_mut() {
        if wants {
            turn.tool_calls += tools;
        }
        if info.error.is_some_and(|e| e.get() != "null") {
            turn.failed = true;
        } else if completed.is_some() {
            turn.done = true;
        }
    }
}

/// The dialog of a session read by [`read`].
pub(crate) fn dialog(state: &OpenCodeState, file_name: &str) -> Dialog {
    let skipped = ("message", "without a known `info.role` skipped");
    state.dialog(format_of(file_name), file_name, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_sessions_are_named_by_the_database_and_id() {
        assert!(detect(
            "/home/me/.local/share/opencode/opencode.db#ses_df04b5ed1ffe6aZd1G"
        ));
        assert!(detect(
            "C:\\Users\\me\\.local\\share\\opencode\\opencode.db#ses_1"
        ));
        assert!(!detect("/home/me/opencode.db"));
        assert!(!detect("/home/me/notes.db#ses_1"));
        assert!(!detect("/home/me/opencode.db#msg_1"));
        assert!(!detect("/home/me/notopencode.db#ses_1"));
    }

    #[test]
    fn kilo_code_cli_sessions_are_kilo_codes() {
        assert_eq!(
            format_of("/home/me/.local/share/kilo/kilo.db#ses_deff2b4c6ffelV4FEhObmssV0C"),
            SessionFormat::KiloCode
        );
        assert_eq!(
            format_of("C:\\Users\\me\\.local\\share\\kilo\\kilo.db#ses_1"),
            SessionFormat::KiloCode
        );
        assert_eq!(
            format_of("/home/me/.local/share/opencode/opencode.db#ses_1"),
            SessionFormat::OpenCode
        );
        assert_eq!(format_of("/home/me/export.json"), SessionFormat::OpenCode);
        assert!(!detect("/home/me/kilo.db#msg_1"));
    }
}
