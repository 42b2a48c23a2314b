//! Prompts: the dialog tools' logic for people. The VS Code chat participant (`@secretary /first`)
//! and MCP `prompts/get` (`recall_first_request`) both render a [`PromptSpec`] here. A prompt
//! calls its tools' `run` functions directly (never [`crate::registry::invoke`], the agents' path
//! with its catalog checks and the hosts' tool-call logging) and formats their facts as markdown.
//!
//! Descriptions are generated from the specs ([`description`]) in the four sections of the tool
//! descriptions: purpose, the `*args` schema, usage, examples.

mod render;

use std::fmt::Write;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::toolkit::ToolContext;

/// One argument of a prompt. Over MCP every argument is a named string; in chat the arguments are
/// the words after the command, in this order, the last `rest` argument taking every word left.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PromptArg {
    pub name: &'static str,
    pub description: &'static str,
    pub required: bool,
    /// Takes the remaining words (a query), not just one.
    #[serde(skip)]
    pub rest: bool,
}

impl PromptArg {
    /// The `query` of a search prompt: every word left after the command.
    const fn query(description: &'static str, required: bool) -> PromptArg {
        PromptArg {
            name: "query",
            description,
            required,
            rest: true,
        }
    }
}

/// A concrete example: the words typed after the command, and what they show.
#[derive(Debug, Clone, Copy)]
pub struct PromptExample {
    pub words: &'static str,
    pub shows: &'static str,
}

/// A prompt: its names in both hosts, its documentation and its renderer.
#[derive(Clone, Copy)]
pub struct PromptSpec {
    /// MCP prompt name (`recall_first_request`).
    pub name: &'static str,
    /// Chat participant slash command (`first` for `@secretary /first`).
    pub command: &'static str,
    /// First line of the description, at most 50 characters; also the slash command's description.
    pub summary: &'static str,
    pub args: &'static [PromptArg],
    pub usage: &'static str,
    pub examples: &'static [PromptExample],
    pub render: fn(&Map<String, Value>, &ToolContext) -> Rendered,
}

impl std::fmt::Debug for PromptSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptSpec")
            .field("name", &self.name)
            .finish()
    }
}

/// What a renderer answers: `Err` is a failure passed up with `?` from a tool it called (as a
/// tool's `ToolOutcome` does); both sides are what the host shows.
pub type Rendered = Result<PromptOutput, PromptOutput>;

/// A next command the participant offers after an answer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Followup {
    /// The slash command (`request`).
    pub command: String,
    /// The words after it (`2`).
    pub prompt: String,
    pub label: String,
}

/// What a prompt answers: markdown for people, the next commands, and on failure the tool's error.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "PromptAnswer", optional_fields)
)]
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PromptOutput {
    pub markdown: String,
    pub followups: Vec<Followup>,
    /// The recalled request's full text, for hosts that offer to copy or insert it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PromptOutput {
    /// An answer that recalls no text: markdown and the next commands.
    pub fn new(markdown: String, followups: Vec<Followup>) -> Self {
        PromptOutput {
            markdown,
            followups,
            ..Default::default()
        }
    }

    /// A failure: the tool's error text, as a sentence.
    pub fn failure(error: impl Into<String>) -> Self {
        let error = error.into();
        let mut markdown = error.clone();
        if !markdown.ends_with(['.', '!', '?']) {
            markdown.push('.');
        }
        PromptOutput {
            markdown,
            error: Some(error),
            ..Default::default()
        }
    }
}

impl Followup {
    pub fn new(command: &str, prompt: impl Into<String>, label: impl Into<String>) -> Self {
        Followup {
            command: command.into(),
            prompt: prompt.into(),
            label: label.into(),
        }
    }
}

const SESSION_ARG: PromptArg = PromptArg {
    name: "sessionId",
    description: "The dialog to read (from /dialogs); omit it for the current dialog.",
    required: false,
    rest: false,
};

