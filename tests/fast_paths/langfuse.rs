//! Langfuse generations whose messages are read from the bytes (the
//! messages a call adds to its history: `import::chat_bytes`; the other
//! parts of an observation: its members) give what the exact path gives,
//! edited in the ways a byte-level reader could misread.

use super::{edited, edits_parse_the_same};

/// A conversation in OpenAI chat messages, one shape per message; the
/// generations send its first 2, 5 and 7 messages.
pub(super) const MESSAGES: [&str; 7] = [
    r#"{"role": "system", "content": "be brief"}"#,
    r#"{"role": "user", "content": "list \u00e9 files\n"}"#,
    r#"{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{\"path\": \"/\"}"}}, {"id": "c2", "type": "function", "function": {"name": "cat", "arguments": {"f": 1}}}]}"#,
    r#"{"role": "tool", "tool_call_id": "c1", "name": "ls", "content": "a b"}"#,
    r#"{"role": "tool", "tool_call_id": "c2", "content": ""}"#,
    r#"{"role": "assistant", "content": null}"#,
    r#"{"role": "user", "content": "thanks"}"#,
];

/// Edits of [`MESSAGES`] as the first call that sends each one writes it
/// (the later calls send it as it was: their lists are read past it).
pub(super) const MESSAGE_EDITS: &[(&str, &str)] = &[
    ("", ""),
    // Texts: escapes, a lone surrogate, raw non-ASCII, empty and null content.
    (r#""content": "a b""#, r#""content": "a\nb \ud83d\ude00 \/ \"q\"""#),
    (r#""content": "a b""#, r#""content": "a \ud800""#),
    (r#""content": "be brief""#, r#""content": "sé brief""#),
    (r#""content": "a b""#, r#""content": """#),
    (r#""content": "a b""#, r#""content": null"#),
    (r#", "name": "ls", "content": "a b""#, r#", "name": "ls""#),
    (r#""content": "", "tool_calls""#, r#""tool_calls""#),
    // Keys: repeated, escaped.
    (r#"{"role": "tool", "tool_call_id": "c1""#, r#"{"role": "user", "role": "tool", "tool_call_id": "c1""#),
    (r#""content": "a b""#, r#""content": "x", "content": "a b""#),
    (r#""tool_call_id": "c1""#, r#""tool_call_id": "c0", "tool_call_id": "c1""#),
    (r#""tool_call_id": "c1""#, r#""tool_c\u0061ll_id": "c1""#),
    (r#""role": "system""#, r#""rol\u0065": "system""#),
    (r#""name": "ls", "arguments""#, r#""name": "ls", "name": "dir", "arguments""#),
    (r#""id": "c1", "type""#, r#""id": "c0", "id": "c1", "type""#),
    (r#""id": "c1", "type""#, r#""i\u0064": "c1", "type""#),
    // Roles.
    (r#""role": "tool", "tool_call_id": "c1""#, r#""role": 3, "tool_call_id": "c1""#),
    (r#""role": "tool", "tool_call_id": "c1""#, r#""role": "t\u006fol", "tool_call_id": "c1""#),
    (r#""role": "tool", "tool_call_id": "c1""#, r#""role": "function", "tool_call_id": "c1""#),
    (r#""role": "tool", "tool_call_id": "c1""#, r#""role": "user", "tool_call_id": "c1""#),
    (r#"{"role": "assistant", "content": null}"#, r#"{"role": "model", "content": "m"}"#),
    (r#"{"role": "assistant", "content": null}"#, r#"{"role": "ai", "content": "m"}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "human", "content": "thanks"}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "robot", "content": "thanks"}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"content": "thanks"}"#),
    // Shapes only the exact path reads: types, parts, LangChain's members.
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"type": "human", "content": "thanks"}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "user", "type": "message", "content": "thanks"}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "user", "content": [{"type": "text", "text": "thanks"}]}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "user", "content": {"type": "text", "text": "thanks"}}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "user", "parts": [{"text": "thanks"}]}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#"{"role": "user", "content": 5}"#),
    (r#"{"role": "assistant", "content": null}"#, r#"{"role": "assistant", "content": null, "additional_kwargs": {"tool_calls": [{"id": "k", "function": {"name": "f", "arguments": "{}"}}]}}"#),
    (r#"{"role": "assistant", "content": null}"#, r#"{"role": "assistant", "content": null, "additional_kwargs": null}"#),
    (r#"{"role": "assistant", "content": null}"#, r#"{"role": "assistant", "content": null, "function_call": {"name": "f", "arguments": "{}"}}"#),
    (r#"{"role": "assistant", "content": null}"#, r#"{"role": "assistant", "content": null, "function_call": null}"#),
    (r#"{"role": "user", "content": "thanks"}"#, r#""thanks""#),
    // Tool calls.
    (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": [], "x": [{"id": "c1""#),
    (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": null, "x": [{"id": "c1""#),
    (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": "none", "x": [{"id": "c1""#),
    (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": [1, {"id": "c1""#),
    (r#""id": "c1", "type""#, r#""id": 1, "type""#),
    (r#""id": "c1", "type""#, r#""id": null, "type""#),
    (r#""id": "c1", "type""#, r#""id": "", "type""#),
    (r#""id": "c1", "type""#, r#""type""#),
    (r#""function": {"name": "ls", "arguments": "{\"path\": \"/\"}"}"#, r#""name": "ls", "args": {"path": "/"}"#),
    (r#""function": {"name": "ls", "arguments": "{\"path\": \"/\"}"}"#, r#""function": "ls""#),
    (r#""function": {"name": "ls", "arguments""#, r#""function": {"arguments""#),
    (r#""function": {"name": "ls", "arguments""#, r#""function": {"name": null, "arguments""#),
    (r#""function": {"name": "ls", "arguments""#, r#""function": {"name": 7, "arguments""#),
    (r#""function": {"name": "ls", "arguments""#, r#""function": {"name": "l\u0073", "arguments""#),
    (r#", "arguments": "{\"path\": \"/\"}"}"#, r#"}"#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": null"#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": 5"#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": [1]"#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": "not json""#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": "[1, 2]""#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": "{\"a\": 1, \"a\": 2, \"b\": 1e400}""#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": "{\"a\": \"\\ud800\"}""#),
    (r#""arguments": "{\"path\": \"/\"}""#, r#""arguments": """#),
    (r#""arguments": {"f": 1}"#, r#""arguments": {"f": 1, "f": "\u00e9"}"#),
    // Results.
    (r#""tool_call_id": "c1""#, r#""tool_call_id": null"#),
    (r#""tool_call_id": "c1""#, r#""tool_call_id": """#),
    (r#""tool_call_id": "c1""#, r#""tool_call_id": 7"#),
    (r#""tool_call_id": "c1""#, r#""call_id": "c1""#),
    (r#""tool_call_id": "c1""#, r#""call_id": "c9", "tool_call_id": "c1""#),
    (r#"{"role": "tool", "tool_call_id": "c2", "content": ""}"#, r#"{"role": "tool", "content": "orphan"}"#),
    (r#""name": "ls", "content""#, r#""name": 3, "content""#),
    (r#""name": "ls", "content""#, r#""name": null, "content""#),
];

/// A Langfuse trace export (or, `lone`, its observations as JSON Lines):
/// an agent, three generations re-sending [`MESSAGES`], a tool observation,
/// with one edit applied (see [`super::docent_run`]).
fn langfuse_trace(lone: bool, edit: (&str, &str)) -> String {
    let obs = |id: u32, kind: &str, input: &str, output: &str| {
        format!(
            r#"{{"id": "o{id}", "traceId": "t1", "type": "{kind}", "name": "{kind}{id}", "startTime": "2026-01-02T10:00:0{id}.000Z", "endTime": "2026-01-02T10:00:0{id}.500Z", "parentObservationId": {parent}, "level": "DEFAULT", "statusMessage": null, "metadata": {{}}, "usageDetails": {{"input": 3, "output": 2, "total": 5}}, "costDetails": {{"total": 0.5}}, "model": "m", "modelParameters": null, "environment": "default", "input": {input}, "output": {output}}}"#,
            parent = if id == 1 { "null".to_string() } else { r#""o1""#.to_string() }
        )
    };
    let list = |n: usize| format!("[{}]", MESSAGES[..n].join(", "));
    let answer = |t: &str| format!(r#"{{"role": "assistant", "content": "{t}"}}"#);
    let items = [
        obs(1, "AGENT", "null", "null"),
        obs(2, "GENERATION", &list(2), &answer("calling")),
        obs(3, "TOOL", r#"{"path": "/"}"#, r#""a b""#),
        obs(4, "GENERATION", &list(5), &answer("done")),
        obs(5, "GENERATION", &format!(r#"{{"messages": {}, "system": "s"}}"#, list(7)), &answer("bye")),
    ];
    let doc = if lone {
        items.join("\n") + "\n"
    } else {
        format!(r#"{{"trace": {{"id": "t1", "name": "agent", "timestamp": "2026-01-02T10:00:00.000Z", "metadata": "{{}}", "tags": [], "public": false, "environment": "default", "scores": []}}, "observations": [{}]}}"#, items.join(",\n"))
    };
    edited(&doc, edit)
}

/// Edits of the tool observation, whose output text the reader leaves in
/// the source, and of a generation's output object, read from the bytes.
const TOOL_EDITS: &[(&str, &str)] = &[
    (r#""output": "a b""#, r#""output": "a\nb \u00e9 \ud83d\ude00""#),
    (r#""output": "a b""#, r#""output": "a \ud800""#),
    (r#""output": "a b""#, r#""output": """#),
    (r#""output": "a b""#, r#""output": null"#),
    (r#""output": "a b""#, r#""output": {"text": "a b"}"#),
    (r#""output": "a b""#, r#""output": ["a b"]"#),
    (r#""output": "a b""#, r#""output": 3"#),
    (r#""output": "a b""#, r#""output": "x", "output": "a b""#),
    (r#""output": "a b""#, r#""output": "a b", "output": null"#),
    (r#""output": "a b""#, r#""outp\u0075t": "a b""#),
    (r#""output": "a b""#, r#""x": "a b""#),
    (r#""type": "TOOL""#, r#""type": "T\u004fOL""#),
    (r#""type": "TOOL""#, r#""type": "TOOL", "type": "SPAN""#),
    (r#""type": "TOOL""#, r#""type": "SPAN""#),
    (r#""type": "TOOL", "name": "TOOL3", "startTime": "2026-01-02T10:00:03.000Z", "endTime": "2026-01-02T10:00:03.500Z", "parentObservationId": "o1", "level": "DEFAULT", "statusMessage": null"#, r#""type": "TOOL", "name": "TOOL3", "startTime": "2026-01-02T10:00:03.000Z", "endTime": "2026-01-02T10:00:03.500Z", "parentObservationId": "o1", "level": "ERROR", "statusMessage": "failed""#),
    (r#""type": "TOOL", "name": "TOOL3", "startTime": "2026-01-02T10:00:03.000Z""#, r#""type": "TOOL", "name": "TOOL3", "startTime": 3"#),
    (r#""observations": ["#, r#""observations": [7, "#),
    // A generation's output object, read from the bytes.
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"role": "assistant", "content": "calling \u00e9\n", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"role": "assistant", "content": [{"type": "text", "text": "calling"}]}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"type": "ai", "content": "calling"}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"text": "calling"}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"choices": [{"message": {"role": "assistant", "content": "calling"}}]}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"role": "assistant", "role": "user", "content": "calling"}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {"role": "assistant", "content": "\ud800"}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {}, "output": {"role": "assistant", "content": "calling"}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": {}"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": "calling""#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": [{"role": "assistant", "content": "calling"}]"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""output": null"#),
    (r#""output": {"role": "assistant", "content": "calling"}"#, r#""outp\u0075t": {"role": "assistant", "content": "calling"}"#),
];

#[test]
fn langfuse_outputs_left_in_the_source_parse_the_same_both_ways() {
    for lone in [false, true] {
        let in_source = edits_parse_the_same(TOOL_EDITS, "langfuse", |edit| langfuse_trace(lone, edit));
        assert!(in_source > TOOL_EDITS.len() * 4, "the fast path read the observations ({in_source} texts left in the source)");
    }
}

#[test]
fn langfuse_messages_read_from_the_bytes_parse_the_same_both_ways() {
    for lone in [false, true] {
        let in_source = edits_parse_the_same(MESSAGE_EDITS, "langfuse", |edit| langfuse_trace(lone, edit));
        assert!(in_source > MESSAGE_EDITS.len() * 4, "the fast path read the messages ({in_source} texts left in the source)");
    }
}

/// The first generation's members after its metadata, and the tool's: the
/// anchors of [`MEMBER_EDITS`].
const GEN: &str = r#""metadata": {}, "usageDetails": {"input": 3, "output": 2, "total": 5}, "costDetails": {"total": 0.5}, "model": "m", "modelParameters": null, "environment": "default", "input": ["#;
const TOOL: &str = r#""metadata": {}, "usageDetails": {"input": 3, "output": 2, "total": 5}, "costDetails": {"total": 0.5}, "model": "m", "modelParameters": null, "environment": "default", "input": {"path""#;

/// Edits of the members of a generation and a tool observation that the
/// reader leaves unbuilt when their rule asks no more than their kind
/// (`generations::to_build`): each kind for each rule, repeats, escapes.
fn member_edits() -> Vec<(&'static str, String)> {
    let mut edits = Vec::new();
    for anchor in [GEN, TOOL] {
        let with = |from: &str, to: &str| (anchor, anchor.replacen(from, to, 1));
        edits.extend([
            with(r#""environment": "default""#, r#""environment": null"#),
            with(r#""environment": "default""#, r#""environment": 3"#),
            with(r#""environment": "default", "#, ""),
            with(r#""environment": "default""#, r#""environment": "x", "environment": "default""#),
            with(r#""environment": "default""#, r#""environment": "default", "environment": 3"#),
            with(r#""environment": "default""#, r#""envir\u006fnment": "default""#),
            with(r#""modelParameters": null, "#, ""),
            with(r#""modelParameters": null"#, r#""modelParameters": {"t": [1]}"#),
            with(r#""modelParameters": null"#, r#""modelParameters": null, "modelParameters": 1"#),
            with(r#""metadata": {}"#, r#""metadata": null"#),
            with(r#""metadata": {}"#, r#""metadata": "m""#),
            with(r#""metadata": {}"#, r#""metadata": [1]"#),
            with(r#""metadata": {}"#, r#""metadata": {"attributes": {"gen_ai.tool.call.id": "c1", "gen_ai.tool.name": "ls"}}"#),
            with(r#""metadata": {}"#, r#""metadata": {}, "metadata": {"attributes": {"tool.name": "cat"}}"#),
            with(r#""model": "m""#, r#""model": "m", "version": null, "completionStartTime": null, "promptId": null"#),
            with(r#""model": "m""#, r#""model": "m", "version": "1", "completionStartTime": "2026-01-02T10:00:02.100Z", "promptId": "p""#),
            with(r#""model": "m""#, r#""model": "m", "version": 1"#),
            with(r#""model": "m""#, r#""model": "m", "completionStartTime": "soon""#),
            with(r#""model": "m""#, r#""model": "m", "completionStartTime": 5"#),
            with(r#""model": "m""#, r#""model": "m", "promptId": [1], "promptName": 2, "promptVersion": "x", "modelId": null"#),
            with(r#""model": "m""#, r#""model": "m", "promptVersion": 2, "inputPrice": "x", "latency": 1.5, "timeToFirstToken": null"#),
            with(r#""model": "m""#, r#""model": "m", "projectId": "p", "projectId": "q", "x": 1, "x": [2]"#),
            with(r#""model": "m""#, r#""model": "m", "usage": {"input": 1, "output": 2, "total": 3}"#),
            with(r#""model": "m""#, r#""model": "m", "usage": null"#),
            with(r#""model": "m""#, r#""model": "m", "usage": {"input": 1}"#),
            with(r#""model": "m""#, r#""model": "m", "calculatedTotalCost": 0.25, "promptTokens": 4, "totalCost": 1"#),
            with(r#""model": "m""#, r#""model": "m", "level": "ERROR""#),
            with(r#""model": "m""#, r#""model": "m", "id": "o9""#),
            with(r#""model": "m""#, r#""model": "m", "spanId": "s""#),
            with(r#""model": "m""#, r#""model": 7"#),
            with(r#""model": "m""#, r#""model": "m", "statusMessage": "late""#),
            with(r#""usageDetails": {"input": 3, "output": 2, "total": 5}"#, r#""usageDetails": {"input": 3.5}"#),
            with(r#""costDetails": {"total": 0.5}"#, r#""costDetails": null"#),
        ]);
    }
    edits
}

#[test]
fn langfuse_members_left_unbuilt_parse_the_same_both_ways() {
    let edits = member_edits();
    let edits: Vec<(&str, &str)> = edits.iter().map(|(from, to)| (*from, to.as_str())).collect();
    for lone in [false, true] {
        for edit in &edits {
            assert!(langfuse_trace(lone, ("", "")).contains(edit.0), "the anchor is in the trace");
        }
        let in_source = edits_parse_the_same(&edits, "langfuse", |edit| langfuse_trace(lone, edit));
        assert!(in_source > edits.len() * 4, "the fast path read the observations ({in_source} texts left in the source)");
    }
}
