//! The file names every reader is tried under by the property tests (`session_proptest.rs`) and
//! the fuzz target `parse` (`fuzz/fuzz_targets/parse.rs` includes this file with `#[path]`): one
//! of each format the name picks (native `.json`, `.jsonl` log, export, transcript; the other
//! agents' places, where the path alone picks the reader) and one with no extension, so the same
//! bytes reach every reader. Plain Rust, no test crate, so the fuzz crate can include it.

/// One path per format a file name selects, and one that selects none.
pub const NAMES: &[&str] = &[
    "/ws/chatSessions/a.json",
    "/ws/chatSessions/a.jsonl",
    "/x/chat.json",
    "/ws/GitHub.copilot-chat/transcripts/t.jsonl",
    "no-extension",
    "/h/.qwen/projects/-w/chats/s.jsonl",
    "/g/saoudrizwan.claude-dev/tasks/1/ui_messages.json",
    "/h/.continue/sessions/s.json",
    "/h/.local/share/opencode/opencode.db#ses_1",
    "/w/.aider.chat.history.md",
    "/h/.config/Cursor/User/globalStorage/state.vscdb#c1",
];
