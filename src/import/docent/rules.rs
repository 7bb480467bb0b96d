//! What Docent's pydantic models accept, per generation.
//!
//! Each check returns the problems the library would reject, with paths
//! relative to the value checked; the importer decides their severity and
//! where they point. Unknown fields are never a problem: no Docent model
//! forbids extras. Field lists and types are those of
//! `docent.data_models` in docent-python 0.1.3a0 (older) and docent 0.1.88
//! (current).

use serde_json::{Map, Value};

use crate::import::pydantic_lax;
use crate::import::json_type;
use crate::json::Seg;

/// The two AgentRun generations; the shape of `transcripts` tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gen {
    /// `transcripts` keyed by name; run `metadata` required, with `scores`.
    Older,
    /// `transcripts` a list; `transcript_groups`; free-form metadata.
    Current,
}

impl Gen {
    pub fn library(self) -> &'static str {
        match self {
            Gen::Older => "docent-python 0.1.3a0",
            Gen::Current => "docent 0.1.88",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Gen::Older => "older",
            Gen::Current => "current",
        }
    }
}

/// A reason the library would reject the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub code: &'static str,
    pub message: String,
    /// Where, relative to the value checked.
    pub at: Vec<Seg>,
}

/// The roles `ChatMessage` is discriminated by, and the class each selects.
pub const ROLES: [(&str, &str); 4] =
    [("system", "SystemMessage"), ("user", "UserMessage"), ("assistant", "AssistantMessage"), ("tool", "ToolMessage")];

pub fn class_of(role: &str) -> Option<&'static str> {
    ROLES.iter().find(|(r, _)| *r == role).map(|(_, class)| *class)
}

/// How a container member looked, without reading what it holds.
pub enum Shape<'v> {
    Missing,
    Object(usize),
    List(usize),
    Other(&'v Value),
}

#[derive(Default)]
struct Issues(Vec<Issue>);

impl Issues {
    fn push(&mut self, code: &'static str, message: String, at: Vec<Seg>) {
        self.0.push(Issue { code, message, at });
    }

    /// An optional string field; `nullable` when the model allows None.
    fn string(&mut self, o: &Map<String, Value>, key: &str, nullable: bool, at: &[Seg]) {
        match o.get(key) {
            None | Some(Value::String(_)) => {}
            Some(Value::Null) if nullable => {}
            Some(other) => {
                let want = if nullable { "a string or null" } else { "a string" };
                self.push("field-type", format!("expected `{key}` to be {want}, found {}", json_type(other)), join(at, key));
            }
        }
    }

    /// A metadata field that must be an object when present (null rejected).
    fn metadata_object(&mut self, o: &Map<String, Value>, what: &str, at: &[Seg]) {
        if let Some(m) = o.get("metadata").filter(|m| !m.is_object()) {
            self.push("metadata-type", format!("expected {what} `metadata` to be an object, found {}", json_type(m)), join(at, "metadata"));
        }
    }

    /// `allow_fields_without_descriptions`, the one declared field of the older `BaseMetadata`.
    fn metadata_flag(&mut self, m: &Map<String, Value>, at: &[Seg]) {
        if let Some(v) = m.get("allow_fields_without_descriptions").filter(|v| pydantic_lax::boolean(v).is_err()) {
            self.push(
                "field-type",
                format!("expected `allow_fields_without_descriptions` to be a boolean, found {}", describe(v)),
                join(at, "allow_fields_without_descriptions"),
            );
        }
    }

    fn datetime(&mut self, o: &Map<String, Value>, key: &str, at: &[Seg]) {
        if let Some(v) = o.get(key).filter(|v| !v.is_null() && pydantic_lax::datetime(v).is_err()) {
            self.push(
                "datetime-invalid",
                format!("expected `{key}` to be an ISO 8601 date-time or a unix timestamp, found {}", describe(v)),
                join(at, key),
            );
        }
    }
}

fn join(at: &[Seg], key: &str) -> Vec<Seg> {
    let mut v = at.to_vec();
    v.push(Seg::key(key));
    v
}

