//! Tool answers re-sent in a later chat span's input, built from the tool
//! span's result instead of parsed again. After a tool span, the next chat
//! call re-sends its answer as an input item
//! `{"role":"tool","parts":[{"type":"tool_call_response","id":…,"response":…}]}`
//! whose `response` literal is, byte for byte, the literal of the span's
//! `gen_ai.tool.call.result` in the source: parsing those items into
//! `Value`s was 8% of an otel parse on the kit's file (a tool's whole
//! output each), for a text the reader had already found.
//!
//! Only an item written exactly so (these members, in this order, no
//! space, an id without escapes) whose `response` bytes are the result's
//! is built here; anything else is parsed as before. The result's bytes
//! are a string literal's contents as the source's scanner found them (no
//! unescaped quote, no trailing lone backslash), so the same bytes between
//! the item's quotes are one literal, the item's last member: the item
//! holds nothing else. The caller reads items only from text its scanner
//! found hazard-free (no lone surrogate), which serde_json decodes as
//! [`Text::decoded`] does.

use crate::import::lookup::Lookup;

use serde_json::{Map, Value};

use super::input_tail::same_bytes;
use super::unescape::backslashes64;
use crate::text::{RawText, Text};

/// The bytes before a re-sent answer's call id, and between it and its
/// response text, and after that.
const BEFORE_ID: &[u8] = BEFORE_ID_TEXT.as_bytes();
const BEFORE_RESPONSE: &[u8] = BEFORE_RESPONSE_TEXT.as_bytes();
const AFTER_RESPONSE: &[u8] = AFTER_RESPONSE_TEXT.as_bytes();

/// The results of a run's tool spans left in the source, by call id.
#[derive(Default)]
pub struct ToolAnswers<'s> {
    by_call: Lookup<String, &'s Text>,
}

impl<'s> ToolAnswers<'s> {
    /// Notes the result of the tool span whose call id is `call_id` (the
    /// last span of an id wins: any is right, the bytes are compared).
    pub fn add(&mut self, call_id: &str, result: &'s Text) {
        if let RawText::Source { .. } = result.raw() {
            self.by_call.insert(call_id.to_string(), result);
        }
    }

    /// The value the input item `item` parses to, when it is a re-sent
    /// answer written as the module says, whose response is a noted
    /// result's bytes; `None`: parse it.
    pub fn value_of(&self, item: &[u8]) -> Option<Value> {
        if self.by_call.is_empty() {
            return None;
        }
        let rest = item.strip_prefix(BEFORE_ID)?;
        let id_len = memchr::memchr(b'"', rest)?;
        let id = rest.get(..id_len)?;
        if memchr::memchr(b'\\', id).is_some() {
            return None; // its text is not its bytes
        }
        let response = rest.get(id_len..)?.strip_prefix(BEFORE_RESPONSE)?.strip_suffix(AFTER_RESPONSE)?;
        let id = std::str::from_utf8(id).ok()?;
        let result = self.by_call.get(id)?;
        let RawText::Source { bytes, .. } = result.raw() else { return None };
        if !same_bytes(bytes, response) {
            return None;
        }
        let mut part = Map::with_capacity(3);
        part.insert("type".to_string(), Value::String("tool_call_response".to_string()));
        part.insert("id".to_string(), Value::String(id.to_string()));
        part.insert("response".to_string(), Value::String(super::unescape::text_decoded(result).into_owned()));
        let mut message = Map::with_capacity(2);
        message.insert("role".to_string(), Value::String("tool".to_string()));
        message.insert("parts".to_string(), Value::Array(vec![Value::Object(part)]));
        Some(Value::Object(message))
    }

