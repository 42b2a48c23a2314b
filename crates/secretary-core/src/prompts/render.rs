//! The prompts' renderers: each calls its tools' `run` directly and formats the facts they return.

use std::fmt::Write;

use serde_json::{json, Map, Value};

use super::{Followup, PromptOutput, Rendered};
use crate::toolkit::{ToolContext, ToolDef};
use crate::tools;

/// How many dialogs `/dialogs` shows.
const DIALOGS_SHOWN: u32 = 10;
/// How many results `/search` and `/tools` show.
const RESULTS_SHOWN: u32 = 10;

/// Runs a tool's logic (not the agents' `invoke` path) and gives its fields, or the prompt's
/// failure with the tool's error text.
fn call(
    tool: &ToolDef,
    args: Value,
    ctx: &ToolContext,
) -> Result<Map<String, Value>, PromptOutput> {
    match tool.call(&args, ctx).to_value() {
        Value::Object(mut map) if map.get("success") == Some(&Value::Bool(true)) => {
            map.remove("success");
            Ok(map)
        }
        Value::Object(map) => Err(PromptOutput::failure(
            map.get("error")
                .and_then(Value::as_str)
                .unwrap_or("The tool failed"),
        )),
        _ => Err(PromptOutput::failure("The tool failed")),
    }
}

/// The list under `key` of a tool's fields (empty when it has none).
fn listed(facts: &Map<String, Value>, key: &str) -> Vec<Value> {
    facts
        .get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// What a ranked search (`/search`, `/tools`) found for the `query` words.
struct Ranked {
    query: String,
    /// The tool's fields.
    facts: Map<String, Value>,
    /// The first [`RESULTS_SHOWN`] of the tool's list, best first.
    list: Vec<Value>,
}

/// Runs a ranked search for the `query` argument; `key` names the tool's list.
fn ranked(
    tool: &ToolDef,
    key: &str,
    args: &Map<String, Value>,
    ctx: &ToolContext,
) -> Result<Ranked, PromptOutput> {
    let query = arg_text(args, "query").unwrap_or_default();
    let facts = call(tool, json!({"query": query, "limit": RESULTS_SHOWN}), ctx)?;
    let list = listed(&facts, key);
    Ok(Ranked { query, facts, list })
}

fn text<'a>(map: &'a Map<String, Value>, key: &str) -> &'a str {
    map.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn number(map: &Map<String, Value>, key: &str) -> u64 {
    map.get(key).and_then(Value::as_u64).unwrap_or_default()
}

/// A blank or absent argument counts as not given.
fn arg<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|value| {
        !value.is_null() && !matches!(value, Value::String(s) if s.trim().is_empty())
    })
}

fn arg_text(args: &Map<String, Value>, name: &str) -> Option<String> {
    arg(args, name).map(|value| match value {
        Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    })
}

/// The `sessionId` argument for a tool call, when given.
fn with_session(mut tool_args: Value, args: &Map<String, Value>) -> Value {
    if let Some(id) = arg_text(args, "sessionId") {
        tool_args["sessionId"] = Value::String(id);
    }
    tool_args
}

