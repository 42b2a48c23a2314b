use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use crate::text::kind_of;

/// Why a tool's arguments were refused. The text names the field and, for unknown fields, the
/// allowed ones, because agents correct themselves from the message alone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid arguments: {0}")]
pub struct ArgError(pub String);

/// Refused arguments answer as the dialog tools' contract error: exactly `{success, error}`.
impl From<ArgError> for super::ToolResult {
    fn from(err: ArgError) -> Self {
        super::ToolResult::error(err.to_string())
    }
}

/// Deserializes `args` into the tool's argument type. Missing arguments (`null`) count as `{}` so
/// that tools without required fields can be called bare.
pub fn parse_args<T: DeserializeOwned>(args: &Value) -> Result<T, ArgError> {
    let empty = Value::Object(Default::default());
    let args = if args.is_null() { &empty } else { args };
    if !args.is_object() {
        return Err(ArgError(format!(
            "expected an object of named arguments, got {}",
            kind_of(args)
        )));
    }
    serde_path_to_error::deserialize(args).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner().to_string();
        if path.is_empty() || path == "." {
            ArgError(inner)
        } else {
            ArgError(format!("`{path}`: {inner}"))
        }
    })
}

/// The JSON Schema of an argument type, inlined (no `$defs`), with `required` always present
/// (VS Code and the Copilot language server reject object schemas without it) and without the
/// `$schema`/`title` noise.
pub fn schema_for<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("$schema");
        map.remove("title");
        map.entry("required")
            .or_insert_with(|| Value::Array(Vec::new()));
        map.entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    /// Test arguments.
    #[allow(dead_code)]
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Args {
        /// The query.
        query: String,
        /// How many.
        limit: Option<u32>,
    }

    /// No arguments at all.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct NoArgs {}

    #[test]
    fn unknown_field_names_it_and_the_allowed_ones() {
        let err = parse_args::<Args>(&json!({"query": "x", "limti": 3})).unwrap_err();
        assert!(err.to_string().contains("unknown field `limti`"), "{err}");
        assert!(
            err.to_string().contains("`query`") && err.to_string().contains("`limit`"),
            "{err}"
        );
    }

    #[test]
    fn missing_and_mistyped_fields_are_named() {
        let missing = parse_args::<Args>(&json!({})).unwrap_err();
        assert!(
            missing.to_string().contains("missing field `query`"),
            "{missing}"
        );
        let wrong = parse_args::<Args>(&json!({"query": "x", "limit": "3"})).unwrap_err();
        assert!(
            wrong.to_string().contains("`limit`") && wrong.to_string().contains("invalid type"),
            "{wrong}"
        );
        let not_object = parse_args::<Args>(&json!([1])).unwrap_err();
        assert!(
            not_object.to_string().contains("got an array"),
            "{not_object}"
        );
    }

    #[test]
    fn schema_has_descriptions_and_required_always() {
        let schema = schema_for::<Args>();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["query"]));
        assert_eq!(schema["properties"]["query"]["description"], "The query.");
        assert_eq!(schema["additionalProperties"], json!(false));
        let empty = schema_for::<NoArgs>();
        assert_eq!(empty["required"], json!([]));
        assert!(empty.get("$schema").is_none());
    }

    #[test]
    fn null_arguments_mean_none() {
        assert!(parse_args::<NoArgs>(&Value::Null).is_ok());
    }
}