    /// When the escaped contents of a chat span's input literal, `raw`,
    /// start with a re-sent answer written as the module says, inside that
    /// literal (each backslash and quote of the item escaped once more),
    /// whose response is a noted result's bytes: the item's length in
    /// `raw`, its decoded text appended to `text` (copied from the result,
    /// not decoded). Matching here, before the input's new items are
    /// decoded and scanned, spares both for a tool's whole output.
    ///
    /// The result's escapes are checked as the scan would (a known escape,
    /// `\u` with four hex digits, no surrogate): the item needs no scan.
    /// `text` is left as it was when `None`.
    pub fn resent_in_literal(&self, raw: &[u8], text: &mut String) -> Option<usize> {
        if self.by_call.is_empty() {
            return None;
        }
        let rest = raw.strip_prefix(BEFORE_ID_IN_LITERAL)?;
        // The id ends at the backslash of its closing `\"`; no escape in it.
        let id_len = memchr::memchr2(b'\\', b'"', rest)?;
        let id = std::str::from_utf8(rest.get(..id_len)?).ok()?;
        let response = rest.get(id_len..)?.strip_prefix(BEFORE_RESPONSE_IN_LITERAL)?;
        let result = self.by_call.get(id)?;
        let RawText::Source { bytes, .. } = result.raw() else { return None };
        let response_len = escaped_once_more(bytes, response)?;
        response.get(response_len..)?.starts_with(AFTER_RESPONSE_IN_LITERAL).then_some(())?;
        let result_text = simdutf8::basic::from_utf8(bytes).ok()?;
        text.reserve(BEFORE_ID.len() + id.len() + BEFORE_RESPONSE.len() + bytes.len() + AFTER_RESPONSE.len());
        // The wrapper is ASCII: its bytes are its text.
        for part in [BEFORE_ID_TEXT, id, BEFORE_RESPONSE_TEXT, result_text, AFTER_RESPONSE_TEXT] {
            text.push_str(part);
        }
        Some(BEFORE_ID_IN_LITERAL.len() + id_len + BEFORE_RESPONSE_IN_LITERAL.len() + response_len + AFTER_RESPONSE_IN_LITERAL.len())
    }
}

/// The three pieces of a re-sent answer around its id and response, as
/// text, and as a string literal's contents write them.
const BEFORE_ID_TEXT: &str = r#"{"role":"tool","parts":[{"type":"tool_call_response","id":""#;
const BEFORE_RESPONSE_TEXT: &str = r#"","response":""#;
const AFTER_RESPONSE_TEXT: &str = r#""}]}"#;
const BEFORE_ID_IN_LITERAL: &[u8] = br#"{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\""#;
const BEFORE_RESPONSE_IN_LITERAL: &[u8] = br#"\",\"response\":\""#;
const AFTER_RESPONSE_IN_LITERAL: &[u8] = br#"\"}]}"#;

/// How many bytes of `raw` the literal contents `result` take when escaped
/// once more (a backslash as `\\`, a quote as `\"`, all else as it is),
/// if `raw` starts with them; `None` also for an escape of `result` the
/// scan would refuse or note as a hazard (any `\u` of a surrogate).
///
/// The result's backslashes are found 64 bytes at a time (a bit mask per
/// window) and the runs between them compared by words: a `memchr` call
/// and a byte-by-byte `bcmp` per escape (one every dozen bytes) were a
/// twentieth of an otel parse in wasm.
fn escaped_once_more(result: &[u8], raw: &[u8]) -> Option<usize> {
    let (mut i, mut j) = (0, 0);
    let mut window = Backslashes { at: 0, mask: backslashes64(result, 0) };
    loop {
        let run = window.next_from(result, i) - i;
        if !same_run(result, i, raw, j, run) {
            return None;
        }
        i += run;
        j += run;
        let Some(&c) = result.get(i + 1) else {
            // The end (a last lone backslash is no literal's contents).
            return (i == result.len()).then_some(j);
        };
        // `\\` for the backslash, then the escape's letter (a `\"` or a
        // `\\` escaped again); a `\u`'s digits are the next run's bytes.
        if raw.get(j..).and_then(|r| r.first_chunk::<2>()) != Some(br"\\") {
            return None;
        }
        j += 2;
        match c {
            b'"' | b'\\' => {
                if raw.get(j..).and_then(|r| r.first_chunk::<2>()) != Some(&[b'\\', c]) {
                    return None;
                }
                j += 2;
            }
            b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u' => {
                if c == b'u' && matches!(crate::json::string::hex4(result, i + 2)?, 0xD800..=0xDFFF) {
                    return None;
                }
                if raw.get(j) != Some(&c) {
                    return None;
                }
                j += 1;
            }
            _ => return None,
        }
        i += 2;
    }
}

/// The backslashes of the 64 bytes of a text from `at`, as a bit mask.
struct Backslashes {
    at: usize,
    mask: u64,
}

