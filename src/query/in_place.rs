//! Free text searched where it is, in the source: no lower-cased copy of the
//! trace's text to build before the first query can answer.
//!
//! An event's search text ([`super::event_text`]) is pieces joined by `\n`:
//! content and reasoning texts, tool names, arguments. A needle of printable
//! ASCII without `"` or `\` (and no `\n`) cannot span a `\n`, and lowering a
//! text piece by piece lowers it as a whole does (`\n` ends the context of a
//! word-final `Σ`), so the event matches when one of its pieces does. A piece
//! is looked at as its bytes are ([`CiFinder`], ASCII case-insensitive):
//!
//! - A string literal without escapes, an owned string: its bytes are its
//!   text, and an ASCII match in the lower-cased text is one in the bytes
//!   with letters in either case, but for the two non-ASCII characters that
//!   lower to ASCII (`K` KELVIN SIGN to `k`, `İ` to `i` and a combining dot):
//!   a piece holding one, when the needle has a `k` or an `i`, is decoded and
//!   lowered instead.
//! - A literal with escapes: a match in the bytes counts unless it starts
//!   inside an escape (the needle has no `\`, so it cannot hold one). A
//!   needle's character can come from an escape only as `\uXXXX` (or `\/`):
//!   a piece without a match that holds such an escape of an ASCII character,
//!   `K` or `İ` (or `\/`, for a needle with `/`) is decoded and lowered.
//! - Tool-call arguments are searched as compact JSON written from their
//!   parse. Not parsing them is the point, so their bytes are only a
//!   prefilter: the needle's longest run of letters (two or more) must be in
//!   them (a run of letters is in a string, a key or a literal, and those
//!   are in the source as they are, escapes aside: arguments with a `\u`
//!   escape of an ASCII character, `K` or `İ` are written out), and only then
//!   are they written and searched exactly. Arguments the format parsed
//!   itself, and JSON content, are looked at the same way, token by token of
//!   their value as JSON writes it (a string with escapes: where a run of
//!   letters can start in an escape, `\tab`); when the needle is one run
//!   of letters, a token holding it is the needle found, and nothing is
//!   written.
//!
//! A marker's label is searched where it is. Everything else (spans,
//! key-value events whose value may hold the needle, unparsed records) is
//! written out as the index would, for that event only, and searched as an
//! owned string is. A needle outside that set is not searched in place.
//! `tests/query_in_place.rs` holds this to the index on texts built to
//! break it.

use memchr::memmem::Finder;

use crate::analysis::summary::{line_head_chars, KEY_VALUE_SHOWN};
use crate::json::string::decode_literal;
use crate::lazy_value::Unparsed;
use crate::model::{Arguments, Content, ContentPart, EventBody, LazyValue, Trace};
use crate::text::{RawText, Text};

use super::ci_find::{CiFinder, Found};
use super::index::event_text_into;

/// The letter an escape of `c` ends with when serde_json writes `c` in a
/// string (`\n` → `n`; `\u001b` → `b`), for a control character.
fn escape_lead(c: u8) -> Option<u8> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let lead = match c {
        b'\n' => b'n',
        b'\t' => b't',
        b'\r' => b'r',
        0x08 => b'b',
        0x0c => b'f',
        0..=0x1f => HEX.get(usize::from(c & 0xf)).copied()?,
        _ => return None,
    };
    lead.is_ascii_alphabetic().then_some(lead)
}

/// What a value written out holds of a run of letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hold {
    No,
    Maybe,
    Yes,
}

impl Hold {
    fn or(self, other: Hold) -> Hold {
        match (self, other) {
            (Hold::Yes, _) | (_, Hold::Yes) => Hold::Yes,
            (Hold::Maybe, _) | (_, Hold::Maybe) => Hold::Maybe,
            _ => Hold::No,
        }
    }
}

