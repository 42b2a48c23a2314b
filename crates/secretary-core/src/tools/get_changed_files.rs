//! `get_changed_files` (deferred): the staged, unstaged and untracked files of a git repository of
//! the workspace. The host gathers `git status` ([`crate::host::Host::git_status`]); the checks,
//! parsing and formatting are in [`crate::git`].

use schemars::JsonSchema;
use serde::Deserialize;

use crate::git::{self, Filter};
use crate::host;
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum State {
    #[default]
    All,
    Staged,
    Unstaged,
    Untracked,
}

/// Arguments of `get_changed_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The repository folder: relative to the workspace folder, or absolute inside it. Default:
    /// the workspace folder.
    repository_path: Option<String>,
    /// Which changes: `all` (default), `staged`, `unstaged` or `untracked`.
    source_control_state: Option<State>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "get_changed_files",
        reference_name: "getChangedFiles",
        display_name: "Get Changed Files",
        deferred: true,
        invocation_message: "Reading the git changes",
        schema: schema_for::<Args>,
        summary: "List the git changes of the workspace.",
        when_to_use: &[
            "You are about to review, summarize or commit the work done so far.",
            "You need to know which files were touched (staged, unstaged or new).",
        ],
        usage: "Call it without arguments for the workspace folder's repository; pass `repositoryPath` for another \
                repository inside the workspace (paths outside it are refused) and `sourceControlState` to keep one \
                group. Paths in the answer are relative to the repository root. This is a deferred tool: load it \
                with tool_load first.",
        returns: "`{\"success\": true, \"repositoryPath\": \".\", \"text\": \"Staged files:\\n- modified: src/a.ts\\n\\n\
                  Untracked files:\\n- untracked: notes.md\", \"staged\": [{\"path\": \"src/a.ts\", \"status\": \
                  \"modified\"}], \"unstaged\": [], \"untracked\": [{\"path\": \"notes.md\", \"status\": \"untracked\"}]}` \
                  (`text` is \"No changed files found.\" when clean; renames carry `from`).",
        examples: &[
            Example { args: "{}", shows: "every change of the workspace's repository" },
            Example { args: "{\"sourceControlState\": \"staged\"}", shows: "what would be committed" },
            Example {
                args: "{\"repositoryPath\": \"packages/api\", \"sourceControlState\": \"untracked\"}",
                shows: "new files of a nested repository",
            },
        ],
        tags: &["git", "changes", "diff", "status", "staged", "untracked", "scm", "commit"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let host = host::require(ctx.host)?;
    let filter = match args.source_control_state.unwrap_or_default() {
        State::All => Filter::All,
        State::Staged => Filter::Staged,
        State::Unstaged => Filter::Unstaged,
        State::Untracked => Filter::Untracked,
    };
    let out = git::changed_files(host, args.repository_path.as_deref(), filter)?;
    Ok(ToolResult::ok(out))
}
