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

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Severity;
use crate::model::{Content, EventBody, SpanPhase, ToolStatus, Trace};

pub mod instant;
mod required_literal;
pub use instant::{parse_instant, Instant};

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

// ---------------------------------------------------------------- syntax

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Gt,
    Ge,
    Lt,
    Le,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Eq => ":",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
        }
    }
}

/// A term as written, before it is checked against a domain's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    /// A free word or a `"phrase"`.
    Text(String),
    /// The pattern between the slashes.
    Regex(String),
    Field { name: String, op: Op, value: String, value_column: usize },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Or,
    Not,
    Atom(Atom),
}

/// A boolean expression over terms `T`.
#[derive(Debug, Clone)]
enum Expr<T> {
    All,
    And(Vec<Expr<T>>),
    Or(Vec<Expr<T>>),
    Not(Box<Expr<T>>),
    Term(T),
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// Reads `"…"` starting at the opening quote; `\"` and `\\` are escapes.
    fn quoted(&mut self) -> Result<String, QueryError> {
        let open = self.i + 1;
        self.i += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return err(open, "unterminated phrase: add the closing `\"`"),
                Some('"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some('\\') if matches!(self.chars.get(self.i + 1), Some('"') | Some('\\')) => {
                    out.extend(self.chars.get(self.i + 1));
                    self.i += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// Reads `/…/` starting at the opening slash; `\/` is a slash.
    fn regex(&mut self) -> Result<String, QueryError> {
        let open = self.i + 1;
        self.i += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return err(open, "unterminated regex: add the closing `/`"),
                Some('/') => {
                    self.i += 1;
                    if out.is_empty() {
                        return err(open, "empty regex `//`");
                    }
                    return Ok(out);
                }
                Some('\\') if self.chars.get(self.i + 1) == Some(&'/') => {
                    out.push('/');
                    self.i += 2;
                }
                Some('\\') => {
                    out.push('\\');
                    out.extend(self.chars.get(self.i + 1));
                    self.i += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// Reads to the end of a word. A `)` ends it when it closes a group,
    /// not when it closes a `(` of the word itself (`f(x)` is one word).
    fn bare(&mut self) -> String {
        let start = self.i;
        let mut open = 0usize;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || (c == ')' && open == 0) {
                break;
            }
            match c {
                '(' => open += 1,
                ')' => open -= 1,
                _ => {}
            }
            self.i += 1;
        }
        self.chars.get(start..self.i).unwrap_or(&[]).iter().collect()
    }

    /// A word, or `field:value` when it starts with a field name and a colon.
    fn word(&mut self) -> Result<Atom, QueryError> {
        let start = self.i;
        let mut j = self.i;
        while self.chars.get(j).is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '.') {
            j += 1;
        }
        let starts_alpha = self.chars.get(start).is_some_and(|c| c.is_alphabetic());
        let is_field = starts_alpha
            && j > start
            && self.chars.get(j) == Some(&':')
            // `http://…` is text, not a field.
            && !(self.chars.get(j + 1) == Some(&'/') && self.chars.get(j + 2) == Some(&'/'));
        if !is_field {
            return Ok(Atom::Text(self.bare()));
        }
        let name: String = self.chars.get(start..j).unwrap_or(&[]).iter().collect();
        self.i = j + 1;
        let op = match (self.peek(), self.chars.get(self.i + 1)) {
            (Some('>'), Some('=')) => Op::Ge,
            (Some('<'), Some('=')) => Op::Le,
            (Some('>'), _) => Op::Gt,
            (Some('<'), _) => Op::Lt,
            _ => Op::Eq,
        };
        self.i += match op {
            Op::Eq => 0,
            Op::Gt | Op::Lt => 1,
            Op::Ge | Op::Le => 2,
        };
        let value_column = self.i + 1;
        let value = if self.peek() == Some('"') { self.quoted()? } else { self.bare() };
        if value.is_empty() {
            return err(value_column, format!("`{name}{}` needs a value", op.symbol()));
        }
        Ok(Atom::Field { name, op, value, value_column })
    }

    fn tokens(mut self) -> Result<Vec<(Tok, usize)>, QueryError> {
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            let column = self.i + 1;
            if c.is_whitespace() {
                self.i += 1;
                continue;
            }
            let tok = match c {
                '(' => {
                    self.i += 1;
                    Tok::Open
                }
                ')' => {
                    self.i += 1;
                    Tok::Close
                }
                '-' => {
                    self.i += 1;
                    if self.peek().is_none_or(|c| c.is_whitespace()) {
                        return err(column, "`-` must be followed by a term to exclude");
                    }
                    Tok::Not
                }
                '"' => Tok::Atom(Atom::Text(self.quoted()?)),
                '/' => Tok::Atom(Atom::Regex(self.regex()?)),
                _ => match self.word()? {
                    Atom::Text(w) if w == "OR" => Tok::Or,
                    a => Tok::Atom(a),
                },
            };
            out.push((tok, column));
        }
        Ok(out)
    }
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    i: usize,
    /// Column just past the end, for errors at the end of the query.
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|(t, _)| t)
    }

    fn column(&self) -> usize {
        self.toks.get(self.i).map(|(_, c)| *c).unwrap_or(self.end)
    }

    fn at_term_start(&self) -> bool {
        matches!(self.peek(), Some(Tok::Open | Tok::Not | Tok::Atom(_)))
    }

    fn or(&mut self) -> Result<Expr<(Atom, usize)>, QueryError> {
        if self.peek() == Some(&Tok::Or) {
            return err(self.column(), "`OR` needs a term before it");
        }
        let mut alts = vec![self.and()?];
        while self.peek() == Some(&Tok::Or) {
            let column = self.column();
            self.i += 1;
            if !self.at_term_start() {
                return err(column, "`OR` needs a term after it");
            }
            alts.push(self.and()?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap_or(Expr::All) } else { Expr::Or(alts) })
    }

    fn and(&mut self) -> Result<Expr<(Atom, usize)>, QueryError> {
        let mut all = Vec::new();
        while self.at_term_start() {
            all.push(self.unary()?);
        }
        Ok(if all.len() == 1 { all.pop().unwrap_or(Expr::All) } else { Expr::And(all) })
    }

    fn unary(&mut self) -> Result<Expr<(Atom, usize)>, QueryError> {
        let column = self.column();
        let Some((tok, _)) = self.toks.get(self.i).cloned() else {
            return err(column, "expected a term");
        };
        self.i += 1;
        match tok {
            Tok::Not => {
                if !self.at_term_start() {
                    return err(column, "`-` must be followed by a term to exclude");
                }
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Tok::Open => {
                if self.peek() == Some(&Tok::Close) {
                    return err(column, "empty parentheses `()`");
                }
                let inner = self.or()?;
                if self.peek() != Some(&Tok::Close) {
                    return err(column, "unclosed `(`: add a `)`");
                }
                self.i += 1;
                Ok(inner)
            }
            Tok::Atom(a) => Ok(Expr::Term((a, column))),
            Tok::Close | Tok::Or => err(column, "expected a term"),
        }
    }
}

