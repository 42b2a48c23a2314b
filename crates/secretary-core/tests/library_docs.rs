//! `resolve_library_id` and `get_library_docs` on a `MemoryHost` with fake installed libraries
//! (npm, crates in a fake cargo registry, a Python venv, bundled docs) and canned HTTP answers:
//! alias and repository resolution, version-exact ids, section scoring with the heading bonus,
//! the `maxChars` budget, the overview fallback, the Context7 fallback (pending fetch, answers,
//! HTTP and network errors, the off switch, settings) and every error text.

#[path = "common/json.rs"]
mod json;

use json::{answer, pairs, str_at, strs};
use secretary_core::docs::{context7, local, sections};
use secretary_core::host::{Area, HostError, HostErrorKind, HttpResponse, MemoryHost};
use secretary_core::registry::invoke;
use secretary_core::toolkit::catalog::Catalog;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};

const REGISTRY: &str = "index.crates.io-1949cf8c6b5b557f";

const PLAYWRIGHT_README: &str = "# Playwright\n\
\n\
Playwright is a framework for web testing and automation.\n\
\n\
## Installation\n\
\n\
```sh\n\
## this comment is not a heading\n\
npm init playwright@latest\n\
```\n\
\n\
## Writing tests\n\
\n\
Tests use a locator to find elements; a locator waits, and a locator retries.\n\
\n\
## Locators\n\
\n\
Create one with page.getByRole.\n\
\n\
## Trace viewer\n\
\n\
Open traces with `npx playwright show-trace`.\n";

/// The headings of `PLAYWRIGHT_README`, in order (the fenced `## ` line is not one).
const PLAYWRIGHT_HEADINGS: [&str; 5] = [
    "Playwright",
    "Installation",
    "Writing tests",
    "Locators",
    "Trace viewer",
];

const API_DOC: &str =
    "# API\n\n## page.goto\n\nNavigates to a URL.\n\n## page.close\n\nCloses the page.\n";

const REQUESTS_METADATA: &str = "Metadata-Version: 2.1\n\
Name: requests\n\
Version: 2.32.3\n\
Summary: Python HTTP for Humans.\n\
Home-page: https://requests.readthedocs.io\n\
Project-URL: Source, https://github.com/psf/requests\n\
Description-Content-Type: text/markdown\n\
\n\
# Requests\n\
\n\
Requests is a simple HTTP library.\n\
\n\
## Installing Requests\n\
\n\
python -m pip install requests\n\
\n\
## Sessions\n\
\n\
A session keeps cookies across requests.\n";

fn package(name: &str, version: &str, extra: Value) -> String {
    let mut json = json!({"name": name, "version": version});
    if let (Some(target), Some(fields)) = (json.as_object_mut(), extra.as_object()) {
        for (key, value) in fields {
            target.insert(key.clone(), value.clone());
        }
    }
    json.to_string()
}

