//! What the GenAI conventions' JSON schemas (semantic-conventions v1.41.0
//! `gen-ai-input-messages.json`, `gen-ai-output-messages.json`,
//! `gen-ai-system-instructions.json`) require of the message attributes.
//! Every part type's schema sits in an `anyOf` with `GenericPart` (any
//! object with a string `type`), so a part only needs that; a message needs
//! a string `role` and a `parts` list (an output message a string
//! `finish_reason` too), and `name`, when given, is a string or null.

use serde_json::Value;

/// The three attributes and what each holds.
pub const ATTRIBUTES: [(&str, Kind); 3] =
    [("gen_ai.input.messages", Kind::Input), ("gen_ai.output.messages", Kind::Output), ("gen_ai.system_instructions", Kind::System)];

#[derive(Clone, Copy)]
pub enum Kind {
    Input,
    Output,
    System,
}

/// Why the attribute's value (read from its JSON text, or a structured
/// value) breaks its schema, or None when it follows it.
pub fn check(kind: Kind, v: &Value) -> Option<String> {
    let Value::Array(items) = v else { return Some("must be a JSON list".to_string()) };
    items.iter().enumerate().find_map(|(i, item)| check_item(kind, item).map(|why| item_failure(i, &why)))
}

/// Why item `i` of a list breaks its schema, as [`check`] says it.
pub fn item_failure(i: usize, why: &str) -> String {
    format!("item {i}: {why}")
}

/// Why one item of the attribute's list breaks its schema.
pub fn check_item(kind: Kind, item: &Value) -> Option<String> {
    match kind {
        Kind::System => part(item),
        Kind::Input => message(item, false),
        Kind::Output => message(item, true),
    }
}

fn part(p: &Value) -> Option<String> {
    match p.get("type") {
        Some(Value::String(_)) if p.is_object() => None,
        _ => Some("a part must be an object with a string `type`".to_string()),
    }
}

fn message(m: &Value, output: bool) -> Option<String> {
    let Some(o) = m.as_object() else { return Some("a message must be an object".to_string()) };
    if !o.get("role").is_some_and(Value::is_string) {
        return Some("a message needs a string `role`".to_string());
    }
    let Some(parts) = o.get("parts").and_then(Value::as_array) else { return Some("a message needs a `parts` list".to_string()) };
    if let Some((k, why)) = parts.iter().enumerate().find_map(|(k, p)| part(p).map(|w| (k, w))) {
        return Some(format!("part {k}: {why}"));
    }
    if o.get("name").is_some_and(|n| !n.is_string() && !n.is_null()) {
        return Some("`name` must be a string or null".to_string());
    }
    if output && !o.get("finish_reason").is_some_and(Value::is_string) {
        return Some("an output message needs a string `finish_reason`".to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_rules() {
        let read = |text: &str| super::super::attrs::json_in(&json!(text));
        assert_eq!(check(Kind::Input, &read("[{\"role\":\"user\",\"parts\":[{\"type\":\"text\"}]}]")), None);
        assert!(check(Kind::Input, &read("not json")).is_some());
        assert!(check(Kind::Input, &json!([{"role": "user"}])).is_some());
        assert!(check(Kind::Output, &json!([{"role": "assistant", "parts": []}])).is_some());
        assert_eq!(check(Kind::Output, &json!([{"role": "assistant", "parts": [], "finish_reason": "stop"}])), None);
        assert!(check(Kind::System, &json!([{"content": "x"}])).is_some());
        assert!(check(Kind::Input, &json!([{"role": "user", "parts": [], "name": 3}])).is_some());
    }
}
