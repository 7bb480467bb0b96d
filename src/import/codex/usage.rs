//! Token usage of `token_count` events, counted the way ccusage's Codex
//! report (`@ccusage/codex` 18.0.11, `loadTokenUsageEvents`) counts it, so
//! that a trace's usage totals equal that report's for the session.
//!
//! Codex writes `info.total_token_usage` (cumulative) and
//! `info.last_token_usage` (the last model call) on each `token_count`
//! event (`TokenUsageInfo` in codex-rs/protocol). Per event: the last call's
//! usage when given, else the growth of the cumulative totals since the
//! previous event that had them; cached input capped at the input (Codex's
//! input includes the cached part); a missing `total_tokens` (or 0) is
//! input + output; an event with nothing counted, or without a
//! `timestamp`, counts nothing. Counts must be whole non-negative numbers
//! (the protocol's `i64` counts of tokens): any other value counts as 0 and
//! is reported, where ccusage would add a float or a negative number.

use serde_json::{Map, Value};

use crate::json::Seg;
use crate::model::Usage;

/// The counts of one `TokenUsage` object, as ccusage normalises them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Raw {
    input: u64,
    cached: u64,
    output: u64,
    reasoning: u64,
    total: u64,
}

/// A count that is not a whole non-negative number, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct BadCount {
    pub at: Vec<Seg>,
    pub found: Value,
}

/// The running state of one session: the last cumulative totals and the
/// model in use (from `turn_context`, or named by a `token_count`).
#[derive(Debug, Default)]
pub struct Tally {
    previous: Option<Raw>,
    model: Option<String>,
}

/// What one `token_count` event adds.
#[derive(Debug, Default, PartialEq)]
pub struct Counted {
    pub usage: Option<Usage>,
    pub model: Option<String>,
    pub bad: Vec<BadCount>,
}

pub const FIELDS: [&str; 5] = ["input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens", "total_tokens"];

impl Raw {
    /// The counts of [`FIELDS`] (0 where absent or null), with ccusage's
    /// total: input + output when `total_tokens` is 0.
    pub fn from_counts(n: [u64; 5]) -> Raw {
        let [input, cached, output, reasoning, total] = n;
        let total = if total > 0 { total } else { input.saturating_add(output) };
        Raw { input, cached, output, reasoning, total }
    }
}

/// A `TokenUsage` object; `None` when it is not an object.
fn raw(v: Option<&Value>, key: &str, bad: &mut Vec<BadCount>) -> Option<Raw> {
    let o = v?.as_object()?;
    let mut n = [0u64; 5];
    for (slot, field) in n.iter_mut().zip(FIELDS) {
        // ccusage reads `cache_read_input_tokens` when the cached count is absent.
        let found = match o.get(field) {
            None | Some(Value::Null) if field == "cached_input_tokens" => o.get("cache_read_input_tokens").map(|v| (v, "cache_read_input_tokens")),
            other => other.map(|v| (v, field)),
        };
        match found {
            None | Some((Value::Null, _)) => {}
            Some((v, name)) => match v.as_u64() {
                Some(c) => *slot = c,
                None => bad.push(BadCount { at: vec![Seg::key("info"), Seg::key(key), Seg::key(name)], found: v.clone() }),
            },
        }
    }
    Some(Raw::from_counts(n))
}

/// The model an object names: `info.model`, `info.model_name`,
/// `info.metadata.model`, then its own `model` or `metadata.model`
/// (ccusage's `extractModel`).
pub fn model_named(o: &Map<String, Value>) -> Option<String> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let info = o.get("info").and_then(Value::as_object);
    let from_info = info.and_then(|i| {
        text(i.get("model"))
            .or_else(|| text(i.get("model_name")))
            .or_else(|| text(i.get("metadata").and_then(|m| m.get("model"))))
    });
    from_info.or_else(|| text(o.get("model"))).or_else(|| text(o.get("metadata").and_then(|m| m.get("model"))))
}

impl Tally {
    /// A `turn_context` payload: its model is the session's from now on.
    pub fn turn_context(&mut self, payload: &Map<String, Value>) {
        self.set_model(model_named(payload));
    }

    /// The model a `turn_context` names (`None`: none, the last one stays).
    pub fn set_model(&mut self, model: Option<String>) {
        if let Some(m) = model {
            self.model = Some(m);
        }
    }

    /// A `token_count` payload. `timestamped`: the line has a `timestamp`.
    pub fn token_count(&mut self, payload: &Map<String, Value>, timestamped: bool) -> Counted {
        let mut out = Counted::default();
        // ccusage skips the event when `info` is not an object (null before
        // the first call) and when the line has no timestamp, before
        // looking at the totals.
        let info = match payload.get("info") {
            None => None,
            Some(Value::Object(i)) => Some(i),
            Some(_) => return out,
        };
        if !timestamped {
            return out;
        }
        let last = raw(info.and_then(|i| i.get("last_token_usage")), "last_token_usage", &mut out.bad);
        let total = raw(info.and_then(|i| i.get("total_token_usage")), "total_token_usage", &mut out.bad);
        self.add(last, total, || model_named(payload), out)
    }