/// Parses the syntax (no field checks): shared by event and run queries.
fn parse(query: &str) -> Result<Expr<(Atom, usize)>, QueryError> {
    let lexer = Lexer { chars: query.chars().collect(), i: 0 };
    let end = lexer.chars.len() + 1;
    let toks = lexer.tokens()?;
    if toks.is_empty() {
        return Ok(Expr::All);
    }
    let mut p = Parser { toks, i: 0, end };
    let expr = p.or()?;
    match p.peek() {
        None => Ok(expr),
        Some(Tok::Close) => err(p.column(), "unmatched `)`"),
        Some(_) => err(p.column(), "unexpected term"),
    }
}

/// Checks every term of `expr` with `f` (which knows the domain's fields).
fn compile<T>(expr: Expr<(Atom, usize)>, f: &impl Fn(Atom, usize) -> Result<T, QueryError>) -> Result<Expr<T>, QueryError> {
    Ok(match expr {
        Expr::All => Expr::All,
        Expr::And(v) => Expr::And(v.into_iter().map(|e| compile(e, f)).collect::<Result<_, _>>()?),
        Expr::Or(v) => Expr::Or(v.into_iter().map(|e| compile(e, f)).collect::<Result<_, _>>()?),
        Expr::Not(e) => Expr::Not(Box::new(compile(*e, f)?)),
        Expr::Term((a, column)) => Expr::Term(f(a, column)?),
    })
}

impl<T> Expr<T> {
    fn eval(&self, test: &mut impl FnMut(&T) -> bool) -> bool {
        match self {
            Expr::All => true,
            Expr::And(v) => v.iter().all(|e| e.eval(test)),
            Expr::Or(v) => v.iter().any(|e| e.eval(test)),
            Expr::Not(e) => !e.eval(test),
            Expr::Term(t) => test(t),
        }
    }

    fn any_term(&self, pred: &impl Fn(&T) -> bool) -> bool {
        match self {
            Expr::All => false,
            Expr::And(v) | Expr::Or(v) => v.iter().any(|e| e.any_term(pred)),
            Expr::Not(e) => e.any_term(pred),
            Expr::Term(t) => pred(t),
        }
    }
}

