//! Generators of OpenAI-format records for property tests: valid and
//! invalid events (unknown roles, missing ids, non-object arguments, tool
//! lists, scalars), linked and unlinked tool calls, hostile text.

use proptest::prelude::*;
use serde_json::{json, Map, Value};

pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,8}",
        "[a-zA-Z0-9 \n\t\"\\\\<>&'{}\\[\\]:,é😀\u{202E}\u{1b}\u{0}]{0,16}",
        any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

pub fn small_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from),
        Just(json!(123456789012345678901234567890u128.to_string().parse::<Value>().unwrap())),
        prop::collection::btree_map(text(), text(), 0..3).prop_map(|m| json!(m)),
        prop::collection::vec(text(), 0..3).prop_map(|v| json!(v)),
    ]
}

pub fn object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(text(), small_value(), 0..4).prop_map(|m| Value::Object(m.into_iter().collect()))
}

pub fn content(allow_object: bool) -> impl Strategy<Value = Value> {
    let part = prop_oneof![
        text().prop_map(|t| json!({"type": "text", "text": t})),
        text().prop_map(|u| json!({"type": "image_url", "image_url": {"url": u}})),
        text().prop_map(|u| json!({"type": "image_url", "image_url": u})),
        small_value().prop_map(|v| json!({"type": "audio", "data": v})),
    ];
    prop_oneof![
        4 => text().prop_map(Value::from),
        1 => Just(Value::Null),
        2 => prop::collection::vec(part, 0..3).prop_map(Value::Array),
        1 => if allow_object { object().boxed() } else { small_value().boxed() },
    ]
}

pub fn arguments() -> impl Strategy<Value = Value> {
    prop_oneof![
        object().prop_map(|o| Value::String(o.to_string())),
        object(),
        text().prop_map(Value::from),
        small_value().prop_map(|v| Value::String(v.to_string())),
    ]
}

pub fn call(ids: Vec<String>) -> impl Strategy<Value = Value> {
    (prop::sample::select(ids), any::<bool>(), text(), arguments()).prop_map(|(id, with_id, name, args)| {
        let mut c = Map::new();
        if with_id {
            c.insert("id".to_string(), Value::String(id));
        }
        c.insert("type".to_string(), json!("function"));
        c.insert("function".to_string(), json!({"name": name, "arguments": args}));
        Value::Object(c)
    })
}

pub fn event() -> impl Strategy<Value = Value> {
    let ids: Vec<String> = ["a", "b", "c", "call_1", "x<y>"].iter().map(|s| s.to_string()).collect();
    let role = prop_oneof![Just("system".to_string()), Just("user".to_string()), Just("assistant".to_string()), text()];
    let timestamp = prop::option::of(Just("2025-01-01T00:00:00Z".to_string()));
    prop_oneof![
        5 => (role, content(false), prop::collection::vec(call(ids.clone()), 0..3), timestamp.clone()).prop_map(|(role, content, calls, ts)| {
            let mut m = Map::new();
            m.insert("role".to_string(), Value::String(role));
            m.insert("content".to_string(), content);
            if !calls.is_empty() {
                m.insert("tool_calls".to_string(), Value::Array(calls));
            }
            if let Some(ts) = ts {
                m.insert("timestamp".to_string(), Value::String(ts));
            }
            Value::Object(m)
        }),
        3 => (prop::option::of(prop::sample::select(ids.clone())), content(true), prop::option::of(small_value())).prop_map(|(id, content, error)| {
            let mut m = Map::new();
            m.insert("role".to_string(), json!("tool"));
            m.insert("content".to_string(), content);
            if let Some(id) = id {
                m.insert("tool_call_id".to_string(), Value::String(id));
            }
            if let Some(e) = error {
                m.insert("error".to_string(), e);
            }
            Value::Object(m)
        }),
        1 => (prop::sample::select(ids), text(), object()).prop_map(|(id, name, args)| json!({"type": "function", "id": id, "function": {"name": name, "arguments": args}})),
        1 => prop::collection::vec((text(), prop::option::of(text()), object()), 0..3).prop_map(|tools| {
            json!({"tools": tools.into_iter().map(|(name, description, schema)| {
                let mut t = Map::new();
                t.insert("name".to_string(), Value::String(name));
                if let Some(d) = description {
                    t.insert("description".to_string(), Value::String(d));
                }
                t.insert("inputSchema".to_string(), schema);
                Value::Object(t)
            }).collect::<Vec<_>>()})
        }),
        1 => small_value(),
    ]
}

/// A whole input: a bare event list, one row, or JSON Lines of rows with a
/// dataset metadata line.
pub fn trace_source() -> impl Strategy<Value = Vec<u8>> {
    let events = || prop::collection::vec(event(), 0..8);
    let row = (prop::option::of(text()), object(), events()).prop_map(|(id, metadata, messages)| {
        let mut r = Map::new();
        if let Some(id) = id {
            r.insert("id".to_string(), Value::String(id));
        }
        r.insert("metadata".to_string(), metadata);
        r.insert("messages".to_string(), Value::Array(messages));
        Value::Object(r)
    }).boxed();
    prop_oneof![
        events().prop_map(|e| Value::Array(e).to_string().into_bytes()),
        row.clone().prop_map(|r| serde_json::to_vec_pretty(&r).unwrap()),
        (object(), prop::collection::vec(row, 1..4)).prop_map(|(meta, rows)| {
            let mut lines = vec![json!({"metadata": meta}).to_string()];
            lines.extend(rows.iter().map(Value::to_string));
            lines.join("\n").into_bytes()
        }),
    ]
}

