//! `resolve_library_id` (deferred): the library id of a package name, first step of the library
//! docs. The matching, discovery and the Context7 fallback are in [`crate::docs`].

use schemars::JsonSchema;
use serde::Deserialize;

use crate::docs;
use crate::host;
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolSpec};

/// Arguments of `resolve_library_id`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The library's name as you know it: a package name ("playwright", "@playwright/test",
    /// "serde", "requests"), a short alias ("pw") or a repository ("microsoft/playwright").
    library_name: String,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "resolve_library_id",
        reference_name: "resolveLibraryId",
        display_name: "Resolve Library ID",
        deferred: true,
        invocation_message: "Resolving the library",
        schema: schema_for::<Args>,
        summary: "Find the docs id of a library by its name.",
        when_to_use: &[
            "You are about to use a library's API and want its documentation for the version this workspace has \
             installed, not what you remember.",
            "You need a libraryId for get_library_docs.",
        ],
        usage: "Looks first at what the workspace has installed (node_modules packages, the crates of Cargo.lock in \
                the cargo registry sources, Python packages in .venv or venv, the docs bundled with this extension), \
                offline; names match without case, through aliases (`pw` is playwright), by repository \
                (`microsoft/playwright`), scope and prefix. Only when nothing local matches does it search Context7 \
                (if the setting allows; network errors list the local libraries instead). Pass the best libraryId \
                to get_library_docs. This is a deferred tool: load it with tool_load first.",
        returns: "`{\"success\": true, \"libraryName\": \"pw\", \"source\": \"local\", \"libraries\": [{\"libraryId\": \
                  \"/npm/playwright@1.48.0\", \"name\": \"playwright\", \"version\": \"1.48.0\", \"source\": \"npm\", \
                  \"match\": \"alias\", \"description\": \"...\"}], \"instruction\": \"Call get_library_docs with ...\"}`; \
                  from Context7: `\"source\": \"context7\"` and entries `{\"libraryId\": \"/microsoft/playwright\", \
                  \"name\", \"description\", \"totalSnippets\", \"trustScore\", \"benchmarkScore\", \"versions\"}` \
                  (fields Context7 did not send are left out).",
        examples: &[
            Example { args: "{\"libraryName\": \"playwright\"}", shows: "the installed playwright, version included" },
            Example { args: "{\"libraryName\": \"pw\"}", shows: "an alias resolves to the same library" },
            Example {
                args: "{\"libraryName\": \"microsoft/playwright\"}",
                shows: "a repository resolves to the package that names it",
            },
        ],
        tags: &["library", "documentation", "docs", "api", "package", "npm", "crate", "pypi", "context7", "version"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let host = host::require(ctx.host)?;
    Ok(docs::resolve(host, &args.library_name)?.into())
}
