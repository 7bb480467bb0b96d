//! The scanner's own tests: values, grammar errors and their offsets.

use super::*;

fn ok(s: &str) -> usize {
    scan_value(s.as_bytes(), 0).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}
fn bad(s: &str) -> SyntaxError {
    scan_value(s.as_bytes(), 0).expect_err(s)
}

#[test]
fn scans_valid_values_to_their_end() {
    assert_eq!(ok("{} x"), 2);
    assert_eq!(ok(r#"{"a": [1, -2.5e+3, true, false, null, "x\"y\u00e9"]} "#), 52);
    assert_eq!(ok("  [ ]"), 5);
    assert_eq!(ok("0"), 1);
}

#[test]
fn reports_grammar_errors_with_offsets() {
    let e = bad("[1, 2,]");
    assert_eq!(e.offset, 6);
    assert!(e.message.contains("trailing comma"), "{}", e.message);
    let e = bad(r#"{"a" 1}"#);
    assert_eq!(e.offset, 5);
    assert!(e.message.contains("expected `:`"));
    let e = bad("[NaN]");
    assert!(e.message.contains("NaN"));
    let e = bad("\"abc");
    assert!(e.message.contains("unterminated string"));
    let e = bad("[1 2]");
    assert!(e.message.contains("expected `,` or `]`") && e.offset == 3);
    let e = bad(r#"{"a":1,}"#);
    assert!(e.message.contains("trailing comma"));
    let e = bad(r#""a\x""#);
    assert!(e.message.contains("invalid escape"));
    // A leading zero ends the number; the caller sees the rest as trailing content.
    assert_eq!(scan_value(b"01", 0), Ok(1));
    assert!(bad("-").message.contains("expected a digit"));
    assert!(bad("1.").message.contains("decimal point"));
    assert!(bad("tru").message.contains("expected a JSON value"));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let deep = "[".repeat(200_000) + &"]".repeat(200_000);
    assert_eq!(ok(&deep), 400_000);
    let unclosed = "[".repeat(200_000);
    assert!(bad(&unclosed).message.contains("end of input"));
}

/// A string long enough to make its container worth recording.
fn pad() -> String {
    "p".repeat(ContainerEnds::MIN_BYTES)
}

#[test]
fn recorded_container_ends_are_where_the_scanner_ends_them() {
    let p = pad();
    let doc = format!(
        r#" [ [ {{"a": [1, {{"deep": [[["{p}"]]]}}], "b": {{}}}}, [] ], {{"k": "v]}}"}}, "s", [[{{"x": ["{p}"]}}]], ["short"] ] "#
    );
    let doc = doc.as_bytes();
    let mut ends = ContainerEnds::default();
    assert_eq!(scan_value_recording::<false>(doc, 0, &mut ends, &mut Vec::new(), &mut Vec::new()), scan_value(doc, 0));
    let entries: Vec<_> = ends.iter().collect();
    assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "sorted by start: {entries:?}");
    for (start, end) in &entries {
        assert_eq!(scan_value(doc, *start), Ok(*end));
    }
    // Depth 0..=DEPTH (6) and long enough: not the innermost `["p…"]` under
    // "deep" (depth 7), not the short `{"k": …}`, `["short"]`, `{}` or `[]`.
    assert_eq!(ContainerEnds::DEPTH, 6, "the document below is built for depth 6");
    let heads: Vec<String> =
        entries.iter().map(|(s, e)| String::from_utf8_lossy(&doc[*s..*e]).chars().take(8).collect()).collect();
    assert_eq!(
        heads,
        vec![
            r#"[ [ {"a""#, r#"[ {"a": "#, r#"{"a": [1"#, r#"[1, {"de"#, r#"{"deep":"#, r#"[[["pppp"#, r#"[["ppppp"#,
            r#"[[{"x": "#, r#"[{"x": ["#, r#"{"x": [""#, r#"["pppppp"#,
        ]
    );
    // The readers' helpers give the same answers with the table as without.
    let mut stack = vec![1usize];
    while let Some(at) = stack.pop() {
        match doc[at] {
            b'[' => {
                let (items, end) = array_items(doc, at);
                assert_eq!(array_items_in(doc, at, &ends), (items.clone(), end));
                stack.extend(items.iter().map(|r| r.start));
            }
            b'{' => {
                let members = object_members(doc, at).unwrap();
                assert_eq!(object_members_in(doc, at, &ends).unwrap(), members);
                stack.extend(members.iter().map(|m| m.1.start));
            }
            _ => {}
        }
    }
}

#[test]
fn a_syntax_error_keeps_only_the_containers_completed_before_it() {
    let p = pad();
    let doc = format!(r#"[{{"a": [1, "{p}"]}}, {{"b": [3, "{p}", oops]}}, ["{p}"]]"#);
    let doc = doc.as_bytes();
    let mut ends = ContainerEnds::default();
    let e = scan_value_recording::<false>(doc, 0, &mut ends, &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert_eq!(e, scan_value(doc, 0).unwrap_err());
    let kept: Vec<String> = ends.iter().map(|(s, e)| String::from_utf8_lossy(&doc[s..e]).chars().take(7).collect()).collect();
    assert_eq!(kept, vec![r#"{"a": ["#, r#"[1, "pp"#]);
    // The array helper still stops at the same error with the table.
    assert_eq!(array_items_in(doc, 0, &ends), array_items(doc, 0));
    // A table entry is only ever used for the exact start it was recorded at.
    assert_eq!(ends.end_of(1), Some(scan_value(doc, 1).unwrap()));
    assert_eq!(ends.end_of(2), None);
    assert_eq!(NO_ENDS.end_of(0), None);
}

#[test]
fn array_items_and_members() {
    let s = br#"[ {"a":1} , [2], "x" ]"#;
    let (items, end) = array_items(s, 0);
    assert_eq!(end, Ok(s.len()));
    let texts: Vec<_> = items.iter().map(|r| std::str::from_utf8(&s[r.clone()]).unwrap()).collect();
    assert_eq!(texts, vec![r#"{"a":1}"#, "[2]", r#""x""#]);

    let s = br#"[1, 2, oops]"#;
    let (items, end) = array_items(s, 0);
    assert_eq!(items.len(), 2);
    assert_eq!(end.unwrap_err().offset, 7);

    let s = br#"{"k\u0041": 1, "b": {"c": [10, 20]}}"#;
    let m = object_members(s, 0).unwrap();
    assert_eq!(m[0].0, "kA");
    assert_eq!(m[1].0, "b");
    let at = find_path(s, 0, &[Seg::key("b"), Seg::key("c"), Seg::Index(1)]);
    assert_eq!(&s[at..at + 2], b"20");
    // A missing step stops at the deepest container found.
    let at = find_path(s, 0, &[Seg::key("b"), Seg::key("zz")]);
    assert_eq!(s[at], b'{');
}
