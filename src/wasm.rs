//! The JavaScript API: a thin wasm-bindgen layer over the core.
//!
//! Parsed traces stay in wasm memory; JavaScript asks for pages of rows,
//! diagnostics and index arrays, never the whole trace as objects.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::model::Trace;
use crate::query::QueryIndex;

// AgentRun text (toAgentRunText, agentRunTokenCount): its own file, its own impl block.
#[path = "wasm_agentrun.rs"]
mod agentrun_text;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Options for {@link parseTrace}. */
export interface ParseOptions {
  /** Force a format by id instead of detecting it: one of {@link formats}(). */
  format?: string;
}

export type Severity = "info" | "warning" | "error";

/** A finding about the input, pinned to a place in it. */
export interface Diagnostic {
  severity: Severity;
  /** Stable code, e.g. "arguments-not-json". */
  code: string;
  message: string;
  /** JSONPath inside the top-level value (for JSON Lines: inside that line's value). */
  path: string;
  line: number;
  column: number;
  /** Byte offset in the input. */
  offset: number;
  /** Index of the event the finding is about. */
  event: number | null;
  /** The source line around the place, for syntax errors. */
  snippet?: string;
}

/** Why the format was chosen. */
export interface Detection {
  format: string;
  forced: boolean;
  confidence: number;
  evidence: string[];
  runnerUp: string | null;
}

export type ContentPartView =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "image"; url: string }
  | { type: "other"; json: unknown };

export interface ToolCallView {
  /** Position in the event's calls: the call is addressed as (event index, call index). */
  index: number;
  id?: string;
  function: string;
  /** Parsed arguments; null when they did not parse. */
  arguments: unknown | null;
  /** Original text when the arguments came as a JSON string. */
  argumentsText?: string;
  /** Index of the event holding the result. */
  result: number | null;
}

export interface CallRef { event: number; call: number }

export type ToolStatus = "unknown" | "success" | "error";

/**
 * What every event row has, whatever its kind. Rows are discriminated
 * unions on `kind` ({@link EventView}): `if (e.kind === "tool-call")` narrows
 * to {@link ToolCallEventView}. tests/node/event-types.test.mjs checks real
 * rows of every format against these declarations, field by field.
 */
export interface EventViewBase {
  index: number;
  run: number;
  transcript: number;
  /** The format's own record kind (Message, ToolOutput, ToolCall, Tool, …). */
  sourceKind: string;
  timestamp?: string;
  /** Readable text of the content (text parts joined); why the record did not parse for `unparsed`; "" for kinds without content. */
  text: string;
  summary: string;
  path: string;
  line: number;
  column: number;
  errors: number;
  warnings: number;
  /** The span path the record was logged under, root first (Agent Catalog). */
  span?: string[];
  /** Record fields the body has no place for (model, token counts, state, …). */
  metadata?: Record<string, unknown>;
}

/** A chat message (user, assistant, system, …), with the calls it makes. */
export interface MessageEventView extends EventViewBase {
  kind: "message";
  role: string;
  /** The content parts, when the content was a list. */
  parts?: ContentPartView[];
  /** Structured content (a JSON value that is not text or parts). */
  json?: unknown;
  /** The tool calls the message makes (absent when none). */
  toolCalls?: ToolCallView[];
}

/** A tool call recorded on its own (not inside a message). */
export interface ToolCallEventView extends EventViewBase {
  kind: "tool-call";
  /** The one call of the record. */
  toolCalls: [ToolCallView];
  /** The source marks the call itself as failed (its own status). */
  failed?: true;
}

/** A tool's output. */
export interface ToolResultEventView extends EventViewBase {
  kind: "tool-result";
  role: "tool";
  parts?: ContentPartView[];
  /** Structured content (a tool output object). */
  json?: unknown;
  callId?: string;
  /** The call the result answers. */
  call?: CallRef;
  callFunction?: string;
  /** True when the link was inferred from order (no tool_call_id). */
  implicitLink?: true;
  status: ToolStatus;
  /** The source marks the result as a failure (AgentLens tool errors). */
  failed?: true;
}

