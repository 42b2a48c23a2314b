//! How the domain modules' errors answer: each becomes a failed [`ToolResult`] with its text and
//! its machine-readable kind at the tool boundary, so `?` in a tool's `run` passes them up and
//! the domain modules never name the tool layer.

use super::ToolResult;
use crate::content::ContentError;
use crate::docs::{DocsAnswer, DocsError};
use crate::flags::FlagError;
use crate::git::GitError;
use crate::host::HostError;
use crate::memory::MemoryError;

impl From<HostError> for ToolResult {
    fn from(err: HostError) -> Self {
        ToolResult::failure(err.message.clone(), err.error_type())
    }
}

impl From<FlagError> for ToolResult {
    fn from(err: FlagError) -> Self {
        ToolResult::failure(err.to_string(), err.error_type())
    }
}

impl From<GitError> for ToolResult {
    fn from(err: GitError) -> Self {
        ToolResult::failure(err.to_string(), err.error_type())
    }
}

impl From<MemoryError> for ToolResult {
    fn from(err: MemoryError) -> Self {
        let result = ToolResult::failure(err.to_string(), err.error_type());
        match err.instruction() {
            Some(instruction) => result.with_instruction(instruction),
            None => result,
        }
    }
}

impl From<ContentError> for ToolResult {
    fn from(err: ContentError) -> Self {
        ToolResult::failure(err.to_string(), err.error_type())
    }
}

impl From<DocsError> for ToolResult {
    fn from(err: DocsError) -> Self {
        ToolResult::failure(err.message, err.kind)
    }
}

impl From<DocsAnswer> for ToolResult {
    fn from(answer: DocsAnswer) -> Self {
        let mut result = ToolResult::ok(answer.fields);
        if let Some(message) = answer.message {
            result = result.with_message(message);
        }
        if let Some(instruction) = answer.instruction {
            result = result.with_instruction(instruction);
        }
        result
    }
}