impl Backslashes {
    /// The offset of the first backslash of `text` at or after `from` (not
    /// before this window), or the text's length.
    #[inline(always)]
    fn next_from(&mut self, text: &[u8], from: usize) -> usize {
        if from >= self.at + 64 {
            *self = Backslashes { at: from, mask: backslashes64(text, from) };
        }
        let mut skip = from.saturating_sub(self.at);
        loop {
            let bits = self.mask & u64::MAX.checked_shl(skip as u32).unwrap_or(0);
            if bits != 0 {
                return self.at + bits.trailing_zeros() as usize;
            }
            if self.at + 64 >= text.len() {
                return text.len();
            }
            *self = Backslashes { at: self.at + 64, mask: backslashes64(text, self.at + 64) };
            skip = 0;
        }
    }
}

/// `a[i..i + n] == b[j..j + n]` (false when either is short), compared 16
/// bytes at a time as two words, the last block read whole where both
/// texts go on that far (the bytes past the run masked off; by 64-bit
/// shifts: a `u128` one is a call in wasm32).
#[inline(always)]
fn same_run(a: &[u8], i: usize, b: &[u8], j: usize, n: usize) -> bool {
    let block = |t: &[u8], at: usize| {
        let c = t.get(at..)?.first_chunk::<16>()?;
        let (lo, hi) = c.split_at(8);
        Some((u64::from_le_bytes(lo.try_into().ok()?), u64::from_le_bytes(hi.try_into().ok()?)))
    };
    let mut done = 0;
    while done < n {
        let left = n - done;
        match (block(a, i + done), block(b, j + done)) {
            (Some(x), Some(y)) => {
                let (lo, hi) = (x.0 ^ y.0, x.1 ^ y.1);
                let differs = match left {
                    16.. => lo | hi != 0,
                    9..=15 => lo != 0 || hi & (u64::MAX >> (8 * (16 - left))) != 0,
                    _ => lo & (u64::MAX >> (8 * (8 - left))) != 0,
                };
                if differs {
                    return false;
                }
                done += left.min(16);
            }
            _ => return a.get(i + done..i + n).is_some_and(|x| b.get(j + done..j + n).is_some_and(|y| super::input_tail::same_bytes(x, y))),
        }
    }
    a.get(i..i + n).is_some() && b.get(j..j + n).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::history;
    use std::sync::Arc;

    /// `results` as a tool span writes them: string literals' contents, in
    /// one source.
    fn results_in_source(results: &[&str]) -> Vec<Text> {
        let source: crate::text::Source = Arc::new(results.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(",").into_bytes());
        let mut at = 0;
        let mut texts = Vec::new();
        for r in results {
            texts.push(Text::in_source(&source, at + 1..at + 1 + r.len(), r.contains('\\')));
            at += r.len() + 3;
        }
        texts
    }

    /// Answers to calls `c0`, `c1`, … whose results are `texts`.
    fn answers_to(texts: &[Text]) -> ToolAnswers<'_> {
        let mut answers = ToolAnswers::default();
        for (k, t) in texts.iter().enumerate() {
            answers.add(&format!("c{k}"), t);
        }
        answers
    }

    /// An answer found in an input literal is what decoding its bytes
    /// gives, JSON the scan reads without a hazard; after any one-byte
    /// edit it is still that, or not found and nothing appended.
    /// The masks find each backslash as `memchr` does, the word compares
    /// say what slice equality says, at every place of a block.
    #[test]
    fn windows_and_runs_agree_with_slices() {
        let text: Vec<u8> = (0..300u32).map(|i| if i % 37 == 5 || i % 64 == 63 || i == 64 { b'\\' } else { b'a' + (i % 26) as u8 }).collect();
        let mut window = Backslashes { at: 0, mask: backslashes64(&text, 0) };
        for from in 0..=text.len() {
            let expected = memchr::memchr(b'\\', text.get(from..).unwrap()).map_or(text.len(), |k| from + k);
            assert_eq!(window.next_from(&text, from), expected, "from {from}");
        }
        for n in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 47] {
            for (i, j) in [(0, 0), (3, 250), (100, 7), (290 - n, 0)] {
                let mut other = text.clone();
                other.get_mut(j..j + n).unwrap().copy_from_slice(text.get(i..i + n).unwrap());
                assert!(same_run(&text, i, &other, j, n), "{n} at {i}, {j}");
                // A byte past the run does not count; one inside it does.
                if let Some(c) = other.get_mut(j + n) {
                    *c ^= 1;
                    assert!(same_run(&text, i, &other, j, n));
                }
                for k in (0..n).step_by(5).chain(n.checked_sub(1)) {
                    let mut changed = other.clone();
                    *changed.get_mut(j + k).unwrap() ^= 0x80;
                    assert!(!same_run(&text, i, &changed, j, n), "{n} at {i}, {j}: byte {k}");
                }
                assert!(!same_run(&text, i, other.get(..j + n - n.min(1)).unwrap(), j, n) || n == 0);
            }
        }
    }

    #[test]
    fn answers_found_in_a_literal_are_what_decoding_gives() {
        let results = [r#"a\nb \"q\" \\ é😀 \u00e9 \/ \b\f\r\t"#, "plain", "", r#"x\\"#, r#"}]}"#, r#"\ud83d\ude00"#, r#"0123456\n89abcdef\"0123456789abcde\\"#];
        let texts = results_in_source(&results);
        let answers = answers_to(&texts);
        for (k, r) in results.iter().enumerate() {
            let item = format!(r#"{{"role":"tool","parts":[{{"type":"tool_call_response","id":"c{k}","response":"{r}"}}]}}"#);
            let literal = serde_json::to_string(&item).unwrap();
            let inner = literal.get(1..literal.len() - 1).unwrap();
            let mut text = "[".to_string();
            let found = answers.resent_in_literal(format!("{inner},x").as_bytes(), &mut text);
            let expected = (!r.contains(r"\ud83d")).then_some(inner.len());
            assert_eq!(found, expected, "{item}");
            assert_eq!(text, if found.is_some() { format!("[{item}") } else { "[".to_string() });
            for p in 0..inner.len() {
                for by in [b'x', b'\\', b'"', b'u', b'0'] {
                    let mut raw = inner.as_bytes().to_vec();
                    if let Some(b) = raw.get_mut(p) {
                        *b = by;
                    }
                    raw.extend_from_slice(b",x");
                    let mut text = "[".to_string();
                    match answers.resent_in_literal(&raw, &mut text) {
                        None => assert_eq!(text, "["),
                        Some(n) => {
                            let appended = text.get(1..).unwrap();
                            assert_eq!(appended, crate::import::otel::unescape::decoded(raw.get(..n).unwrap()), "{item} at {p}");
                            let list = format!("[{appended}]");
                            assert!(crate::import::otel::input_tail::list_items(list.as_bytes(), 0).is_some(), "{list}");
                        }
                    }
                }
            }
        }
    }

    /// Each item a noted result's bytes make is the value parsing it gives;
    /// items written otherwise are left to the parse.
    #[test]
    fn built_answers_are_what_parsing_gives() {
        let results = [r#"a\nb \"q\" \\ é😀 \u00e9\ud83d\ude00 \/"#, "plain", "", r#"x\\"#, r#"}]}"#];
        let texts = results_in_source(&results);
        let answers = answers_to(&texts);
        for (k, r) in results.iter().enumerate() {
            let item = format!(r#"{{"role":"tool","parts":[{{"type":"tool_call_response","id":"c{k}","response":"{r}"}}]}}"#);
            assert_eq!(answers.value_of(item.as_bytes()), Some(history::value_of(item.as_bytes())), "{item}");
            let others = [
                item.replace(r#""id":"c"#, r#""id":"d"#),
                item.replace(r#""id":"c"#, r#""id":"\u0063"#),
                item.replace(r#"}]}"#, r#"},{}]}"#),
                item.replace(r#""}]}"#, r#"","x":1}]}"#),
                item.replace(r#""}]}"#, r#"x"}]}"#),
                item.replace(r#""role":"tool","parts""#, r#""parts""#),
                item.replace(r#""role":"tool","#, r#""role": "tool","#),
                item.replace(r#""type":"tool_call_response","#, ""),
            ];
            for other in others {
                assert_eq!(answers.value_of(other.as_bytes()), None, "{other}");
            }
        }
        assert_eq!(ToolAnswers::default().resent_in_literal(br#"{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"c1\",\"response\":\"plain\"}]}"#, &mut String::new()), None);
        assert_eq!(ToolAnswers::default().value_of(br#"{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"plain"}]}"#), None);
    }
}
