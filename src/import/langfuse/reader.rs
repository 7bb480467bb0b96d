//! Reads the records of the input into traces and their observations:
//! the UI's "download trace" JSON (`{trace, observations}`), the public
//! API's trace with full details (`{id, …, observations, scores}`), a page
//! of the observations API (`{data: [observation], meta}`), and lone
//! observations (a list or JSON Lines of them, grouped by `traceId`).

use std::collections::HashMap;
use std::ops::Range;

use crate::import::chat::Field;
use serde_json::{Map, Value};

use super::generations::{self, Left};
use crate::diagnostic::Severity::Error;
use crate::import::history::MessagesInSource;
use crate::import::{top_records, Builder, Input};
use crate::json::path::{list_items, member_range};
use crate::json::{render_path, Seg};
use crate::model::Text;

/// One observation, with where it is.
pub struct Obs {
    pub range: Range<usize>,
    pub path: String,
    pub o: Map<String, Value>,
    /// `o` is the object at `range` as parsed, untouched: its event's
    /// metadata may be left there (`Builder::can_defer_metadata`).
    pub own_range: bool,
    /// A generation's input messages, when left in the source (`o` holds
    /// `null`, or the input object without its `messages`, in their place).
    pub history: Option<MessagesInSource>,
    /// A tool observation's `output` string, when left in the source (`o`
    /// holds `null` in its place).
    pub output: Option<Text>,
    /// A generation's `output` object, when left in the source (`o` holds
    /// `null` in its place).
    pub output_object: Option<Range<usize>>,
    /// When members nothing reads were not built into `o`: the rules they
    /// passed (see `generations::Left::unbuilt`); the observation as written
    /// is then read from `range`.
    pub unbuilt: Option<u64>,
}

impl Obs {
    pub fn str_field(&self, k: &str) -> &str {
        self.o.field(k).and_then(Value::as_str).unwrap_or("")
    }
}

/// One trace: its own fields (without the observations) and its parts.
pub struct TraceRec {
    pub id: String,
    /// The trace object's fields; empty for observations without a trace.
    pub trace: Map<String, Value>,
    /// Where the trace object is (the record when it has none of its own).
    pub range: Range<usize>,
    pub path: String,
    /// The document's shape, for the run metadata.
    pub shape: &'static str,
    pub observations: Vec<Obs>,
    /// Scores as (range, path, score).
    pub scores: Vec<Obs>,
}

pub const OBSERVATION_TYPES: [&str; 10] = ["SPAN", "GENERATION", "EVENT", "AGENT", "TOOL", "CHAIN", "RETRIEVER", "EVALUATOR", "EMBEDDING", "GUARDRAIL"];

/// A UI export: `trace` object and `observations` list.
pub fn is_export(o: &Map<String, Value>) -> bool {
    o.field("trace").is_some_and(Value::is_object) && o.field("observations").is_some_and(Value::is_array)
}

/// The API's trace with full details: a trace's own fields and its observations.
pub fn is_full_trace(o: &Map<String, Value>) -> bool {
    o.has_field("id") && o.field("observations").is_some_and(Value::is_array) && (o.has_field("timestamp") || o.has_field("htmlPath"))
}

/// An observation: a Langfuse observation type, a trace id and a start time.
pub fn is_observation(o: &Map<String, Value>) -> bool {
    let typed = o.field("type").and_then(Value::as_str).is_some_and(|t| OBSERVATION_TYPES.contains(&t));
    typed && o.has_field("traceId") && o.has_field("startTime") && !o.has_field("spanId")
}

/// A page of the observations API.
pub fn is_observation_page(o: &Map<String, Value>) -> bool {
    o.field("meta").is_some_and(Value::is_object)
        && o.field("data").and_then(Value::as_array).is_some_and(|d| d.first().and_then(Value::as_object).is_some_and(is_observation))
}

/// The items of list `key` of the object at `range`, each with its range
/// and path; items that are not objects are set aside.
#[allow(clippy::too_many_arguments)] // each is one fact of where the list is
fn list_of(out: &mut Builder, input: &Input, range: &Range<usize>, path: &str, prefix: &[Seg], key: &str, v: Option<Value>, what: &'static str, left: &mut [Left]) -> Vec<Obs> {
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut at = range.clone();
    for s in prefix {
        if let Seg::Key(k) = s {
            if let Some(r) = member_range(b, at.start, ends, k) {
                at = r;
            }
        }
    }
    let ranges = member_range(b, at.start, ends, key).map(|r| list_items(b, &r, ends)).unwrap_or_default();
    let Some(Value::Array(list)) = v else { return Vec::new() };
    let list_len = list.len();
    let mut found = Vec::with_capacity(list.len());
    for (i, item) in list.into_iter().enumerate() {
        let mut segs = prefix.to_vec();
        segs.extend([Seg::key(key), Seg::Index(i)]);
        let item_path = render_path(path, &segs);
        // `member_range` finds the last of repeated keys, as serde_json reads them.
        let own_range = ranges.len() == list_len;
        let item_range = ranges.get(i).cloned().unwrap_or_else(|| range.clone());
        match item {
            Value::Object(o) => {
                let Left { history, output, output_object, unbuilt } = left.get_mut(i).map(std::mem::take).unwrap_or_default();
                found.push(Obs { range: item_range, path: item_path, o, own_range, history, output, output_object, unbuilt })
            }
            other => {
                out.diag_in(Error, "langfuse-invalid", format!("expected {what} object, found {}", crate::import::json_type(&other)), range, path, &segs, None);
                out.set_aside(item_range, item_path, "not an object");
            }
        }
    }
    found
}

