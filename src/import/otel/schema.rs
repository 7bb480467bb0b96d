//! The verdict on an OTLP JSON document: what `google.protobuf.json_format.
//! Parse` into `ExportTraceServiceRequest` (opentelemetry-proto 1.45.2)
//! accepts, after the two deviations OTLP/JSON specifies (trace and span ids
//! as hex, enums as integers). A walk over the protobuf messages' fields by
//! their JSON and proto names; each problem is a path and a message, and
//! the reader turns them into `error` diagnostics.

use serde_json::{Map, Value};

use crate::json::Seg;

/// The protobuf type of one field.
#[derive(Clone, Copy)]
enum Ty {
    Str,
    Bool,
    Double,
    /// int32 / uint32 / int64 / uint64 / fixed64, with their range.
    Int(i128, i128),
    /// Hex trace or span id (OTLP/JSON), `bytes` in protobuf.
    HexId,
    Bytes,
    /// An enum: integer, or one of its names.
    Enum(&'static [&'static str]),
    Msg(&'static Message),
}

struct Field {
    json: &'static str,
    proto: &'static str,
    ty: Ty,
    repeated: bool,
}

pub struct Message {
    name: &'static str,
    fields: &'static [Field],
    /// AnyValue: at most one field set (its `oneof`).
    oneof: bool,
}

const fn f(json: &'static str, proto: &'static str, ty: Ty) -> Field {
    Field { json, proto, ty, repeated: false }
}

const fn list(json: &'static str, proto: &'static str, ty: Ty) -> Field {
    Field { json, proto, ty, repeated: true }
}

const U32: Ty = Ty::Int(0, u32::MAX as i128);
const I64: Ty = Ty::Int(i64::MIN as i128, i64::MAX as i128);
const U64: Ty = Ty::Int(0, u64::MAX as i128);
const SPAN_KINDS: &[&str] =
    &["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"];
