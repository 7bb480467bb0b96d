//! Checks a run against the `langsmith` package's `schemas.Run`
//! (langsmith 0.15.1, pydantic 2 lax mode). `Run.__init__` fills a missing
//! `trace_id` with the `id` and reads a null (or empty) `inputs` as `{}`;
//! unknown fields (`session_name`, …) are ignored, as the model does.

use serde_json::{Map, Value};

use crate::diagnostic::Severity::Error;
use crate::import::pydantic_lax as lax;
use crate::import::{json_type, Builder};
use crate::json::Seg;

#[derive(Clone, Copy)]
enum Ty {
    Str,
    Uuid,
    DateTime,
    Dict,
    ListDict,
    ListStr,
    ListUuid,
    Int,
    DictInt,
    Decimal,
    DictDecimal,
    Bool,
}

/// (name, type, required, nullable).
const RUN: &[(&str, Ty, bool, bool)] = &[
    ("id", Ty::Uuid, true, false),
    ("name", Ty::Str, true, false),
    ("start_time", Ty::DateTime, true, false),
    ("run_type", Ty::Str, true, false),
    ("end_time", Ty::DateTime, false, true),
    ("extra", Ty::Dict, false, true),
    ("error", Ty::Str, false, true),
    ("serialized", Ty::Dict, false, true),
    ("events", Ty::ListDict, false, true),
    ("outputs", Ty::Dict, false, true),
    ("reference_example_id", Ty::Uuid, false, true),
    ("parent_run_id", Ty::Uuid, false, true),
    ("tags", Ty::ListStr, false, true),
    ("attachments", Ty::Dict, false, false),
    ("session_id", Ty::Uuid, false, true),
    ("child_run_ids", Ty::ListUuid, false, true),
    ("feedback_stats", Ty::Dict, false, true),
    ("app_path", Ty::Str, false, true),
    ("manifest_id", Ty::Uuid, false, true),
    ("status", Ty::Str, false, true),
    ("prompt_tokens", Ty::Int, false, true),
    ("completion_tokens", Ty::Int, false, true),
    ("total_tokens", Ty::Int, false, true),
    ("prompt_token_details", Ty::DictInt, false, true),
    ("completion_token_details", Ty::DictInt, false, true),
    ("first_token_time", Ty::DateTime, false, true),
    ("total_cost", Ty::Decimal, false, true),
    ("prompt_cost", Ty::Decimal, false, true),
    ("completion_cost", Ty::Decimal, false, true),
    ("prompt_cost_details", Ty::DictDecimal, false, true),
    ("completion_cost_details", Ty::DictDecimal, false, true),
    ("parent_run_ids", Ty::ListUuid, false, true),
    ("dotted_order", Ty::Str, false, false),
    ("in_dataset", Ty::Bool, false, true),
];

/// A UUID as pydantic reads a string: 32 hex digits, hyphenated (8-4-4-4-12),
/// braced, or with a `urn:uuid:` prefix.
pub fn is_uuid(s: &str) -> bool {
    let s = s.strip_prefix("urn:uuid:").unwrap_or(s);
    let s = s.strip_prefix('{').and_then(|x| x.strip_suffix('}')).unwrap_or(s);
    match s.len() {
        32 => s.bytes().all(|b| b.is_ascii_hexdigit()),
        // Groups of 8-4-4-4-12 hex digits: hyphens at 8, 13, 18 and 23 only.
        36 => s.bytes().enumerate().all(|(i, b)| if matches!(i, 8 | 13 | 18 | 23) { b == b'-' } else { b.is_ascii_hexdigit() }),
        _ => false,
    }
}

fn uuid(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if is_uuid(s) => None,
        Value::String(s) => Some(format!("expected a UUID, found the string {s:?}")),
        other => Some(format!("expected a UUID, found {}", json_type(other))),
    }
}

fn decimal(v: &Value) -> Option<String> {
    match v {
        Value::Bool(_) => Some("expected a decimal number, found a boolean".to_string()),
        other => lax::float(other).err().map(|e| e.to_string()),
    }
}

