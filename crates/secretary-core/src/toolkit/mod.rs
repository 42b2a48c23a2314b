//! What a tool is, below every tool and every registry: its spec, its validated arguments, its
//! result, the consent a destructive one needs, the context it runs in (including the discovery
//! [`catalog`] it may read) and the description generated from the spec.
//!
//! This layer never names the tool list (`crate::tools::ALL`) nor the [`crate::registry`] on top
//! of it: a tool file depends on this module, the registry depends on both, and a test
//! (`registry::layers`) reads these files to keep it so. Where a rule needs the tool list (the
//! catalog's own tools, name lookup) it takes the list as an argument.

mod args;
pub mod catalog;
mod consent;
mod context;
mod describe;
mod domain;
mod result;
mod spec;
mod vscode_names;

pub use args::{kind_of, parse_args, schema_for, ArgError};
pub use consent::{require_literal, Consent};
pub use context::ToolContext;
pub use describe::{description, schema_markdown};
pub use result::{ErrorKind, ToolResult};
pub use spec::{Example, ToolDef, ToolOutcome, ToolSpec};
pub use vscode_names::{lookup_in, Lookup, LEGACY_VSCODE_PREFIX, VSCODE_PREFIX};
