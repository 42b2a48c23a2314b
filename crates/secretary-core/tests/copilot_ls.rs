//! The tools as client tools of `@github/copilot-language-server`: registrations its schema
//! validation accepts, no name of its own tools, and results in its wire format.

use std::collections::HashSet;

use secretary_core::registry::copilot_ls::{
    client_tool, client_tool_name, input_schema, is_reserved, registration, result_status,
    wrap_result, COLLISION_PREFIX, RESERVED_TOOL_NAMES,
};
use secretary_core::registry::visible_tools;
use secretary_core::toolkit::{ToolResult, ToolSpec};
use serde_json::{json, Value};

/// Every tool, example tools included.
fn all_registrations() -> Vec<Value> {
    registration(visible_tools(true).map(|tool| &tool.spec))
        .as_array()
        .cloned()
        .unwrap()
}

/// What the language server's TypeBox check (1.539.0) demands of one registered tool:
/// `{name: string, description: string, inputSchema?: {type: string, properties: {<p>: {type:
/// string, description: string}}, required: string[]}}`.
fn assert_accepted_by_the_language_server(tool: &Value) {
    let name = tool["name"].as_str().expect("name is a string");
    assert!(tool["description"].is_string(), "{name}: description");
    let schema = &tool["inputSchema"];
    assert_eq!(schema["type"], "object", "{name}: type");
    let required = schema["required"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: `required` is missing: {schema}"));
    assert!(required.iter().all(Value::is_string), "{name}: required");
    let properties = schema["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{name}: `properties` is missing"));
    for (property, value) in properties {
        assert!(
            value["type"].is_string(),
            "{name}.{property}: type must be one string: {value}"
        );
        assert!(
            value["description"].is_string(),
            "{name}.{property}: description"
        );
    }
    for entry in required {
        assert!(
            properties.contains_key(entry.as_str().unwrap()),
            "{name}: required {entry} is not a property"
        );
    }
}

#[test]
fn every_registration_has_required_and_fits_the_schema_rules() {
    let tools = all_registrations();
    assert!(tools.len() >= 20, "{}", tools.len());
    for entry in &tools {
        assert_accepted_by_the_language_server(&entry["tool"]);
        assert!(entry["plain"].is_string());
        assert!(entry["deferred"].is_boolean());
    }
    // Tools without arguments still send `properties: {}` and `required: []`.
    let active = tools
        .iter()
        .find(|entry| entry["plain"] == "tool_active")
        .expect("tool_active is registered");
    assert_eq!(active["tool"]["inputSchema"]["required"], json!([]));
    assert!(active["tool"]["inputSchema"]["properties"].is_object());
}

#[test]
fn no_registered_name_is_one_of_the_language_servers_tools() {
    let tools = all_registrations();
    let mut names = HashSet::new();
    for entry in &tools {
        let name = entry["tool"]["name"].as_str().unwrap();
        assert!(
            !is_reserved(name),
            "{name} would replace the language server's own tool"
        );
        assert!(names.insert(name.to_string()), "{name} registered twice");
    }
    // The ones this feature was asked about, by name.
    for builtin in [
        "insert_edit_into_file",
        "replace_string_in_file",
        "multi_replace_string",
        "create_file",
        "create_directory",
        "apply_patch",
        "read_file",
        "list_dir",
        "file_search",
        "grep_search",
        "find_test_files",
        "run_in_terminal",
        "run_tests",
        "fetch_web_page",
        "get_errors",
    ] {
        assert!(RESERVED_TOOL_NAMES.contains(&builtin), "{builtin}");
        assert!(!names.contains(builtin), "{builtin}");
    }
    // Plain names stay plain when they are free.
    assert_eq!(client_tool_name("get_first_request"), "get_first_request");
}

fn no_schema() -> Value {
    json!({"type": "object", "properties": {"path": {"type": "string"}}})
}

