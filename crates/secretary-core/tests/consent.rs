//! Explicit consent for destructive tools, and the example tools that demonstrate it.

#[path = "common/json.rs"]
mod json;

use json::{answer, assert_has, named, str_at, strs};
use secretary_core::host::{Area, MemoryHost};
use secretary_core::registry::{invoke, language_model_tools, listing, listing_for};
use secretary_core::toolkit::{description, ToolContext};
use secretary_core::tools::ALL;
use serde_json::{json, Value};

fn call(host: &MemoryHost, examples: bool, name: &str, args: Value) -> Value {
    let ctx = ToolContext::new(None, None)
        .with_host(host)
        .with_examples(examples);
    invoke(name, &args, &ctx).to_value()
}

#[test]
fn every_destructive_tool_declares_its_literal_and_why() {
    let mut destructive = 0;
    for tool in ALL {
        let spec = &tool.spec;
        assert_eq!(
            spec.destructive,
            spec.consent.is_some(),
            "{}: destructive iff consent",
            spec.name
        );
        let Some(consent) = spec.consent else {
            continue;
        };
        destructive += 1;
        let text = description(spec);
        assert!(
            text.starts_with("REQUIRES EXPLICIT USER INSTRUCTION"),
            "{}",
            spec.name
        );
        assert!(
            text.contains(consent.why),
            "{}: the why is in the description",
            spec.name
        );
        assert!(
            text.contains(&format!("`\"{}\": \"{}\"`", consent.field, consent.value)),
            "{}",
            spec.name
        );
        // The schema requires the field (unless only one command needs it) and shows the value.
        let schema = (spec.schema)();
        assert_eq!(
            schema["required"]
                .as_array()
                .unwrap()
                .contains(&json!(consent.field)),
            consent.only_when.is_none(),
            "{}",
            spec.name
        );
        assert_eq!(
            schema["properties"][consent.field]["const"], consent.value,
            "{}",
            spec.name
        );
    }
    assert!(
        destructive >= 1,
        "at least one tool proves the consent rule"
    );
}

#[test]
fn a_destructive_tool_runs_only_with_the_exact_literal() {
    let host = MemoryHost::new();
    for _ in 0..3 {
        call(&host, true, "example_echo", json!({"text": "hi"}));
    }
    assert!(host.text(Area::GlobalState, "examples/echo.json").is_some());
    for args in [
        json!({}),
        json!({"confirm": "yes"}),
        json!({"confirm": "reset_examples"}),
        json!({"confirm": true}),
    ] {
        let refused = call(&host, true, "example_reset", args.clone());
        assert_eq!(refused["success"], false, "{args}");
        assert_eq!(refused["error_type"], "consent_required");
        let error = refused["error"].as_str().unwrap();
        assert_has(error, "`confirm` must be exactly \"RESET_EXAMPLES\"");
        assert!(error.contains("cannot be undone"), "{error}");
        assert!(
            str_at(&refused, "instruction").contains("Ask the user"),
            "{refused}"
        );
        assert!(
            host.text(Area::GlobalState, "examples/echo.json").is_some(),
            "nothing was deleted"
        );
    }
    let done = call(
        &host,
        true,
        "example_reset",
        json!({"confirm": "RESET_EXAMPLES"}),
    );
    assert_eq!(
        done,
        json!({"success": true, "removed": true, "previousCount": 3})
    );
    assert!(host.text(Area::GlobalState, "examples/echo.json").is_none());
}

#[test]
fn example_tools_exist_only_when_included() {
    let host = MemoryHost::new();
    let hidden = call(&host, false, "example_echo", json!({"text": "hi"}));
    assert_eq!(
        hidden,
        json!({"success": false, "error": "Tool not found: example_echo", "error_type": "not_found"})
    );
    let hidden = call(
        &host,
        false,
        "chat_secretary_example_reset",
        json!({"confirm": "RESET_EXAMPLES"}),
    );
    assert_eq!(hidden["error_type"], "not_found");
    let shown = call(&host, true, "example_echo", json!({"text": "hi"}));
    assert_eq!(
        shown,
        json!({"success": true, "echo": "hi", "count": 1, "persisted": true})
    );
    // Without file access the echo still works.
    let bare = invoke(
        "example_echo",
        &json!({"text": "x"}),
        &ToolContext::new(None, None).with_examples(true),
    );
    assert_eq!(bare.to_value()["persisted"], false);

    let names = |value: Value| strs(&value, "name");
    assert!(!names(listing()).iter().any(|n| n.starts_with("example_")));
    let with = names(listing_for(true));
    assert!(
        with.contains(&"example_echo".to_string()) && with.contains(&"example_reset".to_string())
    );
    let entry = named(&listing_for(true), "example_reset").clone();
    assert_eq!(entry["example"], true);
    assert_eq!(entry["consent"]["value"], "RESET_EXAMPLES");
    // VS Code needs every tool in the manifest: example tools are contributed behind the setting.
    for tool in language_model_tools().as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        if name.contains("example_") {
            assert_eq!(
                tool["when"], "config.copilotChatSecretary.includeExampleTools",
                "{name}"
            );
        } else if tool["when"].is_string() {
            // Deferred tools follow the context key tool_load sets (registry::listing tests it).
            assert!(
                tool["when"]
                    .as_str()
                    .is_some_and(|w| w.starts_with("copilotChatSecretary.loaded.")),
                "{name}"
            );
        }
    }
}

#[test]
fn example_tools_are_not_discoverable_but_callable_when_included() {
    use secretary_core::toolkit::catalog::Catalog;
    let catalog = Catalog::new("chat_secretary_", Vec::new(), &[]);
    assert!(!catalog.tools().iter().any(|t| t.name.contains("example_")));
    let host = MemoryHost::new();
    let hidden = ToolContext::new(None, None)
        .with_host(&host)
        .with_catalog(&catalog);
    let result = answer(&hidden, "chat_secretary_example_echo", json!({"text": "x"}));
    assert_eq!(result["error_type"], "not_found");
    let shown = hidden.with_examples(true);
    let result = answer(&shown, "chat_secretary_example_echo", json!({"text": "x"}));
    assert_eq!(result["echo"], "x");
    // Consent holds on the catalog path too.
    let refused = answer(&shown, "chat_secretary_example_reset", json!({}));
    assert_eq!(refused["error_type"], "consent_required");
}
