//! The filter language, first cut: terms separated by spaces, all of which
//! must match.
//!
//! - `role:assistant`, `kind:tool-result` (the model's kind or the format's
//!   own record kind), `tool:get_inbox` (calls of that tool and their
//!   results), `is:error` (an Error diagnostic, a failed tool result, or a
//!   record the source marks as failed), `has:tool_calls`;
//! - free words and `"exact phrases"`, case-insensitive, over the event's text
//!   (content, tool names, arguments, results);
//! - `-` before a term negates it.
//!
//! A malformed query is an error naming the column.

use crate::diagnostic::Severity;
use crate::model::{Content, EventBody, Trace};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub message: String,
    /// 1-based column in the query.
    pub column: usize,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "query error at column {}: {}", self.column, self.message)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Test {
    Role(String),
    Kind(String),
    Tool(String),
    IsError,
    HasToolCalls,
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    negated: bool,
    test: Test,
}

const FIELDS: &str = "role:, kind:, tool:, is:error, has:tool_calls";

fn parse(query: &str) -> Result<Vec<Term>, QueryError> {
    let chars: Vec<(usize, char)> = query.char_indices().collect();
    let mut terms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some(&(_, c)) = chars.get(i) else { break };
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let column = i + 1;
        let mut negated = false;
        if c == '-' {
            negated = true;
            i += 1;
            if chars.get(i).is_none_or(|(_, c)| c.is_whitespace()) {
                return Err(QueryError { message: "`-` must be followed by a term to exclude".to_string(), column });
            }
        }
        if chars.get(i).is_some_and(|(_, c)| *c == '"') {
            let open = i;
            i += 1;
            let mut phrase = String::new();
            loop {
                match chars.get(i) {
                    None => {
                        return Err(QueryError { message: "unterminated phrase: add the closing `\"`".to_string(), column: open + 1 })
                    }
                    Some((_, '"')) => {
                        i += 1;
                        break;
                    }
                    Some((_, ch)) => {
                        phrase.push(*ch);
                        i += 1;
                    }
                }
            }
            terms.push(Term { negated, test: Test::Text(phrase.to_lowercase()) });
            continue;
        }
        let word_start = i;
        while chars.get(i).is_some_and(|(_, c)| !c.is_whitespace()) {
            i += 1;
        }
        let word: String = chars.get(word_start..i).unwrap_or(&[]).iter().map(|(_, c)| *c).collect();
        let test = match word.split_once(':') {
            // `http://…` is text, not a field.
            Some((field, value))
                if !field.is_empty()
                    && field.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
                    && !value.starts_with("//") =>
            {
                let value_column = word_start + field.chars().count() + 2;
                if value.is_empty() {
                    return Err(QueryError { message: format!("`{field}:` needs a value"), column: value_column });
                }
                match field {
                    "role" => Test::Role(value.to_lowercase()),
                    "kind" => Test::Kind(value.to_lowercase()),
                    "tool" => Test::Tool(value.to_string()),
                    "is" if value == "error" => Test::IsError,
                    "has" if value == "tool_calls" || value == "tool-calls" => Test::HasToolCalls,
                    "is" | "has" => {
                        return Err(QueryError {
                            message: format!("unknown value `{value}` for `{field}:` (try is:error or has:tool_calls)"),
                            column: value_column,
                        })
                    }
                    _ => {
                        return Err(QueryError {
                            message: format!("unknown field `{field}:` (fields: {FIELDS}); quote the term to search for it as text"),
                            column: word_start + 1,
                        })
                    }
                }
            }
            _ => Test::Text(word.to_lowercase()),
        };
        terms.push(Term { negated, test });
    }
    Ok(terms)
}

/// Lower-cased searchable text of every event, built once per trace.
#[derive(Debug, Default)]
pub struct TextIndex {
    texts: Vec<String>,
}

impl TextIndex {
    pub fn new(trace: &Trace) -> TextIndex {
        TextIndex { texts: (0..trace.events.len()).map(|i| event_text(trace, i).to_lowercase()).collect() }
    }
}