/** The tools offered to the model. */
export interface ToolDefinitionsEventView extends EventViewBase {
  kind: "tool-definitions";
  /** Tool names (absent when the list is empty). */
  tools?: string[];
}

/** A span's begin or end record. */
export interface SpanEventView extends EventViewBase { kind: "span" }
/** A marker (an agent call or error, a hand-off, …): its label is the summary. */
export interface MarkerEventView extends EventViewBase {
  kind: "marker";
  /** The source marks the record as a failure (an AgentLens agent_error). */
  failed?: true;
}
/** A key-value record: `key = value` is the summary. */
export interface KeyValueEventView extends EventViewBase { kind: "key-value" }
/** A record that could not be read: `text` says why. */
export interface UnparsedEventView extends EventViewBase { kind: "unparsed" }

/** One event as a display row: a discriminated union on `kind`. */
export type EventView =
  | MessageEventView | ToolCallEventView | ToolResultEventView | ToolDefinitionsEventView
  | SpanEventView | MarkerEventView | KeyValueEventView | UnparsedEventView;

export type EventKind = EventView["kind"];

export interface RunView {
  index: number;
  id: string;
  name: string | null;
  description: string | null;
  /** Index of the run's first event; its events are contiguous. */
  firstEvent: number;
  eventCount: number;
  transcripts: { key: string; firstEvent: number; eventCount: number }[];
  metadata: Record<string, unknown>;
}

/** What every list row has: what one line of the event list shows. */
export interface RowViewBase {
  index: number;
  run: number;
  sourceKind: string;
  timestamp?: string;
  /** One line: text, `function(arguments)` of calls, `function: result`. */
  summary: string;
  errors: number;
  warnings: number;
}

export interface MessageRowView extends RowViewBase {
  kind: "message";
  role: string;
  /** The result event of each call the message makes (null: unanswered); absent without calls. */
  results?: (number | null)[];
}

export interface ToolCallRowView extends RowViewBase {
  kind: "tool-call";
  /** The result event of the call (null: unanswered). */
  results: [number | null];
  /** The source marks the call itself as failed. */
  failed?: true;
}

export interface ToolResultRowView extends RowViewBase {
  kind: "tool-result";
  role: "tool";
  /** The event holding the call this result answers. */
  callEvent?: number;
  status: ToolStatus;
  /** The source marks the result as a failure. */
  failed?: true;
}

export interface MarkerRowView extends RowViewBase {
  kind: "marker";
  /** The source marks the record as a failure (an agent error). */
  failed?: true;
}

/** Rows of the other kinds carry only the common fields. */
export interface PlainRowView extends RowViewBase {
  kind: "tool-definitions" | "span" | "key-value" | "unparsed";
}

/** A light list row: a discriminated union on `kind`, like {@link EventView}. */
export type RowView = MessageRowView | ToolCallRowView | ToolResultRowView | MarkerRowView | PlainRowView;

/** Counts per facet among the events matching a query. */
export interface Facets {
  total: number;
  role: Record<string, number>;
  kind: Record<string, number>;
  sourceKind: Record<string, number>;
  /** Events calling each tool or answering a call of it. */
  tool: Record<string, number>;
}

/** A scalar run-metadata field the run filter can use. */
export interface FilterableField {
  /** `metadata.scores.correct`, …, and `text`. */
  name: string;
  type: "bool" | "int" | "float" | "str";
}

/** Calls, results and failures of one tool. */
export interface ToolStat {
  tool: string;
  calls: number;
  /** Calls with a linked result. */
  answered: number;
  /** Calls without one. */
  unanswered: number;
  /**
   * Calls that failed by the trace's own word: an error status on the result
   * (an `error` field, `is_error`, an error observation) or a record the format
   * marks failed. Never a validation diagnostic.
   */
  failures: number;
  firstEvent: number;
  /** Sum of the durations recorded on the calls (or their results), and how many had one. */
  durationMsTotal: number;
  durations: number;
}

/** One opening of a span (`trace.spans()` lists them in the order they begin), read off the span tree. */
export interface SpanNode {
  run: number;
  name: string;
  /** Names from the root, joined with `/`. */
  path: string;
  depth: number;
  /** Event index of the begin record. */
  begin: number;
  /** Event index of the end record; null when never closed. */
  end: number | null;
  startTime?: string;
  endTime?: string;
}

