//! GitHub Copilot CLI sessions: `~/.copilot/session-state/<id>/events.jsonl` (newer builds, with
//! a `workspace.yaml` beside it) and the older `~/.copilot/session-state/<id>.jsonl`.
//!
//! The events are the Copilot agent's schema, the same as VS Code's Copilot transcripts
//! (`session.start`, `user.message`, `assistant.message`, `tool.execution_*`, `abort`,
//! `session.error`, ...), so the transcript reader does the work. What differs: the folder
//! (`session.start`'s `data.context.cwd`, or `workspace.yaml`'s `cwd` through
//! [`workspace_yaml_cwd`]) and the `<current_datetime>` block older builds appended to the
//! person's text in `data.content` (newer ones keep it in `data.transformedContent`, which is
//! not read).

use super::super::lines::LineSink;
use super::super::model::{Dialog, SessionFormat};
use super::super::transcript::{new_dialog, strip_injected, TranscriptState};
use crate::text::preview;

/// The `cwd:` of a Copilot CLI `workspace.yaml` (a flat map of scalars; quoted or plain).
pub fn workspace_yaml_cwd(yaml: &str) -> Option<String> {
    for line in yaml.lines() {
        let Some(value) = line.strip_prefix("cwd:") else {
            continue;
        };
        let value = value.trim();
        let value = if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            serde_json::from_str::<String>(&format!("\"{inner}\"")).unwrap_or(inner.to_string())
        } else if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            inner.replace("''", "'")
        } else {
            value.to_string()
        };
        return (!value.is_empty()).then_some(value);
    }
    None
}

/// The reduced state of a Copilot CLI log.
#[derive(Debug, Clone)]
pub(crate) struct CopilotCliState {
    inner: TranscriptState,
    folder: Option<String>,
}

impl CopilotCliState {
    pub(crate) fn new(details: Option<usize>) -> Self {
        CopilotCliState {
            inner: TranscriptState::new(details),
            folder: None,
        }
    }

    pub(crate) fn events(&self) -> usize {
        self.inner.events()
    }

    pub(crate) fn request_count(&self) -> usize {
        self.inner.request_count()
    }

    pub(crate) fn details_of(&self, position: usize) -> Option<(String, usize)> {
        self.inner.details_of(position)
    }

    pub(crate) fn apply_line(&mut self, text: &str) -> Result<bool, String> {
        let changed = self.inner.apply_line(text)?;
        // Only session starts name the folder; a cheap look before parsing anything else.
        if self.folder.is_none()
            && (text.contains("\"session.start\"") || text.contains("\"session.resume\""))
        {
            if let Some(cwd) = start_cwd(text) {
                if self.folder.as_deref() != Some(cwd.as_str()) {
                    self.folder = Some(cwd);
                    return Ok(true);
                }
            }
        }
        Ok(changed)
    }

    pub(crate) fn refresh(
        &mut self,
        dialog: &mut Dialog,
        file_name: &str,
        extra_diags: Vec<String>,
    ) -> bool {
        let mut fresh = new_dialog();
        self.inner
            .refresh_dialog(&mut fresh, file_name, extra_diags);
        let retitle =
            fresh.requests.first().map(|r| preview(&r.text, 80)) == Some(fresh.title.clone());
        for request in &mut fresh.requests {
            let clean = strip_injected(&request.text);
            if clean.len() != request.text.len() {
                request.text = clean.to_string();
            }
        }
        if retitle {
            if let Some(first) = fresh.requests.iter().find(|r| !r.text.trim().is_empty()) {
                fresh.title = preview(&first.text, 80);
            }
        }
        fresh.format = SessionFormat::CopilotCli;
        fresh.source = SessionFormat::CopilotCli.source();
        fresh.folder = self.folder.clone();
        super::replace_dialog(dialog, fresh)
    }
}

/// The folder a `session.start` (or `session.resume`) line names in `data.context.cwd`: read
/// into a `Value`, as such lines are few and small.
fn start_cwd(text: &str) -> Option<String> {
    let line: serde_json::Value = serde_json::from_str(text).ok()?;
    let kind = line.get("type")?.as_str()?;
    if kind != "session.start" && kind != "session.resume" {
        return None;
    }
    line.pointer("/data/context/cwd")?
        .as_str()
        .map(str::to_string)
}
