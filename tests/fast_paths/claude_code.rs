//! Claude Code records read fast (their content and metadata left in the
//! source; the members the reading looks at found in the bytes, not built)
//! give what the exact path gives, edited in the ways the byte-level reader
//! could misread: escaped and repeated keys, values of the wrong kind, usage
//! that ccusage's schema refuses, run keys that are not strings.

use super::{edited, edits_parse_the_same};

/// A Claude Code session with one edit applied (see [`super::docent_run`]).
fn claude_code_session(edit: (&str, &str)) -> String {
    let head = r#""sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "cwd": "/w", "version": "2.1.39", "isSidechain": false"#;
    let lines = [
        r#"{"parentUuid": null, HEAD, "type": "user", "message": {"role": "user", "content": "fix it \u00e9"}, "uuid": "u1", "timestamp": "2025-01-01T00:00:01.000Z"}"#,
        r#"{"parentUuid": "u1", HEAD, "type": "assistant", "message": {"model": "claude", "id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s"}, {"type": "text", "text": "ok"}, {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}], "stop_reason": null, "usage": {"input_tokens": 3, "output_tokens": 5}}, "requestId": "req_1", "uuid": "a1", "timestamp": "2025-01-01T00:00:02.000Z"}"#,
        r#"{"parentUuid": "a1", HEAD, "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_1", "type": "tool_result", "content": "a\nb", "is_error": false}]}, "toolUseResult": {"stdout": "a\nb"}, "uuid": "u2", "timestamp": "2025-01-01T00:00:03.000Z"}"#,
        r#"{"parentUuid": "u2", HEAD, "type": "progress", "data": {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "fmt"}, "parentToolUseID": "toolu_1", "toolUseID": "toolu_1", "uuid": "p1", "timestamp": "2025-01-01T00:00:03.500Z"}"#,
        r#"{"parentUuid": "p1", HEAD, "type": "assistant", "message": {"model": "claude", "id": "msg_2", "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"path": "a"}}], "usage": {"input_tokens": 1, "output_tokens": 1, "cache_read_input_tokens": 7, "cache_creation_input_tokens": 2, "service_tier": "standard"}}, "requestId": "req_2", "uuid": "a2", "timestamp": "2025-01-01T00:00:04.000Z"}"#,
        r#"{"parentUuid": "a2", HEAD, "type": "assistant", "message": {"model": "claude", "id": "msg_2", "role": "assistant", "content": [{"type": "text", "text": "and more"}], "usage": {"input_tokens": 1, "output_tokens": 1, "cache_read_input_tokens": 7, "cache_creation_input_tokens": 2, "service_tier": "standard"}}, "requestId": "req_2", "uuid": "a3", "timestamp": "2025-01-01T00:00:04.500Z"}"#,
        r#"{"parentUuid": "a3", HEAD, "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_2", "type": "tool_result", "content": [{"type": "text", "text": "body"}], "is_error": true}]}, "toolUseResult": {"agentId": "ag7", "status": "done"}, "uuid": "u3", "timestamp": "2025-01-01T00:00:05.000Z"}"#,
        r#"{"parentUuid": "u3", HEAD, "gitBranch": "main", "slug": "s-l-u-g", "entrypoint": "cli", "type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "thanks"}]}, "uuid": "u4", "timestamp": "2025-01-01T00:00:06.000Z"}"#,
        r#"{"parentUuid": "u4", HEAD, "type": "assistant", "message": {"model": "claude", "id": "msg_3", "role": "assistant", "content": [{"type": "text", "text": "done"}], "usage": {"input_tokens": 2, "output_tokens": 4}}, "requestId": "req_3", "costUSD": 0.0123, "uuid": "a4", "timestamp": "2025-01-01T00:00:07.000Z"}"#,
        r#"{"parentUuid": "a4", HEAD, "type": "system", "subtype": "compact_boundary", "content": "compacted", "uuid": "s1", "timestamp": "2025-01-01T00:00:08.000Z"}"#,
        r#"{"parentUuid": null, "logicalParentUuid": "s1", HEAD, "type": "user", "message": {"role": "user", "content": "go on"}, "uuid": "u5", "timestamp": "2025-01-01T00:00:09.000Z"}"#,
    ];
    let doc = lines.join("\n").replace("HEAD", head);
    edited(&doc, edit)
}

