//! Which records' token usage counts, as ccusage 18.0.11 (the reference for
//! Claude Code token totals) counts it: a record its `usageDataSchema`
//! accepts (any record type), once per `message.id` + `requestId` (the split
//! records of one response repeat the usage); a record lacking either id is
//! counted each time. The record's `costUSD` (older Claude Code versions
//! wrote it) is its cost, counted with its usage by the same rule: what
//! ccusage's `--mode display` adds up.

use serde_json::{Map, Value};

use super::ids::{hash_of, Hashed};
use super::look::{Id, Look, Unsure, K};
use crate::import::facts;
use crate::json::read::Kind;
use crate::model::{Cost, EventFacts, Usage};

/// The usage pairs (`message.id`, `requestId`) already counted in this input.
#[derive(Default)]
pub struct Counted<'b> {
    pairs: Hashed<(Id<'b>, Id<'b>), ()>,
    /// The `message.id` of the pair counted last: the later records of a
    /// response repeat it, and their usage need not be walked.
    last_message: Option<Id<'b>>,
}

/// The hash of a (`message.id`, `requestId`) pair.
fn pair_hash(message_id: &[u8], request_id: &[u8]) -> u32 {
    hash_of(message_id) ^ hash_of(request_id).rotate_left(16)
}

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

/// A record's usage that ccusage's schema accepts, before the repeat check.
pub struct Claim {
    taken: Taken,
}

impl<'b> Counted<'b> {
    /// The pair was counted already: a usage with these ids would not count.
    pub fn has(&self, message_id: Option<&Id<'b>>, request_id: Option<&Id<'b>>) -> bool {
        match (message_id, request_id) {
            (Some(m), Some(r)) => self.pairs.find(pair_hash(m, r), |(a, b)| a == m && b == r).is_some(),
            _ => false,
        }
    }

    /// `message.id` `id` is that of the pair counted last: most likely a
    /// later record of the response counted (only a hint: [`Counted::has`] decides).
    pub fn last_message_is(&self, id: &[u8]) -> bool {
        self.last_message.as_deref() == Some(id)
    }

    /// The claimed usage (and cost) when ccusage would count it here: not
    /// when its ids (`message.id`, `requestId`) were counted already.
    pub fn take(&mut self, claim: Option<Claim>, message_id: Option<&Id<'b>>, request_id: Option<&Id<'b>>) -> Option<Taken> {
        let claim = claim?;
        match (message_id, request_id) {
            (Some(m), Some(r)) => {
                self.last_message = Some(m.clone());
                let hash = pair_hash(m, r);
                if self.pairs.find(hash, |(a, b)| a == m && b == r).is_some() {
                    return None;
                }
                self.pairs.insert_new(hash, (m.clone(), r.clone()), ());
                Some(claim.taken)
            }
            _ => Some(claim.taken),
        }
    }
}

/// The usage of record `o` (its `message` object: `message`, whose last
/// `usage` object is `walked` when the caller found it already) ccusage's
/// schema accepts, if any. `listed`: `message.content` is missing or a list
/// whose blocks are objects with no `text` but a string one
/// ([`content_listed`]; the fast path knows it from its reading).
pub fn claim<L: Look>(o: &L, message: Option<&L>, walked: Option<&L>, listed: bool) -> Result<Option<Claim>, Unsure> {
    let Some(message) = message else { return Ok(None) };
    let found;
    let usage = match walked {
        Some(usage) => usage,
        None => {
            found = message.object(K::Usage)?;
            let Some(usage) = &found else { return Ok(None) };
            usage
        }
    };
    if !accepted(o, message, usage, listed) {
        return Ok(None);
    }
    let Some(usage) = counts(usage)? else { return Ok(None) };
    let cost = facts::amount(o.value(K::CostUsd)?.as_ref());
    Ok(Some(Claim { taken: Taken { usage, cost: cost.map(|total| Cost { total, input: None, output: None }) } }))
}

