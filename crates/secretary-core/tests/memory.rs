//! `memory` over the in-memory host: every command, every refused name, the size limits, the
//! per-command consent of `delete`, and deferred gating through a catalog.

#[path = "common/json.rs"]
mod json;

use json::{assert_has, call_bare, named, str_at};
use secretary_core::host::{Area, MemoryHost};
use secretary_core::memory::{MAX_NOTES, MAX_NOTE_BYTES};
use secretary_core::registry::{invoke, listing, lookup};
use secretary_core::toolkit::catalog::Catalog;
use secretary_core::toolkit::{description, Lookup, ToolContext};
use serde_json::{json, Value};

fn call(host: &MemoryHost, args: Value) -> Value {
    let ctx = ToolContext::new(None, None).with_host(host);
    invoke("memory", &args, &ctx).to_value()
}

fn ok(host: &MemoryHost, args: Value) -> Value {
    let result = call(host, args.clone());
    assert_eq!(result["success"], true, "{args}: {result}");
    result
}

/// `save` of `content` under the name `path`, whatever it answers.
fn save(host: &MemoryHost, path: &str, content: &str) -> Value {
    call(
        host,
        json!({ "command": "save", "path": path, "content": content }),
    )
}

/// `save`, asserting that it succeeded.
fn saved(host: &MemoryHost, path: &str, content: &str) -> Value {
    ok(
        host,
        json!({ "command": "save", "path": path, "content": content }),
    )
}

/// `delete` of the note `path`, confirmed with the exact literal, whatever it answers.
fn delete(host: &MemoryHost, path: &str) -> Value {
    call(
        host,
        json!({ "command": "delete", "path": path, "confirm": "DELETE_MEMORY" }),
    )
}

fn error(result: &Value) -> &str {
    assert_eq!(result["success"], false, "{result}");
    result["error"].as_str().unwrap()
}

#[test]
fn save_read_list_delete() {
    let host = MemoryHost::new();
    let empty = ok(&host, json!({"command": "list"}));
    assert_eq!(
        empty,
        json!({"success": true, "total": 0, "notes": [], "maxNotes": 500, "message": "No notes saved yet."})
    );

    let first = saved(&host, "conventions", "- Tests use vitest.\n");
    assert_eq!(
        first,
        json!({"success": true, "path": "conventions.md", "bytes": 20, "created": true})
    );
    assert_eq!(
        host.text(Area::GlobalState, "memory/conventions.md")
            .as_deref(),
        Some("- Tests use vitest.\n"),
        "stored under memory/ of the global state area"
    );
    assert_eq!(host.writes(), 1, "one atomic write");

    // With or without the extension it is the same note; save replaces.
    let replaced = saved(&host, "conventions.md", "v2");
    assert_eq!(replaced["created"], false);
    let read = ok(&host, json!({"command": "read", "path": "conventions"}));
    assert_eq!(
        read,
        json!({"success": true, "path": "conventions.md", "content": "v2", "bytes": 2})
    );

    saved(&host, "log.txt", "x");
    host.set_modified(Area::GlobalState, "memory/log.txt", 1_760_520_001_000);
    // Files that are not notes (a host's temporary file, a folder's content) are not listed.
    host.put(
        Area::GlobalState,
        "memory/.conventions.md.123.tmp",
        "partial",
    );
    host.put(Area::GlobalState, "memory/sub/deep.md", "no");
    let list = ok(&host, json!({"command": "list"}));
    assert_eq!(
        list,
        json!({"success": true, "total": 2, "maxNotes": 500, "notes": [
            {"path": "conventions.md", "bytes": 2},
            {"path": "log.txt", "bytes": 1, "modified": "2025-10-15T09:20:01.000Z"}
        ]})
    );

    let deleted = delete(&host, "log.txt");
    assert_eq!(
        deleted,
        json!({"success": true, "path": "log.txt", "deleted": true})
    );
    assert!(host.text(Area::GlobalState, "memory/log.txt").is_none());
    let gone = call(&host, json!({"command": "read", "path": "log.txt"}));
    assert_eq!(error(&gone), "Memory not found: log.txt");
    assert_eq!(gone["error_type"], "not_found");
    assert!(gone["instruction"].as_str().unwrap().contains("list"));
    let again = delete(&host, "log.txt");
    assert_eq!(error(&again), "Memory not found: log.txt");
}

#[test]
fn unicode_names_and_case_conflicts() {
    let host = MemoryHost::new();
    let umlaut = saved(&host, "Über Notizen", "ä");
    assert_eq!(umlaut["path"], "Über Notizen.md");
    assert_eq!(umlaut["bytes"], 2, "bytes of UTF-8");
    let conflict = save(&host, "über notizen", "x");
    assert_eq!(conflict["error_type"], "conflict");
    assert!(error(&conflict).contains("\"Über Notizen.md\" already exists"));
    let wrong_case = call(&host, json!({"command": "read", "path": "über notizen"}));
    assert!(str_at(&wrong_case, "instruction").contains("Did you mean \"Über Notizen.md\""));
    // A version number is not an extension.
    assert_eq!(saved(&host, "release v1.2", "")["path"], "release v1.2.md");
}

