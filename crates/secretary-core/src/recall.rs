//! Recall without being asked: what an agent's hook gets back after a compaction.
//!
//! After an agent compacts its history it holds a summary and cannot know what the summary lost,
//! so it never thinks to call `get_request`. The agents run hooks at that moment (Claude Code's and
//! Codex's `SessionStart` with the `compact` source, Copilot CLI's prompt hook, Gemini CLI's
//! `BeforeAgent` after a compression shows in its log); `secretary hook` answers them with the
//! person's own words, verbatim, from the agent's own log.
//!
//! The host reads the hook's input and the log; everything decided here is pure: which input
//! fields name the session ([`read_hook_input`]), whether an event is answered at all
//! ([`HookInput::wants_recall`]), what text comes back within a character budget
//! ([`recall_text`]), and the output shape each agent expects ([`hook_output`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::session::{Dialog, DialogSource, Request};
use crate::text::preview;

/// The budget when the command line names none: about 3,000 tokens, small next to any context
/// window, large enough for a first request and a few middle ones whole.
pub const DEFAULT_MAX_CHARS: usize = 12_000;
/// The smallest budget that still holds a header, two short requests and a list line.
pub const MIN_MAX_CHARS: usize = 1_000;
/// The largest budget: the agents cap what a hook may add anyway, and a hook must stay quick.
pub const MAX_MAX_CHARS: usize = 200_000;
/// The largest hook input read (the agents send a few hundred bytes; a prompt hook carries the
/// prompt, which may be long).
pub const MAX_INPUT_BYTES: usize = 8 * 1024 * 1024;
/// Words of the recall's header that tell it apart in an agent's log (Gemini CLI records the
/// hook's answer with the prompt: the next hooks see that the words came back).
pub const RECALL_MARK: &str = "verbatim from the agent's log (Chat Secretary)";
/// Characters of a listed request's preview.
const PREVIEW_CHARS: usize = 100;

/// Why a hook input was refused. The host logs it in one line and prints nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecallError {
    #[error("the hook input is larger than {MAX_INPUT_BYTES} bytes")]
    TooLarge,
    #[error("the hook input is not a JSON object: {0}")]
    NotJson(String),
    #[error("unknown hook event `{0}`; known: session-start, user-prompt-submitted, before-agent")]
    UnknownEvent(String),
    #[error("hooks are not offered for `{0}`; known: claude-code, codex, copilot-cli, gemini-cli, vscode")]
    UnknownAgent(String),
    #[error("the session log could not be read: {0}")]
    Session(String),
}

/// The agent whose hook runs: the same names as [`DialogSource`]. `vscode` is VS Code's own
/// agent (Copilot Chat runs the hooks VS Code collects; its `UserPromptSubmit` names VS Code's
/// chat session).
pub fn hook_agent(name: &str) -> Result<DialogSource, RecallError> {
    DialogSource::parse(name).ok_or_else(|| RecallError::UnknownAgent(preview(name, 40)))
}

/// The hook events `secretary hook <event>` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HookEvent {
    /// Claude Code and Codex `SessionStart` (answered for the `compact` source only), Copilot
    /// CLI `sessionStart`.
    SessionStart,
    /// Copilot CLI `userPromptSubmitted`, Claude Code and Codex `UserPromptSubmit`: answered only
    /// when the log shows a compaction since the person's previous request.
    UserPromptSubmitted,
    /// Gemini CLI `BeforeAgent` (a prompt was submitted): answered only when the log shows a
    /// compression after the last prompt that carried the recall.
    BeforeAgent,
}

impl HookEvent {
    pub fn parse(name: &str) -> Result<HookEvent, RecallError> {
        match name {
            "session-start" => Ok(HookEvent::SessionStart),
            "user-prompt-submitted" => Ok(HookEvent::UserPromptSubmitted),
            "before-agent" => Ok(HookEvent::BeforeAgent),
            other => Err(RecallError::UnknownEvent(preview(other, 40))),
        }
    }