/// A workspace with playwright (README + docs/), @playwright/test, playwright-core, left-pad (no
/// docs), a Cargo.lock (serde, serde_json locked; tokio locked but not unpacked), a venv with
/// requests, and bundled docs.
fn workspace() -> MemoryHost {
    let host = MemoryHost::new();
    let ws = |path: &str, text: &str| host.put(Area::Workspace, path, text);
    ws(
        "node_modules/playwright/package.json",
        &package(
            "playwright",
            "1.48.0",
            json!({"description": "A high-level API to automate web browsers",
                   "repository": {"type": "git", "url": "git+https://github.com/microsoft/playwright.git"}}),
        ),
    );
    ws("node_modules/playwright/README.md", PLAYWRIGHT_README);
    ws("node_modules/playwright/docs/api.md", API_DOC);
    ws(
        "node_modules/playwright/docs/notes.txt",
        "not markdown: never read",
    );
    ws(
        "node_modules/@playwright/test/package.json",
        &package(
            "@playwright/test",
            "1.48.0",
            json!({"repository": "github:microsoft/playwright"}),
        ),
    );
    ws(
        "node_modules/@playwright/test/README.md",
        "# @playwright/test\n\nThe test runner.\n",
    );
    ws(
        "node_modules/playwright-core/package.json",
        &package("playwright-core", "1.48.0", json!({})),
    );
    ws(
        "node_modules/left-pad/package.json",
        &package("left-pad", "1.3.0", json!({})),
    );
    ws("node_modules/.bin/playwright", "#!/usr/bin/env node");
    ws("node_modules/.package-lock.json", "{}");
    ws(
        "Cargo.lock",
        "version = 4\n\n[[package]]\nname = \"my-app\"\nversion = \"0.1.0\"\ndependencies = [\"serde\"]\n\n\
         [[package]]\nname = \"serde\"\nversion = \"1.0.219\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\
         checksum = \"abc\"\n\n[[package]]\nname = \"serde_json\"\nversion = \"1.0.128\"\n\
         source = \"sparse+https://index.crates.io/\"\n\n[[package]]\nname = \"tokio\"\nversion = \"1.40.0\"\n\
         source = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
    );
    ws(
        ".venv/lib/python3.12/site-packages/requests-2.32.3.dist-info/METADATA",
        REQUESTS_METADATA,
    );
    ws(
        ".venv/lib/python3.12/site-packages/requests/__init__.py",
        "",
    );
    let reg =
        |path: &str, text: &str| host.put(Area::CargoRegistry, &format!("{REGISTRY}/{path}"), text);
    reg(
        "serde-1.0.219/Cargo.toml",
        "[package]\nname = \"serde\"\nversion = \"1.0.219\"\ndescription = \"\"\"\nA generic serialization/deserialization\n\
         framework\n\"\"\"\nrepository = \"https://github.com/serde-rs/serde\"\nreadme = \"crates-io.md\"\n\n[dependencies]\n",
    );
    reg("serde-1.0.219/crates-io.md", "# Serde\n\nSerde is a framework for serializing.\n\n## Derive\n\nUse #[derive(Serialize)].\n");
    reg("serde-1.0.219/src/lib.rs", "");
    reg(
        "serde-1.0.100/README.md",
        "# Serde (old)\n\n## Old\n\nOld docs.\n",
    );
    reg(
        "serde_json-1.0.128/Cargo.toml",
        "[package]\nname = \"serde_json\"\nversion = \"1.0.128\"\ndescription = \"A JSON serialization file format\"\n\
         repository = \"https://github.com/serde-rs/json\"\n",
    );
    reg(
        "serde_json-1.0.128/README.md",
        "# Serde JSON\n\n## Parsing\n\nserde_json::from_str parses.\n",
    );
    host.put(
        Area::Bundled,
        "copilot-chat-secretary/library.json",
        json!({"version": "0.1.0", "description": "This extension's tools", "aliases": ["secretary"]}).to_string(),
    );
    host.put(
        Area::Bundled,
        "copilot-chat-secretary/tools.md",
        "# Tools\n\n## Memory\n\nNotes across dialogs.\n",
    );
    host
}

fn call(host: &MemoryHost, tool: &str, args: Value) -> Value {
    let ctx = ToolContext::new(None, None).with_host(host);
    invoke(tool, &args, &ctx).to_value()
}

fn resolve(host: &MemoryHost, name: &str) -> Value {
    call(host, "resolve_library_id", json!({"libraryName": name}))
}

fn docs(host: &MemoryHost, args: Value) -> Value {
    call(host, "get_library_docs", args)
}

/// `get_library_docs` of the library `id`, searched for `query`, with the default budget.
fn docs_about(host: &MemoryHost, id: &str, query: &str) -> Value {
    docs(host, json!({ "libraryId": id, "query": query }))
}

/// The ids of the libraries `local::discover` finds on `host`, in its order.
fn discovered(host: &MemoryHost) -> Vec<String> {
    local::discover(host)
        .iter()
        .map(local::Library::id)
        .collect()
}

/// Asserts that `result` is a successful docs answer in `mode` (`search` or `overview`).
#[track_caller]
fn assert_answered_in(result: &Value, mode: &str) {
    assert_eq!(result["success"], true, "{result}");
    assert_eq!(result["mode"], mode, "{result}");
}

fn ids(result: &Value) -> Vec<String> {
    result["libraries"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|lib| lib["libraryId"].as_str().unwrap_or_default().to_string())
        .collect()
}

const SEARCH_URL_NEXT: &str =
    "https://context7.com/api/v2/libs/search?libraryName=next.js&query=next.js";

fn ok(body: &str) -> Result<HttpResponse, HostError> {
    Ok(HttpResponse {
        status: 200,
        body: body.to_string(),
    })
}

#[test]
fn discovery_finds_exact_versions_in_every_source() {
    let host = workspace();
    assert_eq!(
        discovered(&host),
        [
            "/npm/@playwright/test@1.48.0",
            "/npm/left-pad@1.3.0",
            "/npm/playwright@1.48.0",
            "/npm/playwright-core@1.48.0",
            // Locked and unpacked only: tokio is locked but not in the registry, serde 1.0.100 is
            // unpacked but not locked, my-app has no registry source.
            "/crates/serde@1.0.219",
            "/crates/serde_json@1.0.128",
            "/pypi/requests@2.32.3",
            "/bundled/copilot-chat-secretary@0.1.0",
        ]
    );
}

