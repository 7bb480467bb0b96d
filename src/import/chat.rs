//! Chat messages in the shapes observability tools record a model call's
//! input and output in: OpenAI chat (`{role, content, tool_calls,
//! tool_call_id}`), OpenAI Responses items (`function_call`,
//! `function_call_output`, `message`, `reasoning`), LangChain messages
//! (serialised `{type: human|ai|tool, content, tool_calls}` and the
//! `{lc, type: constructor, id, kwargs}` form), the GenAI conventions'
//! parts (`{role, parts: [{type: text|tool_call|tool_call_response}]}`),
//! Gemini contents (`{role: model, parts: [{text}|{function_call}]}`) and
//! Anthropic blocks (`tool_use`, `tool_result`). Langfuse and LangSmith
//! both store whatever the instrumented library sent, so both read them
//! here; OpenTelemetry reads its own message attributes (`otel::messages`)
//! and shares the rest: tool-call arguments, tool outputs, and showing a
//! re-sent history once ([`already_shown`]).
//!
//! A value that is none of these is not a conversation: [`messages`]
//! returns None and the caller keeps the value as it is.

use std::hash::{Hash, Hasher};

use serde_json::{Map, Value};

use crate::model::{Arguments, Content, ContentPart, ToolCall, ToolDefinition};

/// One message as read, before it becomes an event.
#[derive(Debug, Clone, Default)]
pub struct Msg {
    pub role: String,
    pub parts: Vec<ContentPart>,
    pub calls: Vec<ToolCall>,
    /// Tool results the message carries (a `tool` message, a
    /// `function_call_output` item, a `tool_result` block).
    pub results: Vec<Res>,
    /// A tool declaration sent as a message (Langfuse's LangChain handler
    /// appends `{role: tool, content: {type: function, function}}` to a
    /// call's input): not part of the conversation.
    pub definition: Option<ToolDefinition>,
}

/// A tool result inside a message.
#[derive(Debug, Clone)]
pub struct Res {
    pub call_id: Option<String>,
    /// The function it answers, when the shape names it instead of an id (Gemini).
    pub name: Option<String>,
    pub content: Content,
}

impl Msg {
    pub fn content(&self) -> Content {
        match self.parts.as_slice() {
            [] => Content::None,
            [ContentPart::Text(t)] => Content::Text(t.clone()),
            _ => Content::Parts(self.parts.clone()),
        }
    }

    /// Identity of the message for spotting it again when a later call
    /// re-sends it: role, text, call ids and names, result ids and texts.
    pub fn fingerprint(&self) -> u64 {
        let mut h = fingerprint_hasher();
        self.role.hash(&mut h);
        match self.parts.as_slice() {
            [ContentPart::Text(t)] => hash_text(t, &mut h),
            _ => self.content().text().hash(&mut h),
        }
        for c in &self.calls {
            (&c.id, &c.function).hash(&mut h);
        }
        for r in &self.results {
            r.call_id.hash(&mut h);
            match &r.content {
                Content::Text(t) => hash_text(t, &mut h),
                other => other.text().hash(&mut h),
            }
        }
        h.finish()
    }
}

/// Hashes a text as its `String` would hash (`Content::text`), decoded once
/// into a buffer of its size, or not copied at all when it needs no decoding
/// (copied piece by piece, the re-sent tool outputs were a twentieth of a
/// Langfuse parse).
fn hash_text(t: &crate::model::Text, h: &mut impl Hasher) {
    (*t.decoded()).hash(h);
}

/// The messages of a model call's input or output, or None when `v` is
/// not a conversation. `default_role` is the role of plain text (`user`
/// for an input, `assistant` for an output).
pub fn messages(v: &Value, default_role: &str) -> Option<Vec<Msg>> {
    match v {
        Value::String(s) if !s.is_empty() => Some(vec![Msg { role: default_role.to_string(), parts: vec![ContentPart::Text(s.as_str().into())], ..Msg::default() }]),
        Value::Array(items) => list(items),
        Value::Object(o) => object(o, default_role),
        _ => None,
    }
}

/// A request's system prompt outside its messages, which goes before them.
pub fn system_messages(o: &Map<String, Value>) -> Vec<Msg> {
    let text = |k: &str| match o.get(k) {
        Some(Value::String(s)) => Some(Msg { role: "system".to_string(), parts: vec![ContentPart::Text(s.as_str().into())], ..Msg::default() }),
        _ => None,
    };
    ["system", "instructions", "system_instruction"].into_iter().filter_map(text).collect()
}

