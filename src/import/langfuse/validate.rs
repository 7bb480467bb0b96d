//! Checks traces, observations and scores against the `langfuse` package's
//! own API models (langfuse 4.18.0, pydantic 2 lax mode): `Trace`,
//! `TraceWithFullDetails` (`htmlPath`, `observations`, `scores`),
//! `ObservationsView` and its deprecated `Usage`, and the `ScoreV1` union
//! (by `dataType`). The UI's export differs from the API in two places,
//! which are read, not reported: `metadata` as a JSON string, and no
//! `usage` object on observations (docs/formats/langfuse.md).

use crate::import::chat::Field;
use serde_json::{Map, Value};

use crate::diagnostic::Severity::Error;
use crate::import::pydantic_lax as lax;
use crate::import::{json_type, Builder};
use crate::json::read::Kind;
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
            Value::Object(m) => check_rules(m, USAGE, &segs(), out, 0),
            other => bad(format!("expected a usage object (`input`, `output`, `total`), found {}", json_type(other))),
        },
        _ => {}
    }
}

/// The values of `o` that `rules` name, by rule, found in one pass over its
/// members (a SipHash lookup per rule was most of the checks' time).
fn by_rule<'v>(o: &'v Map<String, Value>, rules: &[Rule], found: &mut [Option<&'v Value>]) {
    for (k, v) in o {
        if let Some(slot) = rules.iter().position(|r| r.0 == k).and_then(|i| found.get_mut(i)) {
            *slot = Some(v);
        }
    }
}

/// At most this many rules are looked up in one pass (more: one lookup each).
const MAX_RULES: usize = 40;

/// The index of `key` among an observation's rules.
pub fn observation_rule(key: &[u8]) -> Option<usize> {
    OBSERVATION.iter().position(|r| r.0.as_bytes() == key)
}

/// True when a member of `kind` passes an observation's rule `i` whatever
/// its value: any value where any is allowed, a string where a string is
/// wanted, an object where an object is, null where the field is optional
/// (the reader need not build such a member for the rules).
pub fn passes_by_kind(i: usize, kind: Kind) -> bool {
    let Some(&(_, ty, required)) = OBSERVATION.get(i) else { return false };
    match (ty, kind) {
        (Ty::Any, _) => true,
        (_, Kind::Null) => !required,
        (Ty::Str, Kind::String) | (Ty::Dict, Kind::Object) => true,
        _ => false,
    }
}

/// Checks `o` against `rules`, but for those `passed` (bits by index) says
/// a member not in `o` passed.
fn check_rules(o: &Map<String, Value>, rules: &[Rule], prefix: &[Seg], out: &mut Vec<Problem>, passed: u64) {
    let mut found = [None; MAX_RULES];
    let one_pass = rules.len() <= MAX_RULES;
    if one_pass {
        by_rule(o, rules, &mut found);
    }
    for (i, &(key, ty, required)) in rules.iter().enumerate() {
        if u32::try_from(i).ok().and_then(|i| passed.checked_shr(i)).is_some_and(|p| p & 1 == 1) {
            continue;
        }
        let segs = || {
            let mut segs = prefix.to_vec();
            segs.push(Seg::key(key));
            segs
        };
        let value = if one_pass { found.get(i).copied().flatten() } else { o.field(key) };
        match value {
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
    if let Some(Value::String(s)) = o.field("metadata").filter(|_| !full) {
        if let Some(m) = metadata_object(&Value::String(s.clone())) {
            o.insert("metadata".to_string(), Value::Object(m));
        }
    }
    check_rules(&o, TRACE, &[], &mut problems, 0);
    if full {
        check_rules(&o, FULL_TRACE, &[], &mut problems, 0);
    }
    report(out, at, problems);
}

/// An observation. `export` for the UI export, which has no `usage` object.
/// `passed`: the rules (bits by [`observation_rule`]) its members not in `o`
/// passed ([`passes_by_kind`]).
pub fn observation(out: &mut Builder, at: &At, o: &Map<String, Value>, export: bool, passed: u64) {
    let mut problems = Vec::new();
    let mut passed = passed;
    if export && !o.has_field("usage") {
        // Not cloned to add the missing `usage`: an observation holds the
        // whole conversation so far, and no other rule reads it.
        let usage = observation_rule(b"usage").and_then(|i| u32::try_from(i).ok()).and_then(|i| 1u64.checked_shl(i));
        passed |= usage.unwrap_or(0);
    }
    check_rules(o, OBSERVATION, &[], &mut problems, passed);
    report(out, at, problems);
}

/// A score of a trace with full details: `ScoreV1`, chosen by `dataType`.
pub fn score(out: &mut Builder, at: &At, o: &Map<String, Value>) {
    let mut problems = Vec::new();
    check_rules(o, SCORE, &[], &mut problems, 0);
    let kind = o.field("dataType").and_then(Value::as_str);
    let more: &[Rule] = match kind {
        Some("NUMERIC") => &[("value", Ty::Float, true)],
        Some("CATEGORICAL") | Some("BOOLEAN") => &[("value", Ty::Float, true), ("stringValue", Ty::Str, true)],
        Some("TEXT") => &[("stringValue", Ty::Str, true)],
        _ => {
            problems.push((vec![Seg::key("dataType")], "expected a score `dataType` (NUMERIC, CATEGORICAL, BOOLEAN or TEXT)".to_string()));
            &[]
        }
    };
    check_rules(o, more, &[], &mut problems, 0);
    report(out, at, problems);
}
