//! Event terms and the per-trace index they are evaluated over: search
//! text (lower-cased and as is), role and kind ids, timestamps, span nodes,
//! diagnostic flags, each built on first use and kept.

use crate::analysis::failures::event_failed;
use crate::analysis::spans::{SpanTree, NO_NODE};
use crate::analysis::time::{parse_instant, Instant};
use crate::diagnostic::Severity;
use crate::model::{Content, EventBody, Trace};

use super::facets::event_tools;
use super::ci_find::CiFinder;
use super::in_place::InPlace;
use super::required_classes::{self, Shifts};
use super::syntax::{build_regex, Atom, Expr, Op};
use super::{err, required_literal, QueryError};

#[derive(Debug, Clone)]
pub(super) enum Test {
    Role(String),
    Kind(String),
    Tool(String),
    /// Segments of a span path prefix.
    Span(Vec<String>),
    IsError,
    IsWarning,
    HasToolCalls,
    /// Lower-cased, searched with memchr's memmem (vectorised where the
    /// target has SIMD; `str::contains` is a byte-at-a-time Two-Way on wasm)
    /// in the lower-cased index, or in place when there is none yet.
    Text(Box<TextTerm>),
    /// A `/regex/` and its prefilter.
    Regex(Box<RegexTerm>),
    After(Instant),
    Before(Instant),
}

const EVENT_FIELDS: &str = "role:, kind:, tool:, span:, is:error, is:warning, has:tool_calls, after:, before:, text:";

/// A free-text term: the lower-cased needle's searcher for the index, and
/// the plan to search the source in place (None: a needle it is not exact
/// for; the index is then built).
#[derive(Debug, Clone)]
pub(super) struct TextTerm {
    finder: memchr::memmem::Finder<'static>,
    in_place: Option<InPlace>,
}

fn text_finder(text: &str) -> Box<TextTerm> {
    let lower = text.to_lowercase();
    Box::new(TextTerm { finder: finder(lower.as_bytes()), in_place: InPlace::new(&lower) })
}

/// A `/regex/` term. The regex runs only on the events whose text holds
/// what every match holds: one of its literals (`required_literal`), else
/// one of its runs of byte classes (`required_classes`), found in one scan
/// of the whole text index on the term's first use.
#[derive(Debug, Clone)]
pub(super) struct RegexTerm {
    re: regex_lite::Regex,
    prefilter: Prefilter,
    /// Per event: whether its text holds what the prefilter looks for.
    candidates: std::cell::OnceCell<Vec<bool>>,
}

#[derive(Debug, Clone)]
enum Prefilter {
    None,
    /// ASCII, searched case-insensitively in the text as it is: `regex-lite`
    /// folds ASCII case only, so a match holds the literal in some case.
    Literals(Vec<CiFinder>),
    Classes(Vec<Shifts>),
}

impl RegexTerm {
    fn new(re: regex_lite::Regex, pattern: &str) -> RegexTerm {
        let prefilter = match required_literal::required_literals(pattern) {
            Some(literals) if !literals.is_empty() => Prefilter::Literals(literals.iter().map(|l| CiFinder::new(l.as_bytes())).collect()),
            _ => match required_classes::required_classes(pattern) {
                Some(runs) if !runs.is_empty() => Prefilter::Classes(runs.into_iter().map(Shifts::new).collect()),
                _ => Prefilter::None,
            },
        };
        RegexTerm { re, prefilter, candidates: std::cell::OnceCell::new() }
    }

    fn matches(&self, texts: &EventTexts, i: usize) -> bool {
        let candidate = match &self.prefilter {
            Prefilter::None => true,
            prefilter => {
                let marks = self.candidates.get_or_init(|| {
                    let mut marks = vec![false; texts.ends.len()];
                    match prefilter {
                        Prefilter::None => marks.fill(true),
                        Prefilter::Literals(literals) => {
                            for l in literals {
                                mark(texts, l.len(), |h, at| l.find_at(h, at), &mut marks);
                            }
                        }
                        Prefilter::Classes(runs) => {
                            for r in runs {
                                mark(texts, r.len(), |h, at| required_classes::find(h, r, at), &mut marks);
                            }
                        }
                    }
                    marks
                });
                marks.get(i).copied().unwrap_or(false)
            }
        };
        candidate && texts.get(i).and_then(|t| std::str::from_utf8(t).ok()).is_some_and(|t| self.re.is_match(t))
    }
}

/// Marks the events whose text holds a find of `find` (a needle `len` bytes
/// long): one scan over the whole buffer, skipping to the next event after a
/// find (a find across two events' texts is none).
fn mark(texts: &EventTexts, len: usize, find: impl Fn(&[u8], usize) -> Option<usize>, marks: &mut [bool]) {
    let (mut from, mut event) = (0, 0);
    while let Some(at) = find(&texts.text, from) {
        while texts.ends.get(event).is_some_and(|end| *end <= at) {
            event += 1;
        }
        let Some(&end) = texts.ends.get(event) else { break };
        if at + len <= end {
            if let Some(m) = marks.get_mut(event) {
                *m = true;
            }
            from = end;
        } else {
            from = at + 1;
        }
    }
}

/// One copy of memmem's searcher set-up (it inlines wherever it is called).
#[inline(never)]
fn finder(needle: &[u8]) -> memchr::memmem::Finder<'static> {
    memchr::memmem::Finder::new(needle).into_owned()
}

