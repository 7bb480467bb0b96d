//! Agent Catalog records read fast (only the members the checks look at
//! built; message texts, tool results and tool arguments left in the source;
//! a repeated clean `catalog_version` not checked again; the metadata left
//! in the source) give what the exact path gives, edited in the ways the
//! byte-level reader could misread or the checks could flag.

use super::{edited, same_agent_run_text, same_both_ways};

/// A log of every content kind in two sessions, each record carrying the
/// same `catalog_version` (the last one a different one), with one edit
/// applied (see [`super::docent_run`]).
fn agent_catalog_log(edit: (&str, &str)) -> String {
    let span = r#""span": {"session": "s1", "name": ["agent", "step"]}, "timestamp": "2025-01-01T00:00:08.000+05:30""#;
    let cv = r#""catalog_version": {"timestamp": "2025-07-04T11:20:31.313387Z", "identifier": "502f8f9", "is_dirty": false, "version_system": "git"}"#;
    let lines = [
        r#"{"identifier": "i0", SPAN, "content": {"kind": "begin", "state": {"task": "t0"}}, "annotations": {"agent_name": "A"}, CV}"#,
        r#"{"identifier": "i1", SPAN, "content": {"kind": "system", "value": "be brief \u00e9", "extra": null}, "annotations": {"a": 1}, CV}"#,
        r#"{"identifier": "i2", SPAN, "content": {"kind": "user", "value": "hi", "user_id": "u"}, CV}"#,
        r#"{"identifier": "i3", SPAN, "content": {"kind": "request-header", "tools": [{"name": "ls", "description": "list", "args_schema": {"type": "object"}}], "output": {"o": 1}, "meta": {"m": 2}}, CV}"#,
        r#"{"identifier": "i4", SPAN, "content": {"kind": "chat-completion", "output": "ok", "meta": {"model": "gpt-4o", "usage": {"prompt_tokens": 3}}}, "annotations": null, CV}"#,
        r#"{"identifier": "i5", SPAN, "content": {"kind": "tool-call", "tool_name": "ls", "tool_args": {"p": "/", "opts": {"deep": [1, 2.50]}}, "tool_call_id": "c1", "tool_result": null, "status": "success", "meta": {"x": 1}}, CV}"#,
        r#"{"identifier": "i6", SPAN, "content": {"kind": "tool-result", "tool_call_id": "c1", "tool_result": "a\nb \"q\"", "status": "success"}, CV}"#,
        r#"{"identifier": "i7", SPAN, "content": {"kind": "tool-call", "tool_name": "cat", "tool_args": {}, "tool_call_id": "c2", "status": "error"}, CV}"#,
        r#"{"identifier": "i8", SPAN, "content": {"kind": "tool-result", "tool_result": {"rows": 2}, "status": null}, CV}"#,
        r#"{"identifier": "i9", SPAN, "content": {"kind": "assistant", "value": "done"}, CV}"#,
        r#"{"identifier": "i10", SPAN, "content": {"kind": "key-value", "key": "k", "value": {"v": [1]}, "extra": {"e": 1}}, CV}"#,
        r#"{"identifier": "i11", SPAN, "content": {"kind": "edge", "source": ["agent"], "dest": ["agent", "sub"], "payload": 1}, CV}"#,
        r#"{"identifier": "i12", SPAN, "content": {"kind": "end"}, CV}"#,
        r#"{"identifier": "j0", "span": {"session": "s2", "name": ["other"]}, "timestamp": "2025-01-01T00:00:09Z", "content": {"kind": "user", "value": "second session"}, "catalog_version": {"timestamp": "2025-07-05T00:00:00Z", "identifier": "abc", "metadata": {"k": "v"}}}"#,
    ];
    let doc = lines.join("\n").replace("SPAN", span).replace("CV", cv);
    edited(&doc, edit)
}