/// The user's words as a markdown block quote (each line quoted, so their markdown stays theirs).
fn quote(text: &str) -> String {
    text.lines()
        .map(|line| {
            if line.trim().is_empty() {
                ">".to_string()
            } else {
                format!("> {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A recalled request for people: `title`, the dialog and the time it is from (`detail` after the
/// time), then the user's words quoted.
fn recalled(title: &str, facts: &Map<String, Value>, detail: &str, request: &str) -> String {
    format!(
        "{title} of dialog `{}` ({}{detail}):\n\n{}\n",
        text(facts, "sessionId"),
        when(facts.get("time")),
        quote(request)
    )
}

fn when(value: Option<&Value>) -> String {
    value
        .and_then(Value::as_str)
        .unwrap_or("unknown time")
        .to_string()
}

/// The words after `/request` for request `index` of the dialog the user named (if any).
fn request_words(index: u64, args: &Map<String, Value>) -> String {
    match arg_text(args, "sessionId") {
        Some(id) => format!("{index} {id}"),
        None => index.to_string(),
    }
}

/// `maxChars` for a request a person reads: all of it.
const WHOLE: u64 = u64::MAX;

pub(super) fn first(args: &Map<String, Value>, ctx: &ToolContext) -> Rendered {
    let facts = call(
        &tools::get_first_request::TOOL,
        with_session(json!({}), args),
        ctx,
    )?;
    // The tool previews the text; the full text is request 1.
    let full = call(
        &tools::get_request::TOOL,
        with_session(json!({"index": 1, "maxChars": WHOLE}), args),
        ctx,
    )?;
    let count = number(&facts, "requestsCount");
    let request = text(&full, "request").to_string();
    let in_all = format!(
        ", {count} request{} in all",
        if count == 1 { "" } else { "s" }
    );
    let markdown = recalled("**First request**", &facts, &in_all, &request);
    let mut followups = Vec::new();
    if count >= 2 {
        followups.push(Followup::new(
            "request",
            request_words(2, args),
            "Show the second request",
        ));
    }
    followups.push(Followup::new("dialogs", "", "List the recent dialogs"));
    Ok(PromptOutput {
        text: Some(request),
        ..PromptOutput::new(markdown, followups)
    })
}

pub(super) fn request(args: &Map<String, Value>, ctx: &ToolContext) -> Rendered {
    // A person asked: the whole text, not an agent-sized part of it.
    let mut tool_args = json!({"maxChars": WHOLE});
    if let Some(index) = arg(args, "index") {
        // Words arrive as strings; a whole number becomes one, anything else goes to the tool as
        // it is, and the tool says what is wrong with it.
        tool_args["index"] = match index {
            Value::String(s) => s
                .trim()
                .parse::<i64>()
                .map_or_else(|_| Value::String(s.trim().into()), Value::from),
            other => other.clone(),
        };
    }
    let facts = call(
        &tools::get_request::TOOL,
        with_session(tool_args, args),
        ctx,
    )?;
    let index = number(&facts, "index");
    let total = number(&facts, "totalRequests");
    let request = text(&facts, "request").to_string();
    let markdown = recalled(
        &format!("**Request {index} of {total}**"),
        &facts,
        "",
        &request,
    );
    let mut followups = Vec::new();
    if index < total {
        followups.push(Followup::new(
            "request",
            request_words(index + 1, args),
            format!("Show request {}", index + 1),
        ));
    }
    if index > 1 {
        followups.push(Followup::new(
            "request",
            request_words(index - 1, args),
            format!("Show request {}", index - 1),
        ));
    }
    Ok(PromptOutput {
        text: Some(request),
        ..PromptOutput::new(markdown, followups)
    })
}

pub(super) fn dialogs(args: &Map<String, Value>, ctx: &ToolContext) -> Rendered {
    let mut tool_args = json!({"limit": DIALOGS_SHOWN});
    let query = arg_text(args, "query");
    if let Some(query) = &query {
        tool_args["query"] = Value::String(query.clone());
    }
    let facts = call(&tools::list_dialogs::TOOL, tool_args, ctx)?;
    let dialogs = listed(&facts, "dialogs");
    let total = number(&facts, "total");
    if dialogs.is_empty() {
        let markdown = match &query {
            Some(query) => format!("No dialogs of this workspace mention \"{query}\".\n"),
            None => "No dialogs found in this workspace.\n".to_string(),
        };
        return Ok(PromptOutput::new(markdown, Vec::new()));
    }
    let mut markdown = match &query {
        Some(query) => format!(
            "**Dialogs mentioning \"{query}\"** ({} of {total}, newest first):\n\n",
            dialogs.len()
        ),
        None => format!(
            "**Recent dialogs** ({} of {total}, newest first):\n\n",
            dialogs.len()
        ),
    };
    for (i, dialog) in dialogs.iter().enumerate() {
        let Some(dialog) = dialog.as_object() else {
            continue;
        };
        let count = number(dialog, "requestsCount");
        let title = match text(dialog, "title") {
            "" => "(untitled)",
            title => title,
        };
        let _ = writeln!(
            markdown,
            "{}. **{}**: {count} request{}, last active {}, {} (`{}`)",
            i + 1,
            title.replace('*', "\\*"),
            if count == 1 { "" } else { "s" },
            when(dialog.get("lastActivity")),
            text(dialog, "status"),
            text(dialog, "sessionId"),
        );
    }
    let mut followups = vec![Followup::new(
        "first",
        "",
        "Show the first request of the current dialog",
    )];
    if let Some(top) = dialogs
        .first()
        .and_then(Value::as_object)
        .filter(|d| number(d, "requestsCount") > 0)
    {
        followups.push(Followup::new(
            "first",
            text(top, "sessionId"),
            format!("Show the first request of \"{}\"", text(top, "title")),
        ));
    }
    Ok(PromptOutput::new(markdown, followups))
}

pub(super) fn search(args: &Map<String, Value>, ctx: &ToolContext) -> Rendered {
    let Ranked {
        query,
        list: results,
        ..
    } = ranked(&tools::search_requests::TOOL, "results", args, ctx)?;
    if results.is_empty() {
        return Ok(PromptOutput::new(
            format!("No past request matches \"{query}\".\n"),
            vec![Followup::new("dialogs", "", "List the recent dialogs")],
        ));
    }
    let mut markdown = format!(
        "**{} request{} \"{query}\"**, best first:\n\n",
        results.len(),
        if results.len() == 1 {
            " matches"
        } else {
            "s match"
        }
    );
    for (i, hit) in results.iter().enumerate() {
        let Some(hit) = hit.as_object() else { continue };
        let _ = writeln!(
            markdown,
            "{}. **{}**, request {} ({}, `{}`): {}",
            i + 1,
            text(hit, "title").replace('*', "\\*"),
            number(hit, "index"),
            when(hit.get("time")),
            text(hit, "sessionId"),
            text(hit, "snippet"),
        );
    }
    let followups = results
        .iter()
        .filter_map(Value::as_object)
        .take(3)
        .map(|hit| {
            let index = number(hit, "index");
            Followup::new(
                "request",
                format!("{index} {}", text(hit, "sessionId")),
                format!("Show request {index} of \"{}\"", text(hit, "title")),
            )
        })
        .collect();
    Ok(PromptOutput::new(markdown, followups))
}

pub(super) fn tools(args: &Map<String, Value>, ctx: &ToolContext) -> Rendered {
    let Ranked {
        query,
        facts,
        list: found,
    } = ranked(&tools::tool_find::TOOL, "tools", args, ctx)?;
    if found.is_empty() {
        let message = facts
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string);
        return Ok(PromptOutput::new(
            format!(
                "{}\n",
                message.unwrap_or_else(|| format!("No tool matches \"{query}\"."))
            ),
            Vec::new(),
        ));
    }
    let mut markdown = format!("**Tools for \"{query}\"**, best first:\n\n");
    for tool in found.iter().filter_map(Value::as_object) {
        let active = if tool.get("active") == Some(&Value::Bool(true)) {
            "active"
        } else {
            "not loaded"
        };
        let _ = writeln!(
            markdown,
            "- `{}` ({active}, {}): {}",
            text(tool, "name"),
            match text(tool, "source") {
                "" => "unknown source",
                source => source,
            },
            text(tool, "description").replace('\n', " "),
        );
    }
    Ok(PromptOutput::new(markdown, Vec::new()))
}