pub(super) fn event_test(atom: Atom, column: usize) -> Result<Test, QueryError> {
    let (name, op, value, value_column) = match atom {
        Atom::Text(t) => return Ok(Test::Text(text_finder(&t))),
        Atom::Regex(r) => return Ok(Test::Regex(Box::new(RegexTerm::new(build_regex(&r, column)?, &r)))),
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

/// The span tree and the node each event is in ([`SpanTree::event_nodes`]).
#[derive(Debug)]
struct SpanPaths {
    tree: SpanTree,
    of_event: Vec<u32>,
}

impl SpanPaths {
    fn build(trace: &Trace) -> SpanPaths {
        let tree = crate::analysis::spans::span_tree(trace);
        let of_event = tree.event_nodes(&trace.events);
        SpanPaths { tree, of_event }
    }

    /// Whether event `i` is in a span whose path starts with `prefix`.
    fn under(&self, i: usize, prefix: &[String]) -> bool {
        let Some(&node) = self.of_event.get(i).filter(|n| **n != NO_NODE) else { return false };
        let mut at = self.tree.nodes.get(node as usize);
        // Up to the ancestor at the prefix's depth, then compare names up to the root.
        while let Some(n) = at.filter(|n| n.depth as usize >= prefix.len()) {
            at = n.parent.and_then(|p| self.tree.nodes.get(p));
        }
        let Some(mut n) = at else { return prefix.is_empty() };
        if n.depth as usize + 1 != prefix.len() {
            return false;
        }
        for name in prefix.iter().rev() {
            if &n.name != name {
                return false;
            }
            match n.parent.and_then(|p| self.tree.nodes.get(p)) {
                Some(p) => n = p,
                None => break,
            }
        }
        true
    }
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
        _ => out.push_str(&crate::analysis::summary::summary(trace, e)),
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
            let role = e.role().map_or(Self::NONE, |r| intern(&mut seen, &mut ids, &mut out.names, r));
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
pub(super) fn push_lowercase(out: &mut Vec<u8>, text: &str) {
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
pub(super) struct EventTexts {
    pub(super) text: Vec<u8>,
    pub(super) ends: Vec<usize>,
}

impl EventTexts {
    pub(super) fn build(trace: &Trace, lowercase: bool) -> EventTexts {
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

    pub(super) fn get(&self, i: usize) -> Option<&[u8]> {
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? };
        self.text.get(start..*self.ends.get(i)?)
    }
}

impl QueryIndex {
    pub(super) fn prepare(&mut self, trace: &Trace, expr: &Expr<Test>) {
        if expr.any_term(&|t| matches!(t, Test::Role(_) | Test::Kind(_))) {
            self.fields.get_or_insert_with(|| EventFields::build(trace));
        }
        // Free text is searched in place until the index exists (built while
        // the viewer is idle: `prepare_search`), unless the needle is one the
        // in-place search is not exact for.
        if expr.any_term(&|t| matches!(t, Test::Text(t) if t.in_place.is_none())) {
            self.lower.get_or_insert_with(|| EventTexts::build(trace, true));
        }
        if self.text.is_none() && expr.any_term(&|t| matches!(t, Test::Regex(..))) {
            self.text = Some(EventTexts::build(trace, false));
        }
        if self.instants.is_none() && expr.any_term(&|t| matches!(t, Test::After(_) | Test::Before(_))) {
            self.instants = Some(trace.events.iter().map(|e| e.timestamp.as_deref().and_then(parse_instant)).collect());
        }
        if self.spans.is_none() && expr.any_term(&|t| matches!(t, Test::Span(_))) {
            self.spans = Some(SpanPaths::build(trace));
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

    /// Builds now the role/kind ids and the lower-cased text buffer, so that a
    /// viewer pays for them while idle: until then free text is searched in
    /// place (`in_place`: no wait for the first query), from then on in the
    /// buffer (several times faster than in place). Idempotent.
    pub fn prepare_search(&mut self, trace: &Trace) {
        self.fields.get_or_insert_with(|| EventFields::build(trace));
        self.lower.get_or_insert_with(|| EventTexts::build(trace, true));
    }

    /// Parsed timestamps of every event (None: missing or not a time).
    pub fn instants(&mut self, trace: &Trace) -> &[Option<Instant>] {
        self.instants.get_or_insert_with(|| trace.events.iter().map(|e| e.timestamp.as_deref().and_then(parse_instant)).collect())
    }

    pub(super) fn test(&self, trace: &Trace, i: usize, t: &Test) -> bool {
        let Some(e) = trace.events.get(i) else { return false };
        match t {
            Test::Role(r) => self.fields.as_ref().and_then(|f| f.name(&f.role, i)).is_some_and(|role| role == r),
            Test::Kind(k) => self
                .fields
                .as_ref()
                .is_some_and(|f| f.name(&f.kind, i) == Some(k.as_str()) || f.name(&f.source_kind, i) == Some(k.as_str())),
            Test::Tool(name) => event_tools(trace, i).contains(&name.as_str()),
            Test::Span(prefix) => self.spans.as_ref().is_some_and(|s| s.under(i, prefix)),
            Test::IsError => self.flags.as_ref().and_then(|f| f.get(i)).is_some_and(|f| f & 1 != 0) || event_failed(e),
            Test::IsWarning => self.flags.as_ref().and_then(|f| f.get(i)).is_some_and(|f| f & 2 != 0),
            Test::HasToolCalls => matches!(&e.body, EventBody::Message(m) if !m.tool_calls.is_empty()),
            Test::Text(s) => match (&self.lower, &s.in_place) {
                (Some(lower), _) => lower.get(i).is_some_and(|t| contains(&s.finder, t)),
                (None, Some(in_place)) => in_place.event_matches(trace, i),
                (None, None) => false,
            },
            Test::Regex(r) => self.text.as_ref().is_some_and(|texts| r.matches(texts, i)),
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
