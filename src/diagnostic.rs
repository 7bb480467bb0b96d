//! Findings about the input, each pinned to a place in it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    /// The format's reference library would reject the input.
    Error,
}

/// A finding about the input: what is wrong, where, and what was expected.
///
/// `code` is stable (tests, filters and users key on it); `message` is for people.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    /// JSONPath inside the top-level value (for JSON Lines: inside that line's value).
    pub path: String,
    pub line: u32,
    pub column: u32,
    /// Byte offset in the source.
    pub offset: usize,
    /// Index of the event the finding is about, if any.
    pub event: Option<u32>,
    /// The source line around the place, for syntax errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
}

impl Severity {
    /// `info`, `warning` or `error`, as it is serialised.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl Diagnostic {
    /// `file:line:col: severity[code]: message`, the form compilers use.
    pub fn to_line(&self, file: &str) -> String {
        let sev = self.severity.name();
        format!("{file}:{}:{}: {sev}[{}]: {} (at {})", self.line, self.column, self.code, self.message, self.path)
    }
}
