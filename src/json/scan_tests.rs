//! The split's hazards against serde_json itself, and the corpus the JSON
//! layer's tests read (the string scan's own tests are `string_tests.rs`).

use super::*;
use crate::json::{split, Layout};

/// A small xorshift generator for reproducible test inputs.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub(crate) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// Every file under the shared corpus (`../shared/corpus`, or `$ATV_CORPUS`).
pub(crate) fn corpus_files() -> Vec<std::path::PathBuf> {
    let dir = match std::env::var_os("ATV_CORPUS") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    assert!(dir.is_dir(), "CORPUS MISSING: {} (set ATV_CORPUS)", dir.display());
    let mut out = Vec::new();
    let mut dirs = vec![dir];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

// ------------------------------------------------------------------ hazards

/// The property the hazards promise, for every top-level value the split
/// accepts: serde_json refuses the value if and only if a hazard lies in it,
/// except that an object keyed by [`SERDE_NUMBER_KEY`] is one whether or not
/// serde_json refuses it (when it does not, it reads a number). Hazards are
/// sorted and each is where its kind says.
fn check_hazards(b: &[u8]) -> usize {
    let s = split(b, 0);
    assert!(s.hazards.windows(2).all(|w| w[0] < w[1]), "hazards not sorted: {:?}", s.hazards);
    let mut checked = 0;
    if s.layout == Layout::Json && !s.errors.is_empty() {
        return 0;
    }
    for v in &s.values {
        let text = &b[v.range.clone()];
        if std::str::from_utf8(text).is_err() {
            continue;
        }
        let inside: Vec<usize> = s.hazards.iter().copied().filter(|h| v.range.contains(h)).collect();
        let refused = serde_json::from_slice::<serde_json::Value>(text).err();
        let number_keyed = |h: &usize| b[*h] == b'{' && object_first_key(b, *h).as_deref() == Some(SERDE_NUMBER_KEY);
        match &refused {
            Some(e) => assert!(!inside.is_empty(), "serde_json refuses ({e}) a value with no hazard: {:?}", String::from_utf8_lossy(text)),
            None => assert!(
                inside.iter().all(number_keyed),
                "hazards {inside:?} in a value serde_json reads: {:?}",
                String::from_utf8_lossy(text)
            ),
        }
        for h in &inside {
            let kind_ok = match b[*h] {
                b'\\' => true,
                b'[' | b'{' => depth_at(b, v.range.start, *h) == SERDE_DEPTH_LIMIT || number_keyed(h),
                _ => false,
            };
            assert!(kind_ok, "hazard at {h} is no escape, too-deep container or number key: {:?}", String::from_utf8_lossy(text));
        }
        checked += 1;
    }
    checked
}

/// The first key of the object at `open`, decoded.
fn object_first_key(b: &[u8], open: usize) -> Option<String> {
    let k = skip_ws(b, open + 1);
    let end = scan_string(b, k).ok()?;
    decode_string(b, k..end)
}

/// The nesting level of the container at `at` in the value at `start` (its
/// own container is level 1), counted the slow way.
fn depth_at(b: &[u8], start: usize, at: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < at {
        match b[i] {
            b'"' => {
                i = scan_string(b, i).unwrap();
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    depth + 1
}

/// Nested containers of every mix around the limit, in a JSON document and
/// in JSON Lines; siblings past the limit, crossing it twice.
#[test]
fn nesting_at_serde_jsons_limit() {
    // The limit itself: 127 levels are read, 128 are not.
    let nest = |n: usize| "[".repeat(n) + &"]".repeat(n);
    assert!(serde_json::from_str::<serde_json::Value>(&nest(SERDE_DEPTH_LIMIT - 1)).is_ok());
    assert!(serde_json::from_str::<serde_json::Value>(&nest(SERDE_DEPTH_LIMIT)).is_err());
    for depth in SERDE_DEPTH_LIMIT - 3..=SERDE_DEPTH_LIMIT + 3 {
        let opens: [(&str, &str); 4] = [("[", "]"), ("{\"k\":", "}"), ("[1,", "]"), ("{\"a\":1,\"b\":", "}")];
        for inner in ["[]", "{}", "1", "\"s\"", "[[]]", "{\"x\":[]}", "[[], {}]"] {
            for pattern in 0..4usize {
                let mut open = String::new();
                let mut close = String::new();
                for level in 0..depth {
                    let (o, c) = opens[(level * (pattern + 1) / 2 + pattern) % 4];
                    open.push_str(o);
                    close.insert_str(0, c);
                }
                let value = format!("{open}{inner}{close}");
                let n = check_hazards(value.as_bytes());
                assert_eq!(n, 1);
                // Twice in a document (crossing twice), and as JSON Lines.
                let doc = format!("[{value}, {{\"pad\": {value}}}, 3]");
                assert_eq!(check_hazards(doc.as_bytes()), 1);
                let lines = format!("{value}\n{{\"x\": {value}}}\n[{value}]\n");
                assert_eq!(check_hazards(lines.as_bytes()), 3);
            }
        }
    }
    // Siblings past the limit: one hazard each.
    let deep = "[".repeat(SERDE_DEPTH_LIMIT - 1);
    let doc = format!("{deep}[], [[1]], {{}}, 2{}", "]".repeat(SERDE_DEPTH_LIMIT - 1));
    let s = split(doc.as_bytes(), 0);
    assert_eq!(s.hazards.len(), 3, "{:?}", s.hazards);
    check_hazards(doc.as_bytes());
}

/// `\u` escapes of every surrogate kind, in every combination of up to
/// three, in keys and values, in JSON documents and JSON Lines.
#[test]
fn surrogate_escapes_in_every_combination() {
    let parts = [
        "\\uD800", "\\uDBFF", "\\uDC00", "\\uDFFF", "\\ud83d", "\\ude00", "\\u0041", "\\uD7FF", "\\uE000", "\\n", "a", "\\\\", "\\\"",
        "\\u00e9", "é",
    ];
    let mut strings = vec![String::new()];
    for a in parts {
        strings.push(a.to_string());
        for b in parts {
            strings.push(format!("{a}{b}"));
            for c in parts {
                strings.push(format!("{a}{b}{c}"));
            }
        }
    }
    let mut lines = String::new();
    let mut doc = String::from("[");
    for (n, s) in strings.iter().enumerate() {
        let as_value = format!("[\"{s}\"]");
        let as_key = format!("{{\"{s}\": 1, \"b{s}\": [\"{s}x\"]}}");
        assert_eq!(check_hazards(as_value.as_bytes()), 1);
        assert_eq!(check_hazards(as_key.as_bytes()), 1);
        if n % 7 == 0 {
            lines.push_str(&as_key);
            lines.push('\n');
            if n > 0 {
                doc.push(',');
            }
            doc.push_str(&as_value);
        }
    }
    doc.push(']');
    assert!(check_hazards(lines.as_bytes()) > 100);
    assert_eq!(check_hazards(doc.as_bytes()), 1);
    // The one in the brief: a high surrogate before `\u0041` is refused.
    let s = split(br#"{"a": "x\uD800\u0041"}"#, 0);
    assert_eq!(s.hazards, vec![8]);
}

/// Objects whose first key is serde_json's private number token (however
/// escaped), whatever follows it; the token as a later key is no hazard.
#[test]
fn serde_number_key_objects() {
    let key = SERDE_NUMBER_KEY;
    let escaped = "\\u0024serde_json::private::Numb\\u0065r";
    for (text, hazards) in [
        (format!("{{\"{key}\": \"12\"}}"), 1),
        (format!("{{\"{key}\": \"x\"}}"), 1),
        (format!("{{\"{key}\": 12}}"), 1),
        (format!("{{\"{key}\": \"1\", \"b\": 2}}"), 1),
        (format!("[{{ \"{escaped}\" : \"1e5\"}}]"), 1),
        (format!("{{\"{escaped}\": []}}"), 1),
        (format!("{{\"a\": 1, \"{key}\": \"12\"}}"), 0),
        (format!("{{\"{key}x\": \"12\"}}"), 0),
        (format!("{{\"x{key}\": \"12\"}}"), 0),
        ("{\"$serde_json::private::RawValue\": \"[1]\"}".to_string(), 0),
    ] {
        let s = split(text.as_bytes(), 0);
        assert_eq!(s.hazards.len(), hazards, "{text}: {:?}", s.hazards);
        assert_eq!(check_hazards(text.as_bytes()), 1, "{text}");
    }
}

/// Generated JSON: random structure, nesting around the limit, strings with
/// surrogate escapes, number-token keys; as one document and as lines.
#[test]
fn generated_values_match_serde_json() {
    fn string(rng: &mut Rng, out: &mut String) {
        const PARTS: [&str; 14] =
            ["a", "text ", "\\n", "\\uD800", "\\uDC00", "\\uDBFF\\uDFFF", "\\ud83d\\ude00", "\\u0041", "é", "\\\"", "\\\\", "\\t", "\\uD83D", "\\uFFFF"];
        out.push('"');
        let n = rng.below(6);
        for _ in 0..n {
            let p = if rng.below(5) == 0 { rng.pick(&PARTS) } else { rng.pick(&PARTS[..2]) };
            out.push_str(p);
        }
        out.push('"');
    }
    fn value(rng: &mut Rng, out: &mut String, depth: usize, deep: usize) {
        let pick = if depth < deep { rng.below(3) } else { 3 + rng.below(6) };
        match pick {
            0 | 1 if rng.below(2) == 0 || depth + 1 < deep => {
                out.push('[');
                let n = if depth + 1 < deep { 1 + rng.below(2) } else { rng.below(3) };
                for k in 0..n {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    // One child goes on down: the others stay shallow.
                    let child_deep = if k == 0 { deep } else { deep.min(depth + 1 + rng.below(3)) };
                    value(rng, out, depth + 1, child_deep);
                }
                out.push(']');
            }
            0..=2 => {
                out.push('{');
                let n = if depth + 1 < deep { 1 + rng.below(2) } else { rng.below(3) };
                for k in 0..n {
                    if k > 0 {
                        out.push(',');
                    }
                    if k == 0 && rng.below(40) == 0 {
                        out.push_str(&format!("\"{SERDE_NUMBER_KEY}\""));
                    } else {
                        string(rng, out);
                    }
                    out.push(':');
                    let child_deep = if k == 0 { deep } else { deep.min(depth + 1 + rng.below(3)) };
                    value(rng, out, depth + 1, child_deep);
                }
                out.push('}');
            }
            3 => string(rng, out),
            4 => out.push_str(rng.pick(&["0", "-1.5e300", "123456789012345678901234567890", "1e999999", "-0.0"])),
            5 => out.push_str(rng.pick(&["true", "false", "null"])),
            6 => out.push_str("[]"),
            7 => out.push_str("{}"),
            _ => string(rng, out),
        }
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    for round in 0..400 {
        let deep = match round % 4 {
            0 => 1 + rng.below(6),
            _ => SERDE_DEPTH_LIMIT - 4 + rng.below(8),
        };
        let mut lines = String::new();
        let mut doc = String::from("[");
        for k in 0..4 {
            let mut v = String::new();
            value(&mut rng, &mut v, 0, deep);
            lines.push_str(&v);
            lines.push('\n');
            if k > 0 {
                doc.push_str(",\n");
            }
            doc.push_str(&v);
        }
        doc.push(']');
        checked += check_hazards(lines.as_bytes());
        checked += check_hazards(doc.as_bytes());
    }
    assert!(checked > 1500, "{checked}");
}

/// The corpus files and the test fixtures hold no hazards serde_json would
/// not confirm (and every value serde_json refuses has one).
#[test]
fn corpus_values_match_serde_json() {
    let mut checked = 0;
    for path in corpus_files() {
        let b = std::fs::read(&path).unwrap();
        checked += check_hazards(&b);
    }
    assert!(checked > 100, "{checked}");
}