/** Token counts, as the format reports them (0 where it gives none). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  reasoningOutputTokens: number;
  totalTokens: number;
}

/** The counts of a trace: what the CLI's `stats --format json` prints for it too. */
export interface TraceStats {
  format: string;
  events: number;
  runs: number;
  toolCalls: number;
  linkedResults: number;
  errors: number;
  warnings: number;
  byKind: Record<string, number>;
  byRole: Record<string, number>;
  /** Per tool, most-called first: the same list as {@link Trace.toolStats}. */
  tools: ToolStat[];
  /** Tool results that answer no call of the trace. */
  unlinkedResults: { results: number; failures: number };
  /** Token usage over all events, and per model ("" when the event names none). */
  usage: { total: Usage; byModel: Record<string, Usage>; events: number };
  /** First and last timestamp of each run that has one, and the seconds between. */
  runTimes: { run: number; first: string | null; last: string | null; durationSeconds: number | null }[];
}

/** Diagnostics with the same severity, code and message, as one finding. */
export interface DiagnosticGroup {
  code: string;
  severity: Severity;
  message: string;
  /** How many diagnostics. */
  count: number;
  /** How many distinct events they are about. */
  events: number;
  /** Their indices in {@link Trace.diagnostics} order. */
  diagnostics: number[];
  /** The first of them. */
  first: number;
}
"#;

#[wasm_bindgen(start)]
fn start() {
    // A panic in wasm poisons the module; say so loudly instead of "unreachable".
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!("agent-trace-viewer: internal error (please report): {info}"));
    }));
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);

    /// `JSON.parse(text, reviver)` (js-sys binds only the one-argument form).
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse_with_reviver(text: &str, reviver: &js_sys::Function) -> Result<JsValue, JsValue>;
}

/// Hands a value to JavaScript through `JSON.parse`, which makes keys such
/// as `__proto__` plain own properties: trace data cannot replace an object's
/// prototype (serde-wasm-bindgen's property assignment would). It is also one
/// string crossing instead of one call per field.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    match serde_json::to_string(value) {
        Ok(text) => parse_json(&text),
        Err(_) => JsValue::NULL,
    }
}

/// `JSON.parse` of serde_json's text; out of line, so that each of
/// [`to_js`]'s instances stays a call.
#[inline(never)]
fn parse_json(text: &str) -> JsValue {
    match js_sys::JSON::parse(text) {
        Ok(v) => v,
        // serde_json's text is JSON but for the numbers `NaN`, `Infinity`
        // and `-Infinity` (as Python's json and pydantic read them): they
        // cross as strings after a lone surrogate, which no other string
        // holds, and are turned back into those numbers.
        Err(_) => {
            let reviver = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(|_key: JsValue, value: JsValue| {
                let Some(s) = value.dyn_ref::<js_sys::JsString>().filter(|s| s.char_code_at(0) == f64::from(0xD800)) else { return value };
                match s.char_code_at(1) as u8 {
                    b'N' => JsValue::from_f64(f64::NAN),
                    b'I' => JsValue::from_f64(f64::INFINITY),
                    _ => JsValue::from_f64(f64::NEG_INFINITY),
                }
            });
            let quoted = crate::json::python::quote_nonfinite(text);
            json_parse_with_reviver(&quoted, reviver.as_ref().unchecked_ref()).unwrap_or(JsValue::NULL)
        }
    }
}

#[derive(Default, serde::Deserialize)]
struct JsParseOptions {
    format: Option<String>,
}

fn parse_options(options: JsValue) -> Result<crate::ParseOptions, JsError> {
    let opts: JsParseOptions = if options.is_undefined() || options.is_null() {
        JsParseOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| {
            let js: JsValue = e.into();
            let message = js.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
            JsError::new(&format!("invalid parse options: {message}"))
        })?
    };
    Ok(crate::ParseOptions { format: opts.format, ..Default::default() })
}

