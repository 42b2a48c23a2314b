//! The prompts (`@secretary /first`, MCP `recall_first_request`...): each prompt's markdown,
//! followups and plain-words errors over a small store, through `prompts::render` as hosts call it.

#[path = "common/json.rs"]
mod json;

#[path = "common/session_files.rs"]
mod session_files;

use json::{assert_has, assert_starts, str_at, strs};
use secretary_core::prompts::{self, args_from_words, Followup, PromptOutput};
use secretary_core::session::SessionStore;
use secretary_core::toolkit::catalog::Catalog;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Map, Value};
use session_files::{answered_request as request, put};

const WS: &str = "file:///work/app";

fn add(store: &mut SessionStore, id: &str, title: &str, created: i64, requests: Vec<Value>) {
    let bytes = serde_json::to_vec(&json!({
        "version": 3,
        "sessionId": id,
        "customTitle": title,
        "creationDate": created,
        "requests": requests,
    }))
    .unwrap();
    put(store, &format!("/s/{id}.json"), Some(WS), &bytes);
}

fn store() -> SessionStore {
    let mut store = SessionStore::new();
    add(
        &mut store,
        "old",
        "Dark mode",
        1_760_000_000_000,
        vec![
            request("o1", 1_760_000_000_000, "Add a dark mode toggle"),
            request("o2", 1_760_000_100_000, "Persist it in localStorage"),
        ],
    );
    add(
        &mut store,
        "new",
        "Speed up the list",
        1_760_434_353_123,
        vec![
            request(
                "n1",
                1_760_434_353_123,
                "The todo list is slow with 5,000 items. Profile the render and propose a fix;\nkeep the API unchanged.",
            ),
            request("n2", 1_760_434_400_000, "Now write Playwright tests for it"),
            request("n3", 1_760_434_500_000, "Third"),
        ],
    );
    store
}