const STATUS_CODES: &[&str] = &["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

pub static ANY_VALUE: Message = Message {
    name: "AnyValue",
    oneof: true,
    fields: &[
        f("stringValue", "string_value", Ty::Str),
        f("boolValue", "bool_value", Ty::Bool),
        f("intValue", "int_value", I64),
        f("doubleValue", "double_value", Ty::Double),
        f("arrayValue", "array_value", Ty::Msg(&ARRAY_VALUE)),
        f("kvlistValue", "kvlist_value", Ty::Msg(&KVLIST_VALUE)),
        f("bytesValue", "bytes_value", Ty::Bytes),
    ],
};
static ARRAY_VALUE: Message = Message { name: "ArrayValue", oneof: false, fields: &[list("values", "values", Ty::Msg(&ANY_VALUE))] };
static KVLIST_VALUE: Message = Message { name: "KeyValueList", oneof: false, fields: &[list("values", "values", Ty::Msg(&KEY_VALUE))] };
static KEY_VALUE: Message =
    Message { name: "KeyValue", oneof: false, fields: &[f("key", "key", Ty::Str), f("value", "value", Ty::Msg(&ANY_VALUE))] };
static ENTITY_REF: Message = Message {
    name: "EntityRef",
    oneof: false,
    fields: &[
        f("schemaUrl", "schema_url", Ty::Str),
        f("type", "type", Ty::Str),
        list("idKeys", "id_keys", Ty::Str),
        list("descriptionKeys", "description_keys", Ty::Str),
    ],
};
static RESOURCE: Message = Message {
    name: "Resource",
    oneof: false,
    fields: &[
        list("attributes", "attributes", Ty::Msg(&KEY_VALUE)),
        f("droppedAttributesCount", "dropped_attributes_count", U32),
        list("entityRefs", "entity_refs", Ty::Msg(&ENTITY_REF)),
    ],
};
static SCOPE: Message = Message {
    name: "InstrumentationScope",
    oneof: false,
    fields: &[
        f("name", "name", Ty::Str),
        f("version", "version", Ty::Str),
        list("attributes", "attributes", Ty::Msg(&KEY_VALUE)),
        f("droppedAttributesCount", "dropped_attributes_count", U32),
    ],
};
static EVENT: Message = Message {
    name: "Span.Event",
    oneof: false,
    fields: &[
        f("timeUnixNano", "time_unix_nano", U64),
        f("name", "name", Ty::Str),
        list("attributes", "attributes", Ty::Msg(&KEY_VALUE)),
        f("droppedAttributesCount", "dropped_attributes_count", U32),
    ],
};
static LINK: Message = Message {
    name: "Span.Link",
    oneof: false,
    fields: &[
        f("traceId", "trace_id", Ty::HexId),
        f("spanId", "span_id", Ty::HexId),
        f("traceState", "trace_state", Ty::Str),
        list("attributes", "attributes", Ty::Msg(&KEY_VALUE)),
        f("droppedAttributesCount", "dropped_attributes_count", U32),
        f("flags", "flags", U32),
    ],
};
static STATUS: Message = Message {
    name: "Status",
    oneof: false,
    fields: &[f("message", "message", Ty::Str), f("code", "code", Ty::Enum(STATUS_CODES))],
};
pub static SPAN: Message = Message {
    name: "Span",
    oneof: false,
    fields: &[
        f("traceId", "trace_id", Ty::HexId),
        f("spanId", "span_id", Ty::HexId),
        f("traceState", "trace_state", Ty::Str),
        f("parentSpanId", "parent_span_id", Ty::HexId),
        f("flags", "flags", U32),
        f("name", "name", Ty::Str),
        f("kind", "kind", Ty::Enum(SPAN_KINDS)),
        f("startTimeUnixNano", "start_time_unix_nano", U64),
        f("endTimeUnixNano", "end_time_unix_nano", U64),
        list("attributes", "attributes", Ty::Msg(&KEY_VALUE)),
        f("droppedAttributesCount", "dropped_attributes_count", U32),
        list("events", "events", Ty::Msg(&EVENT)),
        f("droppedEventsCount", "dropped_events_count", U32),
        list("links", "links", Ty::Msg(&LINK)),
        f("droppedLinksCount", "dropped_links_count", U32),
        f("status", "status", Ty::Msg(&STATUS)),
    ],
};
/// `ScopeSpans` without its `spans`, which the reader checks one by one.
pub static SCOPE_SPANS: Message = Message {
    name: "ScopeSpans",
    oneof: false,
    fields: &[f("scope", "scope", Ty::Msg(&SCOPE)), list("spans", "spans", Ty::Msg(&SPAN)), f("schemaUrl", "schema_url", Ty::Str)],
};
pub static RESOURCE_SPANS: Message = Message {
    name: "ResourceSpans",
    oneof: false,
    fields: &[
        f("resource", "resource", Ty::Msg(&RESOURCE)),
        list("scopeSpans", "scope_spans", Ty::Msg(&SCOPE_SPANS)),
        f("schemaUrl", "schema_url", Ty::Str),
    ],
};
pub static REQUEST: Message =
    Message { name: "ExportTraceServiceRequest", oneof: false, fields: &[list("resourceSpans", "resource_spans", Ty::Msg(&RESOURCE_SPANS))] };

/// One reason the document is not a valid request.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub segs: Vec<Seg>,
    pub message: String,
}

/// Which of `message`'s fields `key` names (by JSON or proto name).
fn field(message: &'static Message, key: &str) -> Option<&'static Field> {
    message.fields.iter().find(|fl| fl.json == key || fl.proto == key)
}

/// True when `key` is the JSON name of one of `message`'s fields (a fast
/// reader takes no proto names: the exact path reads them).
pub fn is_json_name(message: &'static Message, key: &[u8]) -> bool {
    message.fields.iter().any(|fl| fl.json.as_bytes() == key)
}

/// The canonical JSON name `key` stands for in `message`, if any (to read a
/// field whichever name the writer used).
pub fn get<'v>(o: &'v Map<String, Value>, message: &'static Message, json: &str) -> Option<&'v Value> {
    let fl = message.fields.iter().find(|fl| fl.json == json)?;
    // Most fields' two names are one: looked up once (each lookup hashes the key).
    o.get(fl.json).or_else(|| if fl.proto == fl.json { None } else { o.get(fl.proto) }).filter(|v| !v.is_null())
}

/// Checks `v` as a `message`, skipping the members named in `skip` (read
/// elsewhere). Problems are appended with their paths.
pub fn check(v: &Value, message: &'static Message, skip: &[&str], out: &mut Vec<Problem>) {
    check_at(v, message, skip, &mut Vec::new(), out);
}

/// [`check`] of an object.
pub fn check_object(o: &Map<String, Value>, message: &'static Message, skip: &[&str], out: &mut Vec<Problem>) {
    check_object_at(o, message, skip, &mut Vec::new(), out);
}

/// [`check_object`]'s verdict on one member `key` of a `message` object
/// whose keys are each written once, by JSON names: a fast reader checks
/// the members it builds one by one, and reads the others from the bytes.
pub fn check_member(message: &'static Message, key: &str, v: &Value, out: &mut Vec<Problem>) {
    let mut at = vec![At::Key(key)];
    match field(message, key) {
        None => push(out, &at, format!("`{key}` is not a field of {}", message.name)),
        Some(fl) if !v.is_null() => check_field(v, fl, &mut at, out),
        Some(_) => {}
    }
}

/// A step of the path being checked, borrowed from the value: made a
/// [`Seg`] only for a problem (a `String` per member checked was a third
/// of checking a span).
#[derive(Clone, Copy)]
enum At<'v> {
    Key(&'v str),
    Index(usize),
}

fn check_at<'v>(v: &'v Value, message: &'static Message, skip: &[&str], at: &mut Vec<At<'v>>, out: &mut Vec<Problem>) {
    match v.as_object() {
        Some(o) => check_object_at(o, message, skip, at, out),
        None => push(out, at, format!("`{}` must be an object, found {}", message.name, super::super::json_type(v))),
    }
}

