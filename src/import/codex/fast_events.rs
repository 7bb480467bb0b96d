//! The Codex fast path for `event_msg` lines: `token_count` and the events
//! that may mirror a response item, read from the bytes.
//!
//! Both become key-value events whose value is the whole payload (the
//! `token_count`s, a mirrored turn): parsed into `serde_json::Value`s they
//! were a third of the events' memory and most of the parse's tree
//! building. Here the payload stays in the source ([`crate::model::LazyValue`])
//! and only what placing needs is read: a `token_count`'s counts (plain
//! whole numbers), a mirror's text. Anything else (a count that is not a
//! plain whole number, a model named in the payload, a text that is not a
//! string, an escaped or repeated key among those read) is left to the
//! exact path ([`super::events`]). tests/fast_paths/codex.rs holds both
//! paths to the same model.

use std::ops::Range;

use super::fast::{Bytes, Scratch};
use super::usage::Raw;
use crate::json::fields::Fields;
use crate::json::read::{self, Kind, Member};
use crate::text::Text;

/// An `event_msg` read fast.
pub enum FastEvent {
    /// A `token_count`: its payload, and its `info` read as
    /// [`super::usage::Tally::add`] takes it (`None`: `info` is there but
    /// not an object, which counts nothing).
    TokenCount { payload: Range<usize>, info: Option<(Option<Raw>, Option<Raw>)> },
    /// An event that may mirror a response item ([`super::events`]'s
    /// `mirrored`): its `type`, payload and text.
    Mirror { kind: &'static str, payload: Range<usize>, text: Text },
}

/// The kinds of event that may mirror an item, and the field of their text.
const MIRRORS: [(&str, &[u8]); 4] =
    [("user_message", b"message"), ("agent_message", b"message"), ("agent_reasoning", b"text"), ("agent_reasoning_raw_content", b"text")];

/// The `event_msg` payload at `payload` read fast, or `None` (the exact
/// path reads it).
pub fn event(s: &Bytes<'_, '_>, payload: Range<usize>, scratch: &mut Scratch) -> Option<FastEvent> {
    let b = s.b;
    let mut p = std::mem::take(&mut scratch.payload);
    let read = (|| {
        read::members(b, payload.start, s.ends, &mut p)?;
        let f = Fields::find(b, &p, [b"type", b"info", b"model", b"metadata", b"message", b"text"])?;
        let kind = s.plain(f.get(&p, 0))?;
        if kind == b"token_count" {
            // A model named in the payload: the exact path reads it.
            if f.get(&p, 2).is_some() || f.get(&p, 3).is_some() {
                return None;
            }
            let info = match f.get(&p, 1) {
                None => Some((None, None)),
                Some(i) if i.kind == Kind::Object => Some(info(s, i.value.start, scratch)?),
                Some(_) => None,
            };
            return Some(FastEvent::TokenCount { payload: payload.clone(), info });
        }
        let (kind, field) = MIRRORS.iter().find(|(k, _)| k.as_bytes() == kind)?;
        let text = f.get(&p, if *field == b"message" { 4 } else { 5 }).filter(|t| t.kind == Kind::String)?;
        Some(FastEvent::Mirror { kind, payload: payload.clone(), text: s.out.text(text.inner(), text.escaped) })
    })();
    scratch.payload = p;
    read
}

/// An `info` object's usage objects; `None` when it names a model or a
/// count is not a plain whole number.
fn info(s: &Bytes<'_, '_>, open: usize, scratch: &mut Scratch) -> Option<(Option<Raw>, Option<Raw>)> {
    let mut m = std::mem::take(&mut scratch.part);
    let read = (|| {
        read::members(s.b, open, s.ends, &mut m)?;
        let f = Fields::find(s.b, &m, [b"last_token_usage", b"total_token_usage", b"model", b"model_name", b"metadata"])?;
        if (2..5).any(|k| f.get(&m, k).is_some()) {
            return None;
        }
        Some((usage(s, f.get(&m, 0), scratch)?, usage(s, f.get(&m, 1), scratch)?))
    })();
    scratch.part = m;
    read
}

/// A `TokenUsage` object's counts as `usage::raw` reads them (`Some(None)`
/// when it is absent or not an object); `None` for a count that is not a
/// plain whole number (the exact path reports it).
fn usage(s: &Bytes<'_, '_>, m: Option<&Member>, scratch: &mut Scratch) -> Option<Option<Raw>> {
    let Some(o) = m.filter(|m| m.kind == Kind::Object) else { return Some(None) };
    read::members(s.b, o.value.start, s.ends, &mut scratch.usage)?;
    let u = &scratch.usage;
    let f = Fields::find(s.b, u, [b"input_tokens", b"cached_input_tokens", b"output_tokens", b"reasoning_output_tokens", b"total_tokens", b"cache_read_input_tokens"])?;
    let count = |k: usize| -> Option<Option<u64>> {
        match f.get(u, k) {
            None => Some(None),
            Some(c) if c.kind == Kind::Null => Some(None),
            Some(c) => whole(s.b.get(c.value.clone())?).map(Some),
        }
    };
    let mut n = [0u64; 5];
    for (k, slot) in n.iter_mut().enumerate() {
        // ccusage reads `cache_read_input_tokens` when the cached count is absent or null.
        let c = match count(k)? {
            None if k == 1 => count(5)?,
            c => c,
        };
        *slot = c.unwrap_or(0);
    }
    Some(Some(Raw::from_counts(n)))
}

/// A JSON number that is a plain whole number (digits only, as `as_u64`
/// reads it: no sign, fraction or exponent) fitting 64 bits.
fn whole(token: &[u8]) -> Option<u64> {
    if token.is_empty() || token.len() > 19 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}
