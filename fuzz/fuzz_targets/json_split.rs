//! The JSON layer: the split into one document or JSON Lines, and the
//! scanner, checked against serde_json. Whatever serde_json accepts the
//! scanner must accept with the same end; what only the scanner accepts must
//! be one of the documented decode-time refusals (nesting, UTF-8, surrogates).
//! The split's hazards: for every value it accepts (valid UTF-8), serde_json
//! refuses the value if and only if a hazard lies in it (an object keyed by
//! serde_json's private number token is one either way: serde_json refuses
//! it or reads it as a number).
#![no_main]
use agent_trace_viewer::json::{self, scan, Seg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > fuzz_common::MAX_INPUT {
        return;
    }
    check_split(data);
    check_against_serde(data);
});

fn check_split(data: &[u8]) {
    let start = json::bom_len(data);
    let split = json::split(data, start);
    let mut last_end = 0;
    for v in &split.values {
        assert!(v.range.start <= v.range.end && v.range.end <= data.len(), "value {:?} outside {}", v.range, data.len());
        assert!(v.range.start >= last_end, "values overlap or go backwards");
        last_end = v.range.end;
        if split.errors.is_empty() || split.layout == json::Layout::Jsonl {
            assert_eq!(scan::scan_value(data, v.range.start), Ok(v.range.end), "a split value that does not scan to its end");
            walk(data, v.range.start, 0);
        }
    }
    // The container ends the readers jump by: sorted, and each exactly where
    // the scanner ends that container.
    let mut last_start = None;
    for (start, end) in split.ends.iter() {
        assert!(last_start.is_none_or(|l| l < start), "container ends out of order at {start}");
        last_start = Some(start);
        assert_eq!(scan::scan_value(data, start), Ok(end), "a recorded container end the scanner disagrees with");
    }
    if split.errors.is_empty() || split.layout == json::Layout::Jsonl {
        for v in &split.values {
            walk_with_ends(data, v.range.start, &split.ends);
        }
    }
    check_hazards(data, &split);
    check_strings(data, &split);
    for l in &split.leftovers {
        assert!(l.start <= l.end && l.end <= data.len(), "leftover {l:?} outside {}", data.len());
    }
    for e in &split.errors {
        assert!(e.offset <= data.len(), "error offset {} past {}", e.offset, data.len());
        assert!(!e.message.is_empty());
    }
}

/// Every string end the split recorded is where the scanner ends that
/// string, with whether a backslash lies in it; in a split without errors,
/// every string value of `MIN_STRING_BYTES` or more is recorded and no key.
fn check_strings(data: &[u8], split: &json::Split) {
    let complete = split.errors.is_empty() && split.leftovers.is_empty();
    let mut i = 0;
    while i < data.len() {
        if data[i] != b'"' {
            i += 1;
            continue;
        }
        let recorded = split.ends.string_at(i);
        match scan::scan_string(data, i) {
            Ok(end) => {
                let escaped = data[i + 1..end - 1].contains(&b'\\');
                if let Some(r) = recorded {
                    assert_eq!(r, (end, escaped), "a recorded string end the scanner disagrees with, at {i}");
                }
                let is_key = data.get(scan::skip_ws(data, end)) == Some(&b':');
                let inside_a_value = split.values.iter().any(|v| v.range.contains(&i));
                if complete && inside_a_value && !is_key && end - i >= scan::ContainerEnds::MIN_STRING_BYTES {
                    assert!(recorded.is_some(), "a long string value at {i} is not recorded");
                }
                // Strings only start where the previous one ended (or outside any).
                i = end;
            }
            Err(_) => {
                assert!(recorded.is_none(), "a recorded string the scanner refuses, at {i}");
                i += 1;
            }
        }
    }
}

