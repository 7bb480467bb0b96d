//! Gemini CLI message records read fast (texts, tool results and `args`
//! left in the source, metadata deferred) give what the exact path gives,
//! edited in the ways the byte-level reader could misread.

use agent_trace_viewer::analysis::summary::summary;
use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::query::{filter, QueryIndex};
use agent_trace_viewer::render::{agent_run_text, TextOptions};
use agent_trace_viewer::{parse_trace, ParseOptions};

use super::{edited, same_both_ways};

/// A session with every kind of record the fast path reads, and some it
/// leaves to the exact path, with one edit applied (see [`super::docent_run`]).
fn gemini_session(edit: (&str, &str)) -> String {
    let lines = [
        r#"{"sessionId": "s1", "projectHash": "h", "startTime": "2025-01-01T00:00:00.000Z", "lastUpdated": "2025-01-01T00:00:00.000Z", "kind": "main"}"#,
        r#"{"id": "m1", "timestamp": "2025-01-01T00:00:01.000Z", "type": "user", "content": [{"text": "fix it \u00e9"}, "and \"this\"", {"inlineData": {"mimeType": "image/png", "data": "AAA"}}], "extra": {"a": 1}}"#,
        r#"{"id": "m2", "timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": "", "thoughts": [], "tokens": {"input": 1, "output": 2, "total": 3}, "model": "gemini-2.5"}"#,
        r#"{"id": "m2", "timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": "ok", "thoughts": [{"subject": "S", "description": "d"}, {"subject": "T"}, 7], "tokens": {"input": 1, "output": 2, "cached": 1, "thoughts": 4, "tool": 0, "total": 3}, "model": "gemini-2.5", "toolCalls": [{"id": "c1", "name": "ls", "args": {"p": "."}, "result": [{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status": "success", "timestamp": "2025-01-01T00:00:03.000Z", "resultDisplay": "a\nb", "displayName": "List", "description": "", "renderOutputAsMarkdown": true}, {"id": "c2", "name": "read", "args": {"f": "x"}, "result": [{"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}, {"text": "also"}], "status": "error", "timestamp": "2025-01-01T00:00:03.500Z", "resultDisplay": {"fileDiff": "d", "fileName": "x"}}, {"id": "c3", "name": "run", "args": {}, "status": "executing"}, {"id": "c4", "name": "agent", "args": {"task": "t"}, "result": null, "status": "cancelled", "resultDisplay": "stopped", "agentId": "a1"}]}"#,
        r#"{"id": "m3", "timestamp": "2025-01-01T00:00:03.000Z", "type": "user", "content": [{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}, {"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}]}"#,
        r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}}"#,
        r#"{"id": "m4", "timestamp": "2025-01-01T00:00:04.000Z", "type": "gemini", "content": [{"text": "let me think", "thought": true}, {"text": "done \ud83d\ude00"}], "tokens": null, "model": ""}"#,
        r#"{"id": "m5", "timestamp": "2025-01-01T00:00:05.000Z", "type": "info", "content": "note"}"#,
        r#"{"id": "m6", "timestamp": "2025-01-01T00:00:06.000Z", "type": "warning", "content": {"text": "careful"}}"#,
        r#"{"id": "m7", "timestamp": "2025-01-01T00:00:07.000Z", "type": "gemini", "content": "cut", "toolCalls": [{"id": "c5", "name": "ls", "args": {"p": "/"}, "result": [{"functionResponse": {"id": "c5", "name": "ls", "response": {"output": "x"}}}], "status": "success", "agentId": "a2"}], "tokens": {"input": 5, "output": 1, "total": 6}}"#,
        r#"{"$rewindTo": "m7"}"#,
        r#"{"id": "m8", "timestamp": "2025-01-01T00:00:08.000Z", "type": "error", "content": [{"text": "boom"}]}"#,
    ];
    edited(&lines.join("\n"), edit)
}

