//! AgentLens events read fast (their inputs, outputs, tool inputs and tool
//! outputs left in the source) give what the exact path gives, edited in
//! the ways the byte-level reader could misread.

use super::{edited, same_agent_run_text, same_both_ways};

/// A session of every event type (`jsonl`: its events as loose lines
/// instead), with one edit applied (see [`super::docent_run`]).
fn agentlens_session(jsonl: bool, edit: (&str, &str)) -> String {
    let events = [
        r#"{"event_id": "e0", "session_id": "s1", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:00Z", "input_data": {"prompt": "Plan \u00e9 a trip"}, "output_data": {"response": "I will \"look\"\nup flights.", "tool_calls": ["search"]}, "model": "gpt-4o", "tokens_in": 120, "tokens_out": 40, "duration_ms": 812.5, "tool_call": {"tool_call_id": "t0", "tool_name": "search", "tool_input": {"q": "FCO"}, "tool_output": {"result": "AZ611"}}}"#,
        r#"{"event_id": "e1", "session_id": "s1", "event_type": "decision", "timestamp": "2025-03-01T10:00:01Z", "decision_trace": {"trace_id": "d1", "step": 1, "reasoning": "Flights first.", "alternatives_considered": ["hotels", "ask"], "confidence": 0.8, "timestamp": "2025-03-01T10:00:01Z"}, "output_data": {"answer": "flights"}}"#,
        r#"{"event_id": "e2", "session_id": "s1", "event_type": "tool_call", "timestamp": "2025-03-01T10:00:02Z", "tool_call": {"tool_call_id": "t1", "tool_name": "search_flights", "tool_input": {"dest": "FCO", "n": [1, 2.50]}, "tool_output": {"result": "AZ611 \u2713", "rows": 1}, "timestamp": "2025-03-01T10:00:02Z", "duration_ms": 230.0}}"#,
        r#"{"event_id": "e3", "session_id": "s1", "event_type": "tool_error", "timestamp": "2025-03-01T10:00:03Z", "tool_call": {"tool_call_id": "t2", "tool_name": "book", "tool_input": {}, "tool_output": null}, "output_data": {"error": "sold out"}}"#,
        r#"{"event_id": "e4", "session_id": "s1", "event_type": "tool_error", "timestamp": "2025-03-01T10:00:04Z", "output_data": {"code": 7, "detail": {"why": "x"}}}"#,
        r#"{"event_id": "e5", "session_id": "s1", "event_type": "tool_call", "timestamp": "2025-03-01T10:00:05Z", "tool_call": {"tool_call_id": "t3", "tool_name": "ls", "tool_input": {"path": "/"}}, "output_data": {"files": ["a", "b"]}}"#,
        r#"{"event_id": "e6", "session_id": "s1", "event_type": "agent_call", "timestamp": "2025-03-01T10:00:06Z", "input_data": {"task": "sub-task"}, "output_data": {"x": 1, "y": 2}}"#,
        r#"{"event_id": "e7", "session_id": "s1", "event_type": "agent_error", "timestamp": "2025-03-01T10:00:07Z", "input_data": {"only": "the input"}}"#,
        r#"{"event_id": "e8", "session_id": "s1", "event_type": "generic", "timestamp": "2025-03-01T10:00:08Z", "output_data": {"note": "done"}, "extra": {"k": [1]}}"#,
        r#"{"event_id": "e9", "session_id": "s1", "timestamp": "2025-03-01T10:00:09Z", "input_data": null, "output_data": {"message": "m", "text": "t"}}"#,
    ];
    let doc = if jsonl {
        events.join("\n")
    } else {
        format!(
            r#"{{"session_id": "s1", "agent_name": "travel", "started_at": "2025-03-01T10:00:00Z", "status": "completed", "total_tokens_in": 120, "total_tokens_out": 40, "events": [{}]}}"#,
            events.join(",\n")
        )
    };
    edited(&doc, edit)
}

