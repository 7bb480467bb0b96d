//! Duplicate object keys. JSON allows them; every parser the formats' own
//! libraries use (Python's `json`, JavaScript's `JSON.parse`, serde_json)
//! silently keeps the last value, so a trace can say one thing in its raw
//! text and another in the viewer. Each duplicate becomes a warning; the raw
//! JSON keeps both values.
//!
//! The split's scan already compares the keys of every object as it closes
//! and lists the objects that may repeat one (`Split::repeats`): only those
//! are checked here, key by key. For inputs where that list is not complete
//! (a syntax error stopped the scan) or not enough (keys holding invalid
//! UTF-8 compare decoded), one pass walks every value instead: strings are
//! skipped whole and the keys of open objects share one buffer.

use std::ops::Range;

use crate::diagnostic::Severity;
use crate::import::Builder;
use crate::json::{scan, Seg, Split};

/// Most duplicate keys reported one by one; the rest are counted.
pub const MAX_REPORTED: usize = 100;

/// A key that appears more than once in the same object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The key, decoded.
    pub key: String,
    /// Offset of the last occurrence's opening quote: the value read.
    pub offset: usize,
    /// Offsets of the earlier occurrences' opening quotes: values not read.
    pub earlier: Vec<usize>,
    /// Offset of the object's `{`.
    pub object: usize,
}

/// The keys that appear more than once in an object inside the valid JSON
/// value at `range`, in source order, at most `limit`; the second number
/// counts all of them.
pub fn find(b: &[u8], range: Range<usize>, limit: usize) -> (Vec<Duplicate>, usize) {
    let mut found = Vec::new();
    let mut total = 0;
    // Open containers: for objects, where their keys start in `keys`.
    let mut frames: Vec<Option<(usize, usize)>> = Vec::new();
    // (raw key bytes without quotes, offset of the opening quote)
    let mut keys: Vec<(&[u8], usize)> = Vec::new();
    let mut expect_key = false;
    let end = range.end.min(b.len());
    let mut i = range.start;
    while i < end {
        let Some(&c) = b.get(i) else { break };
        match c {
            b'"' => {
                let close = string_end(b, i, end);
                if expect_key {
                    keys.push((b.get(i + 1..close.saturating_sub(1)).unwrap_or(&[]), i));
                    expect_key = false;
                }
                i = close;
                continue;
            }
            b'{' => {
                frames.push(Some((keys.len(), i)));
                expect_key = true;
            }
            b'[' => {
                frames.push(None);
                expect_key = false;
            }
            b',' => expect_key = matches!(frames.last(), Some(Some(_))),
            b'}' => {
                if let Some(Some((first, object))) = frames.pop() {
                    check_object(keys.get(first..).unwrap_or(&[]), object, &mut found, &mut total, limit);
                    keys.truncate(first);
                }
                expect_key = false;
            }
            b']' => {
                frames.pop();
                expect_key = false;
            }
            _ => {}
        }
        i += 1;
    }
    crate::sort::by_key(&mut found, |d| d.offset);
    (found, total)
}

/// The offset just past the string whose quote is at `open` (at most `end`).
/// memchr2 over the string's bytes: this pass reads every byte of the input,
/// and a byte loop here was a quarter of a parse (BENCHMARKS.md).
fn string_end(b: &[u8], open: usize, end: usize) -> usize {
    crate::json::read::string_end(b.get(..end).unwrap_or(b), open).map_or(end, |(e, _)| e)
}

