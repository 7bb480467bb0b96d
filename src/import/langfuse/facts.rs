//! An observation's typed facts: token usage (`usageDetails`, else the
//! deprecated `usage` object, else the legacy `promptTokens` /
//! `completionTokens` / `totalTokens`), the model, and the duration
//! (`endTime` − `startTime`), and the cost Langfuse reports (see [`cost`]).

use crate::import::chat::Field;
use serde_json::{Map, Value};

use crate::analysis::time::{parse_instant, Instant};
use crate::import::facts::amount;
use crate::model::{Cost, EventFacts, Usage};

/// A time as Langfuse writes it (ISO 8601).
pub fn instant(v: Option<&Value>) -> Option<Instant> {
    v.and_then(Value::as_str).and_then(parse_instant)
}

fn count(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19).map(|f| f as u64)),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
}

/// Token usage from Langfuse's usage keys: `input`, `output`, `total`, and
/// the detail keys its integrations write (`input_cache_read`,
/// `input_cached_tokens`, `cache_read_input_tokens`,
/// `prompt_details.cache_read`, `input_cache_creation`,
/// `cache_creation_input_tokens`, `output_reasoning`,
/// `output_reasoning_tokens`, `completion_details.reasoning`).
pub fn usage_details(d: &Map<String, Value>) -> Option<Usage> {
    let first = |keys: &[&str]| keys.iter().find_map(|k| count(d.field(k)));
    let input = first(&["input", "promptTokens"]);
    let output = first(&["output", "completionTokens"]);
    let cache_read = first(&["input_cache_read", "input_cached_tokens", "cache_read_input_tokens", "prompt_details.cache_read"]);
    let cache_creation = first(&["input_cache_creation", "cache_creation_input_tokens"]);
    let reasoning = first(&["output_reasoning", "output_reasoning_tokens", "completion_details.reasoning"]);
    let total = first(&["total", "totalTokens"]);
    if [input, output, cache_read, cache_creation, reasoning, total].iter().all(Option::is_none) {
        return None;
    }
    let (i, o) = (input.unwrap_or(0), output.unwrap_or(0));
    Some(Usage {
        input_tokens: i,
        output_tokens: o,
        cache_read_input_tokens: cache_read.unwrap_or(0),
        cache_creation_input_tokens: cache_creation.unwrap_or(0),
        reasoning_output_tokens: reasoning.unwrap_or(0),
        total_tokens: total.unwrap_or_else(|| i.saturating_add(o)),
    })
}

/// The observation's cost in USD, from the first source that gives a figure:
/// `costDetails` (`ObservationsView`: cost per kind, `total` "the sum of all
/// (non-total) cost metrics or the total value ingested"), the deprecated
/// `calculatedInputCost` / `calculatedOutputCost` / `calculatedTotalCost`,
/// the deprecated `usage.inputCost` / `outputCost` / `totalCost`, and, only
/// when there is no `costDetails` at all, the UI export's own `inputCost` /
/// `outputCost` / `totalCost` (the export writes them as sums of
/// `costDetails`, 0 for an empty one: an empty `costDetails` is no cost).
pub fn cost(o: &Map<String, Value>) -> Option<Cost> {
    let from = |m: &Map<String, Value>, total: &str, input: &str, output: &str| Cost::from_parts(amount(m.field(total)), amount(m.field(input)), amount(m.field(output)), &[]);
    let details = o.field("costDetails").and_then(Value::as_object);
    let others: Vec<f64> = details.into_iter().flatten().filter(|(k, _)| !matches!(k.as_str(), "total" | "input" | "output")).filter_map(|(_, v)| amount(Some(v))).collect();
    details
        .and_then(|d| Cost::from_parts(amount(d.field("total")), amount(d.field("input")), amount(d.field("output")), &others))
        .or_else(|| from(o, "calculatedTotalCost", "calculatedInputCost", "calculatedOutputCost"))
        .or_else(|| o.field("usage").and_then(Value::as_object).and_then(|u| from(u, "totalCost", "inputCost", "outputCost")))
        .or_else(|| if o.has_field("costDetails") { None } else { from(o, "totalCost", "inputCost", "outputCost") })
}

pub fn observation(o: &Map<String, Value>) -> Option<Box<EventFacts>> {
    // The first source that has a count key at all (an unreadable count
    // there is 0, not a reason to read the deprecated fields).
    let has_counts = |m: &Map<String, Value>| ["input", "output", "total"].iter().any(|k| m.has_field(k));
    let details = o.field("usageDetails").and_then(Value::as_object);
    let legacy = o.field("usage").and_then(Value::as_object);
    let usage = match (details, legacy) {
        (Some(d), _) if has_counts(d) => usage_details(d),
        (_, Some(u)) if has_counts(u) => usage_details(u),
        _ => {
            let flat: Map<String, Value> = ["promptTokens", "completionTokens", "totalTokens"].iter().filter_map(|k| o.field(k).map(|v| (k.to_string(), v.clone()))).collect();
            usage_details(&flat).or_else(|| details.and_then(usage_details))
        }
    };
    let start = instant(o.field("startTime"));
    let end = instant(o.field("endTime"));
    let duration_ms = match (start, end) {
        (Some(s), Some(e)) if e >= s => Some(e.millis() - s.millis()),
        _ => None,
    };
    let model = o.field("model").and_then(Value::as_str).filter(|m| !m.is_empty()).map(str::to_string);
    let facts = EventFacts { usage, cost: cost(o), duration_ms, model, handoff: None };
    (facts != EventFacts::default()).then(|| Box::new(facts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cost_of(v: Value) -> Option<Cost> {
        cost(v.as_object().unwrap())
    }

    #[test]
    fn cost_sources_in_order() {
        let c = cost_of(json!({"costDetails": {"input": 0.25, "output": 0.5, "input_cache_read": 0.125}, "calculatedTotalCost": 9.0}));
        assert_eq!(c, Some(Cost { total: 0.875, input: Some(0.25), output: Some(0.5) }), "no total key: the sum of the kinds");
        assert_eq!(cost_of(json!({"costDetails": {"total": 0.0009}})), Some(Cost { total: 0.0009, input: None, output: None }));
        assert_eq!(cost_of(json!({"costDetails": {}, "calculatedTotalCost": 0.5})).map(|c| c.total), Some(0.5));
        assert_eq!(cost_of(json!({"costDetails": {"total": "free"}, "usage": {"totalCost": 0.25}})).map(|c| c.total), Some(0.25));
        assert_eq!(cost_of(json!({"costDetails": {}, "totalCost": 0})), None, "the export's 0 for an empty costDetails is no cost");
        assert_eq!(cost_of(json!({"totalCost": 0.5, "inputCost": 0.5})).map(|c| (c.total, c.input)), Some((0.5, Some(0.5))));
        assert_eq!(cost_of(json!({"calculatedTotalCost": null})), None);
    }
}
