//! Checks traces, observations and scores against the `langfuse` package's
//! own API models (langfuse 4.18.0, pydantic 2 lax mode): `Trace`,
//! `TraceWithFullDetails` (`htmlPath`, `observations`, `scores`),
//! `ObservationsView` and its deprecated `Usage`, and the `ScoreV1` union
//! (by `dataType`). The UI's export differs from the API in two places,
//! which are read, not reported: `metadata` as a JSON string, and no
//! `usage` object on observations (docs/formats/langfuse.md).

use serde_json::{Map, Value};

use crate::diagnostic::Severity::Error;
use crate::import::pydantic_lax as lax;
use crate::import::{json_type, Builder};
use crate::json::Seg;

#[derive(Clone, Copy)]
enum Ty {
    Str,
    DateTime,
    /// Any value, but the key must be there.
    Any,
    Bool,
    Float,
    Int,
    Dict,
    DictInt,
    DictFloat,
    ListStr,
    Level,
    ScoreSource,
    Usage,
}

/// (JSON name, type, required: a missing or null value is an error).
type Rule = (&'static str, Ty, bool);

const TRACE: &[Rule] = &[
    ("id", Ty::Str, true),
    ("timestamp", Ty::DateTime, true),
    ("name", Ty::Str, false),
    ("sessionId", Ty::Str, false),
    ("release", Ty::Str, false),
    ("version", Ty::Str, false),
    ("userId", Ty::Str, false),
    ("metadata", Ty::Dict, false),
    ("tags", Ty::ListStr, true),
    ("public", Ty::Bool, true),
    ("environment", Ty::Str, true),
];

/// `TraceWithFullDetails` beyond `Trace` (its lists are read by the reader).
const FULL_TRACE: &[Rule] = &[("htmlPath", Ty::Str, true), ("latency", Ty::Float, false), ("totalCost", Ty::Float, false)];

const OBSERVATION: &[Rule] = &[
    ("id", Ty::Str, true),
    ("traceId", Ty::Str, false),
    ("type", Ty::Str, true),
    ("name", Ty::Str, false),
    ("startTime", Ty::DateTime, true),
    ("endTime", Ty::DateTime, false),
    ("completionStartTime", Ty::DateTime, false),
    ("model", Ty::Str, false),
    ("modelParameters", Ty::Any, true),
    ("input", Ty::Any, true),
    ("version", Ty::Str, false),
    ("metadata", Ty::Dict, false),
    ("output", Ty::Any, true),
    ("usage", Ty::Usage, true),
    ("level", Ty::Level, true),
    ("statusMessage", Ty::Str, false),
    ("parentObservationId", Ty::Str, false),
    ("promptId", Ty::Str, false),
    ("usageDetails", Ty::DictInt, true),
    ("costDetails", Ty::DictFloat, true),
    ("environment", Ty::Str, true),
    ("promptName", Ty::Str, false),
    ("promptVersion", Ty::Int, false),
    ("modelId", Ty::Str, false),
    ("inputPrice", Ty::Float, false),
    ("outputPrice", Ty::Float, false),
    ("totalPrice", Ty::Float, false),
    ("calculatedInputCost", Ty::Float, false),
    ("calculatedOutputCost", Ty::Float, false),
    ("calculatedTotalCost", Ty::Float, false),
    ("latency", Ty::Float, false),
    ("timeToFirstToken", Ty::Float, false),
];

const USAGE: &[Rule] = &[
    ("input", Ty::Int, true),
    ("output", Ty::Int, true),
    ("total", Ty::Int, true),
    ("unit", Ty::Str, false),
    ("inputCost", Ty::Float, false),
    ("outputCost", Ty::Float, false),
    ("totalCost", Ty::Float, false),
];

const SCORE: &[Rule] = &[
    ("id", Ty::Str, true),
    ("traceId", Ty::Str, true),
    ("name", Ty::Str, true),
    ("source", Ty::ScoreSource, true),
    ("observationId", Ty::Str, false),
    ("timestamp", Ty::DateTime, true),
    ("createdAt", Ty::DateTime, true),
    ("updatedAt", Ty::DateTime, true),
    ("authorUserId", Ty::Str, false),
    ("comment", Ty::Str, false),
    ("metadata", Ty::Dict, false),
    ("configId", Ty::Str, false),
    ("queueId", Ty::Str, false),
    ("environment", Ty::Str, true),
];

/// Where the object is and how its problems are reported.
pub struct At<'p> {
    pub range: &'p std::ops::Range<usize>,
    pub path: &'p str,
    pub event: Option<u32>,
}

/// A problem: the JSON path below the object, and what was expected.
type Problem = (Vec<Seg>, String);