fn check_object(keys: &[(&[u8], usize)], object: usize, found: &mut Vec<Duplicate>, total: &mut usize, limit: usize) {
    if keys.len() < 2 {
        return;
    }
    let decoded = |raw: &[u8]| -> Vec<u8> {
        if raw.contains(&b'\\') {
            let mut quoted = Vec::with_capacity(raw.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(raw);
            quoted.push(b'"');
            serde_json::from_slice::<String>(&quoted).map(String::into_bytes).unwrap_or_else(|_| raw.to_vec())
        } else {
            raw.to_vec()
        }
    };
    let escaped = keys.iter().any(|(k, _)| k.contains(&b'\\'));
    // Keys holding invalid UTF-8 are read with U+FFFD in place of the bad
    // bytes (`scan::decode_key`): two that differ only there are one key.
    let undecodable = |k: &[u8]| !k.is_ascii() && std::str::from_utf8(k).is_err();
    let lossy = keys.iter().any(|(k, _)| undecodable(k));
    let mut sorted: Vec<(std::borrow::Cow<[u8]>, usize)> = keys
        .iter()
        .map(|(k, at)| {
            let k = if escaped { std::borrow::Cow::Owned(decoded(k)) } else { std::borrow::Cow::Borrowed(*k) };
            let k = if lossy && undecodable(&k) { std::borrow::Cow::Owned(String::from_utf8_lossy(&k).into_owned().into_bytes()) } else { k };
            (k, *at)
        })
        .collect();
    crate::sort::short_by(&mut sorted, Ord::cmp);
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i + 1;
        while sorted.get(j).is_some_and(|(k, _)| Some(k) == sorted.get(i).map(|(k, _)| k)) {
            j += 1;
        }
        if j - i > 1 {
            *total += 1;
            if found.len() < limit {
                // Sorted by key then offset: the last of the group is the one read.
                let group = sorted.get(i..j).unwrap_or(&[]);
                if let Some(((key, last), earlier)) = group.split_last() {
                    found.push(Duplicate {
                        key: String::from_utf8_lossy(key).into_owned(),
                        offset: *last,
                        earlier: earlier.iter().map(|(_, at)| *at).collect(),
                        object,
                    });
                }
            }
        }
        i = j;
    }
}

/// [`find`] for a value whose objects that may repeat a key are `objects`
/// (their `{`, in the order they close, as the split lists them): the same
/// answer without walking the value.
pub fn find_in(b: &[u8], objects: &[usize], limit: usize) -> (Vec<Duplicate>, usize) {
    let mut found = Vec::new();
    let mut total = 0;
    let mut members = Vec::new();
    for &object in objects {
        if crate::json::read::members(b, object, &crate::json::scan::NO_ENDS, &mut members).is_none() {
            continue;
        }
        let keys: Vec<(&[u8], usize)> = members.iter().map(|m| (b.get(m.key.clone()).unwrap_or(&[]), m.key.start - 1)).collect();
        check_object(&keys, object, &mut found, &mut total, limit);
    }
    crate::sort::by_key(&mut found, |d| d.offset);
    (found, total)
}

/// Reports every duplicate key of the input as a `duplicate-key` warning
/// (at most [`MAX_REPORTED`], then one more that counts the rest). The
/// diagnostics name no event yet: `integrity::relink_diagnostics` gives them
/// the event holding them.
pub fn report(out: &mut Builder, split: &Split) {
    let mut total = 0;
    // The split's list is complete when its scan reached every value's end.
    let listed = split.errors.is_empty() && out.utf8_valid();
    let mut next_listed = 0;
    for v in &split.values {
        let room = MAX_REPORTED.saturating_sub(total.min(MAX_REPORTED));
        let (found, count) = if listed {
            let objects = split.repeats.get(next_listed..).unwrap_or(&[]);
            let inside = objects.iter().take_while(|o| v.range.contains(o)).count();
            next_listed += inside;
            find_in(out.bytes(), objects.get(..inside).unwrap_or(&[]), room)
        } else {
            find(out.bytes(), v.range.clone(), room)
        };
        total += count;
        for d in found {
            let path = crate::json::render_path("$", &path_to(out.bytes(), v.range.start, d.object));
            let shadowed: Vec<String> = d.earlier.iter().take(3).map(|at| member_value_text(out.bytes(), *at)).collect();
            let more = if d.earlier.len() > 3 { format!(" and {} more", d.earlier.len() - 3) } else { String::new() };
            let message = format!(
                "the key {} appears {} times in this object; the last value is the one read (as Python's json and JavaScript's JSON.parse do); the earlier {} {}{more} {} not read",
                quoted(&d.key),
                d.earlier.len() + 1,
                if d.earlier.len() == 1 { "value" } else { "values" },
                shadowed.join(", "),
                if d.earlier.len() == 1 { "is" } else { "are" },
            );
            out.diag(Severity::Warning, "duplicate-key", message, path, d.offset, None);
        }
    }
    if total > MAX_REPORTED {
        let message = format!("{} more keys appear more than once in an object; they are not listed one by one", total - MAX_REPORTED);
        out.diag(Severity::Warning, "duplicate-key", message, "$".to_string(), 0, None);
    }
}

