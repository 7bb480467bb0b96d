//! One sample × epoch: a run. Its members other than `messages` and
//! `events` are the run's metadata; `messages` and `events` its two
//! transcripts; its `error`, its `limit` and each model of its
//! `model_usage` an event at the end (failed for the first two; the usage
//! ones carry the usage the run's totals add up).

use std::ops::Range;

use serde_json::{Map, Value};

use super::super::{json_type, Builder};
use super::log::{SampleAt, TaskModel};
use super::fast::Ctx;
use super::{events, messages};
use crate::diagnostic::Severity::Error;
use crate::json::{scan, ContainerEnds, Seg};
use crate::model::{EventBody, KeyValue, Marker, Metadata, Usage};

/// Members read into transcripts rather than metadata.
const TRANSCRIPT_KEYS: &[&str] = &["messages", "events", "transcript"];

pub(super) fn read(out: &mut Builder, s: &SampleAt, ends: &ContainerEnds, hazards: &[usize], tm: &TaskModel) {
    let mut metadata = Metadata::new();
    for (key, r) in &s.members {
        if TRANSCRIPT_KEYS.contains(&key.as_str()) {
            continue;
        }
        let path = format!("{}.{key}", s.path);
        match out.parse_record(r, &path) {
            Ok(v) => drop(metadata.insert(key.clone(), v)),
            Err(_) => drop(out.push_event(EventBody::Unparsed("a value that could not be read".to_string()), "unparsed", r.clone(), path, None)),
        }
    }
    check_required(out, s, &metadata);
    let run_id = run_id(metadata.get("id"), metadata.get("epoch"), out.runs().len());
    let attachments: Map<String, Value> = match metadata.get("attachments") {
        Some(Value::Object(a)) => a.clone(),
        _ => Map::new(),
    };
    for (k, v) in [("task", &tm.task), ("model", &tm.model)] {
        if let Some(v) = v {
            if !metadata.contains_key(k) {
                metadata.insert(k.to_string(), v.clone());
            }
        }
    }
    let pool = super::pool::Pool::of(&metadata);
    out.begin_run(run_id, metadata, Some(s.range.start));
    let ctx = Ctx { ends, hazards, attachments: &attachments, pool: pool.as_ref() };
    let member = |k: &str| s.members.iter().find(|(key, _)| key == k).map(|(_, r)| r.clone());
    // The assistant messages read in place, which model events retell.
    let mut said = super::retold::Said::default();
    if let Some(r) = member("messages") {
        out.begin_transcript("messages".to_string(), Metadata::new());
        if let Some(items) = list(out, r, &format!("{}.messages", s.path), ends) {
            messages::read(out, &items, &format!("{}.messages", s.path), &ctx, &mut said);
        }
    }
    let events_at = match (member("events"), member("transcript")) {
        (Some(r), _) => {
            out.begin_transcript("events".to_string(), Metadata::new());
            // The event log retells the messages' calls: counted once, there.
            out.mark_retelling();
            Some((r, format!("{}.events", s.path)))
        }
        // Older logs: `transcript: {events, content}`.
        (None, Some(r)) => {
            out.begin_transcript("events".to_string(), Metadata::new());
            // The event log retells the messages' calls: counted once, there.
            out.mark_retelling();
            transcript_events(out, r, ends, &s.path).map(|r| (r, format!("{}.transcript.events", s.path)))
        }
        (None, None) => None,
    };
    if let Some((r, path)) = events_at {
        if let Some(items) = list(out, r, &path, ends) {
            events::read(out, &items, &path, &ctx, &mut said);
        }
    }
    let has_events = out.runs().last().is_some_and(|r| r.transcripts.iter().any(|t| t.key == "events"));
    outcome_events(out, s, has_events);
}

/// A run's id: `<id>_epoch_<epoch>` (`sample-<n>` for an id that is no
/// string or number).
pub(super) fn run_id(id: Option<&Value>, epoch: Option<&Value>, n: usize) -> String {
    let id = match id {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => format!("sample-{n}"),
    };
    let epoch = epoch.map(|e| e.to_string()).unwrap_or_default();
    format!("{id}_epoch_{epoch}")
}