/// A needle the in-place search answers for exactly.
#[derive(Debug, Clone)]
pub(super) struct InPlace {
    finder: CiFinder,
    /// The needle, lower-cased, for the pieces that are written out.
    exact: Finder<'static>,
    /// The needle holds `k` or `i` (see the module's doc).
    ki: bool,
    /// The arguments' prefilter: the needle's longest run of letters.
    letters: Option<CiFinder>,
    /// That run's length (0 without one).
    run_len: usize,
    /// The needle is that run (letters only): a run found in a token of a
    /// value written out whole is the needle found.
    word: bool,
    /// The control characters whose escape ends with the run's first letter
    /// (at most three; repeated to fill), and a finder of the rest of the
    /// run, when there are any (see [`InPlace::escape_starts_run`]).
    escape_tail: Option<([u8; 3], CiFinder)>,
    /// What [`InPlace::search`] stops at besides the needle, in a literal
    /// with escapes and in text as it is.
    pairs_escaped: Vec<(u8, u8)>,
    pairs_plain: Vec<(u8, u8)>,
}

impl InPlace {
    /// The plan for `lower` (a lower-cased needle), or None when the needle
    /// is outside what the in-place search is exact for.
    pub(super) fn new(lower: &str) -> Option<InPlace> {
        let bytes = lower.as_bytes();
        if bytes.is_empty() || !bytes.iter().all(|b| (0x20..0x7f).contains(b) && *b != b'"' && *b != b'\\') {
            return None;
        }
        let letters = bytes
            .split(|b| !b.is_ascii_alphabetic())
            .max_by_key(|run| run.len())
            .filter(|run| run.len() >= 2)
            .map(CiFinder::new);
        let ki = bytes.iter().any(|b| matches!(b, b'k' | b'i'));
        // `K` is E2 84 AA, `İ` C4 B0: their first two bytes.
        let pairs_plain = if ki { vec![(0xE2, 0x84), (0xC4, 0xB0)] } else { Vec::new() };
        let mut pairs_escaped = vec![(b'\\', b'u')];
        if bytes.contains(&b'/') {
            pairs_escaped.push((b'\\', b'/'));
        }
        pairs_escaped.extend_from_slice(&pairs_plain);
        let word = bytes.len() >= 2 && bytes.iter().all(u8::is_ascii_alphabetic);
        let run = bytes.split(|b| !b.is_ascii_alphabetic()).max_by_key(|run| run.len()).filter(|run| run.len() >= 2);
        let escape_tail = run.and_then(|run| {
            let (first, rest) = run.split_first()?;
            let controls: Vec<u8> = (0..0x20u8).filter(|c| escape_lead(*c) == Some(*first)).collect();
            let control = |i: usize| controls.get(i).or(controls.first()).copied();
            Some(([control(0)?, control(1)?, control(2)?], CiFinder::new(rest)))
        });
        let run_len = run.map_or(0, <[u8]>::len);
        Some(InPlace { finder: CiFinder::new(bytes), exact: Finder::new(bytes).into_owned(), ki, letters, run_len, word, escape_tail, pairs_escaped, pairs_plain })
    }

    /// Whether event `i`'s search text, lower-cased, holds the needle.
    pub(super) fn event_matches(&self, trace: &Trace, i: usize) -> bool {
        let Some(e) = trace.events.get(i) else { return false };
        match &e.body {
            EventBody::Message(m) => {
                self.content(&m.content) || m.tool_calls.iter().any(|c| self.plain(&c.function) || self.arguments(&c.arguments))
            }
            EventBody::ToolCall(c) => self.plain(&c.function) || self.arguments(&c.arguments),
            EventBody::ToolResult(r) => {
                r.call.and_then(|c| trace.call(c)).is_some_and(|c| self.plain(&c.function)) || self.content(&r.content)
            }
            EventBody::ToolDefinitions(t) => t.iter().any(|t| self.plain(&t.name)),
            EventBody::Marker(m) => self.plain(&m.label),
            // Written as `key = value` (the value one line, cut): a run of the
            // needle's letters is in the key or the head of the value's JSON if anywhere.
            EventBody::KeyValue(kv) if self.letters.as_ref().is_some_and(|l| !self.str_may_hold(&kv.key, l) && !self.value_head_may_hold(&kv.value, l)) => false,
            _ => {
                let mut text = String::new();
                event_text_into(trace, i, &mut text);
                self.written(&text)
            }
        }
    }

