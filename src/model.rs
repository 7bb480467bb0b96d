//! The shared trace model: the one shape every format is read into and the
//! only one renderers, filters and the wasm API see.
//!
//! `Trace` (one parsed input) → `AgentRun`s → `Transcript`s → events. Events
//! live in one flat vector on the trace, in source order, and transcripts
//! refer to ranges of it: filters and the UI work with plain event indices.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::json::Layout;
use crate::source::{LazySourceMap, Position};
pub use crate::event_metadata::EventMetadata;
pub use crate::lazy_value::LazyValue;
pub use crate::source_kind::SourceKind;
pub use crate::text::{Source, Text};

pub type Metadata = Map<String, Value>;

/// One parsed input file.
#[derive(Debug)]
pub struct Trace {
    /// Format id (`openai`, …).
    pub format: &'static str,
    pub detection: Detection,
    pub layout: Layout,
    pub runs: Vec<AgentRun>,
    pub events: Vec<Event>,
    pub diagnostics: Vec<Diagnostic>,
    /// File-level metadata that belongs to no run (an Explorer dataset's first line).
    pub metadata: Metadata,
    /// The input bytes; events, diagnostics and [`Text`]s point into them.
    pub source: Source,
    /// Lines of [`Self::source`], built when a position is first asked for.
    pub source_map: LazySourceMap,
    /// The input files when several were read as one ([`crate::parse_files`]):
    /// which file holds a byte range. Empty for a single input.
    pub files: Vec<SourceFile>,
}

/// One file of a multi-file input.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceFile {
    pub name: String,
    /// Its bytes in `Trace::source`.
    pub range: Range<usize>,
    /// Line of its first byte in the joined source (1-based); lines of its
    /// events and diagnostics count from its own start.
    pub first_line: u32,
}

/// Lines before the file holding `offset` in the joined source (0 for a
/// single input): what makes a line count from its own file's start. The
/// files are joined in order, found by bisection (a scan per event was
/// quadratic on a folder of thousands of files).
pub fn first_line_before(files: &[SourceFile], offset: usize) -> u32 {
    let i = files.partition_point(|f| f.range.end <= offset);
    files.get(i).filter(|f| f.range.contains(&offset)).map(|f| f.first_line.saturating_sub(1)).unwrap_or(0)
}

/// Why a format was chosen.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detection {
    pub format: &'static str,
    /// True when the caller named the format instead of detection choosing it.
    pub forced: bool,
    /// 0.0–1.0: the share of sampled records that matched.
    pub confidence: f32,
    /// The fields that matched, in words.
    pub evidence: Vec<String>,
    /// The next best format, when it came close.
    pub runner_up: Option<String>,
}