#[test]
fn names_resolve_locally_with_their_versions() {
    let host = workspace();
    let result = resolve(&host, "playwright");
    assert_eq!(result["success"], true, "{result}");
    assert_eq!(result["source"], "local");
    // The exact name first, then the scope and the prefix.
    assert_eq!(
        ids(&result),
        [
            "/npm/playwright@1.48.0",
            "/npm/@playwright/test@1.48.0",
            "/npm/playwright-core@1.48.0"
        ]
    );
    let first = &result["libraries"][0];
    assert_eq!(first["version"], "1.48.0");
    assert_eq!(first["match"], "name");
    assert_eq!(
        first["description"],
        "A high-level API to automate web browsers"
    );
    assert_eq!(result["libraries"][1]["match"], "scope");
    assert_eq!(result["libraries"][2]["match"], "prefix");
    assert!(str_at(&result, "instruction").contains("/npm/playwright@1.48.0"));
    // Case does not matter; no HTTP request was needed.
    assert_eq!(
        ids(&resolve(&host, "PlayWright"))[0],
        "/npm/playwright@1.48.0"
    );
    assert!(host.http_requests().is_empty());
}

#[test]
fn aliases_and_repositories_resolve() {
    let host = workspace();
    let pw = resolve(&host, "pw");
    assert_eq!(ids(&pw)[0], "/npm/playwright@1.48.0", "{pw}");
    assert_eq!(pw["libraries"][0]["match"], "alias");
    // The package named after the repository first, then the other package of the repository.
    let repo = resolve(&host, "microsoft/playwright");
    assert_eq!(
        ids(&repo)[..2],
        ["/npm/playwright@1.48.0", "/npm/@playwright/test@1.48.0"],
        "{repo}"
    );
    assert_eq!(repo["libraries"][0]["match"], "repository");
    assert_eq!(repo["libraries"][1]["match"], "repository");
    // A crate's repository comes from its Cargo.toml in the registry.
    // (`json`, the repository's last segment, matches no prefix: json-schema is not serde-rs/json.)
    host.put(
        Area::Workspace,
        "node_modules/json-schema/package.json",
        package("json-schema", "0.4.0", json!({})),
    );
    let json_crate = resolve(&host, "serde-rs/json");
    assert_eq!(
        ids(&json_crate),
        ["/crates/serde_json@1.0.128"],
        "{json_crate}"
    );
    assert_eq!(
        json_crate["libraries"][0]["description"],
        "A JSON serialization file format"
    );
    // Loose names: `-` and `_` alike; Python names; bundled aliases.
    let serde_json = resolve(&host, "serde-json");
    assert_eq!(ids(&serde_json)[0], "/crates/serde_json@1.0.128");
    assert_eq!(serde_json["libraries"][0]["match"], "similar name");
    let serde = resolve(&host, "serde");
    assert_eq!(ids(&serde)[0], "/crates/serde@1.0.219");
    assert_eq!(
        serde["libraries"][0]["description"],
        "A generic serialization/deserialization framework"
    );
    assert_eq!(
        ids(&resolve(&host, "psf/requests")),
        ["/pypi/requests@2.32.3"]
    );
    assert_eq!(
        resolve(&host, "requests")["libraries"][0]["description"],
        "Python HTTP for Humans."
    );
    assert_eq!(
        ids(&resolve(&host, "secretary")),
        ["/bundled/copilot-chat-secretary@0.1.0"]
    );
    // A local id resolves to itself.
    assert_eq!(
        ids(&resolve(&host, "/npm/playwright@1.48.0")),
        ["/npm/playwright@1.48.0"]
    );
}

