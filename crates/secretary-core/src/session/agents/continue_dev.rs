//! Continue (the VS Code and JetBrains extension `Continue.continue`, and its `cn` CLI, npm
//! `@continuedev/cli`): one JSON file per session, `~/.continue/sessions/<sessionId>.json`
//! (`CONTINUE_GLOBAL_DIR` moves `~/.continue`), beside the index `sessions.json` (a list, not a
//! session). Checked on the files `cn` 1.5.47 wrote offline (the extension cannot run outside an
//! IDE here): see `docs/agents.md`. `cn` writes the same shape, with `usage`, `editorState` and
//! the assistant's `toolCalls` / `toolCallStates` besides.
//!
//! A session is `{sessionId, title, workspaceDirectory, history: [{message: {role, content},
//! contextItems, ...}], mode?, chatModelTitle?}`, rewritten as a whole: it is read as a whole file.
//! A request is a `role: "user"` message's text (`content`: a string or parts `{type: "text",
//! text}`); the files and snippets attached as `contextItems` are not part of it. The folder is
//! `workspaceDirectory`, a path or (newer versions) a `file://` URI. The messages carry no times:
//! the host's file time stands for the last activity.

use serde_json::value::RawValue;

use super::{member, object, raw_str, whole_json_text, Fields, Part, WholeState};
use crate::session::model::{Dialog, SessionFormat};
use crate::session::{json_error, SessionError, MAX_REQUESTS};

/// Whether `file_name` is a Continue session: `<id>.json` in a `sessions` folder of `.continue`,
/// not the `sessions.json` index.
pub(crate) fn detect(file_name: &str) -> bool {
    let parts: Vec<&str> = file_name.split(['/', '\\']).collect();
    let [.., dot_continue, sessions, base] = parts.as_slice() else {
        return false;
    };
    let base = base.to_ascii_lowercase();
    dot_continue.eq_ignore_ascii_case(".continue")
        && sessions.eq_ignore_ascii_case("sessions")
        && base.ends_with(".json")
        && base != "sessions.json"
}

/// The titles Continue gives a session before it has one: `New Session` (the IDE extension),
/// `Untitled Session` (the `cn` CLI 1.5.47).
const PLACEHOLDER_TITLES: &[&str] = &["New Session", "Untitled Session"];

/// The text of a message's `content`: a string, or its text parts joined.
fn content_text(content: Option<&RawValue>) -> Option<String> {
    let content = content?;
    if content.get().starts_with('"') {
        return raw_str(Some(content));
    }
    let parts: Vec<Part> = serde_json::from_str(content.get()).ok()?;
    let texts: Vec<String> = parts
        .iter()
        .filter(|p| raw_str(p.kind).is_none_or(|k| k == "text"))
        .filter_map(|p| raw_str(p.text))
        .collect();
    Some(texts.join("\n"))
}

/// A folder from `workspaceDirectory`: a path as written, or the path of a `file://` URI
/// (percent-decoded; `file:///c%3A/x` is `c:/x`). Another scheme (a remote workspace) gives none.
pub(crate) fn folder_of(value: &str) -> Option<String> {
    let value = value.trim();
    if value.is_empty() || value.len() > 4096 {
        return None;
    }
    let Some(rest) = value.strip_prefix("file://") else {
        return (!value.contains("://")).then(|| value.to_string());
    };
    // `file:///path`: an empty authority; anything else names another machine.
    let path = rest.strip_prefix('/').map(|p| format!("/{p}"))?;
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    let path = String::from_utf8(out).ok()?;
    // `/c:/x`: a Windows drive.
    let windows = path.len() >= 3
        && path.as_bytes()[0] == b'/'
        && path.as_bytes()[1].is_ascii_alphabetic()
        && path.as_bytes()[2] == b':';
    Some(if windows { path[1..].to_string() } else { path })
}

/// The reduced state of a Continue session: `odd` counts the history items that are not
/// `{message: {role, ...}}`.
pub(crate) type ContinueState = WholeState;

/// Reads a whole session file.
pub(crate) fn read(bytes: &[u8], details: Option<usize>) -> Result<ContinueState, SessionError> {
    let text = whole_json_text(bytes, "an object", "a Continue session object")?;
    let session: Fields = serde_json::from_str(&text).map_err(json_error)?;
    let Some(history) = session.history else {
        return Err(SessionError::NotASession(
            "a JSON object without `history`".into(),
        ));
    };
    let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(history.get()) else {
        return Err(SessionError::NotASession(
            "`history` is not an array".into(),
        ));
    };
    let mut state = WholeState::new(details);
    let c = &mut state.common;
    c.session_id = raw_str(session.session_id).filter(|id| !id.is_empty());
    c.title = raw_str(session.title).filter(|t| !PLACEHOLDER_TITLES.contains(&t.as_str()));
    c.folder = raw_str(session.workspace_directory).and_then(|w| folder_of(&w));
    c.model = raw_str(session.chat_model_title).filter(|m| !m.is_empty());
    for item in items {
        // `{message: {role, content, toolCalls?}}`, `toolCalls` a list.
        let message = object::<Fields>(Some(item)).and_then(|i| object::<Fields>(i.message));
        let Some((message, tool_calls)) = message.and_then(|m| {
            let calls = member::<Vec<&RawValue>>(m.tool_calls).ok()?;
            Some((m, calls))
        }) else {
            state.odd += 1;
            continue;
        };
        let c = &mut state.common;
        c.events += 1;
        match raw_str(message.role).as_deref() {
            Some("user") => {
                let Some(text) = content_text(message.content).filter(|t| !t.trim().is_empty())
                else {
                    continue;
                };
                if c.turns.len() < MAX_REQUESTS {
                    c.push_turn(None, text, None);
                }
            }
            Some("assistant") => {
                let wants = c.wants_details();
                c.answered(None, content_text(message.content));
                if let Some(turn) = c.turns.last_mut() {
                    turn.done = true;
                    if wants {
                        turn.tool_calls += tool_calls.map_or(0, |calls| calls.len());
                    }
                }
            }
            // A tool's result answers one of the assistant's `toolCalls`, counted there.
            Some("thinking" | "system" | "tool") => {}
            Some(other) => c.unknown_type(other),
            None => state.odd += 1,
        }
    }
    Ok(state)
}

/// The dialog of a session read by [`read`].
pub(crate) fn dialog(state: &ContinueState, file_name: &str) -> Dialog {
    let skipped = ("history item", "without a message skipped");
    state.dialog(SessionFormat::Continue, file_name, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_directory_as_path_or_file_uri() {
        for (value, folder) in [
            ("/work/cn", Some("/work/cn")),
            ("file:///Users/me/my%20app", Some("/Users/me/my app")),
            ("file:///c%3A/Code/x", Some("c:/Code/x")),
            ("E:\\Code\\ProjectAlpha", Some("E:\\Code\\ProjectAlpha")),
            ("vscode-remote://ssh-remote+h/x", None),
            ("file://host/share", None),
            ("", None),
        ] {
            assert_eq!(folder_of(value).as_deref(), folder, "{value}");
        }
    }

    #[test]
    fn only_session_files_are_detected() {
        assert!(detect("/h/.continue/sessions/5f0c2b1e.json"));
        assert!(detect("C:\\Users\\a\\.continue\\sessions\\5f0c2b1e.json"));
        assert!(!detect("/h/.continue/sessions/sessions.json"));
        assert!(!detect("/h/.continue/config.json"));
        assert!(!detect("/h/other/sessions/5f0c2b1e.json"));
    }
}