fn build_regex(pattern: &str, column: usize) -> Result<regex_lite::Regex, QueryError> {
    // Case-insensitive like the rest of the search; `(?-i)` in the pattern turns it off.
    regex_lite::RegexBuilder::new(pattern)
        .case_insensitive(true)
        // `^` and `$` at line ends: event text holds many lines.
        .multi_line(true)
        .size_limit(1 << 20)
        .build()
        .or_else(|e| err(column, format!("invalid regex: {}", first_line(&e.to_string()))))
}

fn first_line(s: &str) -> &str {
    s.lines().rfind(|l| !l.trim().is_empty()).unwrap_or(s).trim()
}

// ---------------------------------------------------------------- events

#[derive(Debug, Clone)]
enum Test {
    Role(String),
    Kind(String),
    Tool(String),
    /// Segments of a span path prefix.
    Span(Vec<String>),
    IsError,
    IsWarning,
    HasToolCalls,
    /// Lower-cased, searched with memchr's memmem (vectorised where the
    /// target has SIMD; `str::contains` is a byte-at-a-time Two-Way on wasm).
    Text(Box<memchr::memmem::Finder<'static>>),
    /// The regex, and literals one of which every match contains (lower-cased;
    /// looked for in the free-text index first, so most events never reach the
    /// regex; none: no prefilter).
    Regex(regex_lite::Regex, Vec<memchr::memmem::Finder<'static>>),
    After(Instant),
    Before(Instant),
}

const EVENT_FIELDS: &str = "role:, kind:, tool:, span:, is:error, is:warning, has:tool_calls, after:, before:, text:";

fn text_finder(text: &str) -> Box<memchr::memmem::Finder<'static>> {
    Box::new(finder(text.to_lowercase().as_bytes()))
}

/// One copy of memmem's searcher set-up (it inlines wherever it is called).
#[inline(never)]
fn finder(needle: &[u8]) -> memchr::memmem::Finder<'static> {
    memchr::memmem::Finder::new(needle).into_owned()
}

fn event_test(atom: Atom, column: usize) -> Result<Test, QueryError> {
    let (name, op, value, value_column) = match atom {
        Atom::Text(t) => return Ok(Test::Text(text_finder(&t))),
        Atom::Regex(r) => {
            let re = build_regex(&r, column)?;
            let literals = required_literal::required_literals(&r).unwrap_or_default();
            return Ok(Test::Regex(re, literals.iter().map(|l| finder(l.as_bytes())).collect()));
        }
        Atom::Field { name, op, value, value_column } => (name, op, value, value_column),
    };
    let field = name.to_lowercase();
    if op != Op::Eq {
        return err(value_column.saturating_sub(op.symbol().len()), format!("`{}` compares numbers; `{name}:` takes a plain value", op.symbol()));
    }
    let instant = |value: &str| {
        parse_instant(value).ok_or_else(|| QueryError {
            message: format!("`{value}` is not a time: use ISO 8601, like 2024-05-01 or 2024-05-01T12:00:00Z"),
            column: value_column,
        })
    };
    Ok(match field.as_str() {
        "role" => Test::Role(value.to_lowercase()),
        "kind" => Test::Kind(value.to_lowercase()),
        "tool" => Test::Tool(value),
        "span" => Test::Span(value.split('/').filter(|s| !s.is_empty()).map(str::to_string).collect()),
        "text" => Test::Text(text_finder(&value)),
        "after" => Test::After(instant(&value)?),
        "before" => Test::Before(instant(&value)?),
        "is" => match value.to_lowercase().as_str() {
            "error" => Test::IsError,
            "warning" => Test::IsWarning,
            _ => return err(value_column, format!("unknown value `{value}` for `is:` (is:error, is:warning)")),
        },
        "has" => match value.to_lowercase().as_str() {
            "tool_calls" | "tool-calls" => Test::HasToolCalls,
            _ => return err(value_column, format!("unknown value `{value}` for `has:` (has:tool_calls)")),
        },
        _ if field.starts_with("metadata.") => {
            return err(column, format!("`{name}:` filters runs, not events: use it in the run filter"))
        }
        _ => {
            return err(
                column,
                format!("unknown field `{name}:` (fields: {EVENT_FIELDS}); quote the term to search for it as text"),
            )
        }
    })
}

/// Per-trace data the evaluator builds on first use and keeps: searchable
/// text, parsed timestamps, span paths, diagnostic flags.
#[derive(Debug, Default)]
pub struct QueryIndex {
    lower: Option<EventTexts>,
    text: Option<EventTexts>,
    fields: Option<EventFields>,
    instants: Option<Vec<Option<Instant>>>,
    spans: Option<SpanPaths>,
    /// Bit 0: has an error diagnostic; bit 1: a warning.
    flags: Option<Vec<u8>>,
}