#[test]
fn sections_are_scored_with_the_heading_bonus() {
    let host = workspace();
    let result = docs_about(&host, "/npm/playwright@1.48.0", "how do I use a locator");
    assert_answered_in(&result, "search");
    assert_eq!(result["libraryId"], "/npm/playwright@1.48.0");
    assert_eq!(result["version"], "1.48.0");
    // "Writing tests" says "locator" three times: 3. "Locators" says it once (in its heading),
    // +2 because the heading has it: 3. Equal scores keep document order.
    let picked = pairs(&result["sections"], "heading", "score");
    assert_eq!(
        picked,
        [
            ("Writing tests".to_string(), 3),
            ("Locators".to_string(), 3)
        ]
    );
    // With two terms in the heading's favour it wins outright.
    let result = docs_about(&host, "/npm/playwright@1.48.0", "locators page");
    let first = &result["sections"][0];
    assert_eq!(first["heading"], "Locators", "{result}");
    assert_eq!(first["file"], "README.md");
    // "locators": 1 in text + 2 heading; "page": 1 (page.getByRole) → 4.
    assert_eq!(first["score"], 4);
    let text = result["text"].as_str().unwrap();
    assert!(
        text.starts_with("## Locators\n\nCreate one with page.getByRole."),
        "{text}"
    );
    // docs/ markdown is searched too (the .txt is not).
    let api = docs_about(&host, "/npm/playwright@1.48.0", "goto");
    assert_eq!(api["sections"][0]["file"], "docs/api.md", "{api}");
    assert_eq!(api["sections"][0]["heading"], "page.goto");
    // README: 5 sections; docs/api.md: 2 (its preamble is only a title).
    assert_eq!(api["totalSections"], 7);
    // A `## ` line inside a code fence is not a heading.
    let sections = sections::split("README.md", PLAYWRIGHT_README);
    let headings: Vec<&str> = sections.iter().map(|s| s.heading.as_str()).collect();
    assert_eq!(headings, PLAYWRIGHT_HEADINGS);
}

#[test]
fn scoring_counts_occurrences_and_the_heading() {
    let section = sections::Section {
        file: "a.md".into(),
        heading: "Retry".into(),
        text: "## Retry\n\nretry once, retry twice".into(),
    };
    let terms = sections::terms("Retry");
    assert_eq!(sections::score(&section, &terms), 3 + 2);
    assert_eq!(sections::score(&section, &sections::terms("twice")), 1);
    assert_eq!(sections::score(&section, &sections::terms("never")), 0);
}

#[test]
fn at_most_eight_sections_best_first() {
    let mut doc = String::from("# Big\n\nIntro.\n");
    for i in 1..=12 {
        doc.push_str(&format!("\n## Part {i}\n\n{}\n", "word ".repeat(i)));
    }
    let sections = sections::split("big.md", &doc);
    let picked = sections::select(&sections, Some("word"), 100_000);
    assert_eq!(picked.mode, sections::Mode::Search);
    assert_eq!(picked.picks.len(), sections::TOP_SECTIONS);
    // Part 12 has the most occurrences.
    assert_eq!(sections[picked.picks[0].0].heading, "Part 12");
    assert_eq!(sections[picked.picks[7].0].heading, "Part 5");
    assert!(!picked.truncated);
}

#[test]
fn max_chars_bounds_the_text() {
    let host = workspace();
    for max in [30u32, 120, 250, 1000] {
        let result = docs(
            &host,
            json!({"libraryId": "/npm/playwright@1.48.0", "query": "locator page", "maxChars": max}),
        );
        assert_eq!(result["success"], true, "{result}");
        let text = result["text"].as_str().unwrap();
        assert!(
            text.chars().count() <= max as usize,
            "{max}: {} chars",
            text.chars().count()
        );
        assert!(!text.is_empty(), "{max}");
        assert_eq!(result["maxChars"], max);
    }
    let small = docs(
        &host,
        json!({"libraryId": "/npm/playwright@1.48.0", "query": "locator", "maxChars": 30}),
    );
    assert_eq!(small["truncated"], true);
    assert!(str_at(&small, "text").ends_with(sections::CUT_MARK));
    let whole = docs_about(&host, "/npm/playwright@1.48.0", "locator");
    assert_eq!(whole["truncated"], false);
    assert_eq!(whole["maxChars"], 4000);
    // More than the cap is capped.
    let capped = docs(
        &host,
        json!({"libraryId": "/npm/playwright@1.48.0", "maxChars": 4_000_000}),
    );
    assert_eq!(capped["maxChars"], 50_000);
}

#[test]
fn no_match_gives_an_overview_of_the_first_sections() {
    let host = workspace();
    let result = docs_about(&host, "/npm/playwright@1.48.0", "kubernetes");
    assert_answered_in(&result, "overview");
    let headings = strs(&result["sections"], "heading");
    assert_eq!(headings, PLAYWRIGHT_HEADINGS);
    assert!(result["sections"][0].get("score").is_none());
    assert!(str_at(&result, "message")
        .contains("No section of /npm/playwright@1.48.0 mentions \"kubernetes\""));
    // No query at all: the same overview, without the message.
    let plain = docs(&host, json!({"libraryId": "/npm/playwright@1.48.0"}));
    assert_eq!(plain["mode"], "overview");
    assert!(plain.get("message").is_none());
    assert!(plain["text"].as_str().unwrap().starts_with("# Playwright"));
}

