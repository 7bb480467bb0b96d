//! `json::build::value` gives serde_json's `Value` or nothing.
//!
//! The builder stands in for `serde_json::from_slice::<Value>` on every
//! record most formats read: where it gives a value, it must be the value
//! serde_json gives, with the same key order and number texts (a `Value`'s
//! `==` ignores key order, so both are also compared serialised); where
//! serde_json refuses the bytes, it must give nothing. Checked on every line
//! and document of the corpus, fixtures and fuzz inputs, on generated values
//! written with escapes, surrogate pairs, odd numbers and whitespace, and on
//! those bytes mangled.

mod common;

use std::path::PathBuf;

use agent_trace_viewer::json::build;
use proptest::prelude::*;
use serde_json::Value;

/// Whether the builder agrees with serde_json on `bytes`; the builder's
/// value, if it gave one.
fn agrees(bytes: &[u8]) -> Result<Option<Value>, String> {
    let fast = build::value(bytes);
    let exact = serde_json::from_slice::<Value>(bytes);
    match (fast, exact) {
        (None, _) => Ok(None),
        // `==` on maps ignores key order; their texts do not.
        (Some(f), Ok(e)) if f == e && serde_json::to_string(&f).ok() == serde_json::to_string(&e).ok() => Ok(Some(f)),
        (Some(f), Ok(e)) => Err(format!("values differ:\n fast {f}\nexact {e}")),
        (Some(f), Err(e)) => Err(format!("built {f} where serde_json refuses: {e}")),
    }
}