/// An agent run: one session, trace or conversation of the source.
#[derive(Debug, Clone)]
pub struct AgentRun {
    pub id: String,
    pub name: Option<String>,
    pub description: Option<String>,
    /// Ordered; keys are unique within the run.
    pub transcripts: Vec<Transcript>,
    pub metadata: Metadata,
    /// Where the run's own record starts in the source, if it has one.
    pub offset: Option<usize>,
    /// The tool call that started this run, when it is a sub-agent's (a
    /// Claude Code task, a Gemini CLI sub-agent): views show the run under
    /// that call.
    pub started_by: Option<CallRef>,
    /// The archive member holding the run's body when it was left unread
    /// (an archive opened lazily, [`crate::ParseOptions::pending_bodies`]):
    /// the run has its summary's metadata and outcome, not its events.
    pub pending_body: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Transcript {
    pub key: String,
    /// Indices into `Trace::events`.
    pub events: Range<u32>,
    pub metadata: Metadata,
    /// The transcript retells what another transcript of the run holds
    /// (Inspect's event log beside its messages): its events are shown and
    /// searched, but its tool calls are not counted again.
    pub retells: bool,
}

/// One record of the source: a list item, a JSONL line, a log record.
#[derive(Debug, Clone)]
pub struct Event {
    pub run: u32,
    pub transcript: u32,
    pub body: EventBody,
    /// The format's own name for the record kind (`Message`, `ToolOutput`, `ActionEvent`, …).
    pub source_kind: SourceKind,
    pub timestamp: Option<String>,
    /// Bytes of the record in the source: its raw JSON.
    pub raw: Range<usize>,
    /// JSONPath of the record inside its top-level value. (Its line and
    /// column: [`Trace::event_position`].)
    pub path: String,
    /// The span path the record was logged under, root first, for formats
    /// that name one on every record (Agent Catalog's `span.name`).
    pub span: Option<Vec<String>>,
    /// True when the source marks the record itself as a failure (an agent
    /// error, a failed step), whatever its kind; `is:error` finds it.
    pub failed: bool,
    /// Record fields the body has no place for (model, token counts, state, …),
    /// built when first read where a fast path left them in the source.
    pub metadata: EventMetadata,
    /// Token usage, duration, model and hand-off, typed, when the record
    /// gives them (see [`EventFacts`]). Boxed: most events have none, and a
    /// trace has many events.
    pub facts: Option<Box<EventFacts>>,
}

/// What a record says about its model call or hand-off, in typed fields that
/// the format modules fill, so that analysis reads one shape instead of
/// guessing metadata keys across formats. The values stay in
/// [`Event::metadata`] (or the raw JSON) as written too.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EventFacts {
    pub usage: Option<Usage>,
    /// What the call cost, as the record itself reports it (never priced by us).
    pub cost: Option<Cost>,
    /// How long the call took, in milliseconds, as the record says.
    pub duration_ms: Option<f64>,
    /// The model that answered.
    pub model: Option<String>,
    /// A hand-off from one span to another (Agent Catalog `edge` records).
    pub handoff: Option<Handoff>,
}

/// The facts of an event that has none.
static NO_FACTS: EventFacts = EventFacts { usage: None, cost: None, duration_ms: None, model: None, handoff: None };

/// Token counts of one model call, as the format reports them. A count the
/// source does not give is 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Prompt tokens as the source counts them: OpenAI's `prompt_tokens`
    /// include the cached ones, Anthropic's `input_tokens` do not.
    pub input_tokens: u64,
    /// Completion tokens (OpenAI's include the reasoning ones).
    pub output_tokens: u64,
    /// Prompt tokens read from the cache (Anthropic's
    /// `cache_read_input_tokens`, OpenAI's `prompt_tokens_details.cached_tokens`).
    pub cache_read_input_tokens: u64,
    /// Prompt tokens written to the cache (Anthropic).
    pub cache_creation_input_tokens: u64,
    /// Reasoning tokens among the output (OpenAI's
    /// `completion_tokens_details.reasoning_tokens`).
    pub reasoning_output_tokens: u64,
    /// The source's total when it gives one, else what its counts add up to.
    pub total_tokens: u64,
}

impl Usage {
    /// Adds `other` field by field (saturating: counts come from the input).
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.cache_read_input_tokens = self.cache_read_input_tokens.saturating_add(other.cache_read_input_tokens);
        self.cache_creation_input_tokens = self.cache_creation_input_tokens.saturating_add(other.cache_creation_input_tokens);
        self.reasoning_output_tokens = self.reasoning_output_tokens.saturating_add(other.reasoning_output_tokens);
        self.total_tokens = self.total_tokens.saturating_add(other.total_tokens);
    }
}

/// What one model call cost, in US dollars, as the trace reports it: every
/// source read (Langfuse, LangSmith, Claude Code's `costUSD`, OpenInference's
/// `llm.cost.*`, Inspect's `ModelUsage.total_cost`) documents its costs as
/// USD. Never computed from a price table of ours: a call whose record says
/// nothing about cost has none, which is not a cost of 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// The source's total, else the sum of the parts it gives.
    pub total: f64,
    /// The input (prompt) cost, when the source gives it apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<f64>,
    /// The output (completion) cost, when the source gives it apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<f64>,
}