    /// The event's name in the agent's own settings and output.
    pub fn agent_name(self, agent: DialogSource) -> &'static str {
        match (self, agent) {
            (HookEvent::SessionStart, DialogSource::CopilotCli) => "sessionStart",
            (HookEvent::SessionStart, _) => "SessionStart",
            (HookEvent::UserPromptSubmitted, DialogSource::CopilotCli) => "userPromptSubmitted",
            (HookEvent::UserPromptSubmitted, _) => "UserPromptSubmit",
            (HookEvent::BeforeAgent, _) => "BeforeAgent",
        }
    }
}

/// What a hook's input says about the session, every field checked: a session id the host may
/// use in a file name, a transcript path the host still confines to the agent's own folders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookInput {
    /// `session_id` (Claude Code, Codex) or `sessionId` (Copilot CLI), when it is a plain id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// `transcript_path` / `transcriptPath`, when absolute, `.jsonl` and free of odd characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// Why the session (re)started: `startup`, `resume`, `clear`, `compact` (`source`, or
    /// `trigger` in some versions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Notes on fields that were present but refused, for the host's log line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
    /// The prompt a prompt hook carries (Copilot CLI `prompt`): its own `user.message` may already
    /// be in the log, and is then not "the previous request". Not sent back to the host.
    #[serde(skip)]
    pub prompt: Option<String>,
}

impl HookInput {
    /// Whether this event should bring the person's words back: a `SessionStart` only after a
    /// compaction (an agent that ignores the installed matcher still gets nothing at startup).
    pub fn wants_recall(&self, event: HookEvent) -> bool {
        match event {
            HookEvent::SessionStart => self.source.as_deref().is_none_or(|s| s == "compact"),
            HookEvent::UserPromptSubmitted | HookEvent::BeforeAgent => true,
        }
    }
}

/// Reads a hook's stdin. Unknown fields are ignored (each agent sends more); known ones that fail
/// their check are left out and named in `refused`.
pub fn read_hook_input(bytes: &[u8]) -> Result<HookInput, RecallError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(RecallError::TooLarge);
    }
    let value: Value =
        serde_json::from_slice(bytes).map_err(|err| RecallError::NotJson(err.to_string()))?;
    let Value::Object(map) = value else {
        return Err(RecallError::NotJson("not an object".to_string()));
    };
    let field = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| map.get(*n))
            .and_then(Value::as_str)
    };
    let mut input = HookInput::default();
    input.session_id = checked(
        field(&["session_id", "sessionId"]),
        is_plain_id,
        ("session id", 40),
        &mut input.refused,
    );
    input.transcript_path = checked(
        field(&["transcript_path", "transcriptPath"]),
        is_plain_log_path,
        ("transcript path", 80),
        &mut input.refused,
    );
    input.prompt = field(&["prompt"]).map(str::to_string);
    if let Some(source) = field(&["source", "trigger"]) {
        if source.len() <= 40
            && source
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            input.source = Some(source.to_string());
        }
    }
    Ok(input)
}

/// A hook field's `value` when it passes `check`. Otherwise `None`, and `refused` names the field
/// as `(what, shown)` say: its name, then its start quoted (`shown` characters: a hostile value
/// may be huge).
fn checked(
    value: Option<&str>,
    check: fn(&str) -> bool,
    (what, shown): (&str, usize),
    refused: &mut Vec<String>,
) -> Option<String> {
    let value = value?;
    if check(value) {
        return Some(value.to_string());
    }
    refused.push(format!("{what} {:?}", preview(value, shown)));
    None
}

/// A session id that is safe in a file name: 1 to 128 ASCII letters, digits, `-`, `_`, `.`, not
/// starting with a dot.
pub fn is_plain_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// An absolute `.jsonl` path without `..` segments or control characters. The host still checks
/// that it lies in the agent's own log folder before reading it.
fn is_plain_log_path(path: &str) -> bool {
    let absolute = path.starts_with('/')
        || (path.len() > 2
            && path.as_bytes()[1] == b':'
            && path.as_bytes()[0].is_ascii_alphabetic());
    absolute
        && path.len() <= 4096
        && path.ends_with(".jsonl")
        && !path.chars().any(char::is_control)
        && !path.split(['/', '\\']).any(|seg| seg == "..")
}

