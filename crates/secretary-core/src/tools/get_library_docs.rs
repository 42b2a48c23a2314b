//! `get_library_docs` (deferred): the sections of a library's docs that answer a query, for the
//! installed version. Sections, scoring, the Context7 fallback: [`crate::docs`].

use schemars::JsonSchema;
use serde::Deserialize;

use crate::docs;
use crate::host;
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolSpec};

/// Arguments of `get_library_docs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// The id resolve_library_id gave: `/npm/playwright@1.48.0`, `/crates/serde@1.0.219`,
    /// `/pypi/requests@2.32.3`, `/bundled/...`, or a Context7 id such as `/microsoft/playwright`.
    library_id: String,
    /// What you need to know ("locators", "retry failed requests"). Without it: an overview.
    query: Option<String>,
    /// The most characters of documentation to return (default 4000, at most 50000).
    #[schemars(range(min = 1, max = 50000))]
    max_chars: Option<u32>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "get_library_docs",
        reference_name: "getLibraryDocs",
        display_name: "Get Library Docs",
        deferred: true,
        invocation_message: "Reading the library docs",
        schema: schema_for::<Args>,
        summary: "Read a library's docs for the installed version.",
        when_to_use: &[
            "You resolved a library with resolve_library_id and need how its API works.",
            "You are unsure whether an option or function exists in the version installed here.",
        ],
        usage: "Call resolve_library_id first and pass its libraryId. Local docs (the package's README and docs/ \
                markdown, a crate's README, a Python package's description) are split at `## ` headings; sections \
                are scored by how often the query's words occur (+2 when a word is in the heading) and the best 8 \
                are returned within maxChars (default 4000). With no query, or when no section mentions it, the \
                first 5 sections are an overview. A local id with a version other than the installed one is \
                refused: docs are version-exact. A Context7 id (from the fallback) is fetched from Context7. This \
                is a deferred tool: load it with tool_load first.",
        returns: "`{\"success\": true, \"libraryId\": \"/npm/playwright@1.48.0\", \"name\": \"playwright\", \"version\": \
                  \"1.48.0\", \"source\": \"npm\", \"query\": \"locators\", \"mode\": \"search\" | \"overview\", \
                  \"sections\": [{\"file\": \"README.md\", \"heading\": \"Locators\", \"score\": 7}], \"totalSections\": \
                  12, \"text\": \"## Locators\\n...\", \"truncated\": false, \"maxChars\": 4000}`; from Context7: \
                  `{\"libraryId\", \"source\": \"context7\", \"query\", \"text\", \"truncated\", \"maxChars\"}`.",
        examples: &[
            Example {
                args: "{\"libraryId\": \"/npm/playwright@1.48.0\", \"query\": \"locators\"}",
                shows: "the README and docs sections about locators",
            },
            Example { args: "{\"libraryId\": \"/crates/serde@1.0.219\"}", shows: "an overview of serde's README" },
            Example {
                args: "{\"libraryId\": \"/microsoft/playwright\", \"query\": \"trace viewer\", \"maxChars\": 2000}",
                shows: "Context7's docs for a library that is not installed",
            },
        ],
        tags: &["library", "documentation", "docs", "api", "reference", "readme", "usage", "context7", "version"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let host = host::require(ctx.host)?;
    Ok(docs::get_docs(host, &args.library_id, args.query.as_deref(), args.max_chars)?.into())
}