/// Every prompt, in the order hosts list them.
pub static ALL: &[PromptSpec] = &[
    PromptSpec {
        name: "recall_first_request",
        command: "first",
        summary: "Recall the first request of the dialog.",
        args: &[SESSION_ARG],
        usage: "Gives the full text of the dialog's first request with its time and the number of \
                requests, for the current dialog of this workspace or the given one.",
        examples: &[
            PromptExample { words: "", shows: "the first request of the current dialog, in full" },
            PromptExample {
                words: "0b7e4f7c-2f43-4c55-9a8e-0c1d2e3f4a5b",
                shows: "the first request of a dialog listed by /dialogs",
            },
        ],
        render: render::first,
    },
    PromptSpec {
        name: "recall_request",
        command: "request",
        summary: "Recall the full text of request n.",
        args: &[
            PromptArg {
                name: "index",
                description: "Which request, counting from 1.",
                required: true,
                rest: false,
            },
            SESSION_ARG,
        ],
        usage: "Gives the full text of the nth request (1 is the first) of the current dialog or the \
                given one, with its time and the dialog's number of requests.",
        examples: &[
            PromptExample { words: "2", shows: "the second request of the current dialog" },
            PromptExample {
                words: "1 0b7e4f7c-2f43-4c55-9a8e-0c1d2e3f4a5b",
                shows: "the first request of another dialog",
            },
        ],
        render: render::request,
    },
    PromptSpec {
        name: "recent_dialogs",
        command: "dialogs",
        summary: "List the recent dialogs of this workspace.",
        args: &[PromptArg::query("Only dialogs whose title or requests contain all these words.", false)],
        usage: "Lists the 10 most recent dialogs of this workspace, newest first: title, request count, \
                last activity, status and session id.",
        examples: &[
            PromptExample { words: "", shows: "the 10 most recent dialogs" },
            PromptExample { words: "dark mode", shows: "the dialogs that mention dark mode" },
        ],
        render: render::dialogs,
    },
    PromptSpec {
        name: "search_requests",
        command: "search",
        summary: "Search your past requests.",
        args: &[PromptArg::query("The words to look for in past requests.", true)],
        usage: "Ranks the requests of this workspace's dialogs by relevance (TF-IDF) and shows the 10 \
                best with a snippet; open one in full with /request.",
        examples: &[
            PromptExample { words: "dark mode localStorage", shows: "requests about persisting dark mode" },
            PromptExample { words: "playwright tests", shows: "requests about Playwright tests" },
        ],
        render: render::search,
    },
    PromptSpec {
        name: "find_tool",
        command: "tools",
        summary: "Find tools by what they do.",
        args: &[PromptArg::query("What the tool should do, in a few words.", true)],
        usage: "Searches every tool the agent could use (the Secretary's, VS Code's, other extensions', \
                MCP servers') and says which are active.",
        examples: &[
            PromptExample { words: "search the web", shows: "tools that can search the internet" },
            PromptExample { words: "recall earlier chat request", shows: "the Secretary's dialog tools" },
        ],
        render: render::tools,
    },
];

/// The prompt named `name`: its MCP name or its slash command.
pub fn find(name: &str) -> Option<&'static PromptSpec> {
    let name = name.trim().trim_start_matches('/');
    ALL.iter()
        .find(|spec| spec.name == name || spec.command == name)
}

/// The named arguments for the words typed after a slash command: one word per argument in order,
/// a `rest` argument takes all the words left. Extra words go to the last argument.
pub fn args_from_words(spec: &PromptSpec, words: &str) -> Map<String, Value> {
    let mut map = Map::new();
    let mut rest = words.trim();
    for (i, arg) in spec.args.iter().enumerate() {
        if rest.is_empty() {
            break;
        }
        let last = i + 1 == spec.args.len();
        if arg.rest || last {
            map.insert(arg.name.into(), Value::String(rest.to_string()));
            break;
        }
        let (word, left) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        map.insert(arg.name.into(), Value::String(word.to_string()));
        rest = left.trim_start();
    }
    map
}

/// Renders a prompt on named arguments (JSON strings, as MCP sends them). Arguments other than the
/// spec's are refused in plain words, like a missing required one.
pub fn render(spec: &PromptSpec, args: &Map<String, Value>, ctx: &ToolContext) -> PromptOutput {
    if let Some(unknown) = args
        .keys()
        .find(|key| !spec.args.iter().any(|a| a.name == key.as_str()))
    {
        let known: Vec<&str> = spec.args.iter().map(|a| a.name).collect();
        return PromptOutput::failure(format!(
            "Unknown argument {unknown} for {}: it takes {}",
            spec.name,
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ));
    }
    (spec.render)(args, ctx).unwrap_or_else(|failure| failure)
}

/// The arguments a host sent for `spec`, as JSON text: named arguments (an object, as MCP sends
/// them), the words typed after a slash command (a string, as the chat participant sends them), or
/// nothing (empty text or `null`). Anything else is refused in plain words.
pub fn args_from_json(spec: &PromptSpec, args_json: &str) -> Result<Map<String, Value>, String> {
    let text = if args_json.trim().is_empty() {
        "null"
    } else {
        args_json
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::String(words)) => Ok(args_from_words(spec, &words)),
        Ok(Value::Object(map)) => Ok(map),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(_) => Err("Arguments must be named (an object) or words (a string)".to_string()),
        Err(err) => Err(format!("Arguments are not JSON ({err})")),
    }
}

/// A host's prompt request answered: the prompt named `name` (MCP name or slash command) on the
/// arguments of [`args_from_json`]. An unknown prompt or unreadable arguments answer a failure.
pub fn answer(name: &str, args_json: &str, ctx: &ToolContext) -> PromptOutput {
    let Some(spec) = find(name) else {
        return PromptOutput::failure(format!("Prompt not found: {name}"));
    };
    match args_from_json(spec, args_json) {
        Ok(args) => render(spec, &args, ctx),
        Err(error) => PromptOutput::failure(error),
    }
}