    fn content(&self, c: &Content) -> bool {
        match c {
            Content::None => false,
            Content::Text(t) => self.text(t),
            Content::Parts(parts) => parts.iter().any(|p| match p {
                ContentPart::Text(t) | ContentPart::Reasoning(t) => self.text(t),
                _ => false,
            }),
            // Written whole (`{v}`) for the search: a word found in one of its tokens is found.
            // One left in the source is prefiltered on its bytes, as arguments are, and not kept parsed.
            Content::Json(v) => {
                let hold = match (self.letters.as_ref(), v.origin()) {
                    (None, _) => Hold::Maybe,
                    (Some(letters), Some(Unparsed::Json(bytes))) => self.json_holds(bytes, letters),
                    (Some(letters), _) => self.value_holds(v.get(), letters),
                };
                match hold {
                    Hold::No => false,
                    Hold::Yes if self.word => true,
                    _ => {
                        let mut text = String::new();
                        v.push_display(&mut text);
                        self.written(&text)
                    }
                }
            }
        }
    }

    fn text(&self, t: &Text) -> bool {
        match t.raw() {
            RawText::Owned(s) => self.plain(s),
            RawText::Source { bytes, escaped: false } => self.unescaped(bytes),
            RawText::Source { bytes, escaped: true } => self.escaped(bytes),
            RawText::Twice { bytes } => self.twice(t, bytes),
        }
    }

    fn plain(&self, s: &str) -> bool {
        self.unescaped(s.as_bytes())
    }

    /// Bytes that are their text (read lossily: a bad byte is U+FFFD, not ASCII).
    fn unescaped(&self, bytes: &[u8]) -> bool {
        self.search(bytes, false)
    }

    /// A string literal's contents with escapes.
    fn escaped(&self, bytes: &[u8]) -> bool {
        self.search(bytes, true)
    }

    /// Whether the pair at `at` (one [`InPlace::search`] stops at) can hide
    /// the needle from a search of the bytes: a `\u` escape of an ASCII
    /// character (or `K`, `İ`), a `\/`, or the UTF-8 of `K` or `İ`.
    fn hides_needle(&self, bytes: &[u8], at: usize) -> bool {
        match bytes.get(at..) {
            Some([b'\\', b'u', ..]) => ascii_escape_at(bytes, at, self.ki),
            Some([b'\\', b'/', ..]) => true,
            Some(rest) => matches!(rest, [0xE2, 0x84, 0xAA, ..] | [0xC4, 0xB0, ..]),
            None => false,
        }
    }

    /// One pass over a piece's bytes for the needle and what could hide it
    /// from a search of the bytes (`\u` and `\/` escapes, `K`, `İ`); a piece
    /// with one of those that could make the needle is decoded instead.
    fn search(&self, bytes: &[u8], escaped: bool) -> bool {
        let pairs = if escaped { &self.pairs_escaped[..] } else { &self.pairs_plain[..] };
        let mut from = 0;
        while let Some(found) = self.finder.find_or_pair(bytes, from, pairs, |b, at| self.hides_needle(b, at)) {
            match found {
                Found::Needle(at) if escaped && inside_escape(bytes, at) => from = at + 1,
                Found::Needle(_) => return true,
                Found::Pair(_) => return self.lowered(&decode_literal(bytes, escaped)),
            }
        }
        false
    }

