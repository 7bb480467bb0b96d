//! Which records' token usage counts, as ccusage 18.0.11 (the reference for
//! Claude Code token totals) counts it: a record its `usageDataSchema`
//! accepts (any record type), once per `message.id` + `requestId` (the split
//! records of one response repeat the usage); a record lacking either id is
//! counted each time. The record's `costUSD` (older Claude Code versions
//! wrote it) is its cost, counted with its usage by the same rule: what
//! ccusage's `--mode display` adds up.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::import::facts;
use crate::model::{Cost, EventFacts, Usage};

/// The usage pairs already counted in this input.
#[derive(Default)]
pub struct Counted(HashSet<(String, String)>);

/// A counted record's usage, and its cost when it has a `costUSD`.
pub struct Taken {
    usage: Usage,
    cost: Option<Cost>,
}

impl Taken {
    /// Sets the event's usage and cost facts.
    pub fn fill(self, facts: &mut EventFacts) {
        facts.usage = Some(self.usage);
        facts.cost = self.cost;
    }
}

impl Counted {
    /// The record's usage (and cost) when ccusage would count it here.
    /// `listed`: the fast path read `message.content` (left `null` in `o`)
    /// and found a list whose blocks' `text`s are strings, or not a list.
    pub fn take(&mut self, o: &Map<String, Value>, listed: Option<bool>) -> Option<Taken> {
        let message = o.get("message")?.as_object()?;
        if !accepted(o, message, listed) {
            return None;
        }
        let usage = facts::usage(message.get("usage")?)?;
        let id = message.get("id").and_then(Value::as_str);
        let request = o.get("requestId").and_then(Value::as_str);
        let cost = facts::amount(o.get("costUSD")).map(|total| Cost { total, input: None, output: None });
        match (id, request) {
            (Some(m), Some(r)) if !self.0.insert((m.to_string(), r.to_string())) => None,
            _ => Some(Taken { usage, cost }),
        }
    }
}

/// ccusage's `usageDataSchema` (valibot; `optional` takes a missing key, not `null`).
fn accepted(o: &Map<String, Value>, message: &Map<String, Value>, listed: Option<bool>) -> bool {
    let opt = |m: &Map<String, Value>, k: &str, ok: &dyn Fn(&Value) -> bool| m.get(k).is_none_or(ok);
    let nonempty = |v: &Value| v.as_str().is_some_and(|s| !s.is_empty());
    let number = |v: &Value| v.is_number();
    let Some(usage) = message.get("usage").and_then(Value::as_object) else { return false };
    o.get("timestamp").and_then(Value::as_str).is_some_and(iso_timestamp)
        && opt(o, "cwd", &|v| v.is_string())
        && opt(o, "sessionId", &nonempty)
        && opt(o, "version", &|v| v.as_str().is_some_and(version))
        && opt(o, "costUSD", &number)
        && opt(o, "requestId", &nonempty)
        && opt(o, "isApiErrorMessage", &|v| v.is_boolean())
        && usage.get("input_tokens").is_some_and(number)
        && usage.get("output_tokens").is_some_and(number)
        && opt(usage, "cache_creation_input_tokens", &number)
        && opt(usage, "cache_read_input_tokens", &number)
        && opt(usage, "speed", &|v| matches!(v.as_str(), Some("standard" | "fast")))
        && opt(message, "model", &nonempty)
        && opt(message, "id", &nonempty)
        && listed.unwrap_or_else(|| {
            opt(message, "content", &|v| {
                v.as_array().is_some_and(|blocks| blocks.iter().all(|b| b.as_object().is_some_and(|b| opt(b, "text", &|t| t.is_string()))))
            })
        })
}

/// `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$`
fn iso_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let head = digits(0..4) && at(4, b'-') && digits(5..7) && at(7, b'-') && digits(8..10) && at(10, b'T') && digits(11..13) && at(13, b':') && digits(14..16) && at(16, b':') && digits(17..19);
    head && match b.len() {
        20 => at(19, b'Z'),
        24 => at(19, b'.') && digits(20..23) && at(23, b'Z'),
        _ => false,
    }
}

/// `^\d+\.\d+\.\d+`
fn version(s: &str) -> bool {
    let mut parts = s.splitn(3, '.');
    let num = |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()));
    let (a, b) = (parts.next(), parts.next());
    let c = parts.next().map(|rest| rest.get(..rest.bytes().take_while(u8::is_ascii_digit).count()).unwrap_or(""));
    num(a) && num(b) && num(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_edges() {
        assert!(iso_timestamp("2026-02-10T21:11:52.438Z") && iso_timestamp("2026-02-10T21:11:52Z"));
        assert!(!iso_timestamp("2026-02-10T21:11:52.43Z") && !iso_timestamp("2026-02-10T21:11:52+00:00"));
        assert!(version("2.1.39") && version("1.0.3-beta") && !version("2.1") && !version("v2.1.3"));
        let rec = |content: Value| {
            json!({"timestamp": "2026-02-10T21:11:52.438Z", "requestId": "r", "message": {"id": "m", "content": content, "usage": {"input_tokens": 1, "output_tokens": 2}}})
        };
        let mut c = Counted::default();
        assert!(c.take(rec(json!([{"type": "text", "text": "a"}])).as_object().unwrap(), None).is_some());
        assert!(c.take(rec(json!([{"type": "text", "text": "b"}])).as_object().unwrap(), None).is_none(), "same message.id + requestId");
        let mut c = Counted::default();
        assert!(c.take(rec(json!("a string")).as_object().unwrap(), None).is_none(), "ccusage's schema wants a list of blocks");
        let mut c = Counted::default();
        let mut priced = rec(json!([]));
        priced["costUSD"] = json!(0.0123);
        let taken = c.take(priced.as_object().unwrap(), None).unwrap();
        assert_eq!(taken.cost.map(|c| c.total), Some(0.0123));
        assert!(c.take(priced.as_object().unwrap(), None).is_none(), "the repeat's cost is not counted again");
        priced["costUSD"] = json!("0.0123");
        assert!(Counted::default().take(priced.as_object().unwrap(), None).is_none(), "ccusage's schema wants a number");
    }
}