/// A spec that takes a built-in name is renamed, never registered as it is.
#[test]
fn a_spec_named_like_a_builtin_is_renamed() {
    let spec = ToolSpec {
        name: "read_file",
        reference_name: "readFile",
        display_name: "Read File",
        summary: "Reads a file.",
        when_to_use: &["Never: this spec only tests renaming."],
        usage: "None.",
        returns: "`{\"success\": true}`.",
        invocation_message: "Reading",
        schema: no_schema,
        ..ToolSpec::BASE
    };
    let tool = client_tool(&spec);
    assert_eq!(tool["name"], format!("{COLLISION_PREFIX}read_file"));
    assert!(!is_reserved(tool["name"].as_str().unwrap()));
    assert_accepted_by_the_language_server(&tool);
    // The property without a description got one, and `required` appeared.
    assert_eq!(
        tool["inputSchema"]["properties"]["path"]["description"],
        "path"
    );
    assert_eq!(tool["inputSchema"]["required"], json!([]));
    assert!(is_reserved("READ_FILE"), "compared without regard to case");
    let entry = &registration([&spec])[0];
    assert_eq!(entry["plain"], "read_file");
    assert_eq!(entry["tool"]["name"], "secretary_read_file");
}

/// Asserts the `type` of each property `expected` names (an object of name to type) in a fitted
/// schema's `properties`.
#[track_caller]
fn assert_types(properties: &Value, expected: Value) {
    let expected = expected.as_object().expect("expected types are an object");
    for (name, ty) in expected {
        assert_eq!(&properties[name]["type"], ty, "{name}: {properties}");
    }
}

#[test]
fn optional_properties_get_one_type_and_lose_null() {
    let schema = json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "sessionId": {"type": ["string", "null"], "description": "The session."},
            "state": {"type": ["string", "null"], "enum": ["all", "staged", null], "description": "Which."},
            "value": {"type": ["string", "number", "boolean", "null"], "description": "A scalar."},
            "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 1, "description": "How many."}
        },
        "required": ["value", "missing", "value", 3]
    });
    let fitted = input_schema(&schema);
    let properties = &fitted["properties"];
    assert_types(
        properties,
        json!({"sessionId": "string", "state": "string", "value": "string", "limit": "integer"}),
    );
    assert_eq!(properties["state"]["enum"], json!(["all", "staged"]));
    assert_eq!(properties["limit"]["minimum"], 1);
    assert_eq!(fitted["additionalProperties"], false);
    // Only names of properties, once each.
    assert_eq!(fitted["required"], json!(["value"]));
}

#[test]
fn references_and_unions_give_their_type() {
    let schema = json!({
        "$defs": {"Mode": {"type": "string", "enum": ["a", "b"], "description": "A mode."}},
        "properties": {
            "mode": {"$ref": "#/$defs/Mode"},
            "maybe": {"anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}], "description": "Or none."},
            "count": {"enum": [null, 3]},
            "flag": {"const": true, "title": "Flag"},
            "anything": {},
            "odd": true
        }
    });
    let fitted = input_schema(&schema);
    let properties = &fitted["properties"];
    assert_types(
        properties,
        json!({"mode": "string", "maybe": "string", "count": "integer", "flag": "boolean", "anything": "string", "odd": "string"}),
    );
    assert_eq!(properties["mode"]["description"], "A mode.");
    assert_eq!(properties["mode"]["enum"], json!(["a", "b"]));
    assert_eq!(properties["count"]["enum"], json!([3]));
    assert_eq!(properties["flag"]["description"], "Flag");
    assert_eq!(fitted["type"], "object");
    assert!(fitted["$defs"].is_object(), "definitions are kept");
    assert_eq!(fitted["required"], json!([]));
}

#[test]
fn a_schema_that_is_not_an_object_becomes_an_empty_object_schema() {
    for schema in [Value::Null, json!(true), json!({"type": "string"})] {
        assert_eq!(
            input_schema(&schema),
            json!({"type": "object", "properties": {}, "required": []})
        );
    }
}

#[test]
fn a_success_is_wrapped_with_status_success() {
    let text = ToolResult::ok(json!({"firstRequest": "Profile the render"})).to_json();
    assert_eq!(
        wrap_result(&text),
        json!([{"content": [{"value": text}], "status": "success"}, null])
    );
}

#[test]
fn failures_are_wrapped_with_status_error() {
    let failure = ToolResult::error("Tool not found: nope").to_json();
    assert_eq!(
        wrap_result(&failure),
        json!([{"content": [{"value": failure}], "status": "error"}, null])
    );
    // A host's answer when something broke, and text that is not a JSON object.
    for text in [
        r#"{"isError": true, "message": "core restarted"}"#,
        "not json",
        "[1, 2]",
        "",
    ] {
        assert_eq!(result_status(text), "error", "{text}");
        let wrapped = wrap_result(text);
        assert_eq!(wrapped[0]["content"][0]["value"], text);
        assert_eq!(wrapped[1], Value::Null);
    }
    assert_eq!(result_status(r#"{"success": true}"#), "success");
}
