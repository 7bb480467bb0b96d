//! Views a format offers besides the event list (OpenHands' condensed view
//! and LLM message stream, …): declared by the format, computed by it, and
//! served through one generic call (`trace.formatView(name, run)`) and one
//! generic page view, so a new view needs no wasm method, worker op or page
//! module of its own.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

/// A view a format declares: what the page lists as a tab.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ViewInfo {
    /// Stable name, passed back to [`super::Format::view`].
    pub name: &'static str,
    /// The tab's label.
    pub label: &'static str,
    /// One sentence on what the view shows.
    pub description: &'static str,
}

/// A computed view of one run: a title, notes, and a list of items the page
/// shows as rows, plus the format's own shape of the same view (`data`), which
/// tests and callers that know the format read.
#[derive(Debug, Clone, Serialize)]
pub struct FormatView {
    pub name: &'static str,
    pub label: &'static str,
    pub title: String,
    /// Sentences shown under the title.
    pub notes: Vec<String>,
    /// Sentences shown highlighted (something the reader should not miss).
    pub notices: Vec<String>,
    /// Shown as an alert: the view stops early, and why.
    pub error: Option<String>,
    pub items: Vec<ViewItem>,
    /// The format's own serialisation of the view.
    pub data: Value,
}

/// One row of a [`FormatView`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct ViewItem {
    /// When set, the row shows this trace event as the event list does.
    pub event: Option<u32>,
    /// A short label before the text (a role, `summary`).
    pub badge: Option<String>,
    /// The item's own text: shown when there is no event row, or beside it.
    pub text: String,
    /// Trace events the row links to.
    pub events: Vec<u32>,
    /// Extra facts for the row's element (`data-*` attributes in the page).
    pub attrs: BTreeMap<String, String>,
}

impl FormatView {
    /// An empty view for `info`, to be filled in.
    pub fn new(info: &ViewInfo, title: String, data: Value) -> FormatView {
        FormatView {
            name: info.name,
            label: info.label,
            title,
            notes: Vec::new(),
            notices: Vec::new(),
            error: None,
            items: Vec::new(),
            data,
        }
    }
}
