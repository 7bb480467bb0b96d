//! An OTLP request read from its bytes (docs/adding-a-format.md §8): the
//! exact path builds the whole request as a `serde_json::Value`, checks it,
//! then copies every attribute value out of it and drops the span objects'
//! copies; on the generated 10 MB file that was a third of the parse. Here
//! each span's members are read from the bytes; its scalar members (ids,
//! times, status, events) are built and checked as the exact path checks
//! them, and each attribute's value is decoded once, straight into the
//! span's attribute object (`gen_ai.input.messages` not even that: left in
//! the source as a `Text`, and so are the output messages, the system
//! instructions and a tool's result: `reader::SpanTexts`). What the reader keeps is the exact path's after
//! `reader::slim`, but for the span object's attribute list: where the
//! GenAI message attributes are in it (`SpanTexts::genai_at`, all the
//! diagnostics' paths need), the attributes by key, the input text.
//!
//! Anything the exact path would say something about, or might read
//! otherwise, gives `None` and the request takes the exact path: a member
//! named by its proto name or unknown, a repeated or escaped key, a
//! repeated attribute, a value of the wrong kind, any schema problem.

use std::ops::Range;
use std::rc::Rc;

use serde_json::{json, Map, Value};

use super::attrs::{any_value, key_values};
use super::messages::INPUT;
use super::convert::TOOL_RESULT;
use super::genai_schema::ATTRIBUTES;
use super::messages::{OUTPUT, SYSTEM};
use super::reader::{SpanFields, SpanRec, SpanTexts};
use super::span_walk::{span_members, AttrItem, AttrValue};
use super::schema::{self, get, Message};
use crate::import::{Builder, Input};
use crate::json::fields::{build_object, Fields};
use crate::json::read::{self, Kind, Member};
use super::unescape::decode_literal;
use crate::json::{item_path, render_path, scan, ContainerEnds, Seg};

/// The request at `range` (a record `Builder::reads_fast` allows) read from
/// its bytes, its spans pushed onto `spans`; what the exact path keeps for
/// the file metadata (per `resourceSpans`), or `None` (and `spans` as it
/// was) when the exact path must read it. Pushed where they are kept, not
/// gathered per request and moved: growing and copying the span records
/// twice was a tenth of this reader in wasm.
pub fn request(out: &Builder, input: &Input, range: &Range<usize>, path: &str, spans: &mut Vec<SpanRec>) -> Option<Vec<Value>> {
    let before = spans.len();
    let read = read_request(out, input, range, path, spans);
    if read.is_none() {
        spans.truncate(before);
    }
    read
}

fn read_request(out: &Builder, input: &Input, range: &Range<usize>, path: &str, found_spans: &mut Vec<SpanRec>) -> Option<Vec<Value>> {
    let r = Reader { out, b: input.bytes, ends: &input.split.ends };
    let mut top = Vec::new();
    read::members(r.b, scan::skip_ws(r.b, range.start), r.ends, &mut top)?;
    let [list] = top.as_slice() else { return None };
    if list.key_escaped || r.b.get(list.key.clone())? != b"resourceSpans" || list.kind != Kind::Array {
        return None;
    }
    let mut resources = Vec::new();
    let (mut members, mut ss_members, mut attr_items) = (Vec::new(), Vec::new(), Vec::new());
    let (mut rs_items, mut ss_items, mut span_items) = (Vec::new(), Vec::new(), Vec::new());
    read::items(r.b, list.value.start, r.ends, &mut rs_items)?;
    for (i, rs_at) in rs_items.iter().enumerate() {
        read::members(r.b, rs_at.start, r.ends, &mut members)?;
        let (mut rs, ss_list) = r.object(&members, &schema::RESOURCE_SPANS, "scopeSpans")?;
        let resource_value = get(&rs, &schema::RESOURCE_SPANS, "resource").cloned().unwrap_or(Value::Null);
        let resource = Rc::new(key_values(resource_value.get("attributes")));
        // As the exact path: the list taken out (where `remove` leaves the
        // other members), the scopes put back last.
        rs.remove("scopeSpans");
        let Some(ss_list) = ss_list else {
            resources.push(Value::Object(rs));
            continue;
        };
        let mut scopes = Vec::new();
        read::items(r.b, ss_list.start, r.ends, &mut ss_items)?;
        for (j, ss_at) in ss_items.iter().enumerate() {
            read::members(r.b, ss_at.start, r.ends, &mut ss_members)?;
            let (mut ss, spans) = r.object(&ss_members, &schema::SCOPE_SPANS, "spans")?;
            ss.remove("spans");
            let scope_value = get(&ss, &schema::SCOPE_SPANS, "scope").cloned().unwrap_or(Value::Null);
            let scope = Rc::new(json!({
                "name": scope_value.get("name").cloned().unwrap_or(Value::Null),
                "version": scope_value.get("version").cloned().unwrap_or(Value::Null),
                "attributes": Value::Object(key_values(scope_value.get("attributes"))),
            }));
            scopes.push(Value::Object(ss));
            let Some(spans) = spans else { continue };
            read::items(r.b, spans.start, r.ends, &mut span_items)?;
            // The spans' paths share all but their index: rendered once.
            let list_path = render_path(path, &[Seg::key("resourceSpans"), Seg::Index(i), Seg::key("scopeSpans"), Seg::Index(j), Seg::key("spans")]);
            for (k, span_range) in span_items.iter().enumerate() {
                let mut span = r.span(span_range, &mut members, &mut attr_items)?;
                span.path = item_path(&list_path, k);
                span.resource = resource.clone();
                span.scope = scope.clone();
                found_spans.push(span);
            }
        }
        rs.insert("scopeSpans".to_string(), Value::Array(scopes));
        resources.push(Value::Object(rs));
    }
    Some(resources)
}

