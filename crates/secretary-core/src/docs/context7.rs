//! The Context7 fallback: settings, request URLs and reading its answers. The host only performs
//! the GET ([`crate::host::Host::http_get`]).
//!
//! - `GET {baseUrl}/api/v2/libs/search?libraryName=<name>&query=<question>` answers
//!   `{"results": [{"id": "/microsoft/playwright", "title", "description", "totalSnippets",
//!   "trustScore", "benchmarkScore", "versions", ...}]}`.
//! - `GET {baseUrl}/api/v2/context?libraryId=<id>&query=<question>&type=txt&tokens=<n>` answers
//!   the documentation as text (with `type=json`, `{"codeSnippets": [...], "infoSnippets": [...]}`,
//!   read too in case a server ignores `type`).
//! - Failures answer an HTTP status with `{"error", "message"}`.
//!
//! Unknown fields are ignored and missing ones left out, so a changed API degrades, not breaks.

use serde_json::{json, Map, Value};

use crate::host::{Host, HttpRequest};
use crate::text::percent_encode;

pub const SETTING_ENABLED: &str = "copilotChatSecretary.libraryDocs.context7.enabled";
pub const SETTING_BASE_URL: &str = "copilotChatSecretary.libraryDocs.context7.baseUrl";
pub const SETTING_TIMEOUT: &str = "copilotChatSecretary.libraryDocs.context7.timeoutMs";
pub const SETTING_API_KEY: &str = "copilotChatSecretary.libraryDocs.context7.apiKey";
pub const DEFAULT_BASE_URL: &str = "https://context7.com";
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
pub const MIN_TIMEOUT_MS: u64 = 100;
pub const MAX_TIMEOUT_MS: u64 = 120_000;
/// At most this many Context7 search results are returned.
pub const MAX_RESULTS: usize = 10;

/// How the fallback is configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub enabled: bool,
    /// Without a trailing `/`.
    pub base_url: String,
    pub timeout_ms: u64,
    pub api_key: Option<String>,
}

impl Settings {
    /// The host's settings; unset or unreadable values take their defaults, the timeout is kept
    /// within [`MIN_TIMEOUT_MS`]..=[`MAX_TIMEOUT_MS`]. A base URL that is not `http(s)://` is an
    /// error naming the setting.
    pub fn read(host: &dyn Host) -> Result<Settings, String> {
        let enabled = match host.setting(SETTING_ENABLED) {
            Some(Value::Bool(on)) => on,
            Some(Value::String(text)) => !matches!(
                text.trim().to_lowercase().as_str(),
                "false" | "0" | "no" | "off"
            ),
            _ => true,
        };
        let base_url = match host.setting(SETTING_BASE_URL) {
            Some(Value::String(url)) if !url.trim().is_empty() => {
                url.trim().trim_end_matches('/').to_string()
            }
            _ => DEFAULT_BASE_URL.to_string(),
        };
        let lower = base_url.to_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://"))
            || base_url.chars().any(char::is_whitespace)
        {
            return Err(format!(
                "The Context7 base URL {base_url:?} is not an http(s) URL (setting {SETTING_BASE_URL})"
            ));
        }
        let timeout_ms = match host.setting(SETTING_TIMEOUT) {
            Some(Value::Number(n)) => n.as_f64().map(|ms| ms.max(0.0) as u64),
            Some(Value::String(text)) => text.trim().parse().ok(),
            _ => None,
        }
        .unwrap_or(DEFAULT_TIMEOUT_MS)
        .clamp(MIN_TIMEOUT_MS, MAX_TIMEOUT_MS);
        let api_key = match host.setting(SETTING_API_KEY) {
            Some(Value::String(key)) if !key.trim().is_empty() => Some(key.trim().to_string()),
            _ => None,
        };
        Ok(Settings {
            enabled,
            base_url,
            timeout_ms,
            api_key,
        })
    }

    /// The GET of a URL with these settings' timeout and key.
    pub fn request(&self, url: String) -> HttpRequest {
        let mut headers = vec![(
            "Accept".to_string(),
            "application/json, text/plain".to_string(),
        )];
        if let Some(key) = &self.api_key {
            headers.push(("Authorization".to_string(), format!("Bearer {key}")));
        }
        HttpRequest {
            url,
            headers,
            timeout_ms: self.timeout_ms,
        }
    }

    /// `{base}/api/v2/libs/search?libraryName=...&query=...`.
    pub fn search_url(&self, library_name: &str, query: &str) -> String {
        format!(
            "{}/api/v2/libs/search?libraryName={}&query={}",
            self.base_url,
            percent_encode(library_name),
            percent_encode(query)
        )
    }

    /// `{base}/api/v2/context?libraryId=...&query=...&type=txt&tokens=...`.
    pub fn context_url(&self, library_id: &str, query: &str, tokens: usize) -> String {
        format!(
            "{}/api/v2/context?libraryId={}&query={}&type=txt&tokens={tokens}",
            self.base_url,
            percent_encode(library_id),
            percent_encode(query)
        )
    }
}

