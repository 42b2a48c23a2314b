//! Content retrieval: the expression grammar, categories from the setting, glob selection,
//! aggregation in order, the size cap, and the refusals.

#[path = "common/json.rs"]
mod json;

use json::{call_bare, str_at, strs};
use secretary_core::content::{self, parse, Item, MAX_CHARS, SETTING};
use secretary_core::host::{Area, MemoryHost};
use secretary_core::registry::invoke;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};

fn item(category: &str, patterns: &[&str]) -> Item {
    Item {
        category: category.into(),
        patterns: patterns.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn grammar_categories_patterns_alternatives_and_lists() {
    assert_eq!(parse("docs").unwrap(), [item("docs", &[])]);
    assert_eq!(parse(" docs/api ").unwrap(), [item("docs", &["api"])]);
    assert_eq!(
        parse("lang/python+rust+go").unwrap(),
        [item("lang", &["python", "rust", "go"])]
    );
    assert_eq!(
        parse("lang/python, docs/api,guidelines").unwrap(),
        [
            item("lang", &["python"]),
            item("docs", &["api"]),
            item("guidelines", &[])
        ]
    );
    assert_eq!(
        parse("docs/guides/**/*.md").unwrap(),
        [item("docs", &["guides/**/*.md"])]
    );
    assert_eq!(
        parse("docs/").unwrap(),
        [item("docs", &[])],
        "a trailing slash means the whole category"
    );
    assert_eq!(
        parse("lang/python+rust").unwrap()[0].to_string(),
        "lang/python+rust"
    );
    assert_eq!(
        content::expression_of("lang", Some("python")),
        "lang/python"
    );
    assert_eq!(content::expression_of("lang", None), "lang");
}

#[test]
fn grammar_errors_are_clear() {
    let cases = [
        ("", "Expression is empty"),
        ("   ", "Expression is empty"),
        ("docs,,api", "empty item"),
        ("docs,", "empty item"),
        ("/etc/passwd", "no category before `/`"),
        ("docs/../secrets", "escapes the category folder"),
        ("docs/a/../../b", "escapes the category folder"),
        ("docs//etc/passwd", "escapes the category folder"),
        ("docs/C:/x", "escapes the category folder"),
        ("docs/a\\b", "escapes the category folder"),
        ("docs/a++b", "empty pattern"),
        ("do cs", "Invalid category name"),
    ];
    for (expression, want) in cases {
        let err = parse(expression).unwrap_err();
        assert!(err.contains(want), "{expression:?}: {err}");
    }
}

fn workspace() -> MemoryHost {
    let host = MemoryHost::new();
    host.put(
        Area::Workspace,
        ".github/instructions/python.instructions.md",
        "Use type hints.\n",
    );
    host.put(
        Area::Workspace,
        ".github/instructions/rust.md",
        "Run clippy.",
    );
    host.put(
        Area::Workspace,
        ".github/instructions/nested/ignored.md",
        "not top level",
    );
    host.put(
        Area::Workspace,
        ".github/instructions/notes.txt",
        "not markdown",
    );
    host.put(
        Area::Workspace,
        ".github/prompts/review.prompt.md",
        "Review carefully.",
    );
    host.put(Area::Workspace, "docs/api.md", "API overview.");
    host.put(Area::Workspace, "docs/api/v1.md", "Version 1.");
    host.put(Area::Workspace, "docs/guides/setup.md", "Install it.");
    host.put(Area::Workspace, "secrets.md", "outside every category");
    host
}

fn get(host: &MemoryHost, args: Value) -> Value {
    let ctx = ToolContext::new(None, None).with_host(host);
    invoke("get_content", &args, &ctx).to_value()
}

fn paths(result: &Value) -> Vec<String> {
    strs(&result["documents"], "path")
}

#[test]
fn default_categories_select_by_their_globs() {
    let host = workspace();
    let all = get(&host, json!({"expression": "instructions"}));
    assert_eq!(all["success"], true, "{all}");
    assert_eq!(
        paths(&all),
        [
            ".github/instructions/python.instructions.md",
            ".github/instructions/rust.md"
        ]
    );
    let content = all["content"].as_str().unwrap();
    assert_eq!(
        content,
        "## .github/instructions/python.instructions.md\n\nUse type hints.\n\n## .github/instructions/rust.md\n\nRun clippy."
    );
    let docs = get(&host, json!({"expression": "docs"}));
    assert_eq!(
        paths(&docs),
        ["docs/api.md", "docs/api/v1.md", "docs/guides/setup.md"],
        "docs is recursive"
    );
}

#[test]
fn patterns_select_within_a_category_and_lists_aggregate_in_order() {
    let host = workspace();
    // (expression, the paths it selects, in order)
    let cases: [(&str, &[&str]); 4] = [
        (
            "instructions/python",
            &[".github/instructions/python.instructions.md"],
        ),
        ("docs/api", &["docs/api.md", "docs/api/v1.md"]),
        ("docs/guides/*.md", &["docs/guides/setup.md"]),
        ("docs/setup+v1", &["docs/api/v1.md", "docs/guides/setup.md"]),
    ];
    for (expression, expected) in cases {
        let got = paths(&get(&host, json!({ "expression": expression })));
        assert_eq!(got, expected, "{expression}");
    }
    let list = get(
        &host,
        json!({"expression": "prompts,instructions/rust,docs/api,instructions/rust"}),
    );
    assert_eq!(
        paths(&list),
        [
            ".github/prompts/review.prompt.md",
            ".github/instructions/rust.md",
            "docs/api.md",
            "docs/api/v1.md"
        ],
        "in order, each document once"
    );
    // get_content("lang/python") equals get_content("lang", "python").
    let expression = get(&host, json!({"expression": "instructions/python"}));
    let split = get(
        &host,
        json!({"category": "instructions", "pattern": "python"}),
    );
    assert_eq!(expression, split);
    // A pattern that matches nothing is reported, not an error.
    let none = get(&host, json!({"expression": "instructions/go,docs/api"}));
    assert_eq!(none["success"], true);
    assert_eq!(none["unmatched"], json!(["instructions/go"]));
    let nothing = get(&host, json!({"expression": "instructions/go"}));
    assert_eq!(nothing["documents"], json!([]));
    assert!(str_at(&nothing, "message").contains("No documents matched"));
}

#[test]
fn categories_come_from_the_setting() {
    let host = workspace();
    host.put(Area::Workspace, "guides/lang/python.md", "PEP 8.");
    host.put(Area::Workspace, "guides/lang/rust.md", "rustfmt.");
    host.set_setting(
        SETTING,
        json!({
            "lang": {"folder": "guides/lang", "patterns": ["*.md"]},
            "everything": {"folder": ".", "patterns": "**/*.md"},
        }),
    );
    assert_eq!(
        paths(&get(&host, json!({"expression": "lang/python"}))),
        ["guides/lang/python.md"]
    );
    let unknown = get(&host, json!({"expression": "instructions"}));
    assert_eq!(unknown["error_type"], "not_found");
    assert!(str_at(&unknown, "error")
        .contains("Unknown content category \"instructions\". Known categories: everything, lang"));
    assert!(
        paths(&get(&host, json!({"expression": "everything/secrets"})))
            .contains(&"secrets.md".to_string())
    );
    for bad in [
        json!({"x": {"folder": "../up", "patterns": ["*.md"]}}),
        json!({"x": {"folder": "a", "patterns": []}}),
        json!([1]),
        json!({"x": {"folder": "a", "patterns": ["../*.md"]}}),
    ] {
        host.set_setting(SETTING, bad.clone());
        let result = get(&host, json!({"expression": "x"}));
        assert_eq!(result["error_type"], "invalid_setting", "{bad}: {result}");
    }
}

#[test]
fn escapes_and_bad_arguments_are_refused_before_any_read() {
    let host = workspace();
    for args in [
        json!({"expression": "docs/../secrets"}),
        json!({"expression": "docs//etc/passwd"}),
        json!({"category": "docs", "pattern": "../secrets"}),
        json!({"category": "docs", "pattern": "/etc/passwd"}),
    ] {
        let result = get(&host, args.clone());
        assert_eq!(result["success"], false, "{args}");
        assert!(
            str_at(&result, "error").contains("escapes the category folder"),
            "{result}"
        );
    }
    assert!(get(&host, json!({}))["error"]
        .as_str()
        .unwrap()
        .contains("Expression is empty"));
    assert!(
        get(&host, json!({"expression": "docs", "category": "docs"}))["error"]
            .as_str()
            .unwrap()
            .contains("not both")
    );
    assert!(get(&host, json!({"category": "docs/api"}))["error"]
        .as_str()
        .unwrap()
        .contains("category name alone"));
    let unknown = get(&host, json!({"expression": "docs,nope"}));
    assert!(str_at(&unknown, "error").contains("Unknown content category \"nope\""));
    // Without a host or a workspace folder.
    let bare = call_bare("get_content", json!({"expression": "docs"}));
    assert_eq!(bare["error_type"], "host_unavailable");
    let empty = MemoryHost::new().without_area(Area::Workspace);
    assert!(get(&empty, json!({"expression": "docs"}))["error"]
        .as_str()
        .unwrap()
        .starts_with("get_content needs an open workspace folder"));
}

#[test]
fn output_is_capped_with_a_note() {
    let host = MemoryHost::new();
    for name in ["a", "b", "c"] {
        let line = format!("{name} words words words\n");
        host.put(
            Area::Workspace,
            &format!("docs/{name}.md"),
            line.repeat(12_000 / line.len()),
        );
    }
    let result = get(&host, json!({"expression": "docs"}));
    assert_eq!(result["truncated"], true);
    let content = result["content"].as_str().unwrap();
    let (body, note) = content.split_once("\n\n---\n").unwrap();
    assert!(
        body.chars().count() <= MAX_CHARS,
        "{}",
        body.chars().count()
    );
    assert!(
        note.contains("Content cut at 20000 characters") && note.contains("docs/c.md"),
        "{note}"
    );
    assert_eq!(paths(&result), ["docs/a.md", "docs/b.md"]);
    assert_eq!(result["documents"][1]["cut"], true);
    assert_eq!(result["omitted"], json!(["docs/c.md"]));
    // A small answer is not cut.
    let small = get(&host, json!({"expression": "docs/a"}));
    assert_eq!(small["truncated"], false);
    assert!(!small["content"].as_str().unwrap().contains("Content cut"));
}

#[test]
fn package_json_declares_the_core_default_categories() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../package.json");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let declared = &manifest["contributes"]["configuration"]["properties"][SETTING]["default"];
    assert_eq!(
        declared,
        &content::default_setting(),
        "package.json's default differs from the core's"
    );
}