/// A list is a conversation when every item is a message (LangChain's
/// batch form, a list of lists, takes the first list).
fn list(items: &[Value]) -> Option<Vec<Msg>> {
    if let [Value::Array(first)] = items {
        return list(first);
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(message(item.as_object()?)?);
    }
    (!out.is_empty()).then_some(out)
}

/// An object that holds a conversation, or is one message.
fn object(o: &Map<String, Value>, default_role: &str) -> Option<Vec<Msg>> {
    if let Some(m) = message(o) {
        return Some(vec![m]);
    }
    // Request and state objects: `messages`, Gemini `contents`, Responses `input`.
    for key in ["messages", "contents", "input"] {
        if let Some(found) = o.get(key).and_then(|v| match v {
            Value::Array(items) => list(items),
            _ => None,
        }) {
            let mut out = system_messages(o);
            out.extend(found);
            return Some(out);
        }
    }
    // Responses: `choices[].message` (chat), `output[]` (Responses API),
    // Gemini `content` / `candidates[].content`, LangChain `generations`.
    if let Some(Value::Array(choices)) = o.get("choices") {
        let msgs: Vec<Msg> = choices.iter().filter_map(|c| c.get("message").or_else(|| c.get("delta")).and_then(Value::as_object)).filter_map(message).collect();
        return (!msgs.is_empty()).then_some(msgs);
    }
    if let Some(Value::Array(items)) = o.get("output") {
        return list(items);
    }
    if let Some(Value::Object(c)) = o.get("content") {
        return message(c).map(|m| vec![m]);
    }
    if let Some(Value::Array(cands)) = o.get("candidates") {
        let msgs: Vec<Msg> = cands.iter().filter_map(|c| c.get("content").and_then(Value::as_object)).filter_map(message).collect();
        return (!msgs.is_empty()).then_some(msgs);
    }
    if let Some(Value::Array(gens)) = o.get("generations") {
        let first = match gens.first() {
            Some(Value::Array(inner)) => inner.as_slice(),
            _ => gens.as_slice(),
        };
        let msgs: Vec<Msg> = first.iter().filter_map(|g| match g.get("message").and_then(Value::as_object) {
            Some(m) => message(m),
            None => g.get("text").and_then(Value::as_str).map(|t| text_msg(default_role, t)),
        }).collect();
        return (!msgs.is_empty()).then_some(msgs);
    }
    None
}

fn text_msg(role: &str, t: &str) -> Msg {
    Msg { role: role.to_string(), parts: vec![ContentPart::Text(t.into())], ..Msg::default() }
}

/// LangChain's message types as chat roles.
fn langchain_role(t: &str) -> Option<&'static str> {
    Some(match t {
        "human" | "HumanMessage" | "HumanMessageChunk" => "user",
        "ai" | "AIMessage" | "AIMessageChunk" => "assistant",
        "system" | "SystemMessage" => "system",
        "tool" | "ToolMessage" => "tool",
        "function" | "FunctionMessage" => "function",
        "chat" | "ChatMessage" => "user",
        _ => return None,
    })
}

/// One message, or None when `o` is not one.
pub fn message(o: &Map<String, Value>) -> Option<Msg> {
    // LangChain's serialisable form: {lc: 1, type: constructor, id: [..., "HumanMessage"], kwargs}.
    if o.get("type").and_then(Value::as_str) == Some("constructor") {
        let class = o.get("id").and_then(Value::as_array).and_then(|l| l.last()).and_then(Value::as_str)?;
        let role = langchain_role(class)?;
        let kwargs = o.get("kwargs").and_then(Value::as_object)?;
        return Some(body(kwargs, role));
    }
    let kind = o.get("type").and_then(Value::as_str);
    match kind {
        Some("function_call") | Some("tool_call") if o.contains_key("name") && !o.contains_key("role") => {
            let mut m = Msg { role: "assistant".to_string(), ..Msg::default() };
            m.calls.push(call(o.get("call_id").or_else(|| o.get("id")), o.get("name"), o.get("arguments").or_else(|| o.get("args"))));
            return Some(m);
        }
        Some("function_call_output") => {
            return Some(Msg { role: "tool".to_string(), results: vec![Res { call_id: id(o.get("call_id")), name: None, content: content_value(o.get("output")) }], ..Msg::default() });
        }
        Some("reasoning") if !o.contains_key("role") => {
            let text: Vec<String> = o.get("summary").and_then(Value::as_array).into_iter().flatten().filter_map(|s| s.get("text").and_then(Value::as_str)).map(str::to_string).collect();
            return Some(Msg { role: "assistant".to_string(), parts: vec![ContentPart::Reasoning(text.join("\n").into())], ..Msg::default() });
        }
        _ => {}
    }
    if let Some(Value::String(role)) = o.get("role") {
        let role = match role.as_str() {
            "model" => "assistant",
            "human" => "user",
            "ai" => "assistant",
            r => r,
        };
        return Some(body(o, role));
    }
    if let Some(role) = kind.and_then(langchain_role) {
        if o.contains_key("content") {
            return Some(body(o, role));
        }
    }
    None
}

