//! Tool discovery: `tool_find`, `tool_describe`, `tool_load`, `tool_active`, `tool_call` over a
//! catalog of the Secretary's own tools and a host's external tools.

#[path = "common/json.rs"]
mod json;

use json::{assert_has, assert_starts, str_at, strs};
use secretary_core::registry::invoke;
use secretary_core::toolkit::catalog::{Catalog, CatalogTool};
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};

fn external(name: &str, description: &str, source: &str) -> CatalogTool {
    serde_json::from_value(
        json!({ "name": name, "description": description, "source": source, "tags": [] }),
    )
    .unwrap()
}

fn catalog() -> Catalog {
    Catalog::new(
        "chat_secretary_",
        vec![
            external(
                "copilot_readFile",
                "Read the contents of a file in the workspace.",
                "vscode",
            ),
            external(
                "fetch_webpage",
                "Fetch the main content of a web page by URL.",
                "vscode",
            ),
            external(
                "github_search_issues",
                "Search GitHub issues and pull requests by keywords.",
                "mcp:github",
            ),
            external(
                "currency_convert",
                "Convert an amount between currencies using today's exchange rates.",
                "mcp:finance",
            ),
            external(
                "qr_code_create",
                "Create a QR code image that encodes a text or a URL.",
                "mcp:tools",
            ),
        ],
        &["go_ent_".to_string()],
    )
}

fn call(catalog: &Catalog, name: &str, args: Value) -> Value {
    let ctx = ToolContext::new(None, None).with_catalog(catalog);
    invoke(name, &args, &ctx).to_value()
}

/// `tool_find` with `query` and no limit.
fn find(catalog: &Catalog, query: &str) -> Value {
    call(catalog, "tool_find", json!({ "query": query }))
}

/// `tool_find` with `query`, asking for the best tool only.
fn find_one(catalog: &Catalog, query: &str) -> Value {
    call(catalog, "tool_find", json!({ "query": query, "limit": 1 }))
}

/// `tool_describe` of the tool `name`.
fn describe(catalog: &Catalog, name: &str) -> Value {
    call(catalog, "tool_describe", json!({ "name": name }))
}

/// `tool_load` of the tools `names`, in that order.
fn load(catalog: &Catalog, names: &[&str]) -> Value {
    call(catalog, "tool_load", json!({ "names": names }))
}

/// `tool_call` with `args` (the tool's name and its input).
fn tool_call(catalog: &Catalog, args: Value) -> Value {
    call(catalog, "tool_call", args)
}

fn names(result: &Value, key: &str) -> Vec<String> {
    strs(&result[key], "name")
}

#[test]
fn tool_find_ranks_by_what_the_tool_does() {
    let catalog = catalog();
    let found = find(&catalog, "convert dollars to euros currency");
    assert_eq!(names(&found, "tools")[0], "currency_convert");
    let first = &found["tools"][0];
    assert_eq!(first["active"], false);
    assert_eq!(first["source"], "mcp:finance");
    assert!(first["score"].as_f64().unwrap() > 0.0);
    assert!(first["matched"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "currency"));
    let recall = find(&catalog, "recall the user's earlier chat request");
    let top: Vec<String> = names(&recall, "tools").into_iter().take(3).collect();
    assert!(
        top.iter().any(|n| n == "chat_secretary_get_request"),
        "{top:?}"
    );
    assert_eq!(recall["tools"][0]["active"], true, "own tools start active");
    let scores: Vec<f64> = recall["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "highest first: {scores:?}"
    );
}

#[test]
fn tool_find_limits_and_rejects_blank_queries() {
    let catalog = catalog();
    let one = find_one(&catalog, "search");
    assert_eq!(one["tools"].as_array().unwrap().len(), 1);
    assert_eq!(
        find(&catalog, "  ")["error"],
        "Query must not be empty: describe what the tool should do"
    );
    assert_eq!(
        call(&catalog, "tool_find", json!({"query": "x", "limit": 0}))["error"],
        "Limit must be 1 or greater"
    );
    let none = find(&catalog, "zzzz qqqq");
    assert_eq!(none["total"], 0);
    assert!(str_at(&none, "message").starts_with("No tool matches"));
}