fn index(at: &[Seg], i: usize) -> Vec<Seg> {
    let mut v = at.to_vec();
    v.push(Seg::Index(i));
    v
}

/// A value for a message: short JSON for scalars, its type otherwise.
fn describe(v: &Value) -> String {
    match v {
        Value::String(s) if s.chars().count() <= 40 => format!("{}", Value::String(s.clone())),
        Value::Number(_) | Value::Bool(_) | Value::Null => v.to_string(),
        _ => json_type(v).to_string(),
    }
}

/// The run's own fields; `fields` holds every member but `transcripts`.
pub fn check_run(fields: &Map<String, Value>, transcripts: &Shape, gen: Gen) -> Vec<Issue> {
    let mut v = Issues::default();
    v.string(fields, "id", false, &[]);
    v.string(fields, "name", true, &[]);
    v.string(fields, "description", true, &[]);
    let at = vec![Seg::key("transcripts")];
    match (transcripts, gen) {
        (Shape::Missing, _) => {
            let hint = if fields.contains_key("role") {
                " (this looks like a single chat message, not an AgentRun)"
            } else if fields.contains_key("messages") {
                " (Docent nests messages as {\"transcripts\": [{\"messages\": [...]}]})"
            } else {
                ""
            };
            v.push(
                "missing-transcripts",
                format!("an AgentRun needs `transcripts`, a list of transcripts (older Docent: an object keyed by name); this object has none{hint}"),
                Vec::new(),
            )
        }
        (Shape::Object(0) | Shape::List(0), _) => {
            v.push("empty-transcripts", "an AgentRun must have at least one transcript".to_string(), at)
        }
        (Shape::Object(_), _) | (Shape::List(_), Gen::Current) => {}
        (Shape::List(_), Gen::Older) => v.push(
            "transcripts-type",
            format!("expected `transcripts` to be an object keyed by transcript name ({}), found a list", gen.library()),
            at,
        ),
        (Shape::Other(other), _) => v.push(
            "transcripts-type",
            format!("expected `transcripts` to be a list of transcripts (or, older Docent, an object keyed by name), found {}", json_type(other)),
            at,
        ),
    }
    match gen {
        Gen::Older => match fields.get("metadata") {
            None => v.push(
                "missing-metadata",
                "the older AgentRun requires `metadata` (a BaseAgentRunMetadata object with `scores`)".to_string(),
                Vec::new(),
            ),
            Some(Value::Object(m)) => older_run_metadata(&mut v, m),
            Some(other) => v.push(
                "metadata-type",
                format!("expected run `metadata` to be an object with `scores`, found {}", json_type(other)),
                vec![Seg::key("metadata")],
            ),
        },
        Gen::Current => {
            v.metadata_object(fields, "run", &[]);
            transcript_groups(&mut v, fields.get("transcript_groups"));
        }
    }
    v.0
}

/// BaseAgentRunMetadata: `scores: dict[str, int | float | bool | None]` required, extras allowed.
fn older_run_metadata(v: &mut Issues, m: &Map<String, Value>) {
    let at = [Seg::key("metadata")];
    v.metadata_flag(m, &at);
    match m.get("scores") {
        None => v.push(
            "missing-scores",
            "the older run `metadata` requires `scores`, an object of score name → number, boolean or null".to_string(),
            at.to_vec(),
        ),
        Some(Value::Object(scores)) => {
            for (name, value) in scores.iter().filter(|(_, value)| !pydantic_lax::is_int_float_bool_or_none(value)) {
                v.push(
                    "score-type",
                    format!("expected score `{name}` to be a number, a boolean or null, found {}", describe(value)),
                    vec![Seg::key("metadata"), Seg::key("scores"), Seg::key(name)],
                );
            }
        }
        Some(other) => v.push(
            "scores-type",
            format!("expected `metadata.scores` to be an object of score name → value, found {}", json_type(other)),
            join(&at, "scores"),
        ),
    }
}