/// The span each event is in: an index into `paths` (`u32::MAX`: none).
#[derive(Debug, Default)]
struct SpanPaths {
    of_event: Vec<u32>,
    paths: Vec<Vec<String>>,
}

/// The span path of every event: the event's own `span` when its format
/// names one on every record (Agent Catalog), else derived from
/// `EventBody::Span` records: a `Begin` makes its name path current for the
/// events after it (and itself), an `End` returns to the enclosing span; runs
/// start outside any span.
fn span_paths(trace: &Trace) -> SpanPaths {
    let mut out = SpanPaths { of_event: Vec::with_capacity(trace.events.len()), paths: Vec::new() };
    let mut stack: Vec<u32> = Vec::new();
    let mut run = u32::MAX;
    let mut own: std::collections::HashMap<&[String], u32> = std::collections::HashMap::new();
    for e in &trace.events {
        if e.run != run {
            run = e.run;
            stack.clear();
        }
        if let Some(path) = e.span.as_deref() {
            let id = *own.entry(path).or_insert_with(|| {
                out.paths.push(path.to_vec());
                crate::source::clamp_u32(out.paths.len() - 1)
            });
            out.of_event.push(id);
            continue;
        }
        match &e.body {
            EventBody::Span(s) if s.phase == SpanPhase::Begin => {
                out.paths.push(s.name.clone());
                let id = crate::source::clamp_u32(out.paths.len() - 1);
                stack.push(id);
                out.of_event.push(id);
            }
            EventBody::Span(s) => {
                // The end belongs to the span it closes; unwind to it (tolerates unbalanced input).
                let at = stack.iter().rposition(|id| out.paths.get(*id as usize) == Some(&s.name));
                let here = at.and_then(|i| stack.get(i).copied()).or(stack.last().copied()).unwrap_or(u32::MAX);
                out.of_event.push(here);
                if let Some(i) = at {
                    stack.truncate(i);
                } else {
                    stack.pop();
                }
            }
            _ => out.of_event.push(stack.last().copied().unwrap_or(u32::MAX)),
        }
    }
    out
}

/// The text free-text search looks at.
pub fn event_text(trace: &Trace, index: usize) -> String {
    let mut out = String::new();
    event_text_into(trace, index, &mut out);
    out
}

/// [`event_text`], appended to `out`: the search index builds every event's
/// text into one reused buffer instead of a `String` (or three) per event.
pub fn event_text_into(trace: &Trace, index: usize, out: &mut String) {
    let Some(e) = trace.events.get(index) else { return };
    let push_content = |out: &mut String, c: &Content| {
        c.push_text(out);
        if let Content::Parts(parts) = c {
            for p in parts {
                if let crate::model::ContentPart::Reasoning(t) = p {
                    out.push('\n');
                    t.push_to(out);
                }
            }
        }
        out.push('\n');
    };
    match &e.body {
        EventBody::Message(m) => {
            push_content(out, &m.content);
            for c in &m.tool_calls {
                out.push_str(&c.function);
                out.push('\n');
                c.arguments.push_display(out);
                out.push('\n');
            }
        }
        EventBody::ToolCall(c) => {
            out.push_str(&c.function);
            out.push('\n');
            c.arguments.push_display(out);
        }
        EventBody::ToolResult(r) => {
            // The answered call's name, so that searching a tool finds its results too.
            if let Some(c) = r.call.and_then(|c| trace.call(c)) {
                out.push_str(&c.function);
                out.push('\n');
            }
            push_content(out, &r.content);
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
}

/// Every event's role, kind and source kind as ids into one small table of
/// lower-cased names. Field terms then read three `u32` arrays instead of
/// each event's model (two cache misses per event: the event, then its role's
/// heap string), which was most of a field filter's time on big traces.
#[derive(Debug, Default)]
struct EventFields {
    names: Vec<String>,
    role: Vec<u32>,
    kind: Vec<u32>,
    source_kind: Vec<u32>,
}

impl EventFields {
    const NONE: u32 = u32::MAX;

    fn build(trace: &Trace) -> EventFields {
        let mut out = EventFields::default();
        // Few distinct names (roles, kinds): a linear scan of them beats hashing
        // every event's three strings; a map takes over if a trace has many.
        fn intern<'t>(seen: &mut Vec<(&'t str, u32)>, ids: &mut std::collections::HashMap<&'t str, u32>, names: &mut Vec<String>, s: &'t str) -> u32 {
            if let Some((_, id)) = seen.iter().find(|(k, _)| *k == s) {
                return *id;
            }
            if let Some(id) = ids.get(s) {
                return *id;
            }
            names.push(s.to_lowercase());
            let id = crate::source::clamp_u32(names.len() - 1);
            if seen.len() < 32 {
                seen.push((s, id));
            } else {
                ids.insert(s, id);
            }
            id
        }
        let mut seen = Vec::new();
        let mut ids = std::collections::HashMap::new();
        let n = trace.events.len();
        out.role.reserve(n);
        out.kind.reserve(n);
        out.source_kind.reserve(n);
        for e in &trace.events {
            let role = event_role(e).map_or(Self::NONE, |r| intern(&mut seen, &mut ids, &mut out.names, r));
            out.role.push(role);
            let kind = intern(&mut seen, &mut ids, &mut out.names, e.body.kind());
            out.kind.push(kind);
            let source_kind = intern(&mut seen, &mut ids, &mut out.names, &e.source_kind);
            out.source_kind.push(source_kind);
        }
        out
    }

    fn name(&self, ids: &[u32], i: usize) -> Option<&str> {
        ids.get(i).and_then(|id| self.names.get(*id as usize)).map(String::as_str)
    }
}