/// The libraries of a search answer, as this tool returns them (at most [`MAX_RESULTS`]):
/// `{"libraryId", "name", "description"?, "totalSnippets"?, "trustScore"?, "benchmarkScore"?,
/// "versions"?}`. `Err` when the answer is not a search answer.
pub fn parse_search(body: &str) -> Result<Vec<Value>, String> {
    let json: Value =
        serde_json::from_str(body).map_err(|err| format!("the answer is not JSON ({err})"))?;
    let results = json
        .get("results")
        .and_then(Value::as_array)
        .ok_or_else(|| "the answer has no `results` list".to_string())?;
    Ok(results
        .iter()
        .filter_map(|entry| {
            let id = entry.get("id").and_then(Value::as_str)?.trim();
            if !id.starts_with('/') {
                return None;
            }
            let mut out = Map::new();
            out.insert("libraryId".into(), json!(id));
            let name = entry
                .get("title")
                .or_else(|| entry.get("name"))
                .and_then(Value::as_str)
                .unwrap_or_else(|| id.rsplit('/').next().unwrap_or(id));
            out.insert("name".into(), json!(name));
            if let Some(text) = entry
                .get("description")
                .and_then(Value::as_str)
                .filter(|t| !t.trim().is_empty())
            {
                out.insert("description".into(), json!(text.trim()));
            }
            for key in ["totalSnippets", "trustScore", "benchmarkScore"] {
                if let Some(n) = entry.get(key).filter(|v| v.is_number()) {
                    out.insert(key.into(), n.clone());
                }
            }
            if let Some(versions) = entry.get("versions").and_then(Value::as_array) {
                let versions: Vec<&str> = versions.iter().filter_map(Value::as_str).collect();
                if !versions.is_empty() {
                    out.insert("versions".into(), json!(versions));
                }
            }
            Some(Value::Object(out))
        })
        .take(MAX_RESULTS)
        .collect())
}

/// The documentation text of a context answer: the text itself, or a JSON answer's snippets as
/// markdown. `None` when it holds nothing.
pub fn parse_context(body: &str) -> Option<String> {
    let trimmed = body.trim();
    if trimmed.is_empty()
        || trimmed == "No content available"
        || trimmed == "No context data available"
    {
        return None;
    }
    if trimmed.starts_with('{') {
        if let Ok(json) = serde_json::from_str::<Value>(trimmed) {
            let mut parts = Vec::new();
            for snippet in items(&json, "codeSnippets") {
                let mut part = format!("### {}", text_or(snippet, "codeTitle", "Example"));
                if let Some(text) = snippet.get("codeDescription").and_then(Value::as_str) {
                    part.push_str(&format!("\n\n{text}"));
                }
                for code in items(snippet, "codeList") {
                    let language = text_or(code, "language", "");
                    let text = text_or(code, "code", "");
                    part.push_str(&format!("\n\n```{language}\n{text}\n```"));
                }
                parts.push(part);
            }
            for snippet in items(&json, "infoSnippets") {
                let title = text_or(snippet, "breadcrumb", "Documentation");
                let text = text_or(snippet, "content", "");
                parts.push(format!("### {title}\n\n{text}"));
            }
            if json.get("codeSnippets").is_some() || json.get("infoSnippets").is_some() {
                let text = parts.join("\n\n");
                return (!text.trim().is_empty()).then_some(text);
            }
        }
    }
    Some(trimmed.to_string())
}

/// The items of the array `value[key]`; none when it is missing or not an array (a context
/// answer's snippet lists are optional).
fn items<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The string `value[key]`, or `default` when it is missing or not a string.
fn text_or<'a>(value: &'a Value, key: &str, default: &'a str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or(default)
}

/// What a failed answer says: its JSON `message` (or `error`), else the start of its body.
pub fn error_message(status: u16, body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|json| {
        json.get("message")
            .or_else(|| json.get("error"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let text = from_json.unwrap_or_else(|| body.trim().chars().take(200).collect());
    // The caller ends the sentence.
    let text = text.trim().trim_end_matches('.');
    if text.is_empty() {
        format!("HTTP {status}")
    } else {
        format!("HTTP {status}: {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_context_answers_become_markdown() {
        let body = r#"{"codeSnippets":[{"codeTitle":"Click","codeDescription":"Clicks.","codeList":[{"language":"ts","code":"await page.click('a')"}]}],"infoSnippets":[{"breadcrumb":"Guides > Locators","content":"Use locators."}],"unknown":1}"#;
        let text = parse_context(body).unwrap();
        assert!(
            text.contains("### Click\n\nClicks.\n\n```ts\nawait page.click('a')\n```"),
            "{text}"
        );
        assert!(text.contains("### Guides > Locators\n\nUse locators."));
        assert_eq!(parse_context("  "), None);
        assert_eq!(
            parse_context(r#"{"codeSnippets":[],"infoSnippets":[]}"#),
            None
        );
        assert_eq!(parse_context("plain text"), Some("plain text".into()));
    }
}
