//! The Trace class: its files, the format's own views, the span tree.

use wasm_bindgen::prelude::*;

use super::{to_js, JsTrace};

/// Multi-file traces and OpenHands' own views.
#[wasm_bindgen(js_class = Trace)]
impl JsTrace {
    /// The input files, for traces read with `parseFiles` (else one or none).
    #[wasm_bindgen(unchecked_return_type = "SourceFileView[]")]
    pub fn files(&self) -> JsValue {
        to_js(&crate::view::source_file_views(&self.trace))
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

#[wasm_bindgen(js_class = Trace)]
impl JsTrace {
    /// The span tree of every run, built from span paths and begin/end records.
    /// Every span as a bar on a time axis (`analysis::span_bars`), in
    /// columns: what the span chart draws.
    #[wasm_bindgen(js_name = spanBars, unchecked_return_type = "SpanBars")]
    pub fn span_bars(&self) -> JsValue {
        to_js(&crate::analysis::span_bars::span_bars(&self.trace))
    }

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
