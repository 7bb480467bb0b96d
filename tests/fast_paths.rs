//! The fast paths give exactly what the exact paths give.
//!
//! A format's fast path reads the common shapes of events straight from the
//! bytes and leaves the rest to the exact path (`ParseOptions::exact_only`
//! turns it off). Every corpus file, fixture and fuzz regression input, and
//! generated traces mangled in the ways only a byte-level reader could get
//! wrong (escaped or repeated keys, `\uXXXX` text, lone surrogates, fields to
//! validate), must parse to the same runs, events, diagnostics and metadata
//! both ways. Texts compare by their decoded strings, so a text left in the
//! source equals the same text copied out of it.

mod common;
#[path = "fast_paths/agent_catalog.rs"]
mod agent_catalog;
#[path = "fast_paths/agentlens.rs"]
mod agentlens;
#[path = "fast_paths/claude_code.rs"]
mod claude_code;
#[path = "fast_paths/codex.rs"]
mod codex;
#[path = "fast_paths/gemini_cli.rs"]
mod gemini_cli;
#[path = "fast_paths/histories.rs"]
mod histories;
#[path = "fast_paths/inspect.rs"]
mod inspect;
#[path = "fast_paths/langfuse.rs"]
mod langfuse;
#[path = "fast_paths/langsmith.rs"]
mod langsmith;
#[path = "fast_paths/otel.rs"]
mod otel;
#[path = "fast_paths/swe_agent.rs"]
mod swe_agent;

use std::path::PathBuf;

use agent_trace_viewer::model::{Content, ContentPart, EventBody, Trace};
use agent_trace_viewer::render::{agent_run_text, TextOptions};
use agent_trace_viewer::{parse_trace, ParseOptions};
use common::openai_records::trace_source;
use proptest::prelude::*;

/// Everything a parse gives but the positions' source buffer.
fn model(t: &Trace) -> String {
    format!("{:#?}", (t.format, t.layout, &t.detection, &t.runs, &t.events, &t.diagnostics, &t.metadata))
}

/// Texts of the trace left in the source (what only a fast path makes).
fn texts_in_source(t: &Trace) -> usize {
    let in_source = |c: &Content| match c {
        Content::Text(t) => usize::from(t.source_range().is_some()),
        Content::Parts(parts) => parts
            .iter()
            .filter(|p| match p {
                ContentPart::Text(t) | ContentPart::Reasoning(t) | ContentPart::Image { url: t } => t.source_range().is_some(),
                ContentPart::Other(_) => false,
            })
            .count(),
        _ => 0,
    };
    t.events
        .iter()
        .map(|e| match &e.body {
            EventBody::Message(m) => in_source(&m.content),
            EventBody::ToolResult(r) => in_source(&r.content),
            _ => 0,
        })
        .sum()
}

/// Parses `bytes` both ways; returns how many texts the fast way left in the source.
fn same_both_ways(bytes: &[u8], format: Option<&str>) -> Result<usize, String> {
    let options = |exact_only| ParseOptions { format: format.map(str::to_string), exact_only, ..Default::default() };
    let fast = parse_trace(bytes.to_vec(), &options(false));
    let exact = parse_trace(bytes.to_vec(), &options(true));
    match (fast, exact) {
        (Ok(fast), Ok(exact)) => {
            let (a, b) = (model(&fast), model(&exact));
            if a != b {
                let line = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
                let context = |s: &str| s.lines().skip(line.saturating_sub(8)).take(16).collect::<Vec<_>>().join("\n");
                return Err(format!("models differ at line {line}:\n--- fast\n{}\n--- exact\n{}", context(&a), context(&b)));
            }
            assert_eq!(texts_in_source(&exact), 0, "the exact path leaves no text in the source");
            Ok(texts_in_source(&fast))
        }
        (Err(a), Err(b)) if a.to_string() == b.to_string() => Ok(0),
        (a, b) => Err(format!("one way fails: fast {:?}, exact {:?}", a.err().map(|e| e.to_string()), b.err().map(|e| e.to_string()))),
    }
}

#[test]
fn corpus_fixtures_and_fuzz_inputs_parse_the_same_both_ways() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = common::files_under(&common::corpus_dir());
    files.extend(common::files_under(&root.join("fixtures")));
    files.extend(common::files_under(&root.join("fuzz-regressions")));
    files.sort();
    let mut left_in_source = 0;
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        match same_both_ways(&bytes, None) {
            Ok(n) => left_in_source += n,
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{} of {} files differ:\n{}", failures.len(), files.len(), failures.join("\n\n"));
    // The fast path was taken: a test of nothing would pass too.
    assert!(left_in_source > 5_000, "only {left_in_source} texts read by a fast path in {} files", files.len());
}

