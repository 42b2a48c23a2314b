//! Copilot Chat Secretary's core: everything that is not I/O or a host API.
//!
//! Hosts (the VS Code extension, the MCP server, the CLI) read bytes from disk and hand them to
//! this crate; it parses chat sessions into [`session::Dialog`]s, indexes them with
//! [`search`], validates tool arguments, runs the [`tools`] and formats their results. Nothing in
//! here knows about wasm or JavaScript, so it is tested with plain `cargo test`.

// `ToolResult` is the failure a tool answers (`Result<_, ToolResult>`): built at
// most once per call, so its size does not matter.
#![allow(clippy::result_large_err)]

pub mod content;
pub mod docs;
pub mod error_kind;
pub mod flags;
pub mod git;
pub mod glob;
pub mod history;
pub mod host;
pub mod memory;
pub mod prompts;
pub mod recall;
pub mod registry;
pub mod search;
pub mod session;
pub mod text;
pub mod toolkit;
pub mod tools;
