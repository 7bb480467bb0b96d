//! Detection: an EvalLog (or a `.eval`'s `header.json` or
//! `_journal/start.json`) is an object with `version` and an `eval` spec
//! naming its `task` and `model`; a `.eval` sample file is an object with
//! `id`, `epoch`, `input` and `messages` or `events`.

use serde_json::Value;

use super::super::{Sample, Score};

pub fn detect(sample: &Sample) -> Option<Score> {
    let mut logs = 0usize;
    let mut samples = 0usize;
    let mut values = 0usize;
    let mut with_samples = false;
    for v in sample.records() {
        values += 1;
        let Some(o) = v.as_object() else { continue };
        if is_log(v) {
            logs += 1;
            with_samples |= o.get("samples").and_then(Value::as_array).is_some_and(|s| s.iter().all(is_sample));
        } else if is_sample(v) {
            samples += 1;
        }
    }
    if logs == 0 && samples == 0 {
        return None;
    }
    let mut evidence = Vec::new();
    if logs > 0 {
        evidence.push(format!(
            "{logs} of {values} sampled records are Inspect eval logs: `version` and an `eval` spec with `task` and `model`{}",
            if with_samples { ", and `samples` with `id`, `epoch` and `input`" } else { "" }
        ));
    }
    if samples > 0 {
        evidence.push(format!("{samples} of {values} sampled records are Inspect samples: `id`, `epoch`, `input` and `messages` or `events`"));
    }
    // `id` + `epoch` + `input` + `messages`/`events` is Inspect's own shape:
    // a sample file of a `.eval` claims the input as surely as a header.
    let confidence = 1.0;
    Some(Score { confidence, evidence })
}

/// An EvalLog, a `header.json` or a journal's `start.json`.
pub fn is_log(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    let eval = o.get("eval").and_then(Value::as_object);
    o.contains_key("version") && eval.is_some_and(|e| e.contains_key("task") && e.contains_key("model"))
}

/// An EvalSample.
pub fn is_sample(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.contains_key("id") && o.get("epoch").is_some_and(Value::is_number) && o.contains_key("input") && (o.contains_key("messages") || o.contains_key("events"))
}
