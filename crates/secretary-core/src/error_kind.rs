//! The machine-readable kinds of failed tool answers (`"error_type"` on the wire). One enum, so
//! a kind is spelled once: agents, hosts and tests match these strings, and a new spelling of an
//! old kind (`invalid_settings` beside `invalid_setting`) can no longer creep in. A leaf module:
//! the domain modules name the kind of their errors without depending on the tool layer.

use std::fmt;

/// What kind of failure a tool answered. [`ErrorKind::as_str`] is the wire string. With the `ts`
/// feature the hosts get the same strings as a TypeScript union (`core/generated/ErrorKind.ts`),
/// so a host that matches a kind (`live_pending`, `internal`) names one the core can answer;
/// `scripts/gen-ts-types` refuses to write it when a variant's TypeScript name differs from its
/// wire string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum ErrorKind {
    // The call itself.
    InvalidArguments,
    ConsentRequired,
    Limit,
    TooLarge,
    // Names and discovery.
    NotFound,
    Renamed,
    NotLoaded,
    ExternalTool,
    OwnTool,
    // The calling chat.
    LivePending,
    CallerNotFound,
    /// The calling chat has nothing saved and its live copy cannot be proven to be its own.
    CallerUncertain,
    UnknownCaller,
    UnsupportedChat,
    // The host and its I/O.
    Unavailable,
    HostUnavailable,
    PathRefused,
    IoError,
    FetchPending,
    NetworkError,
    // Stored state and settings.
    StorageDamaged,
    Conflict,
    VersionMismatch,
    InvalidSetting,
    // Library docs.
    NoDocs,
    Context7Error,
    /// A fault of the Secretary itself.
    Internal,
}

impl ErrorKind {
    /// Every kind, for tests and documentation.
    pub const ALL: &'static [ErrorKind] = &[
        ErrorKind::InvalidArguments,
        ErrorKind::ConsentRequired,
        ErrorKind::Limit,
        ErrorKind::TooLarge,
        ErrorKind::NotFound,
        ErrorKind::Renamed,
        ErrorKind::NotLoaded,
        ErrorKind::ExternalTool,
        ErrorKind::OwnTool,
        ErrorKind::LivePending,
        ErrorKind::CallerNotFound,
        ErrorKind::CallerUncertain,
        ErrorKind::UnknownCaller,
        ErrorKind::UnsupportedChat,
        ErrorKind::Unavailable,
        ErrorKind::HostUnavailable,
        ErrorKind::PathRefused,
        ErrorKind::IoError,
        ErrorKind::FetchPending,
        ErrorKind::NetworkError,
        ErrorKind::StorageDamaged,
        ErrorKind::Conflict,
        ErrorKind::VersionMismatch,
        ErrorKind::InvalidSetting,
        ErrorKind::NoDocs,
        ErrorKind::Context7Error,
        ErrorKind::Internal,
    ];

    /// The wire string (`"error_type"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::ConsentRequired => "consent_required",
            ErrorKind::Limit => "limit",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Renamed => "renamed",
            ErrorKind::NotLoaded => "not_loaded",
            ErrorKind::ExternalTool => "external_tool",
            ErrorKind::OwnTool => "own_tool",
            ErrorKind::LivePending => "live_pending",
            ErrorKind::CallerNotFound => "caller_not_found",
            ErrorKind::CallerUncertain => "caller_uncertain",
            ErrorKind::UnknownCaller => "unknown_caller",
            ErrorKind::UnsupportedChat => "unsupported_chat",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::HostUnavailable => "host_unavailable",
            ErrorKind::PathRefused => "path_refused",
            ErrorKind::IoError => "io_error",
            ErrorKind::FetchPending => "fetch_pending",
            ErrorKind::NetworkError => "network_error",
            ErrorKind::StorageDamaged => "storage_damaged",
            ErrorKind::Conflict => "conflict",
            ErrorKind::VersionMismatch => "version_mismatch",
            ErrorKind::InvalidSetting => "invalid_setting",
            ErrorKind::NoDocs => "no_docs",
            ErrorKind::Context7Error => "context7_error",
            ErrorKind::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn wire_strings_are_distinct_snake_case() {
        let strings: HashSet<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(strings.len(), ErrorKind::ALL.len());
        for s in strings {
            assert!(
                s.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()),
                "{s}"
            );
        }
    }
}
