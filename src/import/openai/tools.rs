//! A `{tools: [...]}` event: each tool's `inputSchema` checked as Invariant
//! converts it into its parameter list.


use serde_json::{Map, Value};

use super::json_type;
use crate::diagnostic::Severity::{Error, Warning};
use crate::json::Seg;
use crate::model::ToolDefinition;

use super::{describe_empty, reads_as_empty_trace, Ctx, Reader};

impl<'r, 'a> Reader<'r, 'a> {
    /// A `{tools: [...]}` event, checked as Invariant converts each tool's
    /// `inputSchema` into its parameter list.
    pub(super) fn tools(&mut self, o: &Map<String, Value>, ctx: &Ctx) -> Vec<ToolDefinition> {
        let list = match o.get("tools") {
            Some(Value::Array(list)) => list,
            Some(v) if reads_as_empty_trace(v) => {
                let message = format!("expected `tools` to be a list of tool definitions, found {}; Invariant reads it as no tools", describe_empty(v));
                self.d(ctx, Warning, "tools-empty-non-list", message, &[Seg::key("tools")]);
                return Vec::new();
            }
            other => {
                let found = other.map(json_type).unwrap_or("nothing");
                self.d(ctx, Error, "tools-not-list", format!("expected `tools` to be a list of tool definitions, found {found}"), &[Seg::key("tools")]);
                return Vec::new();
            }
        };
        let mut tools = Vec::new();
        for (i, t) in list.iter().enumerate() {
            let at = [Seg::key("tools"), Seg::Index(i)];
            let Some(t) = t.as_object() else {
                self.d(ctx, Error, "tool-not-object", format!("expected a tool definition object, found {}", json_type(t)), &at);
                continue;
            };
            let name = match t.get("name") {
                Some(Value::String(s)) => s.clone(),
                _ => {
                    self.d(ctx, Error, "tool-missing-name", "tool definition has no string `name`".to_string(), &at);
                    String::new()
                }
            };
            self.tool_fields(t, &name, ctx, &at);
            tools.push(ToolDefinition {
                name,
                description: t.get("description").and_then(Value::as_str).map(str::to_string),
                parameters: t.get("inputSchema").cloned(),
            });
        }
        tools
    }

    /// A tool's `inputSchema`, `description` and `metadata`.
    pub(super) fn tool_fields(&mut self, t: &Map<String, Value>, name: &str, ctx: &Ctx, at: &[Seg]) {
        let with = |extra: &[Seg]| -> Vec<Seg> { at.iter().cloned().chain(extra.iter().cloned()).collect() };
        match t.get("inputSchema") {
            Some(Value::Object(schema)) => {
                let mut problems = Vec::new();
                input_schema_problems(schema, &with(&[Seg::key("inputSchema")]), &mut problems);
                for (segs, why) in problems {
                    self.d(ctx, Error, "tool-schema-invalid", format!("tool {name:?}: {why}"), &segs);
                }
            }
            other => {
                let found = other.map(json_type).unwrap_or("nothing");
                self.d(ctx, Error, "tool-missing-input-schema", format!("tool {name:?} has no `inputSchema` object (found {found})"), at);
            }
        }
        if let Some(d) = t.get("description").filter(|d| !d.is_string() && !d.is_null()) {
            let message = format!("expected the `description` of tool {name:?} to be a string, found {}; Invariant converts it to text", json_type(d));
            self.d(ctx, Warning, "tool-description-type", message, &with(&[Seg::key("description")]));
        }
        match t.get("metadata") {
            None | Some(Value::Object(_)) => {}
            Some(m) => {
                let message = format!("expected the `metadata` of tool {name:?} to be an object, found {}", json_type(m));
                self.d(ctx, Error, "tool-metadata-type", message, &with(&[Seg::key("metadata")]));
            }
        }
        if let Some(s) = t.get("metadata").and_then(|m| m.get("server")).filter(|s| !s.is_string() && !s.is_null()) {
            let message = format!("expected `metadata.server` of tool {name:?} to be a string, found {}", json_type(s));
            self.d(ctx, Error, "tool-metadata-type", message, &with(&[Seg::key("metadata"), Seg::key("server")]));
        }
    }
}

/// JSON Schema types Invariant's `ToolParameter` holds.
const PARAMETER_TYPES: &[&str] = &["object", "array", "string", "number", "integer", "boolean"];

