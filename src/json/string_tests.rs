//! The SIMD string scan against oracles: the scanner as it was before SIMD
//! (byte by byte), the word-at-a-time fallback, and serde_json itself for
//! the hazards; and the decoding's two paths against each other.

use super::*;
use crate::json::scan::simd_tests::{corpus_files, Rng};
use crate::json::scan::SyntaxError;

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError { offset, message: message.into() })
}

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

/// The first windows' shortcuts (`short_plain_end`, `short_plain_end32`,
/// before the full scans) against the full scans alone: a closing quote at
/// every place of the first two 16-byte windows and just past them, a backslash (or an escaped quote, or
/// a run of two), a control byte, a non-ASCII byte or a second quote at
/// every place before and after it, the input cut at every length.
#[test]
fn first_window_shortcut_agrees_with_the_full_scans() {
    let others: [&[u8]; 7] = [b"\\", b"\\\\", b"\\\"", b"\n", b"\x01", b"\xC3\xA9", b"\""];
    let (mut taken, mut taken32) = (0, 0);
    for quote in 0..36 {
        for other in others {
            for at in 0..36 {
                let mut s = b"\"".to_vec();
                s.extend(std::iter::repeat_n(b'k', quote));
                s.push(b'"');
                s.extend_from_slice(b"xyz\"tail of the input\"");
                // The other bytes replace those at `at`, before or after the quote.
                let place = 1 + at;
                if place > s.len() {
                    continue;
                }
                s.splice(place..(place + other.len()).min(s.len()), other.iter().copied());
                // (From 1: the full scans take the opening quote as read.)
                for cut in 1..=s.len() {
                    let b = &s[..cut];
                    let want = check_string(b, 0);
                    let (mut full_hazards, mut hazards) = (Vec::new(), Vec::new());
                    assert_eq!(string_end(b, 0, &mut hazards), string_end_simd(b, 0, &mut full_hazards), "{:?}", String::from_utf8_lossy(b));
                    assert_eq!(hazards, full_hazards);
                    if want.is_ok() {
                        assert_eq!(validated_string_end(b, 0), validated_string_end_simd(b, 0), "{:?}", String::from_utf8_lossy(b));
                    }
                    taken += usize::from(short_plain_end(b, 0).is_some());
                    taken32 += usize::from(short_plain_end32(b, 0).is_some());
                }
            }
        }
    }
    // The shortcut did answer for most of these strings when it can (SIMD).
    assert!(!crate::json::simd::ENABLED || (taken > 10_000 && taken32 > 10_000), "{taken} {taken32}");
}