/// The person's requests of `dialog`, verbatim, within `max_chars` characters (clamped to
/// [`MIN_MAX_CHARS`]..=[`MAX_MAX_CHARS`]). The first and the newest request come whole unless
/// either alone exceeds a quarter of the budget (then cut, saying so); the middle ones come whole,
/// newest first, while the budget lasts; the rest are listed by number with a short preview so the
/// agent can `get_request` them; when even the list does not fit, its oldest entries fold into one
/// line. `None` when the dialog has no request.
pub fn recall_text(dialog: &Dialog, max_chars: usize) -> Option<String> {
    let budget = max_chars.clamp(MIN_MAX_CHARS, MAX_MAX_CHARS);
    let requests: Vec<_> = dialog.requests.iter().collect();
    let count = requests.len();
    if count == 0 {
        return None;
    }
    let header = format!(
        "The person's own words in this session ({count} request{}), {RECALL_MARK}. The \
         conversation was compacted: these are what the person asked, not a summary. Call \
         get_request with a number for any request in full.\n",
        if count == 1 { "" } else { "s" }
    );
    let cap = budget / 4;
    let first = block(
        requests[0].index,
        count,
        &requests[0].text,
        Some(cap),
        "first",
    );
    let newest = (count > 1).then(|| {
        let last = requests[count - 1];
        block(last.index, count, &last.text, Some(cap), "newest")
    });
    let middle = Middle::new(&requests[1..count.saturating_sub(1).max(1)], count);
    let fixed = len(&header) + len(&first) + newest.as_deref().map_or(0, len);
    let (folded, whole) = middle.plan(budget.saturating_sub(fixed));
    let mut out = header;
    out.push_str(&first);
    for (b, _) in middle.blocks.iter().zip(&whole).filter(|(_, w)| **w) {
        out.push_str(b);
    }
    if let Some(newest) = &newest {
        out.push_str(newest);
    }
    middle.push_list(&mut out, folded, &whole);
    Some(out)
}

/// The title of the list of requests not shown whole.
const LIST_TITLE: &str = "\nNot shown here (get_request returns each in full):\n";

/// The requests between the first and the newest, each either a list line (its number, length
/// and a preview) or its whole text: what the budget left after the first and the newest decides.
struct Middle<'a> {
    requests: &'a [&'a Request],
    /// Each request's list line.
    lines: Vec<String>,
    /// Each request's whole text, as a block.
    blocks: Vec<String>,
}

impl<'a> Middle<'a> {
    fn new(requests: &'a [&'a Request], count: usize) -> Self {
        let lines = requests
            .iter()
            .map(|r| {
                format!(
                    "- request {} ({} characters): {}\n",
                    r.index,
                    r.text.chars().count(),
                    preview(&r.text, PREVIEW_CHARS)
                )
            })
            .collect();
        let blocks = requests
            .iter()
            .map(|r| block(r.index, count, &r.text, None, ""))
            .collect();
        Middle {
            requests,
            lines,
            blocks,
        }
    }

    /// The line standing for the oldest `n` requests folded into one.
    fn fold_line(&self, n: usize) -> String {
        format!(
            "- {n} earlier request{} (from request {})\n",
            if n == 1 { "" } else { "s" },
            self.requests.first().map_or(0, |r| r.index)
        )
    }

    /// What the list costs with the oldest `folded` lines folded into one and the `whole` ones
    /// shown in full instead (nothing when no line is left).
    fn list_cost(&self, folded: usize, whole: &[bool]) -> usize {
        let shown: usize = self
            .lines
            .iter()
            .zip(whole)
            .skip(folded)
            .filter(|(_, w)| !**w)
            .map(|(l, _)| len(l))
            .sum();
        let any = folded > 0 || whole.iter().skip(folded).any(|w| !w);
        let fold = if folded > 0 {
            len(&self.fold_line(folded))
        } else {
            0
        };
        if any {
            len(LIST_TITLE) + shown + fold
        } else {
            0
        }
    }

    /// What the `whole` requests' blocks cost.
    fn whole_cost(&self, whole: &[bool]) -> usize {
        self.blocks
            .iter()
            .zip(whole)
            .filter(|(_, w)| **w)
            .map(|(b, _)| len(b))
            .sum()
    }

    /// How many of the oldest list lines to fold, and which requests to show whole, within
    /// `room`: each request starts as a list line (upgrading one costs the difference), the oldest
    /// lines fold into one until the list fits, then requests are upgraded newest first while
    /// the room lasts.
    fn plan(&self, room: usize) -> (usize, Vec<bool>) {
        let n = self.requests.len();
        let mut whole = vec![false; n];
        let mut folded = 0usize;
        while folded < n && self.list_cost(folded, &whole) > room {
            folded += 1;
        }
        for i in (folded..n).rev() {
            let mut trial = whole.clone();
            trial[i] = true;
            if self.whole_cost(&trial) + self.list_cost(folded, &trial) <= room {
                whole = trial;
            }
        }
        (folded, whole)
    }

    /// Appends the list of the requests not shown whole, if any.
    fn push_list(&self, out: &mut String, folded: usize, whole: &[bool]) {
        if self.list_cost(folded, whole) == 0 {
            return;
        }
        out.push_str(LIST_TITLE);
        if folded > 0 {
            out.push_str(&self.fold_line(folded));
        }
        for (line, _) in self
            .lines
            .iter()
            .zip(whole)
            .skip(folded)
            .filter(|(_, w)| !**w)
        {
            out.push_str(line);
        }
    }
}