/// [`facts::usage`] of an Anthropic or OpenAI `usage` object, read through
/// [`Look`] (in the source, without building it); its test holds the two together.
fn counts<L: Look>(o: &L) -> Result<Option<Usage>, Unsure> {
    let detail = |outer: K, inner: K| Ok::<_, Unsure>(o.object(outer)?.and_then(|d| d.u64(inner)));
    let input = o.u64(K::PromptTokens).or_else(|| o.u64(K::InputTokens));
    let output = o.u64(K::CompletionTokens).or_else(|| o.u64(K::OutputTokens));
    let cache_read = match o.u64(K::CacheReadInputTokens) {
        Some(n) => Some(n),
        None => detail(K::PromptTokensDetails, K::CachedTokens)?,
    };
    let cache_creation = o.u64(K::CacheCreationInputTokens);
    let reasoning = match detail(K::CompletionTokensDetails, K::ReasoningTokens)? {
        Some(n) => Some(n),
        None => o.u64(K::ReasoningOutputTokens),
    };
    let total = o.u64(K::TotalTokens);
    Ok(facts::usage_of_counts([input, output, cache_read, cache_creation, reasoning, total], o.has(K::InputTokens)))
}

/// ccusage's `usageDataSchema` (valibot; `optional` takes a missing key, not `null`).
fn accepted<L: Look>(o: &L, message: &L, usage: &L, listed: bool) -> bool {
    let opt = |m: &L, k: K, ok: &dyn Fn(Kind) -> bool| m.kind(k).is_none_or(ok);
    // On the texts' bytes: each test below reads only ASCII.
    let opt_str = |m: &L, k: K, ok: &dyn Fn(&[u8]) -> bool| m.kind(k).is_none() || m.bytes(k).is_some_and(|s| ok(&s));
    let nonempty = |s: &[u8]| !s.is_empty();
    let number = |k: Kind| k == Kind::Number;
    o.bytes(K::Timestamp).is_some_and(|t| iso_timestamp(&t))
        && opt(o, K::Cwd, &|k| k == Kind::String)
        && opt_str(o, K::SessionId, &nonempty)
        && opt_str(o, K::Version, &version)
        && opt(o, K::CostUsd, &number)
        && opt_str(o, K::RequestId, &nonempty)
        && opt(o, K::IsApiErrorMessage, &|k| k == Kind::Bool)
        && usage.kind(K::InputTokens) == Some(Kind::Number)
        && usage.kind(K::OutputTokens) == Some(Kind::Number)
        && opt(usage, K::CacheCreationInputTokens, &number)
        && opt(usage, K::CacheReadInputTokens, &number)
        && opt_str(usage, K::Speed, &|s| matches!(s, b"standard" | b"fast"))
        && opt_str(message, K::Model, &nonempty)
        && opt_str(message, K::Id, &nonempty)
        && listed
}

/// What ccusage's schema asks of a parsed `message.content`: missing, or a
/// list of objects whose `text`, when present, is a string.
pub fn content_listed(message: Option<&Map<String, Value>>) -> bool {
    message.and_then(|m| m.get("content")).is_none_or(|v| {
        v.as_array().is_some_and(|blocks| blocks.iter().all(|b| b.as_object().is_some_and(|b| b.get("text").is_none_or(Value::is_string))))
    })
}