/// The value of the member whose key's quote is at `key`, as `text`, cut to 60 characters.
fn member_value_text(b: &[u8], key: usize) -> String {
    let value = scan::scan_string(b, key).ok().and_then(|end| {
        let colon = scan::skip_ws(b, end);
        let start = scan::skip_ws(b, colon + 1);
        let end = scan::scan_value(b, start).ok()?;
        b.get(start..end)
    });
    let text = String::from_utf8_lossy(value.unwrap_or(&[]));
    let cut: String = text.chars().take(60).collect();
    let ellipsis = if cut.len() < text.len() { "…" } else { "" };
    format!("`{cut}{ellipsis}`")
}

fn quoted(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_default()
}

/// The path segments from the value starting at `start` down to the value
/// starting at `target` (an object's `{`).
pub fn path_to(b: &[u8], start: usize, target: usize) -> Vec<Seg> {
    let mut segs = Vec::new();
    let mut at = scan::skip_ws(b, start);
    while at < target {
        let next = match b.get(at) {
            Some(b'{') => scan::object_members(b, at)
                .ok()
                .and_then(|m| m.into_iter().find(|(_, r)| r.start <= target && target < r.end))
                .map(|(k, r)| (Seg::Key(k), r.start)),
            Some(b'[') => scan::array_items(b, at)
                .0
                .into_iter()
                .enumerate()
                .find(|(_, r)| r.start <= target && target < r.end)
                .map(|(i, r)| (Seg::Index(i), r.start)),
            _ => None,
        };
        match next {
            Some((seg, child)) => {
                segs.push(seg);
                at = child;
            }
            None => break,
        }
    }
    segs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dups(s: &str) -> Vec<(String, usize, usize)> {
        find(s.as_bytes(), 0..s.len(), 100).0.into_iter().map(|d| (d.key, d.offset, d.earlier.len() + 1)).collect()
    }

    #[test]
    fn finds_duplicates_per_object() {
        assert!(dups(r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}"#).is_empty());
        assert_eq!(dups(r#"{"a": 1, "a": 2}"#), vec![("a".to_string(), 9, 2)]);
        assert_eq!(dups(r#"[{"x": {"k": 1, "j": "k", "k": [1, {"k": 0}]}}]"#), vec![("k".to_string(), 26, 2)]);
        // Escapes are decoded before comparing; a value equal to a key is not a key.
        assert_eq!(dups(r#"{"role": "x", "r\u006fle": "y"}"#).len(), 1);
        assert!(dups(r#"{"a": "a", "b": "\"a\""}"#).is_empty());
        // Three times: one finding, at the last.
        assert_eq!(dups(r#"{"a":1,"a":2,"a":3}"#), vec![("a".to_string(), 13, 3)]);
    }

    /// What the split lists gives exactly what walking every value gives,
    /// at every reporting limit: handwritten objects, generated ones (keys
    /// from a tiny alphabet, escaped spellings of the same key, objects of
    /// more than 16 keys, nesting), as documents and as JSON Lines, and the
    /// shared corpus.
    #[test]
    fn the_splits_list_finds_what_the_walk_finds() {
        let check = |text: &[u8]| {
            let split = crate::json::split(text, crate::json::bom_len(text));
            if !split.errors.is_empty() || std::str::from_utf8(text).is_err() {
                return 0;
            }
            let mut next = 0;
            let mut checked = 0;
            for v in &split.values {
                let inside = split.repeats[next..].iter().take_while(|o| v.range.contains(o)).count();
                let listed = &split.repeats[next..next + inside];
                next += inside;
                for limit in [0, 1, 2, 100] {
                    assert_eq!(find_in(text, listed, limit), find(text, v.range.clone(), limit), "limit {limit}: {}", String::from_utf8_lossy(text));
                }
                checked += find(text, v.range.clone(), 100).1;
            }
            assert_eq!(next, split.repeats.len(), "every listed object lies in a value");
            checked
        };
        for text in [
            r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}"#,
            r#"{"a": 1, "a": 2, "b": {"x": {"y": 1, "y": 2}}, "b": 3}"#,
            r#"{"role": "x", "r\u006fle": "y", "\u0072ole": "z"}"#,
            "{\"a\":1}\n{\"a\":1,\"a\":2}\n[{\"k\":{\"k\":1,\"k\":2}}]\n",
        ] {
            check(text.as_bytes());
        }
        let mut next = crate::test_rng::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut rand = |n: u64| next(n as usize);
        const KEYS: [&str; 6] = ["a", "b", "\\u0061", "c\\n", "c\\u000a", "d"];
        fn value(rand: &mut dyn FnMut(u64) -> usize, depth: usize, out: &mut String) {
            match rand(if depth > 3 { 3 } else { 5 }) {
                0 => out.push('1'),
                1 => out.push_str("\"s\""),
                2 => out.push_str("null"),
                3 => {
                    out.push('[');
                    for i in 0..rand(3) {
                        if i > 0 {
                            out.push(',');
                        }
                        value(rand, depth + 1, out);
                    }
                    out.push(']');
                }
                _ => {
                    out.push('{');
                    // Past 16 keys the scan sorts them; past 64 it lists the object unsorted.
                    let n = match rand(16) {
                        0 => 64 + rand(3),
                        1 | 2 => 17 + rand(4),
                        _ => rand(5),
                    };
                    for i in 0..n {
                        if i > 0 {
                            out.push(',');
                        }
                        let key = match (n > 16, rand(30)) {
                            (true, 0) => "\\u006b1".to_string(),
                            (true, _) => format!("k{}", rand(if n > 60 { 400 } else { 40 })),
                            (false, _) => KEYS[rand(KEYS.len() as u64)].to_string(),
                        };
                        out.push_str(&format!("\"{key}\":"));
                        value(rand, depth + 1, out);
                    }
                    out.push('}');
                }
            }
        }
        let mut duplicates = 0;
        for round in 0..400 {
            let mut text = String::new();
            for line in 0..1 + rand(3) {
                if line > 0 {
                    text.push('\n');
                }
                value(&mut rand, 0, &mut text);
            }
            if round % 2 == 0 {
                text = text.replace('\n', ",").replace("},{", "}, {");
                text = format!("[{text}]");
            }
            duplicates += check(text.as_bytes());
        }
        assert!(duplicates > 200, "the generator makes duplicates ({duplicates})");
        for f in crate::json::scan::simd_tests::corpus_files() {
            check(&std::fs::read(&f).unwrap());
        }
    }

    #[test]
    fn counts_past_the_limit_and_finds_paths() {
        let s = r#"{"a":1,"a":2,"b":1,"b":2,"c":1,"c":2}"#;
        let (found, total) = find(s.as_bytes(), 0..s.len(), 2);
        assert_eq!((found.len(), total), (2, 3));
        let s = r#"{"m": [0, {"k": 1, "k": 2}]}"#;
        let (found, _) = find(s.as_bytes(), 0..s.len(), 10);
        assert_eq!(crate::json::render_path("$", &path_to(s.as_bytes(), 0, found[0].object)), "$.m[1]");
        assert_eq!(member_value_text(s.as_bytes(), found[0].earlier[0]), "`1`");
    }
}