impl Cost {
    /// A cost from the source's total and parts, where `others` are the
    /// parts besides input and output (Langfuse's cache kinds) that a missing
    /// total adds up. None when the source gives no figure at all.
    pub fn from_parts(total: Option<f64>, input: Option<f64>, output: Option<f64>, others: &[f64]) -> Option<Cost> {
        if total.is_none() && input.is_none() && output.is_none() && others.is_empty() {
            return None;
        }
        let parts = input.into_iter().chain(output).chain(others.iter().copied()).fold(0.0, |a, b| a + b);
        Some(Cost { total: total.unwrap_or(parts), input, output })
    }

    /// Adds `other` part by part: a part either side gives is kept.
    pub fn add(&mut self, other: &Cost) {
        let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.total += other.total;
        self.input = sum(self.input, other.input);
        self.output = sum(self.output, other.output);
    }
}

/// A unit of work handing over to another: the span paths, root first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handoff {
    pub source: Vec<String>,
    pub dest: Vec<String>,
}

impl Event {
    /// The typed facts of the record (all `None` when it gave none).
    pub fn facts(&self) -> &EventFacts {
        self.facts.as_deref().unwrap_or(&NO_FACTS)
    }

    /// The facts, to fill in (format modules).
    pub fn facts_mut(&mut self) -> &mut EventFacts {
        self.facts.get_or_insert_with(Box::default)
    }