#[test]
fn agentlens_events_read_fast_parse_the_same_both_ways() {
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Escaped keys and values.
        (r#""output_data": {"response""#, r#""output_d\u0061ta": {"response""#),
        (r#"{"response": "I will"#, r#"{"r\u0065sponse": "I will"#),
        (r#""tool_output": {"result": "AZ611 "#, r#""tool_output": {"r\u0065sult": "AZ611 "#),
        (r#""tool_input": {"dest""#, r#""tool_\u0069nput": {"dest""#),
        (r#""tool_name": "search_flights""#, r#""tool_n\u0061me": "search_flights""#),
        (r#""input_data": {"task": "sub-task"}"#, r#""input_data": {"t\u0061sk": "sub-task"}"#),
        (r#""output_data": {"note": "done"}"#, r#""output_data": {"n\u006fte": "d\u006fne", "x": 1}"#),
        (r#""event_type": "llm_call""#, r#""event_type": "llm_c\u0061ll""#),
        // Repeated keys.
        (r#""output_data": {"response""#, r#""output_data": {"response": "first"}, "output_data": {"response""#),
        (r#"{"response": "I will"#, r#"{"response": "first", "response": "I will"#),
        (r#""output_data": {"x": 1, "y": 2}"#, r#""output_data": {"x": "a", "x": "b"}"#),
        (r#""output_data": {"x": 1, "y": 2}"#, r#""output_data": {"x": "a", "y": 2, "x": "b"}"#),
        (r#""output_data": {"x": 1, "y": 2}"#, r#""output_data": {"x": 1, "response": "r", "x": 2}"#),
        (r#""tool_output": {"result": "AZ611 "#, r#""tool_output": {"result": "first"}, "tool_output": {"result": "AZ611 "#),
        (r#""tool_input": {"dest""#, r#""tool_input": {}, "tool_input": {"dest""#),
        (r#""tool_call": {"tool_call_id": "t1""#, r#""tool_call": null, "tool_call": {"tool_call_id": "t1""#),
        (r#""tool_name": "search_flights""#, r#""tool_name": "a", "tool_name": "search_flights""#),
        (r#""event_type": "tool_call""#, r#""event_type": "generic", "event_type": "tool_call""#),
        (r#""tokens_in": 120"#, r#""tokens_in": 1, "tokens_in": 120"#),
        // Wrong types.
        (r#""output_data": {"response""#, r#""output_data": "just text", "x": {"response""#),
        (r#""output_data": {"error": "sold out"}"#, r#""output_data": ["sold out"]"#),
        (r#""output_data": {"files": ["a", "b"]}"#, r#""output_data": 3"#),
        (r#""input_data": {"only": "the input"}"#, r#""input_data": "the input""#),
        (r#""tool_input": {"dest""#, r#""tool_input": null, "x": {"dest""#),
        (r#""tool_input": {"q": "FCO"}"#, r#""tool_input": ["FCO"]"#),
        (r#""tool_output": {"result": "AZ611 "#, r#""tool_output": "AZ611", "x": {"result": "AZ611 "#),
        (r#""tool_output": null"#, r#""tool_output": {"message": "no seats"}"#),
        (r#""tool_call": {"tool_call_id": "t3""#, r#""tool_call": [1], "x": {"tool_call_id": "t3""#),
        (r#""tool_name": "ls""#, r#""tool_name": {"n": "ls"}"#),
        (r#""decision_trace": {"trace_id""#, r#""decision_trace": 5, "x": {"trace_id""#),
        (r#""event_type": "tool_call""#, r#""event_type": 4"#),
        // Fields that fail validation.
        (r#""timestamp": "2025-03-01T10:00:00Z""#, r#""timestamp": "yesterday""#),
        (r#""timestamp": "2025-03-01T10:00:02Z", "duration_ms""#, r#""timestamp": "2025-02-30T00:00:00Z", "duration_ms""#),
        (r#""tokens_in": 120"#, r#""tokens_in": "x""#),
        (r#""tokens_out": 40"#, r#""tokens_out": 1e+20"#),
        (r#""duration_ms": 812.5"#, r#""duration_ms": "slow""#),
        (r#""duration_ms": 230.0"#, r#""duration_ms": [1]"#),
        (r#""confidence": 0.8"#, r#""confidence": 1.5"#),
        (r#""alternatives_considered": ["hotels", "ask"]"#, r#""alternatives_considered": ["hotels", 2, {}]"#),
        (r#""tool_name": "book", "#, ""),
        (r#""tool_call_id": "t1""#, r#""tool_call_id": 1"#),
        (r#""event_type": "llm_call""#, r#""event_type": "LLM""#),
        (r#""session_id": "s1", "event_type": "decision""#, r#""session_id": "s2", "event_type": "decision""#),
        (r#""model": "gpt-4o""#, r#""model": 4"#),
        (r#""event_id": "e5""#, r#""event_id": 5"#),
        // Lone surrogates and NaN, inside what is left in the source.
        (r#""result": "AZ611 \u2713""#, r#""result": "AZ611 \ud800""#),
        (r#""prompt": "Plan \u00e9 a trip""#, r#""prompt": "Plan \udc00 a trip""#),
        (r#""dest": "FCO""#, r#""dest": NaN"#),
        (r#""rows": 1"#, r#""rows": -Infinity"#),
        (r#""tokens_in": 120"#, r#""tokens_in": NaN"#),
        // Byte-level traps that must read the same: escapes, spaces, big numbers.
        (r#""response": "I will"#, r#""response" :  "\/ I will"#),
        (r#""tool_output": {"result": "AZ611 "#, r#""tool_output" : { "rows": 12345678901234567890123, "result" : "AZ611 "#),
        (r#""output_data": {"x": 1, "y": 2}"#, r#""output_data": {}"#),
        (r#""output_data": {"x": 1, "y": 2}"#, r#""output_data": {"x": 1}"#),
        (r#""output_data": {"x": 1, "y": 2}"#, r#""output_data": {"k": "only one"}"#),
    ];
    let mut left_in_source = 0;
    let mut texts = 0;
    for jsonl in [false, true] {
        for edit in edits {
            let doc = agentlens_session(jsonl, *edit);
            for format in [None, Some("agentlens")] {
                left_in_source += same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("edit {edit:?} (jsonl {jsonl}): {e}"));
            }
            // The AgentRun text too (the Docent mapping reads the content left in the source).
            let text = same_agent_run_text(&doc, "agentlens").unwrap_or_else(|e| panic!("edit {edit:?} (jsonl {jsonl}): {e}"));
            texts += usize::from(text.is_some());
        }
    }
    assert_eq!(texts, edits.len() * 2, "every document has an AgentRun text");
    // The clean events were read fast: their response and telling texts in the source.
    assert!(left_in_source > edits.len() * 2 * 2, "only {left_in_source} texts read fast");
}