    /// A string member of a JSON document in a string, escaped twice: as
    /// [`InPlace::search`] with escapes, but a match must start outside the
    /// escapes of both strings (an inner escape is `\\` in the bytes, so a
    /// run of 4k + 2 backslashes before a byte starts one). What could hide
    /// the needle (a `\u` or `\/` of either string, `K`, `İ`) is found in
    /// the bytes as well: the text is then decoded (twice) and lowered.
    fn twice(&self, t: &Text, bytes: &[u8]) -> bool {
        let mut from = 0;
        while let Some(found) = self.finder.find_or_pair(bytes, from, &self.pairs_escaped, |b, at| self.hides_needle(b, at)) {
            match found {
                Found::Needle(at) if inside_escape(bytes, at) || inside_inner_escape(bytes, at) => from = at + 1,
                Found::Needle(_) => return true,
                Found::Pair(_) => return self.lowered(&t.decoded()),
            }
        }
        false
    }

    fn arguments(&self, a: &Arguments) -> bool {
        let raw = match (&a.value, &a.text) {
            (Some(v), _) => v.origin(),
            (None, Some(t)) => return self.text(t),
            (None, None) => return false,
        };
        let bytes = match raw {
            Some(Unparsed::Json(bytes)) => bytes,
            Some(Unparsed::EncodedIn(t)) => match t.raw() {
                RawText::Owned(s) => s.as_bytes(),
                RawText::Source { bytes, .. } | RawText::Twice { bytes } => bytes,
            },
            None => &[],
        };
        let maybe = match (&self.letters, raw, &a.value) {
            (Some(letters), Some(Unparsed::Json(bytes)), _) => match self.json_holds(bytes, letters) {
                Hold::Yes if self.word => return true,
                hold => hold != Hold::No,
            },
            (Some(letters), Some(_), _) => {
                letters.find_at(bytes, 0).is_some() || ascii_escape(bytes, self.ki) || (self.ki && lowers_to_ascii(bytes))
            }
            (Some(letters), None, Some(v)) => match self.value_holds(v.get(), letters) {
                Hold::Yes if self.word => return true,
                hold => hold != Hold::No,
            },
            _ => true,
        };
        maybe && {
            let mut text = String::new();
            a.push_display(&mut text);
            self.written(&text)
        }
    }

    /// Whether a JSON value of the source, written out as compact JSON,
    /// holds `letters`. A run of letters found in its bytes outside an escape
    /// is written as it stands (it holds no `\`, and serde_json escapes no
    /// letter) unless an object of the value repeats a key, whose earlier
    /// values the parse drops: so it holds them when no key repeats (a walk
    /// of the bytes, far cheaper than the parse and writing that a `Maybe`
    /// costs, which was most of AgentLens's first query). A run found only
    /// inside escapes, or a character that could hide one, may hold them.
    fn json_holds(&self, bytes: &[u8], letters: &CiFinder) -> Hold {
        let mut from = 0;
        let mut in_escape = false;
        while let Some(at) = letters.find_at(bytes, from) {
            if !inside_escape(bytes, at) {
                let (_, repeated) = crate::dupkeys::find(bytes, 0..bytes.len(), 0);
                return if repeated == 0 { Hold::Yes } else { Hold::Maybe };
            }
            in_escape = true;
            from = at + 1;
        }
        if in_escape || ascii_escape(bytes, self.ki) || (self.ki && lowers_to_ascii(bytes)) {
            Hold::Maybe
        } else {
            Hold::No
        }
    }

    /// [`InPlace::head_may_hold`] of a key-value event's value. One left in
    /// the source is looked at in its bytes, not parsed: a run of letters
    /// its JSON writes is in them as it stands unless an escape makes it
    /// (a `\u` escape of an ASCII letter, `K`, `İ`), and only what the
    /// bytes hold can be in the head.
    fn value_head_may_hold(&self, v: &LazyValue, letters: &CiFinder) -> bool {
        match (v.parsed(), v.origin()) {
            (Some(parsed), _) => self.head_may_hold(parsed, letters),
            (None, Some(Unparsed::Json(bytes))) => {
                letters.find_at(bytes, 0).is_some() || ascii_escape(bytes, self.ki) || (self.ki && lowers_to_ascii(bytes))
            }
            (None, _) => v.read(|parsed| self.head_may_hold(parsed, letters)),
        }
    }