/// `transcript_groups: list[TranscriptGroup]` (an object of groups is accepted too).
fn transcript_groups(v: &mut Issues, groups: Option<&Value>) {
    let at = [Seg::key("transcript_groups")];
    match groups {
        None => {}
        Some(Value::Array(items)) => {
            for (i, g) in items.iter().enumerate() {
                transcript_group(v, g, &index(&at, i));
            }
        }
        Some(Value::Object(m)) => {
            for (k, g) in m {
                transcript_group(v, g, &join(&at, k));
            }
        }
        Some(other) => v.push(
            "field-type",
            format!("expected `transcript_groups` to be a list of transcript groups, found {}", json_type(other)),
            at.to_vec(),
        ),
    }
}

fn transcript_group(v: &mut Issues, g: &Value, at: &[Seg]) {
    let Some(o) = g.as_object() else {
        v.push("transcript-group-not-object", format!("expected a transcript group object, found {}", json_type(g)), at.to_vec());
        return;
    };
    v.string(o, "id", false, at);
    for key in ["name", "description", "agent_run_id", "parent_transcript_group_id"] {
        v.string(o, key, true, at);
    }
    v.datetime(o, "created_at", at);
    v.metadata_object(o, "transcript group", at);
}

/// A transcript's own fields; `fields` holds every member but `messages`.
pub fn check_transcript(fields: &Map<String, Value>, messages: &Shape, gen: Gen) -> Vec<Issue> {
    let mut v = Issues::default();
    v.string(fields, "id", false, &[]);
    v.string(fields, "name", true, &[]);
    v.string(fields, "description", true, &[]);
    match messages {
        Shape::Missing => v.push("missing-messages", "a transcript needs a `messages` list".to_string(), Vec::new()),
        Shape::List(_) => {}
        Shape::Object(_) => {
            v.push("messages-type", "expected `messages` to be a list of messages, found an object".to_string(), vec![Seg::key("messages")])
        }
        Shape::Other(other) => v.push(
            "messages-type",
            format!("expected `messages` to be a list of messages, found {}", json_type(other)),
            vec![Seg::key("messages")],
        ),
    }
    match gen {
        Gen::Older => match fields.get("metadata") {
            Some(Value::Object(m)) => v.metadata_flag(m, &[Seg::key("metadata")]),
            _ => v.metadata_object(fields, "transcript", &[]),
        },
        Gen::Current => {
            v.string(fields, "transcript_group_id", true, &[]);
            v.datetime(fields, "created_at", &[]);
            v.metadata_object(fields, "transcript", &[]);
        }
    }
    v.0
}

