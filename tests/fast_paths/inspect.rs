//! Inspect samples read fast (messages and events member by member from the
//! bytes, metadata left in the source, model events' output messages
//! retold from the `messages` they copy) give what the exact path gives,
//! edited in the ways the byte-level readers could misread.

use agent_trace_viewer::model::EventBody;
use agent_trace_viewer::{parse_trace, ParseOptions};

use super::{edited, edits_parse_the_same, same_agent_run_text};

/// The assistant turn written twice: in `messages` and as its model
/// event's output message (byte for byte, as inspect_ai writes it).
const ASSISTANT: &str = r#"{"id": "m3", "role": "assistant", "content": [{"type": "reasoning", "reasoning": "add \u00e9", "redacted": false}, {"type": "text", "text": "Calling."}], "source": "generate", "tool_calls": [{"id": "c1", "function": "add", "arguments": {"x": 1, "y": 2}, "type": "function", "view": {"format": "markdown", "content": "add(1, 2)"}}, {"id": "c2", "function": "add", "arguments": {"x": -1, "y": 2}}], "model": "mockllm/model"}"#;
const FINAL: &str = r#"{"id": "m6", "role": "assistant", "content": "The answer is 3.", "source": "generate", "model": "mockllm/model"}"#;

/// An EvalLog with one sample (or, `pooled`, its model inputs condensed
/// into `events_data`), with one edit applied (see [`super::docent_run`]).
fn inspect_log(pooled: bool, edit: (&str, &str)) -> String {
    let messages = format!(
        r#"[
        {{"id": "m1", "role": "system", "content": "Use the add tool.", "source": null}},
        {{"id": "m2", "role": "user", "content": [{{"type": "text", "text": "attachment://a1"}}], "source": "input"}},
        {ASSISTANT},
        {{"id": "m4", "role": "tool", "content": "3", "tool_call_id": "c1", "function": "add"}},
        {{"id": "m5", "role": "tool", "content": "", "tool_call_id": "c2", "function": "add", "error": {{"type": "unknown", "message": "negative"}}}},
        {FINAL}
    ]"#
    );
    let input = if pooled { r#""input": [], "input_refs": [[0, 2]]"# } else { r#""input": [{"role": "user", "content": "What is 1 + 2?"}]"# };
    let events = format!(
        r#"[
        {{"event": "sample_init", "timestamp": "2025-03-01T10:00:00+00:00", "sample": {{"id": 1}}, "state": {{}}}},
        {{"event": "span_begin", "id": "s1", "name": "solvers", "type": "solvers", "parent_id": null, "timestamp": "2025-03-01T10:00:01+00:00"}},
        {{"event": "model", "span_id": "s1", "timestamp": "2025-03-01T10:00:02+00:00", "model": "mockllm/model", {input}, "tools": [], "tool_choice": "auto", "config": {{}},
          "output": {{"model": "mockllm/model", "choices": [{{"message": {ASSISTANT}, "stop_reason": "tool_calls"}}], "usage": {{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}, "time": 0.5}},
          "call": {{"request": {{"messages": []}}, "call_refs": [[0, 1]], "call_key": "messages"}}, "working_time": 0.25}},
        {{"event": "tool", "span_id": "s1", "timestamp": "2025-03-01T10:00:03+00:00", "type": "function", "id": "c1", "function": "add", "arguments": {{"x": 1, "y": 2}}, "result": "3", "events": [], "working_time": 0.1}},
        {{"event": "tool", "span_id": "s1", "timestamp": "2025-03-01T10:00:04+00:00", "type": "function", "id": "c2", "function": "add", "arguments": {{"x": -1, "y": 2}}, "result": "", "error": {{"type": "unknown", "message": "negative"}}}},
        {{"event": "model", "span_id": "s1", "timestamp": "2025-03-01T10:00:05+00:00", "model": "mockllm/model", "input": [], "tools": [], "tool_choice": "auto", "config": {{}},
          "output": {{"model": "mockllm/model", "choices": [{{"message": {FINAL}, "stop_reason": "stop"}}], "time": 0.7}}}},
        {{"event": "state", "timestamp": "2025-03-01T10:00:06+00:00", "changes": [{{"op": "add", "path": "/x", "value": "attachment://a1"}}]}},
        {{"event": "store", "timestamp": "2025-03-01T10:00:06+00:00", "changes": []}},
        {{"event": "info", "source": "solver", "data": {{"k": [1, 2]}}, "timestamp": "2025-03-01T10:00:06+00:00"}},
        {{"event": "logger", "message": {{"level": "warning", "message": "slow", "created": 1.5}}}},
        {{"event": "input", "input": "typed", "input_ansi": "typed"}},
        {{"event": "approval", "decision": "approve", "approver": "human", "message": "ok"}},
        {{"event": "sandbox", "action": "exec", "cmd": "ls", "output": "a"}},
        {{"event": "subtask", "name": "sub", "input": {{}}, "result": 1, "events": []}},
        {{"event": "error", "error": {{"message": "boom", "traceback": "t"}}}},
        {{"event": "sample_limit", "type": "token", "message": "over", "limit": 10}},
        {{"event": "step", "action": "begin", "name": "st", "type": "solver"}},
        {{"event": "step", "action": "end", "name": "st"}},
        {{"event": "span_end", "id": "s1", "timestamp": "2025-03-01T10:00:07+00:00"}},
        {{"event": "score", "score": {{"value": "C", "answer": "3"}}, "intermediate": false, "timestamp": "2025-03-01T10:00:08+00:00"}}
    ]"#
    );
    let pool = if pooled {
        r#", "events_data": {"messages": [{"role": "system", "content": "Use the add tool."}, {"role": "user", "content": "attachment://a1"}], "calls": [{"role": "user", "content": "q"}]}"#
    } else {
        ""
    };
    let doc = format!(
        r#"{{"version": 2, "status": "success",
  "eval": {{"created": "2025-03-01T10:00:00+00:00", "task": "arith", "dataset": {{"name": "arith"}}, "model": "mockllm/model", "config": {{}}}},
  "samples": [{{"id": 1, "epoch": 1, "input": "What is 1 + 2?", "target": "3", "messages": {messages}, "events": {events},
    "scores": {{"match": {{"value": "C"}}}}, "metadata": {{}}, "model_usage": {{"mockllm/model": {{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}}},
    "attachments": {{"a1": "What is 1 + 2?"}}{pool}}}]}}"#
    );
    edited(&doc, edit)
}