#[test]
fn ids_are_version_exact() {
    let host = workspace();
    let other = docs_about(&host, "/npm/playwright@1.40.0", "locator");
    assert_eq!(other["success"], false);
    assert_eq!(other["error_type"], "version_mismatch");
    assert_eq!(
        other["error"],
        "/npm/playwright@1.40.0 is not installed: this workspace has /npm/playwright@1.48.0. Docs are only given for \
         the installed version."
    );
    // An older version unpacked in the registry but not locked by the workspace is not "installed".
    let old = docs(&host, json!({"libraryId": "/crates/serde@1.0.100"}));
    assert_eq!(old["error_type"], "version_mismatch", "{old}");
    // Without a version: the installed one, named exactly in the answer.
    let any = docs(&host, json!({"libraryId": "/npm/playwright"}));
    assert_eq!(any["libraryId"], "/npm/playwright@1.48.0");
    // Crates read the README their Cargo.toml names; Python packages their description; bundled docs.
    let serde = docs_about(&host, "/crates/serde@1.0.219", "derive");
    assert_eq!(serde["sections"][0]["file"], "crates-io.md", "{serde}");
    assert_eq!(serde["sections"][0]["heading"], "Derive");
    let requests = docs_about(&host, "/pypi/requests@2.32.3", "session cookies");
    assert_eq!(requests["sections"][0]["heading"], "Sessions", "{requests}");
    assert_eq!(
        requests["sections"][0]["file"],
        "requests-2.32.3.dist-info/METADATA"
    );
    let scoped = docs(&host, json!({"libraryId": "/npm/@playwright/test@1.48.0"}));
    assert_eq!(scoped["name"], "@playwright/test", "{scoped}");
    let bundled = docs_about(&host, "/bundled/copilot-chat-secretary@0.1.0", "memory");
    assert_eq!(bundled["sections"][0]["heading"], "Memory", "{bundled}");
}

#[test]
fn errors_say_what_is_wrong() {
    let host = workspace();
    let unknown = docs(&host, json!({"libraryId": "/npm/lodash@4.17.21"}));
    assert_eq!(unknown["error_type"], "not_found");
    let error = unknown["error"].as_str().unwrap();
    assert!(error.starts_with("Library not found: /npm/lodash@4.17.21. Local libraries: /npm/@playwright/test@1.48.0, "), "{error}");
    assert!(
        error.contains("/crates/serde@1.0.219") && error.contains("/pypi/requests@2.32.3"),
        "{error}"
    );
    let invalid = docs(&host, json!({"libraryId": "playwright"}));
    assert_eq!(invalid["error_type"], "invalid_arguments");
    let error = invalid["error"].as_str().unwrap();
    assert!(
        error.starts_with("Invalid libraryId \"playwright\": ids look like /npm/playwright@1.48.0"),
        "{error}"
    );
    assert!(
        error.ends_with("Did you mean /npm/playwright@1.48.0?"),
        "{error}"
    );
    let no_docs = docs(&host, json!({"libraryId": "/npm/left-pad@1.3.0"}));
    assert_eq!(no_docs["error_type"], "no_docs");
    assert_eq!(
        no_docs["error"],
        "/npm/left-pad@1.3.0 has no README or markdown docs to read."
    );
    let zero = docs(
        &host,
        json!({"libraryId": "/npm/playwright@1.48.0", "maxChars": 0}),
    );
    assert_eq!(
        zero["error"],
        "Invalid arguments: `maxChars` must be 1 or greater"
    );
    let missing = docs(&host, json!({"query": "x"}));
    assert_eq!(missing["success"], false);
    assert!(
        missing["error"].as_str().unwrap().contains("libraryId"),
        "{missing}"
    );
    let extra = resolve_with(&host, json!({"libraryName": "pw", "version": "1"}));
    assert!(
        extra["error"].as_str().unwrap().contains("version"),
        "{extra}"
    );
    let empty = resolve(&host, "  ");
    assert_eq!(empty["error_type"], "invalid_arguments");
    // Without a host: the shared "no file access" failure.
    let ctx = ToolContext::new(None, None);
    let no_host = answer(&ctx, "resolve_library_id", json!({"libraryName": "pw"}));
    assert_eq!(no_host["error_type"], "host_unavailable");
    // An empty window (no workspace) still has the bundled docs.
    let bare = MemoryHost::new().without_area(Area::Workspace);
    bare.put(
        Area::Bundled,
        "copilot-chat-secretary/tools.md",
        "# Tools\n\n## Memory\n\nNotes.\n",
    );
    assert_eq!(
        ids(&resolve(&bare, "copilot-chat-secretary")),
        ["/bundled/copilot-chat-secretary"]
    );
}

