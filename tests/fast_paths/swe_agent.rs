//! SWE-agent trajectories read fast (history items and trajectory steps
//! member by member from the bytes, their texts and metadata left in the
//! source) give what the exact path gives, edited in the ways the
//! byte-level reader could misread or the exact path speaks about.

use agent_trace_viewer::{parse_trace, ParseOptions};

use super::{edited, edits_parse_the_same, same_agent_run_text};

/// A SWE-agent trajectory with one edit applied (see [`super::docent_run`]).
fn swe_agent_trajectory(edit: (&str, &str)) -> String {
    let doc = r#"{"environment": "swe_main", "trajectory": [
        {"action": "ls -a", "observation": "a\nb", "response": "look", "thought": "look", "execution_time": 0.5,
         "state": {"open_file": "n/a"}, "query": [{"role": "system", "content": "be brief"}], "extra_info": {}},
        {"action": "cat a", "observation": "x", "response": "", "thought": "", "execution_time": 1, "state": {}, "messages": [{"role": "user"}]},
        {"action": "  submit\tnow ", "observation": null, "response": null, "thought": "done", "state": "{\"open_file\": \"a\"}"}
    ], "history": [
        {"role": "system", "content": "be brief", "agent": "main", "message_type": "system_prompt"},
        {"role": "user", "content": "fix \u00e9 it", "agent": "main", "message_type": "observation"},
        {"role": "assistant", "content": "ok", "thought": "ok", "action": "ls", "agent": "main", "message_type": "action",
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}], "thinking_blocks": null},
        {"role": "tool", "content": [{"type": "text", "text": "a b"}], "tool_call_ids": ["c1"], "agent": "main", "message_type": "observation"},
        {"role": "assistant", "content": "two", "agent": "main", "message_type": "action",
         "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "view", "arguments": {"path": "/a"}}}, {"id": "c3", "function": {"name": "edit"}}],
         "thinking_blocks": [{"type": "thinking", "thinking": "first \n", "signature": "s"}]},
        {"role": "tool", "content": "viewed", "tool_call_ids": ["c2", "c3"], "message_type": "observation"},
        {"role": "tool", "content": "left over"}
    ], "info": {"exit_status": "submitted"}}"#;
    edited(doc, edit)
}