/// One `ChatMessage`, discriminated by `role`.
pub fn check_message(m: &Value, gen: Gen) -> Vec<Issue> {
    let mut v = Issues::default();
    let Some(o) = m.as_object() else {
        v.push("message-not-object", format!("expected a chat message object, found {}", json_type(m)), Vec::new());
        return v.0;
    };
    let role = match o.get("role") {
        None => {
            v.push("missing-role", "message has no `role`; Docent needs one of system, user, assistant, tool".to_string(), Vec::new());
            return v.0;
        }
        Some(Value::String(r)) if class_of(r).is_some() => r.as_str(),
        Some(other) => {
            v.push(
                "unknown-role",
                format!("unknown role {other}; Docent accepts only \"system\", \"user\", \"assistant\" and \"tool\""),
                vec![Seg::key("role")],
            );
            return v.0;
        }
    };
    v.string(o, "id", true, &[]);
    match o.get("content") {
        None => v.push("missing-content", "message has no `content` (a string or a list of content parts)".to_string(), Vec::new()),
        Some(Value::String(_)) => {}
        Some(Value::Array(parts)) => {
            for (i, p) in parts.iter().enumerate() {
                content_part(&mut v, p, &[Seg::key("content"), Seg::Index(i)], gen);
            }
        }
        Some(other) => v.push(
            "content-type",
            format!("expected `content` to be a string or a list of content parts, found {}", json_type(other)),
            vec![Seg::key("content")],
        ),
    }
    if gen == Gen::Current {
        if let Some(meta) = o.get("metadata").filter(|m| !m.is_object() && !m.is_null()) {
            v.push("metadata-type", format!("expected message `metadata` to be an object or null, found {}", json_type(meta)), vec![Seg::key("metadata")]);
        }
    }
    match role {
        "user" => match o.get("tool_call_id") {
            None | Some(Value::Null) => {}
            Some(Value::Array(ids)) => {
                for (i, id) in ids.iter().enumerate().filter(|(_, id)| !id.is_string()) {
                    v.push(
                        "field-type",
                        format!("expected each user `tool_call_id` to be a string, found {}", json_type(id)),
                        vec![Seg::key("tool_call_id"), Seg::Index(i)],
                    );
                }
            }
            Some(other) => v.push(
                "field-type",
                format!("expected a user message's `tool_call_id` to be a list of call ids or null, found {}", json_type(other)),
                vec![Seg::key("tool_call_id")],
            ),
        },
        "assistant" => {
            v.string(o, "model", true, &[]);
            match o.get("tool_calls") {
                None | Some(Value::Null) => {}
                Some(Value::Array(calls)) => {
                    for (i, c) in calls.iter().enumerate() {
                        tool_call(&mut v, c, &[Seg::key("tool_calls"), Seg::Index(i)], gen);
                    }
                }
                Some(other) => v.push(
                    "tool-calls-type",
                    format!("expected `tool_calls` to be a list of tool calls or null, found {}", json_type(other)),
                    vec![Seg::key("tool_calls")],
                ),
            }
        }
        "tool" => {
            v.string(o, "tool_call_id", true, &[]);
            v.string(o, "function", true, &[]);
            if let Some(e) = o.get("error").filter(|e| !e.is_object() && !e.is_null()) {
                v.push("field-type", format!("expected `error` to be an object or null, found {}", json_type(e)), vec![Seg::key("error")]);
            }
        }
        _ => {}
    }
    v.0
}

/// `ContentText | ContentReasoning`, discriminated by `type`.
fn content_part(v: &mut Issues, p: &Value, at: &[Seg], gen: Gen) {
    let Some(o) = p.as_object() else {
        v.push(
            "content-part-invalid",
            format!("expected a content part object such as {{\"type\": \"text\", \"text\": …}}, found {}", json_type(p)),
            at.to_vec(),
        );
        return;
    };
    let invalid = |v: &mut Issues, key: &str, want: &str, found: Option<&Value>| {
        let found = found.map(describe).unwrap_or_else(|| "nothing".to_string());
        v.push("content-part-invalid", format!("expected the part's `{key}` to be {want}, found {found}"), join(at, key));
    };
    let string = |v: &mut Issues, key: &str, nullable: bool| match o.get(key) {
        Some(Value::String(_)) => {}
        None if nullable => {}
        Some(Value::Null) if nullable => {}
        found => invalid(v, key, if nullable { "a string or null" } else { "a string" }, found),
    };
    match o.get("type") {
        Some(Value::String(t)) if t == "text" => {
            string(v, "text", false);
            if let Some(r) = o.get("refusal").filter(|r| !r.is_null() && pydantic_lax::boolean(r).is_err()) {
                invalid(v, "refusal", "a boolean or null", Some(r));
            }
        }
        Some(Value::String(t)) if t == "reasoning" => {
            string(v, "reasoning", false);
            string(v, "signature", true);
            if let Some(r) = o.get("redacted").filter(|r| pydantic_lax::boolean(r).is_err()) {
                invalid(v, "redacted", "a boolean", Some(r));
            }
            if gen == Gen::Current {
                string(v, "summary", true);
            }
        }
        None => v.push(
            "content-part-type",
            "content part has no `type`; Docent accepts \"text\" and \"reasoning\" parts".to_string(),
            at.to_vec(),
        ),
        Some(other) => v.push(
            "content-part-type",
            format!("content part type {other} is not one Docent accepts (\"text\" or \"reasoning\")"),
            join(at, "type"),
        ),
    }
}