    /// Whether the head of `v`'s compact JSON that a key-value event's line
    /// reads ([`line_head_chars`]) may hold `letters`. A value can be
    /// megabytes (a tool's whole output, mirrored): walking all of it to
    /// spare writing its head was most of a first query on Gemini CLI
    /// sessions.
    fn head_may_hold(&self, v: &serde_json::Value, letters: &CiFinder) -> bool {
        let mut room = line_head_chars(KEY_VALUE_SHOWN);
        self.head_holds(v, letters, &mut room) != Hold::No
    }

    /// [`InPlace::value_holds`] for what of `v` starts within `room`
    /// characters of its JSON. A token's JSON is at least as long as its
    /// text (escapes only lengthen it), so what starts past `room`
    /// characters of the tokens' texts and punctuation starts past `room`
    /// characters of the JSON too; a string is searched that far, and as far
    /// as a run of letters from there can reach.
    fn head_holds(&self, v: &serde_json::Value, letters: &CiFinder, room: &mut usize) -> Hold {
        use serde_json::Value;
        if *room == 0 {
            return Hold::No;
        }
        let token = |s: &str, room: &mut usize| {
            // The string's characters, up to the room, and the byte they end at.
            let bytes = s.as_bytes();
            let (chars, cut) = match bytes.get(..*room) {
                None => (s.chars().count(), bytes.len()),
                Some(head) if head.is_ascii() => (*room, *room),
                Some(_) => s.char_indices().nth(*room).map_or_else(|| (s.chars().count(), bytes.len()), |(i, _)| (*room, i)),
            };
            *room = room.saturating_sub(chars + 2);
            // A run of letters is as many bytes at least (one from an
            // escape's letter stands for a control character).
            if bytes.len() < self.run_len {
                return Hold::No;
            }
            // A run starting within the room spans at most 4 bytes a letter of the text.
            self.bytes_hold(bytes.get(..cut.saturating_add(4 * self.run_len + 4)).unwrap_or(bytes), letters)
        };
        match v {
            Value::Null => token("null", room),
            Value::Bool(b) => token(if *b { "true" } else { "false" }, room),
            // Its text as read (`NaN`, `Infinity` too, from a lax source).
            Value::Number(n) => token(n.as_str(), room),
            Value::String(s) => token(s, room),
            Value::Array(items) => {
                let mut h = Hold::No;
                for x in items {
                    *room = room.saturating_sub(1);
                    h = h.or(self.head_holds(x, letters, room));
                    if h == Hold::Yes || *room == 0 {
                        break;
                    }
                }
                h
            }
            Value::Object(map) => {
                let mut h = Hold::No;
                for (k, x) in map {
                    *room = room.saturating_sub(1);
                    h = h.or(token(k, room)).or(self.head_holds(x, letters, room));
                    if h == Hold::Yes || *room == 0 {
                        break;
                    }
                }
                h
            }
        }
    }

    /// Whether `v`, written as compact JSON, holds `letters` (in one of its
    /// tokens, as written), may (a character that lowers to ASCII), or not.
    fn value_holds(&self, v: &serde_json::Value, letters: &CiFinder) -> Hold {
        use serde_json::Value;
        match v {
            Value::Null => self.str_holds("null", letters),
            Value::Bool(b) => self.str_holds(if *b { "true" } else { "false" }, letters),
            Value::Number(n) => self.str_holds(n.as_str(), letters),
            Value::String(s) => self.str_holds(s, letters),
            Value::Array(items) => items.iter().fold(Hold::No, |h, x| if h == Hold::Yes { h } else { h.or(self.value_holds(x, letters)) }),
            Value::Object(map) => map.iter().fold(Hold::No, |h, (k, x)| {
                if h == Hold::Yes {
                    h
                } else {
                    h.or(self.str_holds(k, letters)).or(self.value_holds(x, letters))
                }
            }),
        }
    }