fn check_object_at<'v>(o: &'v Map<String, Value>, message: &'static Message, skip: &[&str], at: &mut Vec<At<'v>>, out: &mut Vec<Problem>) {
    let mut seen: Vec<&str> = Vec::new();
    let mut set = 0;
    for (k, value) in o {
        at.push(At::Key(k));
        match field(message, k) {
            None => push(out, at, format!("`{k}` is not a field of {}", message.name)),
            Some(fl) if seen.contains(&fl.json) => push(out, at, format!("`{}` is given twice (by its JSON and its proto name)", fl.json)),
            Some(fl) => {
                seen.push(fl.json);
                if !value.is_null() {
                    set += 1;
                    if !skip.contains(&fl.json) {
                        check_field(value, fl, at, out);
                    }
                }
            }
        }
        at.pop();
    }
    if message.oneof && set > 1 {
        push(out, at, format!("{} must have at most one value field, found {set}", message.name));
    }
}

fn push(out: &mut Vec<Problem>, at: &[At], message: String) {
    let segs = at.iter().map(|a| match *a {
        At::Key(k) => Seg::key(k),
        At::Index(i) => Seg::Index(i),
    });
    out.push(Problem { segs: segs.collect(), message });
}

fn check_field<'v>(v: &'v Value, fl: &Field, at: &mut Vec<At<'v>>, out: &mut Vec<Problem>) {
    if !fl.repeated {
        check_value(v, fl, at, out);
        return;
    }
    let Some(items) = v.as_array() else {
        push(out, at, format!("`{}` must be a list, found {}", fl.json, super::super::json_type(v)));
        return;
    };
    for (i, item) in items.iter().enumerate() {
        at.push(At::Index(i));
        if item.is_null() {
            push(out, at, format!("`{}` items cannot be null", fl.json));
        } else {
            check_value(item, fl, at, out);
        }
        at.pop();
    }
}

fn check_value<'v>(v: &'v Value, fl: &Field, at: &mut Vec<At<'v>>, out: &mut Vec<Problem>) {
    let name = fl.json;
    let bad = |what: &str| format!("`{name}` must be {what}, found {}", super::super::json_type(v));
    match fl.ty {
        Ty::Str if !v.is_string() => push(out, at, bad("a string")),
        Ty::Bool if !v.is_boolean() => push(out, at, bad("a boolean")),
        Ty::Double if !is_double(v) => push(out, at, bad("a number (or \"NaN\", \"Infinity\", \"-Infinity\")")),
        Ty::Int(lo, hi) => {
            if let Err(why) = integer(v, lo, hi) {
                push(out, at, format!("`{name}`: {why}"));
            }
        }
        Ty::HexId => match v.as_str() {
            Some(s) if s.len() % 2 == 0 && s.bytes().all(|c| c.is_ascii_hexdigit()) => {}
            Some(s) => push(out, at, format!("`{name}` must be hex digits (OTLP/JSON), found {s:?}")),
            None => push(out, at, bad("a hex string")),
        },
        Ty::Bytes => match v.as_str() {
            Some(s) if is_base64(s) => {}
            Some(_) => push(out, at, format!("`{name}` must be base64")),
            None => push(out, at, bad("a base64 string")),
        },
        Ty::Enum(names) => match v {
            Value::String(s) if names.contains(&s.as_str()) => {}
            Value::Number(_) if integer(v, i128::from(i32::MIN), i128::from(i32::MAX)).is_ok() => {}
            _ => push(out, at, format!("`{name}` must be an enum value ({} or an integer), found {v}", names.join(", "))),
        },
        Ty::Msg(m) => check_at(v, m, &[], at, out),
        _ => {}
    }
}