#[test]
fn unsafe_names_are_refused_and_nothing_is_written() {
    let host = MemoryHost::new();
    let cases = [
        ("../x", "it is a path"),
        ("../../etc/passwd", "it is a path"),
        ("/etc/passwd", "it is a path"),
        ("C:\\Windows\\x", "it is a path"),
        ("notes/sub", "it is a path"),
        ("C:x", "the character ':' is not allowed"),
        ("a\0b", "control character"),
        ("line\nbreak", "control character"),
        ("", "it is empty"),
        ("   ", "it is empty"),
        (".", "dot-files"),
        ("..", "dot-files"),
        (".hidden", "dot-files"),
        (".conventions.md.tmp", "dot-files"),
        ("CON", "reserved device name"),
        ("nul", "reserved device name"),
        ("Com1", "reserved device name"),
        ("LPT9.txt", "reserved device name"),
        ("aux.md", "reserved device name"),
        ("what?", "the character '?' is not allowed"),
        ("a*b", "the character '*' is not allowed"),
        ("pipe|name", "the character '|' is not allowed"),
        ("trailing.", "it ends with `.`"),
        ("COM¹", "reserved device name"),
        ("lpt³.txt", "reserved device name"),
        ("Com².md", "reserved device name"),
        ("  leading", "it starts with a space"),
        ("trailing  ", "it ends with a space"),
    ];
    for (name, why) in cases {
        for command in ["save", "read", "delete"] {
            let result = call(
                &host,
                json!({"command": command, "path": name, "content": "x", "confirm": "DELETE_MEMORY"}),
            );
            let text = error(&result);
            assert!(
                text.starts_with(&format!("Invalid memory name {name:?}")),
                "{command} {name:?}: {text}"
            );
            assert!(text.contains(why), "{command} {name:?}: {text}");
            assert_eq!(result["error_type"], "invalid_arguments");
        }
    }
    let long = "a".repeat(126);
    let result = save(&host, &long, "x");
    assert!(error(&result).contains("too long (129 bytes; at most 128"));
    // 125 + ".md" = 128 bytes: the longest name.
    saved(&host, &"a".repeat(125), "x");
    // Not refused, but not special either: these are ordinary names.
    for fine in [
        "CONSOLE",
        "com10",
        "COM¹²",
        "nul-results",
        "a..b",
        "inner space",
    ] {
        saved(&host, fine, "x");
    }
    assert!(
        host.paths(Area::GlobalState)
            .iter()
            .all(|p| p.starts_with("memory/") && !p[7..].contains('/')),
        "{:?}",
        host.paths(Area::GlobalState)
    );
    assert!(host.paths(Area::Workspace).is_empty());
    assert!(host.paths(Area::WorkspaceState).is_empty());
}

#[test]
fn size_and_count_limits() {
    let host = MemoryHost::new();
    let max = "x".repeat(MAX_NOTE_BYTES);
    saved(&host, "big", &max);
    let over = save(&host, "big", &format!("{max}y"));
    assert_eq!(over["error_type"], "limit");
    assert_eq!(
        error(&over),
        "Note too large: 102401 bytes, at most 102400 bytes (100 KiB) of UTF-8. Nothing was saved; split it into \
         several notes or shorten it."
    );
    assert_eq!(
        host.text(Area::GlobalState, "memory/big.md").unwrap().len(),
        MAX_NOTE_BYTES,
        "unchanged"
    );
    // Multi-byte characters count as bytes.
    let wide = save(&host, "wide", &"é".repeat(MAX_NOTE_BYTES / 2 + 1));
    assert_eq!(wide["error_type"], "limit");

    for i in 1..MAX_NOTES {
        host.put(Area::GlobalState, &format!("memory/n{i}.md"), "x");
    }
    let full = save(&host, "one-more", "x");
    assert_eq!(full["error_type"], "limit");
    assert!(error(&full).starts_with("Too many notes: at most 500."));
    // Replacing an existing note is still allowed.
    saved(&host, "n1", "y");
    assert_eq!(ok(&host, json!({"command": "list"}))["total"], MAX_NOTES);
}

#[test]
fn delete_needs_the_exact_literal_and_the_other_commands_do_not() {
    let host = MemoryHost::new();
    saved(&host, "keep", "x");
    for confirm in [
        Value::Null,
        json!("yes"),
        json!("delete_memory"),
        json!(true),
    ] {
        let mut args = json!({"command": "delete", "path": "keep"});
        if !confirm.is_null() {
            args["confirm"] = confirm;
        }
        let refused = call(&host, args.clone());
        assert_eq!(refused["error_type"], "consent_required", "{args}");
        let text = error(&refused);
        assert!(
            text.starts_with(
                "Explicit user consent required: `confirm` must be exactly \"DELETE_MEMORY\""
            ),
            "{text}"
        );
        assert!(text.contains("cannot be undone"), "{text}");
        assert!(str_at(&refused, "instruction").contains("Ask the user"));
        assert!(host.text(Area::GlobalState, "memory/keep.md").is_some());
    }
    // The literal is not needed (nor harmful) for the other commands.
    ok(&host, json!({"command": "read", "path": "keep"}));
    ok(
        &host,
        json!({"command": "list", "confirm": "DELETE_MEMORY"}),
    );

    let spec = match lookup("memory") {
        Lookup::Found(def) => def.spec,
        _ => panic!("memory is a tool"),
    };
    let text = description(&spec);
    assert!(
        text.starts_with("REQUIRES EXPLICIT USER INSTRUCTION for `\"command\": \"delete\"`."),
        "{text}"
    );
    assert_has(&text, "pass `\"confirm\": \"DELETE_MEMORY\"`");
    let entry = named(&listing(), "memory").clone();
    assert_eq!(entry["deferred"], true);
    assert_eq!(
        entry["consent"]["when"],
        json!({"field": "command", "value": "delete"})
    );
    let schema = &entry["inputSchema"];
    assert_eq!(schema["required"], json!(["command"]));
    assert_eq!(
        schema["properties"]["command"]["enum"],
        json!(["save", "read", "list", "delete"])
    );
}

