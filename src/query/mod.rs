//! The query language, evaluated over the whole trace in the core (never over
//! the rows a page happens to hold).
//!
//! ```text
//! query  := or?
//! or     := and ("OR" and)*          OR binds looser than AND
//! and    := unary+                   space = AND
//! unary  := "-" unary | "(" or ")" | term
//! term   := field ":" op? value | "phrase" | /regex/ | word
//! op     := ">" | "<" | ">=" | "<="  (numbers, `metadata.` fields of runs only)
//! ```
//!
//! Event fields: `role:`, `kind:`, `tool:`, `span:`, `is:error`, `is:warning`,
//! `has:tool_calls`, `after:`, `before:`, `text:`. Run fields (for
//! [`filter_runs`]): `metadata.<path>:`, `id:`, `text:`. Free words,
//! `"phrases"` and `/regexes/` search the event's text (content, tool names,
//! arguments, results), case-insensitively.
//!
//! A malformed query is a [`QueryError`] naming what is wrong and the 1-based
//! column (in characters) where it is.

use crate::model::Trace;

mod ci_find;
mod facets;
mod in_place;
mod index;
mod required_classes;
mod required_literal;
mod runs;
mod syntax;

pub use facets::{event_tools, facets, Facets};
pub use index::{event_text, event_text_into, QueryIndex};
pub use runs::{field_values, filter_runs, filterable_fields, FilterableField};
pub use syntax::Op;

use index::event_test;
use syntax::{compile, parse, Expr};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub message: String,
    /// 1-based column (in characters) in the query.
    pub column: usize,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "query error at column {}: {}", self.column, self.message)
    }
}

fn err<T>(column: usize, message: impl Into<String>) -> Result<T, QueryError> {
    Err(QueryError { message: message.into(), column })
}

/// Checks `query` without running it.
pub fn check(query: &str) -> Result<(), QueryError> {
    compile(parse(query)?, &event_test).map(|_| ())
}

/// Indices of the events matching `query`, in order. `index` keeps what the
/// evaluation builds (text, timestamps, …) for the next query.
pub fn filter(trace: &Trace, query: &str, index: &mut QueryIndex) -> Result<Vec<u32>, QueryError> {
    let expr = compile(parse(query)?, &event_test)?;
    if matches!(expr, Expr::All) {
        return Ok((0..trace.events.len()).map(crate::source::clamp_u32).collect());
    }
    index.prepare(trace, &expr);
    let index = &*index;
    Ok((0..trace.events.len())
        .filter(|&i| expr.eval(&mut |t| index.test(trace, i, t)))
        .map(crate::source::clamp_u32)
        .collect())
}

#[cfg(test)]
mod tests;