/// Rewrites a serialized trace the ways a byte-level reader could misread,
/// keeping it valid JSON.
fn mangle(src: &[u8], how: &[bool; 8]) -> Vec<u8> {
    let mut s = String::from_utf8(src.to_vec()).unwrap();
    if how[0] {
        // Python's json.dumps(ensure_ascii=True): every non-ASCII character escaped.
        s = s.chars().map(|c| if c.is_ascii() { c.to_string() } else { c.encode_utf16(&mut [0; 2]).iter().map(|u| format!("\\u{u:04x}")).collect() }).collect();
    }
    let once = |s: &mut String, from: &str, to: &str| {
        if let Some(i) = s.find(from) {
            s.replace_range(i..i + from.len(), to);
        }
    };
    if how[1] {
        once(&mut s, "\"role\":", "\"rol\\u0065\":");
    }
    if how[2] {
        once(&mut s, "{\"role\":", "{\"role\":\"user\",\"role\":");
    }
    if how[3] {
        once(&mut s, "\"content\":\"", "\"content\":\"\\ud800");
    }
    if how[4] {
        once(&mut s, "{\"role\":", "{\"metadata\":{\"server\":1},\"role\":");
    }
    if how[5] {
        once(&mut s, "\"function\":{", "\"function\":{\"name\":\"shadowed\",");
    }
    if how[6] {
        once(&mut s, "\"type\":\"function\"", "\"type\":\"function\",\"server\":null,\"metadata\":null");
    }
    if how[7] {
        once(&mut s, "\"text\":\"", "\"text\":\"\\/\\\\\\\"");
    }
    s.into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_traces_parse_the_same_both_ways(src in trace_source(), how in any::<[bool; 8]>()) {
        let bytes = mangle(&src, &how);
        same_both_ways(&bytes, None).map_err(|e| TestCaseError::fail(format!("{e}\nsource: {}", String::from_utf8_lossy(&bytes))))?;
        same_both_ways(&bytes, Some("openai")).map_err(|e| TestCaseError::fail(format!("{e}\nsource: {}", String::from_utf8_lossy(&bytes))))?;
    }
}

