//! The Secretary's tools as client tools of `@github/copilot-language-server` (agent mode).
//!
//! The language server takes tools an editor implements with `conversation/registerTools`
//! (`{"tools": [{name, description, inputSchema}]}`), calls them with
//! `conversation/invokeClientTool` and expects `[{"content": [{"value": ...}], "status": ...}, null]`
//! back. This module makes both from the specs, so the host (`secretary copilot-ls`) only moves
//! JSON:
//!
//! - **Schemas.** The server validates every registration (TypeBox, version 1.539.0): `inputSchema`
//!   is `{type: string, properties: {<name>: {type: string, description: string}}, required:
//!   string[]}`. A missing `required`, a property whose `type` is a list (`["string", "null"]`, what
//!   schemars writes for an `Option`) or a property without a description is refused with
//!   `-32602 Schema validation failed` and nothing is registered. [`input_schema`] rewrites our
//!   schemas to fit.
//! - **Names.** A client tool with the name of one of the server's own tools replaces it (the
//!   server keys tools by name; registering `read_file` drops its `read_file`). [`client_tool_name`]
//!   gives such a tool [`COLLISION_PREFIX`].
//! - **Results.** [`wrap_result`]: the tool's JSON text as the one content value, `status` `error`
//!   for a failed answer, and the `[result, error]` pair the server unpacks.

use serde_json::{json, Map, Value};

use crate::toolkit::{description, ToolSpec};

/// Names of the language server's own tools (and of the client tools editors register with it),
/// which the Secretary's tools must never take. The first fifteen are the built-in tools the
/// feature request names; the rest were found in `@github/copilot-language-server` 1.539.0
/// (`dist/main.js`: its tool classes and tool-name maps), where some of the fifteen are spelled
/// otherwise (`multi_replace_string_in_file`, `fetch_webpage`). Compared without regard to case.
pub const RESERVED_TOOL_NAMES: &[&str] = &[
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
    // Seen in 1.539.0.
    "multi_replace_string_in_file",
    "fetch_webpage",
    "semantic_search",
    "update_user_preferences",
    "run_subagent",
    "validate_cves",
    "manage_todo_list",
    "edit_notebook_file",
    "get_terminal_output",
    "copilot_memory",
];

/// Put before a tool name that is one of [`RESERVED_TOOL_NAMES`].
pub const COLLISION_PREFIX: &str = "secretary_";

/// Whether `name` is one of the language server's own tool names.
pub fn is_reserved(name: &str) -> bool {
    RESERVED_TOOL_NAMES
        .iter()
        .any(|reserved| reserved.eq_ignore_ascii_case(name))
}

/// The name a tool is registered under: its plain name, or [`COLLISION_PREFIX`] + the plain name
/// when the plain name is reserved.
pub fn client_tool_name(plain: &str) -> String {
    if is_reserved(plain) {
        format!("{COLLISION_PREFIX}{plain}")
    } else {
        plain.to_string()
    }
}