fn resolve_with(host: &MemoryHost, args: Value) -> Value {
    call(host, "resolve_library_id", args)
}

#[test]
fn context7_search_goes_through_a_pending_fetch() {
    let host = workspace();
    let pending = resolve(&host, "next.js");
    assert_eq!(pending["success"], false);
    assert_eq!(pending["error_type"], "fetch_pending", "{pending}");
    assert!(
        pending["error"].as_str().unwrap().contains(SEARCH_URL_NEXT),
        "{pending}"
    );
    let requests = host.http_requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].url, SEARCH_URL_NEXT);
    assert_eq!(requests[0].timeout_ms, 10_000);
    assert!(requests[0]
        .headers
        .iter()
        .all(|(name, _)| name != "Authorization"));
    // The host fetched it; the same call now reads the answer (unknown fields ignored).
    host.set_http(
        SEARCH_URL_NEXT,
        ok(r#"{"results": [
            {"id": "/vercel/next.js", "title": "Next.js", "description": "The React Framework", "branch": "canary",
             "totalSnippets": 3000, "trustScore": 10, "benchmarkScore": 91.5, "versions": ["v15.1.8", "v14.3.0"], "state": "finalized"},
            {"id": "/websites/nextjs", "title": "Next.js docs", "stars": -1},
            {"id": "not-an-id", "title": "dropped"},
            {"title": "no id"}
        ], "extra": true}"#),
    );
    let result = resolve(&host, "next.js");
    assert_eq!(result["success"], true, "{result}");
    assert_eq!(result["source"], "context7");
    assert_eq!(
        result["libraries"],
        json!([
            {"libraryId": "/vercel/next.js", "name": "Next.js", "description": "The React Framework", "totalSnippets": 3000,
             "trustScore": 10, "benchmarkScore": 91.5, "versions": ["v15.1.8", "v14.3.0"]},
            {"libraryId": "/websites/nextjs", "name": "Next.js docs"}
        ])
    );
    assert!(str_at(&result, "instruction").contains("/vercel/next.js"));
    assert!(str_at(&result, "message").starts_with("No local library matches \"next.js\""));
    // No results: not found, with the local libraries.
    host.set_http(SEARCH_URL_NEXT, ok(r#"{"results": []}"#));
    let none = resolve(&host, "next.js");
    assert_eq!(none["error_type"], "not_found");
    assert!(str_at(&none, "error")
        .starts_with("No library matches \"next.js\", locally or on Context7. Local libraries: "));
    // An answer that is not a search answer.
    host.set_http(SEARCH_URL_NEXT, ok("<html>"));
    assert_eq!(resolve(&host, "next.js")["error_type"], "context7_error");
}

#[test]
fn network_errors_answer_with_the_local_libraries() {
    let host = workspace();
    host.set_http(
        SEARCH_URL_NEXT,
        Err(HostError::new(
            HostErrorKind::Network,
            "connect ECONNREFUSED 127.0.0.1:9",
        )),
    );
    let result = resolve(&host, "next.js");
    assert_eq!(result["success"], false);
    assert_eq!(result["error_type"], "network_error");
    assert_eq!(
        result["error"],
        "No local library matches \"next.js\", and Context7 (https://context7.com) could not be reached: connect \
         ECONNREFUSED 127.0.0.1:9. Local libraries: /npm/@playwright/test@1.48.0, /npm/left-pad@1.3.0, \
         /npm/playwright@1.48.0, /npm/playwright-core@1.48.0, /crates/serde@1.0.219, /crates/serde_json@1.0.128, \
         /pypi/requests@2.32.3, /bundled/copilot-chat-secretary@0.1.0."
    );
    // HTTP errors say what Context7 said.
    host.set_http(
        SEARCH_URL_NEXT,
        Ok(HttpResponse {
            status: 429,
            body: r#"{"error": "rate_limited", "message": "Rate limited."}"#.into(),
        }),
    );
    let limited = resolve(&host, "next.js");
    assert_eq!(limited["error_type"], "context7_error");
    assert!(
        str_at(&limited, "error")
            .contains("Context7 answered HTTP 429: Rate limited. Local libraries:"),
        "{limited}"
    );
    // A host without HTTP at all answers the same way.
    let offline = MemoryHost::new();
    struct NoHttp<'a>(&'a MemoryHost);
    impl secretary_core::host::Host for NoHttp<'_> {
        fn read(&self, area: Area, path: &str) -> Result<Option<Vec<u8>>, HostError> {
            self.0.read(area, path)
        }
        fn write_atomic(&self, area: Area, path: &str, bytes: &[u8]) -> Result<(), HostError> {
            self.0.write_atomic(area, path, bytes)
        }
        fn remove(&self, area: Area, path: &str) -> Result<bool, HostError> {
            self.0.remove(area, path)
        }
        fn list(&self, area: Area, dir: &str, recursive: bool) -> Result<Vec<String>, HostError> {
            self.0.list(area, dir, recursive)
        }
        fn setting(&self, key: &str) -> Option<Value> {
            self.0.setting(key)
        }
    }
    let no_http = NoHttp(&offline);
    let ctx = ToolContext::new(None, None).with_host(&no_http);
    let none = answer(
        &ctx,
        "resolve_library_id",
        json!({"libraryName": "next.js"}),
    );
    assert_eq!(none["error_type"], "network_error", "{none}");
    assert!(none["error"].as_str().unwrap().contains("could not be reached: This host cannot make HTTP requests. No local libraries were found"), "{none}");
}