    /// Whether, in `s` written as a JSON string, the needle's run of letters
    /// starts in an escape. `s` itself was searched already, and an escape
    /// begins with `\`: a run the writing makes starts at the escape's last
    /// character when that is a letter ([`escape_lead`]) and goes on with the
    /// letters after the escaped character, so the run is found there when
    /// its rest follows a control character whose escape ends with its first.
    /// Control characters are rare in text: they are looked for, and the
    /// rest of the run after each.
    fn escape_starts_run(&self, s: &[u8]) -> bool {
        let Some(([a, b, c], rest)) = &self.escape_tail else { return false };
        memchr::memchr3_iter(*a, *b, *c, s).any(|at| rest.is_at(s, at + 1))
    }

    /// Whether `s`, written as it is or as a JSON string, may hold `letters`.
    fn str_may_hold(&self, s: &str, letters: &CiFinder) -> bool {
        self.str_holds(s, letters) != Hold::No
    }

    /// Whether `s`, written as it is or as a JSON string, holds `letters`.
    /// A run of letters stays a run when JSON escapes the string, and an
    /// escape's letter can start one (`\nback`): a string with a character
    /// JSON escapes is looked at as JSON writes it too (taking every such
    /// string for a maybe wrote out nearly every tool output). `K` and `İ`
    /// lower to ASCII letters: a string with one may hold them.
    fn str_holds(&self, s: &str, letters: &CiFinder) -> Hold {
        self.bytes_hold(s.as_bytes(), letters)
    }

    /// [`InPlace::str_holds`] of a string's bytes (or a prefix of them).
    fn bytes_hold(&self, s: &[u8], letters: &CiFinder) -> Hold {
        if letters.find_at(s, 0).is_some() {
            return Hold::Yes;
        }
        if self.escape_starts_run(s) {
            return Hold::Yes;
        }
        if self.ki && lowers_to_ascii(s) {
            return Hold::Maybe;
        }
        Hold::No
    }

    /// The exact test on text written out (an event's text, arguments as
    /// JSON): searched as an owned string is, its bytes in either case
    /// (lowering the whole of it first was most of a first query on a trace
    /// of markers: AgentLens, 10 MB, 790M instructions of which 550M).
    fn written(&self, text: &str) -> bool {
        self.search(text.as_bytes(), false)
    }

    /// The test on a decoded piece that may hide the needle: lower-cased,
    /// then searched.
    fn lowered(&self, text: &str) -> bool {
        self.exact.find(text.to_lowercase().as_bytes()).is_some()
    }
}

/// Whether `bytes` hold `K` (U+212A) or `İ` (U+0130): the non-ASCII
/// characters whose lower case holds ASCII.
fn lowers_to_ascii(bytes: &[u8]) -> bool {
    // One pass for both first bytes (E2 84 AA, C4 B0).
    memchr::memchr2_iter(0xE2, 0xC4, bytes).any(|at| matches!(bytes.get(at..), Some([0xE2, 0x84, 0xAA, ..] | [0xC4, 0xB0, ..])))
}

/// Whether the literal's contents hold a `\uXXXX` escape of a printable ASCII
/// character, or (`ki`) of `K` or `İ`. Conservative: `\\u` (an escaped
/// backslash, then `u`) counts too.
fn ascii_escape(bytes: &[u8], ki: bool) -> bool {
    memchr::memmem::find_iter(bytes, b"\\u").any(|at| ascii_escape_at(bytes, at, ki))
}

/// [`ascii_escape`] for the `\u` at `at`.
fn ascii_escape_at(bytes: &[u8], at: usize, ki: bool) -> bool {
    let code = bytes.get(at + 2..at + 6).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u32::from_str_radix(h, 16).ok());
    match code {
        Some(c) => c < 0x80 || (ki && (c == 0x212A || c == 0x130)),
        None => true,
    }
}

