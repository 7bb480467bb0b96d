//! Typed facts ([`EventFacts`]: token usage, cost, model, duration) read from the
//! shapes formats write them in, so that each format module fills them with
//! one call and analysis never guesses metadata keys.

use serde_json::{Map, Value};

use super::pydantic_lax as lax;
use crate::model::{EventFacts, Usage};

/// `Some` when the facts hold anything.
fn boxed(facts: EventFacts) -> Option<Box<EventFacts>> {
    (facts != EventFacts::default()).then(|| Box::new(facts))
}

/// A non-negative whole number.
fn count(v: Option<&Value>) -> Option<u64> {
    v?.as_u64()
}

/// A cost figure as sources write one: a finite JSON number, or a decimal
/// string (LangSmith's `Decimal` fields, serialized either way). Anything
/// else (null, text, a boolean) is no figure.
pub fn amount(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

/// A `usage` object of a chat completion: OpenAI's (`prompt_tokens`,
/// `completion_tokens`, `total_tokens`, `prompt_tokens_details.cached_tokens`,
/// `completion_tokens_details.reasoning_tokens`), Anthropic's (`input_tokens`,
/// `output_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`),
/// or litellm's mix of both. None when it has no count at all.
pub fn usage(v: &Value) -> Option<Usage> {
    let o = v.as_object()?;
    let detail = |outer: &str, inner: &str| count(o.get(outer).and_then(|d| d.get(inner)));
    let input = count(o.get("prompt_tokens")).or_else(|| count(o.get("input_tokens")));
    let output = count(o.get("completion_tokens")).or_else(|| count(o.get("output_tokens")));
    let cache_read = count(o.get("cache_read_input_tokens")).or_else(|| detail("prompt_tokens_details", "cached_tokens"));
    let cache_creation = count(o.get("cache_creation_input_tokens"));
    let reasoning = detail("completion_tokens_details", "reasoning_tokens").or_else(|| count(o.get("reasoning_output_tokens")));
    let total = count(o.get("total_tokens"));
    usage_of_counts([input, output, cache_read, cache_creation, reasoning, total], o.contains_key("input_tokens"))
}

/// The [`Usage`] of the counts [`usage`] found (input, output, cache read,
/// cache creation, reasoning, total; `None` when there is none at all), its
/// total computed when the source gives none. `anthropic`: the object has
/// `input_tokens` (which excludes the cached prompt). Shared with readers that
/// find the counts in the source (Claude Code's `usage::counts`).
pub fn usage_of_counts([input, output, cache_read, cache_creation, reasoning, total]: [Option<u64>; 6], anthropic: bool) -> Option<Usage> {
    if [input, output, cache_read, cache_creation, reasoning, total].iter().all(Option::is_none) {
        return None;
    }
    let mut u = Usage {
        input_tokens: input.unwrap_or(0),
        output_tokens: output.unwrap_or(0),
        cache_read_input_tokens: cache_read.unwrap_or(0),
        cache_creation_input_tokens: cache_creation.unwrap_or(0),
        reasoning_output_tokens: reasoning.unwrap_or(0),
        total_tokens: 0,
    };
    u.total_tokens = total.unwrap_or_else(|| {
        // Anthropic's input excludes the cached prompt; OpenAI's includes it.
        let cache = if anthropic { u.cache_read_input_tokens.saturating_add(u.cache_creation_input_tokens) } else { 0 };
        u.input_tokens.saturating_add(u.output_tokens).saturating_add(cache)
    });
    Some(u)
}

/// A chat completion's facts: its `usage` and `model` (on an OpenAI-style
/// message or response object).
pub fn completion(o: &Map<String, Value>) -> Option<Box<EventFacts>> {
    boxed(EventFacts {
        usage: o.get("usage").and_then(usage),
        model: o.get("model").and_then(Value::as_str).map(str::to_string),
        ..EventFacts::default()
    })
}

/// An AgentLens event's facts: `tokens_in` / `tokens_out` as pydantic reads
/// them (lax ints), `model`, and `duration_ms` (a `tool_call` event's own,
/// else its call's).
///
/// The record's `tokens_in`, `tokens_out`, `duration_ms` and `model`, and
/// its `tool_call` object's `duration_ms` (the reader finds them once).
pub fn agentlens(tokens_in: Option<&Value>, tokens_out: Option<&Value>, duration_ms: Option<&Value>, call_duration_ms: Option<&Value>, model: Option<&Value>) -> Option<Box<EventFacts>> {
    let tokens = |v: Option<&Value>| v.and_then(|v| lax::integer(v).ok().flatten()).map(|n| u64::try_from(n).unwrap_or(0));
    let (input, output) = (tokens(tokens_in), tokens(tokens_out));
    let usage = (input.is_some() || output.is_some()).then(|| {
        let (i, o) = (input.unwrap_or(0), output.unwrap_or(0));
        Usage { input_tokens: i, output_tokens: o, total_tokens: i.saturating_add(o), ..Usage::default() }
    });
    let duration = |v: Option<&Value>| v.filter(|v| !v.is_null()).and_then(|v| lax::float(v).ok());
    boxed(EventFacts {
        usage,
        duration_ms: duration(duration_ms).or_else(|| duration(call_duration_ms)),
        model: model.and_then(Value::as_str).map(str::to_string),
        cost: None,
        handoff: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn usage_shapes() {
        let openai = json!({"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120,
            "prompt_tokens_details": {"cached_tokens": 60}, "completion_tokens_details": {"reasoning_tokens": 5}});
        assert_eq!(
            usage(&openai),
            Some(Usage { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 60, cache_creation_input_tokens: 0, reasoning_output_tokens: 5, total_tokens: 120 })
        );
        let anthropic = json!({"input_tokens": 10, "output_tokens": 2, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 7});
        assert_eq!(usage(&anthropic).map(|u| u.total_tokens), Some(119));
        let litellm = json!({"completion_tokens": 1135, "prompt_tokens": 3486, "total_tokens": 4621, "completion_tokens_details": null,
            "prompt_tokens_details": {"audio_tokens": null, "cached_tokens": 0}, "cache_creation_input_tokens": 3482, "cache_read_input_tokens": 0});
        assert_eq!(usage(&litellm).map(|u| (u.input_tokens, u.cache_creation_input_tokens, u.total_tokens)), Some((3486, 3482, 4621)));
        assert_eq!(usage(&json!({"other": 1})), None);
        assert_eq!(usage(&json!(3)), None);
    }

    #[test]
    fn amounts() {
        assert_eq!(amount(Some(&json!(0.25))), Some(0.25));
        assert_eq!(amount(Some(&json!(" 0.000402 "))), Some(0.000402));
        assert_eq!([json!(null), json!("inf"), json!("NaN"), json!("x"), json!(true)].iter().find_map(|v| amount(Some(v))), None);
    }

    #[test]
    fn agentlens_facts() {
        let (tokens_in, tokens_out, model, call_duration) = (json!("50"), json!(3.0), json!("m"), json!("12.5"));
        let f = agentlens(Some(&tokens_in), Some(&tokens_out), Some(&Value::Null), Some(&call_duration), Some(&model)).unwrap();
        assert_eq!((f.usage.unwrap().input_tokens, f.usage.unwrap().total_tokens, f.duration_ms, f.model.as_deref()), (50, 53, Some(12.5), Some("m")));
        assert!(agentlens(None, None, None, None, None).is_none());
    }
}
