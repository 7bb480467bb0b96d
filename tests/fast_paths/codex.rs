//! Codex rollout lines read fast (message texts, call arguments and tool
//! outputs left in the source, a shell tool's `output` read where it stands,
//! escaped twice) give what the exact path gives, edited in the ways the
//! byte-level readers could misread.

use agent_trace_viewer::model::{Content, EventBody};
use agent_trace_viewer::{parse_trace, ParseOptions};

use super::{edited, edits_parse_the_same};

/// A Codex rollout with one edit applied (see [`super::docent_run`]).
fn codex_rollout(edit: (&str, &str)) -> String {
    let lines = [
        r#"{"timestamp": "2025-01-01T00:00:00.000Z", "type": "session_meta", "payload": {"id": "s1", "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.46.0"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it \u00e9"}, {"type": "input_image", "image_url": "data:,"}]}}"#,
        r#"{"timestamp": "2025-01-01T00:00:01.000Z", "type": "event_msg", "payload": {"type": "user_message", "message": "fix it \u00e9", "images": []}}"#,
        r#"{"timestamp": "2025-01-01T00:00:02.000Z", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}", "call_id": "c1"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "{\"output\":\"a\\nb\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.5}}"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:04.000Z", "type": "response_item", "payload": {"type": "custom_tool_call_output", "call_id": "c9", "output": "plain \"text\""}}"#,
        r#"{"timestamp": "2025-01-01T00:00:05.000Z", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}}"#,
        r#"{"timestamp": "2025-01-01T00:00:05.000Z", "type": "event_msg", "payload": {"type": "agent_message", "message": "done"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:06.000Z", "type": "turn_context", "payload": {"cwd": "/w", "model": "gpt-5-codex"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:06.000Z", "type": "response_item", "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "think"}], "content": null, "encrypted_content": "xyz"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:06.000Z", "type": "event_msg", "payload": {"type": "agent_reasoning", "text": "think"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:07.000Z", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "one"}, {"type": "output_text", "text": "two"}]}}"#,
        r#"{"timestamp": "2025-01-01T00:00:07.000Z", "type": "event_msg", "payload": {"type": "agent_message", "message": "one\ntwo"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:08.000Z", "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 10, "cached_input_tokens": 5, "output_tokens": 2, "total_tokens": 12}, "last_token_usage": {"input_tokens": 10, "output_tokens": 2}}, "rate_limits": null}}"#,
        r#"{"timestamp": "2025-01-01T00:00:09.000Z", "type": "event_msg", "payload": {"type": "task_complete", "last_agent_message": "one"}}"#,
        r#"{"timestamp": "2025-01-01T00:00:09.000Z", "type": "compacted", "payload": {"message": "short"}}"#,
    ];
    edited(&lines.join("\n"), edit)
}