/// Records serde_json refuses although they are valid JSON: the exact path
/// makes them unparsed events with an error, and so must the fast one.
#[test]
fn records_serde_json_refuses_parse_the_same_both_ways() {
    let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let mut inputs = Vec::new();
    for n in [100, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 200] {
        inputs.push(format!(r#"[{{"role": "user", "content": "x", "extra": {}}}]"#, deep(n)));
        inputs.push(format!(r#"[{{"role": "assistant", "content": null, "tool_calls": [{{"id": "a", "type": "function", "function": {{"name": "f", "arguments": {{"k": {}}}}}}}]}}, {{"role": "tool", "tool_call_id": "a", "content": "ok"}}]"#, deep(n)));
        inputs.push(format!(r#"{{"messages": [{{"role": "tool", "content": {{"k": {}}}}}]}}"#, deep(n)));
    }
    for s in [r#""\ud800""#, r#""\udc00x""#, r#""\ud83d\ude00""#] {
        inputs.push(format!(r#"[{{"role": "user", "content": {s}}}]"#));
        inputs.push(format!(r#"[{{"role": "user", "content": "x", "extra": {{"k": [{s}]}}}}]"#));
    }
    // serde_json's private key for arbitrary-precision numbers: an object
    // starting with it is a number to serde_json, or an error.
    for v in [r#"{"$serde_json::private::Number": "1"}"#, r#"{"$serde_json::private::Number": "1", "b": 2}"#, r#"{"$serde_json::private::Number": 1}"#] {
        inputs.push(format!(r#"[{{"role": "user", "content": "x", "extra": {v}}}]"#));
        inputs.push(format!(r#"[{{"role": "tool", "content": {v}}}]"#));
        let encoded = serde_json::to_string(v).unwrap();
        inputs.push(format!(r#"[{{"role": "assistant", "content": null, "tool_calls": [{{"id": "a", "type": "function", "function": {{"name": "f", "arguments": {encoded}}}}}]}}]"#));
    }
    let mut left_in_source = 0;
    for input in &inputs {
        left_in_source += same_both_ways(input.as_bytes(), None).unwrap_or_else(|e| panic!("{input}: {e}"));
    }
    assert!(left_in_source > 10, "the fast path read the shallow ones ({left_in_source})");
}

/// The comparison can fail: a different text is a different model.
#[test]
fn the_comparison_sees_a_difference() {
    let a = parse_trace(br#"[{"role": "user", "content": "a"}]"#.to_vec(), &ParseOptions::default()).unwrap();
    let b = parse_trace(br#"[{"role": "user", "content": "b"}]"#.to_vec(), &ParseOptions::default()).unwrap();
    assert_ne!(model(&a), model(&b));
    assert_eq!(texts_in_source(&a), 1);
}

/// The AgentRun text of `doc` read as `format`, the fast way and the exact
/// way (the Docent mapping reads what a fast path left in the source), when
/// both are the same; `Err` when they differ.
fn same_agent_run_text(doc: &str, format: &str) -> Result<Option<String>, String> {
    let run = |exact_only| {
        let options = ParseOptions { format: Some(format.to_string()), exact_only, ..Default::default() };
        parse_trace(doc.as_bytes().to_vec(), &options).ok().and_then(|t| agent_run_text(&t, &TextOptions::default(), None).ok()).map(|t| t.concat())
    };
    let fast = run(false);
    if fast == run(true) { Ok(fast) } else { Err("AgentRun texts differ".to_string()) }
}

/// Applies each edit to a document `make` writes and parses the result both
/// ways, auto-detected and as `format`; returns how many texts the fast way
/// left in the source.
fn edits_parse_the_same(edits: &[(&str, &str)], format: &str, make: impl Fn((&str, &str)) -> String) -> usize {
    let mut left_in_source = 0;
    for edit in edits {
        let doc = make(*edit);
        for format in [None, Some(format)] {
            left_in_source += same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
    }
    left_in_source
}

/// `doc` with the first `from` replaced by `to` (no edit when `from` is empty).
fn edited(doc: &str, (from, to): (&str, &str)) -> String {
    if from.is_empty() { doc.to_string() } else { doc.replacen(from, to, 1) }
}

/// A Docent run's messages, with one edit applied: each edit is a shape only
/// the exact path may read (a validation error or warning, an escape, a
/// repeat) or one the fast path must read as the exact path does.
fn docent_run(older: bool, edit: (&str, &str)) -> String {
    let messages = r#"[
        {"role": "system", "content": "be brief", "id": null, "metadata": {"k": 1}},
        {"role": "user", "content": [{"type": "text", "text": "hi \u00e9", "refusal": null}], "tool_call_id": null},
        {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "think", "signature": "s", "redacted": false, "summary": null}],
         "model": "m", "tool_calls": [{"id": "c1", "function": "ls", "arguments": {"path": "/"}, "type": "function", "parse_error": null}]},
        {"role": "tool", "content": "a b", "tool_call_id": "c1", "function": "ls", "error": null},
        {"role": "assistant", "content": "x", "tool_calls": [{"id": "c2", "function": "cat", "arguments": {}, "type": null}]},
        {"role": "tool", "content": "oops", "function": "cat", "error": {"message": "no"}}
    ]"#;
    let messages = edited(messages, edit);
    if older {
        format!(r#"{{"id": "r", "metadata": {{"scores": {{}}}}, "transcripts": {{"main": {{"messages": {messages}}}}}}}"#)
    } else {
        format!(r#"{{"id": "r", "transcripts": [{{"id": "t", "messages": {messages}}}]}}"#)
    }
}

#[test]
fn docent_messages_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (r#""role": "user""#, r#""rol\u0065": "user""#),
        (r#""role": "user""#, r#""role": "us\u0065r""#),
        (r#""role": "user""#, r#""role": "user", "role": "system""#),
        (r#""role": "user""#, r#""role": "human""#),
        (r#""role": "user""#, r#""role": 1"#),
        (r#""content": "be brief""#, r#""content": null"#),
        (r#""content": "be brief""#, r#""content": 3"#),
        (r#""content": "be brief""#, r#""text": "be brief""#),
        (r#""content": "be brief""#, r#""content": "be \ud800 brief""#),
        (r#""content": "be brief""#, r#""content": "a", "content": "b""#),
        (r#""id": null"#, r#""id": 5"#),
        (r#""metadata": {"k": 1}"#, r#""metadata": null"#),
        (r#""metadata": {"k": 1}"#, r#""metadata": 1"#),
        (r#""refusal": null"#, r#""refusal": "yes""#),
        (r#""refusal": null"#, r#""refusal": true"#),
        (r#""type": "text""#, r#""type": "image""#),
        (r#""type": "text""#, r#""type": "t\u0065xt""#),
        (r#""text": "hi \u00e9""#, r#""text": 1"#),
        (r#""tool_call_id": null"#, r#""tool_call_id": ["c1"]"#),
        (r#""tool_call_id": null"#, r#""tool_call_id": [1]"#),
        (r#""redacted": false"#, r#""redacted": null"#),
        (r#""redacted": false"#, r#""redacted": "true""#),
        (r#""summary": null"#, r#""summary": 2"#),
        (r#""signature": "s""#, r#""signature": 1"#),
        (r#""model": "m""#, r#""model": 3"#),
        (r#""type": "function""#, r#""type": "fn""#),
        (r#", "type": "function""#, ""),
        (r#""type": null"#, r#""type": "function", "view": {"format": "text", "content": "ls"}"#),
        (r#""type": null"#, r#""type": null, "view": null"#),
        (r#""type": null"#, r#""type": null, "google_thought_signature": 7"#),
        (r#""parse_error": null"#, r#""parse_error": 1"#),
        (r#""arguments": {"path": "/"}"#, r#""arguments": "{\"path\": \"/\"}""#),
        (r#""arguments": {"path": "/"}"#, r#""arguments": {"path": "/", "path": "~"}"#),
        (r#""function": "ls", "arguments""#, r#""function": {"name": "ls"}, "arguments""#),
        (r#""id": "c1""#, r#""id": 1"#),
        (r#""id": "c1""#, r#""i\u0064": "c1""#),
        (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": 5, "x": [{"id": "c1""#),
        (r#""tool_call_id": "c1""#, r#""tool_call_id": 1"#),
        (r#""tool_call_id": "c1""#, r#""tool_call_id": "c9""#),
        (r#""tool_call_id": "c1""#, r#""tool_call_id": "\u0063\u0031""#),
        (r#""error": null"#, r#""error": "bad""#),
        (r#""function": "cat", "error""#, r#""function": 2, "error""#),
        (r#""content": "oops""#, r#""content": [{"type": "text", "text": "o\nops"}]"#),
    ];
    let left_in_source: usize = [false, true].into_iter().map(|older| edits_parse_the_same(edits, "docent", |edit| docent_run(older, edit))).sum();
    // The clean messages were read fast: most of them, in most runs.
    assert!(left_in_source > edits.len() * 2 * 2 * 3, "only {left_in_source} texts read fast");
}

/// Every format with a fast path takes it on its corpus files and fixtures.
#[test]
fn each_fast_format_reads_its_own_files_fast() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = common::files_under(&common::corpus_dir());
    files.extend(common::files_under(&root.join("fixtures")));
    let mut fast: std::collections::BTreeMap<&str, usize> = ["openai", "docent", "swe-agent", "claude-code", "agent-catalog", "openhands", "codex", "agentlens", "gemini-cli", "inspect"].into_iter().map(|f| (f, 0)).collect();
    for f in &files {
        let Ok(trace) = parse_trace(std::fs::read(f).unwrap(), &ParseOptions::default()) else { continue };
        if let Some(n) = fast.get_mut(trace.format) {
            *n += texts_in_source(&trace);
        }
    }
    for (format, n) in fast {
        // At least a handful: the corpus holds one agent-catalog log, without messages.
        assert!(n >= 10, "{format}: only {n} texts read by its fast path in the corpus and fixtures");
    }
}

/// OpenHands: the SDK events of the corpus and fixtures are read fast (their
/// texts stay in the source), and records mangled in the ways the byte-level
/// reader or the byte-level validation could misread parse the same both
/// ways: escaped or repeated keys, `\u` escapes, lone surrogates, fields the
/// SDK's models check given the wrong type or value, arguments that are not
/// JSON, ids that disagree.
#[test]
fn openhands_records_are_read_fast_and_the_same_both_ways() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<PathBuf> = common::files_under(&common::corpus_dir()).into_iter().filter(|f| f.to_string_lossy().contains("OpenHands__")).collect();
    files.extend(common::files_under(&root.join("fixtures/openhands")));
    files.sort();
    let mut left_in_source = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        left_in_source += same_both_ways(&bytes, Some("openhands")).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    // Most corpus files are V0 trajectories or older SDK output the
    // validation speaks about: those take the exact path.
    assert!(left_in_source > 100, "only {left_in_source} texts read fast in {} OpenHands files", files.len());
    for name in ["sdk_stream.jsonl", "sdk_stream.json", "sdk_eval_output.jsonl"] {
        let bytes = std::fs::read(root.join("fixtures/openhands").join(name)).unwrap();
        assert!(same_both_ways(&bytes, Some("openhands")).unwrap() > 10, "{name}: the fast path was not taken");
    }

    // (from, to): each applied at one occurrence, chosen by the case.
    let mangles: &[(&str, &str)] = &[
        ("\"kind\":\"", "\"kin\\u0064\":\""),
        ("{\"id\":", "{\"id\":\"twice\",\"id\":"),
        ("\"text\":\"", "\"text\":\"first\",\"text\":\""),
        ("\"text\":\"", "\"text\":\"first\",\"t\\u0065xt\":\""),
        ("\"tool_call_id\":\"", "\"tool_call_id\":\"first\",\"tool_call_id\":\""),
        ("\"text\":\"", "\"text\":\"\\ud800"),
        ("\"text\":\"", "\"text\":\"\\u00e9\\n\\\""),
        ("\"text\":\"", "\"text\":1,\"x\":\""),
        ("\"cache_prompt\":false", "\"cache_prompt\":\"yes\""),
        ("\"cache_prompt\":false", "\"cache_prompt\":2"),
        ("\"source\":\"agent\"", "\"source\":\"nobody\""),
        ("\"source\":\"agent\"", "\"source\":\"ag\\u0065nt\""),
        ("\"is_error\":false", "\"is_error\":\"maybe\""),
        ("\"is_error\":false", "\"is_error\":1"),
        ("\"exit_code\":0", "\"exit_code\":1.5"),
        ("\"exit_code\":0", "\"exit_code\":12345678901234567890"),
        ("\"timeout\":null", "\"timeout\":-1"),
        ("\"kind\":\"TerminalAction\"", "\"kind\":\"TerminalActio\""),
        ("\"kind\":\"ActionEvent\"", "\"kind\":\"MessageEvent\""),
        ("\"tool_call_id\":\"", "\"tool_call_id\":\"other"),
        ("\"arguments\":\"", "\"arguments\":\"not json"),
        ("\"role\":\"user\"", "\"role\":\"robot\""),
        ("\"llm_message\":{", "\"llm_message\":{\"content\":\"plain\",\"x\":"),
        ("\"llm_message\":{", "\"llm_message\":{\"content\":null,\"x\":"),
        ("\"reasoning_content\":null", "\"reasoning_content\":\"why\""),
        ("\"thinking_blocks\":[]", "\"thinking_blocks\":[{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"s\"}]"),
        ("\"thinking_blocks\":[]", "\"thinking_blocks\":[{\"type\":\"redacted_thinking\",\"data\":\"d\"}]"),
        ("\"thought\":[", "\"thought\":[{\"type\":\"text\",\"text\":\"\"},"),
        ("\"parent_id\":null", "\"parent_id\":null,\"unknown\":1"),
        ("\"id\":\"", "\"id\":\"__root__\",\"x\":\""),
        ("\"tools\":[", "\"tools\":[{\"kind\":\"NoSuchTool\"},"),
        ("\"content\":[{", "\"content\":[{\"type\":\"image\",\"image_urls\":[\"data:x\"]},{"),
        ("\"extended_content\":[]", "\"extended_content\":[{\"type\":\"text\",\"text\":\"more\"}]"),
    ];
    let sources: Vec<String> = ["sdk_stream.jsonl", "sdk_eval_output.jsonl"]
        .iter()
        .map(|n| std::fs::read_to_string(root.join("fixtures/openhands").join(n)).unwrap())
        .collect();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() });
    let strategy = (0..sources.len(), proptest::collection::vec((0..mangles.len(), 0usize..40), 1..4), any::<bool>());
    runner
        .run(&strategy, |(source, picks, ascii)| {
            let mut s = sources[source].clone();
            if ascii {
                s = s.chars().map(|c| if c.is_ascii() { c.to_string() } else { c.encode_utf16(&mut [0; 2]).iter().map(|u| format!("\\u{u:04x}")).collect() }).collect();
            }
            for (m, n) in picks {
                let (from, to) = mangles[m];
                let at: Vec<usize> = s.match_indices(from).map(|(i, _)| i).collect();
                if let Some(i) = at.get(n % at.len().max(1)) {
                    s.replace_range(*i..*i + from.len(), to);
                }
            }
            same_both_ways(s.as_bytes(), Some("openhands")).map_err(|e| TestCaseError::fail(format!("{e}\nsource: {s}")))?;
            same_both_ways(s.as_bytes(), None).map_err(|e| TestCaseError::fail(format!("{e}\nsource: {s}")))?;
            Ok(())
        })
        .unwrap();
}