/// A sample left unread in a lazy opening, from its `EvalSampleSummary`:
/// a run with the summary's members as metadata (plus the eval's task and
/// model), its error, limit and model usage as outcome events (what the
/// runs table reads), and `pending_body` naming the member to read.
pub(super) fn read_summary(out: &mut Builder, s: &SampleAt, tm: &TaskModel, kept: Option<super::log::Kept>) {
    // The summary as the trace's metadata keeps it (parsed once: 10,000 of them open a big log),
    // member by member only when it is not there.
    let parsed = kept.and_then(|(list, i)| out.metadata().get(list)?.get(i)?.as_object().cloned());
    let mut metadata = parsed.unwrap_or_default();
    for (key, r) in &s.members {
        if metadata.contains_key(key) {
            continue;
        }
        let path = format!("{}.{key}", s.path);
        match out.parse_record(r, &path) {
            Ok(v) => drop(metadata.insert(key.clone(), v)),
            Err(_) => drop(out.push_event(EventBody::Unparsed("a value that could not be read".to_string()), "unparsed", r.clone(), path, None)),
        }
    }
    let id = run_id(metadata.get("id"), metadata.get("epoch"), out.runs().len());
    for (k, v) in [("task", &tm.task), ("model", &tm.model)] {
        if let Some(v) = v {
            if !metadata.contains_key(k) {
                metadata.insert(k.to_string(), v.clone());
            }
        }
    }
    out.begin_run(id.clone(), metadata, Some(s.range.start));
    if let Some(run) = out.last_run_mut() {
        run.pending_body = Some(format!("samples/{id}.json"));
    }
    outcome_events(out, s, false);
}

/// The events of an old-style `transcript` object, which otherwise stays
/// an unparsed event of its own (its raw JSON kept).
fn transcript_events(out: &mut Builder, r: Range<usize>, ends: &ContainerEnds, sample_path: &str) -> Option<Range<usize>> {
    let b = out.bytes();
    let at = scan::skip_ws(b, r.start);
    let members = scan::object_members_in(b, at, ends).ok()?;
    let events = members.iter().find(|(k, _)| k == "events").map(|(_, r)| r.clone());
    for (k, kr) in &members {
        if k != "events" {
            let path = format!("{sample_path}.transcript.{k}");
            match out.parse_record(kr, &path) {
                Ok(v) => drop(out.push_event(EventBody::KeyValue(KeyValue { key: format!("transcript.{k}"), value: v.into() }), "transcript", kr.clone(), path, None)),
                Err(_) => drop(out.push_event(EventBody::Unparsed("a value that could not be read".to_string()), "unparsed", kr.clone(), path, None)),
            }
        }
    }
    events
}

/// The items of the list at `r`; a diagnostic when it is no list (null is
/// an empty list, as pydantic's default would be).
fn list(out: &mut Builder, r: Range<usize>, path: &str, ends: &ContainerEnds) -> Option<Vec<Range<usize>>> {
    let b = out.bytes();
    let at = scan::skip_ws(b, r.start);
    match b.get(at) {
        Some(b'[') => {
            // The items' ends from the split's table, short ones by brackets
            // (not scanned again in full); should that fail, the scanner's.
            let mut items = Vec::new();
            match crate::json::read::items(b, at, ends, &mut items) {
                Some(_) => Some(items),
                None => Some(scan::array_items_in(b, at, ends).0),
            }
        }
        Some(b'n') => None,
        _ => {
            let v = out.parse_record(&r, path).unwrap_or(Value::Null);
            out.diag(Error, "not-a-list", format!("expected a list; found {}", json_type(&v)), path.to_string(), at, Some(out.next_event()));
            out.push_event(EventBody::Unparsed("not a list".to_string()), "unparsed", r, path.to_string(), None);
            None
        }
    }
}

/// What `read_eval_log` requires of a sample (`EvalSample`: `id` a string
/// or an integer, `epoch` an integer, `input` and `target` present).
fn check_required(out: &mut Builder, s: &SampleAt, m: &Metadata) {
    let problems: [(&str, bool, &str); 4] = [
        ("id", matches!(m.get("id"), Some(Value::String(_))) || m.get("id").is_some_and(|v| v.is_i64() || v.is_u64()), "a string or an integer"),
        ("epoch", m.get("epoch").is_some_and(|v| v.is_i64() || v.is_u64()), "an integer"),
        ("input", matches!(m.get("input"), Some(Value::String(_) | Value::Array(_))), "a string or a list of messages"),
        ("target", matches!(m.get("target"), Some(Value::String(_) | Value::Array(_))), "a string or a list of strings"),
    ];
    for (key, ok, what) in problems {
        if ok {
            continue;
        }
        let message = match m.get(key) {
            None => format!("a sample needs `{key}` ({what}): `read_eval_log` refuses the log"),
            Some(v) => format!("a sample's `{key}` must be {what}; found {}: `read_eval_log` refuses the log", json_type(v)),
        };
        let at = out.locate(s.range.start, &[Seg::Key(key.to_string())]);
        out.diag(Error, "invalid-sample", message, format!("{}.{key}", s.path), at, None);
    }
}

