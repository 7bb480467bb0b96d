//! GenAI messages and span attributes as the shared model: message bodies,
//! tool calls, tool results, and the typed facts (usage, model, duration).

use serde_json::{Map, Value};

use super::attrs::{count_of, json_in, str_of};
use super::messages::Msg;
use crate::import::chat;
use crate::import::facts::amount;
use crate::text::Text;
use crate::model::{Arguments, Content, ContentPart, Cost, EventFacts, Message, ToolCall, ToolResult, ToolStatus, Usage};

/// A message split into what the model shows as one message (text,
/// reasoning, images, tool calls) and the tool results it carries
/// (`tool_call_response` parts, each a result event of its own).
pub struct Converted {
    pub message: Option<Message>,
    pub results: Vec<ToolResult>,
}

/// `settled(id)`: the call `id` was answered already, so the caller shows
/// no result for it: such a result's content (a tool's whole output, on
/// every re-sent tool message) is not copied out to be dropped.
pub fn message(m: &Msg, settled: impl Fn(&str) -> bool) -> Converted {
    let mut parts = Vec::new();
    let mut calls = Vec::new();
    let mut results = Vec::new();
    let mut left_out = false;
    for p in &m.parts {
        let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
        let text = |k: &str| p.get(k).map(|c| c.as_str().map(str::to_string).unwrap_or_else(|| c.to_string()));
        match kind {
            "text" => parts.push(ContentPart::Text(text("content").unwrap_or_default().into())),
            "reasoning" | "thinking" => parts.push(ContentPart::Reasoning(text("content").unwrap_or_default().into())),
            "uri" | "image_url" if p.get("modality").and_then(Value::as_str).is_none_or(|m| m == "image") && p.get("uri").is_some_and(Value::is_string) => {
                parts.push(ContentPart::Image { url: text("uri").unwrap_or_default().into() })
            }
            "blob" if p.get("modality").and_then(Value::as_str) == Some("image") => {
                let mime = str_of_value(p, "mime_type").unwrap_or("image/*");
                parts.push(ContentPart::Image { url: format!("data:{mime};base64,{}", text("content").unwrap_or_default()).into() })
            }
            "tool_call" => calls.push(ToolCall {
                id: id_of(p),
                function: str_of_value(p, "name").unwrap_or_default().to_string(),
                arguments: chat::arguments(p.get("arguments")),
                result: None,
            }),
            "tool_call_response" if p.get("id").and_then(Value::as_str).is_some_and(&settled) => left_out = true,
            "tool_call_response" => results.push(ToolResult {
                call_id: id_of(p),
                content: chat::content_value(p.get("response")),
                status: ToolStatus::Unknown,
                call: None,
                implicit_link: false,
            }),
            _ => parts.push(ContentPart::Other(p.clone())),
        }
    }
    let content = match parts.as_slice() {
        [] => Content::None,
        [ContentPart::Text(t)] => Content::Text(t.clone()),
        _ => Content::Parts(parts),
    };
    let empty = content == Content::None && calls.is_empty();
    let message = (!empty || (results.is_empty() && !left_out)).then(|| Message { role: m.role.clone(), content, tool_calls: calls });
    Converted { message, results }
}