#[test]
fn codex_lines_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (r#""type": "response_item""#, r#""typ\u0065": "response_item""#),
        (r#""type": "response_item""#, r#""type": "response_\u0069tem""#),
        (r#""type": "response_item""#, r#""type": "response_item", "type": "event_msg""#),
        (r#""timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#, r#""type": "response_item""#),
        (r#""timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#, r#""timestamp": 5, "type": "response_item""#),
        (r#""role": "user""#, r#""role": 1"#),
        (r#""role": "user""#, r#""role": "us\u0065r""#),
        (r#"{"type": "input_text", "text": "fix it \u00e9"}"#, r#"{"type": "input_text", "text": 1}"#),
        (r#"{"type": "input_text", "text": "fix it \u00e9"}"#, r#"{"type": "input_text", "text": "a", "text": "fix it \u00e9"}"#),
        (r#"{"type": "input_text", "text": "fix it \u00e9"}"#, r#"{"type": "refusal", "refusal": "no"}"#),
        (r#"{"type": "input_text", "text": "fix it \u00e9"}"#, r#""fix it \u00e9""#),
        (r#"{"type": "input_text", "text": "fix it \u00e9"}"#, r#"{"type": "input_text", "text": "a \ud800"}"#),
        (r#"{"type": "output_text", "text": "done"}"#, r#"{"type": "output_text", "text": "don"}"#),
        (r#""content": [{"type": "output_text", "text": "done"}]"#, r#""content": "done""#),
        (r#""name": "shell""#, r#""name": """#),
        (r#""name": "shell""#, r#""name": null"#),
        (r#""call_id": "c1"}}"#, r#""id": "c1"}}"#),
        (r#""arguments": "{\"command\":[\"ls\"]}""#, r#""arguments": "not json""#),
        (r#""arguments": "{\"command\":[\"ls\"]}""#, r#""arguments": "[1]""#),
        (r#""arguments": "{\"command\":[\"ls\"]}""#, r#""arguments": {"command": ["ls"]}"#),
        (r#""arguments": "{\"command\":[\"ls\"]}""#, r#""arguments": "{\"a\": NaN}""#),
        (r#""type": "function_call", "name""#, r#""type": "custom_tool_call", "input": "x", "name""#),
        (r#""output": "{\"output\":"#, r#""output": null, "x": "{\"output\":"#),
        (r#""output": "{\"output\":"#, r#""output": 5, "x": "{\"output\":"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":0"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":\"1\""#),
        (r#"\"output\":\"a\\nb\""#, r#"\"output\":7"#),
        (r#""call_id": "c9""#, r#""call_id": 9"#),
        (r#""call_id": "c9""#, r#""call_id": "c1""#),
        (r#""output": "plain \"text\"""#, r#""output": [{"type": "input_text", "text": "t"}]"#),
        (r#""message": "fix it \u00e9""#, r#""message": "fix it""#),
    ];
    let left_in_source = edits_parse_the_same(edits, "codex", codex_rollout);
    assert!(left_in_source > edits.len() * 2 * 3, "only {left_in_source} texts read fast");
}

/// A shell tool's output, read where it stands (escaped twice) when its
/// document is in the common shape: each edit is one it must read as the
/// exact path does, or leave to it.
#[test]
fn codex_shell_outputs_read_fast_parse_the_same_both_ways() {
    const OUTPUT: &str = r#"\"output\":\"a\\nb\""#;
    let edits: &[(&str, &str)] = &[
        // Read fast: escapes of both strings, the inner text empty, plain, or escaped only outside.
        (OUTPUT, r#"\"output\":\"a \\\"q\\\" \\\\ \\/ \/ \\u00e9 \u00e9 \\ud83d\\ude00 \ud83d\ude00 é \\u0041 \\t\""#),
        (OUTPUT, r#"\"output\":\"\""#),
        (OUTPUT, r#"\"output\":\"plain\""#),
        (OUTPUT, r#"\"output\":\"a\/b \u00e9\""#),
        (OUTPUT, r#"\"output\":\"\\\\\""#),
        (r#",\"metadata\""#, r#",\n \"metadata\""#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":1e400"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":\"slow\""#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":1.0"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":-3"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":null"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":[1,2]"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":99999999999999999999"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\": 1 "#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":{\"a\":1}"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":0.5e-3"#),
        // Numbers read from their text (`shell::number`): JSON's grammar or the exact way.
        (r#"\"exit_code\":1"#, r#"\"exit_code\":01"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":+1"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":-0"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":1e2"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":-"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":9223372036854775807"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":9223372036854775808"#),
        (r#"\"exit_code\":1"#, r#"\"exit_code\":-9223372036854775808"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":1E5"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":-0.0"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":1."#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":.5"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":1e"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":inf"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":0.1000000000000000055511151231257827"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":2.2250738585072011e-308"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":5e-324"#),
        (r#"\"duration_seconds\":0.5"#, r#"\"duration_seconds\":12"#),
        (r#",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.5}"#, ""),
        (r#",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.5}"#, r#",\"metadata\":null"#),
        (r#"\"duration_seconds\":0.5}}"#, r#"\"duration_seconds\":0.5}} x"#),
        (r#"\"duration_seconds\":0.5}}"#, r#"\"duration_seconds\":0.5}"#),
        (r#"\"duration_seconds\":0.5}}"#, r#"\"duration_seconds\":0.5},\"metadata\":{\"exit_code\":0}}"#),
        // Left to the exact path: an invalid inner literal, another `output`, another shape.
        (OUTPUT, r#"\"output\":\"a\\ud800\""#),
        (OUTPUT, r#"\"output\":\"a\\udc00\""#),
        (OUTPUT, r#"\"output\":\"a\\ud800\\u0041\""#),
        (OUTPUT, r#"\"output\":\"a\nb\""#),
        (OUTPUT, r#"\"output\":\"a\u0022b\""#),
        (OUTPUT, r#"\"output\":\"a\u005cnb\""#),
        (OUTPUT, r#"\"output\":\"a\u0001b\""#),
        (OUTPUT, r#"\"output\":\"a\\x\""#),
        (OUTPUT, r#"\"output\":\"a\\\u006e\""#),
        (OUTPUT, r#"\"output\": \"a\""#),
        (OUTPUT, r#"\"output\":\"a\",\"output\":\"b\""#),
        (OUTPUT, r#"\"output\":\"a\",\"outp\\u0075t\":\"b\""#),
        (OUTPUT, r#"\"output\":\"a\",\"output\":null"#),
        (OUTPUT, r#"\"output\":\"a\",\"note\":\"x\\ny\""#),
        (OUTPUT, r#"\"output\":7"#),
        (OUTPUT, r#"\"output\":\"a"#),
        (r#""output": "{\"output\""#, r#""output": " {\"output\""#),
        (r#""output": "{\"output\""#, r#""output": "{\"outp\\u0075t\""#),
    ];
    let left_in_source = edits_parse_the_same(edits, "codex", codex_rollout);
    assert!(left_in_source > edits.len() * 2 * 3, "only {left_in_source} texts read fast");
    // The shell output was read where it stands, not decoded and copied.
    let doc = codex_rollout((OUTPUT, r#"\"output\":\"a \\\"q\\\" \u00e9\""#));
    let t = parse_trace(doc.into_bytes(), &ParseOptions::default()).unwrap();
    let shell = t.events.iter().find_map(|e| match &e.body {
        EventBody::ToolResult(r) if r.call_id.as_deref() == Some("c1") => Some(&r.content),
        _ => None,
    });
    match shell {
        Some(Content::Text(text)) => {
            assert_eq!(text.decoded(), "a \"q\" é");
            assert!(text.source_range().is_some(), "the shell output was copied");
        }
        other => panic!("no shell output: {other:?}"),
    }
}

/// Lines whose payload alone is parsed (`event_msg`, `turn_context`,
/// `compacted`, a `reasoning` item) and the texts the survey reads from the
/// bytes for the mirrors: edited at the line's keys, the payload's and the
/// content items'.
#[test]
fn codex_payload_lines_and_mirrors_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        // The line around the payload.
        (r#""type": "event_msg", "payload": {"type": "agent_reasoning""#, r#""type": "event_msg", "payload": {"type": "agent_reasoning"}, "payload": {"type": "agent_reasoning""#),
        (r#""type": "turn_context""#, r#""typ\u0065": "turn_context""#),
        (r#""type": "turn_context""#, r#""type": "turn_c\u006fntext""#),
        (r#""type": "turn_context""#, r#""type": "turn_ctx""#),
        (r#""type": "turn_context""#, r#""type": "turn_context", "type": "compacted""#),
        (r#""timestamp": "2025-01-01T00:00:08.000Z", "type": "event_msg""#, r#""timestamp": 8, "type": "event_msg""#),
        (r#""timestamp": "2025-01-01T00:00:08.000Z", "type": "event_msg""#, r#""type": "event_msg""#),
        (r#""timestamp": "2025-01-01T00:00:08.000Z""#, r#""timestamp": "2025-01-01T00:00:08.000\u005a""#),
        (r#""payload": {"type": "task_complete""#, r#""payload": 5, "x": {"type": "task_complete""#),
        (r#""payload": {"type": "token_count""#, r#""payload": {"type": "agent_message", "type": "token_count""#),
        (r#""payload": {"message": "short"}"#, r#""payload": {"message": "short", "extra": {"a": [1, 2.50, null]}}"#),
        // The survey reads each line's timestamp, type and payload once for
        // both passes (`fast::Head`): repeated and escaped keys, broken lines
        // between the others, keys in other orders.
        (r#"{"timestamp": "2025-01-01T00:00:02.000Z""#, r#"{"oops"}
{"timestamp": "2025-01-01T00:00:02.000Z""#),
        (r#"{"timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#, r#"[1]
{"timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#),
        (r#"{"timestamp": "2025-01-01T00:00:00.000Z", "type": "session_meta""#, r#"{"timestamp": "2025-01-01T00:00:00.000Z", "timestamp": "x", "type": "session_meta""#),
        (r#"{"timestamp": "2025-01-01T00:00:00.000Z", "type": "session_meta""#, r#"{"timest\u0061mp": "2025-01-01T00:00:00.000Z", "type": "session_meta""#),
        (r#"{"timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#, r#"{"timestamp": "2025-01-01T00:00:01.000Z", "timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#),
        (r#"{"timestamp": "2025-01-01T00:00:01.000Z", "type": "response_item""#, r#"{"type": "response_item", "timestamp": "2025-01-01T00:00:01.\u0030000Z""#),
        (r#"{"timestamp": "2025-01-01T00:00:05.000Z", "type": "response_item""#, r#"{"timestamp": null, "type": "response_item""#),
        (r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item""#, r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_ite""#),
        // The texts of the items mirrored.
        (r#"[{"type": "output_text", "text": "one"}"#, r#"[{"type": "output_text", "t\u0065xt": "one"}"#),
        (r#"{"type": "output_text", "text": "two"}"#, r#"{"type": "output_text", "text": "x", "text": "two"}"#),
        (r#"{"type": "output_text", "text": "two"}"#, r#""two""#),
        (r#"{"type": "output_text", "text": "two"}"#, r#"{"type": "output_text", "text": 2}"#),
        (r#"{"type": "output_text", "text": "two"}"#, r#"{"type": "output_text", "text": "t\u0077o"}"#),
        (r#""role": "assistant", "content": [{"type": "output_text", "text": "one"}"#, r#""role": "assist\u0061nt", "content": [{"type": "output_text", "text": "one"}"#),
        (r#""role": "assistant", "content": [{"type": "output_text", "text": "one"}"#, r#""role": "assistant", "role": "user", "content": [{"type": "output_text", "text": "one"}"#),
        (r#""role": "assistant", "content": [{"type": "output_text", "text": "one"}"#, r#""role": "system", "content": [{"type": "output_text", "text": "one"}"#),
        (r#""type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "one"}"#, r#""type": "message", "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "one"}"#),
        (r#""message": "one\ntwo""#, r#""message": "one""#),
        (r#""message": "one\ntwo""#, r#""message": "two""#),
        (r#""summary": [{"type": "summary_text", "text": "think"}], "content": null"#, r#""summary": [], "content": [{"type": "reasoning_text", "text": "think"}]"#),
        (r#""summary": [{"type": "summary_text", "text": "think"}]"#, r#""summary": {"text": "think"}"#),
        (r#""type": "reasoning", "summary""#, r#""type": "re\u0061soning", "summary""#),
        (r#""text": "think"}"#, r#""text": "th\u0069nk"}"#),
        (r#""payload": {"type": "agent_reasoning", "text": "think"}"#, r#""payload": {"type": "agent_reasoning", "text": "think", "text": "other"}"#),
    ];
    let left_in_source = edits_parse_the_same(edits, "codex", codex_rollout);
    assert!(left_in_source > edits.len() * 2 * 3, "only {left_in_source} texts read fast");
}

/// `codex_rollout` with the spaces after its keys and between its members
/// taken out: the payloads then read as serde_json writes them, so a
/// key-value event's line and search text come from the bytes.
fn compact_rollout(edit: (&str, &str)) -> String {
    codex_rollout(edit).replace("\": ", "\":").replace(", \"", ",\"")
}

/// What a key-value event shows and what free-text queries find, whether
/// its value was left in the source or parsed: compared before anything
/// parses the values left in the source. Returns how many were left there.
fn same_lines_and_hits(doc: &str) -> Result<usize, String> {
    use agent_trace_viewer::analysis::summary::summary;
    use agent_trace_viewer::query::{filter, QueryIndex};
    let options = |exact_only| ParseOptions { format: Some("codex".to_string()), exact_only, ..Default::default() };
    let fast = parse_trace(doc.as_bytes().to_vec(), &options(false)).map_err(|e| e.to_string())?;
    let exact = parse_trace(doc.as_bytes().to_vec(), &options(true)).map_err(|e| e.to_string())?;
    let lines = |t: &agent_trace_viewer::model::Trace| t.events.iter().map(|e| summary(t, e)).collect::<Vec<_>>();
    for needle in ["done", "tokens", "token", "rate", "x", "info total", "10", "nope", "one", "ONE two", "kelvin", "\"type\"", "ka", "b \\", "1e5", "0 1e5", "a b"] {
        let hits = |t| filter(t, needle, &mut QueryIndex::default()).map_err(|e| e.to_string());
        if hits(&fast)? != hits(&exact)? {
            return Err(format!("{needle:?} finds other events"));
        }
    }
    if lines(&fast) != lines(&exact) {
        return Err(format!("lines differ:\n{:#?}\n{:#?}", lines(&fast), lines(&exact)));
    }
    let in_source = |t: &agent_trace_viewer::model::Trace| {
        t.events.iter().filter(|e| matches!(&e.body, EventBody::KeyValue(kv) if kv.value.source_range().is_some())).count()
    };
    assert_eq!(in_source(&exact), 0, "the exact path leaves no value in the source");
    Ok(in_source(&fast))
}

/// `event_msg` lines read from the bytes (`fast_events.rs`): a
/// `token_count`'s counts and a mirror's text, the payload left in the
/// source. Each edit is one it must read as the exact path does, or leave
/// to it; each is tried on the rollout as written and compacted.
#[test]
fn codex_event_msgs_read_fast_parse_the_same_both_ways() {
    const LAST: &str = r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}"#;
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Counts.
        (LAST, r#""last_token_usage": {"input_tokens": 10.0, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": -1, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": "10", "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": null, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 1e3, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 99999999999999999999, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 18446744073709551615, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "input_tokens": 11, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"in\u0070ut_tokens": 10, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2, "cache_read_input_tokens": 7}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "cached_input_tokens": null, "cache_read_input_tokens": 7}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "cached_input_tokens": 3, "cache_read_input_tokens": 7, "total_tokens": 0}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 0, "output_tokens": 0}"#),
        (LAST, r#""last_token_usage": null"#),
        (LAST, r#""last_token_usage": [1]"#),
        (LAST, r#""lastTokenUsage": {}"#),
        (r#""cached_input_tokens": 5"#, r#""cached_input_tokens": 5.5"#),
        // `info` and its usage objects walked in one pass (fast_events::info):
        // repeated keys at each level, other orders, missing members, escapes.
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2, "x": 1, "output_tokens": 3}"#),
        (LAST, r#""last_token_usage": {"x": 1, "x": {"input_tokens": 4}, "input_tokens": 10, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "cached_input_tokens": 3, "cache_read_input_tokens": 7, "cache_read_input_tokens": 8}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "cached_input_tokens": 3, "cache_read_input_tokens": 7.5}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "cache_read_input_tokens": 7.5}"#),
        (LAST, r#""last_token_usage": {"total_tokens": 40, "output_tokens": 2, "reasoning_output_tokens": 1, "input_tokens": 10}"#),
        (LAST, r#""last_token_usage": {}"#),
        (LAST, r#""last_token_usage": { "input_tokens" : 10 ,"output_tokens":2 }"#),
        (LAST, r#""last_token_usage": {"\u0078": 1, "input_tokens": 10, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "details": {"a": [1, {"b": "}\""}], "input_tokens": 3}, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "model": "o4", "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}, "total_token_usage": {"input_tokens": 99}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}, "last_token_usage": null"#),
        (LAST, r#""last_token_usage": null, "last_token_usage": {"input_tokens": 10, "output_tokens": 2}"#),
        (LAST, r#""last_token_us\u0061ge": {"input_tokens": 10, "output_tokens": 2}"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}, "model_context_w\u0069ndow": 5"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}, "note": "a long string the split records as one, \"}\" more than sixty-four bytes", "model_context_window": 272000"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}, "x": {"model": 1}, "x": [{"last_token_usage": 1}]"#),
        (LAST, r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}, "model": null"#),
        (r#""info": {"total_token_usage""#, r#""info": {"last_token_usage": {"input_tokens": 3}, "total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": {"model_context_window": 1}, "x": {"total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": {}, "x": {"total_token_usage""#),
        (r#""total_tokens": 12"#, r#""total_tokens": 0"#),
        // `info` and the model.
        (r#""info": {"total_token_usage""#, r#""info": null, "x": {"total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": 5, "x": {"total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""inf": {"total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": {"model": "o4", "total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": {"model_name": "o4", "total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": {"metadata": {"model": "o4"}, "total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""model": "o3", "info": {"total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""metadata": {"model": "o3"}, "info": {"total_token_usage""#),
        (r#""info": {"total_token_usage""#, r#""info": {}, "info": {"total_token_usage""#),
        (r#""type": "token_count""#, r#""type": "token_c\u006funt""#),
        (r#""type": "token_count""#, r#""typ\u0065": "token_count""#),
        (r#""rate_limits": null"#, r#""rate_limits": {"primary": {"used_percent": 1.50, "note": "a\/b \u00e9 \u0041"}}, "rate_limits": 2"#),
        (r#""rate_limits": null"#, r#""rate_limits": {"a": 1, "a": {"x": "rate"}}"#),
        (r#""rate_limits": null"#, r#""rate_limits": "\u212a one two""#),
        // Mirrors.
        (r#""message": "done"}"#, r#""message": 5}"#),
        (r#""message": "done"}"#, r#""message": null}"#),
        (r#""message": "done"}"#, r#""message": "d\u006fne"}"#),
        (r#""message": "done"}"#, r#""message": "nope"}"#),
        (r#""message": "done"}"#, r#""message": "done", "message": "x"}"#),
        (r#""message": "done"}"#, r#""images": null, "message": "done"}"#),
        (r#""message": "done"}"#, r#""message": "done", "text": 5}"#),
        // What the line shows, from the bytes or from a parse.
        (r#""message": "done"}"#, r#""message": "done", "x": "\/ \u0041 \u00e9 \u001B \u001b \t", "n": [1.50, -0, 1E5, 1e5, 10]}"#),
        (r#"{"type": "agent_message", "message": "done"}"#, r#"{"type": "agent_message", "x": 1, "message": "done", "x": 2}"#),
        (r#"{"type": "agent_message", "message": "done"}"#, r#"{"type": "agent_message", "x": {"y": 1, "y": "done"}, "message": "done"}"#),
        (r#""message": "done"}"#, r#""message": "done", "k": "\u212a \u0130 K İ"}"#),
        (r#""message": "done"}"#, r#""message": "done", "x": "a\/b"}"#),
        (r#""type": "agent_message""#, r#""type": "agent_mess\u0061ge""#),
        (r#""type": "agent_message""#, r#""type": "user_message""#),
        (r#""type": "agent_reasoning""#, r#""type": "agent_reasoning_raw_content""#),
        (r#""type": "agent_reasoning", "text": "think""#, r#""type": "agent_reasoning", "text": "thought""#),
        (r#""message": "fix it \u00e9", "images": []"#, r#""message": "other", "images": ["data:,"]"#),
        (r#""message": "fix it \u00e9", "images": []"#, r#""message": "fix it \u00e9", "images": [], "x": "\u001b[0m \/""#),
    ];
    let mut left = 0;
    for edit in edits {
        for doc in [codex_rollout(*edit), compact_rollout(*edit)] {
            left += same_lines_and_hits(&doc).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
    }
    // The fast path was taken: a token count and three mirrors in most.
    assert!(left > edits.len() * 2 * 3, "only {left} values left in the source");
    edits_parse_the_same(edits, "codex", codex_rollout);
    edits_parse_the_same(edits, "codex", compact_rollout);
}

/// Whether the shell output answering `c1` in `doc` was read as a shell
/// document where it stands: its text is the inner `output`, left in the
/// source (not the whole string, nor a decoded copy).
fn shell_output_read_in_place(doc: &str) -> bool {
    let t = parse_trace(doc.as_bytes().to_vec(), &ParseOptions::default()).unwrap();
    t.events.iter().any(|e| match &e.body {
        EventBody::ToolResult(r) if r.call_id.as_deref() == Some("c1") => match &r.content {
            Content::Text(t) => t.source_range().is_some_and(|r| doc.as_bytes().get(r.start) != Some(&b'{')),
            _ => false,
        },
        _ => false,
    })
}

/// Shell outputs longer than the walk's 64-byte windows
/// (`codex/inner_literal.rs`), each piece placed at several offsets so that
/// runs of backslashes, escapes and the closing `\"` straddle a window's
/// end: read as the exact path reads them, and left in the source exactly
/// when the walk should take them.
#[test]
fn codex_long_shell_outputs_read_fast_parse_the_same_both_ways() {
    const OUTPUT: &str = r#"\"output\":\"a\\nb\""#;
    // (piece, read fast): each is put after padding, repeated, in a long output.
    let pieces: &[(&str, bool)] = &[
        (r"\\n", true),
        (r#"\\\"q\\\""#, true),
        (r"\\\\", true),
        (r#"\\\\\\\""#, true),
        (r"\\\\\\n", true),
        (r"\\t\\r\\b\\f\\/", true),
        (r"\/ \u00e9 \ud83d\ude00", true),
        (r"\\ud83d\\ude00", true),
        (r"\\u00e9\\u0041", true),
        (r"\\\/", true),
        (r"\\x", false),
        (r"\n", false),
        (r"\t", false),
        (r"\\ud83d", false),
        (r"\\ude00", false),
        (r"\\ud83d\\u0041", false),
        (r"\\ud83d\\\\ude00", false),
        (r"\u0022", false),
        (r"\u005c", false),
        (r"\u0001", false),
        (r"\\\u0041", false),
        (r"\\\n", false),
        (r"\\u12", false),
    ];
    let mut edits = Vec::new();
    for (piece, fast) in pieces {
        for pad in [0, 1, 2, 3, 45, 50, 51, 52, 53, 58, 61, 62, 63, 64, 120] {
            // The piece once after `pad` bytes, then after runs that end at each offset modulo 4.
            let mut text = "y".repeat(pad);
            text.push_str(piece);
            for k in 1..=9 {
                text.push_str(&"\\\\".repeat(k));
                text.push_str(if k % 2 == 0 { "z" } else { "\\\\n" });
                text.push_str(piece);
            }
            edits.push((format!(r#"\"output\":\"{text}\""#), *fast));
        }
    }
    // The closing `\"` after runs of backslashes, at each offset around a
    // window's end: it closes after 0 or 4 more (then `\\`, an inner
    // backslash), not after 2 or 6 (`\\\"`, an inner quote: the document
    // then does not parse and the whole string is the text).
    for pad in 40..70 {
        for run in [0, 2, 4, 6] {
            edits.push((format!(r#"\"output\":\"{}{}\""#, "y".repeat(pad), "\\".repeat(run)), run % 4 == 0));
        }
    }
    let mut fast_read = 0;
    for (to, fast) in &edits {
        let doc = codex_rollout((OUTPUT, to));
        edits_parse_the_same(&[(OUTPUT, to)], "codex", codex_rollout);
        assert_eq!(shell_output_read_in_place(&doc), *fast, "edit {to}");
        fast_read += usize::from(*fast);
    }
    assert!(fast_read > 100);
}

/// `codex_rollout` with each line's payload padded past the split's
/// shortest recorded container (`"pad"`, its last member), so that its
/// lines are read as Codex writes them (`fast::as_codex_writes`: the
/// timestamp, type and payload found without walking the line).
fn padded_rollout(edit: (&str, &str), compact: bool) -> String {
    let pad = format!(r#", "pad": "{}"}}}}"#, "p".repeat(120));
    let doc = codex_rollout(edit).lines().map(|l| l.strip_suffix("}}").map(|l| format!("{l}{pad}")).unwrap_or(l.to_string())).collect::<Vec<_>>().join("\n");
    if compact { doc.replace("\": ", "\":").replace(", \"", ",\"") } else { doc }
}

/// Lines read without a walk when written as Codex writes them, and a
/// call's or an output's payload known by its leading `type` in the survey
/// when no key of it may repeat (the split's `repeats`): each edit is one
/// they must read as the exact path does, or leave to it.
#[test]
fn codex_lines_as_codex_writes_them_parse_the_same_both_ways() {
    const LINE: &str = r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item", "payload": {"type": "function_call_output""#;
    const DONE: &str = r#"{"type": "output_text", "text": "done"}]}}"#;
    const LONG: &str = r#", "long": "a member long enough for the split to record the payload's end, whatever the padding is""#;
    const CALL: &str = r#"{"timestamp": "2025-01-01T00:00:02.000Z", "type": "response_item", "payload": {"type": "function_call", "name""#;
    const MIRROR: &str = r#"{"timestamp": "2025-01-01T00:00:02.000Z", "type": "event_msg", "payload": {"type": "agent_message", "message": "dup"}}
"#;
    let dup_message = r#""type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "dup"}], "name""#;
    let edits: Vec<(String, String)> = vec![
        (String::new(), String::new()),
        // The line's keys: other orders, repeats after the payload, escapes, near names.
        (LINE.into(), r#"{"type": "response_item", "timestamp": "2025-01-01T00:00:03.000Z", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item", "type": "event_msg", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timest\u0061mp": "2025-01-01T00:00:03.000Z", "type": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "typ\u0065": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamps": "2025-01-01T00:00:03.000Z", "type": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "typ": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item", "payloa": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamq": "2025-01-01T00:00:03.000Z", "type": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "tipe": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item", "paylod": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{ "timestamp" : "2025-01-01T00:00:03.000Z" , "type" : "response_item" , "payload" : {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": 3, "type": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.\u003000Z", "type": "response_item", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_\u0069tem", "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": ["response_item"], "payload": {"type": "function_call_output""#.into()),
        (LINE.into(), r#"{"timestamp": "2025-01-01T00:00:03.000Z", "type": "response_item", "payload": [{"type": "function_call_output""#.into()),
        // What follows the payload: another member (a repeat of one read, or not), spaces.
        (DONE.into(), format!(r#"{{"type": "output_text", "text": "done"}}]{LONG}}}, "type": "event_msg"}}"#)),
        (DONE.into(), format!(r#"{{"type": "output_text", "text": "done"}}]{LONG}}}, "payload": {{"type": "message", "role": "user"}}}}"#)),
        (DONE.into(), format!(r#"{{"type": "output_text", "text": "done"}}]{LONG}}}, "timestamp": 5}}"#)),
        (DONE.into(), format!(r#"{{"type": "output_text", "text": "done"}}]{LONG}}}, "x": 5}}"#)),
        (DONE.into(), format!(r#"{{"type": "output_text", "text": "done"}}]{LONG}}} }}"#)),
        // A call whose payload says `type` again, or escaped: the survey
        // must walk it, and find the message the event mirrors.
        (CALL.into(), format!("{MIRROR}{}", CALL.replace(r#""type": "function_call", "name""#, &format!(r#""type": "function_call", {dup_message}"#)))),
        (CALL.into(), format!("{MIRROR}{}", CALL.replace(r#""type": "function_call", "name""#, &format!(r#""type": "function_call", {}"#, dup_message.replacen("type", r"t\u0079pe", 1))))),
        (CALL.into(), format!("{MIRROR}{}", CALL.replace(r#""type": "function_call", "name""#, r#""type": "function_c\u0061ll", "name""#))),
        (CALL.into(), format!("{MIRROR}{}", CALL.replace(r#""type": "function_call", "name": "shell""#, r#""name": "shell", "type": "function_call""#))),
        (CALL.into(), format!("{MIRROR}{}", CALL.replace(r#""type": "function_call", "name""#, dup_message))),
        // Payloads' keys as Codex writes them and not: a key repeated after
        // the expected ones, escaped, near names, other orders.
        (r#""call_id": "c1"}"#.into(), r#""call_id": "c1", "call_id": "c2"}"#.into()),
        (r#""call_id": "c1"}"#.into(), r#""call_id": "c1", "name": "cat"}"#.into()),
        (r#""call_id": "c1"}"#.into(), r#""call_id": "c1"}"#.into()),
        (r#""call_id": "c1"}"#.into(), r#""call_ids": "c1"}"#.into()),
        (r#""name": "shell", "arguments""#.into(), r#""arguments""#.into()),
        (r#""type": "function_call", "name": "shell""#.into(), r#""name": "shell", "type": "function_call""#.into()),
        (r#""type": "function_call", "name": "shell""#.into(), r#""type": "function_call", "nam": "shell""#.into()),
        (r#""call_id": "c1", "output""#.into(), r#""call_id": "c1", "output": null, "output""#.into()),
        (r#""call_id": "c9", "output": "plain "text"""#.into(), r#""call_id": "c9", "output": "plain "text"", "output": "other""#.into()),
        (r#""call_id": "c9", "output": "plain "text"""#.into(), r#""call_id": "c9", "output": "plain "text"", "call_id": "c1""#.into()),
        (DONE.into(), r#"{"type": "output_text", "text": "done"}], "content": "other"}}"#.into()),
        (DONE.into(), r#"{"type": "output_text", "text": "done"}], "role": "user"}}"#.into()),
        (r#""role": "user", "content""#.into(), r#""role": "user", "role": "assistant", "content""#.into()),
        (r#""rate_limits": null"#.into(), r#""rate_limits": null, "info": null"#.into()),
        (r#""rate_limits": null"#.into(), r#""rate_limits": null, "model": "o3""#.into()),
        (r#""message": "done"}"#.into(), r#""message": "done", "message": "nope"}"#.into()),
        (r#""message": "done"}"#.into(), r#""message": "done", "type": "user_message"}"#.into()),
        (r#""text": "think"}}"#.into(), r#""text": "think", "text": "other"}}"#.into()),
        (r#""images": []"#.into(), r#""images": [], "message": "nope""#.into()),
    ];
    let mut left = 0;
    for (from, to) in &edits {
        let edit = [(from.as_str(), to.as_str())];
        // Padded: long payloads, ends from the split's table; not: the payloads' own keys only.
        for compact in [false, true] {
            left += edits_parse_the_same(&edit, "codex", |edit| padded_rollout(edit, compact));
        }
        left += edits_parse_the_same(&edit, "codex", codex_rollout);
        left += edits_parse_the_same(&edit, "codex", compact_rollout);
    }
    assert!(left > edits.len() * 4 * 2 * 3, "only {left} texts read fast");
}

/// What both paths share, which comparing them cannot check: each line's
/// event keeps its timestamp (moved into it, not cloned), and a broken
/// line between the others or at the end is kept as an unparsed event in
/// its place.
#[test]
fn codex_lines_keep_their_timestamps_and_broken_lines() {
    let doc = codex_rollout((r#"{"timestamp": "2025-01-01T00:00:04.000Z""#, "{\"oops\"}\n{\"timestamp\": \"2025-01-01T00:00:04.000Z\"")) + "\n[1, }";
    for exact_only in [false, true] {
        let t = parse_trace(doc.clone().into_bytes(), &ParseOptions { exact_only, ..Default::default() }).unwrap();
        assert_eq!(t.events.len(), doc.lines().count(), "one event a line");
        for (e, line) in t.events.iter().zip(doc.lines()) {
            let written = line.split("\"timestamp\": \"").nth(1).and_then(|r| r.split('"').next());
            assert_eq!(e.timestamp.as_deref(), written, "{line}");
        }
        for broken in [5, t.events.len() - 1] {
            assert!(matches!(t.events.get(broken).map(|e| &e.body), Some(EventBody::Unparsed(_))), "broken line {broken} kept in its place");
        }
    }
}

/// `token_count` usage objects with the five counts Codex writes, in its
/// order (`fast_events::usage_as_written` reads them by comparing each key
/// where it must stand, in the compacted rollout): every count at every
/// place not a plain whole number, keys near the names, out of order,
/// escaped, repeated or followed by another, in `total_token_usage` and
/// `last_token_usage`.
#[test]
fn codex_token_counts_as_codex_writes_them_parse_the_same_both_ways() {
    const TOTAL: &str = r#""total_token_usage": {"input_tokens": 10, "cached_input_tokens": 5, "output_tokens": 2, "total_tokens": 12}"#;
    const LAST: &str = r#""last_token_usage": {"input_tokens": 10, "output_tokens": 2}"#;
    let five = |input: &str, cached: &str, output: &str, reasoning: &str, total: &str| {
        format!(r#"{{"input_tokens": {input}, "cached_input_tokens": {cached}, "output_tokens": {output}, "reasoning_output_tokens": {reasoning}, "total_tokens": {total}}}"#)
    };
    let written = five("10", "5", "2", "1", "12");
    let mut usages = vec![
        written.clone(),
        five("0", "0", "0", "0", "0"),
        five("10", "5", "2", "1", "0"),
        five("9999999999999999999", "5", "2", "1", "12"),
        written.replace("}", r#", "input_tokens": 3}"#),
        written.replace("}", r#", "cache_read_input_tokens": 7}"#),
        written.replace("}", r#", "total_tokens": 3}"#),
        written.replace("{", r#"{"x": 1, "#),
        written.replace("{", r#"{"input_tokens": 4, "#),
        written.replace(r#""cached_input_tokens": 5, "output_tokens": 2"#, r#""output_tokens": 2, "cached_input_tokens": 5"#),
        written.replace("input_tokens\": 10", "input_tokenz\": 10"),
        written.replace("cached_input_tokens", "cached_input_token"),
        written.replace("total_tokens", "total_tokens_"),
        written.replace("reasoning_output_tokens", r"reas\u006fning_output_tokens"),
        written.replace("\"output_tokens\"", "\"output_token\\u0073\""),
    ];
    // Each count in turn not a plain whole number.
    for bad in ["-1", "null", "5.5", "1e3", "12.0", "\"5\"", "18446744073709551616", "[1]", "{}"] {
        for at in 0..5 {
            let mut counts = ["10", "5", "2", "1", "12"];
            counts[at] = bad;
            usages.push(five(counts[0], counts[1], counts[2], counts[3], counts[4]));
        }
    }
    let mut edits = Vec::new();
    for usage in &usages {
        edits.push((TOTAL.to_string(), format!(r#""total_token_usage": {usage}"#)));
        edits.push((LAST.to_string(), format!(r#""last_token_usage": {usage}"#)));
    }
    let edits: Vec<(&str, &str)> = edits.iter().map(|(from, to)| (from.as_str(), to.as_str())).collect();
    for edit in &edits {
        for doc in [codex_rollout(*edit), compact_rollout(*edit)] {
            same_lines_and_hits(&doc).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
    }
    edits_parse_the_same(&edits, "codex", codex_rollout);
    edits_parse_the_same(&edits, "codex", compact_rollout);
}

/// `session_meta` payloads the survey parsed, reused by the second pass
/// (matched to their line by index), and `turn_context`s read from the
/// bytes (the payload left in the source, the model it names read where it
/// stands): edited so that the payloads kept and the lines read line up or
/// not, and so that the model is named in every way `model_named` reads.
#[test]
fn codex_session_metas_and_turn_contexts_parse_the_same_both_ways() {
    const META: &str = r#"{"timestamp": "2025-01-01T00:00:00.000Z", "type": "session_meta", "payload": {"id": "s1", "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.46.0"}}"#;
    const MODEL: &str = r#""model": "gpt-5-codex""#;
    const TURN: &str = r#"{"timestamp": "2025-01-01T00:00:06.000Z", "type": "turn_context""#;
    let sub_agent = META.replace(r#""s1""#, r#""s2", "source": {"subagent": {"thread_spawn": {"parent_thread_id": "s1"}}}"#);
    let no_head = META.replace(r#""timestamp": "2025-01-01T00:00:00.000Z""#, r#""timestamp": 5"#).replace("s1", "s0");
    let owned: Vec<(String, String)> = vec![
        (META.to_string(), format!("{META}\n{}", META.replace("s1", "s2"))),
        (META.to_string(), format!("{no_head}\n{META}")),
        (META.to_string(), format!("{META}\n{no_head}\n{}", META.replace("s1", "s3"))),
        (META.to_string(), format!("{META}\n{{\"oops\"}}\n{sub_agent}")),
        (META.to_string(), format!("{META}\n{META}")),
        (TURN.to_string(), format!("{}\n{TURN}", META.replace("s1", "s2"))),
        (META.to_string(), META.replace(r#""cwd": "/w""#, r#""cwd": "/w\u00e9", "instructions": "be \"brief\"""#)),
        (META.to_string(), META.replace(r#""id": "s1""#, r#""id": "s1", "id": "s9""#)),
        (META.to_string(), META.replace(r#""id": "s1""#, r#""id": 7"#)),
        (META.to_string(), META.replace(r#""type": "session_meta""#, r#""type": "session_meta", "type": "turn_context""#)),
        (MODEL.to_string(), r#""model": "  o3  ""#.to_string()),
        (MODEL.to_string(), r#""model": """#.to_string()),
        (MODEL.to_string(), r#""model": " ""#.to_string()),
        (MODEL.to_string(), r#""model": 5"#.to_string()),
        (MODEL.to_string(), r#""model": null"#.to_string()),
        (MODEL.to_string(), r#""model": "gpt\u002d5""#.to_string()),
        (MODEL.to_string(), r#""mod\u0065l": "o3""#.to_string()),
        (MODEL.to_string(), r#""model": "o3", "model": "o4""#.to_string()),
        (MODEL.to_string(), r#""model": "o3", "info": {"model": "o4"}"#.to_string()),
        (MODEL.to_string(), r#""model": "o3", "info": 1"#.to_string()),
        (MODEL.to_string(), r#""model": "o3", "metadata": {"model": "o4"}"#.to_string()),
        (MODEL.to_string(), r#""metadata": {"model": "o4"}"#.to_string()),
        (MODEL.to_string(), r#""effort": "high""#.to_string()),
        (r#""payload": {"cwd": "/w", "model""#.to_string(), r#""payload": {"cwd": "/w", "cwd": "/v", "model""#.to_string()),
        (r#""payload": {"cwd": "/w", "model""#.to_string(), r#""payload": {"sandbox_policy": {"mode": "x", "model": "o4"}, "model""#.to_string()),
    ];
    let edits: Vec<(&str, &str)> = owned.iter().map(|(from, to)| (from.as_str(), to.as_str())).collect();
    let mut left = 0;
    for edit in &edits {
        for doc in [codex_rollout(*edit), compact_rollout(*edit)] {
            left += same_lines_and_hits(&doc).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
    }
    // The turn context's payload, a token count and three mirrors left in the source in most.
    assert!(left > edits.len() * 2 * 4, "only {left} values left in the source");
    edits_parse_the_same(&edits, "codex", codex_rollout);
    edits_parse_the_same(&edits, "codex", compact_rollout);
}