fn is_double(v: &Value) -> bool {
    match v {
        Value::Number(_) => true,
        Value::String(s) => matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity") || (s.trim() == s && !s.is_empty() && s.parse::<f64>().is_ok_and(f64::is_finite)),
        _ => false,
    }
}

/// An integer field as protobuf's Python JSON parser reads it: a whole
/// number, or a string of one (no spaces), in range.
fn integer(v: &Value, lo: i128, hi: i128) -> Result<(), String> {
    let n: i128 = match v {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i128::from(i),
            (_, Some(u), _) => i128::from(u),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1.8e19 => f as i128,
            _ => return Err(format!("{v} is not a whole number")),
        },
        Value::String(s) => {
            let digits = s.strip_prefix('-').unwrap_or(s);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(format!("{s:?} is not a whole number"));
            }
            if digits.len() <= 18 {
                // Fits in a u64 as it stands: no i128 parse (a span's two
                // times are such strings; wasm multiplies i128s slowly).
                let n = digits.bytes().fold(0u64, |n, c| n * 10 + u64::from(c - b'0'));
                if s.starts_with('-') { -i128::from(n) } else { i128::from(n) }
            } else {
                s.parse::<i128>().map_err(|_| format!("{s:?} is out of range"))?
            }
        }
        other => return Err(format!("expected a whole number or a string of one, found {}", super::super::json_type(other))),
    };
    if n < lo || n > hi {
        return Err(format!("{n} is out of range"));
    }
    Ok(())
}

/// Standard or URL-safe base64, padded or not.
fn is_base64(s: &str) -> bool {
    let body = s.trim_end_matches('=');
    s.len() - body.len() <= 2 && body.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_')) && body.len() % 4 != 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(v: Value, m: &'static Message) -> Vec<String> {
        let mut out = Vec::new();
        check(&v, m, &[], &mut out);
        out.into_iter().map(|p| p.message).collect()
    }

    #[test]
    fn spans() {
        let ok = json!({"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "parentSpanId": "", "name": "x",
            "kind": 3, "startTimeUnixNano": "1544712660000000000", "endTimeUnixNano": 1544712661000000000u64,
            "attributes": [{"key": "a", "value": {"intValue": "5"}}, {"key": "b", "value": {}}], "status": {"code": "STATUS_CODE_ERROR"}});
        assert!(problems(ok, &SPAN).is_empty());
        let bad = json!({"trace_id": "zz", "kind": "CLIENT", "startTimeUnixNano": "1.5", "extra": 1,
            "attributes": [{"key": "a", "value": {"intValue": 1, "stringValue": "x"}}], "droppedEventsCount": -1});
        let p = problems(bad, &SPAN);
        assert_eq!(p.len(), 6, "{p:?}");
        assert!(p.iter().any(|m| m.contains("`extra` is not a field")));
        assert!(p.iter().any(|m| m.contains("at most one value")));
    }

    /// A problem's path names the members and items it is under (made from
    /// the borrowed path only when there is a problem).
    #[test]
    fn problems_name_their_place() {
        let mut out = Vec::new();
        let span = json!({"attributes": [{"key": "a", "value": {}}, {"key": "b", "value": {"intValue": 1, "stringValue": "x"}}], "events": [{"name": 5}]});
        check(&span, &SPAN, &[], &mut out);
        let segs: Vec<Vec<Seg>> = out.into_iter().map(|p| p.segs).collect();
        assert_eq!(segs, vec![vec![Seg::key("attributes"), Seg::Index(1), Seg::key("value")], vec![Seg::key("events"), Seg::Index(0), Seg::key("name")]]);
    }

    /// Short digit strings, read without an i128 parse, say what the parse says.
    #[test]
    fn integer_strings_read_as_the_parse_reads_them() {
        for s in ["0", "-0", "5", "-5", "007", "-007", "123456789012345678", "-123456789012345678", "999999999999999999", "1544712660000000000", "-99999999999999999999", "", "-", "1.5", "+5", " 5"] {
            for (lo, hi) in [(0, i128::from(u64::MAX)), (i128::from(i64::MIN), i128::from(i64::MAX)), (-10, 10), (-5, -5)] {
                let parsed = s.parse::<i128>();
                let digits = s.strip_prefix('-').unwrap_or(s);
                let expected = match parsed {
                    Ok(n) if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) => n >= lo && n <= hi,
                    _ => false,
                };
                assert_eq!(integer(&json!(s), lo, hi).is_ok(), expected, "{s:?} in {lo}..={hi}");
            }
        }
    }
}