#[test]
fn agent_catalog_records_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Escaped keys and values.
        (r#""value": "be brief"#, r#""v\u0061lue": "be brief"#),
        (r#""kind": "system""#, r#""kind": "syst\u0065m""#),
        (r#""kind": "tool-call", "tool_name": "ls""#, r#""kind": "tool-c\u0061ll", "tool_name": "ls""#),
        (r#""kind": "tool-result", "tool_call_id": "c1""#, r#""kind": "tool-r\u0065sult", "tool_call_id": "c1""#),
        (r#""tool_args": {"p": "/""#, r#""tool_\u0061rgs": {"p": "/""#),
        (r#"{"identifier": "i2""#, r#"{"ident\u0069fier": "i2""#),
        (r#"{"identifier": "i3", "span""#, r#"{"identifier": "i3", "sp\u0061n""#),
        (r#""annotations": {"agent_name": "A"}"#, r#""annot\u0061tions": {"agent_name": "A"}"#),
        (r#""content": {"kind": "end"}"#, r#""cont\u0065nt": {"kind": "end"}"#),
        (r#""value": "hi""#, r#""value": "h\u0069 \ud83d\ude00""#),
        (r#"{"identifier": "i9""#, r#"{"identifier": "\u0069\u0039""#),
        (r#""tool_call_id": "c1", "tool_result": "a"#, r#""tool_call_id": "c\u0031", "tool_result": "a"#),
        (r#""state": {"task": "t0"}"#, r#""st\u0061te": {"task": "t0"}"#),
        // Repeated keys.
        (r#""value": "be brief"#, r#""value": "x", "value": "be brief"#),
        (r#""kind": "system""#, r#""kind": "system", "kind": "user""#),
        (r#""tool_args": {"p": "/""#, r#""tool_args": 1, "tool_args": {"p": "/""#),
        (r#""tool_result": "a\nb"#, r#""tool_result": "x", "tool_result": "a\nb"#),
        (r#"{"identifier": "i2""#, r#"{"identifier": "i2", "content": 1"#),
        (r#"{"identifier": "i4""#, r#"{"identifier": "i4", "identifier": "i5""#),
        (r#""annotations": {"a": 1}"#, r#""annotations": {"a": 1}, "annotations": 2"#),
        (r#""state": {"task": "t0"}"#, r#""state": 1, "state": 2"#),
        (r#""content": {"kind": "end"}, "#, r#""content": {"kind": "end"}, "catalog_version": 1, "#),
        (r#"{"identifier": "i12", "span": {"session": "s1""#, r#"{"identifier": "i12", "span": {"session": "s1", "session": "s2""#),
        // Wrong types and failed validations, member by member.
        (r#""value": "be brief \u00e9""#, r#""value": 5"#),
        (r#""value": "be brief \u00e9""#, r#""value": null"#),
        (r#""value": "be brief \u00e9""#, r#""value": ["be", {"brief": 1}]"#),
        (r#", "user_id": "u""#, ""),
        (r#""value": "hi", "#, ""),
        (r#""user_id": "u""#, r#""user_id": 7"#),
        (r#""output": "ok""#, r#""output": ["ok"]"#),
        (r#""output": "ok""#, r#""value": "ok""#),
        (r#""meta": {"model": "gpt-4o""#, r#""meta": 3, "x": {"model": "gpt-4o""#),
        (r#""extra": null"#, r#""extra": 1"#),
        (r#""extra": {"e": 1}"#, r#""extra": [1]"#),
        (r#""kind": "system""#, r#""kind": "sys""#),
        (r#""kind": "system""#, r#""kind": 3"#),
        (r#""content": {"kind": "end"}"#, r#""content": {"end": 1}"#),
        (r#""content": {"kind": "end"}"#, r#""content": "end""#),
        (r#""content": {"kind": "end"}, "#, ""),
        (r#""tool_name": "ls""#, r#""tool_name": {"n": "ls"}"#),
        (r#""tool_name": "cat", "#, ""),
        (r#""tool_args": {"p": "/", "opts": {"deep": [1, 2.50]}}"#, r#""tool_args": "{\"p\": 1}""#),
        (r#""tool_args": {"p": "/", "opts": {"deep": [1, 2.50]}}"#, r#""tool_args": [1]"#),
        (r#""tool_args": {}, "#, ""),
        (r#""tool_call_id": "c2""#, r#""tool_call_id": 2"#),
        (r#""tool_call_id": "c2""#, r#""tool_call_id": "c1""#),
        (r#""status": "error""#, r#""status": "broken""#),
        (r#""status": null"#, r#""status": "error""#),
        (r#""tool_result": "a\nb \"q\"""#, r#""tool_result": null"#),
        (r#""tool_result": "a\nb \"q\"""#, r#""tool_result": 1.5e3"#),
        (r#""tool_result": {"rows": 2}, "#, ""),
        (r#""tool_call_id": "c1", "tool_result": "a"#, r#""tool_call_id": "c9", "tool_result": "a"#),
        (r#""tool_call_id": "c1", "tool_result": "a"#, r#""tool_call_id": null, "tool_result": "a"#),
        (r#""tool_call_id": "c1", "tool_result": "a"#, r#""tool_call_id": 1, "tool_result": "a"#),
        (r#""tools": [{"name": "ls", "description": "list""#, r#""tools": [1, {"name": 2, "description": "list""#),
        (r#""tools": [{"name": "ls", "description": "list", "args_schema": {"type": "object"}}]"#, r#""tools": {"ls": 1}"#),
        (r#""output": {"o": 1}"#, r#""output": "o""#),
        (r#""key": "k""#, r#""key": ["k"]"#),
        (r#""key": "k", "value": {"v": [1]}"#, r#""key": "k""#),
        (r#""source": ["agent"]"#, r#""source": "agent""#),
        (r#""dest": ["agent", "sub"]"#, r#""dest": ["agent", 2]"#),
        (r#"{"identifier": "i2""#, r#"{"identifier": 2"#),
        (r#"{"identifier": "i2""#, r#"{"identifier": null"#),
        (r#"{"identifier": "i2""#, r#"{"identifier": "i1""#),
        (r#"{"identifier": "i3", "#, r#"{"#),
        (r#""annotations": {"a": 1}"#, r#""annotations": [1]"#),
        (r#""annotations": {"a": 1}"#, r#""annotations": "a""#),
        (r#""timestamp": "2025-01-01T00:00:08.000+05:30""#, r#""timestamp": "2025-01-01T00:00:08""#),
        (r#""timestamp": "2025-01-01T00:00:08.000+05:30""#, r#""timestamp": "yesterday""#),
        (r#""timestamp": "2025-01-01T00:00:08.000+05:30""#, r#""timestamp": 1735689600"#),
        (r#""timestamp": "2025-01-01T00:00:09Z", "#, ""),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": {"name": ["other"]}"#),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": {"session": "s2", "name": "other"}"#),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": {"session": 2, "name": [1, "other"]}"#),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": ["s2"]"#),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": {"session": "s2"}"#),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": {"session": 2, "name": ["other"]}"#),
        (r#""span": {"session": "s2", "name": ["other"]}"#, r#""span": {"session": null, "name": ["other"]}"#),
        (r#""name": ["agent", "step"]"#, r#""name": ["\u0061gent", "st\u0065p"]"#),
        (r#""name": ["agent", "step"]"#, r#""name": []"#),
        (r#""name": ["agent", "step"]"#, r#""name": ["agent", null]"#),
        (r#""name": ["agent", "step"]"#, r#""name": ["agent", "step"], "x": {"name": 1}"#),
        // The catalog version: the first record's (and every later record's, which repeat it) and the last.
        (r#""is_dirty": false, "version_system": "git"}}"#, r#""is_dirty": "maybe", "version_system": "git"}}"#),
        (r#""is_dirty": false, "version_system": "git"}}"#, r#""is_dirty": false, "version_system": "svn"}}"#),
        (r#""identifier": "502f8f9", "is_dirty": false"#, r#""identifier": null, "is_dirty": false"#),
        (r#""identifier": "502f8f9", "is_dirty": false"#, r#""identifier": 7, "is_dirty": "yes""#),
        (r#""catalog_version": {"timestamp": "2025-07-04T11:20:31.313387Z""#, r#""catalog_version": {"timestamp": "2025-07-04T11:20:31""#),
        (r#""metadata": {"k": "v"}"#, r#""metadata": {"k": 1, "j": "v", "k": 2}"#),
        (r#""metadata": {"k": "v"}"#, r#""metadata": ["k"]"#),
        (r#""content": {"kind": "end"}, "catalog_version": {"timestamp": "2025-07-04T11:20:31.313387Z""#, r#""content": {"kind": "end"}, "catalog_version": {"timestamp": "2025-07-04T11:20:31.313387""#),
        (r#""content": {"kind": "end"}, "catalog_version": {"#, r#""content": {"kind": "end"}, "catalog_version": { "#),
        (r#", "catalog_version": {"timestamp": "2025-07-05T00:00:00Z", "identifier": "abc", "metadata": {"k": "v"}}"#, ""),
        (r#""content": {"kind": "end"}, "catalog_version": {"#, r#""content": {"kind": "end"}, "catalog_version": "v1", "x": {"#),
        // Lone surrogates and NaN (pydantic reads them; the exact path parses those records).
        (r#""value": "hi""#, r#""value": "a \ud800 b""#),
        (r#""tool_result": "a\nb"#, r#""tool_result": "\udc00 a\nb"#),
        (r#""tool_args": {"p": "/""#, r#""tool_args": {"p": NaN"#),
        (r#""annotations": {"a": 1}"#, r#""annotations": {"a": -Infinity}"#),
        (r#""deep": [1, 2.50]"#, r#""deep": [1, 1e999]"#),
        // Byte-level traps that must read the same: spaces, escapes, big numbers, empty strings.
        (r#""content": {"kind": "assistant", "value": "done"}"#, r#""content" : { "kind" : "assistant" , "value" : "d\/o\"ne" }"#),
        (r#""value": "done""#, r#""value": """#),
        (r#""tool_result": "a\nb \"q\"""#, r#""tool_result": """#),
        (r#""opts": {"deep": [1, 2.50]}"#, r#""opts": {"deep": [12345678901234567890123, -0.0, 1E2]}"#),
        (r#""value": {"v": [1]}"#, r#""value": 12345678901234567890123"#),
        (r#""state": {"task": "t0"}"#, r#""state": {"task": "t0"}, "kind2": {"identifier": 1}, "identifier": "from content""#),
        (r#"{"identifier": "i12", "#, r#"{"annotations": {"z": 1}, "identifier": "i12", "#),
    ];
    let mut left_in_source = 0;
    let mut texts = 0;
    for edit in edits {
        let doc = agent_catalog_log(*edit);
        for format in [None, Some("agent-catalog")] {
            left_in_source += same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
        // The AgentRun text too (it reads the texts, arguments and metadata left in the source).
        let text = same_agent_run_text(&doc, "agent-catalog").unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        texts += usize::from(text.is_some());
    }
    assert_eq!(texts, edits.len(), "every document has an AgentRun text");
    // The clean records were read fast: their texts in the source.
    assert!(left_in_source > edits.len() * 2 * 5, "only {left_in_source} texts read fast");
}
