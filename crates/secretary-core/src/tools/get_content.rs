//! `get_content`: the workspace's instructions, prompts and docs by category and pattern, as one
//! capped markdown text (see `crate::content` for the expression grammar).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::content::{self, Retrieved};
use crate::host;
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};
use crate::toolkit::ErrorKind;

/// Arguments of `get_content`: either `expression`, or `category` with an optional `pattern`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// What to read: `category`, `category/pattern`, `category/p1+p2` (any of the patterns), or a
    /// comma-separated list of those, aggregated in order (`lang/python,docs/api,guidelines`).
    expression: Option<String>,
    /// A category alone (instead of `expression`), e.g. `instructions`.
    category: Option<String>,
    /// With `category`: the pattern to select in it, e.g. `python` or `api/*.md`.
    pattern: Option<String>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "get_content",
        reference_name: "getContent",
        display_name: "Get Content",
        deferred: true,
        invocation_message: "Reading workspace content",
        schema: schema_for::<Args>,
        summary: "Read workspace instructions, prompts or docs.",
        when_to_use: &[
            "You need the project's own guidelines (coding instructions, prompts, docs) before working on a task.",
            "The user says \"follow our python guidelines\" or \"see the API docs\" and you need their text.",
            "You want several documents at once, e.g. the instructions for a language and the related docs.",
        ],
        usage: "Pass `expression`: a category (`instructions`, `prompts`, `docs` by default; the setting \
                `copilotChatSecretary.content.categories` defines more), optionally `/pattern` to select in it \
                (`docs/api`; a name matches `api.md`, `api.*.md` and everything under `api/`; `*`, `?` and `**` \
                are globs), `+` for any of several patterns (`lang/python+rust`), and `,` for a list read in order. \
                `{\"category\": \"lang\", \"pattern\": \"python\"}` equals `{\"expression\": \"lang/python\"}`. \
                The text is cut at 20,000 characters with a note; ask for less to read the rest.",
        returns: "`{\"success\": true, \"expression\": \"docs/api\", \"content\": \"## docs/api.md\\n\\n...\", \
                  \"documents\": [{\"category\", \"path\", \"chars\", \"cut\"}], \"omitted\": [], \"unmatched\": [], \
                  \"truncated\": false}`.",
        examples: &[
            Example { args: "{\"expression\": \"instructions\"}", shows: "every instructions file of the workspace" },
            Example { args: "{\"expression\": \"instructions/python,docs/api\"}", shows: "python instructions, then the API docs" },
            Example { args: "{\"category\": \"docs\", \"pattern\": \"guides/*.md\"}", shows: "the docs in the guides folder" },
        ],
        tags: &["content", "instructions", "prompts", "docs", "guidelines", "workspace", "read"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let expression = match (args.expression.as_deref(), args.category.as_deref()) {
        (Some(_), Some(_)) => {
            return Err(ToolResult::failure(
                "Give either `expression` or `category` (with `pattern`), not both",
                ErrorKind::InvalidArguments,
            ))
        }
        (Some(expression), None) if args.pattern.is_some() => {
            return Err(ToolResult::failure(
                format!("`pattern` goes with `category`; in an expression write it as category/pattern (got {expression:?})"),
                ErrorKind::InvalidArguments,
            ))
        }
        (Some(expression), None) => expression.to_string(),
        (None, Some(category)) => {
            if category.contains(['/', ',', '+']) {
                return Err(ToolResult::failure(
                    format!("`category` is a category name alone, got {category:?}; use `expression` for lists and patterns"),
                    ErrorKind::InvalidArguments,
                ));
            }
            content::expression_of(category, args.pattern.as_deref())
        }
        (None, None) => String::new(),
    };
    // Grammar errors need no host: check them first.
    if let Err(err) = content::parse(&expression) {
        return Err(ToolResult::failure(err, ErrorKind::InvalidArguments));
    }
    let host = host::require(ctx.host)?;
    Ok(match content::retrieve(host, &expression)? {
        Retrieved::Nothing { expression, unmatched, categories } => ToolResult::ok(json!({
            "expression": expression,
            "content": "",
            "documents": [],
            "unmatched": unmatched,
            "truncated": false,
        }))
        .with_message(format!("No documents matched {expression}."))
        .with_instruction(format!(
            "Known categories: {categories}. Call get_content with a category alone to see all of its documents."
        )),
        Retrieved::Documents { expression, content, documents, omitted, unmatched, truncated } => {
            let result = ToolResult::ok(json!({
                "expression": expression,
                "content": content,
                "documents": documents,
                "omitted": omitted,
                "unmatched": unmatched,
                "truncated": truncated,
            }));
            if unmatched.is_empty() {
                result
            } else {
                result.with_message(format!("Nothing matched {}.", unmatched.join(", ")))
            }
        }
    })
}