/// The conceptual schema of the arguments: `<index> [sessionId]`, `<query...>`.
pub fn words_schema(spec: &PromptSpec) -> String {
    spec.args
        .iter()
        .map(|arg| {
            let name = if arg.rest {
                format!("{}...", arg.name)
            } else {
                arg.name.to_string()
            };
            if arg.required {
                format!("<{name}>")
            } else {
                format!("[{name}]")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The slash command line of an example: `@secretary /request 2`.
fn chat_line(spec: &PromptSpec, words: &str) -> String {
    format!("@secretary /{} {}", spec.command, words)
        .trim_end()
        .to_string()
}

/// The full description of a prompt, generated like the tools': purpose, the `*args` schema,
/// usage in both hosts, and concrete examples.
pub fn description(spec: &PromptSpec) -> String {
    let mut out = String::from(spec.summary);
    out.push_str("\n\nArguments: `*args` = ");
    let schema = words_schema(spec);
    if schema.is_empty() {
        out.push_str("(none)\n");
    } else {
        let _ = writeln!(out, "`{schema}`");
    }
    for arg in spec.args {
        let need = if arg.required { "required" } else { "optional" };
        let _ = writeln!(out, "- `{}` ({need}): {}", arg.name, arg.description);
    }
    out.push_str("\nUsage:\n");
    out.push_str(spec.usage);
    let _ = write!(
        out,
        "\nIn VS Code chat: `@secretary /{} {schema}`. Over MCP: prompt `{}`",
        spec.command, spec.name
    );
    if spec.args.is_empty() {
        out.push_str(".\n");
    } else {
        out.push_str(" with the arguments by name.\n");
    }
    out.push_str("\nExamples:\n");
    for example in spec.examples {
        let named = Value::Object(args_from_words(spec, example.words));
        let _ = writeln!(
            out,
            "- `{}` (MCP `{}` {named}): {}",
            chat_line(spec, example.words),
            spec.name,
            example.shows
        );
    }
    out.trim_end().to_string()
}

/// Every prompt for hosts: names, summary, generated description and MCP arguments.
pub fn listing() -> Value {
    Value::Array(
        ALL.iter()
            .map(|spec| {
                json!({
                    "name": spec.name,
                    "command": spec.command,
                    "summary": spec.summary,
                    "description": description(spec),
                    "usage": words_schema(spec),
                    "arguments": spec.args,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_named_words_or_nothing() {
        let spec = find("request").expect("the request prompt");
        let words = args_from_json(spec, r#""3 abc""#).unwrap();
        assert_eq!(words.get("index"), Some(&Value::String("3".into())));
        let named = args_from_json(spec, r#"{"index":"2"}"#).unwrap();
        assert_eq!(named.get("index"), Some(&Value::String("2".into())));
        assert!(args_from_json(spec, "").unwrap().is_empty());
        assert!(args_from_json(spec, "null").unwrap().is_empty());
        let refused = args_from_json(spec, "[1]").unwrap_err();
        assert!(refused.contains("named (an object) or words"), "{refused}");
        assert!(args_from_json(spec, "{")
            .unwrap_err()
            .starts_with("Arguments are not JSON"));
    }

    #[test]
    fn every_prompt_has_a_short_summary_and_the_four_sections() {
        for spec in ALL {
            assert!(spec.summary.chars().count() <= 50, "{}", spec.name);
            let text = description(spec);
            assert_eq!(text.lines().next(), Some(spec.summary));
            for section in [
                "Arguments: `*args`",
                "Usage:",
                "@secretary /",
                "Examples:\n- ",
            ] {
                assert!(text.contains(section), "{} lacks {section}", spec.name);
            }
            assert!(!text.contains("arg1"), "{}", spec.name);
        }
    }

    #[test]
    fn words_fill_the_arguments_in_order_and_the_rest_takes_the_remainder() {
        let request = find("request").unwrap();
        assert_eq!(
            Value::Object(args_from_words(request, " 3  abc ")),
            json!({"index": "3", "sessionId": "abc"})
        );
        let search = find("search_requests").unwrap();
        assert_eq!(
            Value::Object(args_from_words(search, "dark  mode")),
            json!({"query": "dark  mode"})
        );
        assert!(args_from_words(find("/first").unwrap(), "  ").is_empty());
        assert_eq!(words_schema(request), "<index> [sessionId]");
        assert_eq!(words_schema(search), "<query...>");
    }

    #[test]
    fn names_and_commands_are_unique() {
        for (i, a) in ALL.iter().enumerate() {
            for b in &ALL[i + 1..] {
                assert!(a.name != b.name && a.command != b.command, "{}", a.name);
            }
        }
    }

    /// The participant's slash commands in `package.json` carry the specs' commands and summaries.
    #[test]
    fn package_json_chat_commands_match_the_specs() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../package.json");
        let text = std::fs::read_to_string(path).expect("package.json at the repository root");
        let manifest: Value = serde_json::from_str(&text).expect("package.json is JSON");
        let participant = &manifest["contributes"]["chatParticipants"][0];
        assert_eq!(participant["name"], "secretary");
        let commands: Vec<(String, String)> = participant["commands"]
            .as_array()
            .expect("chatParticipants[0].commands")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or_default().into(),
                    c["description"].as_str().unwrap_or_default().into(),
                )
            })
            .collect();
        let expected: Vec<(String, String)> = ALL
            .iter()
            .map(|s| (s.command.to_string(), s.summary.to_string()))
            .collect();
        assert_eq!(commands, expected);
    }
}