/// Reads a trace from bytes. Throws an `Error` only when the input is no
/// trace at all; malformed records become diagnostics.
#[wasm_bindgen(js_name = parseTrace)]
pub fn parse_trace(
    bytes: Vec<u8>,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] options: Option<js_sys::Object>,
) -> Result<JsTrace, JsError> {
    let options = options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
    let opts = parse_options(options)?;
    reserve_heap(bytes.len());
    let trace = crate::parse_trace(bytes, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    let counts = crate::view::diagnostic_counts(&trace);
    Ok(JsTrace { trace, counts, index: QueryIndex::default() })
}

/// Grows the heap once, before parsing, by about what the parse will use.
///
/// The allocator grows wasm memory 64 KiB at a time as the parse allocates,
/// and each `memory.grow` costs the engine a fresh view of the memory: a
/// 100 MB input made ~10,000 of them and spent more time there than parsing.
/// Allocating and freeing one block up front leaves it in the allocator's
/// free space for the parse to reuse.
/// Capped (a failed reservation is simply skipped) so that a big input
/// cannot push the heap past what the parse itself would need.
fn reserve_heap(input: usize) {
    const CAP: usize = 1 << 30;
    // The parse keeps about half the input besides the input itself (the
    // events, the line map; content stays in the input). Reserving more than
    // it uses only holds memory: 1 × kept the heap at 2 × the input, 2 × let
    // it grow to 5 × (no freed hole could hold the block) (BENCHMARKS.md).
    let want = (input / 2).min(CAP);
    let have = core::arch::wasm32::memory_size(0).saturating_mul(65536);
    if want > have / 2 {
        let mut block = Vec::<u8>::new();
        let _ = block.try_reserve_exact(want);
    }
}

/// The ids of the supported formats.
#[wasm_bindgen(js_name = formats, unchecked_return_type = "string[]")]
pub fn formats() -> JsValue {
    to_js(&crate::format_ids())
}

/// Groups dropped or picked files into traces: the files a format reads as
/// one trace together (an OpenHands conversation's event files), every
/// other file alone. Each group is `{ name, files }`, `files` indices into
/// `paths`; read a group of several with `parseFiles`.
#[wasm_bindgen(js_name = groupFiles, unchecked_return_type = "{ name: string; files: number[] }[]")]
pub fn group_files(paths: Vec<String>) -> JsValue {
    to_js(&crate::import::group_files(&paths))
}

/// A parsed trace, held in wasm memory. Call `free()` when done.
#[wasm_bindgen(js_name = Trace)]
pub struct JsTrace {
    trace: Trace,
    counts: Vec<(u32, u32)>,
    index: QueryIndex,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TranscriptView<'a> {
    key: &'a str,
    first_event: u32,
    event_count: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunView<'a> {
    index: usize,
    id: &'a str,
    name: Option<&'a str>,
    description: Option<&'a str>,
    first_event: u32,
    event_count: u32,
    transcripts: Vec<TranscriptView<'a>>,
    metadata: &'a crate::model::Metadata,
}

#[wasm_bindgen(js_class = Trace)]
impl JsTrace {
    /// Format id: `openai`, …
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.trace.format.to_string()
    }

    /// `json` or `jsonl`.
    #[wasm_bindgen(getter)]
    pub fn layout(&self) -> String {
        match self.trace.layout {
            crate::json::Layout::Json => "json".to_string(),
            crate::json::Layout::Jsonl => "jsonl".to_string(),
        }
    }

    /// Number of events: one per record of the source.
    #[wasm_bindgen(getter, js_name = eventCount)]
    pub fn event_count(&self) -> u32 {
        crate::source::clamp_u32(self.trace.events.len())
    }

    #[wasm_bindgen(getter, js_name = runCount)]
    pub fn run_count(&self) -> u32 {
        crate::source::clamp_u32(self.trace.runs.len())
    }

    /// Input size in bytes.
    #[wasm_bindgen(getter, js_name = byteLength)]
    pub fn byte_length(&self) -> u32 {
        crate::source::clamp_u32(self.trace.source.len())
    }

    #[wasm_bindgen(unchecked_return_type = "Detection")]
    pub fn detection(&self) -> JsValue {
        to_js(&self.trace.detection)
    }

    /// All diagnostics, in source order.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> JsValue {
        to_js(&self.trace.diagnostics)
    }

    /// Rows for events `start .. start + count` (clamped to the trace).
    #[wasm_bindgen(unchecked_return_type = "EventView[]")]
    pub fn events(&self, start: u32, count: u32) -> JsValue {
        let start = start as usize;
        let end = start.saturating_add(count as usize).min(self.trace.events.len());
        let rows: Vec<_> = (start..end)
            .filter_map(|i| crate::view::event_view(&self.trace, i, self.counts.get(i).copied().unwrap_or((0, 0))))
            .collect();
        to_js(&rows)
    }

    /// Rows for the given event indices (for filtered lists).
    #[wasm_bindgen(js_name = eventsAt, unchecked_return_type = "EventView[]")]
    pub fn events_at(&self, indices: &[u32]) -> JsValue {
        let rows: Vec<_> = indices
            .iter()
            .filter_map(|i| {
                let i = *i as usize;
                crate::view::event_view(&self.trace, i, self.counts.get(i).copied().unwrap_or((0, 0)))
            })
            .collect();
        to_js(&rows)
    }

    /// The event's exact bytes in the source, as text.
    #[wasm_bindgen(js_name = rawJson)]
    pub fn raw_json(&self, index: u32) -> Option<String> {
        self.trace.raw_json(index as usize).map(|b| String::from_utf8_lossy(b).into_owned())
    }

    #[wasm_bindgen(unchecked_return_type = "RunView[]")]
    pub fn runs(&self) -> JsValue {
        let runs: Vec<RunView> = self
            .trace
            .runs
            .iter()
            .enumerate()
            .map(|(index, r)| {
                let first = r.transcripts.first().map(|t| t.events.start).unwrap_or(0);
                let last = r.transcripts.last().map(|t| t.events.end).unwrap_or(first);
                RunView {
                    index,
                    id: &r.id,
                    name: r.name.as_deref(),
                    description: r.description.as_deref(),
                    first_event: first,
                    event_count: last.saturating_sub(first),
                    transcripts: r
                        .transcripts
                        .iter()
                        .map(|t| TranscriptView {
                            key: &t.key,
                            first_event: t.events.start,
                            event_count: t.events.end.saturating_sub(t.events.start),
                        })
                        .collect(),
                    metadata: &r.metadata,
                }
            })
            .collect();
        to_js(&runs)
    }

    /// File-level metadata that belongs to no run.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn metadata(&self) -> JsValue {
        to_js(&self.trace.metadata)
    }

    /// Counts by kind and role, per tool, token usage and run times: the
    /// same computation as the CLI's `stats` (`analysis::stats`).
    #[wasm_bindgen(unchecked_return_type = "TraceStats")]
    pub fn stats(&self) -> JsValue {
        to_js(&crate::analysis::stats::trace_stats(&self.trace))
    }

    /// Indices of the events matching `query`, in order. Throws an `Error`
    /// whose message names the column when the query is malformed.
    pub fn filter(&mut self, query: &str) -> Result<js_sys::Uint32Array, JsValue> {
        crate::query::filter(&self.trace, query, &mut self.index)
            .map(|indices| js_sys::Uint32Array::from(indices.as_slice()))
            .map_err(query_error)
    }

    /// Builds now what the first `role:`/`kind:` and free-text queries would
    /// build and keep (id arrays; a lower-cased copy of every event's text:
    /// memory about the size of the trace's text). The viewer's worker calls it
    /// when idle after a load, so that the first search is as fast as later
    /// ones; calling it again does nothing.
    #[wasm_bindgen(js_name = prepareSearch)]
    pub fn prepare_search(&mut self) {
        self.index.prepare_search(&self.trace);
    }

    /// Counts per role, kind, source kind and tool among the events matching
    /// `query` (all events when it is empty or absent).
    #[wasm_bindgen(unchecked_return_type = "Facets")]
    pub fn facets(&mut self, query: Option<String>) -> Result<JsValue, JsValue> {
        let indices = crate::query::filter(&self.trace, query.as_deref().unwrap_or(""), &mut self.index).map_err(query_error)?;
        Ok(to_js(&crate::query::facets(&self.trace, &indices)))
    }

    /// Counts per role, kind, source kind and tool among the given events.
    #[wasm_bindgen(js_name = facetsAt, unchecked_return_type = "Facets")]
    pub fn facets_at(&self, indices: &[u32]) -> JsValue {
        to_js(&crate::query::facets(&self.trace, indices))
    }

    /// Scalar fields of the runs' metadata (one level of nesting), then `text`.
    #[wasm_bindgen(js_name = filterableFields, unchecked_return_type = "FilterableField[]")]
    pub fn filterable_fields(&self) -> JsValue {
        to_js(&crate::query::filterable_fields(&self.trace))
    }

    /// Indices of the runs matching `query`: `metadata.<path>:<value>` (with
    /// `>`, `<`, `>=`, `<=` for numbers), `id:`, free text, `/regex/`.
    #[wasm_bindgen(js_name = filterRuns)]
    pub fn filter_runs(&self, query: &str) -> Result<js_sys::Uint32Array, JsValue> {
        crate::query::filter_runs(&self.trace, query)
            .map(|indices| js_sys::Uint32Array::from(indices.as_slice()))
            .map_err(query_error)
    }

    /// Light list rows for events `start .. start + count` (clamped).
    #[wasm_bindgen(unchecked_return_type = "RowView[]")]
    pub fn rows(&self, start: u32, count: u32) -> JsValue {
        let start = start as usize;
        let end = start.saturating_add(count as usize).min(self.trace.events.len());
        let rows: Vec<_> = (start..end).filter_map(|i| self.row(i)).collect();
        to_js(&rows)
    }

    /// Light list rows for the given event indices.
    #[wasm_bindgen(js_name = rowsAt, unchecked_return_type = "RowView[]")]
    pub fn rows_at(&self, indices: &[u32]) -> JsValue {
        let rows: Vec<_> = indices.iter().filter_map(|i| self.row(*i as usize)).collect();
        to_js(&rows)
    }

    /// Number of diagnostics.
    #[wasm_bindgen(getter, js_name = diagnosticCount)]
    pub fn diagnostic_count(&self) -> u32 {
        crate::source::clamp_u32(self.trace.diagnostics.len())
    }

    /// Diagnostics `start .. start + count` (clamped), in source order.
    #[wasm_bindgen(js_name = diagnosticsRange, unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics_range(&self, start: u32, count: u32) -> JsValue {
        let start = (start as usize).min(self.trace.diagnostics.len());
        let end = start.saturating_add(count as usize).min(self.trace.diagnostics.len());
        to_js(self.trace.diagnostics.get(start..end).unwrap_or(&[]))
    }

    /// The diagnostics about one event.
    #[wasm_bindgen(js_name = eventDiagnostics, unchecked_return_type = "Diagnostic[]")]
    pub fn event_diagnostics(&self, index: u32) -> JsValue {
        let found: Vec<_> = self.trace.diagnostics.iter().filter(|d| d.event == Some(index)).collect();
        to_js(&found)
    }

    /// Calls, answered calls and failures per tool, most-called first.
    #[wasm_bindgen(js_name = toolStats, unchecked_return_type = "ToolStat[]")]
    pub fn tool_stats(&self) -> JsValue {
        to_js(&crate::analysis::stats::tool_stats(&self.trace))
    }

    /// Every opening of a span, in order (empty when the format has no spans).
    #[wasm_bindgen(unchecked_return_type = "SpanNode[]")]
    pub fn spans(&self) -> JsValue {
        to_js(&crate::view::span_tree(&self.trace))
    }

    /// Each event's timestamp in milliseconds since the epoch (UTC); NaN
    /// when it has none or it is not a time.
    pub fn timestamps(&mut self) -> js_sys::Float64Array {
        let ms: Vec<f64> = self
            .index
            .instants(&self.trace)
            .iter()
            .map(|t| t.map_or(f64::NAN, crate::analysis::time::Instant::millis))
            .collect();
        js_sys::Float64Array::from(ms.as_slice())
    }
}