/// Checks `v` against `ty`; `key` names it in the run, made a path only
/// for a problem (one per field checked was a tenth of a run's reading).
fn check(v: &Value, ty: Ty, key: &str, out: &mut Vec<(Vec<Seg>, String)>) {
    let item = |i: Seg| vec![Seg::key(key), i];
    let why: Option<String> = match ty {
        Ty::Str => (!v.is_string()).then(|| format!("expected a string, found {}", json_type(v))),
        Ty::Uuid => uuid(v),
        Ty::DateTime => lax::datetime(v).err().map(|e| e.message),
        Ty::Dict => (!v.is_object()).then(|| format!("expected an object, found {}", json_type(v))),
        Ty::Bool => lax::boolean(v).err().map(|e| e.to_string()),
        Ty::Int => lax::integer(v).err(),
        Ty::Decimal => decimal(v),
        Ty::ListDict | Ty::ListStr | Ty::ListUuid => match v {
            Value::Array(l) => {
                for (i, x) in l.iter().enumerate() {
                    let bad = match ty {
                        Ty::ListDict => (!x.is_object()).then(|| format!("expected an object, found {}", json_type(x))),
                        Ty::ListStr => (!x.is_string()).then(|| format!("expected a string, found {}", json_type(x))),
                        _ => uuid(x),
                    };
                    if let Some(b) = bad {
                        out.push((item(Seg::Index(i)), b));
                    }
                }
                None
            }
            other => Some(format!("expected a list, found {}", json_type(other))),
        },
        Ty::DictInt | Ty::DictDecimal => match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let bad = if matches!(ty, Ty::DictInt) { lax::integer(x).err() } else { decimal(x) };
                    if let Some(b) = bad {
                        out.push((item(Seg::key(k)), b));
                    }
                }
                None
            }
            other => Some(format!("expected an object of numbers, found {}", json_type(other))),
        },
    };
    if let Some(w) = why {
        out.push((vec![Seg::key(key)], w));
    }
}

/// The problems of one run as (path below the run, message).
pub fn run(o: &Map<String, Value>) -> Vec<(Vec<Seg>, String)> {
    let mut out = Vec::new();
    // The values the rules name, found in one pass over the run's members
    // (a SipHash lookup per rule was most of the checks' time).
    let mut found = [None; RUN.len()];
    let (mut trace_id, mut inputs) = (None, None);
    for (k, v) in o {
        match k.as_str() {
            "trace_id" => trace_id = Some(v),
            "inputs" => inputs = Some(v),
            _ => {
                if let Some(slot) = RUN.iter().position(|r| r.0 == k).and_then(|i| found.get_mut(i)) {
                    *slot = Some(v);
                }
            }
        }
    }
    for (&(key, ty, required, nullable), value) in RUN.iter().zip(found) {
        match value {
            None if required => out.push((Vec::new(), format!("`{key}` is required"))),
            None => {}
            Some(Value::Null) if nullable => {}
            Some(Value::Null) => out.push((vec![Seg::key(key)], format!("`{key}` may not be null"))),
            Some(v) => check(v, ty, key, &mut out),
        }
    }
    // `trace_id`: a missing one takes the id (Run.__init__ puts the id
    // first and the given fields over it, so a null or empty one stays).
    match trace_id {
        Some(v) => {
            if let Some(w) = uuid(v) {
                out.push((vec![Seg::key("trace_id")], w));
            }
        }
        // `id` is the first rule.
        None if found.first().copied().flatten().is_none() => out.push((Vec::new(), "`trace_id` is required (and there is no `id` to take its place)".to_string())),
        None => {}
    }
    // `inputs`: a falsy value reads as {}; anything else must be an object.
    match inputs {
        None | Some(Value::Null) | Some(Value::Object(_)) => {}
        Some(Value::Bool(false)) => {}
        Some(Value::String(s)) if s.is_empty() => {}
        Some(Value::Array(l)) if l.is_empty() => {}
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => {}
        Some(other) => out.push((vec![Seg::key("inputs")], format!("expected an object, found {}", json_type(other)))),
    }
    out
}

pub fn report(out: &mut Builder, range: &std::ops::Range<usize>, path: &str, problems: Vec<(Vec<Seg>, String)>, event: Option<u32>) {
    for (segs, why) in problems {
        out.diag_in(Error, "langsmith-invalid", why, range, path, &segs, event);
    }
}