    /// A timestamped `token_count` whose `info` is absent or an object, by
    /// the usage objects it gives (`None`: absent or not an object) and the
    /// model it names; `out` holds what was reported of its counts. The
    /// fast path reads these from the bytes (`fast_events.rs`).
    pub fn add(&mut self, last: Option<Raw>, total: Option<Raw>, model: impl FnOnce() -> Option<String>, mut out: Counted) -> Counted {
        let counted = last.or_else(|| total.map(|t| since(t, self.previous.unwrap_or_default())));
        if total.is_some() {
            self.previous = total;
        }
        let Some(r) = counted else { return out };
        let cached = r.cached.min(r.input);
        if r.input == 0 && cached == 0 && r.output == 0 && r.reasoning == 0 {
            return out;
        }
        if let Some(m) = model() {
            self.model = Some(m);
        }
        out.model = self.model.clone();
        out.usage = Some(Usage {
            input_tokens: r.input,
            output_tokens: r.output,
            cache_read_input_tokens: cached,
            cache_creation_input_tokens: 0,
            reasoning_output_tokens: r.reasoning,
            total_tokens: r.total,
        });
        out
    }
}

/// The growth from `previous` to `now`, never below 0.
fn since(now: Raw, previous: Raw) -> Raw {
    Raw {
        input: now.input.saturating_sub(previous.input),
        cached: now.cached.saturating_sub(previous.cached),
        output: now.output.saturating_sub(previous.output),
        reasoning: now.reasoning.saturating_sub(previous.reasoning),
        total: now.total.saturating_sub(previous.total),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn count(t: &mut Tally, v: Value) -> Counted {
        t.token_count(v.as_object().unwrap(), true)
    }

    #[test]
    fn last_usage_first_then_growth_of_totals() {
        let mut t = Tally::default();
        let a = count(&mut t, json!({"info": {"total_token_usage": {"input_tokens": 100, "cached_input_tokens": 50, "output_tokens": 10}}}));
        assert_eq!(a.usage.map(|u| (u.input_tokens, u.cache_read_input_tokens, u.total_tokens)), Some((100, 50, 110)));
        let b = count(&mut t, json!({"info": {"total_token_usage": {"input_tokens": 160, "cached_input_tokens": 50, "output_tokens": 12, "total_tokens": 172}}}));
        assert_eq!(b.usage.map(|u| (u.input_tokens, u.cache_read_input_tokens, u.output_tokens, u.total_tokens)), Some((60, 0, 2, 62)));
        let c = count(&mut t, json!({"info": {"last_token_usage": {"input_tokens": 7, "cached_input_tokens": 9, "output_tokens": 1}}}));
        assert_eq!(c.usage.map(|u| (u.input_tokens, u.cache_read_input_tokens, u.total_tokens)), Some((7, 7, 8)));
    }

    #[test]
    fn nothing_counted_without_info_timestamp_or_tokens() {
        let mut t = Tally::default();
        assert_eq!(count(&mut t, json!({"info": null})), Counted::default());
        assert_eq!(count(&mut t, json!({"info": {"last_token_usage": {"input_tokens": 0}}})).usage, None);
        let o = json!({"info": {"last_token_usage": {"input_tokens": 5}}});
        assert_eq!(t.token_count(o.as_object().unwrap(), false).usage, None);
    }

    #[test]
    fn models_from_turn_context_and_info() {
        let mut t = Tally::default();
        let usage = json!({"input_tokens": 1, "output_tokens": 1});
        assert_eq!(count(&mut t, json!({"info": {"last_token_usage": usage}})).model, None);
        t.turn_context(json!({"model": "gpt-5-codex"}).as_object().unwrap());
        assert_eq!(count(&mut t, json!({"info": {"last_token_usage": usage}})).model.as_deref(), Some("gpt-5-codex"));
        assert_eq!(count(&mut t, json!({"info": {"model": "o3", "last_token_usage": usage}})).model.as_deref(), Some("o3"));
        assert_eq!(count(&mut t, json!({"info": {"last_token_usage": usage}})).model.as_deref(), Some("o3"));
    }

    #[test]
    fn bad_counts_are_zero_and_reported() {
        let mut t = Tally::default();
        let c = count(&mut t, json!({"info": {"last_token_usage": {"input_tokens": "12", "output_tokens": 3, "cached_input_tokens": -1}}}));
        assert_eq!(c.usage.map(|u| (u.input_tokens, u.output_tokens, u.cache_read_input_tokens)), Some((0, 3, 0)));
        assert_eq!(c.bad.len(), 2);
        assert_eq!(c.bad[0].at, vec![Seg::key("info"), Seg::key("last_token_usage"), Seg::key("input_tokens")]);
    }
}