#[test]
fn the_context7_switch_and_settings() {
    let host = workspace();
    host.set_setting(context7::SETTING_ENABLED, json!(false));
    let off = resolve(&host, "next.js");
    assert_eq!(off["error_type"], "not_found");
    assert!(off["error"].as_str().unwrap().starts_with(
        "No local library matches \"next.js\", and the Context7 fallback is off (setting \
         copilotChatSecretary.libraryDocs.context7.enabled). Local libraries: "
    ));
    let remote_off = docs(&host, json!({"libraryId": "/vercel/next.js"}));
    assert_eq!(remote_off["error_type"], "not_found");
    assert!(str_at(&remote_off, "error")
        .starts_with("/vercel/next.js is not a local library, and the Context7 fallback is off"));
    assert!(host.http_requests().is_empty(), "no request when off");

    let host = workspace();
    host.set_setting(context7::SETTING_BASE_URL, json!("http://127.0.0.1:8080/"));
    host.set_setting(context7::SETTING_TIMEOUT, json!(5));
    host.set_setting(context7::SETTING_API_KEY, json!("ctx7sk-test"));
    resolve(&host, "pydantic");
    let request = &host.http_requests()[0];
    assert_eq!(
        request.url,
        "http://127.0.0.1:8080/api/v2/libs/search?libraryName=pydantic&query=pydantic"
    );
    assert_eq!(request.timeout_ms, context7::MIN_TIMEOUT_MS, "clamped");
    assert!(request.headers.contains(&(
        "Authorization".to_string(),
        "Bearer ctx7sk-test".to_string()
    )));
    host.set_setting(context7::SETTING_BASE_URL, json!("ftp://example.com"));
    let bad = resolve(&host, "pydantic");
    assert_eq!(bad["error_type"], "invalid_setting");
    assert_eq!(
        bad["error"],
        "The Context7 base URL \"ftp://example.com\" is not an http(s) URL (setting copilotChatSecretary.libraryDocs.context7.baseUrl)"
    );
}

#[test]
fn context7_docs_for_remote_ids() {
    let host = workspace();
    let url = "https://context7.com/api/v2/context?libraryId=%2Fvercel%2Fnext.js&query=app%20router&type=txt&tokens=34";
    let pending = docs(
        &host,
        json!({"libraryId": "/vercel/next.js", "query": "app router", "maxChars": 100}),
    );
    assert_eq!(pending["error_type"], "fetch_pending", "{pending}");
    assert_eq!(host.http_requests()[0].url, url);
    let body = "### App Router\n\nThe App Router uses the app directory.\n".repeat(10);
    host.set_http(url, ok(&body));
    let result = docs(
        &host,
        json!({"libraryId": "/vercel/next.js", "query": "app router", "maxChars": 100}),
    );
    assert_eq!(result["success"], true, "{result}");
    assert_eq!(result["source"], "context7");
    assert_eq!(result["libraryId"], "/vercel/next.js");
    assert_eq!(result["truncated"], true);
    assert!(result["text"].as_str().unwrap().chars().count() <= 100);
    assert!(str_at(&result, "text").starts_with("### App Router"));
    // No query: the library's name is the question.
    docs(&host, json!({"libraryId": "/vercel/next.js"}));
    assert!(host
        .http_requests()
        .last()
        .unwrap()
        .url
        .contains("query=next.js&type=txt&tokens=1334"));
    // Unknown to Context7, empty answers, network errors.
    host.set_http(
        url,
        Ok(HttpResponse {
            status: 404,
            body: r#"{"message": "Library not found"}"#.into(),
        }),
    );
    let missing = docs(
        &host,
        json!({"libraryId": "/vercel/next.js", "query": "app router", "maxChars": 100}),
    );
    assert_eq!(missing["error_type"], "not_found");
    assert!(missing["error"].as_str().unwrap().starts_with("Could not get the docs of /vercel/next.js: Context7 answered HTTP 404: Library not found. Local libraries:"), "{missing}");
    host.set_http(url, ok("No content available"));
    let empty = docs(
        &host,
        json!({"libraryId": "/vercel/next.js", "query": "app router", "maxChars": 100}),
    );
    assert_eq!(
        empty["error"],
        "Context7 has no documentation for /vercel/next.js about \"app router\"."
    );
    host.set_http(
        url,
        Err(HostError::new(
            HostErrorKind::Network,
            "The operation was aborted due to timeout",
        )),
    );
    let timeout = docs(
        &host,
        json!({"libraryId": "/vercel/next.js", "query": "app router", "maxChars": 100}),
    );
    assert_eq!(timeout["error_type"], "network_error");
    assert!(timeout["error"].as_str().unwrap().contains("could not be reached: The operation was aborted due to timeout. Local libraries: /npm/"), "{timeout}");
}

