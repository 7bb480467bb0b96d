//! The query language: `query::filter` on arbitrary query text. The input is
//! `<query>\n<trace bytes>`; without a trace (or when it does not parse) a
//! built-in trace with messages, calls, results and errors is used.
#![no_main]
use agent_trace_viewer::{parse_trace, query, ParseOptions};
use libfuzzer_sys::fuzz_target;

const DEFAULT_TRACE: &str = r#"[
 {"role": "system", "content": "You are helpful."},
 {"role": "user", "content": [{"type": "text", "text": "Find \u00e9t\u00e9 \"lunch\""}, {"type": "image_url", "image_url": {"url": "data:x"}}]},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_inbox", "arguments": "{\"n\": 3}"}}, {"id": "c2", "type": "function", "function": {"name": "search", "arguments": "{bad"}}]},
 {"role": "tool", "tool_call_id": "c1", "content": "İstanbul ß ﬃ"},
 {"role": "tool", "tool_call_id": "c2", "content": {"error": "boom"}, "error": "failed"},
 {"type": "function", "function": {"name": "standalone", "arguments": {}}},
 {"tools": [{"name": "get_inbox", "inputSchema": {}}]},
 {"role": 3}
]"#;

fuzz_target!(|data: &[u8]| {
    if data.len() > fuzz_common::MAX_INPUT {
        return;
    }
    let (q, rest) = match data.iter().position(|c| *c == b'\n') {
        Some(at) => (data.get(..at).unwrap_or(&[]), data.get(at + 1..).unwrap_or(&[])),
        None => (data, &[][..]),
    };
    let Ok(q) = std::str::from_utf8(q) else { return };
    let trace = match parse_trace(rest.to_vec(), &ParseOptions::default()) {
        Ok(t) if !rest.is_empty() => t,
        _ => parse_trace(DEFAULT_TRACE.as_bytes().to_vec(), &ParseOptions::default()).expect("the built-in trace parses"),
    };
    let mut index = query::QueryIndex::default();
    match query::filter(&trace, q, &mut index) {
        Ok(hits) => {
            assert!(hits.windows(2).all(|w| w[0] < w[1]), "hits out of order");
            assert!(hits.iter().all(|i| (*i as usize) < trace.events.len()), "hit past the end");
            // A lone regex (no slash inside, so the query's `\/` plays no part) matches
            // what the regex alone matches over every event: the literal prefilter
            // (src/query/required_literal.rs) drops no event the regex would keep.
            if let Some(pattern) = q.strip_prefix('/').and_then(|r| r.strip_suffix('/')).filter(|p| !p.is_empty() && !p.contains('/')) {
                if let Ok(re) = regex_lite::RegexBuilder::new(pattern).case_insensitive(true).multi_line(true).size_limit(1 << 20).build() {
                    let want: Vec<u32> = (0..trace.events.len()).filter(|&i| re.is_match(&query::event_text(&trace, i))).map(|i| i as u32).collect();
                    assert_eq!(hits, want, "/{pattern}/");
                }
            }
            // Filtering twice with the built index gives the same answer.
            assert_eq!(query::filter(&trace, q, &mut index).ok(), Some(hits));
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            assert!(e.column >= 1 && e.column <= q.chars().count() + 1, "column {} outside the query {q:?}", e.column);
        }
    }
});