/// `ToolCall`, a dataclass: `id`, `function` (the name, a string) and
/// `arguments` (an object) are required; the older generation requires `type` too.
fn tool_call(v: &mut Issues, c: &Value, at: &[Seg], gen: Gen) {
    let Some(o) = c.as_object() else {
        v.push("tool-call-not-object", format!("expected a tool call object, found {}", json_type(c)), at.to_vec());
        return;
    };
    match o.get("id") {
        None => v.push("tool-call-missing-id", "tool call has no `id`; Docent requires one".to_string(), at.to_vec()),
        Some(Value::String(_)) => {}
        Some(other) => v.push("field-type", format!("expected the tool call `id` to be a string, found {}", json_type(other)), join(at, "id")),
    }
    match o.get("function") {
        None => v.push(
            "tool-call-missing-function",
            "tool call has no `function`; Docent requires the function name as a string".to_string(),
            at.to_vec(),
        ),
        Some(Value::String(_)) => {}
        Some(other) => {
            let hint = if other.get("name").is_some() {
                " (this is OpenAI's `{name, arguments}` object; Docent wants the name in `function` and the arguments in `arguments`)"
            } else {
                ""
            };
            v.push(
                "field-type",
                format!("expected the tool call `function` to be the function name, a string, found {}{hint}", json_type(other)),
                join(at, "function"),
            )
        }
    }
    match o.get("arguments") {
        None => v.push("tool-call-missing-arguments", "tool call has no `arguments` object".to_string(), at.to_vec()),
        Some(Value::Object(_)) => {}
        Some(other) => {
            let hint = if other.is_string() { " (a JSON-encoded string, as OpenAI writes it, is not decoded)" } else { "" };
            v.push(
                "arguments-type",
                format!("expected the tool call `arguments` to be an object of named arguments, found {}{hint}", json_type(other)),
                join(at, "arguments"),
            )
        }
    }
    match o.get("type") {
        None if gen == Gen::Older => v.push(
            "tool-call-missing-type",
            format!("tool call has no `type`; {} requires it (\"function\" or null)", gen.library()),
            at.to_vec(),
        ),
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "function" => {}
        Some(other) => v.push("field-type", format!("expected the tool call `type` to be \"function\" or null, found {}", describe(other)), join(at, "type")),
    }
    v.string(o, "parse_error", true, at);
    if gen == Gen::Current {
        v.string(o, "google_thought_signature", true, at);
    }
    view(v, o.get("view"), &join(at, "view"));
}

/// `ToolCallContent`: `format` "text" or "markdown" and `content` required, `title` optional.
fn view(v: &mut Issues, view: Option<&Value>, at: &[Seg]) {
    let bad = |v: &mut Issues, message: String, at: Vec<Seg>| v.push("tool-call-view-invalid", message, at);
    let o = match view {
        None | Some(Value::Null) => return,
        Some(Value::Object(o)) => o,
        Some(other) => return bad(v, format!("expected the tool call `view` to be an object or null, found {}", json_type(other)), at.to_vec()),
    };
    match o.get("format") {
        Some(Value::String(f)) if f == "text" || f == "markdown" => {}
        found => bad(
            v,
            format!("expected `view.format` to be \"text\" or \"markdown\", found {}", found.map(describe).unwrap_or_else(|| "nothing".to_string())),
            join(at, "format"),
        ),
    }
    if !o.get("content").is_some_and(Value::is_string) {
        let found = o.get("content").map(json_type).unwrap_or("nothing");
        bad(v, format!("expected `view.content` to be a string, found {found}"), join(at, "content"));
    }
    if let Some(t) = o.get("title").filter(|t| !t.is_string() && !t.is_null()) {
        bad(v, format!("expected `view.title` to be a string or null, found {}", json_type(t)), join(at, "title"));
    }
}
