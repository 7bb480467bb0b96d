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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Layout;
    use serde_json::json;

    fn sample(v: Value) -> Sample {
        Sample { layout: Layout::Json, values: vec![v] }
    }

    #[test]
    fn history_items_need_a_swe_agent_field() {
        assert!(detect(&sample(json!({"history": [{"role": "user", "content": "hi"}]}))).is_none());
        let s = detect(&sample(json!({"history": [{"role": "user", "content": "hi", "agent": "main"}]}))).unwrap();
        assert!((s.confidence - 1.0).abs() < 1e-6, "{}", s.confidence);
        assert!(s.evidence[0].starts_with("1 of 1 sampled `history` items"), "{:?}", s.evidence);
    }

    #[test]
    fn steps_alone_are_enough_and_info_is_evidence() {
        let v = json!({"trajectory": [{"action": "ls", "observation": "", "thought": "t"}, {"x": 1}], "info": {"exit_status": "submitted"}});
        let s = detect(&sample(v)).unwrap();
        assert!((s.confidence - 0.75).abs() < 1e-6, "{}", s.confidence);
        assert!(s.evidence.iter().any(|e| e.contains("`info`")));
        assert!(detect(&sample(json!([{"role": "user", "content": "x", "agent": "a"}]))).is_none());
    }
}