/// The shortcut answers only with 16 bytes after the quote, ending at the
/// first stop when that is a quote.
#[test]
fn first_window_shortcut_answers_only_for_a_plain_close() {
    let at = |s: &[u8]| short_plain_end(s, 0);
    if crate::json::simd::ENABLED {
        assert_eq!(at(b"\"key\": 1, \"more\": 2}"), Some(5));
        assert_eq!(at(b"\"\" and sixteen bytes"), Some(2));
        assert_eq!(at(b"\"0123456789abcde\"x"), Some(17));
        // The 16th byte after the quote is the last the window holds.
        assert_eq!(at(b"\"0123456789abcdef\""), None);
        assert_eq!(at(b"\"short\""), None, "fewer than 16 bytes after the quote");
        assert_eq!(at(b"\"a\\\"b\" and more bytes\""), None, "a backslash first");
        assert_eq!(at(b"\"a\nb\" and more bytes\""), None, "a control byte first");
        assert_eq!(at(b"\"ab\" then \\ and \x01 later"), Some(4));
        // Two windows: 32 bytes after the quote, the close in either.
        let two = |s: &[u8]| short_plain_end32(s, 0);
        assert_eq!(two(b"\"key\": 1, \"more\": 2, \"rest\": 3, \"end\": 4}"), Some(5));
        assert_eq!(two(b"\"0123456789abcdef\" then sixteen more"), Some(18));
        assert_eq!(two(b"\"0123456789abcdef0123456789abcde\"x"), Some(33));
        assert_eq!(two(b"\"0123456789abcdef0123456789abcdef\""), None);
        assert_eq!(two(b"\"key\": 1, \"more\": 2}"), None, "fewer than 32 bytes after the quote");
        assert_eq!(two(b"\"0123456789abcdef\\\"x\" and sixteen more"), None, "a backslash first, second window");
        assert_eq!(two(b"\"0123456789abcdef\tx\" and sixteen more"), None, "a control byte first, second window");
        assert_eq!(two(b"\"0123456789a\\bcdef\" and sixteen more"), None, "a backslash in the first window");
    } else {
        assert_eq!(at(b"\"key\": 1, \"more\": 2}"), None);
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

/// The scan's later 64-byte windows (from the byte after the quote): each
/// kind of escape, backslash run, control byte and close at every place
/// across the first three window edges, after plain text and after dense
/// `\"` (so the odd-run carry crosses the edges too), with the input whole
/// and cut just after it (the padded last window).
#[test]
fn escapes_straddle_later_windows() {
    let pieces: [&[u8]; 16] = [
        br"\\", br#"\\\""#, br"\\\", br"\uD83D\uDE00", br"\u00e9", br"\uD800", br"\uDC00x", br"\uD800\u0041", br"\t", br"\/",
        br"\x", br#"\u12""#, b"\\\\\n", b"\\\x01", b"\x01", b"\"",
    ];
    for fill in [&b"a"[..], br#"\""#, br"\u0041"] {
        for piece in pieces {
            for lead in 40..200 {
                let mut s = b"\"".to_vec();
                while s.len() < 1 + lead {
                    s.extend_from_slice(fill);
                }
                s.truncate(1 + lead);
                s.extend_from_slice(piece);
                let after = s.len();
                s.extend(std::iter::repeat_n(b'b', 70));
                s.extend_from_slice(b"\"tail");
                let _ = check_string(&s, 0);
                for cut in after.saturating_sub(2)..=after + 1 {
                    let _ = check_string(&s[..cut.min(s.len())], 0);
                }
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

/// The word-at-a-time test never misses a byte that stops a string:
/// every byte value in every position of otherwise ordinary words, and
/// pseudo-random words against the byte-by-byte definition.
#[test]
fn word_test_agrees_with_the_byte_test() {
    let stops = |c: u8| c == b'"' || c == b'\\' || c < 0x20;
    for fill in [b'a', 0x7F, 0x80, 0xFF, b' '] {
        for pos in 0..8 {
            for c in 0..=255u8 {
                let mut w = [fill; 8];
                w[pos] = c;
                assert_eq!(word_may_stop_string(u64::from_le_bytes(w)), w.iter().any(|b| stops(*b)), "{w:?}");
            }
        }
    }
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let w = x.to_le_bytes();
        assert_eq!(word_may_stop_string(x), w.iter().any(|b| stops(*b)), "{w:?}");
    }
    // Strings that end or break in every position of the first words.
    for at in 0..20 {
        let mut s = vec![b'"'];
        s.extend(std::iter::repeat_n(b'x', at));
        s.extend_from_slice(b"\"tail");
        assert_eq!(scan_string(&s, 0), Ok(at + 2));
        let mut bad = vec![b'"'];
        bad.extend(std::iter::repeat_n(b'x', at));
        bad.extend_from_slice(b"\n\"");
        assert_eq!(scan_string(&bad, 0).map_err(|e| e.offset), Err(at + 1));
    }
}

/// The whole-text path (valid UTF-8) and the piecewise one (not) decode
/// the same escapes alike: a bad byte at the end changes only the end.
#[test]
fn valid_and_lossy_paths_agree() {
    for raw in [
        "",
        "plain",
        r#"a\nb\tc\rd\be\ff\/g\\h\"i"#,
        r"\u00e9\u6771\uD83D\uDE00 \u0000 \uD800x \uDC00 \u12",
        "naïve 東京 😀 \\é \\",
        "\\é",
        "é\\nñ\\u00e9",
    ] {
        let (mut valid, mut lossy) = (String::new(), String::new());
        unescape_into(raw.as_bytes(), &mut valid);
        unescape_into(&[raw.as_bytes(), b"\xff"].concat(), &mut lossy);
        assert_eq!(lossy, format!("{valid}\u{fffd}"), "{raw:?}");
    }
}

/// The windowed backslash search finds every escape: pseudo-random texts
/// with escapes (runs of `\\` among them) at and across the 64-byte window
/// edges decode as serde_json decodes them.
#[test]
fn unescape_agrees_with_serde_json_across_windows() {
    let pieces: [&str; 12] = [r"\n", r#"\""#, r"\\", r"\\\\", r"\t", r"\/", r"\u00e9", r"\uD83D\uDE00", "a", "é", "東", "xyz "];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        let mut raw = String::new();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = (x % 200) as usize;
        while raw.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly plain text, so that escapes land at every offset of a window.
            let k = (x % 40) as usize;
            raw.push_str(if k < pieces.len() { pieces[k] } else { "b" });
        }
        let want: String = serde_json::from_str(&format!("\"{raw}\"")).unwrap();
        let mut got = String::from(">");
        unescape_into(raw.as_bytes(), &mut got);
        assert_eq!(got, format!(">{want}"), "{raw:?}");
    }
}

/// `hex4` (the scan's check of `\uXXXX` digits and the decoding's reader)
/// against `u16::from_str_radix` on four ASCII hex digits: every byte value
/// at each of the four places among valid digits of both cases, and the
/// digits cut short by the end of the input.
#[test]
fn hex_digits_read_as_from_str_radix_reads_them() {
    let reference = |d: &[u8]| {
        let all_hex = d.len() == 4 && d.iter().all(u8::is_ascii_hexdigit);
        all_hex.then(|| u16::from_str_radix(std::str::from_utf8(d).unwrap(), 16).unwrap())
    };
    for around in [*b"0000", *b"9fA3", *b"FfaE", *b"b7c1"] {
        for place in 0..4 {
            for c in 0..=255u8 {
                let mut d = around;
                d[place] = c;
                let input = [&b"\\u"[..], &d, b"tail"].concat();
                assert_eq!(hex4(&input, 2), reference(&d), "{d:?}");
                for cut in 2..6 {
                    assert_eq!(hex4(&input[..cut], 2), None, "{d:?} cut at {cut}");
                }
            }
        }
    }
    assert_eq!(hex4(b"\\uDBFF", 2), Some(0xDBFF));
    assert_eq!(hex4(b"ab", 5), None, "past the end");
}

/// Short texts take the ASCII test before the validator: they decode as
/// `String::from_utf8_lossy` does, at every length around the cut-off, with
/// a non-ASCII or invalid byte at every place.
#[test]
fn short_texts_decode_as_lossy_decodes_them() {
    let bytes: [&[u8]; 5] = [b"a", "é".as_bytes(), b"\xff", b"\x80", "東".as_bytes()];
    for len in 0..80 {
        let plain = vec![b'x'; len];
        assert_eq!(lossy(&plain), String::from_utf8_lossy(&plain), "{len}");
        for odd in bytes {
            for at in 0..=len {
                let raw = [&plain[..at], odd, &plain[at..]].concat();
                assert_eq!(lossy(&raw), String::from_utf8_lossy(&raw), "{raw:?}");
                let escaped = [&raw[..], b"\\n"].concat();
                let mut out = String::new();
                unescape_into(&escaped, &mut out);
                assert_eq!(out, format!("{}\n", String::from_utf8_lossy(&raw)), "{escaped:?}");
            }
        }
    }
}
