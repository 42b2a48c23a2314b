//! `memory` (deferred): the agent's persistent notes across dialogs: save, read, list, delete.
//! The rules (names, limits, storage) are in [`crate::memory`]. `delete` alone needs the user's
//! explicit consent, `"confirm": "DELETE_MEMORY"`: a per-command [`Consent`] (`only_when`), which
//! `ToolDef::call` checks before the tool runs, on every path.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::host;
use crate::memory;
use crate::toolkit::{parse_args, schema_for, Consent, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};
use crate::toolkit::ErrorKind;

/// The literal `delete` requires, and why.
pub const CONSENT: Consent = Consent {
    field: "confirm",
    value: "DELETE_MEMORY",
    why: "Deleting a note erases what the agent remembered for every future dialog; it cannot be undone.",
    only_when: Some(("command", "delete")),
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Command {
    Save,
    Read,
    List,
    Delete,
}

/// Arguments of `memory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// What to do: `save` (create or replace a note), `read`, `list` (every note) or `delete`.
    command: Command,
    /// The note's name, a plain file name such as "project-conventions" (`.md` is added when it
    /// has no extension). Needed by save, read and delete.
    path: Option<String>,
    /// The note's full new text (save only), at most 100 KiB.
    content: Option<String>,
    /// delete only: exactly "DELETE_MEMORY", and only when the user explicitly asked to delete the note.
    #[schemars(transform = confirm_schema)]
    #[allow(dead_code)]
    confirm: Option<String>,
}

/// `confirm` is a string with one allowed value (not `null`), shown as such in the schema.
fn confirm_schema(schema: &mut schemars::Schema) {
    schema.insert("type".into(), "string".into());
    schema.insert("const".into(), CONSENT.value.into());
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "memory",
        reference_name: "memory",
        display_name: "Memory",
        summary: "Keep notes for yourself across dialogs.",
        when_to_use: &[
            "You learned something worth remembering in later dialogs: a convention, a decision, the user's preferences, \
             where things are.",
            "You start a task and want what earlier dialogs found out (list, then read).",
            "The user asks you to remember or to forget something.",
        ],
        usage: "Start with {\"command\": \"list\"}, then read what is relevant. save replaces the whole note: read it \
                first to add to it. Names are plain file names (letters, digits, spaces, `_`, `-`, `.`; no folders, no \
                leading `.`, no Windows device names such as CON or NUL); `.md` is added when there is no extension. \
                A note holds at most 100 KiB and there are at most 500 notes. Notes are shared by every workspace: \
                name project-specific ones after the project. delete needs `\"confirm\": \"DELETE_MEMORY\"`, which you \
                send only when the user explicitly asked for the deletion. This is a deferred tool: load it with \
                tool_load first.",
        returns: "save: `{\"success\": true, \"path\": \"conventions.md\", \"bytes\": 120, \"created\": true}`; read: \
                  `{\"success\": true, \"path\", \"content\", \"bytes\"}`; list: `{\"success\": true, \"total\": 1, \
                  \"notes\": [{\"path\": \"conventions.md\", \"bytes\": 120, \"modified\": \"2025-10-15T09:20:01.000Z\"}], \
                  \"maxNotes\": 500}` (`bytes` and `modified` when the host tells them); delete: \
                  `{\"success\": true, \"path\", \"deleted\": true}`.",
        examples: &[
            Example { args: "{\"command\": \"list\"}", shows: "what you remembered so far" },
            Example {
                args: "{\"command\": \"save\", \"path\": \"todo-app conventions\", \"content\": \"- Tests use vitest.\\n\"}",
                shows: "remember a project's conventions (saved as `todo-app conventions.md`)",
            },
            Example { args: "{\"command\": \"read\", \"path\": \"todo-app conventions.md\"}", shows: "recall a note" },
            Example {
                args: "{\"command\": \"delete\", \"path\": \"old-notes\", \"confirm\": \"DELETE_MEMORY\"}",
                shows: "forget a note, after the user asked for it",
            },
        ],
        tags: &["memory", "notes", "remember", "recall", "persist", "knowledge", "forget"],
        deferred: true,
        destructive: true,
        consent: Some(CONSENT),
        invocation_message: "Using memory",
        schema: schema_for::<Args>,
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

/// Runs after [`ToolDef::call`] checked the consent literal for `delete`.
fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let host = host::require(ctx.host)?;
    let need_path = |command: &str| {
        args.path.as_deref().ok_or_else(|| {
            ToolResult::failure(
                format!("Invalid arguments: `path` is required for {command} (the note's name, e.g. \"conventions\")"),
                ErrorKind::InvalidArguments,
            )
        })
    };
    let outcome = match args.command {
        Command::List => memory::list(host).map_err(ToolResult::from).map(|value| {
            let result = ToolResult::ok(&value);
            if value["total"] == 0 {
                result.with_message("No notes saved yet.")
            } else {
                result
            }
        }),
        Command::Read => need_path("read").and_then(|path| Ok(memory::read(host, path)?)).map(ToolResult::ok),
        Command::Delete => need_path("delete").and_then(|path| Ok(memory::delete(host, path)?)).map(ToolResult::ok),
        Command::Save => need_path("save").and_then(|path| {
            let content = args.content.as_deref().ok_or_else(|| {
                ToolResult::failure(
                    "Invalid arguments: `content` is required for save (the note's full text)",
                    ErrorKind::InvalidArguments,
                )
            })?;
            Ok(ToolResult::ok(memory::save(host, path, content)?))
        }),
    };
    Ok(outcome.unwrap_or_else(|failure| failure))
}
