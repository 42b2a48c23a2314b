//! `search_requests`: find the user's past requests by meaning-bearing words, across dialogs.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{errors, request_time, sessions, SearchLimit};
use crate::history::{HistoryCache, RequestIndex};
use crate::toolkit::{parse_args, schema_for, Example, ToolContext, ToolDef, ToolOutcome, ToolResult, ToolSpec};

/// Characters of request text shown around the first match.
const SNIPPET_CHARS: usize = 160;

/// Arguments of `search_requests`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Args {
    /// Words to look for in the user's past requests.
    query: String,
    /// How many results, best first (default 10, at most 50).
    limit: Option<SearchLimit>,
    /// Search only this dialog. Omit it to search every dialog of this workspace.
    session_id: Option<String>,
}

pub static TOOL: ToolDef = ToolDef {
    spec: ToolSpec {
        name: "search_requests",
        reference_name: "searchRequests",
        display_name: "Search Requests",
        invocation_message: "Searching past requests",
        schema: schema_for::<Args>,
        summary: "Search the user's past requests across dialogs.",
        when_to_use: &[
            "The user says \"as I said before\" or \"like last time\" and you need their earlier words.",
            "You need a requirement, path or name the user gave in an earlier dialog.",
            "You want to know whether the user already asked for something similar.",
        ],
        when_not_to_use: &[
            "You know which request of the current chat you need: `get_request` reads it directly.",
            "You look for code, files or the assistant's replies: it searches the user's requests only.",
        ],
        usage: "Describe what you are looking for in `query`, in your own words or with the distinctive \
                words (names, technologies, file names), and when, if the user said (\"last week\", \"yesterday\", \
                \"in May\" (any year's; \"May 2024\" for one), \"3 days ago\": requests of that time come first; a query that is only a time \
                lists that time's requests, newest first). Results are ranked by BM25 relevance (words of the \
                neighbouring requests count a little) fused with closeness in meaning, the first ones then by how \
                well each of your words is matched in the request (unless the user turned semantic search off); a \
                question in the third person (\"Where did Sam ride the new bike?\") also lifts the requests \
                beside other good matches, where a chat's answer usually is. `signals` says which found each request. Read a whole request with `get_request` using the returned `sessionId` and \
                `index`.",
        returns: "`{\"success\": true, \"query\": \"dark mode\", \"results\": [{\"sessionId\", \"title\", \"index\", \
                  \"timestamp\", \"time\", \"score\", \"snippet\", \"matched\", \"signals\"}], \"total\": 3}`, best first \
                  (`signals`: `lexical` when query words occur in the request, `context` when they occur only in \
                  the requests just before or after it, `semantic` when it is close in meaning, `date` when it \
                  falls in the time the query names).",
        examples: &[
            Example { args: "{\"query\": \"dark mode localStorage\"}", shows: "requests about persisting a dark mode choice" },
            Example {
                args: "{\"query\": \"playwright tests\", \"limit\": 3}",
                shows: "the three requests most about Playwright tests",
            },
        ],
        tags: &["chat", "history", "search", "requests", "find"],
        ..ToolSpec::BASE
    },
    run: |args, ctx| run(parse_args(args)?, ctx),
};

fn run(args: Args, ctx: &ToolContext) -> ToolOutcome {
    let store = sessions(ctx)?;
    let query = args.query.trim();
    if query.is_empty() {
        return Err(ToolResult::error("Query must not be empty"));
    }
    let limit = SearchLimit::resolve(args.limit)?;
    let session = args
        .session_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty());
    // A session filter searches that dialog wherever it lives: through the caller's workspace's
    // index when it lives there (the one the searches without a filter keep warm), through all
    // workspaces' otherwise. Switching the one cached index's scope for every filtered call
    // would embed every request again each time a chat alternates the two (seconds at 100,000
    // requests).
    let workspace = match session {
        None => ctx.workspace,
        Some(id) => match store.get(id) {
            None => return Err(ToolResult::error(errors::session_not_found(id))),
            Some(entry) if !entry.available => return Err(ToolResult::error(errors::NO_CHAT_DATA)),
            Some(entry) if ctx.workspace.is_some() && entry.workspace.as_deref() == ctx.workspace => {
                ctx.workspace
            }
            Some(_) => None,
        },
    };
    let local;
    let index = match ctx.history {
        Some(cache) => cache.get(store, workspace),
        None => {
            local = HistoryCache::new();
            local.get(store, workspace)
        }
    };
    let hits = ranked(&index, query, session, limit, ctx.now);
    let results: Vec<Value> = hits
        .iter()
        .filter_map(|(hit, in_time, reference)| {
            let entry = store.get(&reference.session_id)?;
            let request = entry.dialog.requests.get(reference.index.checked_sub(1)?)?;
            let (timestamp, time) = request_time(request.timestamp);
            Some(json!({
                "sessionId": reference.session_id,
                "source": entry.dialog.source,
                "title": entry.dialog.title,
                "index": reference.index,
                "timestamp": timestamp,
                "time": time,
                "score": (f64::from(hit.score) * 1000.0).round() / 1000.0,
                "snippet": snippet(&request.text, &hit.matched),
                "matched": hit.matched,
                "signals": signals(hit, *in_time),
            }))
        })
        .collect();
    let total = results.len();
    let result = ToolResult::ok(json!({ "query": query, "results": results, "total": total }));
    if total == 0 {
        Ok(result.with_message("No matching requests."))
    } else {
        Ok(result)
    }
}

fn ranked<'a>(
    index: &'a RequestIndex,
    query: &str,
    session: Option<&str>,
    limit: usize,
    now: Option<i64>,
) -> Vec<(crate::search::HybridHit, bool, &'a crate::history::RequestRef)> {
    // With a session filter, ask for every hit of that dialog (neighbour support is then given
    // among them, not among the first results of all dialogs).
    let in_session = |doc: usize| {
        index
            .refs
            .get(doc)
            .is_some_and(|r| session.is_none() || session == Some(r.session_id.as_str()))
    };
    let want = if session.is_some() {
        index.refs.len()
    } else {
        limit
    };
    index
        .search_among(query, want, &in_session, now)
        .into_iter()
        .filter_map(|(hit, in_time)| {
            let reference = index.refs.get(hit.doc)?;
            Some((hit, in_time, reference))
        })
        .take(limit)
        .collect()
}

/// What found a request: the ranker's signals, and `date` when it falls in the time the query
/// named ("last week", "in May").
fn signals(hit: &crate::search::HybridHit, in_time: bool) -> Vec<&'static str> {
    let mut out = hit.signals();
    if in_time {
        out.push("date");
    }
    out
}

/// About [`SNIPPET_CHARS`] characters of `text` around the first matched word, on one line.
fn snippet(text: &str, matched: &[String]) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = flat.to_lowercase();
    let start_byte = matched
        .iter()
        .filter_map(|word| lower.find(word.as_str()))
        .min()
        .unwrap_or(0);
    // `lower` can differ in length from `flat` for some scripts; map by characters instead.
    let start_char = lower
        .get(..start_byte)
        .map_or(0, |prefix| prefix.chars().count());
    let from = start_char.saturating_sub(SNIPPET_CHARS / 4);
    let total = flat.chars().count();
    let mut out: String = flat.chars().skip(from).take(SNIPPET_CHARS).collect();
    if from > 0 {
        out.insert_str(0, "...");
    }
    if from + SNIPPET_CHARS < total {
        out.push_str("...");
    }
    out
}