#[wasm_bindgen(typescript_custom_section)]
const FILE_TYPES: &'static str = r#"
/** One input file of a multi-file trace. */
export interface FileInput { name: string; bytes: Uint8Array }

/** A file of the trace's source: `range` is its byte range in the joined source. */
export interface SourceFileView { name: string; start: number; end: number; firstLine: number }

/** One entry of OpenHands' condensed view (Condensation.apply). */
export interface CondensedEntry { event: number | null; id: string; kind: string; summary?: string }
export interface CondensedView { entries: CondensedEntry[]; unhandledCondensationRequest: boolean; dropped: number[] }

/** One message of the LLM message stream OpenHands' events_to_messages yields. */
export interface LlmMessage {
  role: string;
  events: number[];
  toolCallIds?: string[];
  toolCallId?: string;
  contentParts: number;
  summaries?: string[];
}
export interface LlmMessages { messages: LlmMessage[]; error?: string }
"#;

/// Reads several files as one trace (an OpenHands conversation folder, or
/// several files dropped at once), ordered as the OpenHands SDK orders event
/// files. Throws like `parseTrace`.
#[wasm_bindgen(js_name = parseFiles)]
pub fn parse_files(
    #[wasm_bindgen(unchecked_param_type = "FileInput[]")] files: js_sys::Array,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] options: Option<js_sys::Object>,
) -> Result<JsTrace, JsError> {
    let options = options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
    let opts = parse_options(options)?;
    let mut inputs = Vec::with_capacity(files.length() as usize);
    for (i, f) in files.iter().enumerate() {
        let name = js_sys::Reflect::get(&f, &JsValue::from_str("name")).ok().and_then(|v| v.as_string());
        let bytes = js_sys::Reflect::get(&f, &JsValue::from_str("bytes")).ok().and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok());
        match (name, bytes) {
            (Some(name), Some(bytes)) => inputs.push((name, bytes.to_vec())),
            _ => return Err(JsError::new(&format!("files[{i}] must be {{ name: string, bytes: Uint8Array }}"))),
        }
    }
    if inputs.is_empty() {
        return Err(JsError::new("no files given"));
    }
    let trace = crate::parse_files(inputs, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    let counts = crate::view::diagnostic_counts(&trace);
    Ok(JsTrace { trace, counts, index: QueryIndex::default() })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SourceFileView<'a> {
    name: &'a str,
    start: usize,
    end: usize,
    first_line: u32,
}