#[test]
fn claude_code_records_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Escaped keys and values.
        (r#""type": "user""#, r#""typ\u0065": "user""#),
        (r#""type": "user""#, r#""type": "us\u0065r""#),
        (r#""type": "progress""#, r#""type": "pr\u006fgress""#),
        (r#""message": {"role": "user", "content": "fix"#, r#""message": {"role": "user", "c\u006fntent": "fix"#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "claude", "\u0069d": "msg_1""#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "cl\u0061ude", "id": "msg_\u0031""#),
        (r#""uuid": "a1""#, r#""\u0075uid": "a1""#),
        (r#""uuid": "a1""#, r#""uuid": "\u0061\u0031""#),
        (r#""parentUuid": "u1""#, r#""parentUuid": "u\u0031""#),
        (r#""requestId": "req_1""#, r#""request\u0049d": "req_1""#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": "2025-01-01T00:00:02.000\u005a""#),
        (r#""usage": {"input_tokens": 3"#, r#""usage": {"input_t\u006fkens": 3"#),
        (r#""usage": {"input_tokens": 1, "output_tokens": 1, "cache_read"#, r#""usage": {"input_tokens": 1, "output_tokens": 1, "cache_re\u0061d"#),
        (r#""toolUseResult": {"agentId": "ag7""#, r#""toolUseResult": {"\u0061gentId": "ag7""#),
        (r#""toolUseResult": {"agentId": "ag7""#, r#""toolUseResult": {"agentId": "\u0061g7""#),
        (r#""toolUseResult": {"stdout": "a\nb"}"#, r#""toolUseResult": {"std\u006fut": "a\nb"}"#),
        (r#""data": {"type": "hook_progress""#, r#""data": {"typ\u0065": "hook_progress""#),
        (r#""data": {"type": "hook_progress""#, r#""d\u0061ta": {"type": "hook_progress""#),
        (r#""cwd": "/w""#, r#""cwd": "\/w""#),
        (r#""sessionId": "9999a97c"#, r#""sess\u0069onId": "9999a97c"#),
        // Repeated keys.
        (r#""type": "user""#, r#""type": "user", "type": "system""#),
        (r#""message": {"role": "user", "content": "fix"#, r#""message": {"role": "user", "content": "x", "content": "fix"#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "claude", "id": "msg_0", "id": "msg_1""#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "a", "model": "claude", "id": "msg_1""#),
        (r#""uuid": "a1""#, r#""uuid": "a0", "uuid": "a1""#),
        (r#""parentUuid": "u1""#, r#""parentUuid": "u1", "parentUuid": "zz""#),
        (r#""requestId": "req_1""#, r#""requestId": "req_0", "requestId": "req_1""#),
        (r#""usage": {"input_tokens": 3"#, r#""usage": {"input_tokens": 9, "input_tokens": 3"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3, "output_tokens": 5}, "usage": {"input_tokens": 4, "output_tokens": 6}"#),
        (r#""toolUseResult": {"agentId": "ag7""#, r#""toolUseResult": {"agentId": "ag6", "agentId": "ag7""#),
        (r#""toolUseResult": {"stdout": "a\nb"}"#, r#""toolUseResult": {"stdout": "a\nb"}, "toolUseResult": null"#),
        (r#""data": {"type": "hook_progress""#, r#""data": {"type": "x"}, "data": {"type": "hook_progress""#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": "bad", "timestamp": "2025-01-01T00:00:02.000Z""#),
        (r#""costUSD": 0.0123"#, r#""costUSD": "x", "costUSD": 0.0123"#),
        (r#""cwd": "/w""#, r#""cwd": "/w", "cwd": "/v""#),
        (r#""stop_reason": null"#, r#""stop_reason": null, "stop_reason": "end""#),
        // Wrong kinds.
        (r#""content": "fix it \u00e9""#, r#""content": null"#),
        (r#""content": "fix it \u00e9""#, r#""content": 5"#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": 4, "id": "msg_1""#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "claude", "id": 1"#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "", "id": """#),
        (r#""uuid": "a1""#, r#""uuid": 1"#),
        (r#""parentUuid": "u1""#, r#""parentUuid": ["u1"]"#),
        (r#""requestId": "req_1""#, r#""requestId": 1"#),
        (r#""requestId": "req_1""#, r#""requestId": """#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": 2"#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": "2025-01-01 00:00:02""#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": "3", "output_tokens": 5}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3.0, "output_tokens": -5}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 18446744073709551616, "output_tokens": 1e2}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3, "output_tokens": 5, "speed": "slow"}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3, "output_tokens": 5, "speed": "fast", "cache_read_input_tokens": null}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"prompt_tokens": 3, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 2}, "completion_tokens_details": {"reasoning_tokens": 1}, "input_tokens": 3, "output_tokens": 5}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3, "output_tokens": 5, "prompt_tokens_details": {"cached\u005ftokens": 2}}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": [3, 5]"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": null"#),
        (r#""costUSD": 0.0123"#, r#""costUSD": "0.0123""#),
        (r#""costUSD": 0.0123"#, r#""costUSD": 1e999"#),
        (r#""costUSD": 0.0123"#, r#""costUSD": null"#),
        (r#""version": "2.1.39""#, r#""version": "2.1""#),
        (r#""version": "2.1.39""#, r#""version": 2"#),
        (r#""cwd": "/w""#, r#""cwd": 5"#),
        (r#""cwd": "/w""#, r#""cwd": {"path": "/w"}"#),
        (r#""cwd": "/w""#, r#""cwd": null"#),
        (r#""sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591""#, r#""sessionId": """#),
        (r#""gitBranch": "main""#, r#""gitBranch": ["main"]"#),
        (r#""slug": "s-l-u-g""#, r#""slug": 12345678901234567890123"#),
        (r#""entrypoint": "cli""#, r#""entrypoint": true, "agentId": "x""#),
        (r#""isSidechain": false"#, r#""isSidechain": false, "isApiErrorMessage": true"#),
        (r#""requestId": "req_1""#, r#""requestId": "req_1", "isApiErrorMessage": "yes""#),
        (r#""requestId": "req_3""#, r#""requestId": "req_3", "isApiErrorMessage": false"#),
        (r#""toolUseResult": {"agentId": "ag7""#, r#""toolUseResult": {"agentId": 7"#),
        (r#""toolUseResult": {"stdout": "a\nb"}"#, r#""toolUseResult": "Error: a\nb""#),
        (r#""toolUseResult": {"stdout": "a\nb"}"#, r#""toolUseResult": [{"agentId": "x"}]"#),
        (r#""data": {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "fmt"}"#, r#""data": "text""#),
        (r#""data": {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "fmt"}"#, r#""data": {"type": "agent_progress", "agentId": "ag7"}"#),
        (r#""data": {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "fmt"}, "#, ""),
        (r#""data": {"type": "hook_progress""#, r#""message": {"role": "user", "content": "m", "usage": {"input_tokens": 1, "output_tokens": 1}}, "data": {"type": "hook_progress""#),
        (r#""data": {"type": "hook_progress""#, r#""data": {"type": 5"#),
        (r#""command": "fmt""#, r#""command": "fmt \ud800""#),
        (r#""command": "fmt""#, r#""command": NaN"#),
        // The content's blocks.
        (r#""content": "fix it \u00e9""#, r#""content": "fix \ud800""#),
        (r#"{"type": "text", "text": "ok"}"#, r#"{"type": "text", "text": 1}"#),
        (r#"{"type": "text", "text": "ok"}"#, r#"{"type": "text"}"#),
        (r#"{"type": "text", "text": "ok"}"#, r#"{"type": "image", "source": {"type": "url", "url": "data:,"}}"#),
        (r#"{"type": "text", "text": "ok"}"#, r#"{"type": "redacted_thinking", "data": "x"}"#),
        (r#"{"type": "text", "text": "ok"}"#, r#"{"type": "text", "text": "ok", "citations": []}"#),
        (r#"{"type": "thinking", "thinking": "hm""#, r#"{"type": "thinking", "text": 2, "thinking": "hm""#),
        (r#"{"type": "thinking", "thinking": "hm""#, r#"{"type": "thinking", "thinking": null"#),
        (r#""id": "toolu_1", "name": "Bash""#, r#""id": 1, "name": "Bash""#),
        (r#""id": "toolu_1", "name": "Bash""#, r#""name": "Bash""#),
        (r#""id": "toolu_1", "name": "Bash""#, r#""id": "toolu_1", "name": null"#),
        (r#""input": {"command": "ls"}"#, r#""inputs": {"command": "ls"}"#),
        (r#""input": {"command": "ls"}"#, r#""input": "ls""#),
        (r#""input": {"command": "ls"}"#, r#""input": {"command": "ls", "command": "pwd"}"#),
        (r#""content": "a\nb", "is_error": false"#, r#""content": "a\nb", "is_error": "yes""#),
        (r#""content": "a\nb", "is_error": false"#, r#""content": "a\nb", "is_error": true"#),
        (r#""content": "a\nb", "is_error": false"#, r#""content": null"#),
        (r#""content": "a\nb", "is_error": false"#, r#""content": {"k": 1}"#),
        (r#""content": "a\nb", "is_error": false"#, r#""content": [{"type": "image", "source": {}}]"#),
        (r#"{"tool_use_id": "toolu_1", "type": "tool_result""#, r#"{"type": "text", "text": "x"}, {"tool_use_id": "toolu_1", "type": "tool_result""#),
        (r#"{"tool_use_id": "toolu_1", "type": "tool_result""#, r#"{"tool_use_id": 7, "type": "tool_result""#),
        (r#"{"tool_use_id": "toolu_1", "type": "tool_result""#, r#"{"tool_use_id": "toolu_9", "type": "tool_result""#),
        (r#"{"tool_use_id": "toolu_2", "type": "tool_result""#, r#"{"tool_use_id": "toolu_2", "type": "tool_result", "text": 3"#),
        (r#""content": [{"type": "tool_use", "id": "toolu_2""#, r#""content": [{"type": "text", "text": "t", "text": "u"}, {"type": "tool_use", "id": "toolu_2""#),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": [{"type": "tool_use", "id": "toolu_3", "name": "X", "input": {}}]"#),
        (r#""content": [{"type": "text", "text": "and more"}]"#, r#""content": "and more""#),
        (r#""content": [{"type": "text", "text": "done"}]"#, r#""content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}]"#),
        // The turn, the tree and the runs.
        (r#""id": "msg_2", "role": "assistant", "content": [{"type": "text""#, r#""id": "msg_4", "role": "assistant", "content": [{"type": "text""#),
        (r#""logicalParentUuid": "s1""#, r#""logicalParentUuid": "gone""#),
        (r#""parentUuid": "u3""#, r#""parentUuid": "u1""#),
        (r#""requestId": "req_1""#, r#""requestId": "req_1", "extra": 1e999"#),
        (r#""isSidechain": false"#, r#""isSidechain": true, "agentId": "ag7""#),
        // Ids kept as the source's bytes where they hold no escape, decoded
        // where they do: the turn, the usage counted once per
        // `message.id` + `requestId`, and the tree must match them alike.
        (r#""requestId": "req_2", "uuid": "a3""#, r#""requestId": "req_\u0032", "uuid": "a3""#),
        (r#""requestId": "req_2", "uuid": "a3""#, r#""requestId": "req_3", "uuid": "a3""#),
        (r#""id": "msg_2", "role": "assistant", "content": [{"type": "text""#, r#""id": "msg_\u0032", "role": "assistant", "content": [{"type": "text""#),
        (r#""id": "msg_2", "role": "assistant", "content": [{"type": "text""#, r#""id": "msg_2 ", "role": "assistant", "content": [{"type": "text""#),
        (r#""id": "msg_2", "role": "assistant", "content": [{"type": "text""#, r#""id": "msg_2", "id": "msg_2", "role": "assistant", "content": [{"type": "text""#),
        (r#""id": "msg_2", "role": "assistant", "content": [{"type": "text""#, r#""id": null, "role": "assistant", "content": [{"type": "text""#),
        (r#""model": "claude", "id": "msg_2""#, r#""model": "claude", "id": "msg_\u0032""#),
        (r#""uuid": "a2""#, r#""uuid": "\u00e92""#),
        (r#""parentUuid": "a2""#, r#""parentUuid": "\u00e92""#),
        (r#""uuid": "a2""#, r#""uuid": "é2""#),
        (r#""parentUuid": "a2""#, r#""parentUuid": "é2""#),
        (r#""parentUuid": "a2""#, r#""parentUuid": "a\u0032""#),
        (r#""uuid": "u5""#, r#""uuid": "u\u0035", "logicalParentUuid": "a\u0034""#),
        (r#""logicalParentUuid": "s1""#, r#""logicalParentUuid": "s\u0031""#),
        (r#""logicalParentUuid": "s1""#, r#""logicalParentUuid": 1"#),
        // ccusage's schema read on the texts' bytes.
        (r#""version": "2.1.39""#, r#""version": "2\u002e1.39""#),
        (r#""version": "2.1.39""#, r#""version": "2.1.""#),
        (r#""version": "2.1.39""#, r#""version": "2..39""#),
        (r#""version": "2.1.39""#, r#""version": "2.1.3x""#),
        (r#""version": "2.1.39""#, r#""version": "２.1.39""#),
        (r#""version": "2.1.39""#, r#""version": """#),
        (r#""sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591""#, r#""sessionId": "\u0020""#),
        (r#""requestId": "req_1""#, r#""requestId": "\u0000""#),
        (r#""model": "claude", "id": "msg_1""#, r#""model": "\u00e9", "id": "msg_1""#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": "2025-01-01T00:00:02.000Z ""#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": "2025-01-01T00:00:02Z""#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z""#, r#""timestamp": "2025-01-01T00:00:02.0000Z""#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3, "output_tokens": 5, "speed": "f\u0061st"}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 3, "output_tokens": 5, "speed": "fast "}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 18446744073709551615, "output_tokens": 0, "cache_read_input_tokens": -0, "cache_creation_input_tokens": 1E2}"#),
        (r#""usage": {"input_tokens": 3, "output_tokens": 5}"#, r#""usage": {"input_tokens": 99999999999999999999, "output_tokens": 10, "total_tokens": 0.5}"#),
        (r#""type": "user""#, r#""type": "brand-new""#),
        (r#""type": "user""#, r#""type": "br\u0061nd-new""#),
        (r#""type": "user""#, r#""type": "pr\u006fgress""#),
        // A later record of a turn: its blocks and calls move into the turn's event.
        (r#""content": [{"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"path": "a"}}]"#, r#""content": "first""#),
        (r#""content": [{"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"path": "a"}}]"#, r#""content": null"#),
        (r#""content": [{"type": "text", "text": "and more"}]"#, r#""content": [{"type": "tool_use", "id": "toolu_5", "name": "X", "input": {}}, {"type": "text", "text": "t"}, {"type": "tool_use", "id": "toolu_6", "name": "Y", "input": []}]"#),
        (r#""content": [{"type": "text", "text": "and more"}]"#, r#""content": null"#),
        (r#""content": [{"type": "text", "text": "and more"}]"#, r#""content": [{"type": "tool_use", "name": "X", "input": 1}]"#),
        (r#""id": "msg_3""#, r#""id": "msg_2""#),
        (r#""id": "msg_3""#, r#""id": "msg_\u0032""#),
        // Content lists walked block by block where they stand.
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": [ ]"#),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": []"#),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, "\"content\": [\t {\"type\": \"text\", \"text\": \"a\"} ,\t{\"type\": \"text\", \"text\": \"b\"}  ]"),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": [{"type": "text", "text": "a"}, "b"]"#),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": ["b", {"type": "text", "text": "a"}]"#),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": [{"type": "text", "text": "a"}, [{"type": "text", "text": "b"}]]"#),
        (r#""content": [{"type": "text", "text": "thanks"}]"#, r#""content": [{"type": "text", "text": "a"}, null]"#),
        (r#"{"tool_use_id": "toolu_1", "type": "tool_result", "content": "a\nb", "is_error": false}]"#, r#"{"tool_use_id": "toolu_1", "type": "tool_result", "content": "a\nb", "is_error": false}, {"type": "text", "text": "x"}]"#),
        (r#"{"tool_use_id": "toolu_1", "type": "tool_result", "content": "a\nb", "is_error": false}]"#, r#"{"tool_use_id": "toolu_1", "type": "tool_result", "content": "a\nb", "is_error": false} ]"#),
        (r#"[{"tool_use_id": "toolu_1", "type": "tool_result""#, r#"[ {"tool_use_id": "toolu_1", "type": "tool_result""#),
        // A later record of a response whose ids were counted: its usage is not read.
        (r#""usage": {"input_tokens": 1, "output_tokens": 1"#, r#""usage": {"input_tokens": "1", "output_tokens": 1"#),
        (r#""usage": {"input_tokens": 1, "output_tokens": 1"#, r#""usage": {"input_tokens": 1, "output_tokens": 1, "speed": "slow""#),
        (r#""and more"}], "usage": {"input_tokens": 1"#, r#""and more"}], "usage": {"inp\u0075t_tokens": 1"#),
        (r#""and more"}], "usage": {"input_tokens": 1"#, r#""and more"}], "usage": {"input_tokens": 5"#),
        (r#""and more"}], "usage": {"input_tokens": 1"#, r#""and more"}], "usage": null, "x": {"input_tokens": 1"#),
        (r#""requestId": "req_2", "uuid": "a3""#, r#""requestId": "req_2", "costUSD": 0.5, "uuid": "a3""#),
        (r#""requestId": "req_2", "uuid": "a3""#, r#""requestId": "req_2", "costUSD": "x", "uuid": "a3""#),
        (r#""requestId": "req_2", "uuid": "a3""#, r#""uuid": "a3""#),
        (r#""requestId": "req_2", "uuid": "a2""#, r#""uuid": "a2""#),
        (r#""timestamp": "2025-01-01T00:00:04.000Z""#, r#""timestamp": "bad""#),
    ];
    let left_in_source = edits_parse_the_same(edits, "claude-code", claude_code_session);
    assert!(left_in_source > edits.len() * 2 * 6, "only {left_in_source} texts read fast");
}

/// The first pass places each record by its `isSidechain`, `agentId`,
/// `uuid` and `parentUuid`, read from the bytes (strings borrowed, not
/// built): a session of sidechain records, edited in the ways that reading
/// could misplace one (escaped, repeated, `null` or non-string values).
#[test]
fn claude_code_records_are_placed_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (r#""uuid": "u1""#, r#""uuid": "\u00751""#),
        (r#""parentUuid": "u1""#, r#""parentUuid": "\u00751""#),
        (r#""parentUuid": "a1""#, r#""parentUuid": ["a1"]"#),
        (r#""uuid": "a1""#, r#""uuid": "a1", "uuid": "a1""#),
        (r#""uuid": "a1""#, r#""uuid": null"#),
        (r#""isSidechain": true"#, r#""isSidechain": true, "isSidechain": true"#),
        (r#""isSidechain": true"#, r#""isSidechain": "true""#),
        (r#""isSidechain": true"#, r#""\u0069sSidechain": true"#),
        (r#""isSidechain": true"#, r#""isSidechain": true, "agentId": "a\u00677""#),
        (r#""isSidechain": true"#, r#""isSidechain": true, "agentId": null"#),
        (r#""isSidechain": true"#, r#""isSidechain": true, "agentId": 7"#),
        (r#""isSidechain": true"#, r#""isSidechain": true, "agentId": "x", "agentId": "y""#),
    ];
    let sidechain = |edit: (&str, &str)| edited(&claude_code_session(("", "")).replace(r#""isSidechain": false"#, r#""isSidechain": true"#), edit);
    edits_parse_the_same(edits, "claude-code", sidechain);
    edits_parse_the_same(edits, "claude-code", |edit| claude_code_session(edit));
}

/// The session as Claude Code orders a record's members (`parentUuid`, then
/// `isSidechain`), so that the first pass places records from their first
/// members; one edit applied.
fn claude_code_ordered(edit: (&str, &str)) -> String {
    let head = r#", "sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "cwd": "/w", "version": "2.1.39", "isSidechain": false"#;
    let ordered = r#", "isSidechain": false, "sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "cwd": "/w", "version": "2.1.39""#;
    // `LONG` in an edit: a string long enough for the split to record its end.
    let long = "x".repeat(300);
    edited(&claude_code_session(("", "")).replace(head, ordered), (edit.0, &edit.1.replace("LONG", &long)))
}

/// Records placed from their first members (`isSidechain` not `true` there:
/// the main run) are placed as serde_json reads them, edited in the ways that
/// early look could misread: `isSidechain` true, repeated, escaped, of
/// another kind, after an escaped key, spaced.
#[test]
fn claude_code_records_placed_early_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (r#""isSidechain": false"#, r#""isSidechain": true"#),
        (r#""isSidechain": false"#, r#""isSidechain": true, "agentId": "ag7""#),
        (r#""isSidechain": false"#, r#""isSidechain": null"#),
        (r#""isSidechain": false"#, r#""isSidechain": "true""#),
        (r#""isSidechain": false"#, r#""isSidechain": 1"#),
        (r#""isSidechain": false"#, r#""isSidechain": [true]"#),
        (r#""isSidechain": false"#, r#""isSidechain": {"isSidechain": true}"#),
        (r#""isSidechain": false"#, r#""isSidechain": false, "isSidechain": true"#),
        (r#""isSidechain": false"#, r#""isSidechain": true, "isSidechain": false"#),
        (r#""isSidechain": false"#, r#""isSidechain": false, "\u0069sSidechain": true"#),
        (r#""isSidechain": false"#, r#""\u0069sSidechain": true, "isSidechain": false"#),
        (r#""isSidechain": false"#, r#""\u0069sSidechain": true"#),
        (r#""isSidechain": false"#, r#""isSidechain" :	true "#),
        (r#""isSidechain": false"#, r#""isSidechain" : false "#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"p\u0061rentUuid": null, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"a": {"isSidechain": false}, "b": [1, {"c": 2}], "c": "}", "d": 1, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"a": 1, "b": 2, "c": 3, "d": 4, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuid": null, "isSidechain": false, "command": "\ud800""#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuid": null, "isSidechain": true, "command": "\ud800""#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"{"parentUuid": "u1", "isSidechain": true, "agentId": null"#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"["u1", true"#),
        // A first member's string value, its end found by a scan: escaped quotes, long, empty.
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuid": "\", \"isSidechain\": false, \"", "isSidechain": true"#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"{"parentUuid": "u1\\", "isSidechain": true"#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"{"parentUuid": "", "isSidechain": true"#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"{"parentUuid": "LONG \"isSidechain\": false LONG", "isSidechain": true"#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"{"parentUuid": "LONG", "isSidechain": false, "isSidechain": true"#),
        (r#"{"parentUuid": "u1", "isSidechain": false"#, r#"{"parentUuid": "\u00e9", "isSidechain": true"#),
        // Keys that begin as the two Claude Code writes first, and are not them.
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuidX": null, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuid\"": null, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuid": null, "isSidechain\"": false, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"parentUuid": null, "isSidechainX": false, "isSidechain": true"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{"isSidechain": true, "parentUuid": null"#),
        (r#"{"parentUuid": null, "isSidechain": false"#, r#"{ "parentUuid" : null , "isSidechain" : false"#),
    ];
    edits_parse_the_same(edits, "claude-code", claude_code_ordered);
    let sidechain = |edit: (&str, &str)| edited(&claude_code_ordered(("", "")).replace(r#""isSidechain": false"#, r#""isSidechain": true"#), edit);
    edits_parse_the_same(edits, "claude-code", sidechain);
}

/// Several session files read as one trace: each file's main conversation
/// is a run of its own (its records' ids then matter), sub-agent files too.
#[test]
fn claude_code_files_placed_early_the_same_both_ways() {
    let main = claude_code_ordered(("", ""));
    // A sidechain record without an `agentId` goes to the run of the record it follows.
    let side = r#"{"parentUuid": "u5", "isSidechain": true, "type": "user", "message": {"role": "user", "content": "aside"}, "uuid": "x1", "timestamp": "2025-01-01T00:00:10.000Z"}"#;
    let other = format!("{}\n{side}", main.replace("9999a97c", "aaaaa97c"));
    let agent = main.replace(r#""isSidechain": false"#, r#""isSidechain": true, "agentId": "ag7""#);
    let files = |exact_only| {
        let options = agent_trace_viewer::ParseOptions { format: Some("claude-code".to_string()), exact_only, ..Default::default() };
        let named = [
            ("9999a97c-3b14-400d-a6c6-3ddda7a96591.jsonl", &main),
            ("aaaaa97c-3b14-400d-a6c6-3ddda7a96591.jsonl", &other),
            ("9999a97c-3b14-400d-a6c6-3ddda7a96591/subagents/agent-ag7.jsonl", &agent),
        ];
        let t = agent_trace_viewer::parse_files(named.iter().map(|(n, d)| (n.to_string(), d.as_bytes().to_vec())).collect(), &options).expect("parses");
        assert!(t.runs.len() >= 3, "{} runs", t.runs.len());
        super::model(&t)
    };
    assert_eq!(files(false), files(true));
}

/// A `progress` record's `data` is left in the source and only its `type`
/// and (for a sub-agent's progress) `agentId` are read from its bytes: the
/// session with a sub-agent run `ag7` after it, so that the call a progress
/// names shows as the run's parent; edited in the ways that reading could
/// misread `data`.
#[test]
fn claude_code_progress_read_fast_parse_the_same_both_ways() {
    let data = r#""data": {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "fmt"}"#;
    let agent = r#""data": {"type": "agent_progress", "agentId": "ag7", "prompt": "p"}"#;
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (data, agent),
        (data, r#""data": {"type": "agent_progress", "agentId": "ag7", "agentId": "ag8"}"#),
        (data, r#""data": {"type": "agent_progress", "agentId": "ag8", "agentId": "ag7"}"#),
        (data, r#""data": {"type": "hook_progress", "type": "agent_progress", "agentId": "ag7"}"#),
        (data, r#""data": {"type": "agent_progress", "type": "hook_progress", "agentId": "ag7"}"#),
        (data, r#""data": {"type": "agent\u005fprogress", "agentId": "ag7"}"#),
        (data, r#""data": {"type": "agent_progress", "agentId": "a\u00677"}"#),
        (data, r#""data": {"type": "agent_progress", "agent\u0049d": "ag7"}"#),
        (data, r#""data": {"type": "agent_progress", "agentId": 7}"#),
        (data, r#""data": {"type": "agent_progress", "agentId": null}"#),
        (data, r#""data": {"type": "agent_progress"}"#),
        (data, r#""data": {"agentId": "ag7", "nested": {"type": "agent_progress"}}"#),
        (data, r#""data": [{"type": "agent_progress", "agentId": "ag7"}]"#),
        (data, r#""data": null"#),
        (data, r#""data": 5"#),
        (data, r#""data": {}"#),
        (data, r#""data": {"type": "agent_progress", "agentId": "ag7", "n": 1.50, "big": 123456789012345678901234567890}"#),
        (data, r#""data": {"type": "agent_progress", "agentId": "ag7"}, "data": {"type": "hook_progress"}"#),
        (data, r#""data": {"type": "hook_progress"}, "data": {"type": "agent_progress", "agentId": "ag7"}"#),
        (r#""parentToolUseID": "toolu_1", "#, ""),
        (r#""parentToolUseID": "toolu_1""#, r#""parentToolUseID": 1"#),
        (r#""parentToolUseID": "toolu_1""#, r#""parentToolUseID": "toolu_\u0032""#),
        (r#""parentToolUseID": "toolu_1""#, r#""parentToolUseID": "toolu_9", "parentToolUseID": "toolu_2""#),
    ];
    let sub_agent = r#"{"parentUuid": null, "isSidechain": true, "agentId": "ag7", "sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "type": "user", "message": {"role": "user", "content": "sub"}, "uuid": "x1", "timestamp": "2025-01-01T00:00:10.000Z"}"#;
    let with_agent = |edit: (&str, &str)| {
        // The sub-agent's result (`toolUseResult.agentId`) names no agent here: the progress alone links it.
        let session = claude_code_session(("", "")).replace(r#""agentId": "ag7", "status""#, r#""status""#);
        format!("{}\n{sub_agent}", edited(&session, edit))
    };
    edits_parse_the_same(edits, "claude-code", with_agent);
}

/// The session written as Claude Code writes it, without spaces between
/// members (the form the fast path meets in practice), with `globally`
/// applied to every record and then one edit: both compacted alike.
fn claude_code_compact(globally: (&str, &str), edit: (&str, &str)) -> String {
    let compact = |s: &str| s.replace("\": ", "\":").replace(", \"", ",\"");
    let doc = compact(&claude_code_session(("", ""))).replace(&compact(globally.0), &compact(globally.1));
    edited(&doc, (&compact(edit.0), &compact(edit.1)))
}

/// A record's keys, and its short values that repeated, are first compared
/// with those at the same place of the record before (`walk.rs`): one later
/// record (the one after `a2`) edited to differ from the records before it
/// by one byte of a key or value, a length, an escape, a kind, the spacing
/// or the order; the same in the compact form, and with a repeated value
/// escaped in every record.
#[test]
fn claude_code_members_read_as_last_seen_parse_the_same_both_ways() {
    let head = r#""sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "cwd": "/w", "version": "2.1.39", "isSidechain": false"#;
    let cwd = r#""cwd": "/w""#;
    let heads = [
        head.replace(cwd, r#""cwd": "/v""#),
        head.replace(cwd, r#""cwe": "/w""#),
        head.replace(cwd, r#""cwd": "/ww""#),
        head.replace(cwd, r#""cwd": "/""#),
        head.replace(cwd, r#""cwd": "/w\"""#),
        head.replace(cwd, r#""cwd": "\/w""#),
        head.replace(cwd, r#""cwd" : "/w""#),
        head.replace(cwd, r#""cw\u0064": "/w""#),
        head.replace(cwd, r#""cwd": null"#),
        head.replace(cwd, r#""cwd": 5"#),
        head.replace(cwd, r#""cwd": "/w", "cwd": "/v""#),
        head.replace(r#""cwd": "/w", "version": "2.1.39""#, r#""version": "2.1.39", "cwd": "/w""#),
        head.replace(r#""version": "2.1.39""#, r#""version": "2.1.38""#),
        head.replace(r#""version": "2.1.39""#, r#""versiom": "2.1.39""#),
        head.replace("9999a97c", "9999a97d"),
        head.replace("3ddda7a96591", "3ddda7a96592"),
        head.replace(r#""isSidechain": false"#, r#""isSidechain": null"#),
    ];
    let message = r#""id": "msg_2", "role": "assistant", "content": [{"type": "text", "text": "and more"}]"#;
    let messages = [
        message.replace(r#""role": "assistant""#, r#""role": "assistbnt""#),
        message.replace(r#""role": "assistant""#, r#""rolf": "assistant""#),
        message.replace(r#""role": "assistant""#, r#""role": "assistant ""#),
        message.replace(r#""id": "msg_2", "role": "assistant""#, r#""role": "assistant", "id": "msg_2""#),
        message.replace(r#""id": "msg_2""#, r#""id": "msg_3""#),
    ];
    let later = |h: &str| format!(r#""parentUuid": "a2", {h}"#);
    let mut edits: Vec<(String, String)> = vec![(String::new(), String::new())];
    edits.extend(heads.iter().map(|h| (later(head), later(h))));
    edits.extend(messages.iter().map(|m| (message.to_string(), m.clone())));
    // The uuids and timestamps never repeat; the first keys of a record Claude Code writes.
    edits.push((r#""uuid": "a3""#.to_string(), r#""uuix": "a3""#.to_string()));
    // A `toolUseResult` walked on the record's walk, then another of its key (the last counts).
    let result = r#""toolUseResult": {"agentId": "ag7", "status": "done"}"#;
    for later in [r#", "toolUseResult": "done""#, r#", "toolUseResult": [{"agentId": "ag8"}]"#, r#", "toolUseResult": {"agentId": "ag8"}"#, r#", "toolUseResult": {"\u0061gentId": "ag8"}"#] {
        edits.push((result.to_string(), format!("{result}{later}")));
    }
    edits.push((result.to_string(), r#""toolUseResult": {"agentIe": "ag7", "status": "done"}"#.to_string()));
    // Content blocks walked on the record's walk, their keys compared with the last block's.
    let call = r#"{"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"path": "a"}}"#;
    for other in [
        r#"{"type": "tool_use", "id": "toolu_2", "namf": "Read", "input": {"path": "a"}}"#,
        r#"{"type": "tool_use", "ie": "toolu_2", "name": "Read", "input": {"path": "a"}}"#,
        r#"{"name": "Read", "type": "tool_use", "id": "toolu_2", "input": {"path": "a"}}"#,
        r#"{"type": "tool_use", "id": "toolu_2", "n\u0061me": "Read", "input": {"path": "a"}}"#,
        r#"{"type": "tool_use", "id": "toolu_2", "name": "Read", "name": "Write", "input": {"path": "a"}}"#,
        r#"{"type": "tool_usf", "id": "toolu_2", "name": "Read", "input": {"path": "a"}}"#,
        r#"{"type": "text", "text": "toolu_2", "name": "Read", "input": {"path": "a"}}"#,
    ] {
        edits.push((call.to_string(), other.to_string()));
    }
    edits.push((r#""requestId": "req_2", "uuid": "a3""#.to_string(), r#""requestId": "req_2", "uuid": "a3", "type": "user""#.to_string()));
    let edits: Vec<(&str, &str)> = edits.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    edits_parse_the_same(&edits, "claude-code", claude_code_session);
    for globally in [("", ""), (cwd, r#""cwd": "\/w""#), (r#""role": "assistant""#, r#""role": "\u0061ssistant""#), (r#""isSidechain": false"#, r#""isSidechain" :false"#)] {
        edits_parse_the_same(&edits, "claude-code", |edit| claude_code_compact(globally, edit));
    }
}

/// A record whose `type` comes after its `message` (not as Claude Code
/// writes it): its content is read after the record's walk, not on it.
#[test]
fn claude_code_type_after_message_parses_the_same_both_ways() {
    let moved = |edit: (&str, &str)| {
        let doc = claude_code_session(("", ""))
            .replacen(r#""type": "assistant", "message": {"model": "claude", "id": "msg_2""#, r#""message": {"model": "claude", "id": "msg_2""#, 1)
            .replacen(r#""uuid": "a2""#, r#""uuid": "a2", "type": "assistant""#, 1)
            .replacen(r#""type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_1""#, r#""message": {"role": "user", "content": [{"tool_use_id": "toolu_1""#, 1)
            .replacen(r#""uuid": "u2""#, r#""uuid": "u2", "type": "user""#, 1);
        edited(&doc, edit)
    };
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (r#""uuid": "a2", "type": "assistant""#, r#""uuid": "a2", "type": "user""#),
        (r#""uuid": "u2", "type": "user""#, r#""uuid": "u2", "type": "assistant""#),
        (r#""name": "Read""#, r#""name": 1"#),
    ];
    edits_parse_the_same(edits, "claude-code", moved);
}

/// A `toolUseResult` is walked on its record's walk; its `agentId` (the
/// call that started the sub-agent run `ag7`) counts only when that object
/// is the record's last `toolUseResult`.
#[test]
fn claude_code_result_agents_read_on_the_walk_parse_the_same_both_ways() {
    let sub_agent = r#"{"parentUuid": null, "isSidechain": true, "agentId": "ag7", "sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "type": "user", "message": {"role": "user", "content": "sub"}, "uuid": "x1", "timestamp": "2025-01-01T00:00:10.000Z"}"#;
    let result = r#""toolUseResult": {"agentId": "ag7", "status": "done"}"#;
    let edits: Vec<(&str, String)> = ["", r#", "toolUseResult": "done""#, r#", "toolUseResult": null"#, r#", "toolUseResult": [{"agentId": "ag7"}]"#, r#", "toolUseResult": {"agentId": "ag8"}"#, r#", "toolUseResult": {"status": "done"}"#]
        .iter()
        .map(|later| (result, format!("{result}{later}")))
        .collect();
    let edits: Vec<(&str, &str)> = edits.iter().map(|(a, b)| (*a, b.as_str())).collect();
    edits_parse_the_same(&edits, "claude-code", |edit| format!("{}\n{sub_agent}", claude_code_session(edit)));
}

/// A message's `usage` is walked on the message's walk, its keys compared
/// with those of the usage walked before it (`fast.rs`): the last response's
/// usage (read: its ids were not counted) edited to differ from the one
/// before it by a key's byte, the order, the spacing, a repeated key, an
/// escape, nested objects; a `usage` repeated after the one walked (the last
/// counts), one before the content, and one in a user's message. Also in
/// the compact form Claude Code writes.
#[test]
fn claude_code_usage_read_on_the_message_walk_parses_the_same_both_ways() {
    let usage = r#""usage": {"input_tokens": 2, "output_tokens": 4}"#;
    let mut edits: Vec<(String, String)> = [
        r#""usage": {"input_tokenz": 2, "output_tokens": 4}"#,
        r#""usage": {"output_tokens": 4, "input_tokens": 2}"#,
        r#""usage": { "input_tokens" : 2 ,"output_tokens":4 }"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4, "input_tokens": 6}"#,
        r#""usage": {"input_t\u006fkens": 2, "output_tokens": 4}"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4, "cache_creation": {"ephemeral_5m_input_tokens": 1}, "server_tool_use": {"web_search_requests": 0}}"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4, "prompt_tokens_details": {"cached_tokens": 3}, "completion_tokens_details": [1]}"#,
        r#""usage": {}"#,
        r#""usage": [{"input_tokens": 2, "output_tokens": 4}]"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4}, "usage": {"input_tokens": 7, "output_tokens": 8}"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4}, "usage": null"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4}, "usage": [1]"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4}, "usage": {"input_tokens": 7, "output_t\u006fkens": 8}"#,
        r#""usage": {"input_tokens": 2, "output_tokens": 4}, "usage": {"input_tokens": 2}"#,
    ]
    .iter()
    .map(|u| (usage.to_string(), u.to_string()))
    .collect();
    let done = r#""content": [{"type": "text", "text": "done"}]"#;
    edits.push((format!("{done}, {usage}"), format!("{usage}, {done}")));
    edits.push((format!("{done}, {usage}"), format!("{usage}, {done}, \"usage\": {{\"input_tokens\": 5, \"output_tokens\": 6}}")));
    // A later record of the response counted last (its usage not walked),
    // but with another `requestId`: its usage counts, found apart.
    let a3 = r#""requestId": "req_2", "uuid": "a3""#;
    edits.push((a3.to_string(), r#""requestId": "req_9", "uuid": "a3""#.to_string()));
    edits.push((a3.to_string(), r#""uuid": "a3""#.to_string()));
    let a3_usage = r#""service_tier": "standard"}}, "requestId": "req_2", "uuid": "a3""#;
    edits.push((a3_usage.to_string(), r#""service_tier": "standard", "output_tokens": 9}}, "requestId": "req_9", "uuid": "a3""#.to_string()));
    let thanks = r#""content": [{"type": "text", "text": "thanks"}]"#;
    edits.push((thanks.to_string(), format!(r#"{thanks}, "model": "claude", "id": "msg_9", "usage": {{"input_tokens": 2, "output_tokens": 4}}"#)));
    edits.push((thanks.to_string(), format!(r#"{thanks}, "id": "msg_9", "usage": {{"input_tokens": 2, "output_tokens": 4}}, "usage": {{"input_tokens": 1}}"#)));
    let edits: Vec<(&str, &str)> = edits.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    edits_parse_the_same(&edits, "claude-code", claude_code_session);
    edits_parse_the_same(&edits, "claude-code", |edit| claude_code_compact(("", ""), edit));
}

/// A call is found by its id's bytes in the source (`CallBlock::key`, not
/// a copy): an id or an answer's `tool_use_id` with an escape (its text is
/// not its bytes), ids that differ only in an escape, a repeated id (the
/// later call answered), an id that is no string, and a continued turn's
/// calls, whose metadata names the turn's event (`continues_event`).
#[test]
fn claude_code_calls_found_by_their_ids_bytes_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        (r#""id": "toolu_1""#, r#""id": "toolu_\u0031""#),
        (r#""tool_use_id": "toolu_1""#, r#""tool_use_id": "toolu_\u0031""#),
        (r#""id": "toolu_2""#, r#""id": "tool\u0075_2""#),
        (r#""tool_use_id": "toolu_2""#, r#""tool_use_id": "toolu_\u0032""#),
        (r#""id": "toolu_2""#, r#""id": "toolu_1""#),
        (r#""id": "toolu_2""#, r#""id": 2"#),
        (r#""tool_use_id": "toolu_2""#, r#""tool_use_id": "toolu_9""#),
        (r#""content": [{"type": "text", "text": "and more"}]"#, r#""content": [{"type": "tool_use", "id": "toolu_3", "name": "Grep", "input": {}}, {"type": "text", "text": "and more"}]"#),
        (r#""content": [{"type": "text", "text": "and more"}]"#, r#""content": [{"type": "tool_use", "id": "toolu_\u0032", "name": "Grep", "input": {}}]"#),
    ];
    edits_parse_the_same(edits, "claude-code", claude_code_session);
    edits_parse_the_same(edits, "claude-code", |edit| claude_code_compact(("", ""), edit));
}

/// A `progress` record's `data` is walked on the record's walk when its
/// `type` came first, its keys compared with the last `data` walked: two
/// progress records, the second edited to differ from the first by a key's
/// byte, the order, an escape, a repeat, a kind; a `data` repeated after
/// the one walked (the last is read), and a `type` after the `data` (read
/// apart).
#[test]
fn claude_code_progress_data_walked_parses_the_same_both_ways() {
    let first = r#""data": {"type": "agent_progress", "agentId": "ag7", "prompt": "p"}"#;
    let second = r#""data": {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "fmt"}"#;
    let later = [
        r#""data": {"type": "agent_progress", "agentId": "ag7", "prompt": "p"}"#,
        r#""data": {"typf": "agent_progress", "agentId": "ag7", "prompt": "p"}"#,
        r#""data": {"agentId": "ag7", "type": "agent_progress", "prompt": "p"}"#,
        r#""data": {"type": "agent_progress", "agentId": "a\u00677", "prompt": "p"}"#,
        r#""data": {"type": "agent_progress", "agent\u0049d": "ag7", "prompt": "p"}"#,
        r#""data": {"type": "agent_progress", "agentId": "ag7", "agentId": "ag8"}"#,
        r#""data": {"type": "agent_progress", "agentId": 7, "prompt": "p"}"#,
        r#""data": {"type": "agent_progress", "agentId": "ag7"}, "data": 5"#,
        r#""data": {"type": "agent_progress", "agentId": "ag7"}, "data": null"#,
        r#""data": {"type": "hook_progress"}, "data": {"type": "agent_progress", "agentId": "ag7"}"#,
        r#""data": {"type": "agent_progress", "agentId": "ag7"}, "data": {"type": "agent_progress", "agentId": "ag8"}"#,
    ];
    let sub_agent = r#"{"parentUuid": null, "isSidechain": true, "agentId": "ag7", "sessionId": "9999a97c-3b14-400d-a6c6-3ddda7a96591", "type": "user", "message": {"role": "user", "content": "sub"}, "uuid": "x1", "timestamp": "2025-01-01T00:00:10.000Z"}"#;
    for compact in [false, true] {
        let make = |edit: (&str, &str)| {
            // The sub-agent's result names no agent: only a progress links it.
            let session = claude_code_session(("", "")).replace(r#""agentId": "ag7", "status""#, r#""status""#);
            let progress = session.lines().find(|l| l.contains(r#""type": "progress""#)).unwrap_or_default().to_string();
            let twice = format!("{}\n{}", progress.replace(second, first).replace(r#""uuid": "p1""#, r#""uuid": "p0""#), progress);
            let session = session.replacen(&progress, &twice, 1);
            let session = if compact { claude_code_compact_text(&session) } else { session };
            let (from, to) = if compact { (claude_code_compact_text(edit.0), claude_code_compact_text(edit.1)) } else { (edit.0.to_string(), edit.1.to_string()) };
            format!("{}\n{sub_agent}", edited(&session, (&from, &to)))
        };
        // `second` is the later record's `data` (the first one's was replaced above).
        let edits: Vec<(&str, &str)> = later.iter().map(|l| (second, *l)).collect();
        edits_parse_the_same(&edits, "claude-code", make);
        let type_after = (r#""type": "progress", "data": {"type": "hook_progress""#, r#""data": {"type": "agent_progress", "agentId": "ag7"}, "type": "progress", "x": {"type": "hook_progress""#);
        edits_parse_the_same(&[type_after], "claude-code", make);
    }
}

/// `s` without spaces between members, as [`claude_code_compact`] writes it.
fn claude_code_compact_text(s: &str) -> String {
    s.replace("\": ", "\":").replace(", \"", ",\"")
}
