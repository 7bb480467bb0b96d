//! Detection: a `.traj` object is told apart by its `history` items (chat
//! messages with SWE-agent's own fields `agent`, `message_type`, `is_demo`,
//! `thought`/`action`) and its `trajectory` steps (`action` with
//! `observation`, and `response` or `thought`).

use serde_json::{Map, Value};

use super::super::{Sample, Score};

/// Fields of a `HistoryItem` that plain chat messages do not have.
const HISTORY_MARKS: &[&str] = &["agent", "message_type", "is_demo", "thought", "action", "tool_call_ids"];

pub fn detect(sample: &Sample) -> Option<Score> {
    let mut files = 0usize;
    let mut matched = 0usize;
    let mut history = 0usize;
    let mut marked = 0usize;
    let mut steps = 0usize;
    let mut step_items = 0usize;
    let mut info = false;
    let mut extra: Vec<&str> = Vec::new();
    for v in &sample.values {
        let Some(o) = v.as_object() else { continue };
        if !o.contains_key("history") && !o.contains_key("trajectory") {
            continue;
        }
        files += 1;
        let h = o.get("history").and_then(Value::as_array);
        let t = o.get("trajectory").and_then(Value::as_array);
        let (hn, hm) = h.map(|items| (items.len(), items.iter().filter(|i| is_history_item(i)).count())).unwrap_or((0, 0));
        let (tn, tm) = t.map(|items| (items.len(), items.iter().filter(|i| is_step(i)).count())).unwrap_or((0, 0));
        history += hn;
        marked += hm;
        step_items += tn;
        steps += tm;
        info |= o.get("info").and_then(Value::as_object).is_some_and(is_info);
        for k in ["environment", "replay_config"] {
            if o.contains_key(k) && !extra.contains(&k) {
                extra.push(k);
            }
        }
        if hm > 0 || tm > 0 {
            matched += 1;
        }
    }
    if matched == 0 {
        return None;
    }
    let mut evidence = Vec::new();
    if marked > 0 {
        evidence.push(format!(
            "{marked} of {history} sampled `history` items are SWE-agent messages: `role` and `content` with SWE-agent's `agent`/`message_type`/`thought`/`action`/`tool_call_ids`"
        ));
    }
    if steps > 0 {
        evidence.push(format!("{steps} of {step_items} sampled `trajectory` items are steps with `action`, `observation` and `response`/`thought`"));
    }
    if info {
        evidence.push("`info` has `exit_status`, `submission` or `model_stats`".to_string());
    }
    if !extra.is_empty() {
        evidence.push(format!("top-level {}", extra.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ")));
    }
    let items = history + step_items;
    let share = if items == 0 { 0.0 } else { (marked + steps) as f32 / items as f32 };
    let confidence = (0.5 + 0.5 * share) * matched as f32 / files.max(1) as f32;
    Some(Score { confidence, evidence })
}

fn is_history_item(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.get("role").is_some_and(Value::is_string) && o.contains_key("content") && HISTORY_MARKS.iter().any(|k| o.contains_key(*k))
}

fn is_step(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.contains_key("action") && o.contains_key("observation") && (o.contains_key("response") || o.contains_key("thought"))
}

fn is_info(o: &Map<String, Value>) -> bool {
    ["exit_status", "submission", "model_stats"].iter().any(|k| o.contains_key(*k))
}
