//! Reads the records of the input into spans: OTLP requests
//! (`resourceSpans[].scopeSpans[].spans[]`, a document or one per line as
//! the Collector's file exporter writes them), lone span objects, and flat
//! attribute objects (one span's attributes, `{"gen_ai.operation.name": …}`).
//! Checks each request against the protobuf messages ([`super::schema`]).

use std::ops::Range;

use serde_json::{json, Map, Value};

use super::attrs::key_values;
use super::input_text::{input_text_at, request_input_texts};
use super::messages::INPUT;
use super::schema::{self, get, Problem};
use super::time::nanos;
use crate::diagnostic::Severity::Error;
use crate::import::{top_records, Builder, Input};
use crate::json::{render_path, scan, Seg};
use crate::text::Text;

/// One span, wherever it came from.
pub struct SpanRec {
    /// The span object's bytes.
    pub range: Range<usize>,
    pub path: String,
    /// The span object as written (empty when the fast reader read the
    /// span: its event's metadata is then read from the source).
    pub span: Map<String, Value>,
    /// Its members the walk reads, read once.
    pub fields: SpanFields,
    /// Its attributes as a plain object.
    pub attrs: Map<String, Value>,
    /// Its resource's attributes and its scope (`{name, version}`), shared
    /// by the spans of one `scopeSpans`.
    pub resource: std::rc::Rc<Map<String, Value>>,
    pub scope: std::rc::Rc<Value>,
    /// A flat attribute object, not an OTLP span.
    pub flat: bool,
    /// `span` is the object at `range` as parsed (the ranges of its lists
    /// were found under the keys the reading took): its event's metadata
    /// may be left there (`Builder::can_defer_metadata`).
    pub own_range: bool,
    /// The `gen_ai.input.messages` string, left in the source (`attrs`
    /// holds `null` in its place): a chat span's conversation so far, which
    /// every span held until the walk.
    pub input_text: Option<Text>,
    /// Other string attributes the fast reader left in the source.
    pub texts: SpanTexts,
}

/// A span's string attributes that a fast reader (`fast.rs`) leaves in the
/// source, their `attrs` entries `null`: what the walk reads of them once
/// (the output messages, the system instructions: parsed; a tool's result:
/// shown as it is) need not be decoded into the span and held there until
/// the end of the parse, and a tool result shown stays in the source.
#[derive(Default)]
pub struct SpanTexts {
    pub output: Option<Text>,
    pub system: Option<Text>,
    pub result: Option<Text>,
    /// Where the fast reader found each of `genai_schema::ATTRIBUTES` (in
    /// its order) in the span's attribute list, the last of a key: all a
    /// diagnostic's path needs of the list, which the span object then does
    /// not keep (a `{"key": …}` object per attribute, built and dropped,
    /// was a sixth of that reader in wasm). `None`: the span object keeps
    /// the list.
    pub genai_at: Option<[Option<usize>; 3]>,
}

/// The members of a span the walk reads (ids, name, times, status,
/// events), read once: looking each up in the span's `Map` (SipHash per
/// key, two names per field) at every use, and building that `Map` in the
/// fast reader only for these, was a tenth of an otel parse.
/// A member missing, `null` or of another kind reads as the default.
#[derive(Default)]
pub struct SpanFields {
    pub trace_id: String,
    pub span_id: String,
    pub parent_span_id: String,
    pub name: String,
    /// `startTimeUnixNano` / `endTimeUnixNano` ([`nanos`]), 0 when unset.
    pub start: u64,
    pub end: u64,
    pub status: Option<Value>,
    /// `events` when a list.
    pub events: Vec<Value>,
}

impl SpanFields {
    /// The fields of a span object (by JSON or proto names, as `get` reads them).
    pub fn of(o: &Map<String, Value>) -> SpanFields {
        let mut f = SpanFields::default();
        for json in ["traceId", "spanId", "parentSpanId", "name", "startTimeUnixNano", "endTimeUnixNano", "status", "events"] {
            if let Some(v) = get(o, &schema::SPAN, json) {
                f.set(json, v);
            }
        }
        f
    }

    /// Sets the field of the member `json` (a JSON name) to `v`; other
    /// members are not read.
    pub fn set(&mut self, json: &str, v: &Value) {
        let text = || v.as_str().unwrap_or("").to_string();
        match json {
            "traceId" => self.trace_id = text(),
            "spanId" => self.span_id = text(),
            "parentSpanId" => self.parent_span_id = text(),
            "name" => self.name = text(),
            "startTimeUnixNano" => self.start = nanos(v).unwrap_or(0),
            "endTimeUnixNano" => self.end = nanos(v).unwrap_or(0),
            "status" if !v.is_null() => self.status = Some(v.clone()),
            "events" => self.events = v.as_array().cloned().unwrap_or_default(),
            _ => {}
        }
    }
}

