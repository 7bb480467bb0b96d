//! LangSmith runs whose messages are read from the bytes (the messages a
//! call adds to its history: `import::chat_bytes`; the other parts of a
//! run: its members) give what the exact path gives, edited in the ways a
//! byte-level reader could misread.

use super::langfuse::{MESSAGES, MESSAGE_EDITS};
use super::{edited, edits_parse_the_same};

/// LangSmith runs of one trace (JSON Lines): a chain, three `llm` runs
/// re-sending [`MESSAGES`], a tool run, with one edit applied (see
/// [`super::docent_run`]).
fn langsmith_runs(edit: (&str, &str)) -> String {
    let run = |id: u32, kind: &str, rest: &str| {
        let parent = if id == 1 { String::new() } else { r#""parent_run_id": "00000000-0000-0000-0000-000000000001", "#.to_string() };
        format!(
            r#"{{"id": "00000000-0000-0000-0000-00000000000{id}", "name": "{kind}{id}", "run_type": "{kind}", "trace_id": "00000000-0000-0000-0000-000000000001", {parent}"dotted_order": "1.{id}", "start_time": "2026-03-01T09:00:0{id}Z", "end_time": "2026-03-01T09:00:0{id}.5Z", "extra": {{"metadata": {{"ls_model_name": "m"}}}}, {rest}}}"#
        )
    };
    let list = |n: usize| MESSAGES[..n].join(", ");
    let llm = |n: usize, out: &str| {
        format!(
            r#""inputs": {{"model": "m", "messages": [{}]}}, "outputs": {{"choices": [{{"index": 0, "message": {{"role": "assistant", "content": "{out}"}}, "finish_reason": "stop"}}], "usage": {{"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}}}"#,
            list(n)
        )
    };
    let lines = [
        run(1, "chain", r#""inputs": {"task": "t"}, "outputs": {}"#),
        run(2, "llm", &llm(2, "calling")),
        run(3, "tool", r#""inputs": {"path": "/", "tool_call_id": "c1"}, "outputs": {"output": "a b"}"#),
        run(4, "llm", &llm(5, "done")),
        run(5, "llm", &llm(7, "bye")),
    ];
    edited(&(lines.join("\n") + "\n"), edit)
}

#[test]
fn langsmith_messages_read_from_the_bytes_parse_the_same_both_ways() {
    let in_source = edits_parse_the_same(MESSAGE_EDITS, "langsmith", langsmith_runs);
    assert!(in_source > MESSAGE_EDITS.len() * 4, "the fast path read the messages ({in_source} texts left in the source)");
}

/// Edits of the tool run, whose output text the reader leaves in the source.
const TOOL_EDITS: &[(&str, &str)] = &[
    ("", ""),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": "a\nb \u00e9 \ud83d\ude00"}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": "a \ud800"}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": ""}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": null}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": 3}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": {"usage_metadata": {"input_tokens": 1}}}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": "a b", "usage": {"prompt_tokens": 1}}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": "x", "output": "a b"}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"outp\u0075t": "a b"}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"text": "a b"}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": "a b""#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": null"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {}, "outputs": {"output": "a b"}"#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": "a b"}, "error": "boom""#),
    (r#""outputs": {"output": "a b"}"#, r#""outputs": {"output": "a b"}, "child_runs": [{"id": "00000000-0000-0000-0000-000000000009", "name": "c", "run_type": "tool", "start_time": "2026-03-01T09:00:09Z", "outputs": {"output": "nested"}}]"#),
    (r#""run_type": "tool""#, r#""run_type": "t\u006fol""#),
    (r#""run_type": "tool""#, r#""run_type": "tool", "run_type": "chain""#),
    (r#""run_type": "tool""#, r#""run_type": "chain""#),
    (r#""name": "tool3", "run_type": "tool""#, r#""name": 3, "run_type": "tool""#),
];

#[test]
fn langsmith_tool_outputs_left_in_the_source_parse_the_same_both_ways() {
    let in_source = edits_parse_the_same(TOOL_EDITS, "langsmith", langsmith_runs);
    assert!(in_source > TOOL_EDITS.len() * 4, "the fast path read the runs ({in_source} texts left in the source)");
}

/// The first `llm` run's output choice, the anchor of [`CHOICE_EDITS`].
const CHOICE: &str = r#""choices": [{"index": 0, "message": {"role": "assistant", "content": "calling"}, "finish_reason": "stop"}]"#;

/// Edits of an `llm` run's `outputs`, whose `choices` the reader leaves in
/// the source and the walk reads from the bytes.
const CHOICE_EDITS: &[(&str, &str)] = &[
    (CHOICE, r#""choices": [{"index": 0, "message": {"role": "assistant", "content": "calling \u00e9\n", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{\"path\": \"/\"}"}}]}, "finish_reason": "tool_calls"}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": {"role": "assistant", "content": "a"}}, {"index": 1, "message": {"role": "assistant", "content": "b"}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "delta": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": null, "delta": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": "calling"}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": {"content": "calling"}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": {"role": "assistant", "content": [{"type": "text", "text": "calling"}]}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": {"type": "ai", "content": "calling"}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": {"role": "assistant", "content": "\ud800"}}]"#),
    (CHOICE, r#""choices": [{"index": 0, "message": {"role": "user", "content": "x"}, "message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choices": [{"ind\u0065x": 0, "message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choices": [1, [2], {"index": 0, "message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choices": []"#),
    (CHOICE, r#""choices": [{"index": 0}]"#),
    (CHOICE, r#""choices": null"#),
    (CHOICE, r#""choices": {"message": {"role": "assistant", "content": "calling"}}"#),
    (CHOICE, r#""choices": [], "choices": [{"message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choic\u0065s": [{"message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""role": "assistant", "content": "hi", "choices": []"#),
    (CHOICE, r#""type": "x", "choices": [{"message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""messages": [{"role": "assistant", "content": "m"}], "choices": [{"message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""input": [], "choices": [{"message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""generations": [[{"text": "g"}]], "choices": [{"message": {"role": "assistant", "content": "calling"}}]"#),
    (CHOICE, r#""choices": [{"message": {"role": "assistant", "content": "calling"}}], "usage_metadata": {"input_tokens": 7, "output_tokens": 1, "total_cost": 0.5}, "model": "n""#),
    (r#""outputs": {"choices""#, r#""outputs": {"model": "m2", "choices""#),
    (r#""outputs": {"choices""#, r#""outputs": null, "x": {"choices""#),
    (r#""outputs": {"choices""#, r#""outputs": [{"choices""#),
];

#[test]
fn langsmith_output_choices_left_in_the_source_parse_the_same_both_ways() {
    for (from, _) in CHOICE_EDITS {
        assert!(langsmith_runs(("", "")).contains(from), "the anchor is in the runs");
    }
    let in_source = edits_parse_the_same(CHOICE_EDITS, "langsmith", langsmith_runs);
    assert!(in_source > CHOICE_EDITS.len() * 4, "the fast path read the runs ({in_source} texts left in the source)");
}