/// Whether position `at` of a literal's contents is inside an escape: the
/// character after a `\`, or a hex digit of a `\uXXXX`.
fn inside_escape(bytes: &[u8], at: usize) -> bool {
    let escaped_at = |p: usize| bytes.get(..p).is_some_and(|before| before.iter().rev().take_while(|b| **b == b'\\').count() % 2 == 1);
    escaped_at(at) || (1..=4).any(|d| at > d && bytes.get(at - d) == Some(&b'u') && escaped_at(at - d))
}

/// Whether position `at` of a twice-escaped string's contents is inside an
/// escape of the inner string: its letter after `\\` (an odd number of
/// inner backslashes, each written `\\`), or a hex digit of its `\\uXXXX`.
fn inside_inner_escape(bytes: &[u8], at: usize) -> bool {
    let inner_escaped_at = |p: usize| bytes.get(..p).is_some_and(|before| before.iter().rev().take_while(|b| **b == b'\\').count() % 4 == 2);
    inner_escaped_at(at) || (1..=4).any(|d| at > d && bytes.get(at - d) == Some(&b'u') && inner_escaped_at(at - d))
}

#[cfg(test)]
mod tests {
    use super::{inside_escape, inside_inner_escape, InPlace};

    /// Each thing that hides a needle from a search of the bytes, in a piece
    /// alone (through a trace, a format may have decoded the string).
    #[test]
    fn what_hides_a_needle_is_decoded() {
        let q = |needle: &str| InPlace::new(needle).unwrap();
        assert!(q("src/query").escaped(br"a src\/query"));
        assert!(!q("src/query").escaped(br"a src\\/query"));
        assert!(q("back2").unescaped("bac\u{212A}2".as_bytes()));
        assert!(q("back2").escaped("x\\nbac\u{212A}2".as_bytes()));
        assert!(q("back2").escaped(br"x\nbac\u212A2"));
        assert!(q("xi").unescaped("x\u{130}".as_bytes()));
        assert!(q("xi").escaped(br"\nx\u0130"));
        assert!(q("trace").escaped(br"\ntr\u0061ce"));
        assert!(!q("trace").escaped(br"\ntr\u00e1ce"));
        assert!(!q("nab").escaped(br"a\nab"), "the n of \\n");
        assert!(q("nab").escaped(br"a\\nab"), "an escaped backslash, then nab");
        assert!(!q("u0041").escaped(br"\u0041"));
    }

    #[test]
    fn positions_inside_inner_escapes() {
        let b = br#"a\\nb\\\\nc\\u0041d\nx"#;
        let inside: Vec<usize> = (0..b.len()).filter(|&i| inside_inner_escape(b, i)).collect();
        // The n after `\\` (and the escaped `\\` of `\\\\`), not the n after it; the u and hex digits of `\\u0041`; not the n of `\n`.
        assert_eq!(inside, vec![3, 7, 13, 14, 15, 16, 17]);
    }

    #[test]
    fn positions_inside_escapes() {
        let b = br#"a\nb\\nc\u0041d"#;
        let inside: Vec<usize> = (0..b.len()).filter(|&i| inside_escape(b, i)).collect();
        // `n` after `\`; the second `\` of `\\`; u0041's `u` and hex digits.
        assert_eq!(inside, vec![2, 5, 9, 10, 11, 12, 13]);
    }

    /// The non-ASCII characters whose lower case holds ASCII are the two the
    /// search looks for.
    #[test]
    fn only_kelvin_and_dotted_i_lower_to_ascii() {
        let found: Vec<char> = (0x80..=0x10FFFFu32).filter_map(char::from_u32).filter(|c| c.to_lowercase().any(|l| l.is_ascii())).collect();
        assert_eq!(found, vec!['\u{130}', '\u{212A}']);
    }
}