/// Appends `text.to_lowercase()` to `out`. `str::to_lowercase` goes char by
/// char through the case tables from the first non-ASCII character on; trace
/// text is mostly ASCII with Unicode sprinkled through, so this lowers eight
/// ASCII bytes at a time (one `u64` of bit tricks, which needs no SIMD) and
/// looks up only the other characters.
fn push_lowercase(out: &mut Vec<u8>, text: &str) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let from = out.len();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while let Some(Ok(word)) = bytes.get(i..i + 8).map(<[u8; 8]>::try_from) {
            let word = u64::from_le_bytes(word);
            if word & HIGH != 0 {
                break;
            }
            // Per byte (all < 0x80, so no carries between bytes): the high bit of
            // b + 0x3f is set when b >= 'A', that of b + 0x25 when b > 'Z'.
            let upper = (word + 0x3f3f_3f3f_3f3f_3f3f) & !(word + 0x2525_2525_2525_2525) & HIGH;
            out.extend_from_slice(&(word | (upper >> 2)).to_le_bytes());
            i += 8;
        }
        match bytes.get(i) {
            None => break,
            Some(b) if b.is_ascii() => {
                out.push(b.to_ascii_lowercase());
                i += 1;
            }
            Some(_) => {
                // `i` is on a character boundary: only whole characters are consumed.
                let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else { break };
                if c == 'Σ' {
                    // Σ lowers by context (word-final ς): the standard library's job.
                    out.truncate(from);
                    out.extend_from_slice(text.to_lowercase().as_bytes());
                    return;
                }
                let mut buf = [0u8; 4];
                for lower in c.to_lowercase() {
                    out.extend_from_slice(lower.encode_utf8(&mut buf).as_bytes());
                }
                i += c.len_utf8();
            }
        }
    }
}

/// Every event's search text in one buffer: event `i`'s is
/// `text[ends[i - 1]..ends[i]]`. One allocation instead of one per event
/// (47,581 on the 100 MB benchmark trace), and one contiguous scan for the
/// substring search. Bytes, as memmem searches them; always UTF-8.
#[derive(Debug, Default)]
struct EventTexts {
    text: Vec<u8>,
    ends: Vec<usize>,
}

impl EventTexts {
    fn build(trace: &Trace, lowercase: bool) -> EventTexts {
        // The texts come out of the source, so its size is about theirs: one
        // allocation up front instead of doubling a 100 MB buffer (copies, and
        // wasm memory grown piecemeal), shrunk to fit after.
        let mut out = EventTexts { text: Vec::with_capacity(trace.source.len()), ends: Vec::with_capacity(trace.events.len()) };
        let mut scratch = String::new();
        for i in 0..trace.events.len() {
            scratch.clear();
            event_text_into(trace, i, &mut scratch);
            if lowercase {
                push_lowercase(&mut out.text, &scratch);
            } else {
                out.text.extend_from_slice(scratch.as_bytes());
            }
            out.ends.push(out.text.len());
        }
        out.text.shrink_to_fit();
        out
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? };
        self.text.get(start..*self.ends.get(i)?)
    }
}