/// One request as a block: a header line naming its number, then its text (cut at `cap`
/// characters when given, saying how much was left out).
fn block(index: usize, count: usize, text: &str, cap: Option<usize>, role: &str) -> String {
    let role = if role.is_empty() {
        String::new()
    } else {
        format!(", the {role}")
    };
    let head = format!("\n=== Request {index} of {count}{role} ===\n");
    let chars = text.chars().count();
    match cap {
        Some(cap) if len(&head) + chars + 1 > cap => {
            let note = format!(
                "\n[... cut here: {chars} characters in all; get_request {index} returns the rest]\n"
            );
            let keep = cap.saturating_sub(len(&head) + len(&note) + 10);
            let cut: String = text.chars().take(keep).collect();
            format!("{head}{cut}{note}")
        }
        _ => format!("{head}{text}\n"),
    }
}

fn len(text: &str) -> usize {
    text.chars().count()
}

/// What the agent expects on stdout for `text` (its hook output format): Claude Code, Codex and
/// Gemini CLI read `hookSpecificOutput.additionalContext` with the event's name (Gemini CLI adds
/// it to the prompt as a `<hook_context>` part); Copilot CLI reads `additionalContext` at the top
/// level.
pub fn hook_output(agent: DialogSource, event: HookEvent, text: &str) -> String {
    let value = match agent {
        DialogSource::CopilotCli => serde_json::json!({ "additionalContext": text }),
        _ => serde_json::json!({
            "hookSpecificOutput": {
                "hookEventName": event.agent_name(agent),
                "additionalContext": text,
            }
        }),
    };
    value.to_string()
}

/// The whole answer to one hook: the agent's log (`file_name`, `bytes`) read as that agent's
/// format, its requests within the budget, in the agent's output shape. `None`: print nothing.
///
/// A prompt hook answers only when the log shows a compaction since the person's previous request
/// ([`compacted_since_last_request`]): once after each compaction, not on every prompt.
pub fn answer(
    agent: DialogSource,
    event: HookEvent,
    input: &HookInput,
    file_name: &str,
    bytes: &[u8],
    max_chars: usize,
) -> Result<Option<String>, RecallError> {
    if !input.wants_recall(event) {
        return Ok(None);
    }
    if event == HookEvent::UserPromptSubmitted
        && !(if agent == DialogSource::Vscode {
            vscode_last_result_compacted(file_name, bytes)
        } else {
            compacted_since_last_request(agent, bytes, input.prompt.as_deref())
        })
    {
        return Ok(None);
    }
    if event == HookEvent::BeforeAgent
        && !(agent == DialogSource::GeminiCli
            && crate::session::gemini_recall_pending(bytes, RECALL_MARK))
    {
        return Ok(None);
    }
    let dialog = crate::session::parse_as(agent, file_name, bytes)
        .map_err(|err| RecallError::Session(err.to_string()))?;
    Ok(recall_text(&dialog, max_chars).map(|text| hook_output(agent, event, &text)))
}