pub fn read(input: &Input, out: &mut Builder) -> Vec<TraceRec> {
    let mut traces: Vec<TraceRec> = Vec::new();
    // Lone observations, by trace id, in order of first appearance.
    let mut loose: HashMap<String, usize> = HashMap::new();
    for r in top_records(input) {
        if r.broken {
            continue; // kept as an unparsed event by the core
        }
        let (v, mut left) = match generations::read_record(out, input, &r.range) {
            Some(read) => read,
            None => match out.parse_record(&r.range, &r.path) {
                Ok(v) => (v, Vec::new()),
                Err(_) => continue,
            },
        };
        let Value::Object(mut o) = v else {
            out.diag_in(Error, "not-langfuse", format!("expected a Langfuse trace or observation object, found {}", crate::import::json_type(&v)), &r.range, &r.path, &[], None);
            out.set_aside(r.range.clone(), r.path.clone(), "not a Langfuse trace or observation");
            continue;
        };
        if is_export(&o) {
            let observations = list_of(out, input, &r.range, &r.path, &[], "observations", o.remove("observations"), "an observation", &mut left);
            let Some(Value::Object(mut trace)) = o.remove("trace") else { continue };
            let trace_range = member_range(input.bytes, r.range.start, &input.split.ends, "trace").unwrap_or_else(|| r.range.clone());
            let scores = list_of(out, input, &r.range, &r.path, &[Seg::key("trace")], "scores", trace.remove("scores"), "a score", &mut []);
            // Members beside `trace` and `observations` stay with the trace.
            for (k, v) in o {
                trace.insert(format!("export.{k}"), v);
            }
            let id = trace.field("id").and_then(Value::as_str).unwrap_or("").to_string();
            traces.push(TraceRec { id, trace, range: trace_range, path: render_path(&r.path, &[Seg::key("trace")]), shape: "ui-export", observations, scores });
        } else if is_full_trace(&o) {
            let observations = list_of(out, input, &r.range, &r.path, &[], "observations", o.remove("observations"), "an observation", &mut left);
            let scores = list_of(out, input, &r.range, &r.path, &[], "scores", o.remove("scores"), "a score", &mut []);
            let id = o.field("id").and_then(Value::as_str).unwrap_or("").to_string();
            traces.push(TraceRec { id, trace: o, range: r.range.clone(), path: r.path.clone(), shape: "api-trace", observations, scores });
        } else if is_observation_page(&o) || is_observation(&o) {
            let list = if is_observation(&o) {
                let Left { history, output, output_object, unbuilt } = left.first_mut().map(std::mem::take).unwrap_or_default();
                vec![Obs { range: r.range.clone(), path: r.path.clone(), o, own_range: true, history, output, output_object, unbuilt }]
            } else {
                let meta = o.remove("meta");
                let list = list_of(out, input, &r.range, &r.path, &[], "data", o.remove("data"), "an observation", &mut []);
                if let Some(m) = meta {
                    out.metadata_mut().insert("meta".to_string(), m);
                }
                list
            };
            for obs in list {
                let trace_id = obs.str_field("traceId").to_string();
                let at = *loose.entry(trace_id.clone()).or_insert_with(|| {
                    traces.push(TraceRec { id: trace_id, trace: Map::new(), range: obs.range.clone(), path: obs.path.clone(), shape: "observations", observations: Vec::new(), scores: Vec::new() });
                    traces.len() - 1
                });
                if let Some(t) = traces.get_mut(at) {
                    t.observations.push(obs);
                }
            }
        } else {
            out.diag_in(Error, "not-langfuse", "expected a Langfuse trace export (`trace`, `observations`), a trace with `observations`, or an observation (`id`, `traceId`, `type`, `startTime`)".to_string(), &r.range, &r.path, &[], None);
            out.set_aside(r.range.clone(), r.path.clone(), "not a Langfuse trace or observation");
        }
    }
    traces
}
