//! A run's times and typed facts. Times are ISO strings (the Python SDK)
//! or epoch milliseconds (the JS SDK); numbers are shown as RFC 3339, which
//! the rest of the crate reads with `analysis::time`. Usage from the
//! outputs (LangChain `usage_metadata`, OpenAI `usage`, LangChain
//! `llm_output.token_usage`), else the run's own `prompt_tokens` /
//! `completion_tokens` / `total_tokens`; the model from `ls_model_name`,
//! the invocation parameters, the outputs or the inputs; the cost of an
//! `llm` run (see [`cost`]).

use crate::import::chat::Field;
use serde_json::{Map, Value};

use crate::analysis::time::{parse_instant, Instant};
use crate::import::facts::amount;
use crate::model::{Cost, EventFacts, Usage};

/// A run time as an instant: an ISO string, or epoch milliseconds.
pub fn instant(v: Option<&Value>) -> Option<Instant> {
    match v? {
        Value::String(s) => parse_instant(s),
        Value::Number(n) => parse_instant(&rfc3339_millis(n.as_f64()?)?),
        _ => None,
    }
}

/// The timestamp an event shows: the string as written, a number as RFC 3339.
pub fn timestamp(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => rfc3339_millis(n.as_f64()?),
        _ => None,
    }
}