/// What the reader found besides the spans.
#[derive(Default)]
pub struct Found {
    pub spans: Vec<SpanRec>,
    /// Per `resourceSpans`: its resource, schema URL and scopes, for the
    /// file metadata (what no span holds).
    pub resources: Vec<Value>,
    pub requests: usize,
}

/// Keys that mark an object as a span's flat attributes.
pub fn is_flat_attributes(o: &Map<String, Value>) -> bool {
    o.keys().any(|k| {
        k.starts_with("gen_ai.") || k.starts_with("llm.") || k.starts_with("openinference.") || k == "input.value" || k == "output.value"
    })
}

/// An OTLP span object (in a list of spans, not wrapped in a request).
pub fn is_span_object(o: &Map<String, Value>) -> bool {
    (o.contains_key("traceId") || o.contains_key("trace_id")) && (o.contains_key("spanId") || o.contains_key("span_id"))
}

pub fn is_request(o: &Map<String, Value>) -> bool {
    o.contains_key("resourceSpans") || o.contains_key("resource_spans")
}

pub fn read(input: &Input, out: &mut Builder) -> Found {
    let mut found = Found::default();
    let no_resource = std::rc::Rc::new(Map::new());
    let no_scope = std::rc::Rc::new(Value::Null);
    for r in top_records(input) {
        if r.broken {
            continue; // kept as an unparsed event by the core
        }
        // A plain request is read from its bytes (`fast`).
        if out.reads_fast(&r.range) {
            if let Some(resources) = super::fast::request(out, input, &r.range, &r.path, &mut found.spans) {
                found.requests += 1;
                found.resources.extend(resources);
                continue;
            }
        }
        // A request's input texts are left out of its value (and in the source).
        let mut texts = if out.reads_fast(&r.range) { request_input_texts(input.bytes, &input.split.ends, r.range.start) } else { Vec::new() };
        let holes: Vec<Range<usize>> = texts.iter().map(|(_, inner, _)| inner.start.saturating_sub(1 + r.range.start)..(inner.end + 1).saturating_sub(r.range.start)).collect();
        let holed = (!holes.is_empty()).then(|| input.bytes.get(r.range.clone()).and_then(|slice| crate::json::build::value_with_holes(slice, &holes))).flatten();
        let v = match holed {
            Some(v) => v,
            None => {
                texts.clear();
                let Ok(v) = out.parse_record(&r.range, &r.path) else { continue };
                v
            }
        };
        let Value::Object(o) = v else {
            out.diag_in(Error, "not-otlp", format!("expected an OTLP request, span or attribute object, found {}", crate::import::json_type(&v)), &r.range, &r.path, &[], None);
            out.set_aside(r.range.clone(), r.path.clone(), "not an OTLP request, span or attribute object");
            continue;
        };
        if is_request(&o) {
            found.requests += 1;
            request(out, input, &r.range, &r.path, o, &mut found, &texts);
        } else if is_span_object(&o) {
            let mut problems = Vec::new();
            schema::check_object(&o, &schema::SPAN, &[], &mut problems);
            report(out, &r.range, &r.path, &problems);
            let mut attrs = key_values(get(&o, &schema::SPAN, "attributes"));
            let fields = SpanFields::of(&o);
            let (o, input_text) = slim(out, input, o, &mut attrs, &r.range, true, None);
            found.spans.push(SpanRec { range: r.range.clone(), path: r.path.clone(), span: o, fields, attrs, resource: no_resource.clone(), scope: no_scope.clone(), flat: false, own_range: true, input_text, texts: SpanTexts::default() });
        } else if is_flat_attributes(&o) {
            found.spans.push(SpanRec { range: r.range.clone(), path: r.path.clone(), attrs: o.clone(), fields: SpanFields::of(&o), span: o, resource: no_resource.clone(), scope: no_scope.clone(), flat: true, own_range: true, input_text: None, texts: SpanTexts::default() });
        } else {
            out.diag_in(Error, "not-otlp", "expected an OTLP request (`resourceSpans`), a span (`traceId`, `spanId`) or span attributes (`gen_ai.*`, `llm.*`)".to_string(), &r.range, &r.path, &[], None);
            out.set_aside(r.range.clone(), r.path.clone(), "not an OTLP request, span or attribute object");
        }
    }
    found
}

