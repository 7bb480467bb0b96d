//! Model calls that re-send their history (LangSmith, Langfuse, OTel): the
//! walk reads only what a call adds to the previous call's list, the rest
//! stays in the source; edited, they parse the same both ways.

use super::{edited, edits_parse_the_same};

/// An OpenAI-shaped conversation (system, user, tool call, tool result)
/// that the history tests re-send call after call.
const CHAT_HISTORY: [&str; 4] = [
    r#"{"role": "system", "content": "be brief"}"#,
    r#"{"role": "user", "content": "list \u00e9 files"}"#,
    r#"{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}"#,
    r#"{"role": "tool", "tool_call_id": "c1", "content": "a b"}"#,
];

/// Edits of [`CHAT_HISTORY`] as the second call re-sends it: none; other
/// bytes for the same messages (not a shared prefix, the same hashes); a
/// changed message.
const HISTORY_EDITS: [(&str, &str); 3] = [
    ("", ""),
    (r#"[{"role": "system", "content": "be brief"}, {"role": "user", "content": "list \u00e9 files"}]"#, r#"[{"role": "system", "content": "be brief"},  {"role": "user", "content": "list é files"}]"#),
    (r#""content": "list \u00e9 files"}, {"role": "assistant""#, r#""content": "list \u00e8 files"}, {"role": "assistant""#),
];

/// LangSmith runs of one trace whose model calls re-send their history
/// (the walk reads only what a call adds to the previous one's list), with
/// one edit applied (see [`super::docent_run`]). The file holds the calls out of
/// walk order (`dotted_order` sorts them), and a second trace.
fn langsmith_runs(edit: (&str, &str)) -> String {
    let run = |id: u32, kind: &str, parent: Option<u32>, order: &str, rest: &str| {
        let parent = parent.map(|p| format!(r#""parent_run_id": "00000000-0000-0000-0000-00000000000{p}", "#)).unwrap_or_default();
        format!(
            r#"{{"id": "00000000-0000-0000-0000-00000000000{id}", "name": "{kind}{id}", "run_type": "{kind}", "trace_id": "00000000-0000-0000-0000-000000000001", {parent}"dotted_order": "{order}", "start_time": "2026-03-01T09:00:0{id}Z", {rest}}}"#
        )
    };
    let [sys, user, call, result] = CHAT_HISTORY;
    let answer = r#"{"role": "assistant", "content": "two files"}"#;
    let more = r#"{"role": "user", "content": "and now?"}"#;
    let llm = |msgs: &[&str], out: &str| format!(r#""inputs": {{"model": "m", "messages": [{}]}}, "outputs": {{"generations": [[{{"text": "{out}", "message": {{"role": "assistant", "content": "{out}"}}}}]]}}"#, msgs.join(", "));
    let lines = [
        run(1, "chain", None, "1", r#""inputs": {"task": "t"}"#),
        run(4, "llm", Some(1), "1.4", &llm(&[sys, user, call, result, answer, more], "bye")),
        run(2, "llm", Some(1), "1.2", &llm(&[sys, user], "calling")),
        run(3, "llm", Some(1), "1.3", &llm(&[sys, user, call, result], "two files")),
        run(5, "llm", Some(1), "1.5", &llm(&[user, call], "again")),
        run(6, "llm", Some(1), "1.6", r#""inputs": {"system": "be brief", "messages": [[{"role": "user", "content": "x"}]]}, "outputs": {}"#),
        run(7, "llm", Some(1), "1.7", r#""inputs": {"system": "be brief", "messages": [[{"role": "user", "content": "x"}, {"role": "user", "content": "y"}]]}, "outputs": {}"#),
        // The same messages in other bytes: matched by their hashes.
        run(8, "llm", Some(1), "1.8", r#""inputs": {"system": "be brief", "messages": [[{"role": "user",  "content": "x"}, {"role": "user", "content": "y"}]]}, "outputs": {}"#),
    ];
    let other = lines.iter().map(|l| l.replace("000000000001\", \"dotted", "000000000009\", \"dotted")).collect::<Vec<_>>().join("\n").replace("00000000000", "00000000009");
    edited(&format!("{}\n{other}\n", lines.join("\n")), edit)
}

#[test]
fn langsmith_histories_left_in_the_source_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        (r#""content": "list \u00e9 files"}, {"role": "assistant""#, r#""content": "list \ud800 files"}, {"role": "assistant""#),
        (r#""role": "tool""#, r#""role": 1"#),
        (r#""role": "tool""#, r#""rol\u0065": "tool""#),
        (r#"{"role": "tool""#, r#"1, {"role": "tool""#),
        (r#""model": "m", "messages""#, r#""model": "m", "role": "user", "messages""#),
        (r#""model": "m", "messages""#, r#""model": "m", "prompts": ["p"], "messages""#),
        (r#""model": "m", "messages""#, r#""model": "m", "messages": [], "messages""#),
        (r#""model": "m", "messages""#, r#""model": "m", "system": "s", "messages""#),
        (r#""model": "m", "messages": ["#, r#""model": "m", "messages": [[]], "x": ["#),
        (r#""run_type": "llm""#, r#""run_type": "llm", "run_type": "chain""#),
        (r#""run_type": "llm""#, r#""run_type": "ll\u006d""#),
        (r#""inputs": {"model""#, r#""inputs": null, "x": {"model""#),
        (r#""inputs": {"model""#, r#""inputs": {}, "inputs": {"model""#),
        (r#""content": "be brief"}"#, r#""content": NaN}"#),
    ];
    edits_parse_the_same(&[&HISTORY_EDITS[..], edits].concat(), "langsmith", langsmith_runs);
}

/// A Langfuse trace export (or, `lone`, its observations as JSON Lines)
/// whose generations re-send their history, with one edit applied (see
/// [`langsmith_runs`]); the file holds them out of start-time order.
fn langfuse_trace(lone: bool, edit: (&str, &str)) -> String {
    let obs = |id: u32, kind: &str, input: &str| {
        format!(
            r#"{{"id": "o{id}", "traceId": "t1", "type": "{kind}", "name": "{kind}{id}", "startTime": "2026-01-02T10:00:0{id}.000Z", "endTime": "2026-01-02T10:00:0{id}.500Z", "parentObservationId": {parent}, "level": "DEFAULT", "statusMessage": null, "metadata": {{}}, "usageDetails": {{}}, "costDetails": {{}}, "model": "m", "input": {input}, "output": {{"role": "assistant", "content": "out {id}"}}}}"#,
            parent = if id == 1 { "null".to_string() } else { r#""o1""#.to_string() }
        )
    };
    let [sys, user, call, result] = CHAT_HISTORY;
    let tools = r#"{"role": "tool", "content": {"type": "function", "function": {"name": "ls", "description": "list"}}}"#;
    let list = |msgs: &[&str]| format!("[{}]", msgs.join(", "));
    let items = [
        obs(1, "AGENT", "null"),
        obs(4, "GENERATION", &list(&[sys, user, call, result, r#"{"role": "user", "content": "more"}"#])),
        obs(2, "GENERATION", &list(&[sys, user])),
        obs(3, "GENERATION", &format!(r#"{{"messages": {}, "system": "s"}}"#, list(&[sys, user, call, result]))),
        obs(5, "GENERATION", &list(&[tools, sys, user])),
        obs(6, "GENERATION", &list(&[tools, sys, user, call])),
        obs(7, "GENERATION", &list(&[sys, user, call])),
        obs(8, "GENERATION", "[]"),
    ];
    let doc = if lone {
        items.join("\n") + "\n"
    } else {
        format!(r#"{{"trace": {{"id": "t1", "name": "agent", "timestamp": "2026-01-02T10:00:00.000Z", "metadata": "{{}}", "scores": []}}, "observations": [{}]}}"#, items.join(",\n"))
    };
    edited(&doc, edit)
}

#[test]
fn langfuse_histories_left_in_the_source_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        (r#""role": "tool", "tool_call_id""#, r#""role": 1, "tool_call_id""#),
        (r#"{"role": "tool", "tool_call_id""#, r#"2, {"role": "tool", "tool_call_id""#),
        (r#""type": "GENERATION""#, r#""type": "GENERATIO\u004e""#),
        (r#""type": "GENERATION""#, r#""type": "GENERATION", "type": "SPAN""#),
        (r#""input": [{"role": "system""#, r#""input": {"role": "user", "messages": [{"role": "system""#),
        (r#", "system": "s"}"#, r#", "system": "s", "messages": []}"#),
        (r#""input": [{"role": "system""#, r#""input": [[{"role": "system""#),
        (r#""input": [{"role": "system""#, r#""input": 1, "x": [{"role": "system""#),
        (r#""observations": ["#, r#""observations": [3, "#),
        (r#""content": "be brief"}"#, r#""content": NaN}"#),
    ];
    for lone in [false, true] {
        edits_parse_the_same(&[&HISTORY_EDITS[..], edits].concat(), "langfuse", |edit| langfuse_trace(lone, edit));
    }
}

/// OTLP chat spans of one trace whose `gen_ai.input.messages` (JSON text)
/// re-send their history, with one edit applied to that text as written in
/// the JSON string (see [`langsmith_runs`]); the file holds them out of start
/// order, in one request.
fn otel_spans(edit: (&str, &str)) -> String {
    let text = |s: &str| serde_json::to_string(s).unwrap();
    let sys = r#"{"role":"system","parts":[{"type":"text","content":"be brief"}]}"#;
    let user = r#"{"role":"user","parts":[{"type":"text","content":"list é files"}]}"#;
    let call = r#"{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"ls","arguments":{"p":"/"}}]}"#;
    let result = r#"{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"a b"}]}"#;
    let bad = r#"{"role":"user"}"#;
    let span = |id: u32, input: &[&str], system: bool| {
        let mut attrs = vec![
            format!(r#"{{"key": "gen_ai.operation.name", "value": {{"stringValue": "chat"}}}}"#),
            format!(r#"{{"key": "gen_ai.input.messages", "value": {{"stringValue": {}}}}}"#, text(&format!("[{}]", input.join(",")))),
            format!(r#"{{"key": "gen_ai.output.messages", "value": {{"stringValue": {}}}}}"#, text(&format!(r#"[{{"role":"assistant","parts":[{{"type":"text","content":"out {id}"}}],"finish_reason":"stop"}}]"#))),
        ];
        if system {
            attrs.push(format!(r#"{{"key": "gen_ai.system_instructions", "value": {{"stringValue": {}}}}}"#, text(r#"[{"type":"text","content":"sys"}]"#)));
        }
        format!(
            r#"{{"traceId": "abcd0000000000000000000000000001", "spanId": "100000000000000{id}", "parentSpanId": "1000000000000001", "name": "chat {id}", "kind": 3, "startTimeUnixNano": "176722560000{id}000000", "endTimeUnixNano": "176722560000{id}500000", "attributes": [{}]}}"#,
            attrs.join(", ")
        )
    };
    let spans = [
        r#"{"traceId": "abcd0000000000000000000000000001", "spanId": "1000000000000001", "name": "agent", "kind": 1, "startTimeUnixNano": "1767225600000000000", "endTimeUnixNano": "1767225609000000000", "attributes": []}"#.to_string(),
        span(4, &[sys, user, call, result, bad, user], false),
        span(2, &[sys, user], false),
        span(3, &[sys, user, call, result, bad], false),
        span(5, &[sys, user, call], true),
        span(6, &[sys, user, call, result], true),
        span(7, &[bad, sys], false),
        span(8, &[bad, sys, user], false),
    ];
    let doc = format!(r#"{{"resourceSpans": [{{"resource": {{"attributes": []}}, "scopeSpans": [{{"scope": {{"name": "t"}}, "spans": [{}]}}]}}]}}"#, spans.join(",\n"));
    edited(&doc, edit)
}

#[test]
fn otel_input_texts_read_item_by_item_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // In the second span's copy (the file's third span): other bytes, the same messages.
        (r#"[{\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"content\":\"be brief\"}]},{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"list é files\"}]}]"#, r#"[{\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"content\":\"be brief\"}]}, {\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"list \\u00e9 files\"}]}]"#),
        (r#"\"content\":\"list é files\"}]},{\"role\":\"assistant\""#, r#"\"content\":\"list è files\"}]},{\"role\":\"assistant\""#),
        (r#"{\"role\":\"tool\""#, r#"{\"role\":1"#),
        (r#"{\"role\":\"tool\""#, r#"2,{\"role\":\"tool\""#),
        (r#"{\"role\":\"tool\""#, r#"NaN,{\"role\":\"tool\""#),
        (r#"{\"role\":\"tool\""#, r#"{\"role\":\"tool\",\"x\":\"\\ud800\""#),
        (r#""stringValue": "[{"#, r#""stringValue": "[[{"#),
        (r#""stringValue": "[{"#, r#""stringValue": " [{"#),
        (r#"{\"role\":\"user\"}"#, r#"{\"role\":\"user\",\"parts\":[]}"#),
        (r#""key": "gen_ai.input.messages""#, r#""key": "gen_ai.input.messages", "value": {"stringValue": "[]"}}, {"key": "gen_ai.input.messages""#),
        (r#""key": "gen_ai.input.messages", "value": {"stringValue": "#, r#""key": "gen_ai.input.messages", "value": {"intValue": 1, "stringValue": "#),
        // Lists the reader may take under their proto names, or escaped or repeated ones.
        (r#"{"resourceSpans": ["#, r#"{"resource_spans": [], "resourceSpans": ["#),
        (r#"{"resourceSpans": ["#, r#"{"resourceSpans": [], "resource_spans": ["#),
        (r#""scopeSpans": [{"#, r#""scope_spans": [], "scopeSpans": [{"#),
        (r#""scopeSpans": [{"#, r#""scopeSpans": [], "scope_spans": [{"#),
        (r#""scopeSpans": [{"#, r#""sc\u006fpeSpans": [], "scopeSpans": [{"#),
        (r#""scopeSpans": [{"#, r#""scopeSpans": [], "scopeSpans": [{"#),
        (r#""spans": ["#, r#""sp\u0061ns": [], "spans": ["#),
        (r#""spans": ["#, r#""spans": [], "spans": ["#),
        (r#"]}]}]}]}"#, r#"]}]}]}], "resource_spans": []}"#),
        (r#"]}]}]}]}"#, r#"]}]}], "scope_spans": []}]}"#),
    ];
    let doc = otel_spans(("", ""));
    for (from, _) in edits {
        assert!(doc.contains(from), "edit {from:?} finds nothing to edit");
    }
    edits_parse_the_same(edits, "otel", otel_spans);
}