/// `metadata` as the UI export writes it (a JSON string), read as the object it holds.
pub fn metadata_object(v: &Value) -> Option<Map<String, Value>> {
    match v {
        Value::Object(m) => Some(m.clone()),
        Value::String(s) => match crate::json::build::from_str(s) {
            Ok(Value::Object(m)) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

/// Checks `v` against `ty`; `segs` makes its path, only for a problem (a
/// path per rule checked was most of a trace's validation).
fn check_value(v: &Value, ty: Ty, segs: &dyn Fn() -> Vec<Seg>, out: &mut Vec<Problem>) {
    let mut bad = |why: String| out.push((segs(), why));
    match ty {
        Ty::Any => {}
        Ty::Str if !v.is_string() => bad(format!("expected a string, found {}", json_type(v))),
        Ty::DateTime => {
            if let Err(e) = lax::datetime(v) {
                bad(e.message);
            }
        }
        Ty::Bool => {
            if let Err(e) = lax::boolean(v) {
                bad(e.to_string());
            }
        }
        Ty::Float => {
            if let Err(e) = lax::float(v) {
                bad(e.to_string());
            }
        }
        Ty::Int => {
            if let Err(e) = lax::integer(v) {
                bad(e);
            }
        }
        Ty::Dict if !v.is_object() => bad(format!("expected an object, found {}", json_type(v))),
        Ty::DictInt | Ty::DictFloat => match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let why = match ty {
                        Ty::DictInt => lax::integer(x).err(),
                        _ => lax::float(x).err().map(|e| e.to_string()),
                    };
                    if let Some(why) = why {
                        let mut at = segs();
                        at.push(Seg::key(k));
                        out.push((at, why));
                    }
                }
            }
            other => bad(format!("expected an object of numbers, found {}", json_type(other))),
        },
        Ty::ListStr => match v {
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    if !x.is_string() {
                        let mut at = segs();
                        at.push(Seg::Index(i));
                        out.push((at, format!("expected a string, found {}", json_type(x))));
                    }
                }
            }
            other => bad(format!("expected a list of strings, found {}", json_type(other))),
        },
        Ty::Level if !matches!(v.as_str(), Some("DEBUG" | "DEFAULT" | "WARNING" | "ERROR")) => bad(format!("expected a level (DEBUG, DEFAULT, WARNING or ERROR), found {v}")),
        Ty::ScoreSource if !matches!(v.as_str(), Some("ANNOTATION" | "API" | "EVAL")) => bad(format!("expected a score source (ANNOTATION, API or EVAL), found {v}")),
        Ty::Usage => match v {
            Value::Object(m) => check_rules(m, USAGE, &segs(), out),
            other => bad(format!("expected a usage object (`input`, `output`, `total`), found {}", json_type(other))),
        },
        _ => {}
    }
}

fn check_rules(o: &Map<String, Value>, rules: &[Rule], prefix: &[Seg], out: &mut Vec<Problem>) {
    for &(key, ty, required) in rules {
        let segs = || {
            let mut segs = prefix.to_vec();
            segs.push(Seg::key(key));
            segs
        };
        match o.get(key) {
            None if required => out.push((prefix.to_vec(), format!("`{key}` is required"))),
            None => {}
            Some(Value::Null) if required && !matches!(ty, Ty::Any) => out.push((segs(), format!("`{key}` is required (found null)"))),
            Some(Value::Null) => {}
            Some(v) => check_value(v, ty, &segs, out),
        }
    }
}

fn report(out: &mut Builder, at: &At, problems: Vec<Problem>) {
    for (segs, why) in problems {
        out.diag_in(Error, "langfuse-invalid", why, at.range, at.path, &segs, at.event);
    }
}

/// A trace object; `full` for the API's trace with full details, else the
/// UI export, whose `metadata` string is read as the object it holds.
pub fn trace(out: &mut Builder, at: &At, o: &Map<String, Value>, full: bool) {
    let mut problems = Vec::new();
    let mut o = o.clone();
    if let Some(Value::String(s)) = o.get("metadata").filter(|_| !full) {
        if let Some(m) = metadata_object(&Value::String(s.clone())) {
            o.insert("metadata".to_string(), Value::Object(m));
        }
    }
    check_rules(&o, TRACE, &[], &mut problems);
    if full {
        check_rules(&o, FULL_TRACE, &[], &mut problems);
    }
    report(out, at, problems);
}

/// An observation. `export` for the UI export, which has no `usage` object.
pub fn observation(out: &mut Builder, at: &At, o: &Map<String, Value>, export: bool) {
    let mut problems = Vec::new();
    if export && !o.contains_key("usage") {
        // Not cloned to add the missing `usage`: an observation holds the
        // whole conversation so far, and no other rule reads it.
        let rules: Vec<Rule> = OBSERVATION.iter().copied().filter(|r| r.0 != "usage").collect();
        check_rules(o, &rules, &[], &mut problems);
    } else {
        check_rules(o, OBSERVATION, &[], &mut problems);
    }
    report(out, at, problems);
}

/// A score of a trace with full details: `ScoreV1`, chosen by `dataType`.
pub fn score(out: &mut Builder, at: &At, o: &Map<String, Value>) {
    let mut problems = Vec::new();
    check_rules(o, SCORE, &[], &mut problems);
    let kind = o.get("dataType").and_then(Value::as_str);
    let more: &[Rule] = match kind {
        Some("NUMERIC") => &[("value", Ty::Float, true)],
        Some("CATEGORICAL") | Some("BOOLEAN") => &[("value", Ty::Float, true), ("stringValue", Ty::Str, true)],
        Some("TEXT") => &[("stringValue", Ty::Str, true)],
        _ => {
            problems.push((vec![Seg::key("dataType")], "expected a score `dataType` (NUMERIC, CATEGORICAL, BOOLEAN or TEXT)".to_string()));
            &[]
        }
    };
    check_rules(o, more, &[], &mut problems);
    report(out, at, problems);
}