/// What a span keeps until the walk, when its event's metadata will be read
/// from the source: its attributes' values once (in `attrs`; the span
/// object's become `null`, their keys kept for diagnostics' paths), and its
/// `gen_ai.input.messages` text not even there but in the source (`null`
/// in `attrs`). A chat span's attributes are the conversation so far: held
/// twice, and for every span, they were the bulk of the parse's memory.
/// `left_out`: the text the request's value was built without (read as
/// empty), put back when the metadata is not left in the source.
#[allow(clippy::too_many_arguments)] // each is one fact of the span
fn slim(out: &Builder, input: &Input, mut span: Map<String, Value>, attrs: &mut Map<String, Value>, range: &Range<usize>, own_range: bool, left_out: Option<(Range<usize>, bool)>) -> (Map<String, Value>, Option<Text>) {
    if !own_range || !out.can_defer_metadata(range) {
        if let Some((inner, escaped)) = left_out {
            put_back(&mut span, attrs, out.text(inner, escaped).decoded().into_owned());
        }
        return (span, None);
    }
    // `attributes` is the member's name in OTLP/JSON and in proto3 alike.
    if let Some(Value::Array(list)) = span.get_mut("attributes") {
        for kv in list.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(v) = kv.get_mut("value") {
                *v = Value::Null;
            }
        }
    }
    let at = left_out.or_else(|| match attrs.get(INPUT) {
        Some(Value::String(_)) => input_text_at(input.bytes, &input.split.ends, range.start),
        _ => None,
    });
    let text = at.map(|(inner, escaped)| {
        if let Some(v) = attrs.get_mut(INPUT) {
            *v = Value::Null;
        }
        out.text(inner, escaped)
    });
    (span, text)
}

/// Puts a left-out input text back where the request's value read it as
/// empty: the last `gen_ai.input.messages` attribute's `stringValue`.
fn put_back(span: &mut Map<String, Value>, attrs: &mut Map<String, Value>, text: String) {
    if let Some(Value::Array(list)) = span.get_mut("attributes") {
        let last = list.iter_mut().rev().find(|kv| kv.get("key").and_then(Value::as_str) == Some(INPUT));
        if let Some(Value::Object(value)) = last.and_then(|kv| kv.get_mut("value")) {
            value.insert("stringValue".to_string(), Value::String(text.clone()));
        }
    }
    attrs.insert(INPUT.to_string(), Value::String(text));
}

fn report(out: &mut Builder, range: &Range<usize>, path: &str, problems: &[Problem]) {
    for p in problems {
        out.diag_in(Error, "otlp-invalid", p.message.clone(), range, path, &p.segs, None);
    }
}

/// The byte range of member `key` (JSON or proto name) of the object at `at`.
fn member(b: &[u8], at: usize, ends: &scan::ContainerEnds, keys: [&str; 2]) -> Option<(String, Range<usize>)> {
    let members = scan::object_members_in(b, scan::skip_ws(b, at), ends).ok()?;
    members.into_iter().rev().find(|(k, _)| keys.contains(&k.as_str()))
}

fn items(b: &[u8], range: &Range<usize>, ends: &scan::ContainerEnds) -> Vec<Range<usize>> {
    let at = scan::skip_ws(b, range.start);
    if b.get(at) != Some(&b'[') {
        return Vec::new();
    }
    scan::array_items_in(b, at, ends).0
}