    /// The role facet: a message's role, `tool` for tool results.
    pub fn role(&self) -> Option<&str> {
        match &self.body {
            EventBody::Message(m) => Some(&m.role),
            EventBody::ToolResult(_) => Some("tool"),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub enum EventBody {
    Message(Message),
    /// A tool call recorded as its own record (not inside a message).
    ToolCall(ToolCall),
    ToolResult(ToolResult),
    /// A declaration of the tools available to the agent.
    ToolDefinitions(Vec<ToolDefinition>),
    /// A span opening or closing (trace formats with nesting).
    Span(SpanEvent),
    /// A point in time with a label (state changes, pauses, condensations).
    Marker(Marker),
    KeyValue(KeyValue),
    /// A record the format module could not read; its raw JSON is all there is.
    Unparsed(String),
}

impl EventBody {
    /// The shared model's kind name, as filters and the JS API spell it.
    pub fn kind(&self) -> &'static str {
        match self {
            EventBody::Message(_) => "message",
            EventBody::ToolCall(_) => "tool-call",
            EventBody::ToolResult(_) => "tool-result",
            EventBody::ToolDefinitions(_) => "tool-definitions",
            EventBody::Span(_) => "span",
            EventBody::Marker(_) => "marker",
            EventBody::KeyValue(_) => "key-value",
            EventBody::Unparsed(_) => "unparsed",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Message {
    pub role: String,
    pub content: Content,
    /// Calls made by this message, each addressable as (event index, call index).
    pub tool_calls: Vec<ToolCall>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    None,
    Text(Text),
    Parts(Vec<ContentPart>),
    /// Structured content that is neither text nor parts (a tool output
    /// object); a fast path leaves it in the source, parsed when first read.
    Json(crate::lazy_value::LazyValue),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ContentPart {
    Text(Text),
    Reasoning(Text),
    /// An image by URL; a `data:` URL can be megabytes, hence a [`Text`].
    Image { url: Text },
    /// A part of a type the model does not know; kept whole.
    Other(Value),
}

impl Content {
    /// The text a person reads: text parts joined by newlines, JSON as JSON.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.push_text(&mut out);
        out
    }

    /// [`Content::text`], appended to `out` (the search index writes every
    /// event's text into one buffer).
    pub fn push_text(&self, out: &mut String) {
        match self {
            Content::None => {}
            Content::Text(t) => t.push_to(out),
            Content::Parts(parts) => {
                let texts = parts.iter().filter_map(|p| match p {
                    ContentPart::Text(t) => Some(t),
                    _ => None,
                });
                for (i, t) in texts.enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    t.push_to(out);
                }
            }
            // Writing to a String cannot fail.
            Content::Json(v) => v.push_display(out),
        }
    }
}

#[derive(Debug, Clone)]
pub struct ToolCall {
    pub id: Option<String>,
    pub function: String,
    pub arguments: Arguments,
    /// Index of the event holding this call's result, once linked.
    pub result: Option<u32>,
}

/// Tool-call arguments: the parsed value, plus the original text when the
/// source gave them as a JSON-encoded string.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Arguments {
    pub value: Option<LazyValue>,
    pub text: Option<Text>,
}

impl Arguments {
    /// The arguments as one line of text, for summaries and search.
    pub fn display(&self) -> String {
        let mut out = String::new();
        self.push_display(&mut out);
        out
    }

    /// [`Arguments::display`], appended to `out`.
    pub fn push_display(&self, out: &mut String) {
        match (&self.value, &self.text) {
            (Some(v), _) => v.push_display(out),
            (None, Some(t)) => t.push_to(out),
            (None, None) => {}
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CallRef {
    pub event: u32,
    pub call: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    Unknown,
    Success,
    Error,
}

#[derive(Debug, Clone)]
pub struct ToolResult {
    pub call_id: Option<String>,
    pub content: Content,
    pub status: ToolStatus,
    /// The call this answers, once linked.
    pub call: Option<CallRef>,
    /// True when the source gave no call id and the link was inferred from order.
    pub implicit_link: bool,
}

#[derive(Debug, Clone)]
pub struct ToolDefinition {
    pub name: String,
    pub description: Option<String>,
    pub parameters: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanPhase {
    Begin,
    End,
}

#[derive(Debug, Clone)]
pub struct SpanEvent {
    /// Path of span names from the root.
    pub name: Vec<String>,
    pub phase: SpanPhase,
}

#[derive(Debug, Clone)]
pub struct Marker {
    pub label: String,
}

#[derive(Debug, Clone)]
pub struct KeyValue {
    pub key: String,
    /// Left in the source where a reader can (a Codex `token_count`
    /// payload, a mirrored turn): such values are most of the events' memory
    /// in those formats, and a list row or a search writes only their head
    /// ([`crate::analysis::summary`]), from the bytes when they are compact.
    pub value: LazyValue,
}

impl Trace {
    /// Whether event `e` counts in the run's tool calls and failures: not
    /// when its transcript retells another ([`Transcript::retells`]).
    pub fn counts(&self, e: &Event) -> bool {
        let t = self.runs.get(e.run as usize).and_then(|r| r.transcripts.get(e.transcript as usize));
        !t.is_some_and(|t| t.retells)
    }

    /// The tool call at (event, call), whether inside a message or standalone.
    pub fn call(&self, r: CallRef) -> Option<&ToolCall> {
        match &self.events.get(r.event as usize)?.body {
            EventBody::Message(m) => m.tool_calls.get(r.call as usize),
            EventBody::ToolCall(c) if r.call == 0 => Some(c),
            _ => None,
        }
    }

    /// Event `index`'s line and column: lines count from the start of its
    /// file ([`Self::files`]), columns in characters.
    pub fn event_position(&self, index: usize) -> Option<Position> {
        Some(self.position_at(self.events.get(index)?.raw.start))
    }

    /// Byte `offset`'s line, counted from the start of its file, and column.
    pub fn position_at(&self, offset: usize) -> Position {
        let pos = self.source_map.position(&self.source, offset);
        Position { line: pos.line.saturating_sub(first_line_before(&self.files, offset)), column: pos.column }
    }

    /// The input file holding `offset`, for multi-file traces.
    pub fn file_at(&self, offset: usize) -> Option<&SourceFile> {
        self.files.iter().find(|f| f.range.contains(&offset))
    }

    pub fn raw_json(&self, event: usize) -> Option<&[u8]> {
        self.source.get(self.events.get(event)?.raw.clone())
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == crate::diagnostic::Severity::Error).count()
    }

    /// Number of tool calls in the trace (inside messages and standalone).
    pub fn tool_call_count(&self) -> usize {
        self.events
            .iter()
            .map(|e| match &e.body {
                EventBody::Message(m) => m.tool_calls.len(),
                EventBody::ToolCall(_) => 1,
                _ => 0,
            })
            .sum()
    }

    /// Number of tool results linked to a call.
    pub fn linked_result_count(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(&e.body, EventBody::ToolResult(r) if r.call.is_some()))
            .count()
    }
}