/// The sample's `error` and `limit` (failed events) and its `model_usage`
/// (one event per model, holding its usage: what `trace.usage(run)` adds).
fn outcome_events(out: &mut Builder, s: &SampleAt, has_events: bool) {
    let member = |k: &str| s.members.iter().find(|(key, _)| key == k).map(|(_, r)| r.clone());
    let present = |k: &str| member(k).is_some_and(|r| out.bytes().get(scan::skip_ws(out.bytes(), r.start)) != Some(&b'n'));
    if !has_events && (present("error") || present("limit") || present("model_usage")) {
        // They are the sample's timeline, not its chat: never among the messages.
        out.begin_transcript("events".to_string(), Metadata::new());
    }
    let b = out.bytes();
    let get = |r: &Range<usize>| crate::json::build::from_slice(b.get(r.clone()).unwrap_or(&[])).ok();
    if let Some(r) = member("error") {
        if let Some(v) = get(&r).filter(|v| !v.is_null()) {
            // An `EvalError` (a sample's) or its message alone (a summary's).
            let message = v.get("message").and_then(Value::as_str).or(v.as_str()).map(str::to_string).unwrap_or_else(|| v.to_string());
            let i = out.push_event(EventBody::Marker(Marker { label: format!("sample error: {message}") }), "sample.error", r, format!("{}.error", s.path), None);
            if let Some(e) = out.event_mut(i) {
                e.failed = true;
            }
        }
    }
    if let Some(r) = member("limit") {
        if let Some(v) = get(&r).filter(|v| !v.is_null()) {
            let kind = v.get("type").and_then(Value::as_str).unwrap_or("limit");
            let limit = v.get("limit").map(|l| format!(" ({l})")).unwrap_or_default();
            let i = out.push_event(EventBody::Marker(Marker { label: format!("{kind} limit reached{limit}") }), "sample.limit", r, format!("{}.limit", s.path), None);
            if let Some(e) = out.event_mut(i) {
                e.failed = true;
            }
        }
    }
    let Some(r) = member("model_usage") else { return };
    let at = scan::skip_ws(b, r.start);
    let Ok(models) = scan::object_members(b, at) else { return };
    for (model, mr) in models {
        let Some(v) = get(&mr) else { continue };
        let (usage, cost) = (usage_of(&v), cost_of(&v));
        let path = crate::json::render_path(&s.path, &[Seg::key("model_usage"), Seg::key(&model)]);
        let i = out.push_event(EventBody::KeyValue(KeyValue { key: format!("model_usage: {model}"), value: v.into() }), "sample.model_usage", mr, path, None);
        if let Some(e) = out.event_mut(i) {
            let facts = e.facts_mut();
            facts.usage = Some(usage);
            facts.cost = cost;
            facts.model = Some(model);
        }
    }
}

/// `ModelUsage.total_cost` ("Total cost in dollars for this usage",
/// inspect_ai 0.3.285; None when Inspect had no price for the model).
pub(super) fn cost_of(v: &Value) -> Option<crate::model::Cost> {
    crate::import::facts::amount(v.get("total_cost")).map(|total| crate::model::Cost { total, input: None, output: None })
}

/// Inspect's `ModelUsage` as the shared model's usage: `input_tokens`,
/// `output_tokens`, `input_tokens_cache_read`, `input_tokens_cache_write`,
/// `reasoning_tokens`, `total_tokens` (else the sum of input and output).
pub(super) fn usage_of(v: &Value) -> Usage {
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let mut u = Usage {
        input_tokens: n("input_tokens"),
        output_tokens: n("output_tokens"),
        cache_read_input_tokens: n("input_tokens_cache_read"),
        cache_creation_input_tokens: n("input_tokens_cache_write"),
        reasoning_output_tokens: n("reasoning_tokens"),
        total_tokens: n("total_tokens"),
    };
    if v.get("total_tokens").is_none() {
        u.total_tokens = u.input_tokens.saturating_add(u.output_tokens);
    }
    u
}
