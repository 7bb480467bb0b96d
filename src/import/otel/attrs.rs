//! OTLP attribute lists (`[{key, value: AnyValue}]`) as plain JSON objects,
//! and the typed reads of attribute values the conventions need.

use serde_json::{Map, Value};

/// An `AnyValue` as plain JSON: `stringValue` a string, `intValue` (a
/// string in OTLP/JSON) a number, `arrayValue` a list, `kvlistValue` an
/// object, `bytesValue` its base64 string; `{}` (empty) null. A value that
/// is not an AnyValue is kept as it is.
pub fn any_value(v: &Value) -> Value {
    let Some(o) = v.as_object() else { return v.clone() };
    let get = |json: &str, proto: &str| o.get(json).or_else(|| o.get(proto)).filter(|v| !v.is_null());
    if let Some(s) = get("stringValue", "string_value") {
        return s.clone();
    }
    if let Some(i) = get("intValue", "int_value") {
        return match i {
            Value::String(s) => s.parse::<i64>().map(Value::from).unwrap_or_else(|_| i.clone()),
            other => other.clone(),
        };
    }
    if let Some(d) = get("doubleValue", "double_value") {
        return d.clone();
    }
    if let Some(b) = get("boolValue", "bool_value") {
        return b.clone();
    }
    if let Some(a) = get("arrayValue", "array_value") {
        let items = a.get("values").and_then(Value::as_array).map(|vs| vs.iter().map(any_value).collect()).unwrap_or_default();
        return Value::Array(items);
    }
    if let Some(kv) = get("kvlistValue", "kvlist_value") {
        return Value::Object(key_values(kv.get("values")));
    }
    if let Some(b) = get("bytesValue", "bytes_value") {
        return b.clone();
    }
    if o.is_empty() {
        return Value::Null;
    }
    v.clone()
}

/// A `KeyValue` list as an object (a repeated key: the last value wins, as
/// OTel SDKs do).
pub fn key_values(list: Option<&Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for kv in list.and_then(Value::as_array).into_iter().flatten() {
        let Some(key) = kv.get("key").and_then(Value::as_str) else { continue };
        out.insert(key.to_string(), kv.get("value").map(any_value).unwrap_or(Value::Null));
    }
    out
}

/// A string attribute.
pub fn str_of<'a>(a: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    a.get(key).and_then(Value::as_str)
}

/// A count attribute's value (an int, or a string or float holding one).
pub fn count_of(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A value that may hold JSON text (`gen_ai.input.messages` is a JSON string
/// on most SDKs, a structured value on others): the parsed value when it
/// is a string of JSON, else the value itself.
pub fn json_in(v: &Value) -> Value {
    match v {
        Value::String(s) => crate::json::build::from_str(s).unwrap_or_else(|_| v.clone()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn any_values() {
        let list = json!([
            {"key": "s", "value": {"stringValue": "x"}},
            {"key": "i", "value": {"intValue": "42"}},
            {"key": "d", "value": {"doubleValue": 0.5}},
            {"key": "b", "value": {"boolValue": true}},
            {"key": "a", "value": {"arrayValue": {"values": [{"stringValue": "stop"}, {"intValue": 3}]}}},
            {"key": "k", "value": {"kvlistValue": {"values": [{"key": "n", "value": {"boolValue": false}}]}}},
            {"key": "y", "value": {"bytesValue": "AAE="}},
            {"key": "e", "value": {}}
        ]);
        let m = key_values(Some(&list));
        assert_eq!(Value::Object(m), json!({"s": "x", "i": 42, "d": 0.5, "b": true, "a": ["stop", 3], "k": {"n": false}, "y": "AAE=", "e": null}));
        assert_eq!(json_in(&json!("[1]")), json!([1]));
        assert_eq!(json_in(&json!("no")), json!("no"));
    }
}
