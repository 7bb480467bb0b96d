//! The JavaScript API: a thin wasm-bindgen layer over the core.
//!
//! Parsed traces stay in wasm memory; JavaScript asks for pages of rows,
//! diagnostics and index arrays, never the whole trace as objects.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::model::Trace;
use crate::query::TextIndex;

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

export type EventKind =
  | "message" | "tool-call" | "tool-result" | "tool-definitions"
  | "span" | "marker" | "key-value" | "unparsed";

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

/** One event as a display row. */
export interface EventView {
  index: number;
  run: number;
  transcript: number;
  kind: EventKind;
  /** The format's own record kind (Message, ToolOutput, ToolCall, Tool, …). */
  sourceKind: string;
  role?: string;
  timestamp?: string;
  /** Readable text of the content (text parts joined). */
  text: string;
  parts?: ContentPartView[];
  /** Structured content (a tool output object). */
  json?: unknown;
  toolCalls?: ToolCallView[];
  callId?: string;
  /** The call a tool result answers. */
  call?: CallRef;
  callFunction?: string;
  /** True when the link was inferred from order (no tool_call_id). */
  implicitLink?: true;
  status?: "unknown" | "success" | "error";
  tools?: string[];
  summary: string;
  path: string;
  line: number;
  column: number;
  errors: number;
  warnings: number;
}

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

export interface TraceStats {
  events: number;
  runs: number;
  toolCalls: number;
  linkedResults: number;
  errors: number;
  warnings: number;
  byKind: Record<string, number>;
  byRole: Record<string, number>;
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
}

/// Hands a value to JavaScript through `JSON.parse`, which makes keys such
/// as `__proto__` plain own properties: trace data cannot replace an object's
/// prototype (serde-wasm-bindgen's property assignment would). It is also one
/// string crossing instead of one call per field.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    match serde_json::to_string(value) {
        Ok(text) => js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL),
        Err(_) => JsValue::NULL,
    }
}

#[derive(Default, serde::Deserialize)]
struct JsParseOptions {
    format: Option<String>,
}

/// Reads a trace from bytes. Throws an `Error` only when the input is no
/// trace at all; malformed records become diagnostics.
#[wasm_bindgen(js_name = parseTrace)]
pub fn parse_trace(
    bytes: Vec<u8>,
    #[wasm_bindgen(unchecked_param_type = "ParseOptions")] options: JsValue,
) -> Result<JsTrace, JsError> {
    let opts: JsParseOptions = if options.is_undefined() || options.is_null() {
        JsParseOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| {
            let js: JsValue = e.into();
            let message = js.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
            JsError::new(&format!("invalid parse options: {message}"))
        })?
    };
    let opts = crate::ParseOptions { format: opts.format };
    let trace = crate::parse_trace(bytes, &opts).map_err(|e| JsError::new(&e.message))?;
    let counts = crate::view::diagnostic_counts(&trace);
    Ok(JsTrace { trace, counts, text_index: None })
}

/// The ids of the supported formats.
#[wasm_bindgen(js_name = formats, unchecked_return_type = "string[]")]
pub fn formats() -> JsValue {
    to_js(&crate::format_ids())
}

/// A parsed trace, held in wasm memory. Call `free()` when done.
#[wasm_bindgen(js_name = Trace)]
pub struct JsTrace {
    trace: Trace,
    counts: Vec<(u32, u32)>,
    text_index: Option<TextIndex>,
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stats {
    events: usize,
    runs: usize,
    tool_calls: usize,
    linked_results: usize,
    errors: usize,
    warnings: usize,
    by_kind: std::collections::BTreeMap<&'static str, u32>,
    by_role: std::collections::BTreeMap<String, u32>,
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

    #[wasm_bindgen(unchecked_return_type = "TraceStats")]
    pub fn stats(&self) -> JsValue {
        let mut by_kind = std::collections::BTreeMap::new();
        let mut by_role = std::collections::BTreeMap::new();
        for e in &self.trace.events {
            *by_kind.entry(e.body.kind()).or_insert(0) += 1;
            let role = match &e.body {
                crate::model::EventBody::Message(m) => Some(m.role.clone()),
                crate::model::EventBody::ToolResult(_) => Some("tool".to_string()),
                _ => None,
            };
            if let Some(r) = role {
                *by_role.entry(r).or_insert(0) += 1;
            }
        }
        let warnings = self.trace.diagnostics.iter().filter(|d| d.severity == crate::diagnostic::Severity::Warning).count();
        to_js(&Stats {
            events: self.trace.events.len(),
            runs: self.trace.runs.len(),
            tool_calls: self.trace.tool_call_count(),
            linked_results: self.trace.linked_result_count(),
            errors: self.trace.error_count(),
            warnings,
            by_kind,
            by_role,
        })
    }

    /// Indices of the events matching `query`, in order. Throws an `Error`
    /// whose message names the column when the query is malformed.
    pub fn filter(&mut self, query: &str) -> Result<js_sys::Uint32Array, JsValue> {
        match crate::query::filter(&self.trace, query, &mut self.text_index) {
            Ok(indices) => Ok(js_sys::Uint32Array::from(indices.as_slice())),
            Err(e) => {
                let err = js_sys::Error::new(&e.to_string());
                let _ = js_sys::Reflect::set(&err, &JsValue::from_str("column"), &JsValue::from_f64(e.column as f64));
                Err(err.into())
            }
        }
    }
}