/// One `ExportTraceServiceRequest`: checked whole, then its spans taken out
/// with their byte ranges.
/// `texts`: the spans' input texts left out of `o` (see [`slim`]).
fn request(out: &mut Builder, input: &Input, range: &Range<usize>, path: &str, mut o: Map<String, Value>, found: &mut Found, texts: &[(usize, Range<usize>, bool)]) {
    let mut problems = Vec::new();
    schema::check_object(&o, &schema::REQUEST, &[], &mut problems);
    report(out, range, path, &problems);
    let (b, ends) = (input.bytes, &input.split.ends);
    let rs_key = if o.contains_key("resourceSpans") { "resourceSpans" } else { "resource_spans" };
    let rs_member = member(b, range.start, ends, ["resourceSpans", "resource_spans"]);
    let rs_own = rs_member.as_ref().is_some_and(|(k, _)| k == rs_key);
    let rs_ranges = rs_member.map(|(_, r)| items(b, &r, ends)).unwrap_or_default();
    let resource_spans = match o.remove(rs_key) {
        Some(Value::Array(items)) => items,
        other => {
            // Not a list (reported above): kept with the file metadata.
            if let Some(v) = other {
                o.insert(rs_key.to_string(), v);
                found.resources.push(Value::Object(o));
            }
            return;
        }
    };
    let rs_own = rs_own && rs_ranges.len() == resource_spans.len();
    for (i, (rs, rs_at)) in resource_spans.into_iter().zip(rs_ranges.into_iter().map(Some).chain(std::iter::repeat(None))).enumerate() {
        let Value::Object(mut rs) = rs else {
            found.resources.push(rs);
            continue;
        };
        let resource_value = get(&rs, &schema::RESOURCE_SPANS, "resource").cloned().unwrap_or(Value::Null);
        let resource = std::rc::Rc::new(key_values(resource_value.get("attributes")));
        let ss_key = if rs.contains_key("scopeSpans") { "scopeSpans" } else { "scope_spans" };
        let ss_member = rs_at.as_ref().and_then(|r| member(b, r.start, ends, ["scopeSpans", "scope_spans"]));
        let ss_own = rs_own && ss_member.as_ref().is_some_and(|(k, _)| k == ss_key);
        let ss_ranges = ss_member.map(|(_, r)| items(b, &r, ends)).unwrap_or_default();
        let scope_list = rs.remove(ss_key);
        let mut scopes = Vec::new();
        let Some(Value::Array(scope_spans)) = scope_list else {
            if let Some(v) = scope_list {
                rs.insert(ss_key.to_string(), v);
            }
            found.resources.push(Value::Object(rs));
            continue;
        };
        let ss_own = ss_own && ss_ranges.len() == scope_spans.len();
        for (j, (ss, ss_at)) in scope_spans.into_iter().zip(ss_ranges.into_iter().map(Some).chain(std::iter::repeat(None))).enumerate() {
            let Value::Object(mut ss) = ss else {
                scopes.push(ss);
                continue;
            };
            let sp_key = "spans";
            let sp_ranges = ss_at.as_ref().and_then(|r| member(b, r.start, ends, ["spans", "spans"])).map(|(_, r)| items(b, &r, ends)).unwrap_or_default();
            let spans = ss.remove(sp_key);
            let sp_own = ss_own && spans.as_ref().and_then(Value::as_array).is_some_and(|l| l.len() == sp_ranges.len());
            let scope_value = get(&ss, &schema::SCOPE_SPANS, "scope").cloned().unwrap_or(Value::Null);
            let scope = std::rc::Rc::new(json!({
                "name": scope_value.get("name").cloned().unwrap_or(Value::Null),
                "version": scope_value.get("version").cloned().unwrap_or(Value::Null),
                "attributes": Value::Object(key_values(scope_value.get("attributes"))),
            }));
            let spans = match spans {
                Some(Value::Array(items)) => items,
                other => {
                    if let Some(v) = other {
                        ss.insert(sp_key.to_string(), v);
                    }
                    scopes.push(Value::Object(ss));
                    continue;
                }
            };
            scopes.push(Value::Object(ss));
            for (k, span) in spans.into_iter().enumerate() {
                let segs = [Seg::key(rs_key), Seg::Index(i), Seg::key(ss_key), Seg::Index(j), Seg::key(sp_key), Seg::Index(k)];
                let span_path = render_path(path, &segs);
                let span_range = sp_ranges.get(k).cloned().unwrap_or_else(|| range.clone());
                let Value::Object(span) = span else {
                    out.set_aside(span_range, span_path, "a span that is not an object");
                    continue;
                };
                let mut attrs = key_values(get(&span, &schema::SPAN, "attributes"));
                let left_out = texts.binary_search_by_key(&span_range.start, |t| t.0).ok().and_then(|i| texts.get(i)).map(|(_, inner, escaped)| (inner.clone(), *escaped));
                let fields = SpanFields::of(&span);
                let (span, input_text) = slim(out, input, span, &mut attrs, &span_range, sp_own, left_out);
                found.spans.push(SpanRec { range: span_range, path: span_path, span, fields, attrs, resource: resource.clone(), scope: scope.clone(), flat: false, own_range: sp_own, input_text, texts: SpanTexts::default() });
            }
        }
        rs.insert(ss_key.to_string(), Value::Array(scopes));
        found.resources.push(Value::Object(rs));
    }
    // Unknown top-level members (reported above) are kept with the resources.
    if !o.is_empty() {
        found.resources.push(Value::Object(o));
    }
}