#[test]
fn cargo_toml_without_a_lock_takes_the_highest_unpacked_version() {
    let host = MemoryHost::new();
    host.put(
        Area::Workspace,
        "Cargo.toml",
        "[package]\nname = \"app\"\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n\
         json = { package = \"serde_json\", version = \"1\" } # renamed\n\n[dependencies.tokio]\nversion = \"1\"\n",
    );
    for folder in [
        "serde-1.0.100",
        "serde-1.0.219",
        "serde-1.0.99",
        "serde_json-1.0.128",
        "serde_derive-1.0.219",
    ] {
        host.put(
            Area::CargoRegistry,
            &format!("{REGISTRY}/{folder}/README.md"),
            "# x\n\n## A\n\nb\n",
        );
    }
    assert_eq!(
        discovered(&host),
        ["/crates/serde@1.0.219", "/crates/serde_json@1.0.128"]
    );
    assert_eq!(
        local::cargo_toml_dependencies("[workspace.dependencies]\nserde = \"1\"\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n[dev-dependencies]\n\"quoted\" = \"1\"\n"),
        ["serde", "libc", "quoted"]
    );
}

#[test]
fn python_metadata_is_read() {
    let meta = local::python_metadata(REQUESTS_METADATA);
    assert_eq!(meta.name.as_deref(), Some("requests"));
    assert_eq!(meta.version.as_deref(), Some("2.32.3"));
    assert_eq!(meta.repository.as_deref(), Some("psf/requests"));
    assert!(meta.description.starts_with("# Requests"));
    // Older metadata: the description is a header with continuation lines.
    let old = local::python_metadata("Name: six\nVersion: 1.16.0\nDescription: Six\n       |\n       |## Usage\n       |Use it.\n");
    assert_eq!(old.description, "Six\n\n## Usage\nUse it.");
}

#[test]
fn the_tools_are_deferred() {
    let catalog = Catalog::new("chat_secretary_", Vec::new(), &[]);
    let host = workspace();
    let ctx = ToolContext::new(None, None)
        .with_host(&host)
        .with_catalog(&catalog);
    let before = answer(
        &ctx,
        "chat_secretary_resolve_library_id",
        json!({"libraryName": "pw"}),
    );
    assert_eq!(before["error_type"], "not_loaded");
    let loaded = answer(
        &ctx,
        "chat_secretary_tool_load",
        json!({"names": ["chat_secretary_resolve_library_id", "chat_secretary_get_library_docs"]}),
    );
    assert_eq!(loaded["success"], true, "{loaded}");
    let after = answer(
        &ctx,
        "chat_secretary_resolve_library_id",
        json!({"libraryName": "pw"}),
    );
    assert_eq!(after["success"], true, "{after}");
}

/// The bundled docs shipped in the VSIX are this extension's own, and name every tool.
#[test]
fn the_bundled_docs_name_every_tool() {
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../resources/library-docs/copilot-chat-secretary"
    );
    let library: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{root}/library.json")).expect("library.json"),
    )
    .expect("JSON");
    assert!(library["aliases"].as_array().is_some_and(|a| !a.is_empty()));
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../package.json"))
            .expect("package.json"),
    )
    .expect("JSON");
    assert_eq!(
        library["version"], manifest["version"],
        "library.json's version is the extension's"
    );
    let text = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    for tool in secretary_core::tools::ALL
        .iter()
        .filter(|tool| !tool.spec.example)
    {
        assert!(
            text.contains(&format!("`{}`", tool.spec.name)),
            "the bundled docs miss `{}`",
            tool.spec.name
        );
    }
}