/// The tool names an event is about: the calls it makes, or the call it answers.
pub fn event_tools(trace: &Trace, index: usize) -> Vec<&str> {
    let Some(e) = trace.events.get(index) else { return Vec::new() };
    match &e.body {
        EventBody::Message(m) => {
            let mut v: Vec<&str> = m.tool_calls.iter().map(|c| c.function.as_str()).collect();
            crate::sort::short_by(&mut v, Ord::cmp);
            v.dedup();
            v
        }
        EventBody::ToolCall(c) => vec![c.function.as_str()],
        EventBody::ToolResult(r) => r.call.and_then(|c| trace.call(c)).map(|c| vec![c.function.as_str()]).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The role facet of an event: a message's role, `tool` for results.
pub fn event_role(e: &crate::model::Event) -> Option<&str> {
    match &e.body {
        EventBody::Message(m) => Some(&m.role),
        EventBody::ToolResult(_) => Some("tool"),
        _ => None,
    }
}

impl QueryIndex {
    fn prepare(&mut self, trace: &Trace, expr: &Expr<Test>) {
        if expr.any_term(&|t| matches!(t, Test::Role(_) | Test::Kind(_))) {
            self.fields.get_or_insert_with(|| EventFields::build(trace));
        }
        // A regex with required literals looks in the same lower-cased text first.
        if expr.any_term(&|t| matches!(t, Test::Text(_)) || matches!(t, Test::Regex(_, literals) if !literals.is_empty())) {
            self.lower.get_or_insert_with(|| EventTexts::build(trace, true));
        }
        if self.text.is_none() && expr.any_term(&|t| matches!(t, Test::Regex(..))) {
            self.text = Some(EventTexts::build(trace, false));
        }
        if self.instants.is_none() && expr.any_term(&|t| matches!(t, Test::After(_) | Test::Before(_))) {
            self.instants = Some(trace.events.iter().map(|e| e.timestamp.as_deref().and_then(parse_instant)).collect());
        }
        if self.spans.is_none() && expr.any_term(&|t| matches!(t, Test::Span(_))) {
            self.spans = Some(span_paths(trace));
        }
        if self.flags.is_none() && expr.any_term(&|t| matches!(t, Test::IsError | Test::IsWarning)) {
            let mut flags = vec![0u8; trace.events.len()];
            for d in &trace.diagnostics {
                let bit = match d.severity {
                    Severity::Error => 1,
                    Severity::Warning => 2,
                    Severity::Info => 0,
                };
                if let Some(f) = d.event.and_then(|e| flags.get_mut(e as usize)) {
                    *f |= bit;
                }
            }
            self.flags = Some(flags);
        }
    }

    /// Builds now what the first field and free-text queries would build
    /// (role/kind ids, the lower-cased text buffer), so that a viewer can pay
    /// for it while idle instead of on the user's first query. Idempotent.
    pub fn prepare_search(&mut self, trace: &Trace) {
        self.fields.get_or_insert_with(|| EventFields::build(trace));
        self.lower.get_or_insert_with(|| EventTexts::build(trace, true));
    }

    /// Parsed timestamps of every event (None: missing or not a time).
    pub fn instants(&mut self, trace: &Trace) -> &[Option<Instant>] {
        self.instants.get_or_insert_with(|| trace.events.iter().map(|e| e.timestamp.as_deref().and_then(parse_instant)).collect())
    }

    fn test(&self, trace: &Trace, i: usize, t: &Test) -> bool {
        let Some(e) = trace.events.get(i) else { return false };
        match t {
            Test::Role(r) => self.fields.as_ref().and_then(|f| f.name(&f.role, i)).is_some_and(|role| role == r),
            Test::Kind(k) => self
                .fields
                .as_ref()
                .is_some_and(|f| f.name(&f.kind, i) == Some(k.as_str()) || f.name(&f.source_kind, i) == Some(k.as_str())),
            Test::Tool(name) => event_tools(trace, i).contains(&name.as_str()),
            Test::Span(prefix) => self.spans.as_ref().is_some_and(|s| {
                s.of_event
                    .get(i)
                    .and_then(|id| s.paths.get(*id as usize))
                    .is_some_and(|path| path.len() >= prefix.len() && path.iter().zip(prefix).all(|(a, b)| a == b))
            }),
            Test::IsError => {
                self.flags.as_ref().and_then(|f| f.get(i)).is_some_and(|f| f & 1 != 0)
                    || e.failed
                    || matches!(&e.body, EventBody::ToolResult(r) if r.status == ToolStatus::Error)
            }
            Test::IsWarning => self.flags.as_ref().and_then(|f| f.get(i)).is_some_and(|f| f & 2 != 0),
            Test::HasToolCalls => matches!(&e.body, EventBody::Message(m) if !m.tool_calls.is_empty()),
            Test::Text(s) => self.lower.as_ref().and_then(|v| v.get(i)).is_some_and(|t| contains(s, t)),
            Test::Regex(re, literals) => {
                if let (false, Some(lower)) = (literals.is_empty(), self.lower.as_ref().and_then(|v| v.get(i))) {
                    if !literals.iter().any(|l| contains(l, lower)) {
                        return false;
                    }
                }
                self.text.as_ref().and_then(|v| v.get(i)).and_then(|t| std::str::from_utf8(t).ok()).is_some_and(|t| re.is_match(t))
            }
            Test::After(at) => self.instants.as_ref().and_then(|v| v.get(i)).copied().flatten().is_some_and(|t| t > *at),
            Test::Before(at) => self.instants.as_ref().and_then(|v| v.get(i)).copied().flatten().is_some_and(|t| t < *at),
        }
    }
}

/// memmem's search, compiled once: it inlines a vector searcher per call site.
#[inline(never)]
fn contains(finder: &memchr::memmem::Finder<'_>, haystack: &[u8]) -> bool {
    finder.find(haystack).is_some()
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

/// Counts per facet among a set of events.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facets {
    pub total: u32,
    pub role: std::collections::BTreeMap<String, u32>,
    pub kind: std::collections::BTreeMap<&'static str, u32>,
    pub source_kind: std::collections::BTreeMap<String, u32>,
    /// Events calling each tool or answering a call of it.
    pub tool: std::collections::BTreeMap<String, u32>,
}

/// Facet counts over `events` (indices into the trace).
pub fn facets(trace: &Trace, events: &[u32]) -> Facets {
    let mut f = Facets::default();
    for &i in events {
        let Some(e) = trace.events.get(i as usize) else { continue };
        f.total += 1;
        if let Some(r) = event_role(e) {
            *f.role.entry(r.to_string()).or_insert(0) += 1;
        }
        *f.kind.entry(e.body.kind()).or_insert(0) += 1;
        *f.source_kind.entry(e.source_kind.clone()).or_insert(0) += 1;
        for t in event_tools(trace, i as usize) {
            *f.tool.entry(t.to_string()).or_insert(0) += 1;
        }
    }
    f
}

// ---------------------------------------------------------------- runs

#[derive(Debug, Clone)]
enum RunTest {
    Meta { path: Vec<String>, op: Op, value: String, number: Option<f64> },
    Id(String),
    Text(String),
    Regex(regex_lite::Regex),
}

fn run_test(atom: Atom, column: usize) -> Result<RunTest, QueryError> {
    let (name, op, value, value_column) = match atom {
        Atom::Text(t) => return Ok(RunTest::Text(t.to_lowercase())),
        Atom::Regex(r) => return Ok(RunTest::Regex(build_regex(&r, column)?)),
        Atom::Field { name, op, value, value_column } => (name, op, value, value_column),
    };
    let number = value.parse::<f64>().ok().filter(|n| n.is_finite());
    if let Some(path) = name.strip_prefix("metadata.") {
        let path: Vec<String> = path.split('.').map(str::to_string).collect();
        if path.iter().any(String::is_empty) {
            return err(column, format!("`{name}` has an empty path segment"));
        }
        if op != Op::Eq && number.is_none() {
            return err(value_column, format!("`{}` needs a number, not `{value}`", op.symbol()));
        }
        return Ok(RunTest::Meta { path, op, value, number });
    }
    if op != Op::Eq {
        return err(value_column.saturating_sub(op.symbol().len()), format!("`{}` compares numbers of `metadata.` fields only", op.symbol()));
    }
    match name.to_lowercase().as_str() {
        "id" => Ok(RunTest::Id(value)),
        "text" => Ok(RunTest::Text(value.to_lowercase())),
        _ => err(column, format!("unknown run field `{name}:` (fields: metadata.<path>:, id:, text:)")),
    }
}

/// Follows a dotted path into metadata; a key that itself holds dots is
/// found too (the longest matching key wins).
fn lookup<'v>(map: &'v serde_json::Map<String, Value>, path: &[String]) -> Option<&'v Value> {
    for k in (1..=path.len()).rev() {
        let key = path.get(..k)?.join(".");
        if let Some(v) = map.get(&key) {
            let rest = path.get(k..)?;
            if rest.is_empty() {
                return Some(v);
            }
            if let Value::Object(inner) = v {
                if let Some(found) = lookup(inner, rest) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// `*` matches any run of characters; the rest compares case-insensitively.
fn glob_eq(pattern: &str, text: &str) -> bool {
    let p = pattern.to_lowercase();
    let t = text.to_lowercase();
    if !p.contains('*') {
        return p == t;
    }
    let parts: Vec<&str> = p.split('*').collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else { return false };
    if !t.starts_with(first) || t.len() < first.len() + last.len() || !t.ends_with(last) {
        return false;
    }
    let mut rest = t.get(first.len()..t.len() - last.len()).unwrap_or("");
    for mid in parts.get(1..parts.len().saturating_sub(1)).unwrap_or(&[]) {
        match rest.find(mid) {
            Some(at) => rest = rest.get(at + mid.len()..).unwrap_or(""),
            None => return false,
        }
    }
    true
}

fn meta_matches(v: &Value, op: Op, value: &str, number: Option<f64>) -> bool {
    match (v, op) {
        (Value::Array(items), _) => items.iter().any(|x| meta_matches(x, op, value, number)),
        (Value::Number(n), _) => {
            let (Some(n), Some(q)) = (n.as_f64(), number) else { return false };
            match op {
                Op::Eq => n == q,
                Op::Gt => n > q,
                Op::Ge => n >= q,
                Op::Lt => n < q,
                Op::Le => n <= q,
            }
        }
        (_, Op::Gt | Op::Ge | Op::Lt | Op::Le) => false,
        (Value::Bool(b), Op::Eq) => value.eq_ignore_ascii_case(if *b { "true" } else { "false" }),
        (Value::Null, Op::Eq) => value.eq_ignore_ascii_case("null"),
        (Value::String(s), Op::Eq) => glob_eq(value, s),
        (Value::Object(_), Op::Eq) => false,
    }
}

/// The text a run's free-text search looks at: id, name, description, metadata.
fn run_text(run: &crate::model::AgentRun) -> String {
    let mut out = run.id.clone();
    for s in [&run.name, &run.description].into_iter().flatten() {
        out.push('\n');
        out.push_str(s);
    }
    out.push('\n');
    out.push_str(&Value::Object(run.metadata.clone()).to_string());
    out
}

/// Indices of the runs matching `query`: `metadata.<path>:<value>` (with
/// `>`, `<`, `>=`, `<=` for numbers), `id:`, free text, regex.
pub fn filter_runs(trace: &Trace, query: &str) -> Result<Vec<u32>, QueryError> {
    let expr = compile(parse(query)?, &run_test)?;
    let needs_text = expr.any_term(&|t| matches!(t, RunTest::Text(_) | RunTest::Regex(_)));
    Ok(trace
        .runs
        .iter()
        .enumerate()
        .filter(|(_, run)| {
            let text = if needs_text { run_text(run) } else { String::new() };
            let lower = if needs_text { text.to_lowercase() } else { String::new() };
            expr.eval(&mut |t| match t {
                RunTest::Meta { path, op, value, number } => {
                    lookup(&run.metadata, path).is_some_and(|v| meta_matches(v, *op, value, *number))
                }
                RunTest::Id(id) => glob_eq(id, &run.id),
                RunTest::Text(s) => lower.contains(s.as_str()),
                RunTest::Regex(re) => re.is_match(&text),
            })
        })
        .map(|(i, _)| crate::source::clamp_u32(i))
        .collect())
}

/// A field the run filter can use, with its JSON type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FilterableField {
    pub name: String,
    /// `bool`, `int`, `float`, `str`.
    #[serde(rename = "type")]
    pub kind: &'static str,
}

fn scalar_type(v: &Value) -> Option<&'static str> {
    match v {
        Value::Bool(_) => Some("bool"),
        Value::Number(n) if n.is_f64() => Some("float"),
        Value::Number(_) => Some("int"),
        Value::String(_) => Some("str"),
        _ => None,
    }
}

/// Scalar fields of the runs' metadata, like Docent's
/// `get_filterable_fields(max_depth=1)`: `metadata.<key>` and one level of
/// nesting `metadata.<key>.<key>`, in first-seen order; a field that is an
/// int in one run and a float in another is a `float`. Then `text`.
pub fn filterable_fields(trace: &Trace) -> Vec<FilterableField> {
    fn visit(prefix: &str, map: &serde_json::Map<String, Value>, depth: usize, out: &mut Vec<FilterableField>) {
        for (k, v) in map {
            let name = format!("{prefix}.{k}");
            if let Value::Object(inner) = v {
                if depth > 0 {
                    visit(&name, inner, depth - 1, out);
                }
                continue;
            }
            let Some(kind) = scalar_type(v) else { continue };
            match out.iter_mut().find(|f| f.name == name) {
                Some(f) if f.kind != kind && matches!((f.kind, kind), ("int", "float") | ("float", "int")) => f.kind = "float",
                Some(_) => {}
                None => out.push(FilterableField { name, kind }),
            }
        }
    }
    let mut out = Vec::new();
    for run in &trace.runs {
        visit("metadata", &run.metadata, 1, &mut out);
    }
    out.push(FilterableField { name: "text".to_string(), kind: "str" });
    out
}

#[cfg(test)]
mod tests;
