//! Generated tool descriptions. One text, built from a [`ToolSpec`], feeds `package.json`
//! (`modelDescription`), MCP `tools/list` and `tool_describe`, in four sections: purpose and when
//! to use it (and, where a spec says, when not to), the JSON Schema, usage with what it returns, and
//! concrete examples.

use std::fmt::Write;

use serde_json::Value;

use super::{Consent, ToolSpec};

/// The full description of a tool.
pub fn description(spec: &ToolSpec) -> String {
    let schema = (spec.schema)();
    let mut out = String::new();
    match spec.consent.and_then(|c| c.only_when) {
        Some((field, value)) if spec.destructive => {
            let _ = write!(
                out,
                "REQUIRES EXPLICIT USER INSTRUCTION for `\"{field}\": \"{value}\"`. "
            );
        }
        _ if spec.destructive => out.push_str("REQUIRES EXPLICIT USER INSTRUCTION. "),
        _ => {}
    }
    out.push_str(spec.summary);
    if let Some(Consent {
        why,
        field,
        value,
        only_when: Some((when_field, when_value)),
    }) = spec.consent
    {
        let _ = write!(
            out,
            "\n\nWhy `\"{when_field}\": \"{when_value}\"` needs the user's explicit instruction: {why} Use it \
             only when the user has asked for exactly this in the conversation, and pass `\"{field}\": \"{value}\"`; \
             without that exact literal nothing is changed. The other values of `{when_field}` need no confirmation."
        );
    } else if let Some(consent) = spec.consent {
        let _ = write!(
            out,
            "\n\nWhy it needs the user's explicit instruction: {} Call it only when the user has asked for \
             exactly this in the conversation, and pass `\"{}\": \"{}\"`; without that exact literal nothing \
             is changed.",
            consent.why, consent.field, consent.value
        );
    }
    out.push_str("\n\nUse this tool when:\n");
    for line in spec.when_to_use {
        let _ = writeln!(out, "- {line}");
    }
    if !spec.when_not_to_use.is_empty() {
        out.push_str("\nDo not use it when:\n");
        for line in spec.when_not_to_use {
            let _ = writeln!(out, "- {line}");
        }
    }
    out.push_str("\nInput schema:\n```json\n");
    out.push_str(&serde_json::to_string_pretty(&schema).unwrap_or_default());
    out.push_str("\n```\n\nUsage:\n");
    out.push_str(spec.usage);
    out.push_str("\n\nParameters:\n");
    out.push_str(&schema_markdown(&schema));
    out.push_str("\nReturns: ");
    out.push_str(spec.returns);
    out.push_str("\n\nExample usage scenarios:\n");
    for example in spec.examples {
        let _ = writeln!(out, "- `{}`: {}", example.args, example.shows);
    }
    out.trim_end().to_string()
}

/// Lists each argument of an object schema: name, type, required or optional, allowed values and
/// description. "(none)" for a tool without arguments.
pub fn schema_markdown(schema: &Value) -> String {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return "- (none)\n".into();
    };
    if properties.is_empty() {
        return "- (none)\n".into();
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::new();
    for (name, property) in properties {
        let need = if required.contains(&name.as_str()) {
            "required"
        } else {
            "optional"
        };
        let _ = write!(out, "- `{name}` ({}, {need})", type_name(property));
        if let Some(values) = allowed_values(property) {
            let _ = write!(out, ", one of: {values}");
        }
        if let Some(text) = property.get("description").and_then(Value::as_str) {
            let _ = write!(out, ": {}", text.replace('\n', " "));
        }
        out.push('\n');
    }
    out
}

fn type_name(property: &Value) -> String {
    match property.get("type") {
        Some(Value::String(kind)) => match (kind.as_str(), property.get("items")) {
            ("array", Some(items)) => format!("array of {}", type_name(items)),
            _ => kind.clone(),
        },
        Some(Value::Array(kinds)) => {
            let names: Vec<&str> = kinds
                .iter()
                .filter_map(Value::as_str)
                .filter(|k| *k != "null")
                .collect();
            names.join(" | ")
        }
        _ if property.get("enum").is_some() || property.get("const").is_some() => "string".into(),
        _ => property
            .get("anyOf")
            .or_else(|| property.get("oneOf"))
            .and_then(Value::as_array)
            .map(|variants| {
                variants
                    .iter()
                    .map(type_name)
                    .filter(|name| name != "null")
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .unwrap_or_else(|| "any".into()),
    }
}

fn allowed_values(property: &Value) -> Option<String> {
    if let Some(Value::Array(values)) = property.get("enum") {
        return Some(
            values
                .iter()
                .filter(|v| !v.is_null())
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    if let Some(value) = property.get("const") {
        return Some(value.to_string());
    }
    let variants = property
        .get("anyOf")
        .or_else(|| property.get("oneOf"))?
        .as_array()?;
    let values: Vec<String> = variants.iter().filter_map(allowed_values).collect();
    (!values.is_empty()).then(|| values.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn markdown_lists_name_type_requirement_values_and_description() {
        let schema = json!({
            "type": "object",
            "properties": {
                "command": {"type": "string", "enum": ["save", "read"], "description": "What to do."},
                "limit": {"type": ["integer", "null"], "description": "At most."}
            },
            "required": ["command"]
        });
        let text = schema_markdown(&schema);
        assert!(
            text.contains(
                "- `command` (string, required), one of: \"save\", \"read\": What to do."
            ),
            "{text}"
        );
        assert!(
            text.contains("- `limit` (integer, optional): At most."),
            "{text}"
        );
    }
}