#[test]
fn swe_agent_records_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // History items: keys escaped or repeated, contents of every shape.
        (r#""content": "be brief", "agent""#, r#""c\u006fntent": "be brief", "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": "a", "content": "b", "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": [{"type": "text", "text": "be brief"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": null, "agent""#),
        (r#""content": "be brief", "agent""#, r#""agent""#),
        (r#""content": "be brief", "agent""#, r#""content": 4, "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": {"k": 1}, "thinking_blocks": [{"thinking": "t"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": "be \ud800 brief", "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": "x", "thinking_blocks": [{"thinking": "hm"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": null, "thinking_blocks": [{"thinking": "hm"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": "x", "thinking_blocks": [], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": "x", "thinking_blocks": {}, "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": "x", "thinking_blocks": 1, "agent""#),
        (r#""thinking": "first \n""#, r#""thinking": 1"#),
        (r#""thinking": "first \n""#, r#""thinking": "a", "thinking": "b""#),
        (r#""thinking": "first \n""#, r#""thinkin\u0067": "a""#),
        (r#""thinking_blocks": [{"type""#, r#""thinking_blocks": ["t", {"type""#),
        (r#""agent": "main", "message_type": "system_prompt""#, r#""agent": "main", "agent": "other", "message_type": "system_prompt""#),
        (r#""message_type": "system_prompt""#, r#""message_type": 3"#),
        (r#""message_type": "system_prompt""#, r#""message_type": "sys\u0074em""#),
        (r#""message_type": "system_prompt""#, r#""message_type": "a", "message_type": "b""#),
        (r#""content": "be brief", "agent""#, r#""content": "x", "thinking_blocks": null, "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": [{"type": "text", "text": "a\tb"}, {"type": "text", "text": "c"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": [{"type": "text", "text": "a", "text": "b"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": [{"type": "t\u0065xt", "text": "a"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": [{"type": "image_url", "image_url": {"url": "data:,"}}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": [{"type": "text"}], "agent""#),
        (r#""content": "be brief", "agent""#, r#""content": ["text"], "agent""#),
        (r#""role": "user""#, r#""role": 1"#),
        (r#""role": "user""#, r#""role": "us\u0065r""#),
        (r#""role": "user""#, r#""role": "tool""#),
        (r#""role": "user""#, r#""role": "system", "role": "user""#),
        (r#""role": "tool", "content": "left over""#, r#""role": "t\u006fol", "content": "left over""#),
        (r#""role": "tool", "content": "left over""#, r#""role": "tool", "content": "left over", "tool_calls": [1]"#),
        (r#""role": "system", "content": "be brief""#, r#""role": "system", "content": "be brief", "tool_call_ids": ["c1"]"#),
        // Tool calls and the ids that name them.
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": "c1""#),
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": null"#),
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": []"#),
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": [1]"#),
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": ["\u0063\u0031"]"#),
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": ["c9"]"#),
        (r#""tool_call_ids": ["c1"]"#, r#""tool_call_ids": ["c1"], "tool_call_ids": ["c2"]"#),
        (r#""tool_call_ids": ["c2", "c3"]"#, r#""tool_call_ids": ["c3", "c2", "c2"]"#),
        (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": 5, "x": [{"id": "c1""#),
        (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": null, "x": [{"id": "c1""#),
        (r#""tool_calls": [{"id": "c1""#, r#""tool_calls": [7, {"id": "c1""#),
        (r#""id": "c1""#, r#""id": 1"#),
        (r#""id": "c1""#, r#""id": null"#),
        (r#""id": "c1""#, r#""i\u0064": "c1""#),
        (r#""id": "c1""#, r#""id": "c\u0031""#),
        (r#""id": "c1""#, r#""id": "c0", "id": "c1""#),
        (r#""function": {"name": "bash""#, r#""function": {"name": 3"#),
        (r#""function": {"name": "bash""#, r#""function": {"nam\u0065": "bash""#),
        (r#""function": {"name": "bash""#, r#""function": {"name": "sh", "name": "bash""#),
        (r#""function": {"name": "bash""#, r#""function": {"name": "b\u00e1sh""#),
        (r#""function": {"name": "bash""#, r#""function": {"other": "bash""#),
        (r#""function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}"#, r#""function": "bash""#),
        (r#""function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}"#, r#""function": {"name": "bash"}, "function": {"name": "sh"}"#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "not json""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "[1, 2]""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "{\"a\": NaN}""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "{\"a\": \"\\ud800\"}""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "{\"a\": 1, \"a\": 2}""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "{\"a\": 1.50, \"b\": 12345678901234567890123}""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": "\u007b\"a\": \"\u00e9\"}""#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": 12"#),
        (r#""arguments": "{\"command\": \"ls\"}""#, r#""arguments": null"#),
        (r#""arguments": {"path": "/a"}"#, r#""arguments": {"path": "/a", "path": "/b"}"#),
        (r#""arguments": {"path": "/a"}"#, r#""arguments": ["/a"]"#),
        // Steps.
        (r#""state": {"open_file": "n/a"}"#, r#""state": "{\"open_file\": \"n/a\"}""#),
        (r#""state": {"open_file": "n/a"}"#, r#""state": "not json""#),
        (r#""state": {"open_file": "n/a"}"#, r#""state": "{\"a\": \"\\ud800\"}""#),
        (r#""state": {"open_file": "n/a"}"#, r#""state": null, "state": "[1]""#),
        (r#""state": "{\"open_file\": \"a\"}""#, r#""state": "{\"open_file\": \"\u00e9\"}""#),
        (r#""query": [{"role": "system", "content": "be brief"}]"#, r#""query": [{"content": "be \udc00"}]"#),
        (r#""query": [{"role": "system", "content": "be brief"}]"#, r#""query": 1, "query": 2"#),
        (r#""query": [{"role": "system", "content": "be brief"}]"#, r#""\u0071uery": [1]"#),
        (r#""execution_time": 0.5"#, r#""execution_time": "slow""#),
        (r#""execution_time": 0.5"#, r#""execution_time": "2.5""#),
        (r#""execution_time": 0.5"#, r#""execution_time": true"#),
        (r#""execution_time": 0.5"#, r#""execution_time": null"#),
        (r#""execution_time": 0.5"#, r#""execution_time": 1e400"#),
        (r#""execution_time": 0.5"#, r#""execution_time": -0.0"#),
        (r#""execution_time": 0.5"#, r#""execution_time": 0.1, "execution_time": 2"#),
        (r#""action": "ls -a""#, r#""action": ["ls"]"#),
        (r#""action": "ls -a""#, r#""action": null"#),
        (r#""action": "ls -a""#, r#""action": "\u006cs\t-a""#),
        (r#""action": "ls -a""#, r#""action": "\u2003ls\u00a0-a""#),
        (r#""action": "ls -a""#, r#""action": """#),
        (r#""action": "ls -a""#, r#""action": "ls", "action": "cat""#),
        (r#""response": "look""#, r#""response": 1"#),
        (r#""response": "look""#, r#""respons\u0065": "look""#),
        (r#""thought": "done""#, r#""thought": ["done"]"#),
        (r#""observation": "a\nb""#, r#""observation": {"out": 1}"#),
        (r#""observation": "a\nb""#, r#""observation": "a", "observation": "b""#),
        (r#""observation": "a\nb""#, r#""observation": "\ud800""#),
        (r#""observation": "a\nb", "#, ""),
        (r#""extra_info": {}"#, r#""extra_info": {"n": 12345678901234567890123}"#),
        (r#""extra_info": {}"#, r#""extra_info": {"deep": [[[[{"k": NaN}]]]]}"#),
        (r#"{"action": "cat a""#, r#"[1], {"action": "cat a""#),
    ];
    let doc = swe_agent_trajectory(("", ""));
    for (from, _) in edits {
        assert!(doc.contains(from), "no {from:?} to edit");
    }
    let left_in_source = edits_parse_the_same(edits, "swe-agent", swe_agent_trajectory);
    assert!(left_in_source > edits.len() * 2 * 8, "only {left_in_source} texts read fast");
}

/// The AgentRun text (which reads the texts and metadata left in the
/// source) is the same both ways.
#[test]
fn swe_agent_agent_run_text_is_the_same_both_ways() {
    let text = same_agent_run_text(&swe_agent_trajectory(("", "")), "swe-agent").unwrap();
    assert!(text.is_some_and(|t| t.contains("fix \u{e9} it")));
}

/// The fast path was taken for every item and step of the clean trajectory:
/// their metadata is left in the source.
#[test]
fn swe_agent_fast_path_defers_metadata() {
    let trace = parse_trace(swe_agent_trajectory(("", "")).into_bytes(), &ParseOptions::default()).unwrap();
    let read = trace.events.iter().filter(|e| e.path.starts_with("$.history[") || (e.path.starts_with("$.trajectory[") && !e.path.ends_with(".observation")));
    let (mut deferred, mut all) = (0, 0);
    for e in read {
        all += 1;
        deferred += usize::from(e.metadata.is_deferred());
    }
    assert_eq!((deferred, all), (10, 10));
    let exact = parse_trace(swe_agent_trajectory(("", "")).into_bytes(), &ParseOptions { exact_only: true, ..Default::default() }).unwrap();
    assert!(exact.events.iter().all(|e| !e.metadata.is_deferred()));
}