/// A JSON Schema the language server accepts, as close to `schema` as it allows: `type:
/// "object"`, `properties` always present, `required` always present (only names of properties),
/// and every property with one `type` string and a `description`. A property's type list keeps its
/// first type other than `null` (optional properties are left out rather than sent as `null`, and
/// `null` leaves their `enum` too); a property without a type takes it from its `$ref`, its
/// `anyOf`/`oneOf` branches or its `enum`/`const` values, else `string`; a property without a
/// description takes its `title`, else its name. Other keywords (`$defs`, `additionalProperties`,
/// bounds, patterns) are kept.
pub fn input_schema(schema: &Value) -> Value {
    let mut out = match schema {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    let defs = out
        .get("$defs")
        .or_else(|| out.get("definitions"))
        .cloned()
        .unwrap_or(Value::Null);
    let properties: Map<String, Value> = match out.remove("properties") {
        Some(Value::Object(properties)) => properties
            .into_iter()
            .map(|(name, property)| {
                let fitted = fit_property(&name, &property, &defs);
                (name, fitted)
            })
            .collect(),
        _ => Map::new(),
    };
    let mut required: Vec<Value> = Vec::new();
    if let Some(Value::Array(names)) = out.get("required") {
        for name in names {
            if name.as_str().is_some_and(|n| properties.contains_key(n)) && !required.contains(name)
            {
                required.push(name.clone());
            }
        }
    }
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    out.insert("required".into(), Value::Array(required));
    Value::Object(out)
}

fn fit_property(name: &str, property: &Value, defs: &Value) -> Value {
    let mut out = match property {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    // A property that is only a reference: the referenced schema, with the property's own words.
    if let Some(Value::Object(target)) = out.get("$ref").and_then(|r| resolve(r, defs)) {
        let mut merged = target.clone();
        for (key, value) in out.iter().filter(|(key, _)| key.as_str() != "$ref") {
            merged.insert(key.clone(), value.clone());
        }
        out = merged;
    }
    let ty = type_of(&Value::Object(out.clone()), defs, 0).unwrap_or_else(|| "string".into());
    if ty != "null" {
        if let Some(Value::Array(values)) = out.get_mut("enum") {
            values.retain(|value| !value.is_null());
        }
    }
    out.insert("type".into(), Value::String(ty));
    if !out.get("description").is_some_and(Value::is_string) {
        let fallback = out
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or(name)
            .to_string();
        out.insert("description".into(), Value::String(fallback));
    }
    Value::Object(out)
}

/// The one type of a schema: its `type` (the first other than `null` of a list), else that of its
/// reference, its first `anyOf`/`oneOf` branch other than `null`, or its first `enum`/`const`
/// value other than `null`. `null` only when nothing else is allowed.
fn type_of(schema: &Value, defs: &Value, depth: usize) -> Option<String> {
    if depth > 8 {
        return None;
    }
    match schema.get("type") {
        Some(Value::String(ty)) => return Some(ty.clone()),
        Some(Value::Array(types)) => {
            let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            if let Some(ty) = names.iter().find(|ty| **ty != "null") {
                return Some((*ty).to_string());
            }
            if !names.is_empty() {
                return Some("null".into());
            }
        }
        _ => {}
    }
    if let Some(target) = schema.get("$ref").and_then(|r| resolve(r, defs)) {
        if let Some(ty) = type_of(target, defs, depth + 1) {
            return Some(ty);
        }
    }
    let mut only_null = false;
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            for branch in branches {
                match type_of(branch, defs, depth + 1).as_deref() {
                    Some("null") => only_null = true,
                    Some(ty) => return Some(ty.to_string()),
                    None => {}
                }
            }
        }
    }
    let values = match (schema.get("enum"), schema.get("const")) {
        (Some(Value::Array(values)), _) => values.clone(),
        (_, Some(value)) => vec![value.clone()],
        _ => Vec::new(),
    };
    if let Some(value) = values.iter().find(|value| !value.is_null()) {
        return Some(kind(value).into());
    }
    (only_null || !values.is_empty()).then(|| "null".into())
}

/// A local reference (`#/$defs/Name`, `#/definitions/Name`) in the schema's definitions.
fn resolve<'a>(reference: &Value, defs: &'a Value) -> Option<&'a Value> {
    let reference = reference.as_str()?;
    let name = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))?;
    defs.get(name)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// One tool as `conversation/registerTools` takes it: `{name, description, inputSchema}`, with the
/// generated description (the one VS Code and MCP show).
pub fn client_tool(spec: &ToolSpec) -> Value {
    json!({
        "name": client_tool_name(spec.name),
        "description": description(spec),
        "inputSchema": input_schema(&(spec.schema)()),
    })
}

/// What a host needs to serve the tools: `[{"plain", "deferred", "tool"}]`, where `tool` is sent as
/// it is, `plain` is the core's name for the tool (to invoke it) and `deferred` tools are
/// registered only once loaded.
pub fn registration<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    Value::Array(
        specs
            .into_iter()
            .map(|spec| {
                json!({
                    "plain": spec.name,
                    "deferred": spec.deferred,
                    "tool": client_tool(spec),
                })
            })
            .collect(),
    )
}

/// `success` or `error` for a tool's JSON text: `error` when it says `"success": false` or
/// `"isError": true` (a host's answer when something broke), or is not a JSON object at all.
pub fn result_status(text: &str) -> &'static str {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map))
            if map.get("success") != Some(&Value::Bool(false))
                && map.get("isError") != Some(&Value::Bool(true)) =>
        {
            "success"
        }
        _ => "error",
    }
}

/// The answer to `conversation/invokeClientTool`: the tool's JSON text unchanged as the one content
/// value, its [`result_status`], in the `[result, error]` pair the language server unpacks
/// (`error` is always `null`: a failed tool is a result the model reads, not a protocol error).
pub fn wrap_result(text: &str) -> Value {
    json!([
        { "content": [{ "value": text }], "status": result_status(text) },
        null
    ])
}