/// `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$`
fn iso_timestamp(b: &[u8]) -> bool {
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
fn version(s: &[u8]) -> bool {
    let mut at = 0;
    // One or more digits from `at`, then `then` (none: anything or the end).
    let mut digits_then = |then: Option<u8>| {
        let n = s.get(at..).unwrap_or_default().iter().take_while(|c| c.is_ascii_digit()).count();
        at += n;
        let ok = n > 0 && then.is_none_or(|t| s.get(at) == Some(&t));
        at += 1;
        ok
    };
    digits_then(Some(b'.')) && digits_then(Some(b'.')) && digits_then(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::claude_code::look::InBytes;
    use serde_json::json;

    /// `counts` in the source is `facts::usage` of the parsed object.
    #[test]
    fn counts_in_the_source_are_facts_usage() {
        for u in [
            r#"{"input_tokens": 3, "output_tokens": 5, "cache_read_input_tokens": 7, "cache_creation_input_tokens": 11}"#,
            r#"{"input_tokens": 3, "output_tokens": 5, "cache_read_input_tokens": 7, "cache_read_input_tokens": 8}"#,
            r#"{"prompt_tokens": 30, "completion_tokens": 5, "total_tokens": 35, "prompt_tokens_details": {"cached_tokens": 4}, "completion_tokens_details": {"reasoning_tokens": 2}}"#,
            r#"{"input_tokens": 1.0, "output_tokens": -2, "total_tokens": 1e3, "reasoning_output_tokens": 18446744073709551615}"#,
            r#"{"input_tokens": 18446744073709551616, "output_tokens": "5", "prompt_tokens_details": [4], "completion_tokens_details": {"reasoning_tokens": null}}"#,
            r#"{"service_tier": "standard"}"#,
            r#"{}"#,
        ] {
            let b = u.as_bytes();
            let split = crate::json::split(b, 0);
            let looked = InBytes::at(b, &split.ends, 0).unwrap();
            let parsed: Value = serde_json::from_str(u).unwrap();
            assert_eq!(counts(&looked).unwrap(), facts::usage(&parsed), "{u}");
            assert_eq!(counts(&parsed.as_object().unwrap()).unwrap(), facts::usage(&parsed), "{u}");
        }
    }

    #[test]
    fn schema_edges() {
        assert!(iso_timestamp(b"2026-02-10T21:11:52.438Z") && iso_timestamp(b"2026-02-10T21:11:52Z"));
        assert!(!iso_timestamp(b"2026-02-10T21:11:52.43Z") && !iso_timestamp(b"2026-02-10T21:11:52+00:00"));
        for v in ["2.1.39", "1.0.3-beta", "12.34.5.6", "0.0.0x"] {
            assert!(version(v.as_bytes()), "{v}");
        }
        for v in ["2.1", "v2.1.3", "", "2.1.", "2..1", ".1.2", "2.1.x", "2-1.3", "١.٢.٣"] {
            assert!(!version(v.as_bytes()), "{v}");
        }
        let rec = |content: Value| {
            json!({"timestamp": "2026-02-10T21:11:52.438Z", "requestId": "r", "message": {"id": "m", "content": content, "usage": {"input_tokens": 1, "output_tokens": 2}}})
        };
        let take = |c: &mut Counted, v: &Value| {
            let o = v.as_object().unwrap();
            let m = o.get("message").and_then(Value::as_object);
            let id = |x: Option<&Value>| x.and_then(Value::as_str).map(|s| Id::Owned(s.as_bytes().to_vec()));
            c.take(claim(&o, m.as_ref(), None, content_listed(m)).unwrap(), id(m.and_then(|m| m.get("id"))).as_ref(), id(o.get("requestId")).as_ref())
        };
        let mut c = Counted::default();
        assert!(take(&mut c, &rec(json!([{"type": "text", "text": "a"}]))).is_some());
        assert!(take(&mut c, &rec(json!([{"type": "text", "text": "b"}]))).is_none(), "same message.id + requestId");
        let mut other_request = rec(json!([]));
        other_request["requestId"] = json!("r2");
        assert!(take(&mut c, &other_request).is_some(), "same message.id, another requestId");
        assert!(c.has(Some(&Id::Borrowed(b"m")), Some(&Id::Borrowed(b"r2"))) && !c.has(Some(&Id::Borrowed(b"m")), Some(&Id::Borrowed(b"r3"))));
        let mut c = Counted::default();
        assert!(take(&mut c, &rec(json!("a string"))).is_none(), "ccusage's schema wants a list of blocks");
        let mut c = Counted::default();
        let mut priced = rec(json!([]));
        priced["costUSD"] = json!(0.0123);
        let taken = take(&mut c, &priced).unwrap();
        assert_eq!(taken.cost.map(|c| c.total), Some(0.0123));
        assert!(take(&mut c, &priced).is_none(), "the repeat's cost is not counted again");
        priced["costUSD"] = json!("0.0123");
        assert!(take(&mut Counted::default(), &priced).is_none(), "ccusage's schema wants a number");
    }
}