/// An object built without one of its lists, and where that list is.
type ObjectWithList = (Map<String, Value>, Option<Range<usize>>);

struct Reader<'r, 'a> {
    out: &'r Builder<'a>,
    b: &'r [u8],
    ends: &'r ContainerEnds,
}

impl Reader<'_, '_> {
    /// The object of `members` as the exact path builds it, with `list` (a
    /// member the caller reads item by item) a `null` in its place, and
    /// where that list is; `None` unless every key is written plainly,
    /// once, by its JSON name, `list` (when there) is a list, and the
    /// object passes the schema check.
    fn object(&self, members: &[Member], message: &'static Message, list: &str) -> Option<ObjectWithList> {
        let mut at = None;
        for (n, m) in members.iter().enumerate() {
            let key = self.b.get(m.key.clone())?;
            if m.key_escaped || !schema::is_json_name(message, key) || members.get(..n)?.iter().any(|o| self.b.get(o.key.clone()) == Some(key)) {
                return None;
            }
            if key == list.as_bytes() {
                if m.kind != Kind::Array {
                    return None;
                }
                at = Some(m.value.clone());
            }
        }
        let o = build_object(self.b, members, |key, _| (key == list.as_bytes()).then_some(Value::Null))?;
        let mut problems = Vec::new();
        schema::check_object(&o, message, &[list], &mut problems);
        problems.is_empty().then_some((o, at))
    }

    /// One span, with its path, resource and scope left for the caller.
    /// `members`, `items`: buffers kept from span to span.
    fn span(&self, range: &Range<usize>, members: &mut Vec<Member>, items: &mut Vec<AttrItem>) -> Option<SpanRec> {
        if !self.out.can_defer_metadata(range) {
            return None;
        }
        span_members(self.b, range.start, self.ends, members, items)?;
        let (fields, list) = self.span_fields(members)?;
        // Sized once: grown attribute by attribute, each map was copied twice or so.
        let mut attrs = Map::with_capacity(items.len());
        let mut input_text = None;
        let mut texts = SpanTexts::default();
        if list.is_some() {
            let (mut kv, mut value) = (Vec::new(), Vec::new());
            let mut genai_at = [None; 3];
            for (n, (item, compact)) in items.drain(..).enumerate() {
                let (name, found) = match compact {
                    Some(found) => found,
                    None => self.attribute(&item, &mut kv, &mut value)?,
                };
                let name = std::str::from_utf8(self.b.get(name)?).ok()?;
                if let Some(k) = ATTRIBUTES.iter().position(|(key, _)| *key == name) {
                    if let Some(at) = genai_at.get_mut(k) {
                        *at = Some(n);
                    }
                }
                let attr = match found {
                    AttrValue::Text(inner, escaped) => {
                        let slot = match name {
                            INPUT => Some(&mut input_text),
                            OUTPUT => Some(&mut texts.output),
                            SYSTEM => Some(&mut texts.system),
                            TOOL_RESULT => Some(&mut texts.result),
                            _ => None,
                        };
                        match slot {
                            Some(slot) => {
                                *slot = Some(self.out.text(inner, escaped));
                                Value::Null
                            }
                            None => Value::String(decode_literal(self.b.get(inner)?, escaped).into_owned()),
                        }
                    }
                    AttrValue::Other(range) => self.any_value(&range)?,
                };
                if attrs.insert(name.to_string(), attr).is_some() {
                    return None;
                }
            }
            texts.genai_at = Some(genai_at);
        }
        Some(SpanRec {
            range: range.clone(),
            path: String::new(),
            span: Map::new(),
            fields,
            attrs,
            resource: Rc::new(Map::new()),
            scope: Rc::new(Value::Null),
            flat: false,
            own_range: true,
            input_text,
            texts,
        })
    }

