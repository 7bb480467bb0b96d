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
use crate::json::ends::EndsCursor;
use crate::json::fields::Fields;
use crate::json::read::{self, Kind};
use crate::json::scan::skip_ws;
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
pub fn event(s: &Bytes<'_, '_>, payload: Range<usize>, at: &EndsCursor<'_>, scratch: &mut Scratch) -> Option<FastEvent> {
    let b = s.b;
    let mut p = std::mem::take(&mut scratch.payload);
    let read = (|| {
        read::members_at(b, payload.start, &mut at.clone(), &mut p)?;
        let f = Fields::find(b, &p, [b"type", b"info", b"model", b"metadata", b"message", b"text"])?;
        let kind = s.plain(f.get(&p, 0))?;
        if kind == b"token_count" {
            // A model named in the payload: the exact path reads it.
            if f.get(&p, 2).is_some() || f.get(&p, 3).is_some() {
                return None;
            }
            let info = match f.get(&p, 1) {
                None => Some((None, None)),
                Some(i) if i.kind == Kind::Object => Some(info(s, i.value.start)?),
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

/// An `info` object's usage objects; `None` when it names a model, a key
/// is escaped, a key read repeats or a count is not a plain whole number.
///
/// One walk over the bytes: a usage object is read where it stands, and its
/// end found by reading it (walking `info` with [`read::members`] scanned
/// each usage object once for its end and once more for its counts: 13.6M
/// of a token count's 17M instructions, callgrind on the kit's 10 MB
/// rollout). Every member is still walked, so a key repeated late refuses
/// as [`Fields::find`] does.
fn info(s: &Bytes<'_, '_>, open: usize) -> Option<(Option<Raw>, Option<Raw>)> {
    // `[last, total]`: `Some(None)` when there but not an object.
    let mut got: [Option<Option<Raw>>; 2] = [None, None];
    walk(s, open, |key, start, kind| {
        let k = match key {
            b"last_token_usage" => 0,
            b"total_token_usage" => 1,
            // A model named in `info`: the exact path reads it.
            b"model" | b"model_name" | b"metadata" => return None,
            _ => return Some(None),
        };
        let slot = got.get_mut(k)?;
        if slot.is_some() {
            return None;
        }
        if kind != Kind::Object {
            *slot = Some(None);
            return Some(None);
        }
        let (raw, end) = usage(s, start)?;
        *slot = Some(Some(raw));
        Some(Some(end))
    })?;
    let [last, total] = got;
    Some((last.flatten(), total.flatten()))
}

/// The `TokenUsage` object at `open`: its counts (input, cached, output,
/// reasoning, total, then ccusage's fallback for the cached count) as
/// `usage::raw` reads them, and the offset past its `}`; `None` for an escaped key, a repeated
/// count or a count that is not a plain whole number (the exact path
/// reports it).
fn usage(s: &Bytes<'_, '_>, open: usize) -> Option<(Raw, usize)> {
    if let Some(read) = usage_as_written(s.b, open) {
        return Some(read);
    }
    let mut found: [Option<(usize, usize, Kind)>; 6] = [None; 6];
    let end = walk(s, open, |key, start, kind| {
        let k = match key {
            b"input_tokens" => 0,
            b"cached_input_tokens" => 1,
            b"output_tokens" => 2,
            b"reasoning_output_tokens" => 3,
            b"total_tokens" => 4,
            b"cache_read_input_tokens" => 5,
            _ => return Some(None),
        };
        let slot = found.get_mut(k)?;
        if slot.is_some() {
            return None;
        }
        let end = value_end(s, start, kind)?;
        *slot = Some((start, end, kind));
        Some(Some(end))
    })?;
    let count = |k: usize| -> Option<Option<u64>> {
        match found.get(k).copied().flatten() {
            None | Some((_, _, Kind::Null)) => Some(None),
            Some((start, end, _)) => whole(s.b.get(start..end)?).map(Some),
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
    Some((Raw::from_counts(n), end))
}

/// The counts of a `TokenUsage` as Codex writes it, in [`usage`]'s order.
const USAGE_AS_WRITTEN: [&[u8]; 5] = [b"input_tokens", b"cached_input_tokens", b"output_tokens", b"reasoning_output_tokens", b"total_tokens"];

/// [`usage`] of the object at `open` when it is exactly
/// `{"input_tokens":N,"cached_input_tokens":N,"output_tokens":N,"reasoning_output_tokens":N,"total_tokens":N}`,
/// as Codex writes it, each `N` digits only (at most 19); else `None` (walk
/// it). With those keys, plain, in that order and each once, the walk reads
/// the same counts; here each key is compared where it must stand and its
/// digits summed as they are passed (the walk cost ~1,700 instructions a
/// usage object, callgrind on the kit's 10 MB rollout).
fn usage_as_written(b: &[u8], open: usize) -> Option<(Raw, usize)> {
    let mut n = [0u64; 5];
    let mut i = open;
    for (k, (slot, key)) in n.iter_mut().zip(USAGE_AS_WRITTEN).enumerate() {
        let before = if k == 0 { b'{' } else { b',' };
        // `"key":` right after the `{` or `,`.
        let key_at = i + 2;
        if b.get(i) != Some(&before) || b.get(i + 1) != Some(&b'"') || b.get(key_at..key_at + key.len())? != key {
            return None;
        }
        let start = key_at + key.len() + 2;
        if b.get(key_at + key.len()..start)? != br#"":"# {
            return None;
        }
        let digits = b.get(start..)?.iter().position(|c| !c.is_ascii_digit())?;
        *slot = whole(b.get(start..start + digits)?)?;
        i = start + digits;
    }
    (b.get(i) == Some(&b'}')).then(|| (Raw::from_counts(n), i + 1))
}

/// Walks the members of the validated object at `open` as
/// [`read::members`] does, without keeping them: `each` gets a member's key
/// (its raw bytes: an escaped key refuses, as [`Fields::find`] does), the
/// start and kind of its value, and gives the value's end when it read the
/// value itself (`Some(None)`: skip it; `None`: refuse). Returns the offset
/// past the object's `}`.
fn walk(s: &Bytes<'_, '_>, open: usize, mut each: impl FnMut(&[u8], usize, Kind) -> Option<Option<usize>>) -> Option<usize> {
    let b = s.b;
    if b.get(open) != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b'}') {
        return Some(i + 1);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (key_end, escaped) = read::string_end(b, i)?;
        if escaped {
            return None;
        }
        let key = b.get(i + 1..key_end.checked_sub(1)?)?;
        let colon = skip_ws(b, key_end);
        if b.get(colon) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, colon + 1);
        let kind = Kind::of(*b.get(start)?);
        let end = match each(key, start, kind)? {
            Some(end) => end,
            None => value_end(s, start, kind)?,
        };
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The end of the value of `kind` starting at `start`: a number or a
/// literal up to the next delimiter, here (the table of ends is searched
/// only for a string or a container, as [`read::value_end`] does).
pub(super) fn value_end(s: &Bytes<'_, '_>, start: usize, kind: Kind) -> Option<usize> {
    match kind {
        Kind::Number | Kind::Bool | Kind::Null => {
            let rest = s.b.get(start..)?;
            let len = rest.iter().position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')).unwrap_or(rest.len());
            Some(start + len)
        }
        _ => read::value_end(s.b, start, s.ends),
    }
}

/// A JSON number that is a plain whole number (digits only, as `as_u64`
/// reads it: no sign, fraction or exponent) fitting 64 bits.
fn whole(token: &[u8]) -> Option<u64> {
    if token.is_empty() || token.len() > 19 {
        return None;
    }
    // At most 19 digits: no overflow.
    token.iter().try_fold(0u64, |n, c| c.is_ascii_digit().then(|| n * 10 + u64::from(c - b'0')))
}