fn run(store: Option<&SessionStore>, name: &str, args: Value) -> PromptOutput {
    let spec = prompts::find(name).expect("prompt exists");
    let args: Map<String, Value> = match args {
        Value::String(words) => args_from_words(spec, &words),
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let catalog = Catalog::new("chat_secretary_", Vec::new(), &[]);
    let ctx = ToolContext::new(store, Some(WS)).with_catalog(&catalog);
    prompts::render(spec, &args, &ctx)
}

/// The prompt `name` by its MCP name, with named arguments, over `store`.
fn mcp(store: &SessionStore, name: &str, args: Value) -> PromptOutput {
    run(Some(store), name, args)
}

fn followup(command: &str, prompt: &str, label: &str) -> Followup {
    Followup::new(command, prompt, label)
}

#[test]
fn first_gives_the_full_first_request_not_the_preview() {
    let store = store();
    let out = run(Some(&store), "first", json!(""));
    let full = "The todo list is slow with 5,000 items. Profile the render and propose a fix;\nkeep the API unchanged.";
    assert_eq!(out.error, None);
    assert_eq!(out.text.as_deref(), Some(full));
    assert_eq!(
        out.markdown,
        "**First request** of dialog `new` (2025-10-14T09:32:33.123Z, 3 requests in all):\n\n\
         > The todo list is slow with 5,000 items. Profile the render and propose a fix;\n\
         > keep the API unchanged.\n"
    );
    assert_eq!(
        out.followups,
        vec![
            followup("request", "2", "Show the second request"),
            followup("dialogs", "", "List the recent dialogs"),
        ]
    );
    // The MCP name and named arguments answer the same, for another dialog too.
    let other = mcp(&store, "recall_first_request", json!({"sessionId": "old"}));
    assert_eq!(other.text.as_deref(), Some("Add a dark mode toggle"));
    assert_eq!(
        other.followups[0],
        followup("request", "2 old", "Show the second request")
    );
}

#[test]
fn request_n_with_its_neighbours_as_followups() {
    let store = store();
    let out = run(Some(&store), "request", json!("2"));
    assert_eq!(
        out.markdown,
        "**Request 2 of 3** of dialog `new` (2025-10-14T09:33:20.000Z):\n\n> Now write Playwright tests for it\n"
    );
    assert_eq!(
        out.followups,
        vec![
            followup("request", "3", "Show request 3"),
            followup("request", "1", "Show request 1")
        ]
    );
    let other = mcp(
        &store,
        "recall_request",
        json!({"index": "2", "sessionId": "old"}),
    );
    assert_eq!(other.text.as_deref(), Some("Persist it in localStorage"));
    assert_eq!(
        other.followups,
        vec![followup("request", "1 old", "Show request 1")]
    );
}

#[test]
fn errors_are_the_tools_errors_in_plain_words() {
    let store = store();
    let cases = [
        ("request", "", "Index parameter is required"),
        ("request", "0", "Index must be 1 or greater"),
        ("request", "9", "Index 9 exceeds total requests (3)"),
        (
            "request",
            "two",
            "Index must be a whole number (1, 2, 3...), got the string \"two\"",
        ),
        ("request", "1 nope", "Session not found: nope"),
        ("first", "nope", "Session not found: nope"),
        ("search", "", "Query must not be empty"),
        (
            "tools",
            "  ",
            "Query must not be empty: describe what the tool should do",
        ),
    ];
    for (name, words, error) in cases {
        let out = run(Some(&store), name, json!(words));
        assert_eq!(out.error.as_deref(), Some(error), "{name} {words:?}");
        assert_eq!(out.markdown, format!("{error}."), "{name} {words:?}");
        assert!(out.followups.is_empty() && out.text.is_none());
    }
    let empty = SessionStore::new();
    assert_eq!(
        run(Some(&empty), "first", json!("")).error.as_deref(),
        Some("No active dialog found")
    );
    assert_eq!(
        run(None, "first", json!("")).markdown,
        "Service temporarily unavailable."
    );
    let unknown = mcp(&store, "recall_request", json!({"idx": "2"}));
    assert_eq!(
        unknown.error.as_deref(),
        Some("Unknown argument idx for recall_request: it takes index, sessionId")
    );
}

#[test]
fn dialogs_lists_this_workspace_newest_first() {
    let store = store();
    let out = run(Some(&store), "dialogs", json!(""));
    assert_eq!(
        out.markdown,
        "**Recent dialogs** (2 of 2, newest first):\n\n\
         1. **Speed up the list**: 3 requests, last active 2025-10-14T09:35:00.000Z, complete (`new`)\n\
         2. **Dark mode**: 2 requests, last active 2025-10-09T08:55:00.000Z, complete (`old`)\n"
    );
    assert_eq!(
        out.followups,
        vec![
            followup("first", "", "Show the first request of the current dialog"),
            followup(
                "first",
                "new",
                "Show the first request of \"Speed up the list\""
            ),
        ]
    );
    let filtered = mcp(&store, "recent_dialogs", json!({"query": "localStorage"}));
    assert_starts(
        &filtered.markdown,
        "**Dialogs mentioning \"localStorage\"** (1 of 1",
    );
    let none = run(Some(&store), "dialogs", json!("kubernetes"));
    assert_eq!(
        none.markdown,
        "No dialogs of this workspace mention \"kubernetes\".\n"
    );
    assert_eq!(none.error, None);
}

#[test]
fn search_ranks_past_requests_and_offers_to_open_them() {
    let store = store();
    let out = run(Some(&store), "search", json!("playwright tests"));
    // Request 2 holds the words; its neighbours follow, found through their context.
    assert_starts(
        &out.markdown,
        "**3 requests match \"playwright tests\"**, best first:\n\n\
         1. **Speed up the list**, request 2 (2025-10-14T09:33:20.000Z, `new`): Now write Playwright tests for it\n",
    );
    assert_eq!(
        out.followups.first(),
        Some(&followup(
            "request",
            "2 new",
            "Show request 2 of \"Speed up the list\""
        ))
    );
    let none = mcp(&store, "search_requests", json!({"query": "kubernetes"}));
    assert_eq!(none.markdown, "No past request matches \"kubernetes\".\n");
}

#[test]
fn tools_finds_the_secretarys_own_tools() {
    let out = run(None, "tools", json!("recall earlier chat request"));
    assert_starts(
        &out.markdown,
        "**Tools for \"recall earlier chat request\"**, best first:\n\n- `chat_secretary_",
    );
    assert_has(&out.markdown, "chat_secretary_get_request` (active");
    assert_eq!(out.error, None);
    let ctx = ToolContext::new(None, None);
    let spec = prompts::find("find_tool").unwrap();
    let without = prompts::render(spec, &args_from_words(spec, "read a file"), &ctx);
    assert_eq!(
        without.error.as_deref(),
        Some("Tool discovery is not available in this host")
    );
}

#[test]
fn listing_carries_generated_descriptions_and_mcp_arguments() {
    let listing = prompts::listing();
    let names = strs(&listing, "name");
    assert_eq!(
        names,
        [
            "recall_first_request",
            "recall_request",
            "recent_dialogs",
            "search_requests",
            "find_tool"
        ]
    );
    let request = &listing[1];
    assert_eq!(request["command"], "request");
    assert_eq!(
        request["arguments"],
        json!([
            {"name": "index", "description": "Which request, counting from 1.", "required": true},
            {"name": "sessionId", "description": "The dialog to read (from /dialogs); omit it for the current dialog.", "required": false}
        ])
    );
    let description = str_at(request, "description");
    assert_starts(
        description,
        "Recall the full text of request n.\n\nArguments: `*args` = `<index> [sessionId]`\n",
    );
    assert_has(
        description,
        "- `@secretary /request 2` (MCP `recall_request` {\"index\":\"2\"}): the second request",
    );
}

/// The README's table of prompts says what the specs say.
#[test]
fn readme_lists_every_prompt_as_the_specs_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md at the repository root");
    for spec in prompts::ALL {
        let line = format!(
            "| `@secretary /{} {}` | `{}` | {} |",
            spec.command,
            prompts::words_schema(spec),
            spec.name,
            spec.summary
        );
        assert!(readme.contains(&line), "README.md lacks: {line}");
    }
}
