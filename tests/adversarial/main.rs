//! Hostile and broken input: each case ends in a clear error or diagnostic
//! that says what went wrong, never a panic. (Issue 8 grows this suite.)

#[path = "../common/mod.rs"]
mod common;

use agent_trace_viewer::{parse_trace, ParseOptions};
use common::{codes, parse};

fn err(bytes: &[u8]) -> String {
    parse_trace(bytes.to_vec(), &ParseOptions::default()).expect_err("should be refused").message
}

fn message(t: &agent_trace_viewer::model::Trace, code: &str) -> String {
    t.diagnostics.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("no {code}: {:?}", codes(t))).message.clone()
}

#[test]
fn invalid_utf8_is_named_with_its_byte_and_the_record_kept() {
    let t = parse(b"[{\"role\": \"user\", \"content\": \"a\xff\xfeb\"}, {\"role\": \"user\", \"content\": \"ok\"}]");
    assert!(message(&t, "invalid-utf8").contains("byte 0xFF at offset 31"));
    assert!(message(&t, "json-invalid").contains("not valid UTF-8"));
    assert_eq!(t.events.len(), 2);
    assert_eq!(t.events[0].body.kind(), "unparsed");
    assert_eq!(t.events[1].body.kind(), "message");
}

#[test]
fn utf16_is_converted() {
    let text = r#"[{"role": "user", "content": "hi"}]"#;
    let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    let t = parse(&le);
    assert_eq!(t.events.len(), 1);
    assert!(message(&t, "utf16").contains("UTF-16LE"));
}

#[test]
fn lone_surrogate_and_deep_nesting_are_explained() {
    let t = parse(br#"[{"role": "user", "content": "\ud800x"}]"#);
    assert!(message(&t, "json-invalid").contains("lone UTF-16 surrogate"));
    let deep = format!(r#"[{{"role": "user", "content": {}{}}}]"#, "[".repeat(100_000), "]".repeat(100_000));
    let t = parse(deep.as_bytes());
    assert!(message(&t, "json-invalid").contains("nesting deeper than 128"));
    assert_eq!(t.raw_json(0).map(<[u8]>::len), Some(deep.len() - 2));
}

#[test]
fn nan_cut_off_and_empty_inputs() {
    assert!(err(br#"[{"role": "user", "x": NaN}]"#).contains("`NaN` is not valid JSON"));
    assert!(err(br#"[{"role": "user", "x": -Infinity}]"#).contains("`-Infinity` is not valid JSON"));
    let e = err(br#"[{"role": "user", "content": "abc"#);
    assert!(e.contains("unterminated string") && e.contains("line 1, column 30"), "{e}");
    assert!(err(b"").contains("empty"));
    assert!(err(b" \n\t ").contains("only whitespace"));
}

#[test]
fn huge_integers_keep_their_digits() {
    let t = parse(br#"[{"role": "tool", "content": {"n": 123456789012345678901234567890}}]"#);
    let agent_trace_viewer::model::EventBody::ToolResult(r) = &t.events[0].body else { panic!() };
    assert_eq!(r.content.text(), r#"{"n":123456789012345678901234567890}"#);
}