/// The content, calls and results of a message object with a known role.
fn body(o: &Map<String, Value>, role: &str) -> Msg {
    let mut m = Msg { role: role.to_string(), ..Msg::default() };
    if role == "tool" && !o.contains_key("tool_call_id") {
        if let Some(f) = o.get("content").filter(|c| c.get("type").and_then(Value::as_str) == Some("function")).and_then(|c| c.get("function")) {
            if let Some(name) = f.get("name").and_then(Value::as_str) {
                let description = f.get("description").and_then(Value::as_str).map(str::to_string);
                m.definition = Some(ToolDefinition { name: name.to_string(), description, parameters: f.get("parameters").cloned() });
                return m;
            }
        }
    }
    for key in ["content", "parts"] {
        match o.get(key) {
            Some(Value::String(s)) if !s.is_empty() => m.parts.push(ContentPart::Text(s.as_str().into())),
            Some(Value::Array(items)) => {
                for p in items {
                    part(p, &mut m);
                }
            }
            Some(Value::Object(p)) => part(&Value::Object(p.clone()), &mut m),
            _ => {}
        }
    }
    // OpenAI and LangChain tool calls, also under `additional_kwargs`.
    let kw = o.get("additional_kwargs").and_then(Value::as_object);
    let lists = [o.get("tool_calls"), kw.and_then(|k| k.get("tool_calls"))];
    let list = lists.into_iter().flatten().find_map(|v| v.as_array().filter(|l| !l.is_empty()));
    for c in list.into_iter().flatten() {
        let f = c.get("function");
        let name = f.and_then(|f| f.get("name")).or_else(|| c.get("name"));
        let args = f.and_then(|f| f.get("arguments")).or_else(|| c.get("args")).or_else(|| c.get("arguments"));
        m.calls.push(call(c.get("id"), name, args));
    }
    if let Some(fc) = o.get("function_call").or_else(|| kw.and_then(|k| k.get("function_call"))).filter(|v| v.is_object()) {
        m.calls.push(call(None, fc.get("name"), fc.get("arguments")));
    }
    if role == "tool" || role == "function" {
        if let Some(call_id) = o.get("tool_call_id").or_else(|| o.get("call_id")) {
            let content = std::mem::take(&mut m.parts);
            let content = match content.as_slice() {
                [] => content_value(o.get("content")),
                [ContentPart::Text(t)] => Content::Text(t.clone()),
                _ => Content::Parts(content),
            };
            m.results.push(Res { call_id: id(Some(call_id)), name: o.get("name").and_then(Value::as_str).map(str::to_string), content });
        }
    }
    m
}