#[test]
fn inspect_samples_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Keys: escaped, repeated (a message's, an event's, a nested object's on the way to the output).
        (r#""role": "system""#, r#""rol\u0065": "system""#),
        (r#""role": "system""#, r#""role": "user", "role": "system""#),
        (r#""event": "span_begin""#, r#""ev\u0065nt": "span_begin""#),
        (r#""event": "span_begin""#, r#""event": "model", "event": "span_begin""#),
        (r#""stop_reason": "tool_calls""#, r#""stop_reason": "tool_calls", "stop_reason": 1"#),
        (r#""time": 0.5"#, r#""time": 0.5, "time": 0.6"#),
        (r#""stop_reason": "tool_calls""#, r#""stop_reason": "tool_calls", "message": {"role": "assistant", "content": "other"}"#),
        (r#""stop_reason": "tool_calls""#, r#""stop_r\u0065ason": "tool_calls""#),
        (r#""stop_reason": "tool_calls""#, r#""m\u0065ssage": {"role": "assistant", "content": "other"}"#),
        (r#"[{"message": {"id": "m6""#, r#"[{"logprobs": null, "message": {"id": "m6""#),
        (r#"[{"message": {"id": "m6""#, r#"[{"m\u0065ssage": {"id": "m6""#),
        (r#""id": "c1", "function": "add", "arguments": {"x": 1, "y": 2}, "type""#, r#""id": "c1", "id": "c0", "function": "add", "arguments": {"x": 1, "y": 2}, "type""#),
        (r#"{"type": "text", "text": "Calling."}"#, r#"{"type": "text", "type": "text", "text": "Calling."}"#),
        // Values the exact path reads differently or flags.
        (r#""role": "system""#, r#""role": "robot""#),
        (r#""role": "system""#, r#""role": 3"#),
        (r#""role": "system""#, r#""role": "sys\u0074em""#),
        (r#""content": "Use the add tool.""#, r#""content": "Use \ud800 the add tool.""#),
        (r#""content": "Use the add tool.""#, r#""content": null"#),
        (r#""content": "Use the add tool.""#, r#""content": {"a": 1}"#),
        (r#""content": "Use the add tool.""#, r#""content": 7"#),
        (r#""source": null"#, r#""source": "attachment://a1""#),
        (r#""tool_call_id": "c1""#, r#""tool_call_id": "attachment://a1""#),
        (r#""tool_call_id": "c1""#, r#""tool_call_id": 1"#),
        (r#""error": {"type": "unknown", "message": "negative"}}"#, r#""error": null}"#),
        (r#"{"type": "text", "text": "attachment://a1"}"#, r#"{"type": "image", "image": "attachment://a1"}"#),
        (r#"{"type": "text", "text": "attachment://a1"}"#, r#"{"type": "audio", "audio": "x"}"#),
        (r#"{"type": "text", "text": "attachment://a1"}"#, r#""plain""#),
        (r#"{"type": "text", "text": "attachment://a1"}"#, r#"{"type": "text", "text": 1}"#),
        (r#""redacted": false"#, r#""redacted": true, "summary": "short""#),
        (r#""redacted": false"#, r#""redacted": "true""#),
        (r#""arguments": {"x": 1, "y": 2}, "type""#, r#""arguments": "{\"x\": 1}", "type""#),
        (r#""arguments": {"x": 1, "y": 2}, "type""#, r#""arguments": [1, "attachment://a1"], "type""#),
        (r#""arguments": {"x": 1, "y": 2}, "type""#, r#""type""#),
        (r#"{"id": "c2", "function": "add", "arguments": {"x": -1, "y": 2}}"#, r#"5"#),
        (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": null, "x": [{"id": "c1""#),
        (r#""function": "add", "arguments": {"x": -1"#, r#""function": 2, "arguments": {"x": -1"#),
        // Events: a copy that is not its message's, outputs that are no message.
        (r#""choices": [{"message": {"id": "m3""#, r#""choices": [{"message": {"id": "m9""#),
        (r#"{"message": {"id": "m3", "role": "assistant", "content": [{"type": "reasoning", "reasoning": "add"#, r#"{"message": {"id": "m3", "role": "assistant", "content": [{"type": "reasoning", "reasoning": "adD"#),
        (r#"{"message": {"id": "m3", "role": "assistant", "content": [{"type": "reasoning", "reasoning": "add \u00e9", "redacted": false}, {"type": "text""#, r#"{"message": {"id": "m3", "role": "assistant", "content": [{"type": "reasoning", "reasoning": "add \u00e9", "redacted": false}, {"type": "texx""#),
        (r#""choices": [{"message": {"id": "m6""#, r#""choices": [{"message": {"id": "m6" "#),
        (r#""message": {"id": "m6", "role": "assistant", "content": "The answer is 3.", "source": "generate", "model": "mockllm/model"}, "stop_reason""#, r#""message": null, "stop_reason""#),
        (r#""message": {"id": "m6", "role": "assistant", "content": "The answer is 3.", "source": "generate", "model": "mockllm/model"}, "stop_reason""#, r#""stop_reason""#),
        (r#""choices": [{"message": {"id": "m6""#, r#""choices": [], "x": [{"message": {"id": "m6""#),
        (r#""choices": [{"message": {"id": "m6""#, r#""choices": [1, {"message": {"id": "m6""#),
        (r#""choices": [{"message": {"id": "m6""#, r#""choices": {"message": {"id": "m6""#),
        (r#""output": {"model": "mockllm/model", "choices": [{"message": {"id": "m6""#, r#""output": null, "x": {"model": "mockllm/model", "choices": [{"message": {"id": "m6""#),
        (r#""output": {"model": "mockllm/model", "choices": [{"message": {"id": "m6""#, r#""output": 1, "x": {"model": "mockllm/model", "choices": [{"message": {"id": "m6""#),
        (r#""working_time": 0.25"#, r#""working_time": null"#),
        (r#""working_time": 0.25"#, r#""x": 0.25"#),
        (r#""working_time": 0.25"#, r#""working_time": "1""#),
        (r#""time": 0.7"#, r#""time": "0.7""#),
        (r#""working_time": 0.1"#, r#""working_time": 1e400"#),
        (r#""model": "mockllm/model", "input": [], "tools""#, r#""model": 5, "input": [], "tools""#),
        (r#""model": "mockllm/model", "input": [], "tools""#, r#""model": "attachment://a1", "input": [], "tools""#),
        (r#""result": "3""#, r#""result": ["3", {"type": "text", "text": "x"}]"#),
        (r#""result": "3""#, r#""result": {"a": "attachment://a1"}"#),
        (r#""result": "3""#, r#""result": null"#),
        (r#""result": "3""#, r#""result": 3"#),
        (r#""result": "3""#, r#""result": "attachment://a1""#),
        (r#""id": "c1", "function": "add", "arguments": {"x": 1, "y": 2}, "result""#, r#""id": 1, "function": "add", "arguments": {"x": 1, "y": 2}, "result""#),
        (r#""span_id": "s1", "timestamp": "2025-03-01T10:00:03+00:00""#, r#""span_id": "s9", "timestamp": 3"#),
        (r#""name": "solvers", "type": "solvers", "parent_id": null"#, r#""type": "solvers", "parent_id": "s0""#),
        (r#""event": "store""#, r#""event": "nonesuch""#),
        (r#""event": "store""#, r#""event": 5"#),
        (r#"{"event": "store", "timestamp": "2025-03-01T10:00:06+00:00", "changes": []}"#, r#"[1]"#),
        (r#""message": "over""#, r#""message": "attachment://a1""#),
        (r#""input": "typed""#, r#""input": "attachment://a1""#),
        (r#""error": {"message": "boom", "traceback": "t"}"#, r#""error": "boom""#),
        (r#""message": {"level": "warning", "message": "slow", "created": 1.5}"#, r#""message": null"#),
        (r#""data": {"k": [1, 2]}"#, r#""data": "attachment://a1""#),
        (r#""score": {"value": "C", "answer": "3"}"#, r#""score": null"#),
        (r#""input_refs": [[0, 2]]"#, r#""input_refs": [[0, 9]]"#),
        (r#""input_refs": [[0, 2]]"#, r#""input_refs": [[0, "2"]]"#),
        (r#""call_refs": [[0, 1]]"#, r#""call_refs": [[1, 0]]"#),
        (r#""attachments": {"a1": "What is 1 + 2?"}"#, r#""attachments": {}"#),
        (r#""attachments": {"a1": "What is 1 + 2?"}"#, r#""attachments": {"a1": "attachment://a1"}"#),
        (r#""attachments": {"a1": "What is 1 + 2?"}"#, r#""attachments": {"a1": 5}"#),
        (r#""text": "Calling.""#, r#""text": "Call\nin\u0067.""#),
    ];
    // Events with more members than a set is used for, with and without a repeated key.
    let many: String = (0..40).map(|k| format!(r#""k{k}": {k}, "#)).collect();
    let wide = [(r#"{"event": "store", "#, format!(r#"{{{many}"event": "store", "#)), (r#"{"event": "store", "#, format!(r#"{{{many}"event": "model", "event": "store", "#))];
    for (from, to) in &wide {
        for format in [None, Some("inspect")] {
            super::same_both_ways(inspect_log(false, (from, to)).as_bytes(), format).unwrap_or_else(|e| panic!("{to}: {e}"));
        }
    }
    let mut left_in_source = 0;
    for pooled in [false, true] {
        left_in_source += edits_parse_the_same(edits, "inspect", |edit| inspect_log(pooled, edit));
        for edit in edits {
            same_agent_run_text(&inspect_log(pooled, *edit), "inspect").unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
    }
    // The clean samples were read fast: most of their texts, in most edits.
    assert!(left_in_source > edits.len() * 2 * 2 * 5, "only {left_in_source} texts read fast");
}

/// Without attachments, the fast path leaves the events' metadata in the
/// source and tells the model events' output messages from the `messages`
/// they copy; the comparison above would also pass if it did neither.
#[test]
fn inspect_fast_path_defers_metadata_and_retells_outputs() {
    let doc = inspect_log(false, (r#""attachments": {"a1": "What is 1 + 2?"}"#, r#""attachments": {}"#));
    let trace = parse_trace(doc.into_bytes(), &ParseOptions::default()).unwrap();
    let model_events: Vec<_> = trace.events.iter().filter(|e| e.source_kind == "model").collect();
    assert_eq!(model_events.len(), 2);
    for e in &model_events {
        assert!(e.metadata.is_deferred(), "a model event's metadata is left in the source");
        let EventBody::Message(m) = &e.body else { panic!("a model event is its output message") };
        // Retold texts point into the event's own bytes, not the message's.
        let texts: Vec<_> = match &m.content {
            agent_trace_viewer::model::Content::Text(t) => vec![t.source_range().unwrap()],
            agent_trace_viewer::model::Content::Parts(p) => p.iter().filter_map(|p| match p {
                agent_trace_viewer::model::ContentPart::Text(t) | agent_trace_viewer::model::ContentPart::Reasoning(t) => t.source_range(),
                _ => None,
            }).collect(),
            _ => Vec::new(),
        };
        assert!(!texts.is_empty());
        assert!(texts.iter().all(|r| e.raw.start <= r.start && r.end <= e.raw.end), "texts inside the event's raw JSON");
        for c in &m.tool_calls {
            let r = c.arguments.value.as_ref().and_then(|v| v.source_range()).unwrap();
            assert!(e.raw.start <= r.start && r.end <= e.raw.end, "arguments inside the event's raw JSON");
        }
    }
    assert!(trace.events.iter().filter(|e| e.source_kind == "tool" || e.source_kind == "assistant").all(|e| e.metadata.is_deferred()));
}

