use serde::Serialize;

pub use crate::error_kind::ErrorKind;
use serde_json::{Map, Value};

/// The result of every tool, whatever the host. It serializes to the JSON text hosts return:
/// `{"success": true, ...fields}` or `{"success": false, "error": ...}`, with optional fields only
/// when present, so the dialog tools' exact contracts hold.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolResult {
    Ok {
        /// The tool's own fields, flattened next to `success`.
        fields: Map<String, Value>,
        /// For the user.
        message: Option<String>,
        /// Guidance for the agent, kept apart from `message`.
        instruction: Option<String>,
    },
    Failure {
        error: String,
        /// A short machine-readable kind (`invalid_arguments`, `not_found`, ...); not serialized
        /// when empty so that contract errors stay exactly `{success, error}`.
        error_type: Option<ErrorKind>,
        exception: Option<(String, String)>,
        message: Option<String>,
        instruction: Option<String>,
    },
}

/// Error texts are at most this many characters (before the note saying how much was cut).
pub const MAX_ERROR_CHARS: usize = 1_000;

/// `text` with its middle cut out when it has more than `max_chars` characters: the start (which
/// says what failed) and the end (which says what to do) are kept, joined by
/// `" ... [N characters cut] ... "`.
pub fn cut_middle(text: String, max_chars: usize) -> String {
    let count = text.chars().count();
    if count <= max_chars {
        return text;
    }
    let head = max_chars * 3 / 5;
    let tail = max_chars - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!(
        "{start} ... [{} characters cut] ... {end}",
        count - head - tail
    )
}

impl ToolResult {
    /// A success carrying `value`'s fields. A value that is not an object is put under `result`.
    pub fn ok<T: Serialize>(value: T) -> Self {
        let fields = match serde_json::to_value(value) {
            Ok(Value::Object(map)) => map,
            Ok(other) => {
                let mut map = Map::new();
                map.insert("result".into(), other);
                map
            }
            Err(err) => {
                return Self::failure(
                    format!("Could not serialize the result: {err}"),
                    ErrorKind::Internal,
                )
            }
        };
        ToolResult::Ok {
            fields,
            message: None,
            instruction: None,
        }
    }

    /// The error text is cut to [`MAX_ERROR_CHARS`] ([`cut_middle`]): errors quote what they
    /// refuse, and a multi-megabyte name or value must not come back whole.
    pub fn failure(error: impl Into<String>, kind: ErrorKind) -> Self {
        Self::failure_of(error, Some(kind))
    }

    fn failure_of(error: impl Into<String>, error_type: Option<ErrorKind>) -> Self {
        ToolResult::Failure {
            error: cut_middle(error.into(), MAX_ERROR_CHARS),
            error_type,
            exception: None,
            message: None,
            instruction: None,
        }
    }

    /// The failure for a tool name that was renamed: every path that looks a name up (the
    /// registry, `tool_describe`, `tool_call`) says it in these words.
    pub fn renamed_tool(old: &str, new_name: &str) -> Self {
        Self::failure(
            format!("Tool not found: {old}. It was renamed to {new_name}."),
            ErrorKind::Renamed,
        )
    }

    /// A failure whose JSON is exactly `{"success": false, "error": ...}` (the dialog tools'
    /// contract).
    pub fn error(error: impl Into<String>) -> Self {
        Self::failure_of(error, None)
    }

    pub fn with_message(mut self, text: impl Into<String>) -> Self {
        match &mut self {
            ToolResult::Ok { message, .. } | ToolResult::Failure { message, .. } => {
                *message = Some(text.into())
            }
        }
        self
    }

    pub fn with_instruction(mut self, text: impl Into<String>) -> Self {
        match &mut self {
            ToolResult::Ok { instruction, .. } | ToolResult::Failure { instruction, .. } => {
                *instruction = Some(text.into())
            }
        }
        self
    }

    pub fn with_exception(mut self, kind: impl Into<String>, text: impl Into<String>) -> Self {
        if let ToolResult::Failure { exception, .. } = &mut self {
            *exception = Some((kind.into(), text.into()));
        }
        self
    }

    /// A success with `extra` fields added (they replace fields of the same name).
    pub fn with_fields(mut self, extra: Map<String, Value>) -> Self {
        if let ToolResult::Ok { fields, .. } = &mut self {
            fields.extend(extra);
        }
        self
    }

    pub fn is_success(&self) -> bool {
        matches!(self, ToolResult::Ok { .. })
    }

    /// The error text of a failure.
    pub fn error_text(&self) -> Option<&str> {
        match self {
            ToolResult::Failure { error, .. } => Some(error),
            ToolResult::Ok { .. } => None,
        }
    }

    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        match self {
            ToolResult::Ok {
                fields,
                message,
                instruction,
            } => {
                map.insert("success".into(), Value::Bool(true));
                for (key, value) in fields {
                    map.insert(key.clone(), value.clone());
                }
                insert_opt(&mut map, "message", message);
                insert_opt(&mut map, "instruction", instruction);
            }
            ToolResult::Failure {
                error,
                error_type,
                exception,
                message,
                instruction,
            } => {
                map.insert("success".into(), Value::Bool(false));
                map.insert("error".into(), Value::String(error.clone()));
                if let Some(kind) = error_type {
                    map.insert("error_type".into(), Value::String(kind.as_str().into()));
                }
                if let Some((kind, text)) = exception {
                    map.insert("exception_type".into(), Value::String(kind.clone()));
                    map.insert("exception_message".into(), Value::String(text.clone()));
                }
                insert_opt(&mut map, "message", message);
                insert_opt(&mut map, "instruction", instruction);
            }
        }
        Value::Object(map)
    }

    /// The JSON text hosts return to agents.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

fn insert_opt(map: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(text) = value {
        map.insert(key.into(), Value::String(text.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ok_flattens_fields_and_omits_absent_options() {
        let result = ToolResult::ok(json!({"index": 2}));
        assert_eq!(result.to_value(), json!({"success": true, "index": 2}));
        let guided = ToolResult::ok(json!({}))
            .with_message("m")
            .with_instruction("i");
        assert_eq!(
            guided.to_value(),
            json!({"success": true, "message": "m", "instruction": "i"})
        );
    }

    #[test]
    fn contract_error_is_exactly_success_and_error() {
        assert_eq!(
            ToolResult::error("No active dialog found").to_value(),
            json!({"success": false, "error": "No active dialog found"})
        );
    }

    #[test]
    fn failure_serializes_type_exception_message_and_instruction() {
        let result = ToolResult::failure("boom", ErrorKind::Internal)
            .with_exception("IoError", "disk")
            .with_message("for the user")
            .with_instruction("retry later");
        assert_eq!(
            result.to_value(),
            json!({"success": false, "error": "boom", "error_type": "internal",
                   "exception_type": "IoError", "exception_message": "disk",
                   "message": "for the user", "instruction": "retry later"})
        );
    }

    #[test]
    fn non_object_success_goes_under_result() {
        assert_eq!(
            ToolResult::ok(3).to_value(),
            json!({"success": true, "result": 3})
        );
    }
}