#[test]
fn gemini_cli_messages_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Escaped keys and values.
        (r#""id": "m1""#, r#""\u0069d": "m1""#),
        (r#""id": "m1""#, r#""id": "m\u0031""#),
        (r#""type": "user", "content": [{"text""#, r#""typ\u0065": "user", "content": [{"text""#),
        (r#""type": "user", "content": [{"text""#, r#""type": "us\u0065r", "content": [{"text""#),
        (r#"[{"text": "fix it"#, r#"[{"t\u0065xt": "fix it"#),
        (r#""thought": true"#, r#""th\u006fught": true"#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"outp\u0075t": "a\nb"}}}], "status""#),
        (r#""id": "c1", "name": "ls", "args""#, r#""id": "c1", "n\u0061me": "ls", "args""#),
        (r#""subject": "S""#, r#""subj\u0065ct": "S""#),
        (r#""timestamp": "2025-01-01T00:00:04.000Z""#, r#""timestamp": "2025-01-01T00:00:04.000Z\u005a""#),
        // Repeated keys.
        (r#""id": "m1""#, r#""id": "m0", "id": "m1""#),
        (r#""extra": {"a": 1}"#, r#""extra": {"a": 1}, "content": "again""#),
        (r#""type": "info""#, r#""type": "user", "type": "info""#),
        (r#""model": "gemini-2.5", "toolCalls""#, r#""model": "x", "model": "gemini-2.5", "toolCalls""#),
        (r#""tokens": {"input": 1, "output": 2, "cached""#, r#""tokens": {"input": 9, "input": 1, "output": 2, "cached""#),
        (r#""tokens": null"#, r#""tokens": {"input": 1}, "tokens": null"#),
        (r#"[{"text": "fix it"#, r#"[{"text": "a", "text": "fix it"#),
        (r#""thought": true"#, r#""thought": false, "thought": true"#),
        (r#""toolCalls": [{"id": "c1""#, r#""toolCalls": [{"id": "c0", "id": "c1""#),
        (r#""name": "ls", "args": {"p": "."}"#, r#""name": "ls", "args": {"p": 1}, "args": {"p": "."}"#),
        (r#""status": "success", "timestamp": "2025-01-01T00:00:03.000Z""#, r#""status": "error", "status": "success", "timestamp": "2025-01-01T00:00:03.000Z""#),
        (r#""displayName": "List""#, r#""displayName": "L", "displayName": "List""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": "z", "output": "a\nb"}}}], "status""#),
        (r#""response": {"error": "no such file"}}}, {"text""#, r#""response": {"error": "e", "error": "no such file"}}}, {"text""#),
        (r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}, {"functionResponse""#, r#"{"functionResponse": {"id": "c9"}, "functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}, {"functionResponse""#),
        (r#""subject": "S""#, r#""subject": "R", "subject": "S""#),
        (r#""thoughts": [{"subject""#, r#""thoughts": null, "thoughts": [{"subject""#),
        // Wrong types.
        (r#""id": "m1""#, r#""id": 1"#),
        (r#""type": "info""#, r#""type": 5"#),
        (r#""type": "info""#, r#""type": "notice""#),
        (r#""type": "info""#, r#""type": """#),
        (r#""timestamp": "2025-01-01T00:00:05.000Z""#, r#""timestamp": 5"#),
        (r#""id": "m5", "timestamp": "2025-01-01T00:00:05.000Z", "#, r#""id": "m5", "#),
        (r#""content": "note""#, r#""content": null"#),
        (r#""content": "note""#, r#""content": 12"#),
        (r#""content": "cut""#, r#""content": true"#),
        (r#""type": "info", "content": "note""#, r#""type": "info""#),
        (r#""thoughts": [{"subject""#, r#""thoughts": "x", "y": [{"subject""#),
        (r#""thoughts": [{"subject""#, r#""thoughts": [{"subject": 3}, {"subject""#),
        (r#""toolCalls": [{"id": "c1""#, r#""toolCalls": [7, {"id": "c1""#),
        (r#""toolCalls": [{"id": "c1""#, r#""toolCalls": 3, "x": [{"id": "c1""#),
        (r#""toolCalls": [{"id": "c5""#, r#""toolCalls": null, "x": [{"id": "c5""#),
        // Calls the plan keeps where they stand: one message's are not another's.
        (r#""content": "note""#, r#""content": "note", "toolCalls": [{"id": "c1", "name": "not a call"}]"#),
        (r#""model": "gemini-2.5"}"#, r#""model": "gemini-2.5", "toolCalls": [{"id": "c0", "name": "early", "args": {"q": 1}, "status": "executing"}]}"#),
        (r#""status": "success", "agentId": "a2"}]"#, r#""status": "success", "agentId": "a2"}, 7]"#),
        (r#""status": "success", "agentId": "a2"}]"#, r#""status": "success", "agentId": "a2"}, {"id": "c6", "n\u0061me": "x"}]"#),
        (r#""args": {}, "status": "executing"}"#, r#""args": {}, "status": "executing", "result": [{"functionResponse": {"id": "c3", "response": {"output": "part"}}}], "status": "done"}"#),
        (r#""toolCalls": [{"id": "c5""#, r#""toolCalls": [], "calls": [{"id": "c5""#),
        (r#""tokens": null"#, r#""tokens": "many""#),
        (r#""output": 2, "cached""#, r#""output": -2, "cached""#),
        (r#""output": 2, "cached""#, r#""output": 2.5, "cached""#),
        (r#""input": 5, "output": 1"#, r#""input": "5", "output": 1"#),
        // Counts read from the bytes, and those left to the exact path.
        (r#""input": 5, "output": 1"#, r#""input": 0, "output" : 18446744073709551615, "cached": null"#),
        (r#""input": 5, "output": 1"#, r#""input": 5, "output": 18446744073709551616"#),
        (r#""input": 5, "output": 1"#, r#""input": 5, "output": 1e3"#),
        (r#""input": 5, "output": 1"#, r#""input": 5, "output": 1, "tool": "x", "thoughts": 7"#),
        (r#""id": "c1", "name": "ls""#, r#""id": 1, "name": "ls""#),
        (r#""id": "c1", "name": "ls""#, r#""name": "ls""#),
        (r#""id": "c1", "name": "ls""#, r#""id": "c1", "name": """#),
        (r#""id": "c1", "name": "ls""#, r#""id": "c1", "name": ["ls"]"#),
        (r#""args": {"p": "."}"#, r#""args": null"#),
        (r#""args": {"p": "."}"#, r#""args": "p=.""#),
        (r#""args": {"f": "x"}, "#, ""),
        (r#""status": "executing""#, r#""status": 4"#),
        (r#""status": "executing""#, r#""status": "executing", "result": "partial""#),
        (r#""status": "success", "timestamp": "2025-01-01T00:00:03.000Z""#, r#""status": "scheduled", "timestamp": 3"#),
        (r#""result": null, "status": "cancelled""#, r#""result": [], "status": "cancelled""#),
        (r#""result": null, "status": "cancelled""#, r#""result": 7, "status": "cancelled""#),
        (r#""resultDisplay": "stopped""#, r#""resultDisplay": ["stopped"]"#),
        (r#""resultDisplay": "stopped""#, r#""resultDisplay": {"summary": "stopped"}"#),
        (r#""agentId": "a1""#, r#""agentId": 1"#),
        (r#""result": [{"functionResponse": {"id": "c1""#, r#""result": {"functionResponse": {"id": "c1""#),
        (r#""result": [{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}]"#, r#""result": "a\nb""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": 5, "error": "e"}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": "a\nb"}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": null}}}], "status""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"["text", {"functionResponse": {"id": "c1", "name": "ls", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": [1], "x": {"id": "c1", "name": "ls", "response""#),
        (r#"{"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}]}"#, r#"{"functionResponse": {"id": "c9", "name": "read", "response": {"error": "no such file"}}}]}"#),
        (r#"{"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}]}"#, r#"{"functionResponse": {"id": 2}}]}"#),
        (r#"{"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}]}"#, r#"{"text": "and"}]}"#),
        (r#""content": [{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}, "#, r#""content": ["#),
        (r#""type": "user", "content": [{"functionResponse""#, r#""type": "user", "content": {"functionResponse""#),
        (r#"{"text": "let me think", "thought": true}"#, r#"{"text": "let me think", "thought": "true"}"#),
        (r#"{"text": "let me think", "thought": true}"#, r#"{"text": 4, "thought": true}"#),
        (r#"{"text": "boom"}"#, r#"{"inlineData": {"mimeType": "text/plain", "data": "AAA"}}"#),
        (r#"{"text": "boom"}"#, r#"null"#),
        (r#""model": """#, r#""model": 2"#),
        // Lone surrogates and NaN: not plain, the exact path reads them.
        (r#""fix it \u00e9""#, r#""fix it \ud800""#),
        (r#""output": "a\nb"}}}], "status""#, r#""output": "a\udc00"}}}], "status""#),
        (r#""args": {"p": "."}"#, r#""args": {"p": NaN}"#),
        // A mirrored turn left in the source: its line is written from the bytes.
        (r#""response": {"output": "a\nb"}}}, {"functionResponse": {"id": "c2""#, r#""response": {"output": "\u0041b\/\u00e9\ud83d\ude00 \u001b\u0008 \"q\" \\ ls"}}}, {"functionResponse": {"id": "c2""#),
        (r#""response": {"output": "a\nb"}}}, {"functionResponse": {"id": "c2""#, r#""response": {"output": "a\nb", "n": [1.50, -0, 1E+5, 2e-3, true, null]}}}, {"functionResponse": {"id": "c2""#),
        (r#""response": {"output": "a\nb"}}}, {"functionResponse": {"id": "c2""#, r#""response": {"output": "z", "output": "a\nb"}}}, {"functionResponse": {"id": "c2""#),
        (r#""response": {"output": "a\nb"}}}, {"functionResponse": {"id": "c2""#, r#""response": {"output": "a\u000ab"}}}, {"functionResponse": {"id": "c2""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}, {"functionResponse""#, r#"[ {"functionResponse" :{ "id":"c1","name":"ls","response":{"output":"a\tb  K \u212a \u0130"}} } , {"functionResponse""#),
        // Byte-level traps that must read the same: spaces, escapes, big numbers.
        (r#""content": "ok""#, r#""content" :  "\/ok\t""#),
        (r#""total": 6}"#, r#""total": 123456789012345678901234567890}"#),
        (r#""args": {"task": "t"}"#, r#""args" : { "task" : [ 1 , 2.50 , {"deep": {"er": null}} ] }"#),
        (r#"{"$rewindTo": "m7"}"#, r#"{"$rewindTo": "m2"}"#),
        // A record of the last loaded message's id after a rewind, and of an earlier one's.
        (r#"{"$rewindTo": "m7"}"#, "{\"$rewindTo\": \"m7\"}\n{\"id\": \"m6\", \"timestamp\": \"t\", \"type\": \"info\", \"content\": \"again\"}"),
        (r#"{"$rewindTo": "m7"}"#, "{\"$rewindTo\": \"m7\"}\n{\"id\": \"m1\", \"timestamp\": \"t\", \"type\": \"info\", \"content\": \"again\"}\n{\"id\": \"m1\", \"timestamp\": \"t\", \"type\": \"info\", \"content\": \"and again\"}"),
        // A mirrored turn's ids, read first when the split says no key of theirs repeats.
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"name": "ls", "id": "c1", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id": "c\u0031", "name": "ls", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id": "c1", "n\u0061me": "ls", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id": "c9", "id": "c1", "name": "ls", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id": "c1", "name": "ls", "id": "c9", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id" :  "c1", "name": "ls", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id": 1, "name": "ls", "response""#),
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"idx": "c1", "name": "ls", "response""#),
        (r#"{"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}]}"#, r#"{"functionResponse": {"\u0069d": "c2"}}]}"#),
        (r#"{"functionResponse": {"id": "c2", "name": "read", "response": {"error": "no such file"}}}]}"#, r#"{"functionResponse": {"id": "c2"}}]}"#),
        // A part's `functionResponse` and a response's `output` read first when they lead, as the split allows.
        (r#"[{"functionResponse": {"id": "c1", "name": "ls", "response""#, r#"[{"functionResponse": {"id": "c1", "name": "ls", "x": 1, "response""#),
        (r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status""#, r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}, "x": [1]}], "status""#),
        (r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status""#, r#"{"x": [1], "functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status""#),
        (r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status""#, r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}, "functionRespons\u0065": 1}], "status""#),
        (r#"{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status""#, r#"{"functionRespons\u0065": {"id": "c1", "name": "ls", "response": {"output": "a\nb"}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": "a\nb", "error": "e"}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"error": "e", "output": "a\nb"}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": "a\nb", "\u0065rror": "e"}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": "a\nb", "output": "z"}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": { "output" :  "a\nb" , "n": {"output": 1}}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": {"text": "a\nb"}}}}], "status""#),
        (r#""response": {"output": "a\nb"}}}], "status""#, r#""response": {"output": ["a\nb"], "error": "e"}}}], "status""#),
        (r#"{"$rewindTo": "m7"}"#, r#"{"id": "m9", "$rewindTo": "m7"}"#),
        (r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}}"#, r#"{"$set": {"messages": [{"id": "m1", "timestamp": "t", "type": "user", "content": "again"}]}}"#),
        // The replaced message's note gives its replacement's line: blank lines and CRLF before it count.
        ("\"model\": \"gemini-2.5\"}\n{\"id\": \"m2\"", "\"model\": \"gemini-2.5\"}\r\n\n  \r\n\n{\"id\": \"m2\""),
        ("\"kind\": \"main\"}\n", "\"kind\": \"main\"}\n\n\n"),
        (r#""id": "m4""#, r#""id": "m2""#),
        // A replaced message's event shows its `type` and `timestamp`, read where the plan found them.
        (r#""type": "gemini", "content": """#, r#""type": "gem\u0069ni", "content": """#),
        (r#""type": "gemini", "content": """#, r#""type": 7, "content": """#),
        (r#""type": "gemini", "content": """#, r#""type": "", "content": """#),
        (r#""type": "gemini", "content": """#, r#""type": "user", "type": "gemini", "content": """#),
        (r#""type": "gemini", "content": """#, r#""content": """#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": """#, r#""timestamp": "2025-01-01T00:00:02.000\u005a", "type": "gemini", "content": """#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": """#, r#""timestamp": null, "type": "gemini", "content": """#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": """#, r#""type": "gemini", "content": """#),
        (r#""timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": """#, r#""timestamp": "x", "timestamp": "2025-01-01T00:00:02.000Z", "type": "gemini", "content": """#),
    ];
    let mut deferred = 0;
    let mut left_in_source = 0;
    let mut values_in_source = 0;
    for edit in edits {
        let doc = gemini_session(*edit);
        let t = parse_trace(doc.clone().into_bytes(), &ParseOptions { format: Some("gemini-cli".to_string()), exact_only: false, ..Default::default() }).unwrap();
        deferred += t.events.iter().filter(|e| e.metadata.is_deferred()).count();
        values_in_source += lines_and_queries_agree(&doc, edit);
        for format in [None, Some("gemini-cli")] {
            left_in_source += same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
        // The AgentRun text too (the Docent mapping reads the texts left in the source).
        let run = |exact_only| {
            let options = ParseOptions { format: Some("gemini-cli".to_string()), exact_only, ..Default::default() };
            parse_trace(doc.clone().into_bytes(), &options).ok().and_then(|t| agent_run_text(&t, &TextOptions::default(), None).ok()).map(|t| t.concat())
        };
        assert_eq!(run(false), run(true), "edit {edit:?}: AgentRun texts differ");
    }
    // The clean records were read fast: their metadata deferred, their texts in the source.
    assert!(deferred > edits.len() * 5, "only {deferred} events' metadata deferred");
    assert!(left_in_source > edits.len() * 2 * 8, "only {left_in_source} texts read fast");
    assert!(values_in_source > edits.len() / 2, "only {values_in_source} mirrored turns left in the source");
}

/// What both paths write the same way, checked against what it must be: a
/// replaced message's note and metadata (written once its replacement's line
/// is known), each tool result's path, and a rewind and a second record of
/// a rewound id replayed on the loader's map.
#[test]
fn gemini_cli_replaced_notes_result_paths_and_fates() {
    use agent_trace_viewer::json::{render_path, Seg};
    let doc = gemini_session(("{\"$rewindTo\": \"m7\"}", "{\"$rewindTo\": \"m7\"}\n{\"id\": \"m7\", \"timestamp\": \"t\", \"type\": \"info\", \"content\": \"again\"}\n{\"id\": \"m5\", \"timestamp\": \"t\", \"type\": \"info\", \"content\": \"later\"}"));
    for exact_only in [false, true] {
        let options = ParseOptions { format: Some("gemini-cli".to_string()), exact_only, ..Default::default() };
        let t = parse_trace(doc.clone().into_bytes(), &options).unwrap();
        let notes: Vec<String> = t
            .events
            .iter()
            .filter_map(|e| match &e.body {
                EventBody::KeyValue(kv) if kv.key.ends_with("(replaced)") => Some(format!("{} {:?} {}", kv.key, e.metadata.clone().into_map(), kv.value.get())),
                _ => None,
            })
            .collect();
        let want = [
            r#"gemini message (replaced) {"replaced": String("a later record of message `m2` replaces this one"), "replaced_by_line": Number(4)} {"id":"m2","replaced_by_line":4}"#,
            r#"info message (replaced) {"replaced": String("a later record of message `m5` replaces this one"), "replaced_by_line": Number(13)} {"id":"m5","replaced_by_line":13}"#,
        ];
        assert_eq!(notes, want, "exact_only {exact_only}");
        let mut results = 0;
        for e in &t.events {
            let EventBody::ToolResult(r) = &e.body else { continue };
            let call = r.call.expect("linked");
            assert_eq!(e.path, render_path(&t.events[call.event as usize].path, &[Seg::key("toolCalls"), Seg::Index(call.call as usize)]));
            results += 1;
        }
        assert_eq!(results, 4, "exact_only {exact_only}");
        // m7 and its result were cut by the rewind; its later record is loaded, not a replacement.
        let cut: Vec<&str> = t.events.iter().filter(|e| e.metadata.contains_key("abandoned_branch")).map(|e| e.source_kind.as_str()).collect();
        assert_eq!(cut, ["gemini", "toolCall"], "exact_only {exact_only}");
        let markers = t.events.iter().filter(|e| matches!(&e.body, EventBody::Marker(m) if m.label.starts_with("info: again"))).count();
        assert_eq!(markers, 1, "exact_only {exact_only}");
    }
}

/// Sessions read together from several files: a replaced message's
/// `replaced_by_line` counts the lines of the files before its own (the
/// split counts each file's from its start), the same both ways.
#[test]
fn gemini_cli_replaced_lines_in_joined_files_parse_the_same_both_ways() {
    let second = gemini_session(("", "")).replace("\"s1\"", "\"s2\"").replace("\"m2\"", "\"n2\"");
    let files = vec![
        ("chats/session-2025-01-01T00-00-aaaaaaaa.jsonl".to_string(), gemini_session(("", "")).into_bytes()),
        ("chats/session-2025-01-02T00-00-bbbbbbbb.jsonl".to_string(), format!("\n\n{second}").into_bytes()),
    ];
    let parse = |exact_only| {
        let options = ParseOptions { format: Some("gemini-cli".to_string()), exact_only, ..Default::default() };
        agent_trace_viewer::parse_files(files.clone(), &options).unwrap()
    };
    let (fast, exact) = (parse(false), parse(true));
    assert_eq!(super::model(&fast), super::model(&exact), "models differ");
    let lines: Vec<u64> = fast.events.iter().filter_map(|e| e.metadata.get("replaced_by_line")?.as_u64()).collect();
    // Line 4 of the first file, line 6 of the second (two blank lines first) after its 12.
    assert_eq!(lines, [4, 18], "{lines:?}");
}

/// `$set` lines: a bare `lastUpdated` is read from the bytes (its value left
/// in the source), anything else the exact way, to the same model.
#[test]
fn gemini_cli_set_lines_read_fast_parse_the_same_both_ways() {
    let set = r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}}"#;
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Spacing, escapes in the value.
        (set, r#"  {  "$set" :{"lastUpdated"   :   "2025-01-01T00:00:03.000Z" } }  "#),
        (set, r#"{"$set":{"lastUpdated":"2025-01-01T00:00:03.000Z"}}"#),
        // As Gemini CLI writes it (told by its bytes), and near misses of that spelling.
        (set, r#"{"$set":{"lastUpdated":"2025-01-01T00:00:03.000Z"}}   "#),
        (set, r#"{"$set":{"lastUpdated":"a\"}}\"}}"}}"#),
        (set, r#"{"$set":{"lastUpdated":"2025-01-01T00:00:03.000\u005a\/"}}"#),
        (set, r#"{"$set":{"lastUpdated":""}}"#),
        (set, r#"{"$set":{"lastUpdated":"t","summary":"s"}}"#),
        (set, r#"{"$set":{"lastUpdated":"x","lastUpdated":"t"}}"#),
        (set, r#"{"$set":{"lastUpdated":"t"},"x":1}"#),
        (set, r#"{"$set":{"lastUpdated":"t"},"$set":{"summary":"s"}}"#),
        (set, r#"{"$set":{"lastUpdated":5}}"#),
        (set, r#"{"$set":{"lastUpdated":null}}"#),
        (set, r#"{"$set":{"lastUpdated":{"at":"t"}}}"#),
        (set, r#"{"$set":{"lastUpdated":"t\ud800"}}"#),
        (set, r#"{"$set":{"lastUpdatedAt":"t"}}"#),
        (set, r#"{"$set":{"lastUpdated" :"t"}}"#),
        (set, r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000\u005a \/ \"q\" \u00e9\ud83d\ude00"}}"#),
        (set, r#"{"$set": {"lastUpdated": ""}}"#),
        // Escaped keys.
        (set, r#"{"\u0024set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}}"#),
        (set, r#"{"$set": {"lastUpd\u0061ted": "2025-01-01T00:00:03.000Z"}}"#),
        // Repeated keys.
        (set, r#"{"$set": {"lastUpdated": "x"}, "$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}}"#),
        (set, r#"{"$set": {"lastUpdated": "x", "lastUpdated": "2025-01-01T00:00:03.000Z"}}"#),
        // Other keys, other values.
        (set, r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z", "summary": "s"}}"#),
        (set, r#"{"$set": {"summary": "s", "n": [1.50, -0, 1E+5], "o": {"a": {"b": null}}}}"#),
        (set, r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}, "x": 1}"#),
        (set, r#"{"id": "m9", "$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}}"#),
        (set, r#"{"$set": {}}"#),
        (set, r#"{"$set": {"lastUpdated": 5}}"#),
        (set, r#"{"$set": {"lastUpdated": 123456789012345678901234567890}}"#),
        (set, r#"{"$set": {"lastUpdated": null}}"#),
        (set, r#"{"$set": {"lastUpdated": {"at": "2025-01-01T00:00:03.000Z"}}}"#),
        (set, r#"{"$set": "lastUpdated"}"#),
        (set, r#"{"$set": ["lastUpdated"]}"#),
        (set, r#"["$set"]"#),
        (set, r#"{"$set": {"messages": []}}"#),
        // Hazards: a lone surrogate, NaN.
        (set, r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z\ud800"}}"#),
        (set, r#"{"$set": {"lastUpdated": "2025-01-01T00:00:03.000Z"}, "n": NaN}"#),
        // Two in a row, one right after the metadata line.
        (set, "{\"$set\": {\"lastUpdated\": \"a\"}}\n{\"$set\": {\"lastUpdated\": \"b\"}}"),
        (r#""kind": "main"}"#, "\"kind\": \"main\"}\n{\"$set\": {\"lastUpdated\": \"2025-01-01T00:00:00.500Z\"}}"),
        // The metadata takes each `lastUpdated` in its place among other updates, in each session.
        (set, "{\"sessionId\": \"s2\", \"projectHash\": \"h\"}\n{\"$set\": {\"lastUpdated\": \"a\"}}\n{\"$set\": {\"summary\": \"s\"}}\n{\"$set\": {\"lastUpdated\": \"b\"}}"),
        (set, "{\"$set\": {\"lastUpdated\": \"a\"}}\n{\"sessionId\": \"s2\", \"projectHash\": \"h\"}\n{\"$set\": {\"summary\": \"s\"}}"),
        (set, "{\"sessionId\": \"s2\", \"projectHash\": \"h\"}\n{\"$set\": {\"lastUpdated\": \"a\"}}\n{\"id\": \"m9\", \"$rewindTo\": \"m9\"}\n{\"$set\": {\"lastUpdated\": \"b\"}}\n{\"$set\": {\"lastUpdated\": \"c\"}}"),
    ];
    let mut fast_sets = 0;
    for edit in edits {
        let doc = gemini_session(*edit);
        let options = |exact_only| ParseOptions { format: Some("gemini-cli".to_string()), exact_only, ..Default::default() };
        let (fast, exact) = (parse_trace(doc.clone().into_bytes(), &options(false)).unwrap(), parse_trace(doc.clone().into_bytes(), &options(true)).unwrap());
        fast_sets += fast.events.iter().filter(|e| matches!(&e.body, EventBody::KeyValue(kv) if kv.key == "$set" && kv.value.source_range().is_some())).count();
        assert_eq!(fast.metadata, exact.metadata, "edit {edit:?}: session metadata differs");
        lines_and_queries_agree(&doc, edit);
        for format in [None, Some("gemini-cli")] {
            same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("edit {edit:?}: {e}"));
        }
        let run = |exact_only| parse_trace(doc.clone().into_bytes(), &options(exact_only)).ok().and_then(|t| agent_run_text(&t, &TextOptions::default(), None).ok()).map(|t| t.concat());
        assert_eq!(run(false), run(true), "edit {edit:?}: AgentRun texts differ");
    }
    // The plain ones were read from the bytes.
    assert!(fast_sets >= 7, "only {fast_sets} `$set` lines read fast");
}

/// The events' lines (a mirrored turn's written from its bytes) and the
/// first free-text queries (searched in place) are the exact path's; returns
/// how many key-value values the fast path left in the source.
fn lines_and_queries_agree(doc: &str, edit: &(&str, &str)) -> usize {
    let parse = |exact_only| parse_trace(doc.as_bytes().to_vec(), &ParseOptions { format: Some("gemini-cli".to_string()), exact_only, ..Default::default() }).unwrap();
    let in_source = |t: &Trace| t.events.iter().filter(|e| matches!(&e.body, EventBody::KeyValue(kv) if kv.value.source_range().is_some())).count();
    let lines = |t: &Trace| t.events.iter().map(|e| summary(t, e)).collect::<Vec<_>>();
    let (fast, exact) = (parse(false), parse(true));
    let n = in_source(&fast);
    assert_eq!(in_source(&exact), 0, "edit {edit:?}");
    assert_eq!(lines(&fast), lines(&exact), "edit {edit:?}: lines differ");
    for needle in ["lastupdated", "00:03", "u00e9", "$set", "ls", "functionresponse", "a b", "no such", "output\":\"a", "c1", "qu", "ak", "ki", "bo", "ab", "\\/"] {
        let (fast, exact) = (parse(false), parse(true));
        let hits = |t: &Trace| filter(t, needle, &mut QueryIndex::default()).unwrap();
        assert_eq!(hits(&fast), hits(&exact), "edit {edit:?}: {needle:?} finds other events");
    }
    // Nothing above kept a parse of them.
    assert_eq!(in_source(&fast), n, "edit {edit:?}");
    n
}
