//! OpenTelemetry spans read fast (metadata left in the source, each chat
//! span's input decoded only past what the last one sent) give what the
//! exact path gives, edited in the ways a byte-level reader could misread:
//! inputs that repeat the last one's items up to a byte, an escape, a
//! comma; escaped or repeated keys; values of the wrong kind.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::{common, same_both_ways, same_agent_run_text};

/// A GenAI message list as `gen_ai.input.messages` holds it: JSON text.
fn messages(list: &[Value]) -> String {
    serde_json::to_string(list).unwrap()
}

fn attr(key: &str, value: Value) -> Value {
    json!({"key": key, "value": value})
}

fn text_attr(key: &str, value: &str) -> Value {
    attr(key, json!({"stringValue": value}))
}

/// A chat span of trace `trace` sent `input` (and `system`), answering `output`.
fn chat(trace: &str, id: &str, start: u64, system: &str, input: &[Value], output: &[Value]) -> Value {
    chat_sent(trace, id, start, system, &messages(input), output)
}

/// [`chat`] with the input's JSON text as it is.
fn chat_sent(trace: &str, id: &str, start: u64, system: &str, input: &str, output: &[Value]) -> Value {
    json!({
        "traceId": trace, "spanId": id, "parentSpanId": "aaaaaaaaaaaaaaa0", "name": "chat m", "kind": 3,
        "startTimeUnixNano": (1_767_225_600_000_000_000u64 + start * 1_000_000).to_string(),
        "endTimeUnixNano": (1_767_225_600_000_000_000u64 + start * 1_000_000 + 500_000).to_string(),
        "attributes": [
            text_attr("gen_ai.operation.name", "chat"),
            text_attr("gen_ai.request.model", "m-1"),
            attr("gen_ai.usage.input_tokens", json!({"intValue": "12"})),
            attr("gen_ai.usage.output_tokens", json!({"intValue": 3})),
            text_attr("gen_ai.system_instructions", &messages(&[json!({"type": "text", "content": system})])),
            text_attr("gen_ai.input.messages", input),
            text_attr("gen_ai.output.messages", &messages(output)),
        ],
        "status": {"code": 1}
    })
}

fn user(text: &str) -> Value {
    json!({"role": "user", "parts": [{"type": "text", "content": text}]})
}

fn assistant(text: &str) -> Value {
    json!({"role": "assistant", "parts": [{"type": "text", "content": text}], "finish_reason": "stop"})
}

