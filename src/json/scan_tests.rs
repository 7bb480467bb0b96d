//! The SIMD string scan and the split's hazards against oracles: the
//! scanner as it was before SIMD (byte by byte), the word-at-a-time
//! fallback, and serde_json itself for the hazards.

use super::*;
use crate::json::{split, Layout};

/// The string scan before SIMD, byte by byte (its word loop only skipped
/// bytes this loop skips too): the oracle for results, offsets and messages.
fn oracle_string_end(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    if b.get(start) != Some(&b'"') {
        return err(start, format!("expected a string in double quotes, found {}", describe(b, start)));
    }
    let mut i = start + 1;
    loop {
        while let Some(c) = b.get(i) {
            if *c == b'"' || *c == b'\\' || *c < 0x20 {
                break;
            }
            i += 1;
        }
        match b.get(i) {
            None => return err(start, "unterminated string: the input ends before its closing `\"`"),
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => match b.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u') => {
                    for k in 0..4 {
                        match b.get(i + 2 + k) {
                            Some(h) if h.is_ascii_hexdigit() => {}
                            _ => return err(i, "invalid \\u escape: expected four hexadecimal digits"),
                        }
                    }
                    i += 6;
                }
                None => return err(start, "unterminated string: the input ends inside an escape"),
                Some(_) => {
                    return err(
                        i,
                        format!(
                            "invalid escape `\\{}` in string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                            String::from_utf8_lossy(b.get(i + 1..i + 2).unwrap_or(&[]))
                        ),
                    )
                }
            },
            Some(c) => {
                return err(
                    i,
                    format!("control character 0x{c:02X} inside a string must be escaped (a string left unclosed?)"),
                )
            }
        }
    }
}