/// Multi-file traces and OpenHands' own views.
#[wasm_bindgen(js_class = Trace)]
impl JsTrace {
    /// The input files, for traces read with `parseFiles` (else one or none).
    #[wasm_bindgen(unchecked_return_type = "SourceFileView[]")]
    pub fn files(&self) -> JsValue {
        let files: Vec<SourceFileView> = self
            .trace
            .files
            .iter()
            .map(|f| SourceFileView { name: &f.name, start: f.range.start, end: f.range.end, first_line: f.first_line })
            .collect();
        to_js(&files)
    }

    /// The name of the file holding event `index` (multi-file traces).
    #[wasm_bindgen(js_name = eventFile)]
    pub fn event_file(&self, index: u32) -> Option<String> {
        let e = self.trace.events.get(index as usize)?;
        self.trace.file_at(e.raw.start).map(|f| f.name.clone())
    }

    /// The views the trace's format offers besides the event list.
    #[wasm_bindgen(js_name = formatViews, unchecked_return_type = "FormatViewInfo[]")]
    pub fn format_views(&self) -> JsValue {
        to_js(crate::import::by_id(self.trace.format).map(|f| f.views()).unwrap_or(&[]))
    }

    /// View `name` (one of `formatViews()`) of run `run`; throws for a name
    /// the format does not offer.
    #[wasm_bindgen(js_name = formatView, unchecked_return_type = "FormatView")]
    pub fn format_view(&self, name: &str, run: u32) -> Result<JsValue, JsError> {
        self.view(name, run).map(|v| to_js(&v))
    }