/// Two OTLP requests (JSON Lines) whose chat spans re-send a growing
/// conversation, a tool span between them, a second trace between two
/// spans of the first, and a lone span.
fn otel_document() -> String {
    let t1 = "5b8efff798038103d269b633813fc60c";
    let t2 = "00000000000000000000000000000002";
    let t3 = "00000000000000000000000000000003";
    let call = json!({"role": "assistant", "parts": [{"type": "text", "content": "let me look"}, {"type": "tool_call", "id": "c1", "name": "ls", "arguments": {"path": "/tmp"}}]});
    let answer = json!({"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "a\nb \u{e9}\u{1F600}"}]});
    let u1 = user("fix it \u{e9} \u{1F600} \"quoted\" \\ back");
    let a2 = assistant("done: 1 < 2");
    let u2 = user("and then?");
    let root = json!({"traceId": t1, "spanId": "aaaaaaaaaaaaaaa0", "name": "invoke_agent a", "kind": 1, "startTimeUnixNano": "1767225600000000000", "endTimeUnixNano": "1767225609000000000",
        "attributes": [text_attr("gen_ai.operation.name", "invoke_agent"), text_attr("gen_ai.agent.name", "a")]});
    let tool = json!({"traceId": t1, "spanId": "aaaaaaaaaaaaaaa2", "parentSpanId": "aaaaaaaaaaaaaaa0", "name": "execute_tool ls", "kind": 1, "startTimeUnixNano": "1767225601600000000", "endTimeUnixNano": "1767225601700000000",
        "attributes": [text_attr("gen_ai.operation.name", "execute_tool"), text_attr("gen_ai.tool.name", "ls"), text_attr("gen_ai.tool.call.id", "c1"), text_attr("gen_ai.tool.call.result", "a\nb \u{e9}\u{1F600}")],
        "events": [{"name": "exception", "timeUnixNano": "1767225601650000000", "attributes": [text_attr("exception.type", "E"), text_attr("exception.message", "soft")]}]});
    let spans1 = vec![
        root,
        chat(t1, "aaaaaaaaaaaaaaa1", 1000, "be brief", std::slice::from_ref(&u1), std::slice::from_ref(&call)),
        tool,
        chat(t1, "aaaaaaaaaaaaaaa3", 2000, "be brief", &[u1.clone(), call.clone(), answer.clone()], std::slice::from_ref(&a2)),
        chat(t1, "aaaaaaaaaaaaaaa4", 3000, "be brief", &[u1.clone(), call.clone(), answer.clone(), a2.clone(), u2.clone()], &[assistant("nothing")]),
    ];
    let request = |spans: Vec<Value>| {
        json!({"resourceSpans": [{"resource": {"attributes": [text_attr("service.name", "svc")]}, "scopeSpans": [{"scope": {"name": "s", "version": "1"}, "spans": spans}]}]})
    };
    let spans2 = vec![
        chat(t2, "bbbbbbbbbbbbbbb1", 100, "other", &[user("elsewhere")], &[assistant("ok")]),
        chat(t1, "aaaaaaaaaaaaaaa5", 4000, "be brief", &[u1.clone(), call.clone(), answer, a2, u2, assistant("nothing"), user("bye")], &[assistant("bye")]),
        chat(t2, "bbbbbbbbbbbbbbb2", 200, "other", &[user("elsewhere"), assistant("ok"), user("more")], &[assistant("fine")]),
        // Lists of scalars: an item's end is known only from the byte after it.
        chat_sent(t3, "ccccccccccccccc1", 300, "s", "[1, 2]", &[]),
        chat_sent(t3, "ccccccccccccccc2", 400, "s", "[1, 2, 3]", &[]),
        chat_sent(t3, "ccccccccccccccc3", 500, "s", "[1, 2, 3, \"x\", true]", &[]),
        chat_sent(t3, "ccccccccccccccc4", 600, "s", "[1, 2, 3, \"x\", true, null]", &[]),
    ];
    let lone = chat(t1, "aaaaaaaaaaaaaaa6", 5000, "be brief", &[u1, call, user("again")], &[assistant("x")]);
    [request(spans1), request(spans2), lone].iter().map(|v| serde_json::to_string(v).unwrap()).collect::<Vec<_>>().join("\n")
}

/// `doc` with the `nth` occurrence of `from` (counted from the end when
/// `from_end`) replaced by `to`; None when there is no such occurrence.
fn edited_at(doc: &str, from: &str, to: &str, nth: usize, from_end: bool) -> Option<String> {
    let mut at: Vec<usize> = doc.match_indices(from).map(|(i, _)| i).collect();
    if from_end {
        at.reverse();
    }
    let i = *at.get(nth)?;
    Some(format!("{}{to}{}", &doc[..i], &doc[i + from.len()..]))
}

#[test]
fn otel_spans_read_fast_parse_the_same_both_ways() {
    // (from, to), each applied at the first, second and last occurrence.
    let edits: &[(&str, &str)] = &[
        ("", ""),
        // Inputs that repeat the last one's up to somewhere: inside an
        // item, at its end, before the comma, inside an escape.
        (r#"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"fix it"#, r#"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"fix that"#),
        (r#"back\"}]},{"#, r#"back\"}]} ,{"#),
        (r#"back\"}]},{"#, r#"back\"}]}\n,\t{"#),
        (r#"back\"}]},{"#, r#"back\"}]},\r\n{"#),
        (r#"back\"}]},{"#, r#"back\"}]}]"#),
        (r#"back\"}]},{"#, r#"back\"}]},]"#),
        (r#"back\"}]},{"#, r#"back\"}]}],{"#),
        (r#"back\"}]},{"#, r#"back\"}]}}]"#),
        (r#"back\"}]},{"#, r#"back\"}]},1,{"#),
        (r#"back\"}]},{"#, r#"back\"}]},[[[]]],{"#),
        (r#"back\"}]},{"#, r#"back\"}]},\"\\ud800\",{"#),
        (r#"back\"}]},{"#, r#"back\"}]},{\"role\":\"user\",\"parts\":[\"\\ud800\"]},{"#),
        (r#"back\"}]},{"#, r#"back\"}]},{\"role\":\"user\",\"parts\":[NaN]},{"#),
        (r#"back\"}]},{"#, r#"back\"}]},{\"role\":\"user\",\"parts\":[1e999]},{"#),
        (r#"back\"}]},{"#, r#"back\"}]},{\"role\":\"user\",\"role\":\"system\",\"parts\":[]},{"#),
        (r#"back\"}]}]"#, r#"back\"}]}] "#),
        (r#"back\"}]}]"#, r#"back\"}]}]x"#),
        (r#"back\"}]}]"#, r#"back\"}]},"#),
        (r#"\"and then?\"}]}]"#, r#"\"and then?\"}]}, 7]"#),
        (r#"\"and then?\"}]}]"#, r#"\"and then?\"}]}]]"#),
        // The tool's result, which span 3 re-sends: a byte off, escaped otherwise.
        (r#"{"stringValue":"a\nb é😀"}"#, r#"{"stringValue":"a\nb é😀!"}"#),
        (r#"{"stringValue":"a\nb é😀"}"#, r#"{"stringValue":"a\nb \u00e9😀"}"#),
        (r#"😀"#, r#"\ud83d\ude00"#),
        (r#"😀"#, r#"\ud83d"#),
        (r#"😀"#, r#"\ude00\ud83d"#),
        ("\u{e9}", r#"\u00e9"#),
        ("\u{e9}", r#"\u00E9"#),
        (r#"fix it"#, r#"fix\u0020it"#),
        (r#"\"content\":\"fix"#, r#"\"cont\\u0065nt\":\"fix"#),
        (r#"\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"let"#, r#"\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"let"#),
        (r#"[{\"role\":\"user\""#, r#"[ {\"role\":\"user\""#),
        (r#"[{\"role\":\"user\""#, r#"[[{\"role\":\"user\""#),
        (r#"[{\"role\":\"user\""#, r#"{\"role\":\"user\""#),
        (r#"[{\"role\":\"user\""#, r#"[]"#),
        (r#"[1, 2, 3]"#, r#"[1, 3, 3]"#),
        (r#"[1, 2, 3]"#, r#"[1, 23, 3]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2 , 3]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2e1, 3]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2.5]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2]"#),
        (r#"[1, 2, 3]"#, r#"[1]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2, 3,]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2, [3]]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2, \"\\ud800\"]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2, \u0033]"#),
        (r#"[1, 2, 3]"#, r#"[1, 2, 3]\n"#),
        (r#"\"x\", true]"#, r#"\"x\", tru]"#),
        (r#"\"x\", true]"#, r#"\"x\", truer]"#),
        (r#"\"x\", true]"#, r#"\"x\", false]"#),
        (r#"\"x\", true, null]"#, r#"\"x\", true , null]"#),
        (r#"\"x\", true, null]"#, r#"\"x\", trued, null]"#),
        (r#"\"x\", true, null]"#, r#"\"y\", true, null]"#),
        (r#"\"x\", true, null]"#, r#"\"x\\\"\", true, null]"#),
        // The system instructions change: no prefix is shared.
        (r#"\"content\":\"be brief\""#, r#"\"content\":\"be briefer\""#),
        // The input not in the source, or twice, or not a string.
        (r#""key":"gen_ai.input.messages","value":{"stringValue""#, r#""key":"gen_ai.input.messages","value":{"string_value""#),
        (r#""key":"gen_ai.input.messages","value":{"stringValue""#, r#""key":"gen_ai.input.messages","value":{"stringValue":"[1, 2]","stringValue""#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":"[1, 2]"}},{"key":"gen_ai.input.messages","#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messag\u0065s","value":{"stringValue":"[1, 2]"}},{"key":"gen_ai.input.messages","#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":"[1, 2]"}},{"key":"x","#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":"[1, 23]"}},{"key":"x","#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":"[1, 2.5]"}},{"key":"x","#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":"[1, true]"}},{"key":"x","#),
        (r#"{"key":"gen_ai.input.messages","#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":"[1, truex]"}},{"key":"x","#),
        (r#"{"key":"gen_ai.input.messages","value":{"stringValue":"#, r#"{"key":"gen_ai.input.messages","value":{"arrayValue":{"values":[]}},"x":{"stringValue":"#),
        (r#"{"key":"gen_ai.input.messages","value":{"stringValue":"#, r#"{"key":"gen_ai.input.messages","value":{"stringValue":null,"string_value":"#),
        (r#"{"key":"gen_ai.input.messages","value":{"stringValue":"#, r#"{"key":"gen_ai.input.messages","value":{"intValue":"5","stringValue":"#),
        // Escaped or repeated keys, wrong kinds, elsewhere in the span.
        (r#""key":"gen_ai.operation.name""#, r#""k\u0065y":"gen_ai.operation.name""#),
        (r#""key":"gen_ai.operation.name""#, r#""key":"gen_ai.operation.nam\u0065""#),
        (r#""key":"gen_ai.operation.name""#, r#""key":"x","key":"gen_ai.operation.name""#),
        (r#""key":"gen_ai.operation.name""#, r#""key":5"#),
        (r#"{"stringValue":"chat"}"#, r#"{"stringValue":"chat","stringValue":"x"}"#),
        (r#"{"stringValue":"chat"}"#, r#"{"string_value":"chat"}"#),
        (r#"{"stringValue":"chat"}"#, r#"{"stringValue":7}"#),
        (r#"{"stringValue":"chat"}"#, r#"{}"#),
        (r#"{"stringValue":"chat"}"#, r#"null"#),
        (r#"{"intValue":"12"}"#, r#"{"intValue":"x12"}"#),
        (r#"{"intValue":"12"}"#, r#"{"intValue":12.0}"#),
        (r#"{"intValue":"12"}"#, r#"{"doubleValue":12.5}"#),
        (r#"{"intValue":"12"}"#, r#"{"intValue":"99999999999999999999"}"#),
        (r#"{"intValue":3}"#, r#"{"intValue":3,"boolValue":true}"#),
        (r#"{"intValue":3}"#, r#"{"kvlistValue":{"values":[{"key":"a","value":{"boolValue":false}}]}}"#),
        (r#"{"intValue":3}"#, r#"{"arrayValue":{"values":[{"stringValue":"stop"},{"intValue":"3"}]}}"#),
        (r#"{"intValue":3}"#, r#"{"bytesValue":"AAE="}"#),
        (r#""attributes":["#, r#""attributes":[7,"#),
        (r#""attributes":["#, r#""attributes":[null,"#),
        (r#""attributes":["#, r#""attributes":"x","y":["#),
        (r#""attributes":["#, r#""attributes":[],"attributes":["#),
        (r#""attributes":["#, r#""droppedAttributesCount":1,"attributes":["#),
        (r#""spanId":"aaaaaaaaaaaaaaa3""#, r#""spanId":"aaaaaaaaaaaaaaa1""#),
        (r#""spanId":"aaaaaaaaaaaaaaa3""#, r#""span_id":"aaaaaaaaaaaaaaa3""#),
        (r#""spanId":"aaaaaaaaaaaaaaa3""#, r#""spanId":"aaaaaaaaaaaaaaa3","spanId":"aaaaaaaaaaaaaaa9""#),
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""traceId":"5B8EFFF798038103D269B633813FC60C""#),
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""trace\u0049d":"5b8efff798038103d269b633813fc60c""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":1767225602000000000"#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"soon""#),
        // The ids and times the fast reader checks and reads from their
        // bytes (`fast::Reader::span_fields`), and those it builds instead.
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""traceId":"5b8efff798038103d269b633813fc60""#),
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""traceId":"5b8efff798038103d269b633813fc60g""#),
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""traceId":"5b8efff798038103d269b633813fc60\u0063""#),
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""traceId":null"#),
        (r#""traceId":"5b8efff798038103d269b633813fc60c""#, r#""traceId":"""#),
        (r#""spanId":"aaaaaaaaaaaaaaa3""#, r#""spanId":"aaaaaaaaaaaaaaa""#),
        (r#""spanId":"aaaaaaaaaaaaaaa3""#, r#""spanId":7"#),
        (r#""parentSpanId":"aaaaaaaaaaaaaaa0""#, r#""parentSpanId":"aaaaaaaaaaaaaaa\u0030""#),
        (r#""parentSpanId":"aaaaaaaaaaaaaaa0""#, r#""parentSpanId":"aaaaaaaaaaaaaaa0 ""#),
        (r#""parentSpanId":"aaaaaaaaaaaaaaa0""#, r#""parentSpanId":"aaaaaaaaaaaaaaa3""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"01767225602000000000""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"17672256020000000000""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"99999999999999999999""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"-1767225602000000000""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"1767225602\u0030000000000""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"1767225699000000000""#),
        (r#""startTimeUnixNano":"1767225602000000000""#, r#""startTimeUnixNano":"1""#),
        (r#""endTimeUnixNano":"1767225602000500000""#, r#""endTimeUnixNano":"1767225602900500000""#),
        (r#""endTimeUnixNano":"1767225602000500000""#, r#""endTimeUnixNano":"-0""#),
        (r#""endTimeUnixNano":"1767225602000500000""#, r#""endTimeUnixNano":1.5"#),
        (r#""kind":3"#, r#""kind":2147483648"#),
        (r#""kind":3"#, r#""kind":3,"x":1"#),
        (r#""name":"chat m""#, r#""name":7"#),
        (r#""name":"chat m""#, r#""name":"execute_tool \"ls\"""#),
        // Attribute lists walked once with their span (`otel/span_walk.rs`):
        // compact items and others side by side, braces inside a value.
        (r#"{"stringValue":"chat"}"#, r#"{"stringValue":"ch}}at"}"#),
        (r#"{"stringValue":"chat"}"#, r#"{"stringValue":"chat"} "#),
        (r#"{"stringValue":"chat"}"#, r#"{"stringValue":"chat"}},{"key":"y","value":{"stringValue":"]}"#),
        (r#"{"key":"gen_ai.operation.name","#, r#"{"key": "gen_ai.operation.name","#),
        (r#"{"key":"gen_ai.operation.name","#, r#"{"key":"a","value":{"stringValue":"b","x":{}}},{"key":"gen_ai.operation.name","#),
        (r#"{"key":"gen_ai.operation.name","#, r#" {"key":"gen_ai.operation.name","#),
        (r#""attributes":["#, r#""attributes":[{"key":"z","value":{"stringValue":"q"}}],"attributes":["#),
        (r#""attributes":["#, r#""attributes" : ["#),
        (r#""name":"chat m""#, r#""name":"chat \u006d""#),
        (r#""name":"chat m""#, r#""name":null"#),
        (r#""kind":3"#, r#""kind":"SPAN_KIND_CLIENT""#),
        (r#""kind":3"#, r#""kind":"CLIENT""#),
        (r#""status":{"code":1}"#, r#""status":{"code":2,"message":"boom"}"#),
        (r#""status":{"code":1}"#, r#""status":{"code":"STATUS_CODE_ERROR"}"#),
        (r#""status":{"code":1}"#, r#""status":5"#),
        (r#""events":[{"name":"exception""#, r#""events":[{"name":"gen_ai.user.message","attributes":[{"key":"content","value":{"stringValue":"hi"}}]},{"name":"exception""#),
        (r#""scope":{"name":"s","version":"1"}"#, r#""scope":{"name":"s","version":"1","attributes":[{"key":"k","value":{"stringValue":"v"}}]}"#),
        (r#""scope":{"name":"s","version":"1"}"#, r#""scope":null"#),
        (r#""resource":{"attributes""#, r#""resource":{"droppedAttributesCount":0,"attributes""#),
        (r#"{"resourceSpans":"#, r#"{"schemaUrl":"x","resourceSpans":"#),
        (r#"{"resourceSpans":"#, r#"{"resource_spans":[],"resourceSpans":"#),
        (r#""scopeSpans":"#, r#""scope_spans":"#),
        (r#""spans":[{"#, r#""spans":[7,{"#),
        (r#""spans":[{"#, r#""spans":[],"spans":[{"#),
        // The reader of requests' bytes (`otel/fast.rs`): member order kept
        // as the exact path's `remove` leaves it, lists and names it declines.
        (r#""scopeSpans":[{"scope""#, r#""scopeSpans":[{"schemaUrl":"x","scope""#),
        (r#""resource":{"attributes""#, r#""schemaUrl":"r","resource":{"attributes""#),
        (r#"]}]}]}"#, r#"]}],"schemaUrl":"r"}]}"#),
        (r#"]}]}]}"#, r#"],"schemaUrl":"s"}]}]}"#),
        (r#"]}]}]}"#, r#"]}],"schema_url":"r"}]}"#),
        (r#""spans":[{"#, r#""spans":[]},{"scope":{"name":"t"},"spans":[{"#),
        (r#""resourceSpans":[{"#, r#""resourceSpans":[{"resource":{}},{"#),
        (r#""resourceSpans":[{"#, r#""resourceSpans":[{"scopeSpans":[{}]},{"#),
        (r#"{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}"#, r#"{"value":{"stringValue":"chat"},"key":"gen_ai.operation.name"}"#),
        (r#"{"key":"gen_ai.operation.name","value""#, r#"{"key":"gen_ai.operation.name","x":1,"value""#),
        (r#"{"key":"gen_ai.input.messages","value":{"stringValue":"#, r#"{"value":{"stringValue":"#),
        (r#""kind":3"#, r#""kind":3,"traceState":"x","flags":1,"droppedAttributesCount":0"#),
        (r#""kind":3"#, r#""kind":3,"trace_state":"x""#),
        (r#""kind":3"#, r#""kind":3,"links":[{"traceId":"aa","spanId":"bb","attributes":[{"key":"k","value":{"intValue":"1"}}]}]"#),
        (r#""kind":3"#, r#""kind":3,"links":[{"traceId":"zz"}]"#),
        (r#""kind":3"#, r#""kind":null"#),
        (r#""attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}},{"key":"gen_ai.agent.name","value":{"stringValue":"a"}}]"#, r#""attributes":[]"#),
        (r#"{"intValue":"12"}"#, r#"{"intValue":"-0"}"#),
        (r#"{"stringValue":"chat"}"#, r#"{"stringValue":"ch\u0061t\n"}"#),
        ("\u{e9}", r#"\u00e9\ud800"#),
        ("\u{e9}", r#"\\ud800"#),
        ("\u{e9}", r#"\\ud83d\\ude00"#),
        // The output and system attributes breaking their schemas: the
        // diagnostics' paths name their places in the list, which the fast
        // reader notes (`SpanTexts::genai_at`) rather than keeping the list.
        (r#"{"key":"gen_ai.output.messages","value":{"stringValue":"["#, r#"{"key":"gen_ai.output.messages","value":{"stringValue":"[7,"#),
        (r#"{"key":"gen_ai.system_instructions","value":{"stringValue":"["#, r#"{"key":"gen_ai.system_instructions","value":{"stringValue":"[7,"#),
        (r#"{"key":"gen_ai.system_instructions","#, r#"{"key":"gen_ai.output.messages","value":{"stringValue":"x"}},{"key":"gen_ai.system_instructions","#),
    ];
    let doc = otel_document();
    let (mut docs, mut left_in_source) = (0, 0);
    for (from, to) in edits {
        let variants: Vec<String> = if from.is_empty() {
            vec![doc.clone()]
        } else {
            [(0, false), (1, false), (2, false), (0, true), (1, true)].iter().filter_map(|&(n, end)| edited_at(&doc, from, to, n, end)).collect()
        };
        assert!(!variants.is_empty(), "edit {from:?} finds nothing to edit");
        for d in &variants {
            docs += 1;
            for format in [None, Some("otel")] {
                left_in_source += same_both_ways(d.as_bytes(), format).unwrap_or_else(|e| panic!("edit {from:?} -> {to:?}: {e}\n{d}"));
            }
            same_agent_run_text(d, "otel").unwrap_or_else(|e| panic!("edit {from:?} -> {to:?}: {e}"));
        }
    }
    assert!(docs > edits.len() * 3, "only {docs} documents");
    let _ = left_in_source; // otel leaves its metadata, not its texts, in the source
}

/// Every otel fixture and corpus file, and each of them with its inputs'
/// and attributes' bytes edited at every occurrence (up to a cap).
#[test]
fn otel_files_parse_the_same_both_ways() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<PathBuf> = common::files_under(&common::corpus_dir().join("otel-genai"));
    files.extend(common::files_under(&root.join("fixtures/otel")));
    files.sort();
    assert!(files.len() >= 10, "{} otel files", files.len());
    let mangles: &[(&str, &str)] = &[
        ("}, {", "},{"),
        ("},{", "}, {"),
        (r#"\"}"#, r#"\u0022}"#),
        ("\"key\":", "\"k\\u0065y\":"),
        ("\"key\": ", "\"key\":\"x\",\"key\":"),
        ("\"stringValue\":", "\"string_value\":"),
        ("\"intValue\":", "\"int_value\":"),
        ("\"value\": {", "\"value\":{\"boolValue\":true,"),
    ];
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        same_both_ways(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Ok(text) = String::from_utf8(bytes) else { continue };
        for (from, to) in mangles {
            for n in 0..6 {
                let Some(d) = edited_at(&text, from, to, n * 3, false) else { break };
                same_both_ways(d.as_bytes(), Some("otel")).unwrap_or_else(|e| panic!("{} edit {from:?} #{}: {e}", f.display(), n * 3));
            }
        }
    }
}

/// The generated document is read fast: its chat spans' metadata is left
/// in the source, and the later inputs are decoded past the repeated items.
#[test]
fn the_otel_document_takes_the_fast_path() {
    use agent_trace_viewer::{parse_trace, ParseOptions};
    let doc = otel_document();
    let t = parse_trace(doc.clone().into_bytes(), &ParseOptions { format: Some("otel".to_string()), exact_only: false, ..Default::default() }).unwrap();
    let deferred = t.events.iter().filter(|e| e.metadata.is_deferred()).count();
    assert!(deferred >= 9, "only {deferred} spans' metadata deferred");
}

/// Chat spans whose outputs the next chat span re-sends (`otel/output_reuse.rs`:
/// a re-sent item whose text is the last output's takes its message and its
/// verdict as an input item): outputs of every shape a message is read
/// from, re-sent as they were, edited, reordered, repeated, or not at all.
#[test]
fn re_sent_outputs_parse_the_same_both_ways() {
    let t = "5b8efff798038103d269b633813fc60c";
    let u = user("go");
    let tool = |id: &str| json!({"role": "tool", "parts": [{"type": "tool_call_response", "id": id, "response": "ok"}]});
    let call = |id: &str| json!({"role": "assistant", "parts": [{"type": "tool_call", "id": id, "name": "ls", "arguments": {}}]});
    // (output of a span, what the next span re-sends of it after its input)
    let cases: Vec<(Vec<Value>, Vec<Value>)> = vec![
        (vec![call("c1")], vec![call("c1"), tool("c1")]),
        // No role, a role not a string: the side's default role.
        (vec![json!({"parts": [{"type": "text", "content": "x"}], "finish_reason": "stop"})], vec![json!({"parts": [{"type": "text", "content": "x"}], "finish_reason": "stop"})]),
        (vec![json!({"role": 7, "parts": [{"type": "text", "content": "x"}]})], vec![json!({"role": 7, "parts": [{"type": "text", "content": "x"}]})]),
        (vec![json!("bare text")], vec![json!("bare text")]),
        // OpenAI-shaped messages (no `parts`), a tool answer among them.
        (vec![json!({"role": "tool", "content": "r", "tool_call_id": "c2"})], vec![json!({"role": "tool", "content": "r", "tool_call_id": "c2"})]),
        (vec![json!({"role": "assistant", "content": "hi", "name": 3})], vec![json!({"role": "assistant", "content": "hi", "name": 3})]),
        // Breaking the input schema but not the output one, and the reverse.
        (vec![json!({"role": "assistant", "parts": [7], "finish_reason": "stop"})], vec![json!({"role": "assistant", "parts": [7], "finish_reason": "stop"})]),
        (vec![json!({"role": "assistant", "parts": []})], vec![json!({"role": "assistant", "parts": []})]),
        // Two items: re-sent reordered, one twice, one edited, one only.
        (vec![call("c3"), assistant("a")], vec![assistant("a"), call("c3")]),
        (vec![call("c4"), assistant("b")], vec![call("c4"), call("c4"), assistant("b")]),
        (vec![call("c5"), assistant("c")], vec![call("c5"), assistant("c!")]),
        // Edited late in the item, its length kept (found in the literal by its bytes).
        (vec![call("c7"), assistant("f")], vec![call("c7"), assistant("g")]),
        (vec![call("c8")], vec![call("c9")]),
        (vec![call("c6"), assistant("d")], vec![assistant("d")]),
        (vec![assistant("same"), assistant("same")], vec![assistant("same"), assistant("same")]),
        (vec![], vec![user("nothing came back")]),
        (vec![assistant("e")], vec![]),
    ];
    let mut spans = Vec::new();
    let mut history = vec![u.clone()];
    let mut re_sent: &[Value] = &[];
    for (k, (output, next)) in cases.iter().enumerate() {
        if k > 0 {
            history.extend(re_sent.iter().cloned());
            history.push(user(&format!("next {k}")));
        }
        re_sent = next;
        spans.push(chat(t, &format!("aaaaaaaaaaaaab{k:02}"), 1000 * (k as u64 + 1), "be brief", &history, output));
    }
    // A lone object where a list is read, then its text re-sent as an item.
    let mut odd = chat(t, "aaaaaaaaaaaaac01", 99_000, "be brief", &history, &[]);
    odd["attributes"][6] = text_attr("gen_ai.output.messages", &serde_json::to_string(&assistant("lone")).unwrap());
    spans.push(odd);
    history.push(assistant("lone"));
    spans.push(chat(t, "aaaaaaaaaaaaac02", 99_500, "be brief", &history, &[assistant("end")]));
    let request = json!({"resourceSpans": [{"resource": {"attributes": [text_attr("service.name", "svc")]}, "scopeSpans": [{"scope": {"name": "s", "version": "1"}, "spans": spans}]}]});
    let doc = serde_json::to_string(&request).unwrap();
    for d in [doc.clone(), doc.replace(r#"\"finish_reason\":\"stop\"}]"#, r#"\"finish_reason\":\"stop\"} ]"#)] {
        for format in [None, Some("otel")] {
            same_both_ways(d.as_bytes(), format).unwrap_or_else(|e| panic!("{e}\n{d}"));
        }
        same_agent_run_text(&d, "otel").unwrap();
    }
}

/// A tool span whose call no message made shows that call with the span's
/// arguments (`convert::ToolSpan::arguments`, parsed only then); a call a
/// message made keeps the message's arguments.
#[test]
fn tool_spans_show_their_arguments_when_they_make_the_call() {
    use agent_trace_viewer::model::EventBody;
    use agent_trace_viewer::{parse_trace, ParseOptions};
    let t = "5b8efff798038103d269b633813fc60c";
    let tool = |id: &str, parent: &str, start: u64| {
        json!({"traceId": t, "spanId": id, "parentSpanId": parent, "name": "execute_tool ls", "kind": 1,
            "startTimeUnixNano": (1_767_225_600_000_000_000u64 + start * 1_000_000).to_string(), "endTimeUnixNano": (1_767_225_600_000_000_000u64 + start * 1_000_000 + 500).to_string(),
            "attributes": [text_attr("gen_ai.operation.name", "execute_tool"), text_attr("gen_ai.tool.name", "ls"), text_attr("gen_ai.tool.call.id", &format!("call-{id}")),
                text_attr("gen_ai.tool.call.arguments", &format!(r#"{{"path":"/span/{id}"}}"#)), text_attr("gen_ai.tool.call.result", "a")]})
    };
    let call = json!({"role": "assistant", "parts": [{"type": "tool_call", "id": "call-aaaaaaaaaaaaaaa2", "name": "ls", "arguments": {"path": "/message"}}]});
    let spans = vec![chat(t, "aaaaaaaaaaaaaaa1", 1000, "be brief", &[user("go")], &[call]), tool("aaaaaaaaaaaaaaa2", "aaaaaaaaaaaaaaa0", 2000), tool("aaaaaaaaaaaaaaa3", "aaaaaaaaaaaaaaa0", 3000)];
    let doc = serde_json::to_string(&json!({"resourceSpans": [{"scopeSpans": [{"scope": {"name": "s"}, "spans": spans}]}]})).unwrap();
    for exact_only in [false, true] {
        let trace = parse_trace(doc.clone().into_bytes(), &ParseOptions { format: Some("otel".to_string()), exact_only, ..Default::default() }).unwrap();
        let mut args: Vec<String> = trace.events.iter().filter_map(|e| if let EventBody::Message(m) = &e.body { Some(m.tool_calls.iter().map(|c| c.arguments.display()).collect::<Vec<_>>()) } else { None }).flatten().collect();
        args.extend(trace.events.iter().filter_map(|e| if let EventBody::ToolCall(c) = &e.body { Some(c.arguments.display()) } else { None }));
        assert_eq!(args.len(), 2, "{args:?}");
        assert!(args[0].contains("/message") && args[1].contains("/span/aaaaaaaaaaaaaaa3"), "{args:?}");
    }
    same_both_ways(doc.as_bytes(), Some("otel")).unwrap();
}

/// Tool answers re-sent after their tool span, built from its result when
/// their `response` bytes are its (`otel/tool_answers.rs`), else parsed:
/// answers equal to the result, a byte off, with other members, in another
/// order, escaped otherwise, under another id. Span B re-sends the answer
/// before the tool span ran (parsed), span C after it, with a space before
/// its list so that none of its items is B's (read again): an answer built
/// otherwise than parsed breaks C's conversation off B's, which shows
/// B's messages again.
#[test]
fn re_sent_tool_answers_parse_the_same_both_ways() {
    let t = "5b8efff798038103d269b633813fc60c";
    let result = "line one\nsaid \"hi\" \\ \u{e9}\u{1F600} {\"x\":[1]} /";
    let literal = |s: &str| serde_json::to_string(s).unwrap().trim_matches('"').to_string();
    let text = |v: &Value| serde_json::to_string(v).unwrap();
    let answer = |id: &str, response: &str| text(&json!({"role": "tool", "parts": [{"type": "tool_call_response", "id": id, "response": response}]}));
    let call = json!({"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "ls", "arguments": {}}]});
    let (u, a2, u2, a3, u3) = (text(&user("go")), text(&assistant("seen")), text(&user("more")), text(&assistant("then")), text(&user("last")));
    let same = answer("c1", result);
    let shorter = result.strip_suffix('/').unwrap();
    // (the answer as re-sent, the tool span's result literal, its call id)
    let cases: Vec<(String, String, &str)> = vec![
        (same.clone(), literal(result), "c1"),
        (answer("c1", ""), String::new(), "c1"),
        (answer("c1", &format!("{result}!")), literal(result), "c1"),
        (answer("c1", &result.replacen('l', "L", 1)), literal(result), "c1"),
        (answer("c1", shorter), literal(result), "c1"),
        (same.clone(), literal(shorter), "c1"),
        (same.replace(r#""}]}"#, r#"","x":1}]}"#), literal(result), "c1"),
        (same.replace(r#""}]}"#, r#""}],"name":"t"}"#), literal(result), "c1"),
        (same.replace(r#""}]}"#, r#""},{"type":"text","content":"x"}]}"#), literal(result), "c1"),
        (same.replace(r#"{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","#, r#"{"parts":[{"id":"c1","type":"tool_call_response","#), literal(result), "c1"),
        (same.replace(r#"{"role":"tool","parts""#, r#"{"role":"tool", "parts""#), literal(result), "c1"),
        (same.replace(r#""response":""#, r#""response":"x","response":""#), literal(result), "c1"),
        (same.replace("\u{e9}", r"\u00e9"), literal(result), "c1"),
        (same.replace("\u{e9}", r"\u00e9"), literal(result).replace("\u{e9}", r"\u00e9"), "c1"),
        (same.replace(r#""id":"c1""#, r#""id":"c\u0031""#), literal(result), "c1"),
        (same.replace(r#""id":"c1""#, r#""id":"c\u0031""#), literal(result), r"c\u0031"),
        (same.replace(r#""role":"tool""#, r#""role":"user""#), literal(result), "c1"),
        (answer("c2", result), literal(result), "c1"),
        (same.clone(), literal(result), "c2"),
    ];
    // Each edit found what it edits.
    assert!(cases.iter().skip(1).all(|(item, lit, id)| (item, lit, *id) != (&same, &literal(result), "c1")));
    for (item, tool_literal, tool_id) in &cases {
        let list = |items: &[&str]| format!(" [{}]", items.join(","));
        let call_text = text(&call);
        let tool = json!({"traceId": t, "spanId": "aaaaaaaaaaaaaaa9", "parentSpanId": "aaaaaaaaaaaaaaa0", "name": "execute_tool ls", "kind": 1, "startTimeUnixNano": "1767225601600000000", "endTimeUnixNano": "1767225601700000000",
            "attributes": [text_attr("gen_ai.operation.name", "execute_tool"), text_attr("gen_ai.tool.name", "ls"), text_attr("gen_ai.tool.call.id", tool_id), text_attr("gen_ai.tool.call.result", "@RESULT@")]});
        let spans = vec![
            chat_sent(t, "aaaaaaaaaaaaaaa1", 1000, "s", &list(&[&u]), std::slice::from_ref(&call)),
            chat_sent(t, "aaaaaaaaaaaaaaa2", 1500, "s", &list(&[&u, &call_text, item]).replacen(' ', "", 1), &[assistant("seen")]),
            tool,
            chat_sent(t, "aaaaaaaaaaaaaaa3", 2000, "s", &list(&[&u, &call_text, item, &a2, &u2]), &[assistant("then")]),
            chat_sent(t, "aaaaaaaaaaaaaaa4", 3000, "s", &list(&[&u, &call_text, item, &a2, &u2, &a3, &u3]), &[assistant("end")]),
        ];
        let request = json!({"resourceSpans": [{"resource": {"attributes": [text_attr("service.name", "svc")]}, "scopeSpans": [{"scope": {"name": "s"}, "spans": spans}]}]});
        let doc = serde_json::to_string(&request).unwrap().replace("@RESULT@", tool_literal);
        for format in [None, Some("otel")] {
            same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("{item} / {tool_literal}: {e}\n{doc}"));
        }
        same_agent_run_text(&doc, "otel").unwrap_or_else(|e| panic!("{item} / {tool_literal}: {e}"));
    }
}

/// Long texts dense with escapes (`\"`, `\\`, `\n`, `\u0001`, `\/` and
/// characters of two and four bytes), shifted a byte at a time so that
/// each escape falls at every place of the decoder's 64-byte windows: a
/// tool's result re-sent after its span (built from the result's decoded
/// literal), the new items of a tail (decoded past the repeated ones) and
/// the outputs re-sent (decoded, then matched byte for byte). As in
/// `re_sent_tool_answers_parse_the_same_both_ways`, the third span shares
/// no prefix with the second, so a text decoded otherwise there shows
/// messages again.
#[test]
fn long_escaped_texts_parse_the_same_both_ways() {
    let t = "5b8efff798038103d269b633813fc60c";
    let text = |v: &Value| serde_json::to_string(v).unwrap();
    let base = "q\"uote\\\\back\nnl \u{e9}\u{1F600} \u{1}c/\\";
    for fill in 0..=66 {
        let long = |tag: &str| format!("{tag}{}{}", "x".repeat(fill), base.repeat(5));
        let result = long("r");
        let literal = serde_json::to_string(&result).unwrap().trim_matches('"').to_string();
        let call = json!({"role": "assistant", "parts": [{"type": "text", "content": long("c")}, {"type": "tool_call", "id": "c1", "name": "ls", "arguments": {"q": long("a")}}]});
        let answer = text(&json!({"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": result}]}));
        let (u, a2, u2, a3, u3) = (text(&user(&long("u"))), text(&assistant(&long("s"))), text(&user(&long("m"))), text(&assistant(&long("t"))), text(&user(&long("l"))));
        let list = |items: &[&str]| format!(" [{}]", items.join(","));
        let call_text = text(&call);
        let tool = json!({"traceId": t, "spanId": "aaaaaaaaaaaaaaa9", "parentSpanId": "aaaaaaaaaaaaaaa0", "name": "execute_tool ls", "kind": 1, "startTimeUnixNano": "1767225601600000000", "endTimeUnixNano": "1767225601700000000",
            "attributes": [text_attr("gen_ai.operation.name", "execute_tool"), text_attr("gen_ai.tool.name", "ls"), text_attr("gen_ai.tool.call.id", "c1"), text_attr("gen_ai.tool.call.result", "@RESULT@")]});
        let spans = vec![
            chat_sent(t, "aaaaaaaaaaaaaaa1", 1000, "s", &list(&[&u]), std::slice::from_ref(&call)),
            chat_sent(t, "aaaaaaaaaaaaaaa2", 1500, "s", &list(&[&u, &call_text, &answer]).replacen(' ', "", 1), &[assistant(&long("s"))]),
            tool,
            chat_sent(t, "aaaaaaaaaaaaaaa3", 2000, "s", &list(&[&u, &call_text, &answer, &a2, &u2]), &[assistant(&long("t"))]),
            chat_sent(t, "aaaaaaaaaaaaaaa4", 3000, "s", &list(&[&u, &call_text, &answer, &a2, &u2, &a3, &u3]), &[assistant(&long("e"))]),
        ];
        let request = json!({"resourceSpans": [{"resource": {"attributes": [text_attr("service.name", "svc")]}, "scopeSpans": [{"scope": {"name": "s"}, "spans": spans}]}]});
        let doc = serde_json::to_string(&request).unwrap().replace("@RESULT@", &literal);
        for format in [None, Some("otel")] {
            same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("fill {fill}: {e}\n{doc}"));
        }
        same_agent_run_text(&doc, "otel").unwrap_or_else(|e| panic!("fill {fill}: {e}"));
    }
}

/// A tool's answer re-sent straight after the assistant's call (both new
/// items of a chat span whose input repeats the last one's first item):
/// `otel/tool_answers.rs` and `otel/output_reuse.rs` find them in the
/// input's literal, escaped once more, before anything of it is decoded.
/// Results dense with escapes shifted over the 8-byte words the
/// comparison reads, and answers that differ from the result by a byte,
/// an escape written otherwise (`\u00e9` for `é`, `\/` for `/`), a
/// surrogate pair, the wrapper's members or the call id.
#[test]
fn tool_answers_found_in_the_input_literal_parse_the_same_both_ways() {
    let t = "5b8efff798038103d269b633813fc60c";
    let text = |v: &Value| serde_json::to_string(v).unwrap();
    let literal = |s: &str| serde_json::to_string(s).unwrap().trim_matches('"').to_string();
    let answer = |id: &str, response: &str| format!(r#"{{"role":"tool","parts":[{{"type":"tool_call_response","id":"{id}","response":"{response}"}}]}}"#);
    let call = json!({"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "ls", "arguments": {"q": "a\"b"}}]});
    let base = literal("said \"hi\"\\ \n\u{e9}\t{\"x\":[1]}\u{1} ok");
    // (the answer as re-sent, the tool span's result literal, its call id)
    let mut cases: Vec<(String, String, &str)> = Vec::new();
    for fill in 0..=9 {
        let r = format!("{}{}", "x".repeat(fill), base.repeat(3));
        cases.push((answer("c1", &r), r.clone(), "c1"));
        cases.push((answer("c1", &format!("{r}!")), r.clone(), "c1"));
        cases.push((answer("c1", r.strip_suffix('k').unwrap()), r.clone(), "c1"));
        cases.push((answer("c1", &r.replacen('x', "y", 1)), r.clone(), "c1"));
        cases.push((answer("c1", &r.replace(r"\n", r"\t")), r.clone(), "c1"));
    }
    let r = base.clone();
    for (item_response, result) in [
        (String::new(), String::new()),
        (r.replace('\u{e9}', r"\u00e9"), r.clone()),
        (r.clone(), r.replace('\u{e9}', r"\u00e9")),
        (r.replace('\u{e9}', r"\u00e9"), r.replace('\u{e9}', r"\u00e9")),
        (r.replace('\u{e9}', r"\u00E9"), r.replace('\u{e9}', r"\u00e9")),
        (format!(r"{r}\ud83d\ude00"), format!(r"{r}\ud83d\ude00")),
        (format!(r"{r}/"), format!(r"{r}\/")),
        (format!(r"{r}\/"), format!(r"{r}\/")),
        (format!(r"{r}\\"), format!(r"{r}\\")),
        (format!(r"{r}\b\f\r"), format!(r"{r}\b\f\r")),
    ] {
        cases.push((answer("c1", &item_response), result, "c1"));
    }
    let same = answer("c1", &r);
    for edited in [
        same.replace(r#""}]}"#, r#"","x":1}]}"#),
        same.replace(r#""}]}"#, r#""}],"name":"t"}"#),
        same.replace(r#"{"role":"tool","parts""#, r#"{"role":"tool", "parts""#),
        same.replace(r#""role":"tool""#, r#""role":"user""#),
        same.replace(r#""id":"c1""#, r#""id":"c\u0031""#),
        answer("c2", &r),
    ] {
        cases.push((edited, r.clone(), "c1"));
    }
    cases.push((answer(r"c\u0031", &r), r.clone(), r"c\u0031"));
    cases.push((same.clone(), r.clone(), "c2"));
    let (u, u2, a2, u3) = (text(&user("go")), text(&user("more")), text(&assistant("seen")), text(&user("last")));
    for (item, tool_literal, tool_id) in &cases {
        let list = |items: &[&str]| format!("[{}]", items.join(","));
        let call_text = text(&call);
        let tool = json!({"traceId": t, "spanId": "aaaaaaaaaaaaaaa9", "parentSpanId": "aaaaaaaaaaaaaaa0", "name": "execute_tool ls", "kind": 1, "startTimeUnixNano": "1767225601200000000", "endTimeUnixNano": "1767225601300000000",
            "attributes": [text_attr("gen_ai.operation.name", "execute_tool"), text_attr("gen_ai.tool.name", "ls"), text_attr("gen_ai.tool.call.id", tool_id), text_attr("gen_ai.tool.call.result", "@RESULT@")]});
        let spans = vec![
            chat_sent(t, "aaaaaaaaaaaaaaa1", 1000, "s", &list(&[&u]), std::slice::from_ref(&call)),
            tool,
            chat_sent(t, "aaaaaaaaaaaaaaa2", 1500, "s", &list(&[&u, &call_text, item, &u2]), &[assistant("seen")]),
            chat_sent(t, "aaaaaaaaaaaaaaa3", 2000, "s", &list(&[&u, &call_text, item, &u2, &a2, &u3]), &[assistant("end")]),
        ];
        let request = json!({"resourceSpans": [{"resource": {"attributes": [text_attr("service.name", "svc")]}, "scopeSpans": [{"scope": {"name": "s"}, "spans": spans}]}]});
        let doc = serde_json::to_string(&request).unwrap().replace("@RESULT@", tool_literal);
        for format in [None, Some("otel")] {
            same_both_ways(doc.as_bytes(), format).unwrap_or_else(|e| panic!("{item} / {tool_literal}: {e}\n{doc}"));
        }
        same_agent_run_text(&doc, "otel").unwrap_or_else(|e| panic!("{item} / {tool_literal}: {e}"));
    }
}