/// Both scans (SIMD where this build has it, and the word fallback) agree
/// with the oracle on the string at `start`, and with each other on its
/// hazards; those hazards are exactly the escapes that make serde_json
/// refuse the string (when it is valid UTF-8). Returns the result.
#[must_use = "the result"]
fn check_string(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    let want = oracle_string_end(b, start);
    let mut simd_hazards = Vec::new();
    let mut word_hazards = Vec::new();
    let got = string_end(b, start, &mut simd_hazards);
    let around = || String::from_utf8_lossy(&b[start.min(b.len())..b.len().min(start + 300)]).into_owned();
    // With the end, whether a backslash lies between the quotes.
    let with_escaped = want.clone().map(|end| (end, b[start + 1..end - 1].contains(&b'\\')));
    assert_eq!(got, with_escaped, "string at {start}: {:?}", around());
    if b.get(start) == Some(&b'"') {
        assert_eq!(string_end_words(b, start, &mut word_hazards), with_escaped, "word scan, string at {start}: {:?}", around());
    }
    assert_eq!(simd_hazards, word_hazards, "hazards, string at {start}: {:?}", around());
    // The second look at a validated string: the same end, and whether a
    // backslash lies between the quotes. On invalid strings it only must not
    // panic.
    let second = (validated_string_end(b, start), validated_string_end_words(b, start));
    if let Ok(end) = want {
        let escaped = b[start + 1..end - 1].contains(&b'\\');
        assert_eq!(second, (Some((end, escaped)), Some((end, escaped))), "second look, string at {start}: {:?}", around());
    }
    if let Ok(end) = want {
        let text = &b[start..end];
        if std::str::from_utf8(text).is_ok() {
            let serde_refuses = serde_json::from_slice::<String>(text).is_err();
            assert_eq!(serde_refuses, !simd_hazards.is_empty(), "{:?}: hazards {simd_hazards:?}", String::from_utf8_lossy(text));
        }
        assert!(simd_hazards.iter().all(|h| (start..end).contains(h) && b[*h] == b'\\'));
    }
    want
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// Every byte value at every position of the first blocks of a string (and
/// around the end of input), after ordinary text and after escapes.
#[test]
fn every_byte_at_every_position() {
    for fill in [&b"a"[..], b"\xC3\xA9", b"\\n", b"\\u00e9"] {
        for lead in [0usize, 1, 7] {
            for pos in 0..140 {
                for c in 0..=255u8 {
                    let mut s = vec![b' '; lead];
                    s.push(b'"');
                    while s.len() < lead + 1 + pos {
                        s.extend_from_slice(fill);
                    }
                    s.truncate(lead + 1 + pos);
                    s.push(c);
                    s.extend_from_slice(b"xyz\"tail");
                    let _ = check_string(&s, lead);
                    // The same with the input cut right after the byte.
                    let _ = check_string(&s[..lead + 2 + pos], lead);
                }
            }
        }
    }
}

/// Each kind of escape at every position of the first blocks, alone and
/// densely repeated (one every few bytes), and cut at every length.
#[test]
fn escapes_at_every_position_and_density() {
    let escapes: [&[u8]; 16] = [
        b"\\n", b"\\\"", b"\\\\", b"\\/", b"\\b", b"\\u0041", b"\\uD83D\\uDE00", b"\\uD800", b"\\uDC00", b"\\uDBFF\\u0041",
        b"\\uD800\\uD800\\uDC00", b"\\uZZZZ", b"\\u12", b"\\x", b"\\uDFFF\\uDFFF", b"\\uD800\\n",
    ];
    for esc in escapes {
        for pos in 0..140 {
            let mut s = b"\"".to_vec();
            s.extend(std::iter::repeat_n(b'a', pos));
            s.extend_from_slice(esc);
            s.extend_from_slice(b"bc\"");
            for cut in 0..=s.len() {
                let _ = check_string(&s[..cut], 0);
            }
        }
        for gap in 0..12 {
            let mut s = b"\"".to_vec();
            for k in 0..40 {
                s.extend(std::iter::repeat_n(b"xyzw"[k % 4], gap));
                s.extend_from_slice(esc);
            }
            s.push(b'"');
            let _ = check_string(&s, 0);
            for cut in (0..s.len()).step_by(7) {
                let _ = check_string(&s[..cut], 0);
            }
        }
    }
}

/// Runs of 1 to 9 backslashes (odd runs escape the next byte, even runs do
/// not) ending at every position of the first windows, before each kind of
/// byte that can follow, and before the end of the input.
#[test]
fn backslash_runs_at_every_position() {
    let after: [&[u8]; 8] = [b"\"", b"n", b"u0041", b"uD800", b"x", b"\n", b"t", b""];
    for run in 1..10 {
        for end in run..150 {
            for tail in after {
                let mut s = b"\"".to_vec();
                s.extend(std::iter::repeat_n(b'a', end - run));
                s.extend(std::iter::repeat_n(b'\\', run));
                s.extend_from_slice(tail);
                s.extend_from_slice(b"zz\"");
                let _ = check_string(&s, 0);
                let _ = check_string(&s[..1 + end + tail.len()], 0);
            }
        }
    }
}

/// Pseudo-random bytes from an alphabet rich in stops, escapes and
/// multi-byte characters: every `"` in the buffer starts a string.
#[test]
fn random_strings_agree_with_the_oracle() {
    let alphabet: [&[u8]; 22] = [
        b"a", b"b", b" ", b"0", b"D", b"8", b"c", b"F", b"u", b"\\", b"\\", b"\"", b"\\n", b"\\u", b"\\uD8", b"\\uDC", b"\n",
        b"\x01", b"\x7F", b"\xC3\xA9", b"\xF0\x9F\x98\x80", b"\xFF",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let mut s = b"\"".to_vec();
        let len = rng.below(300);
        let quiet = rng.below(4) == 0; // some long runs without stops
        while s.len() < len {
            if quiet {
                s.extend_from_slice(rng.pick(&alphabet[..8]));
            } else {
                s.extend_from_slice(rng.pick(&alphabet));
            }
        }
        for start in 0..s.len() {
            if s[start] == b'"' {
                let _ = check_string(&s, start);
            }
        }
    }
}

/// The shared corpus: every `"` of every file starts a string (real strings,
/// and between strings the JSON around them read as if it were one).
#[test]
fn corpus_strings_agree_with_the_oracle() {
    let files = corpus_files();
    assert!(files.len() > 20, "the shared corpus: {} files", files.len());
    for path in files {
        let b = std::fs::read(&path).unwrap();
        let mut strings = 0;
        for start in memchr::memchr_iter(b'"', &b) {
            let _ = check_string(&b, start);
            strings += 1;
        }
        assert!(strings > 0 || !b.contains(&b'"'), "{}", path.display());
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
