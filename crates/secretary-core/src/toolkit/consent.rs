//! Explicit consent for destructive tools. A destructive tool takes a literal argument (usually
//! `confirm`) that must equal an exact string, such as `"DELETE_MEMORY"`: an agent only sends it
//! when the user asked for the destruction in so many words, and a mistaken or injected call
//! without it changes nothing. The spec's [`Consent`] drives three things: the check in
//! [`super::ToolDef::call`] (before the tool runs, whoever calls it), the description (why it needs the instruction and
//! the literal), and the VS Code confirmation dialog (`confirmationMessages`).

use serde_json::Value;

use super::{args::kind_of, ToolResult};
use crate::toolkit::ErrorKind;

/// The literal a destructive tool requires, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Consent {
    /// The argument that carries the literal (`confirm`).
    pub field: &'static str,
    /// The exact value required (`"RESET_EXAMPLES"`).
    pub value: &'static str,
    /// Why the tool needs the user's explicit instruction: what is lost, and that it cannot be
    /// undone. A full sentence.
    pub why: &'static str,
    /// A per-command consent: `Some(("command", "delete"))` requires the literal only when that
    /// argument has that value (`memory`'s `delete`; its `save`, `read` and `list` need nothing).
    /// `None`: every call needs the literal.
    pub only_when: Option<(&'static str, &'static str)>,
}

impl Consent {
    /// Whether a call with these arguments needs the literal.
    pub fn applies(&self, args: &Value) -> bool {
        match self.only_when {
            None => true,
            Some((field, value)) => args.get(field).and_then(Value::as_str) == Some(value),
        }
    }

    /// Checks the literal in the raw arguments (when [`Consent::applies`]).
    pub fn check(&self, args: &Value) -> Result<(), ToolResult> {
        if !self.applies(args) {
            return Ok(());
        }
        require_literal(args, self.field, self.value, self.why)
    }
}

/// Checks that `args[field]` is exactly the string `value`. The failure names the field and the
/// exact value, says why, and tells the agent to ask the user rather than retry on its own.
pub fn require_literal(
    args: &Value,
    field: &str,
    value: &str,
    why: &str,
) -> Result<(), ToolResult> {
    let given = args.get(field);
    if given.and_then(Value::as_str) == Some(value) {
        return Ok(());
    }
    let got = match given {
        None | Some(Value::Null) => "it is missing".to_string(),
        Some(Value::String(text)) => format!("got {text:?}"),
        Some(other) => format!("got {}", kind_of(other)),
    };
    Err(ToolResult::failure(
        format!(
            "Explicit user consent required: `{field}` must be exactly \"{value}\" ({got}). {why}"
        ),
        ErrorKind::ConsentRequired,
    )
    .with_instruction(format!(
        "Do not retry on your own. Ask the user to confirm; only if they explicitly instruct it, call again \
         with \"{field}\": \"{value}\"."
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CONSENT: Consent = Consent {
        field: "confirm",
        value: "DELETE_MEMORY",
        why: "It erases every memory and cannot be undone.",
        only_when: None,
    };

    #[test]
    fn only_the_exact_literal_passes() {
        assert!(CONSENT.check(&json!({"confirm": "DELETE_MEMORY"})).is_ok());
        for args in [
            json!({}),
            json!({"confirm": "delete_memory"}),
            json!({"confirm": " DELETE_MEMORY"}),
            json!({"confirm": true}),
            json!({"confirm": null}),
            json!(null),
        ] {
            let err = CONSENT.check(&args).unwrap_err();
            let text = err.error_text().unwrap();
            assert!(
                text.contains("`confirm` must be exactly \"DELETE_MEMORY\""),
                "{text}"
            );
            assert!(text.contains("cannot be undone"), "{text}");
            assert_eq!(err.to_value()["error_type"], "consent_required");
        }
    }

    #[test]
    fn a_per_command_consent_applies_to_that_command_only() {
        let delete = Consent {
            only_when: Some(("command", "delete")),
            ..CONSENT
        };
        assert!(delete.check(&json!({"command": "save"})).is_ok());
        assert!(delete.check(&json!({})).is_ok());
        assert!(delete.check(&json!({"command": "delete"})).is_err());
        assert!(delete
            .check(&json!({"command": "delete", "confirm": "DELETE_MEMORY"}))
            .is_ok());
    }
}