/// One content part into the message.
fn part(p: &Value, m: &mut Msg) {
    let Value::Object(o) = p else {
        match p {
            Value::String(s) => m.parts.push(ContentPart::Text(s.as_str().into())),
            other => m.parts.push(ContentPart::Other(other.clone())),
        }
        return;
    };
    let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
    let text_of = |k: &str| o.get(k).and_then(Value::as_str);
    match kind {
        "text" | "input_text" | "output_text" => {
            if let Some(t) = text_of("text").or_else(|| text_of("content")) {
                m.parts.push(ContentPart::Text(t.into()));
                return;
            }
        }
        "reasoning" | "thinking" => {
            if let Some(t) = text_of("content").or_else(|| text_of("thinking")).or_else(|| text_of("text")) {
                m.parts.push(ContentPart::Reasoning(t.into()));
                return;
            }
        }
        "image_url" => {
            let url = o.get("image_url").and_then(|u| u.get("url").or(Some(u))).and_then(Value::as_str);
            if let Some(u) = url {
                m.parts.push(ContentPart::Image { url: u.into() });
                return;
            }
        }
        "tool_call" | "tool_use" | "function_call" => {
            m.calls.push(call(o.get("id").or_else(|| o.get("call_id")), o.get("name"), o.get("arguments").or_else(|| o.get("input")).or_else(|| o.get("args"))));
            return;
        }
        "tool_call_response" | "tool_result" => {
            let content = o.get("response").or_else(|| o.get("content"));
            m.results.push(Res { call_id: id(o.get("id").or_else(|| o.get("tool_use_id"))), name: None, content: content_value(content) });
            return;
        }
        _ => {}
    }
    // Gemini parts: {text}, {function_call}, {function_response}.
    if kind.is_empty() {
        if let Some(t) = text_of("text") {
            if o.get("thought").and_then(Value::as_bool) == Some(true) {
                m.parts.push(ContentPart::Reasoning(t.into()));
            } else {
                m.parts.push(ContentPart::Text(t.into()));
            }
            return;
        }
        if let Some(fc) = o.get("function_call").or_else(|| o.get("functionCall")) {
            m.calls.push(call(fc.get("id"), fc.get("name"), fc.get("args")));
            return;
        }
        if let Some(fr) = o.get("function_response").or_else(|| o.get("functionResponse")) {
            m.results.push(Res { call_id: id(fr.get("id")), name: fr.get("name").and_then(Value::as_str).map(str::to_string), content: content_value(fr.get("response")) });
            return;
        }
    }
    m.parts.push(ContentPart::Other(p.clone()));
}

fn id(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn call(id_value: Option<&Value>, name: Option<&Value>, args: Option<&Value>) -> ToolCall {
    ToolCall { id: id(id_value), function: name.and_then(Value::as_str).unwrap_or("").to_string(), arguments: arguments(args), result: None }
}

/// Tool-call arguments: an object as it is; a JSON string parsed, its text kept.
pub fn arguments(v: Option<&Value>) -> Arguments {
    match v {
        None | Some(Value::Null) => Arguments::default(),
        Some(Value::String(s)) => match crate::json::build::from_str(s) {
            Ok(parsed) => Arguments { value: Some(parsed.into()), text: Some(s.as_str().into()) },
            Err(_) => Arguments { value: None, text: Some(s.as_str().into()) },
        },
        Some(other) => Arguments { value: Some(other.clone().into()), text: None },
    }
}

/// A tool output or a response part: text as text, anything else as JSON.
pub fn content_value(v: Option<&Value>) -> Content {
    match v {
        None | Some(Value::Null) => Content::None,
        Some(Value::String(s)) => Content::Text(s.as_str().into()),
        Some(other) => Content::Json(other.clone().into()),
    }
}

/// A message's identity for [`already_shown`]: two messages with the same
/// fingerprint are the same message re-sent.
pub trait Fingerprint {
    fn fingerprint(&self) -> u64;
}

impl Fingerprint for Msg {
    fn fingerprint(&self) -> u64 {
        Msg::fingerprint(self)
    }
}

/// The hasher of message fingerprints and their chains: foldhash's quality
/// hasher with a fixed seed (these hashes only ever meet each other, in one
/// parse; std's SipHash was a tenth of an otel parse).
pub fn fingerprint_hasher() -> impl Hasher {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0x5eed_a9e7_7ace_0001).build_hasher()
}

/// The fingerprints a conversation has shown. A fingerprint is a hash
/// already ([`fingerprint_hasher`]), so the set takes it as it is: std's
/// SipHash over it again was ~2% of an OTel parse in V8's profile.
pub type Shown = std::collections::HashSet<u64, std::hash::BuildHasherDefault<AsHashed>>;

/// The hasher of [`Shown`]: a `u64` is its own hash.
#[derive(Default)]
pub struct AsHashed(u64);