#[test]
fn tool_describe_gives_the_schema_or_the_closest_names() {
    let catalog = catalog();
    let own = describe(&catalog, "chat_secretary_get_request");
    assert_eq!(own["success"], true);
    assert_eq!(own["inputSchema"]["required"], json!(["index"]));
    assert!(str_at(&own, "description").contains("Use this tool when:"));
    assert_eq!(own["active"], true);
    // Plain names of own tools resolve too.
    assert_eq!(
        describe(&catalog, "get_request")["name"],
        "chat_secretary_get_request"
    );
    let external = describe(&catalog, "fetch_webpage");
    assert_eq!(
        external["inputSchema"],
        json!({"type": "object", "properties": {}, "required": []})
    );
    let unknown = describe(&catalog, "fetch_web_page");
    let error = str_at(&unknown, "error");
    assert_starts(
        error,
        "Tool not found: fetch_web_page. Use chat_secretary_tool_find to search for tools.",
    );
    assert_has(error, "fetch_webpage");
}

#[test]
fn renamed_tools_name_the_new_name_everywhere() {
    let catalog = catalog();
    let expected = "Tool not found: copilot_chat_secretary_get_request. It was renamed to chat_secretary_get_request.";
    assert_eq!(
        describe(&catalog, "copilot_chat_secretary_get_request")["error"],
        expected
    );
    assert_eq!(
        call(
            &catalog,
            "copilot_chat_secretary_get_request",
            json!({"index": 1})
        )["error"],
        expected
    );
    assert_eq!(
        describe(&catalog, "go_ent_get_first_request")["error"],
        "Tool not found: go_ent_get_first_request. It was renamed to chat_secretary_get_first_request."
    );
    let old_name = load(&catalog, &["go_ent_list_dialogs"]);
    assert!(str_at(&old_name, "error")
        .contains("go_ent_list_dialogs (renamed to chat_secretary_list_dialogs)"));
}

#[test]
fn tool_load_is_all_or_nothing_and_idempotent() {
    let catalog = catalog();
    let refused = load(&catalog, &["fetch_webpage", "nope", "nada"]);
    assert_eq!(refused["success"], false);
    assert_eq!(
        refused["error"],
        "Unknown tools: nope, nada. Nothing was loaded."
    );
    assert!(
        !catalog.is_active("fetch_webpage"),
        "nothing loaded when a name is unknown"
    );

    let before = catalog.active_tools().len();
    let loaded = load(
        &catalog,
        &["fetch_webpage", "qr_code_create", "fetch_webpage"],
    );
    assert_eq!(loaded["loaded"], json!(["fetch_webpage", "qr_code_create"]));
    assert_eq!(loaded["alreadyActive"], json!([]));
    assert_eq!(loaded["activeCount"], before + 2);

    let again = load(&catalog, &["fetch_webpage", "chat_secretary_get_request"]);
    assert_eq!(again["success"], true);
    assert_eq!(again["loaded"], json!([]));
    assert_eq!(
        again["alreadyActive"],
        json!(["chat_secretary_get_request", "fetch_webpage"])
    );
    assert_eq!(again["activeCount"], before + 2);
    assert_eq!(
        load(&catalog, &[])["error"],
        "Names must list at least one tool"
    );
}

#[test]
fn tool_active_reflects_loading() {
    let catalog = Catalog::new(
        "p_",
        vec![external("fetch_webpage", "Fetch a page.", "vscode")],
        &[],
    );
    let before = call(&catalog, "tool_active", json!({}));
    let count = before["count"].as_u64().unwrap();
    assert!(!names(&before, "tools").contains(&"fetch_webpage".to_string()));
    load(&catalog, &["fetch_webpage"]);
    let after = call(&catalog, "tool_active", json!({}));
    assert_eq!(after["count"].as_u64().unwrap(), count + 1);
    assert!(names(&after, "tools").contains(&"fetch_webpage".to_string()));
    assert_eq!(
        call(&catalog, "tool_active", json!({"x": 1}))["success"],
        false
    );
}

#[test]
fn external_tools_start_inactive_and_own_tools_active() {
    let catalog = catalog();
    let result = call(&catalog, "tool_active", json!({}));
    let active = names(&result, "tools");
    assert!(
        active.iter().all(|n| n.starts_with("chat_secretary_")),
        "{active:?}"
    );
    assert!(active.contains(&"chat_secretary_tool_find".to_string()));
    assert!(result.get("message").is_none());
}

