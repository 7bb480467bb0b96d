//! Condensed model events: inspect_ai (0.3.285 writes them so by default)
//! stores a sample's model inputs once, in `events_data.messages`, and each
//! model event's `input` as `input_refs`, `[start, end)` ranges into that
//! pool; its `call.request` messages likewise as `call.call_refs` into
//! `events_data.calls` (under `call.call_key`, else `messages`).
//! `read_eval_log` always expands them (`inspect_ai/log/_resolve.py`,
//! `event/_pool.py`: `resolve_model_event_inputs` / `_calls`): a range is a
//! Python slice of the pool, so one reaching past the end yields what it
//! covers; an empty pool leaves the event as written.
//!
//! We expand the same way into the model event's metadata (`input`, the
//! call's messages back in `call.request`), the raw JSON keeping the refs,
//! and say where a range leaves its pool. Expansion copies each message once
//! per call that sent it (the size condensing saved), so a sample expands at
//! most [`MAX_EXPANDED`] pool entries; past that the refs stay as written and
//! an info diagnostic says so.

use std::cell::Cell;
use std::ops::Range;

use serde_json::{Map, Value};

use super::messages::resolve;
use crate::diagnostic::Severity;
use crate::import::Builder;
use crate::json::Seg;
use crate::model::Metadata;

/// Pool entries one sample may expand (all its model events together).
pub const MAX_EXPANDED: usize = 200_000;

/// A sample's `events_data` pools.
#[derive(Default)]
pub(super) struct Pool {
    messages: Vec<Value>,
    calls: Vec<Value>,
    /// Entries expanded so far in this sample.
    spent: Cell<usize>,
    /// The budget ran out (said once).
    stopped: Cell<bool>,
}

impl Pool {
    /// The pools of a sample's metadata (`events_data`), if it has any.
    pub fn of(metadata: &Metadata) -> Option<Pool> {
        let data = metadata.get("events_data")?.as_object()?;
        let list = |k: &str| data.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
        Some(Pool { messages: list("messages"), calls: list("calls"), ..Pool::default() })
    }
}

/// What expanding one model event gave: its input and its call, as inspect_ai
/// resolves them (`None`: the event is left as written).
pub(super) struct Expanded {
    pub input: Option<Value>,
    pub call: Option<Value>,
}

/// Expands the event at `record` (`event` its index, `path` its JSON path),
/// whose `input_refs` and `call` are given.
pub(super) fn expand(out: &mut Builder, pool: &Pool, at: (&Range<usize>, &str, u32), input_refs: Option<&Value>, call: Option<Value>, attachments: &Map<String, Value>) -> Expanded {
    let mut done = Expanded { input: None, call: None };
    if let (Some(refs), false) = (input_refs.filter(|r| !r.is_null()), pool.messages.is_empty()) {
        let mut segs = vec![Seg::key("input_refs")];
        if let Some(mut items) = slices(out, pool, at, refs, &pool.messages, &mut segs, "events_data.messages") {
            for m in &mut items {
                resolve(m, attachments);
            }
            done.input = Some(Value::Array(items));
        }
    }
    let Some(Value::Object(mut call)) = call else { return done };
    let refs = call.get("call_refs").filter(|r| r.as_array().is_some_and(|a| !a.is_empty())).cloned();
    if let (Some(refs), false) = (refs, pool.calls.is_empty()) {
        let mut segs = vec![Seg::key("call"), Seg::key("call_refs")];
        if let Some(mut items) = slices(out, pool, at, &refs, &pool.calls, &mut segs, "events_data.calls") {
            for m in &mut items {
                resolve(m, attachments);
            }
            let key = call.get("call_key").and_then(Value::as_str).unwrap_or("messages").to_string();
            if let Some(Value::Object(request)) = call.get_mut("request") {
                request.insert(key, Value::Array(items));
            }
            call.remove("call_refs");
            call.remove("call_key");
            done.call = Some(Value::Object(call));
        }
    }
    done
}

/// The pool entries `refs` names, in order; `None` when they cannot be
/// read (a diagnostic says why) or the sample's budget is spent.
fn slices(out: &mut Builder, pool: &Pool, at: (&Range<usize>, &str, u32), refs: &Value, entries: &[Value], segs: &mut Vec<Seg>, pool_name: &str) -> Option<Vec<Value>> {
    let (record, path, event) = at;
    let Some(list) = refs.as_array() else {
        out.diag_in(Severity::Error, "invalid-pool-ref", format!("pool refs are a list of [start, end] pairs into the sample's {pool_name}; `read_eval_log` refuses this"), record, path, segs, Some(event));
        return None;
    };
    let n = entries.len() as i64;
    let mut ranges = Vec::with_capacity(list.len());
    for (k, r) in list.iter().enumerate() {
        segs.push(Seg::Index(k));
        let pair = r.as_array().and_then(|p| match p.as_slice() {
            [a, b] => Some((a.as_i64()?, b.as_i64()?)),
            _ => None,
        });
        let Some((start, end)) = pair else {
            out.diag_in(Severity::Error, "invalid-pool-ref", format!("a pool ref is a pair of integers [start, end) into the sample's {pool_name}, not {r}; `read_eval_log` refuses this"), record, path, segs, Some(event));
            return None;
        };
        if start < 0 || end > n || start > end {
            let message = format!("pool ref [{start}, {end}) leaves the sample's {pool_name} ({n} entries): inspect_ai's expansion keeps only what the range covers (a Python slice)");
            out.diag_in(Severity::Warning, "pool-ref-out-of-range", message, record, path, segs, Some(event));
        }
        segs.pop();
        // Python's slice of a list: negative ends count from the end, both clamp to it.
        let clamp = |x: i64| if x < 0 { (x + n).max(0) } else { x.min(n) };
        let (s, e) = (clamp(start) as usize, clamp(end) as usize);
        ranges.push(s..e.max(s));
    }
    let count: usize = ranges.iter().map(ExactSizeIterator::len).sum();
    let spent = pool.spent.get().saturating_add(count);
    if spent > MAX_EXPANDED {
        if !pool.stopped.replace(true) {
            let message = format!("this sample's condensed model events reference more than {MAX_EXPANDED} pool entries in all: from here on their inputs are not expanded (the refs stay in the raw JSON and the event's metadata)");
            out.diag_in(Severity::Info, "condensed-not-expanded", message, record, path, segs, Some(event));
        }
        return None;
    }
    pool.spent.set(spent);
    Some(ranges.into_iter().flat_map(|r| entries.get(r).unwrap_or_default().iter().cloned()).collect())
}