fn str_of_value<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn id_of(p: &Value) -> Option<String> {
    match p.get("id")? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// The attributes [`facts`] reads: per fact, its keys in order of preference.
const USAGE_KEYS: [&[&str]; 6] = [
    &["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"],
    &["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"],
    &["gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens", "llm.token_count.prompt_details.cache_read"],
    &["gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens", "llm.token_count.prompt_details.cache_write"],
    &["gen_ai.usage.reasoning.output_tokens", "llm.token_count.completion_details.reasoning"],
    &["gen_ai.usage.total_tokens", "llm.token_count.total"],
];
const MODEL_KEYS: [&str; 3] = ["gen_ai.response.model", "gen_ai.request.model", "llm.model_name"];
const COST_KEYS: [&str; 3] = ["llm.cost.total", "llm.cost.prompt", "llm.cost.completion"];

/// The values of the attributes [`facts`] reads, found in one pass over a
/// span's attributes: looking each of its 22 keys up hashed it (SipHash),
/// 1.7% of an otel parse. `Map` keys are unique: what a lookup finds.
struct FactAttrs<'a> {
    usage: [[Option<&'a Value>; 3]; 6],
    model: [Option<&'a Value>; 3],
    cost: [Option<&'a Value>; 3],
}

impl<'a> FactAttrs<'a> {
    fn of(a: &'a Map<String, Value>) -> FactAttrs<'a> {
        let mut f = FactAttrs { usage: [[None; 3]; 6], model: [None; 3], cost: [None; 3] };
        for (k, v) in a {
            // Every key read starts so: most attributes are passed over at once.
            if !k.starts_with("gen_ai.") && !k.starts_with("llm.") {
                continue;
            }
            let slot = USAGE_KEYS
                .iter()
                .zip(f.usage.iter_mut())
                .find_map(|(keys, slots)| keys.iter().position(|key| key == k).and_then(|i| slots.get_mut(i)))
                .or_else(|| MODEL_KEYS.iter().position(|key| key == k).and_then(|i| f.model.get_mut(i)))
                .or_else(|| COST_KEYS.iter().position(|key| key == k).and_then(|i| f.cost.get_mut(i)));
            if let Some(slot) = slot {
                *slot = Some(v);
            }
        }
        f
    }
}

/// A span's facts: token usage (GenAI `gen_ai.usage.*`, its deprecated
/// `prompt_tokens`/`completion_tokens`, OpenInference `llm.token_count.*`),
/// the model (`gen_ai.response.model`, else `gen_ai.request.model`, else
/// `llm.model_name`), the cost (see [`cost`]), and the duration.
pub fn facts(a: &Map<String, Value>, duration_ms: Option<f64>) -> Option<Box<EventFacts>> {
    let found = FactAttrs::of(a);
    let [input, output, cache_read, cache_creation, reasoning, total] = found.usage.map(|values| values.iter().flatten().find_map(|v| count_of(v)));
    let usage = [input, output, cache_read, cache_creation, reasoning, total].iter().any(Option::is_some).then(|| {
        let (i, o) = (input.unwrap_or(0), output.unwrap_or(0));
        Usage {
            input_tokens: i,
            output_tokens: o,
            cache_read_input_tokens: cache_read.unwrap_or(0),
            cache_creation_input_tokens: cache_creation.unwrap_or(0),
            reasoning_output_tokens: reasoning.unwrap_or(0),
            total_tokens: total.unwrap_or_else(|| i.saturating_add(o)),
        }
    });
    let model = found.model.iter().flatten().find_map(|v| v.as_str()).map(str::to_string);
    let [total_cost, prompt, completion] = found.cost;
    let facts = EventFacts { usage, cost: cost_of(total_cost, prompt, completion), duration_ms, model, handoff: None };
    (facts != EventFacts::default()).then(|| Box::new(facts))
}

/// OpenInference's cost attributes, in USD (openinference-semantic-conventions
/// 0.1.42): `llm.cost.total` ("prompt + completion"), `llm.cost.prompt`,
/// `llm.cost.completion`. Their `*_details.*` break the prompt and completion
/// costs down, so they are not added again. The GenAI conventions
/// (opentelemetry-semantic-conventions 0.66b2) define no cost attribute.
fn cost_of(total: Option<&Value>, prompt: Option<&Value>, completion: Option<&Value>) -> Option<Cost> {
    Cost::from_parts(amount(total), amount(prompt), amount(completion), &[])
}

/// The attribute holding a tool span's result.
pub const TOOL_RESULT: &str = "gen_ai.tool.call.result";

/// What a tool span says about its call: name, call id, arguments, result
/// (as the result event shows it).
pub struct ToolSpan<'a> {
    pub name: String,
    pub call_id: Option<String>,
    /// The arguments attribute, read ([`ToolSpan::arguments`]) only when
    /// the span makes its own call event: a call a message made already
    /// (nearly every tool span's) keeps that message's arguments, and
    /// parsing the span's JSON text for nothing was 2% of an otel parse.
    arguments: Option<&'a Value>,
    pub result: Option<Content>,
}

impl ToolSpan<'_> {
    /// The call's arguments, as a call event shows them.
    pub fn arguments(&self) -> Arguments {
        chat::arguments(self.arguments)
    }
}

/// A tool span (`gen_ai.operation.name` = `execute_tool`, or OpenInference
/// kind `TOOL`), else None. `result_text`: its `gen_ai.tool.call.result`
/// string when a fast reader left it in the source (`attrs` holds `null`).
pub fn tool_span<'a>(a: &'a Map<String, Value>, span_name: &str, result_text: Option<&Text>) -> Option<ToolSpan<'a>> {
    let genai = str_of(a, "gen_ai.operation.name") == Some("execute_tool");
    let oi = str_of(a, "openinference.span.kind").is_some_and(|k| k.eq_ignore_ascii_case("TOOL"));
    if !genai && !oi {
        return None;
    }
    let name = str_of(a, "gen_ai.tool.name").or_else(|| str_of(a, "tool.name")).unwrap_or(span_name).to_string();
    let call_id = ["gen_ai.tool.call.id", "tool_call.id", "tool.id"].iter().find_map(|k| a.get(*k)).and_then(|v| match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    });
    let args = ["gen_ai.tool.call.arguments", "input.value", "input"].iter().find_map(|k| a.get(*k));
    let result = match result_text {
        Some(t) => Some(Content::Text(t.clone())),
        None => [TOOL_RESULT, "output.value", "output"].iter().find_map(|k| a.get(*k)).map(|v| chat::content_value(Some(&json_in_text(v)))),
    };
    Some(ToolSpan { name, call_id, arguments: args, result })
}

/// A result kept as the text it was, unless it is structured already.
fn json_in_text(v: &Value) -> Value {
    match v {
        Value::String(_) => v.clone(),
        other => json_in(other),
    }
}