/// Whether the agent's log records a finished compaction after the person's last request (not
/// counting a last request whose text is `prompt`: the one being submitted, when the agent logged
/// it before running the hook). Only Copilot CLI's log is read this way (`session.compaction_complete`
/// after `user.message`); the other agents tell a compaction by their `SessionStart` source.
pub fn compacted_since_last_request(
    agent: DialogSource,
    bytes: &[u8],
    prompt: Option<&str>,
) -> bool {
    if agent != DialogSource::CopilotCli {
        return false;
    }
    #[derive(Deserialize)]
    struct Event {
        #[serde(rename = "type", default)]
        kind: String,
        #[serde(default)]
        data: Option<EventData>,
    }
    #[derive(Deserialize)]
    struct EventData {
        #[serde(default)]
        content: Option<String>,
        #[serde(default)]
        success: Option<bool>,
    }
    let mut skipped_current = false;
    for line in bytes.split(|b| *b == b'\n').rev() {
        // Only the two kinds of line that matter are parsed at all.
        let Some(head) = line.get(..line.len().min(200)) else {
            continue;
        };
        let is_user = memchr::memmem::find(head, b"\"user.message\"").is_some();
        let is_compaction =
            memchr::memmem::find(head, b"\"session.compaction_complete\"").is_some();
        if !is_user && !is_compaction {
            continue;
        }
        let Ok(event) = serde_json::from_slice::<Event>(line) else {
            continue;
        };
        match event.kind.as_str() {
            "session.compaction_complete" => {
                return event.data.and_then(|d| d.success).unwrap_or(true);
            }
            "user.message" => {
                let content = event.data.and_then(|d| d.content);
                if !skipped_current && prompt.is_some() && content.as_deref() == prompt {
                    skipped_current = true;
                    continue;
                }
                return false;
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ids_and_paths() {
        assert!(is_plain_id("0b5e2c1a-8f3d-4e2b-9c7a-1d2e3f4a5b6c"));
        assert!(!is_plain_id(""));
        assert!(!is_plain_id("../etc/passwd"));
        assert!(!is_plain_id("a/b"));
        assert!(!is_plain_id(&"a".repeat(129)));
        assert!(is_plain_log_path("/home/u/.claude/projects/x/a.jsonl"));
        assert!(!is_plain_log_path("relative/a.jsonl"));
        assert!(!is_plain_log_path("/home/u/../../etc/shadow.jsonl"));
        assert!(!is_plain_log_path("/etc/shadow"));
        assert!(!is_plain_log_path("/tmp/a\n.jsonl"));
    }
}

/// What a VS Code chat session keeps of a response's result: Copilot Chat's summaries of the
/// history (`result.metadata.summaries`, or the older `summary`), written when it compacted the
/// conversation within that request (`IResultMetadata`, src/extension/prompt/common/conversation.ts
/// of microsoft/vscode-copilot-chat@31acd00a86424e2ee6e980e54919cf31fbf88030). Everything else is
/// skipped without being built.
#[derive(Deserialize)]
struct LiteMeta {
    #[serde(default)]
    summaries: Option<Vec<serde::de::IgnoredAny>>,
    #[serde(default)]
    summary: Option<serde::de::IgnoredAny>,
}

impl LiteMeta {
    fn compacted(&self) -> bool {
        self.summaries.as_ref().is_some_and(|s| !s.is_empty()) || self.summary.is_some()
    }
}

#[derive(Deserialize)]
struct LiteResult {
    #[serde(default)]
    metadata: Option<LiteMeta>,
}

impl LiteResult {
    fn compacted(&self) -> bool {
        self.metadata.as_ref().is_some_and(LiteMeta::compacted)
    }
}

#[derive(Deserialize)]
struct LiteRequest {
    #[serde(default)]
    result: Option<LiteResult>,
}

impl LiteRequest {
    /// `None` while the request has no result (the one being submitted, one in progress).
    fn compacted(&self) -> Option<bool> {
        self.result.as_ref().map(LiteResult::compacted)
    }
}

#[derive(Deserialize)]
struct LiteSession {
    #[serde(default)]
    requests: Vec<LiteRequest>,
}

#[derive(Deserialize)]
struct LiteMutation {
    kind: u8,
    #[serde(default)]
    k: Vec<Value>,
    #[serde(default)]
    v: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    i: Option<usize>,
}

/// How far past the end of `requests` a mutation may reach before it is ignored (a hostile index
/// must not allocate much; nor may many such lines, the list stopping at
/// [`crate::session::MAX_REQUESTS`] as the session reader's does).
const MAX_REQUEST_GAP: usize = 1024;

/// Whether the newest request of a VS Code chat session that has a result is one in which Copilot
/// Chat compacted the conversation: its `UserPromptSubmit` hook then answers, once, on the next
/// prompt (Copilot Chat's `PreCompact` output is not read, and its `SessionStart` runs on the first
/// turn only). `file_name` tells a `.jsonl` mutation log (replayed as `session::mutation` does,
/// for the results only) from a whole `.json` session.
pub fn vscode_last_result_compacted(file_name: &str, bytes: &[u8]) -> bool {
    let results = if file_name.to_ascii_lowercase().ends_with(".jsonl") {
        let mut results: Vec<Option<bool>> = Vec::new();
        for line in bytes.split(|b| *b == b'\n') {
            if let Ok(m) = serde_json::from_slice::<LiteMutation>(line) {
                apply_result_mutation(&mut results, m);
            }
        }
        results
    } else {
        serde_json::from_slice::<LiteSession>(bytes)
            .map(|s| s.requests.iter().map(LiteRequest::compacted).collect())
            .unwrap_or_default()
    };
    results.iter().rev().find_map(|r| *r) == Some(true)
}

/// One line of a VS Code mutation log, as far as request results go (see `session::mutation` for
/// the kinds: 0 the whole state, 1 a set, 2 a push after truncating to `i`, 3 a delete).
fn apply_result_mutation(results: &mut Vec<Option<bool>>, m: LiteMutation) {
    let parse =
        |v: &Option<Box<serde_json::value::RawValue>>| v.as_ref().map(|v| v.get().to_owned());
    let Some(v) = parse(&m.v).or_else(|| (m.kind == 3).then(String::new)) else {
        return;
    };
    let path: Vec<Option<&str>> = m.k.iter().map(Value::as_str).collect();
    let index =
        m.k.get(1)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok());
    let slot = |results: &mut Vec<Option<bool>>, n: usize| -> bool {
        if n >= results.len() + MAX_REQUEST_GAP || n >= crate::session::MAX_REQUESTS {
            return false;
        }
        if n >= results.len() {
            results.resize(n + 1, None);
        }
        true
    };
    match (m.kind, path.as_slice()) {
        (0, []) => {
            if let Ok(session) = serde_json::from_str::<LiteSession>(&v) {
                *results = session
                    .requests
                    .iter()
                    .map(LiteRequest::compacted)
                    .collect();
            }
        }
        (1, [Some("requests")]) => {
            if let Ok(requests) = serde_json::from_str::<Vec<LiteRequest>>(&v) {
                *results = requests.iter().map(LiteRequest::compacted).collect();
            }
        }
        (2, [Some("requests")]) => {
            if let Some(i) = m.i {
                results.truncate(i);
            }
            if let Ok(requests) = serde_json::from_str::<Vec<LiteRequest>>(&v) {
                results.extend(requests.iter().map(LiteRequest::compacted));
            }
        }
        (1, [Some("requests"), None]) => {
            if let (Some(n), Ok(r)) = (index, serde_json::from_str::<LiteRequest>(&v)) {
                if slot(results, n) {
                    results[n] = r.compacted();
                }
            }
        }
        (1, [Some("requests"), None, Some("result")]) => {
            if let (Some(n), Ok(r)) = (index, serde_json::from_str::<Option<LiteResult>>(&v)) {
                if slot(results, n) {
                    results[n] = r.as_ref().map(LiteResult::compacted);
                }
            }
        }
        (1, [Some("requests"), None, Some("result"), Some("metadata")]) => {
            if let (Some(n), Ok(meta)) = (index, serde_json::from_str::<Option<LiteMeta>>(&v)) {
                if slot(results, n) {
                    results[n] = Some(meta.as_ref().is_some_and(LiteMeta::compacted));
                }
            }
        }
        (3, [Some("requests"), None]) | (3, [Some("requests"), None, Some("result")]) => {
            if let Some(n) = index.filter(|n| *n < results.len()) {
                results[n] = None;
            }
        }
        _ => {}
    }
}