/// Type names Invariant maps onto [`PARAMETER_TYPES`].
const TYPE_ALIASES: &[(&str, &str)] =
    &[("int", "integer"), ("long", "integer"), ("float", "number"), ("bool", "boolean"), ("str", "string"), ("dict", "object"), ("list", "array")];

type Problems = Vec<(Vec<Seg>, String)>;

/// What Invariant's `parse_tool_param` fails on in a tool's `inputSchema`
/// (its `properties`, each converted with the schema's `required`).
fn input_schema_problems(schema: &Map<String, Value>, at: &[Seg], out: &mut Problems) {
    properties_problems(schema, &own_required(schema, at), at, out);
}

/// A schema's `required` as Invariant reads it (`[]` when absent), with where it is.
type Required = (Value, Vec<Seg>);

fn own_required(schema: &Map<String, Value>, at: &[Seg]) -> Required {
    let value = schema.get("required").cloned().unwrap_or(Value::Array(Vec::new()));
    (value, at.iter().cloned().chain([Seg::key("required")]).collect())
}

/// The `properties` of an object schema; `required` is what each property is
/// looked up in (Python `None` = JSON null: each property's own `required`).
fn properties_problems(schema: &Map<String, Value>, required: &Required, at: &[Seg], out: &mut Problems) {
    let at_props: Vec<Seg> = at.iter().cloned().chain([Seg::key("properties")]).collect();
    match schema.get("properties") {
        None => {}
        Some(Value::Object(props)) => {
            for (key, sub) in props {
                let at_sub: Vec<Seg> = at_props.iter().cloned().chain([Seg::Key(key.clone())]).collect();
                parameter_problems(sub, required, &at_sub, out);
            }
        }
        Some(other) => out.push((at_props, format!("expected `properties` to be an object of parameter schemas, found {}", json_type(other)))),
    }
}

fn parameter_problems(schema: &Value, required: &Required, at: &[Seg], out: &mut Problems) {
    let Some(schema) = schema.as_object() else {
        out.push((at.to_vec(), format!("expected a parameter schema object, found {}", json_type(schema))));
        return;
    };
    let field = |k: &str| -> Vec<Seg> { at.iter().cloned().chain([Seg::key(k)]).collect() };
    let own_required = own_required(schema, at);
    let required = if required.0.is_null() { &own_required } else { required };
    if let Some(d) = schema.get("description").filter(|d| !d.is_string() && !d.is_null()) {
        out.push((field("description"), format!("expected a parameter's `description` to be a string, found {}", json_type(d))));
    }
    let declared = schema.get("type");
    let kind = match declared {
        None => Some("string"),
        Some(Value::String(t)) => Some(TYPE_ALIASES.iter().find(|(a, _)| a == t).map(|(_, to)| *to).unwrap_or(t.as_str())),
        Some(_) => None,
    };
    match (kind, declared) {
        (Some("object"), _) => properties_problems(schema, &own_required, at, out),
        (Some("array"), _) => {
            if let Some(items) = schema.get("items") {
                parameter_problems(items, &(Value::Array(Vec::new()), Vec::new()), &field("items"), out);
            }
        }
        (Some("string" | "number" | "integer" | "boolean"), _) => match schema.get("enum") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
            Some(other) => out.push((field("enum"), format!("expected `enum` to be a list of strings, found {}", describe_enum(other)))),
        },
        (_, Some(Value::Array(types))) => {
            if let Some(bad) = types.iter().find(|t| !t.as_str().is_some_and(|t| t == "null" || PARAMETER_TYPES.contains(&t))) {
                out.push((field("type"), format!("unsupported type {bad} in the `type` list; expected {} or \"null\"", PARAMETER_TYPES.join(", "))));
            }
        }
        (_, other) => {
            let shown = other.map(Value::to_string).unwrap_or_default();
            out.push((field("type"), format!("unsupported parameter type {shown}; expected one of {}", PARAMETER_TYPES.join(", "))));
            return;
        }
    }
    // Invariant tests `name in required`, which fails on null, booleans and numbers.
    let (required, required_at) = required;
    if !matches!(required, Value::Array(_) | Value::String(_) | Value::Object(_)) {
        let message = format!("expected `required` to be a list of parameter names, found {}", json_type(required));
        if !out.iter().any(|(at, m)| at == required_at && *m == message) {
            out.push((required_at.clone(), message));
        }
    }
}

fn describe_enum(v: &Value) -> String {
    match v {
        Value::Array(_) => "a list with non-string items".to_string(),
        other => json_type(other).to_string(),
    }
}