/// The hazards are sorted, in the input, and say exactly which accepted
/// values serde_json refuses.
fn check_hazards(data: &[u8], split: &json::Split) {
    assert!(split.hazards.windows(2).all(|w| w[0] < w[1]), "hazards not strictly increasing: {:?}", split.hazards);
    assert!(split.hazards.iter().all(|h| *h < data.len()), "a hazard past the input");
    if split.layout == json::Layout::Json && !split.errors.is_empty() {
        return;
    }
    for v in &split.values {
        let text = &data[v.range.clone()];
        if std::str::from_utf8(text).is_err() {
            continue; // the whole-input UTF-8 check reports it, not the hazards
        }
        let inside: Vec<usize> = split.hazards.iter().copied().filter(|h| v.range.contains(h)).collect();
        match serde_json::from_slice::<serde_json::Value>(text) {
            Err(e) => assert!(!inside.is_empty(), "serde_json refuses a value with no hazard in it: {e}"),
            Ok(_) => assert!(
                inside.iter().all(|h| number_key_object(data, *h)),
                "hazards {inside:?} in a value serde_json reads as it is"
            ),
        }
    }
}

/// An object whose first key is serde_json's private number token.
fn number_key_object(b: &[u8], at: usize) -> bool {
    b.get(at) == Some(&b'{')
        && scan::object_members(b, at).is_ok_and(|m| m.first().is_some_and(|(k, _)| k == scan::SERDE_NUMBER_KEY))
}

/// The readers' helpers give the same answers with the split's table of
/// container ends as without it, for the shallow levels the table covers.
fn walk_with_ends(b: &[u8], at: usize, ends: &scan::ContainerEnds) {
    let mut stack = vec![(scan::skip_ws(b, at), 0usize)];
    while let Some((at, depth)) = stack.pop() {
        if depth > scan::ContainerEnds::DEPTH + 1 {
            continue;
        }
        match b.get(at) {
            Some(b'[') => {
                let plain = scan::array_items(b, at);
                assert_eq!(scan::array_items_in(b, at, ends), plain, "array_items_in disagrees");
                stack.extend(plain.0.iter().map(|r| (r.start, depth + 1)));
            }
            Some(b'{') => {
                let plain = scan::object_members(b, at);
                assert_eq!(scan::object_members_in(b, at, ends), plain, "object_members_in disagrees");
                if let Ok(members) = plain {
                    stack.extend(members.iter().map(|m| (m.1.start, depth + 1)));
                }
            }
            _ => {}
        }
    }
}

/// Visits members and items with the helpers the format modules use.
fn walk(b: &[u8], at: usize, depth: usize) {
    if depth > 16 {
        return;
    }
    match b.get(at) {
        Some(b'{') => {
            let members = scan::object_members(b, at).expect("a scanned object has members");
            for (key, r) in &members {
                assert_eq!(scan::find_path(b, at, &[Seg::Key(key.clone())]) , first_with_key(&members, key), "find_path disagrees with object_members");
                walk(b, r.start, depth + 1);
            }
        }
        Some(b'[') => {
            let (items, end) = scan::array_items(b, at);
            assert!(end.is_ok(), "a scanned array's items fail");
            for (i, r) in items.iter().enumerate() {
                assert_eq!(scan::find_path(b, at, &[Seg::Index(i)]), r.start);
                walk(b, r.start, depth + 1);
            }
        }
        Some(b'"') => {
            let end = scan::scan_string(b, at).expect("a scanned string");
            let _ = scan::decode_string(b, at..end);
        }
        _ => {}
    }
}

fn first_with_key(members: &[(String, std::ops::Range<usize>)], key: &str) -> usize {
    members.iter().find(|(k, _)| k == key).map(|(_, r)| r.start).unwrap_or(0)
}

fn check_against_serde(data: &[u8]) {
    let scanned = scan::scan_value(data, 0).map(|end| scan::skip_ws(data, end));
    match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(_) => assert_eq!(scanned, Ok(data.len()), "serde_json accepts what the scanner rejects"),
        Err(e) => {
            if scanned == Ok(data.len()) {
                let m = e.to_string();
                let allowed = ["recursion limit exceeded", "invalid unicode code point", "lone leading surrogate", "unexpected end of hex escape", "invalid escape"];
                assert!(allowed.iter().any(|a| m.starts_with(a)), "the scanner accepts what serde_json rejects: {m}");
            }
        }
    }
}
