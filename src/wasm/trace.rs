//! The Trace class: counts, runs, events, rows, diagnostics, queries, stats.

use wasm_bindgen::prelude::*;

use super::{query_error, to_js, JsTrace};

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

    /// How many input files were read as this one trace: an archive's
    /// members or the files of a folder (`parseFiles`); 1 for a single input.
    /// The page says "3 files" rather than the joined source's layout.
    #[wasm_bindgen(getter, js_name = fileCount)]
    pub fn file_count(&self) -> u32 {
        crate::source::clamp_u32(self.trace.files.len().max(1))
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
        to_js(&crate::view::run_views(&self.trace))
    }

    /// Every run without its metadata and transcripts: what a run switcher
    /// needs (`runs()` serialises every run's metadata).
    #[wasm_bindgen(js_name = runHeads, unchecked_return_type = "RunHead[]")]
    pub fn run_heads(&self) -> JsValue {
        to_js(&crate::view::run_heads(&self.trace))
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

    /// Token usage of the whole trace, or of run `run` only: the same totals
    /// as `stats().usage`, which the CLI's `stats` prints. Throws a
    /// `RangeError` when `run` is not a run of the trace.
    #[wasm_bindgen(unchecked_return_type = "UsageTotals")]
    pub fn usage(&self, run: Option<u32>) -> Result<JsValue, JsValue> {
        if let Some(r) = run {
            if r as usize >= self.trace.runs.len() {
                let message = format!("run {r} is not a run of this trace ({} runs)", self.trace.runs.len());
                return Err(js_sys::RangeError::new(&message).into());
            }
        }
        Ok(to_js(&crate::analysis::usage::totals(&self.trace, run)))
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

    /// One row per run: what the runs table shows (`analysis::runs`).
    #[wasm_bindgen(js_name = runRows, unchecked_return_type = "RunRow[]")]
    pub fn run_rows(&self) -> JsValue {
        to_js(&crate::analysis::runs::run_rows(&self.trace))
    }

    /// Runs `a` and `b` aligned turn by turn (`analysis::compare`): the
    /// steps with their event indices, and both runs' rows for the deltas.
    /// Throws a `RangeError` when either is not a run of the trace.
    #[wasm_bindgen(js_name = compareRuns, unchecked_return_type = "Comparison")]
    pub fn compare_runs(&self, a: u32, b: u32) -> Result<JsValue, JsValue> {
        match crate::analysis::compare::compare(&self.trace, a, &self.trace, b) {
            Some(c) => Ok(to_js(&c)),
            None => Err(js_sys::RangeError::new(&format!("runs {a} and {b}: the trace has {} runs", self.trace.runs.len())).into()),
        }
    }

    /// Run `run`'s own lines of a JSON Lines file (`analysis::run_source`):
    /// the bytes to export that run alone as a file of the trace's format.
    /// Throws an `Error` saying why when the file does not let one be cut
    /// out (one JSON document, several files, a line another run shares).
    #[wasm_bindgen(js_name = runSource)]
    pub fn run_source(&self, run: u32) -> Result<Vec<u8>, JsError> {
        let lines = crate::analysis::run_source::run_lines(&self.trace, run).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(self.trace.source.get(lines).unwrap_or_default().to_vec())
    }

    /// Run `a` of this trace and run `b` of `other` (another file) aligned
    /// turn by turn, as `compareRuns` does for two runs of one trace: the
    /// left side's event indices are this trace's, the right side's
    /// `other`'s. Throws a `RangeError` when either run does not exist.
    #[wasm_bindgen(js_name = compareRunsWith, unchecked_return_type = "Comparison")]
    pub fn compare_runs_with(&self, other: &JsTrace, a: u32, b: u32) -> Result<JsValue, JsValue> {
        match crate::analysis::compare::compare(&self.trace, a, &other.trace, b) {
            Some(c) => Ok(to_js(&c)),
            None => Err(js_sys::RangeError::new(&format!("run {a} of this trace ({} runs) and run {b} of the other ({} runs)", self.trace.runs.len(), other.trace.runs.len())).into()),
        }
    }

    /// Each run's value of metadata field `name` (`metadata.a.b`, as
    /// `filterableFields()` names them), `null` where the run has no scalar there.
    #[wasm_bindgen(js_name = runFieldValues, unchecked_return_type = "(string | number | boolean | null)[]")]
    pub fn run_field_values(&self, name: &str) -> JsValue {
        to_js(&crate::query::field_values(&self.trace, name))
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