    /// `formatView('condensed', run).data` (OpenHands: Condensation.apply).
    #[wasm_bindgen(js_name = condensedView, unchecked_return_type = "CondensedView")]
    pub fn condensed_view(&self, run: u32) -> Result<JsValue, JsError> {
        self.view("condensed", run).map(|v| to_js(&v.data))
    }

    /// `formatView('llm-messages', run).data` (OpenHands: events_to_messages).
    #[wasm_bindgen(js_name = llmMessages, unchecked_return_type = "LlmMessages")]
    pub fn llm_messages(&self, run: u32) -> Result<JsValue, JsError> {
        self.view("llm-messages", run).map(|v| to_js(&v.data))
    }
}

impl JsTrace {
    fn view(&self, name: &str, run: u32) -> Result<crate::import::FormatView, JsError> {
        let format = crate::import::by_id(self.trace.format);
        format.and_then(|f| f.view(&self.trace, name, run)).ok_or_else(|| {
            let names: Vec<&str> = format.map(|f| f.views().iter().map(|v| v.name).collect()).unwrap_or_default();
            JsError::new(&format!("this trace's format offers no view {name:?} (its views: {})", if names.is_empty() { "none".to_string() } else { names.join(", ") }))
        })
    }
}

#[wasm_bindgen(typescript_custom_section)]
const FORMAT_VIEW_TYPES: &'static str = r#"
/** A view a format offers besides the event list (`trace.formatViews()`). */
export interface FormatViewInfo {
  name: string;
  label: string;
  description: string;
}
/** One row of a format view. */
export interface FormatViewItem {
  /** When set, the row shows this event as the event list does. */
  event: number | null;
  /** A short label before the text (a role, `summary`). */
  badge: string | null;
  /** Shown when there is no event row, or beside it. */
  text: string;
  /** Trace events the row links to. */
  events: number[];
  /** Extra facts of the row (`data-*` attributes in the page). */
  attrs: Record<string, string>;
}
/** A format view of one run (`trace.formatView(name, run)`). */
export interface FormatView {
  name: string;
  label: string;
  title: string;
  notes: string[];
  notices: string[];
  error: string | null;
  items: FormatViewItem[];
  /** The format's own shape of the view (what `condensedView`/`llmMessages` return). */
  data: unknown;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const SPAN_TYPES: &'static str = r#"
/** One span path of one run (Agent Catalog spans; any format with span events).
 * (Not `SpanNode`, the flat pre-order list's item of `trace.spans()`.) */
export interface SpanTreeNode {
  run: number;
  name: string;
  depth: number;
  parent: number | null;
  children: number[];
  occurrences: { begin: number | null; end: number | null }[];
  /** Events logged under exactly this path. */
  events: number[];
}
export interface SpanTree {
  nodes: SpanTreeNode[];
  roots: number[];
  /** Hand-offs between spans (Agent Catalog `edge` records). */
  handoffs: { event: number; run: number; source: string[]; dest: string[]; sourceNode: number | null; destNode: number | null }[];
  /** Begin/end records without a partner. */
  issues: { code: string; event: number; run: number; node: number }[];
}
"#;

#[wasm_bindgen(js_class = Trace)]
impl JsTrace {
    /// The span tree of every run, built from span paths and begin/end records.
    #[wasm_bindgen(js_name = spanTree, unchecked_return_type = "SpanTree")]
    pub fn span_tree(&self) -> JsValue {
        to_js(&crate::analysis::spans::span_tree(&self.trace))
    }

    /// Diagnostics with the same severity, code and message, grouped, in
    /// order of their first diagnostic.
    #[wasm_bindgen(js_name = diagnosticGroups, unchecked_return_type = "DiagnosticGroup[]")]
    pub fn diagnostic_groups(&self) -> JsValue {
        to_js(&crate::analysis::diagnostics::group(&self.trace.diagnostics))
    }
}

impl JsTrace {
    fn row(&self, i: usize) -> Option<crate::view::RowView<'_>> {
        crate::view::row_view(&self.trace, i, self.counts.get(i).copied().unwrap_or((0, 0)))
    }
}

/// A query error as a JS `Error` with a `column` property.
fn query_error(e: crate::query::QueryError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("column"), &JsValue::from_f64(e.column as f64));
    err.into()
}