#[test]
fn tool_call_validates_before_the_host_calls() {
    let catalog = catalog();
    let not_loaded = tool_call(
        &catalog,
        json!({"name": "fetch_webpage", "input": {"url": "x"}}),
    );
    assert_eq!(not_loaded["error"], "Tool fetch_webpage is not loaded.");
    assert!(str_at(&not_loaded, "instruction").contains("chat_secretary_tool_load"));
    load(&catalog, &["fetch_webpage"]);
    let ok = tool_call(
        &catalog,
        json!({"name": "fetch_webpage", "input": {"url": "x"}}),
    );
    assert_eq!(
        ok,
        json!({"success": true, "call": {"name": "fetch_webpage", "input": {"url": "x"}}})
    );
    assert_eq!(
        tool_call(&catalog, json!({"name": "chat_secretary_get_request"}))["error_type"],
        "own_tool"
    );
    assert_eq!(
        tool_call(&catalog, json!({"name": "zzz"}))["error_type"],
        "not_found"
    );
    assert!(
        tool_call(&catalog, json!({"name": "fetch_webpage", "input": [1]}))["error"]
            .as_str()
            .unwrap()
            .contains("`input`")
    );
    // An external tool called by name through the catalog is pointed to tool_call.
    assert_eq!(
        call(&catalog, "fetch_webpage", json!({}))["error_type"],
        "external_tool"
    );
}

#[test]
fn hosts_without_a_catalog_get_a_clear_error() {
    let ctx = ToolContext::new(None, None);
    assert_eq!(
        invoke("tool_find", &json!({"query": "x"}), &ctx).to_value()["error"],
        "Tool discovery is not available in this host"
    );
}

#[test]
fn a_host_can_leave_out_own_tools() {
    // MCP offers no tool_call: its client calls its own tools.
    let catalog = Catalog::excluding("secretary_", vec![], &[], &["tool_call".to_string()]);
    let found = find(&catalog, "call a loaded tool that is not in your list");
    assert!(!names(&found, "tools").contains(&"secretary_tool_call".to_string()));
    assert_eq!(
        describe(&catalog, "secretary_tool_call")["error_type"],
        "not_found"
    );
    assert_eq!(
        tool_call(&catalog, json!({"name": "x"})),
        json!({
            "success": false, "error": "Tool not found: tool_call", "error_type": "not_found"
        })
    );
    // The other tools are untouched.
    assert_eq!(call(&catalog, "tool_active", json!({}))["success"], true);
}

/// `tool_find` ranks with the hybrid ranker: a paraphrase that shares no word with the tool is
/// found with the semantic signal, and not when the setting turns it off.
#[test]
fn tool_find_matches_paraphrases_unless_semantic_search_is_off() {
    let tools = vec![
        external(
            "weather_forecast",
            "Get the current weather and the forecast for a city.",
            "mcp:a",
        ),
        external(
            "recipe_finder",
            "Find recipes by ingredient, cuisine or diet.",
            "mcp:a",
        ),
        external("music_player", "Play songs, albums and playlists.", "mcp:a"),
        external("pdf_tools", "Merge, split and compress PDF files.", "mcp:a"),
    ];
    let mut catalog = Catalog::new("p_", tools, &[]);
    assert!(catalog.is_semantic(), "semantic search is on by default");
    let found = find_one(&catalog, "will it rain tomorrow in Oslo");
    assert_eq!(found["tools"][0]["name"], "weather_forecast");
    assert_eq!(found["tools"][0]["signals"], json!(["semantic"]));
    catalog.set_semantic(false);
    let lexical = find_one(&catalog, "will it rain tomorrow in Oslo");
    assert_ne!(lexical["tools"][0]["name"], "weather_forecast", "{lexical}");
    // A lexical match names both signals when semantic search is on.
    catalog.set_semantic(true);
    let both = find_one(&catalog, "merge pdf files");
    assert_eq!(both["tools"][0]["name"], "pdf_tools");
    assert_eq!(both["tools"][0]["signals"], json!(["lexical", "semantic"]));
}