/// The text free-text search looks at.
pub fn event_text(trace: &Trace, index: usize) -> String {
    let Some(e) = trace.events.get(index) else { return String::new() };
    let mut out = String::new();
    let push_content = |out: &mut String, c: &Content| {
        out.push_str(&c.text());
        out.push('\n');
    };
    match &e.body {
        EventBody::Message(m) => {
            push_content(&mut out, &m.content);
            for c in &m.tool_calls {
                out.push_str(&c.function);
                out.push('\n');
                out.push_str(&c.arguments.display());
                out.push('\n');
            }
        }
        EventBody::ToolCall(c) => {
            out.push_str(&c.function);
            out.push('\n');
            out.push_str(&c.arguments.display());
        }
        EventBody::ToolResult(r) => {
            // The answered call's name, so that searching a tool finds its results too.
            if let Some(c) = r.call.and_then(|c| trace.call(c)) {
                out.push_str(&c.function);
                out.push('\n');
            }
            push_content(&mut out, &r.content);
        }
        EventBody::ToolDefinitions(t) => {
            for t in t {
                out.push_str(&t.name);
                out.push('\n');
            }
        }
        EventBody::Unparsed(_) => {
            if let Some(raw) = trace.raw_json(index) {
                out.push_str(&String::from_utf8_lossy(raw));
            }
        }
        _ => out.push_str(&crate::view::summary(trace, e)),
    }
    out
}

fn calls_tool(trace: &Trace, index: usize, tool: &str) -> bool {
    let Some(e) = trace.events.get(index) else { return false };
    match &e.body {
        EventBody::Message(m) => m.tool_calls.iter().any(|c| c.function == tool),
        EventBody::ToolCall(c) => c.function == tool,
        EventBody::ToolResult(r) => r.call.and_then(|c| trace.call(c)).is_some_and(|c| c.function == tool),
        _ => false,
    }
}

/// Indices of the events matching `query`, in order. `index` is built on
/// first use of free text and reused.
pub fn filter(trace: &Trace, query: &str, index: &mut Option<TextIndex>) -> Result<Vec<u32>, QueryError> {
    let terms = parse(query)?;
    let needs_text = terms.iter().any(|t| matches!(t.test, Test::Text(_)));
    if needs_text && index.is_none() {
        *index = Some(TextIndex::new(trace));
    }
    let mut errors = vec![false; trace.events.len()];
    if terms.iter().any(|t| t.test == Test::IsError) {
        for d in &trace.diagnostics {
            if d.severity == Severity::Error {
                if let Some(flag) = d.event.and_then(|e| errors.get_mut(e as usize)) {
                    *flag = true;
                }
            }
        }
    }
    let mut out = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        let all = terms.iter().all(|t| {
            let hit = match &t.test {
                Test::Role(r) => match &e.body {
                    EventBody::Message(m) => m.role.to_lowercase() == *r,
                    EventBody::ToolResult(_) => r == "tool",
                    _ => false,
                },
                Test::Kind(k) => e.body.kind() == k || e.source_kind.to_lowercase() == *k,
                Test::Tool(name) => calls_tool(trace, i, name),
                Test::IsError => {
                    errors.get(i).copied().unwrap_or(false)
                        || e.failed
                        || matches!(&e.body, EventBody::ToolResult(r) if r.status == crate::model::ToolStatus::Error)
                }
                Test::HasToolCalls => matches!(&e.body, EventBody::Message(m) if !m.tool_calls.is_empty()),
                Test::Text(s) => index.as_ref().and_then(|ix| ix.texts.get(i)).is_some_and(|t| t.contains(s.as_str())),
            };
            hit != t.negated
        });
        if all {
            out.push(crate::source::clamp_u32(i));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_terms() {
        let t = parse(r#"role:assistant -kind:tool-result "exact Phrase" word"#).unwrap();
        assert_eq!(t.len(), 4);
        assert_eq!(t[0].test, Test::Role("assistant".into()));
        assert!(t[1].negated);
        assert_eq!(t[2].test, Test::Text("exact phrase".into()));
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse("role:user bogus:x").unwrap_err();
        assert_eq!(e.column, 11);
        assert!(e.message.contains("unknown field `bogus:`"));
        let e = parse(r#"a "open"#).unwrap_err();
        assert_eq!(e.column, 3);
        let e = parse("role:").unwrap_err();
        assert_eq!(e.column, 6);
        let e = parse("x - y").unwrap_err();
        assert_eq!(e.column, 3);
        // A URL is text, not a field.
        assert_eq!(parse("http://x").unwrap()[0].test, Test::Text("http://x".into()));
    }
}