impl Hasher for AsHashed {
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    /// Not used by `u64` keys; folds any other bytes in.
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// How many leading `input` messages a conversation has already shown: a
/// model call re-sends the whole history, shown once. `shown` holds a hash
/// of every prefix shown so far (input then output, chained), and learns
/// this call's.
pub fn already_shown<M: Fingerprint>(shown: &mut Shown, input: &[M], output: &[M]) -> usize {
    already_shown_after(shown, (0, 0), input, output).0
}

/// One step of the chain [`already_shown`] hashes: the prefix so far, then `m`.
pub fn chain<M: Fingerprint>(previous: u64, m: &M) -> u64 {
    let mut h = fingerprint_hasher();
    previous.hash(&mut h);
    m.fingerprint().hash(&mut h);
    h.finish()
}

/// [`already_shown`] of a conversation whose first `prefix.0` input
/// messages, chained to `prefix.1`, are known to be shown (a reader that
/// found them byte for byte in an earlier call and did not read them
/// again); `input` is the rest. Also gives the chain after each of `input`.
pub fn already_shown_after<M: Fingerprint>(shown: &mut Shown, prefix: (usize, u64), input: &[M], output: &[M]) -> (usize, Vec<u64>) {
    let (mut known, mut h) = prefix;
    let mut hashes = Vec::with_capacity(input.len() + output.len());
    for (n, m) in input.iter().enumerate() {
        h = chain(h, m);
        hashes.push(h);
        if shown.contains(&h) {
            known = prefix.0 + n + 1;
        }
    }
    for m in output {
        h = chain(h, m);
        hashes.push(h);
    }
    shown.extend(hashes.iter().copied());
    hashes.truncate(input.len());
    (known, hashes)
}

/// A member of a parsed object found by comparing its keys in turn, not by
/// serde_json's map lookup (which hashes the key with SipHash, ~270
/// instructions): the runs, observations and messages these readers look
/// into hold a few dozen members, and a scan of them costs less than one
/// hash. The keys of a `Map` are unique, so the member found is the same.
pub trait Field {
    fn field(&self, k: &str) -> Option<&Value>;

    fn has_field(&self, k: &str) -> bool {
        self.field(k).is_some()
    }
}

/// Past this many members a scan of the keys costs more than a hash.
const FIELD_SCAN_MAX: usize = 32;

impl Field for Map<String, Value> {
    #[inline]
    fn field(&self, k: &str) -> Option<&Value> {
        if self.len() > FIELD_SCAN_MAX {
            return self.get(k);
        }
        self.iter().find_map(|(key, v)| (key == k).then_some(v))
    }
}

impl Field for Value {
    /// An object's member, as `Value::get` with a key finds it (`None` for
    /// anything else).
    #[inline]
    fn field(&self, k: &str) -> Option<&Value> {
        match self {
            Value::Object(o) => o.field(k),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_common_shapes() {
        let openai = json!([{"role": "system", "content": "s"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "r"}]);
        let m = messages(&openai, "user").unwrap();
        assert_eq!((m.len(), m[1].calls[0].function.as_str(), m[2].results[0].call_id.as_deref()), (3, "f", Some("c1")));
        let responses = json!([{"content": "q", "role": "user"}, {"type": "function_call", "call_id": "c", "name": "g", "arguments": {"x": 1}}, {"type": "function_call_output", "call_id": "c", "output": "o"}]);
        let m = messages(&responses, "user").unwrap();
        assert_eq!((m[1].calls[0].id.as_deref(), m[2].results[0].content.text()), (Some("c"), "o".to_string()));
        let gemini = json!({"content": {"parts": [{"function_call": {"args": {}, "name": "say"}}], "role": "model"}, "finish_reason": "STOP"});
        let m = messages(&gemini, "assistant").unwrap();
        assert_eq!((m[0].role.as_str(), m[0].calls[0].function.as_str()), ("assistant", "say"));
        let lc = json!({"messages": [{"type": "human", "content": "hi"}, {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"], "kwargs": {"content": "yo", "tool_calls": [{"id": "t", "name": "h", "args": {}}]}}]});
        let m = messages(&lc, "user").unwrap();
        assert_eq!((m[0].role.as_str(), m[1].role.as_str(), m[1].calls.len()), ("user", "assistant", 1));
        assert!(messages(&json!({"query": "x"}), "user").is_none());
        assert!(messages(&json!([{"text": "no role"}]), "user").is_none());
    }

    #[test]
    fn a_field_is_the_member_get_finds() {
        let mut big = Map::new();
        for i in 0..40 {
            big.insert(format!("k{i}"), json!(i));
        }
        let small = json!({"id": "a", "ids": 1, "i": 2, "": 3, "name": null, "nam": 4, "é": 5});
        for o in [small.as_object().unwrap(), &big] {
            for k in ["id", "ids", "i", "", "name", "nam", "na", "names", "é", "e", "k0", "k39", "k40", "k3"] {
                assert_eq!(o.field(k), o.get(k), "{k}");
                assert_eq!(o.has_field(k), o.contains_key(k), "{k}");
                assert_eq!(Value::Object(o.clone()).field(k), o.get(k), "{k}");
            }
        }
        for v in [json!(null), json!("id"), json!([1, 2]), json!(1)] {
            assert_eq!(v.field("id"), v.get("id"));
        }
    }
}