#[test]
fn argument_errors_name_what_is_missing_or_allowed() {
    let host = MemoryHost::new();
    let unknown = call(&host, json!({"command": "append", "path": "x"}));
    let text = error(&unknown);
    assert!(text.contains("`command`"), "{text}");
    assert_has(
        text,
        "unknown variant `append`, expected one of `save`, `read`, `list`, `delete`",
    );
    let none = call(&host, json!({}));
    assert!(error(&none).contains("missing field `command`"), "{none}");
    assert_eq!(
        error(&call(&host, json!({"command": "read"}))),
        "Invalid arguments: `path` is required for read (the note's name, e.g. \"conventions\")"
    );
    assert_eq!(
        error(&call(
            &host,
            json!({"command": "delete", "confirm": "DELETE_MEMORY"})
        )),
        "Invalid arguments: `path` is required for delete (the note's name, e.g. \"conventions\")"
    );
    assert_eq!(
        error(&call(&host, json!({"command": "save", "path": "x"}))),
        "Invalid arguments: `content` is required for save (the note's full text)"
    );
    let extra = call(&host, json!({"command": "list", "bogus": 1}));
    assert!(error(&extra).contains("bogus"), "{extra}");
    // Without file access, a clear failure.
    let bare = call_bare("memory", json!({"command": "list"}));
    assert_eq!(bare["error_type"], "host_unavailable");
    // Without a global state folder, the host's sentence.
    let no_global = MemoryHost::new().without_area(Area::GlobalState);
    let result = call(&no_global, json!({"command": "list"}));
    assert_eq!(result["error_type"], "host_unavailable");
    assert!(error(&result).contains("global state folder"), "{result}");
}

#[test]
fn a_crash_while_saving_keeps_the_old_note() {
    let host = MemoryHost::new();
    saved(&host, "n", "old");
    host.crash_next_write();
    let failed = save(&host, "n", "new");
    assert_eq!(failed["error_type"], "io_error");
    assert_eq!(
        ok(&host, json!({"command": "read", "path": "n"}))["content"],
        "old"
    );
    // The temporary file left behind is not a note.
    assert_eq!(ok(&host, json!({"command": "list"}))["total"], 1);
}

#[test]
fn memory_is_deferred_until_tool_load() {
    let catalog = Catalog::new("chat_secretary_", Vec::new(), &[]);
    let host = MemoryHost::new();
    let ctx = ToolContext::new(None, None)
        .with_host(&host)
        .with_catalog(&catalog);
    assert!(!catalog.is_active("chat_secretary_memory"));
    for name in ["chat_secretary_memory", "memory"] {
        let before = invoke(name, &json!({"command": "list"}), &ctx).to_value();
        assert_eq!(before["error_type"], "not_loaded", "{name}: {before}");
        assert_eq!(before["error"], "Tool chat_secretary_memory is not loaded.");
        assert_eq!(
            before["instruction"],
            "Load it first: call chat_secretary_tool_load with {\"names\": [\"chat_secretary_memory\"]}, then call it again."
        );
    }
    assert!(host.paths(Area::GlobalState).is_empty());
    let found = invoke(
        "chat_secretary_tool_find",
        &json!({"query": "remember notes across dialogs"}),
        &ctx,
    )
    .to_value();
    assert!(
        found["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "chat_secretary_memory" && t["active"] == false),
        "{found}"
    );
    let loaded = invoke(
        "chat_secretary_tool_load",
        &json!({"names": ["chat_secretary_memory"]}),
        &ctx,
    )
    .to_value();
    assert_eq!(
        loaded["loaded"],
        json!(["chat_secretary_memory"]),
        "{loaded}"
    );
    let saved = invoke(
        "chat_secretary_memory",
        &json!({"command": "save", "path": "x", "content": "y"}),
        &ctx,
    )
    .to_value();
    assert_eq!(saved["success"], true, "{saved}");
    // Consent holds on the catalog path too.
    let refused = invoke(
        "chat_secretary_memory",
        &json!({"command": "delete", "path": "x"}),
        &ctx,
    )
    .to_value();
    assert_eq!(refused["error_type"], "consent_required");
}