    /// A span's fields read from its `members`, and where its attribute
    /// list is; `None` where [`Reader::object`] gives `None`. The ids and
    /// times, written plainly, are checked and read from their bytes; any
    /// other member is built and checked alone (`schema::check_member`),
    /// and only the walk's fields are kept (no span object is built: the
    /// event's metadata is read from the source).
    fn span_fields(&self, members: &[Member]) -> Option<(SpanFields, Option<Range<usize>>)> {
        let mut fields = SpanFields::default();
        let mut list = None;
        for (n, m) in members.iter().enumerate() {
            let key = self.b.get(m.key.clone())?;
            if m.key_escaped || !schema::is_json_name(&schema::SPAN, key) || members.get(..n)?.iter().any(|o| self.b.get(o.key.clone()) == Some(key)) {
                return None;
            }
            let plain = (m.kind == Kind::String && !m.escaped).then(|| self.b.get(m.inner())).flatten();
            match (key, plain) {
                (b"attributes", _) if m.kind == Kind::Array => list = Some(m.value.clone()),
                (b"attributes", _) => return None,
                // `Ty::HexId`: an even number of hex digits.
                (b"traceId" | b"spanId" | b"parentSpanId", Some(id)) if id.len() % 2 == 0 && id.iter().all(u8::is_ascii_hexdigit) => {
                    let id = std::str::from_utf8(id).ok()?.to_string();
                    match key {
                        b"traceId" => fields.trace_id = id,
                        b"spanId" => fields.span_id = id,
                        _ => fields.parent_span_id = id,
                    }
                }
                // A `fixed64` of up to 19 digits: in range, and `nanos` reads it.
                (b"startTimeUnixNano" | b"endTimeUnixNano", Some(digits)) if (1..=19).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) => {
                    let n = digits.iter().fold(0u64, |n, c| n * 10 + u64::from(c - b'0'));
                    if key == b"startTimeUnixNano" {
                        fields.start = n;
                    } else {
                        fields.end = n;
                    }
                }
                _ => {
                    let key = std::str::from_utf8(key).ok()?;
                    let v = crate::json::build::value(self.b.get(m.value.clone())?)?;
                    let mut problems = Vec::new();
                    schema::check_member(&schema::SPAN, key, &v, &mut problems);
                    if !problems.is_empty() {
                        return None;
                    }
                    fields.set(key, &v);
                }
            }
        }
        Some((fields, list))
    }

    /// An attribute `{"key": "…", "value": {…}}` read member by member: its
    /// key's contents and its value; `None` unless it has those two members
    /// only, the key a string without escapes, the value an object.
    fn attribute(&self, item: &Range<usize>, kv: &mut Vec<Member>, value: &mut Vec<Member>) -> Option<(Range<usize>, AttrValue)> {
        read::members(self.b, item.start, self.ends, kv)?;
        let f = Fields::find(self.b, kv, [b"key", b"value"])?;
        let (key, v) = (f.get(kv, 0)?, f.get(kv, 1)?);
        if kv.len() != 2 || key.kind != Kind::String || key.escaped || v.kind != Kind::Object {
            return None;
        }
        read::members(self.b, v.value.start, self.ends, value)?;
        let found = match value.as_slice() {
            [only] if !only.key_escaped && only.kind == Kind::String && self.b.get(only.key.clone()) == Some(b"stringValue".as_slice()) => AttrValue::Text(only.inner(), only.escaped),
            _ => AttrValue::Other(v.value.clone()),
        };
        Some((key.inner(), found))
    }

    /// Any other attribute value, built and checked as an `AnyValue`, then
    /// made plain JSON as the exact path makes it.
    fn any_value(&self, v: &Range<usize>) -> Option<Value> {
        let value = crate::json::build::value(self.b.get(v.clone())?)?;
        let mut problems = Vec::new();
        schema::check(&value, &schema::ANY_VALUE, &[], &mut problems);
        problems.is_empty().then(|| any_value(&value))
    }
}