/// Epoch milliseconds as `2024-10-13T07:05:37.170Z` (years 1970–9999).
fn rfc3339_millis(ms: f64) -> Option<String> {
    if !ms.is_finite() || !(0.0..253_402_300_800_000.0).contains(&ms) {
        return None;
    }
    let total = ms.round() as i64;
    let (secs, milli) = (total.div_euclid(1000), total.rem_euclid(1000));
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = crate::analysis::time::civil_from_days(days);
    Some(format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z", rem / 3600, (rem % 3600) / 60, rem % 60))
}

fn count(v: Option<&Value>) -> Option<u64> {
    v?.as_u64()
}

/// LangChain's `UsageMetadata`: `input_tokens`, `output_tokens`,
/// `total_tokens`, `input_token_details.{cache_read, cache_creation}`,
/// `output_token_details.reasoning`.
fn usage_metadata(u: &Map<String, Value>) -> Option<Usage> {
    let detail = |outer: &str, inner: &str| count(u.field(outer).and_then(|d| d.field(inner)));
    let input = count(u.field("input_tokens"));
    let output = count(u.field("output_tokens"));
    let total = count(u.field("total_tokens"));
    if input.is_none() && output.is_none() && total.is_none() {
        return None;
    }
    let (i, o) = (input.unwrap_or(0), output.unwrap_or(0));
    Some(Usage {
        input_tokens: i,
        output_tokens: o,
        cache_read_input_tokens: detail("input_token_details", "cache_read").unwrap_or(0),
        cache_creation_input_tokens: detail("input_token_details", "cache_creation").unwrap_or(0),
        reasoning_output_tokens: detail("output_token_details", "reasoning").unwrap_or(0),
        total_tokens: total.unwrap_or_else(|| i.saturating_add(o)),
    })
}

/// The run's token usage, from the first source that has one.
pub fn usage(o: &Map<String, Value>) -> Option<Usage> {
    let outputs = o.field("outputs").and_then(Value::as_object);
    let meta = o.field("extra").and_then(|e| e.field("metadata")).and_then(Value::as_object);
    outputs
        .and_then(|x| x.field("usage_metadata"))
        .and_then(Value::as_object)
        .and_then(usage_metadata)
        .or_else(|| outputs.and_then(|x| x.field("usage")).and_then(crate::import::facts::usage))
        .or_else(|| outputs.and_then(|x| x.field("llm_output")).and_then(|l| l.field("token_usage")).and_then(crate::import::facts::usage))
        .or_else(|| meta.and_then(|m| m.field("usage_metadata")).and_then(Value::as_object).and_then(usage_metadata))
        .or_else(|| {
            let (i, c, t) = (count(o.field("prompt_tokens")), count(o.field("completion_tokens")), count(o.field("total_tokens")));
            (i.is_some() || c.is_some() || t.is_some()).then(|| {
                let (i, c) = (i.unwrap_or(0), c.unwrap_or(0));
                Usage { input_tokens: i, output_tokens: c, total_tokens: t.unwrap_or_else(|| i.saturating_add(c)), ..Usage::default() }
            })
        })
}

/// An `llm` run's cost in USD (LangSmith's API types say USD): the run's
/// own `total_cost` / `prompt_cost` / `completion_cost` (`schemas.Run`,
/// decimals), else the `total_cost` / `input_cost` / `output_cost` of its
/// `outputs.usage_metadata` or `extra.metadata.usage_metadata` (LangSmith's
/// `UsageMetadata`). Other runs' costs are not read: LangSmith rolls its
/// children's costs up into a parent run, and adding both would count them
/// twice. The `*_cost_details` breakdowns "do not need to sum" to the cost:
/// they stay metadata.
pub fn cost(o: &Map<String, Value>) -> Option<Cost> {
    if o.field("run_type").and_then(Value::as_str) != Some("llm") {
        return None;
    }
    let from = |m: &Map<String, Value>, total: &str, input: &str, output: &str| Cost::from_parts(amount(m.field(total)), amount(m.field(input)), amount(m.field(output)), &[]);
    let usage_metadata = |m: Option<&Value>| m.and_then(|m| m.field("usage_metadata")).and_then(Value::as_object).and_then(|u| from(u, "total_cost", "input_cost", "output_cost"));
    from(o, "total_cost", "prompt_cost", "completion_cost")
        .or_else(|| usage_metadata(o.field("outputs")))
        .or_else(|| usage_metadata(o.field("extra").and_then(|e| e.field("metadata"))))
}

pub fn model(o: &Map<String, Value>) -> Option<String> {
    let extra = o.field("extra");
    let candidates = [
        extra.and_then(|e| e.field("metadata")).and_then(|m| m.field("ls_model_name")),
        extra.and_then(|e| e.field("invocation_params")).and_then(|p| p.field("model").or_else(|| p.field("model_name"))),
        o.field("outputs").and_then(|x| x.field("model")),
        o.field("inputs").and_then(|x| x.field("model")),
    ];
    candidates.into_iter().flatten().find_map(Value::as_str).filter(|m| !m.is_empty()).map(str::to_string)
}

pub fn facts(o: &Map<String, Value>) -> Option<Box<EventFacts>> {
    let (start, end) = (instant(o.field("start_time")), instant(o.field("end_time")));
    let duration_ms = match (start, end) {
        (Some(s), Some(e)) if e >= s => Some(e.millis() - s.millis()),
        _ => None,
    };
    let is_llm = o.field("run_type").and_then(Value::as_str) == Some("llm");
    let facts = EventFacts { usage: usage(o), cost: cost(o), duration_ms, model: if is_llm { model(o) } else { None }, handoff: None };
    (facts != EventFacts::default()).then(|| Box::new(facts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_millis_round_trip_through_the_crate_parser() {
        let v = serde_json::json!(1728803137170u64);
        assert_eq!(timestamp(Some(&v)).as_deref(), Some("2024-10-13T07:05:37.170Z"));
        assert_eq!(instant(Some(&v)).map(|i| i.millis()), Some(1728803137170.0));
    }

    #[test]
    fn cost_of_llm_runs_only() {
        let run = |v: Value| cost(v.as_object().unwrap());
        let c = run(serde_json::json!({"run_type": "llm", "total_cost": "0.0035", "prompt_cost": 0.001, "completion_cost": "0.0025"}));
        assert_eq!(c, Some(Cost { total: 0.0035, input: Some(0.001), output: Some(0.0025) }));
        let c = run(serde_json::json!({"run_type": "llm", "total_cost": null, "outputs": {"usage_metadata": {"input_cost": 0.5, "output_cost": 0.25}}}));
        assert_eq!(c.map(|c| c.total), Some(0.75));
        assert_eq!(run(serde_json::json!({"run_type": "chain", "total_cost": 1.0})), None, "a parent's cost rolls its children's up");
    }
}