#[test]
fn every_record_of_the_corpus_fixtures_and_fuzz_inputs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = common::files_under(&common::corpus_dir());
    files.extend(common::files_under(&root.join("fixtures")));
    files.extend(common::files_under(&root.join("fuzz-regressions")));
    files.sort();
    let (mut built, mut readable, mut failures) = (0usize, 0usize, Vec::new());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let whole = std::iter::once(bytes.as_slice());
        for record in whole.chain(bytes.split(|&c| c == b'\n')) {
            readable += usize::from(serde_json::from_slice::<serde::de::IgnoredAny>(record).is_ok());
            match agrees(record) {
                Ok(v) => built += usize::from(v.is_some()),
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{} records differ:\n{}", failures.len(), failures.join("\n"));
    // The builder did the work (a test of nothing would pass too): all but
    // the few values it leaves to serde_json (lone surrogates, deep nesting).
    assert!(built > 3_000 && built * 100 >= readable * 98, "{built} of {readable} readable records built");
}

#[test]
fn edges_agree() {
    let cases: &[&str] = &[
        "0", "-0", "01", "-", "1.", ".5", "1e5", "1E+5", "-1.25e-3", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "123456789012345678901234567890", "1.0", "100", "-100", "0.0", "1e400", "NaN",
        "Infinity", "true", "tru", "false", "null", "nul", "[]", "{}", "[1,]", "{\"a\":1,}", "{\"a\" : 1 , \"a\" : 2}",
        "{\"b\":1,\"a\":2,\"b\":3}", "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83dx\"", "\"\\ud83d\\u0041\"",
        "\"\\u00e9\\u0000\"", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"a\tb\"", "\"a\\tb\\/\\\\\\\"\\b\\f\\r\\n\"", "\"é\"",
        " \n\t\r[1 , 2]\r\n ", "[1 2]", "{\"a\" 1}", "{1:2}", "[\"a\"", "\"abc", "", " ", "[1]x", "[1] [2]", "\u{feff}[1]",
        "[-]", "[1-2]", r#"{"$serde_json::private::Number": "1"}"#, r#"{"a": {"$serde_json::private::Number": "1", "b": 2}}"#,
        r#"{"b": 1, "$serde_json::private::Number": "1"}"#, r#"{"$serde_json::private::Number": 1}"#, "[1.5e]", "[1.5e+]", "[--1]", "[+1]", "[0x10]", "[1.5.5]", "[00]", "[-01]",
    ];
    for c in cases {
        agrees(c.as_bytes()).unwrap_or_else(|e| panic!("{c:?}: {e}"));
    }
    // Invalid UTF-8 inside and outside strings.
    for bytes in [&b"\"\xff\""[..], b"[\"a\xc3\"]", b"\"\xed\xa0\x80\"", b"{\"\xff\":1}"] {
        agrees(bytes).unwrap_or_else(|e| panic!("{bytes:?}: {e}"));
    }
    // Nesting up to and past serde_json's limit.
    for depth in [1, 50, 99, 100, 101, 127, 128, 129, 200] {
        let s = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        agrees(s.as_bytes()).unwrap_or_else(|e| panic!("depth {depth}: {e}"));
        let s = format!("{}1{}", "{\"k\":".repeat(depth), "}".repeat(depth));
        agrees(s.as_bytes()).unwrap_or_else(|e| panic!("object depth {depth}: {e}"));
    }
    assert!(build::value(b"{\"a\":[1,{\"b\":\"\\u00e9\\n\"}],\"c\":-2.5}").is_some(), "the common shapes are built");
}

/// A JSON value's text, written with the liberties JSON allows.
fn json_text() -> impl Strategy<Value = String> {
    let string = prop::collection::vec(
        prop_oneof![
            "[a-z ]{1,6}".prop_map(|s| s),
            Just("\\n".to_string()),
            Just("\\\"".to_string()),
            Just("\\\\".to_string()),
            Just("\\/".to_string()),
            Just("\\u00e9".to_string()),
            Just("\\uD83D\\uDE00".to_string()),
            Just("\\ud83d".to_string()),
            Just("\\udc00".to_string()),
            Just("é😀".to_string()),
            Just("\\u0000".to_string()),
        ],
        0..6,
    )
    .prop_map(|parts| format!("\"{}\"", parts.concat()));
    let number = prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| f.to_string()),
        "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?".prop_map(|s| s),
        "-?0[0-9]{1,3}".prop_map(|s| s),
    ];
    let leaf = prop_oneof![string.clone(), number, Just("true".to_string()), Just("false".to_string()), Just("null".to_string())];
    let ws = prop_oneof![Just(""), Just(" "), Just("\n  "), Just("\t\r\n")];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..6), ws.clone()).prop_map(|(items, w)| format!("[{w}{}{w}]", items.join(&format!("{w},{w}")))),
            (prop::collection::vec(("\"[a-c]{1,2}\"", inner), 0..6), ws.clone())
                .prop_map(|(members, w)| format!("{{{w}{}{w}}}", members.iter().map(|(k, v)| format!("{k}{w}:{w}{v}")).collect::<Vec<_>>().join(","))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_values_agree(text in json_text()) {
        agrees(text.as_bytes()).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn mangled_values_agree(text in json_text(), at in any::<prop::sample::Index>(), byte in prop_oneof![Just(b'"'), Just(b'\\'), Just(b','), Just(b'}'), Just(b']'), Just(b'u'), Just(b'-'), Just(b'.'), Just(b'e'), Just(0x1f), Just(0xff), Just(b' ')], insert in any::<bool>()) {
        let mut bytes = text.into_bytes();
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            if insert { bytes.insert(i, byte) } else if let Some(b) = bytes.get_mut(i) { *b = byte }
        }
        agrees(&bytes).map_err(TestCaseError::fail)?;
    }
}

/// A string at a hole reads as empty and is not decoded (nor checked beyond
/// its end); everything else is serde_json's value.
#[test]
fn holes_read_as_empty_strings() {
    let doc = r#"{"a": "kept \u00e9", "b": [1, "left \" out", {"c": "left out too"}], "d": "x"}"#;
    let at = |s: &str, len: usize| doc.find(s).unwrap()..doc.find(s).unwrap() + len;
    let holes = [at(r#""left \""#, r#""left \" out""#.len()), at(r#""left out too""#, r#""left out too""#.len())];
    let v = agent_trace_viewer::json::build::value_with_holes(doc.as_bytes(), &holes).unwrap();
    assert_eq!(v, serde_json::json!({"a": "kept é", "b": [1, "", {"c": ""}], "d": "x"}));
    assert_eq!(agent_trace_viewer::json::build::value_with_holes(doc.as_bytes(), &[]), serde_json::from_str(doc).ok());
}
