//! Validation of OpenHands SDK events as `Event.model_validate_json` of
//! openhands-sdk 1.58.2 (with openhands-tools 1.58.2 loaded) does it.
//!
//! The SDK's pydantic models are not re-typed by hand: `schema.json`, written
//! by `scripts/oracle/openhands/goldens.py` from the SDK itself, lists every
//! model's fields, types, required flags, extra-field policy and the kinds of
//! each discriminated union (events, actions, observations, tools). This file
//! interprets that table with pydantic's lax JSON-mode rules, plus the few
//! validators the table cannot express (reserved event id, deprecated fields,
//! `Message.content` coercion, `kind` dispatch, `action_type` resolution).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::import::pydantic_lax;
use crate::json::Seg;

mod quick;
pub use quick::{event_is_silent, same, MemberCache, Objects};

/// One way an event breaks the SDK's models.
#[derive(Debug, Clone)]
pub struct Issue {
    /// Where, inside the event.
    pub path: Vec<Seg>,
    pub code: &'static str,
    pub message: String,
}

impl Issue {
    /// True when the issue lies in a tool payload (an event's `action`,
    /// `observation` or `tools`): the event itself stays readable, only the
    /// tool-specific part is off (e.g. written by another tools version).
    pub fn in_payload(&self, kind: &str) -> bool {
        let field = match kind {
            "ActionEvent" => "action",
            "ObservationEvent" => "observation",
            "SystemPromptEvent" => "tools",
            _ => return false,
        };
        matches!(self.path.first(), Some(Seg::Key(k)) if k == field)
    }
}

// ---------------------------------------------------------------------------
// The model table
// ---------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Ty {
    Str,
    Int,
    Float,
    Bool,
    Any,
    Null,
    Literal(Vec<Value>),
    List(Box<Ty>),
    Dict(Box<Ty>),
    Union(Vec<Ty>),
    Model(String),
    /// An abstract discriminated union resolved by `kind` (Event, Action, …).
    Poly(String),
    /// `type[Action]`: a kind name of that union, given as a string.
    KindOf(String),
    Constrained(Box<Ty>, Constraints),
}

#[derive(Debug, Clone, Default)]
struct Constraints {
    ge: Option<f64>,
    gt: Option<f64>,
    le: Option<f64>,
    lt: Option<f64>,
    min_length: Option<usize>,
    max_length: Option<usize>,
}

impl Constraints {
    fn from_json(o: &Map<String, Value>) -> Constraints {
        let num = |k: &str| o.get(k).and_then(Value::as_f64);
        let len = |k: &str| o.get(k).and_then(Value::as_u64).map(|n| n as usize);
        Constraints { ge: num("ge"), gt: num("gt"), le: num("le"), lt: num("lt"), min_length: len("min_length"), max_length: len("max_length") }
    }

    fn is_empty(&self) -> bool {
        self.ge.is_none() && self.gt.is_none() && self.le.is_none() && self.lt.is_none() && self.min_length.is_none() && self.max_length.is_none()
    }
}

#[derive(Debug, Clone)]
struct Field {
    name: String,
    /// The key in JSON when it differs from the name.
    alias: Option<String>,
    ty: Ty,
    required: bool,
    constraints: Constraints,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extra {
    Forbid,
    Ignore,
}

#[derive(Debug, Clone)]
struct Model {
    extra: Extra,
    fields: Vec<Field>,
    deprecated: Vec<String>,
    /// A concrete class of a discriminated union: `kind`, if given, must be its name.
    discriminated: bool,
    /// `Message.content`: null → [], a string → one text part.
    coerce_content: bool,
}

pub struct Schema {
    unions: HashMap<String, Vec<String>, Fnv>,
    llm_convertible: Vec<String>,
    models: HashMap<String, Model, Fnv>,
}

static SCHEMA_JSON: &str = include_str!("schema.json");

/// FNV-1a for the table's class names: looked up for every object of every
/// event, where SipHash (the default, against adversarial keys the fixed
/// table does not have) was a tenth of the validation.
type Fnv = std::hash::BuildHasherDefault<FnvHasher>;

#[derive(Default)]
struct FnvHasher(u64);

impl std::hash::Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let start = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        self.0 = bytes.iter().fold(start, |h, c| (h ^ u64::from(*c)).wrapping_mul(0x0100_0000_01b3));
    }
}

/// The SDK's model table, parsed once.
pub fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| Schema::parse(SCHEMA_JSON))
}

impl Schema {
    fn parse(text: &str) -> Schema {
        let root: Value = crate::json::build::from_str(text).unwrap_or(Value::Null);
        let mut unions = HashMap::default();
        if let Some(u) = root.get("unions").and_then(Value::as_object) {
            for (k, v) in u {
                unions.insert(k.clone(), strings(v));
            }
        }
        let llm_convertible = root.get("llm_convertible").map(strings).unwrap_or_default();
        let mut models = HashMap::default();
        if let Some(m) = root.get("models").and_then(Value::as_object) {
            for (name, spec) in m {
                models.insert(name.clone(), parse_model(spec));
            }
        }
        Schema { unions, llm_convertible, models }
    }

    /// The kinds of a discriminated union (`Event`, `Action`, `Observation`, `ToolDefinition`).
    pub fn kinds(&self, union: &str) -> &[String] {
        self.unions.get(union).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn is_kind(&self, union: &str, kind: &str) -> bool {
        self.kinds(union).iter().any(|k| k == kind)
    }

    /// True for event kinds the SDK turns into LLM messages.
    pub fn is_llm_convertible(&self, kind: &str) -> bool {
        self.llm_convertible.iter().any(|k| k == kind)
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default()
}

fn parse_model(spec: &Value) -> Model {
    let extra = match spec.get("extra").and_then(Value::as_str) {
        Some("forbid") => Extra::Forbid,
        _ => Extra::Ignore,
    };
    let fields = spec
        .get("fields")
        .and_then(Value::as_array)
        .map(|fs| {
            fs.iter()
                .map(|f| Field {
                    name: f.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                    alias: f.get("alias").and_then(Value::as_str).map(str::to_string),
                    ty: parse_ty(f.get("type").unwrap_or(&Value::Null)),
                    required: f.get("required").and_then(Value::as_bool).unwrap_or(false),
                    constraints: f.get("constraints").and_then(Value::as_object).map(Constraints::from_json).unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    Model {
        extra,
        fields,
        deprecated: spec.get("deprecated").map(strings).unwrap_or_default(),
        discriminated: spec.get("discriminated").and_then(Value::as_bool).unwrap_or(false),
        coerce_content: spec.get("coerce_content").and_then(Value::as_bool).unwrap_or(false),
    }
}

fn parse_ty(v: &Value) -> Ty {
    match v {
        Value::String(s) => match s.as_str() {
            "str" => Ty::Str,
            "int" => Ty::Int,
            "float" => Ty::Float,
            "bool" => Ty::Bool,
            "null" => Ty::Null,
            _ => Ty::Any,
        },
        Value::Object(o) => {
            let Some((key, inner)) = o.iter().next() else { return Ty::Any };
            match key.as_str() {
                "literal" => Ty::Literal(inner.as_array().cloned().unwrap_or_default()),
                "list" => Ty::List(Box::new(parse_ty(inner))),
                "dict" => Ty::Dict(Box::new(parse_ty(inner))),
                "union" => Ty::Union(inner.as_array().map(|a| a.iter().map(parse_ty).collect()).unwrap_or_default()),
                "model" => Ty::Model(inner.as_str().unwrap_or_default().to_string()),
                "poly" => Ty::Poly(inner.as_str().unwrap_or_default().to_string()),
                "kind_of" => Ty::KindOf(inner.as_str().unwrap_or_default().to_string()),
                "constrained" => Ty::Constrained(Box::new(parse_ty(inner)), Constraints::from_json(o)),
                _ => Ty::Any,
            }
        }
        _ => Ty::Any,
    }
}

// ---------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------

/// The reserved `parent_id` sentinel no event id may equal.
const ROOT_PARENT_ID: &str = "__root__";

/// Validates one event (the whole JSON value of a record) as the SDK's `Event` union.
pub fn validate_event(v: &Value) -> Vec<Issue> {
    let mut cx = Cx { schema: schema(), issues: Vec::new(), path: Vec::new() };
    cx.poly("Event", v);
    cx.issues
}

struct Cx<'s> {
    schema: &'s Schema,
    issues: Vec<Issue>,
    path: Vec<Seg>,
}

impl<'s> Cx<'s> {
    fn issue(&mut self, code: &'static str, message: String) {
        self.issues.push(Issue { path: self.path.clone(), code, message });
    }

    fn at<T>(&mut self, seg: Seg, f: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(seg);
        let out = f(self);
        self.path.pop();
        out
    }

    /// An abstract union: pop `kind`, resolve it, validate as that class.
    fn poly(&mut self, union: &str, v: &Value) {
        let Value::Object(o) = v else {
            self.issue("wrong-type", format!("expected an object with a `kind` ({union}), found {}", super::super::json_type(v)));
            return;
        };
        let kinds = self.schema.kinds(union);
        let kind = match o.get("kind") {
            Some(Value::String(k)) => k.clone(),
            None | Some(Value::Null) if kinds.len() == 1 => kinds.first().cloned().unwrap_or_default(),
            None | Some(Value::Null) => {
                let code = if union == "Event" { "missing-kind" } else { unknown_kind_code(union) };
                self.issue(code, format!("no `kind` given; openhands-sdk needs it to tell which {union} class this is"));
                return;
            }
            Some(other) => {
                // The SDK looks the value up as a name; a non-string never matches.
                self.issue(unknown_kind_code(union), format!("`kind` must be a class name string, found {}", super::super::json_type(other)));
                return;
            }
        };
        if !self.schema.is_kind(union, &kind) {
            self.issue(unknown_kind_code(union), unknown_kind_message(union, &kind));
            return;
        }
        let mut o = o.clone();
        o.remove("kind");
        self.model_object(&kind, o);
        if union == "Event" {
            self.check_event_id(v);
        }
    }

    fn check_event_id(&mut self, v: &Value) {
        if v.get("id").and_then(Value::as_str) == Some(ROOT_PARENT_ID) {
            self.at(Seg::key("id"), |cx| {
                cx.issue("reserved-event-id", format!("an event id may not be {ROOT_PARENT_ID:?}, the SDK's reserved root marker"))
            });
        }
    }

    fn model(&mut self, name: &str, v: &Value) {
        match v {
            Value::Object(o) => self.model_object(name, o.clone()),
            other => self.issue("wrong-type", format!("expected an object ({name}), found {}", super::super::json_type(other))),
        }
    }

    fn model_object(&mut self, name: &str, mut o: Map<String, Value>) {
        let schema = self.schema;
        let Some(model) = schema.models.get(name) else { return };
        for d in &model.deprecated {
            o.remove(d);
        }
        if model.discriminated {
            match o.remove("kind") {
                None | Some(Value::Null) => {}
                Some(Value::String(k)) if k == name => {}
                Some(other) => self.at(Seg::key("kind"), |cx| {
                    cx.issue("kind-mismatch", format!("`kind` is {other} but this value is read as {name}"))
                }),
            }
        }
        if model.coerce_content {
            match o.get("content") {
                Some(Value::Null) => {
                    o.insert("content".to_string(), Value::Array(Vec::new()));
                }
                Some(Value::String(s)) => {
                    let part = serde_json::json!({"type": "text", "text": s});
                    o.insert("content".to_string(), Value::Array(vec![part]));
                }
                _ => {}
            }
        }
        for f in &model.fields {
            let key = f.alias.as_deref().unwrap_or(&f.name);
            match o.get(key) {
                None => {
                    if f.required {
                        self.at(Seg::key(key), |cx| cx.issue("missing-field", format!("required field `{key}` of {name} is missing")));
                    }
                }
                Some(value) => self.at(Seg::key(key), |cx| {
                    let before = cx.issues.len();
                    cx.value(&f.ty, value);
                    if cx.issues.len() == before && !value.is_null() && !f.constraints.is_empty() {
                        cx.constrain(&f.constraints, value);
                    }
                }),
            }
        }
        if model.extra == Extra::Forbid {
            for key in o.keys() {
                let known = model.fields.iter().any(|f| f.alias.as_deref().unwrap_or(&f.name) == key);
                if !known {
                    self.at(Seg::key(key), |cx| {
                        cx.issue("unknown-field", format!("{name} has no field `{key}` and forbids extra fields (written by another SDK version?)"))
                    });
                }
            }
        }
    }

    fn value(&mut self, ty: &Ty, v: &Value) {
        match ty {
            Ty::Any => {}
            Ty::Null => {
                if !v.is_null() {
                    self.issue("wrong-type", format!("expected null, found {}", super::super::json_type(v)));
                }
            }
            Ty::Str => {
                if !v.is_string() {
                    self.issue("wrong-type", format!("expected a string, found {}", super::super::json_type(v)));
                }
            }
            Ty::Int => {
                if let Err(why) = pydantic_lax::integer(v) {
                    self.issue("wrong-type", why);
                }
            }
            Ty::Float => {
                if pydantic_lax::float(v).is_err() {
                    self.issue("wrong-type", format!("expected a number, found {}", super::super::json_type(v)));
                }
            }
            Ty::Bool => {
                if pydantic_lax::boolean(v).is_err() {
                    self.issue("wrong-type", format!("expected a boolean, found {}", short(v)));
                }
            }
            Ty::Literal(values) => {
                if !values.iter().any(|x| x == v) {
                    let allowed = values.iter().map(Value::to_string).collect::<Vec<_>>().join(", ");
                    self.issue("invalid-value", format!("expected one of {allowed}, found {}", short(v)));
                }
            }
            Ty::List(item) => match v {
                Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        self.at(Seg::Index(i), |cx| cx.value(item, x));
                    }
                }
                other => self.issue("wrong-type", format!("expected a list, found {}", super::super::json_type(other))),
            },
            Ty::Dict(item) => match v {
                Value::Object(m) => {
                    for (k, x) in m {
                        self.at(Seg::key(k), |cx| cx.value(item, x));
                    }
                }
                other => self.issue("wrong-type", format!("expected an object, found {}", super::super::json_type(other))),
            },
            Ty::Union(members) => self.union(members, v),
            Ty::Model(name) => self.model(name, v),
            Ty::Poly(union) => self.poly(union, v),
            Ty::KindOf(union) => match v {
                Value::String(k) if self.schema.is_kind(union, k) => {}
                Value::String(k) => self.issue(unknown_kind_code(union), unknown_kind_message(union, k)),
                other => self.issue("wrong-type", format!("expected the name of a {union} class, found {}", super::super::json_type(other))),
            },
            Ty::Constrained(inner, c) => {
                let before = self.issues.len();
                self.value(inner, v);
                if self.issues.len() == before {
                    self.constrain(c, v);
                }
            }
        }
    }

    /// Smart-mode union: valid when one member accepts the value. When none
    /// does, report the member the value was most likely meant as.
    fn union(&mut self, members: &[Ty], v: &Value) {
        let mut best: Option<Vec<Issue>> = None;
        for m in members {
            let mut sub = Cx { schema: self.schema, issues: Vec::new(), path: self.path.clone() };
            sub.value(m, v);
            if sub.issues.is_empty() {
                return;
            }
            let intended = self.intended(m, v);
            match &best {
                None => best = Some(sub.issues),
                Some(_) if intended => best = Some(sub.issues),
                Some(_) => {}
            }
        }
        let non_null: Vec<&Ty> = members.iter().filter(|m| !matches!(m, Ty::Null)).collect();
        if let (Some(issues), true) = (best, non_null.len() == 1 || v.is_object() || v.is_array()) {
            self.issues.extend(issues);
        } else {
            let names = members.iter().map(describe).collect::<Vec<_>>().join(" or ");
            self.issue("wrong-type", format!("expected {names}, found {}", short(v)));
        }
    }

    /// True when `v` announces itself as member `m` (its `type` literal matches).
    fn intended(&self, m: &Ty, v: &Value) -> bool {
        let (Ty::Model(name), Some(t)) = (m, v.get("type")) else { return false };
        self.schema.models.get(name).is_some_and(|model| {
            model.fields.iter().any(|f| f.name == "type" && matches!(&f.ty, Ty::Literal(vals) if vals.contains(t)))
        })
    }

    fn constrain(&mut self, c: &Constraints, v: &Value) {
        if let Ok(n) = pydantic_lax::float(v) {
            let broken = [
                (c.ge.filter(|b| n < *b), "greater than or equal to"),
                (c.gt.filter(|b| n <= *b), "greater than"),
                (c.le.filter(|b| n > *b), "less than or equal to"),
                (c.lt.filter(|b| n >= *b), "less than"),
            ];
            if let Some((Some(bound), words)) = broken.into_iter().find(|(b, _)| b.is_some()) {
                self.issue("out-of-range", format!("{} must be {words} {bound}", short(v)));
                return;
            }
        }
        let len = match v {
            Value::String(s) => Some(s.chars().count()),
            Value::Array(a) => Some(a.len()),
            _ => None,
        };
        if let Some(len) = len {
            if c.min_length.is_some_and(|m| len < m) || c.max_length.is_some_and(|m| len > m) {
                self.issue("out-of-range", format!("length {len} is outside the allowed range"));
            }
        }
    }
}

fn unknown_kind_code(union: &str) -> &'static str {
    match union {
        "Event" => "unknown-event-kind",
        "Action" => "unknown-action-kind",
        "Observation" => "unknown-observation-kind",
        "ToolDefinition" => "unknown-tool-kind",
        _ => "unknown-kind",
    }
}

fn unknown_kind_message(union: &str, kind: &str) -> String {
    let what = match union {
        "Event" => "event",
        "Action" => "action",
        "Observation" => "observation",
        "ToolDefinition" => "tool",
        _ => "class",
    };
    format!("openhands-sdk 1.58.2 (with openhands-tools) has no {what} kind {kind:?}; it rejects this record (written by another SDK version, or a custom class?)")
}

fn describe(t: &Ty) -> String {
    match t {
        Ty::Str => "a string".into(),
        Ty::Int => "an integer".into(),
        Ty::Float => "a number".into(),
        Ty::Bool => "a boolean".into(),
        Ty::Any => "anything".into(),
        Ty::Null => "null".into(),
        Ty::Literal(v) => format!("one of {}", v.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")),
        Ty::List(_) => "a list".into(),
        Ty::Dict(_) => "an object".into(),
        Ty::Union(m) => m.iter().map(describe).collect::<Vec<_>>().join(" or "),
        Ty::Model(n) => format!("a {n} object"),
        Ty::Poly(n) => format!("a {n} object"),
        Ty::KindOf(n) => format!("a {n} class name"),
        Ty::Constrained(inner, _) => describe(inner),
    }
}

/// A value for messages: short JSON.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_model_table_loads() {
        let s = schema();
        assert!(s.is_kind("Event", "ActionEvent"));
        assert!(s.is_kind("Action", "TerminalAction"));
        assert!(s.is_kind("Observation", "FileEditorObservation"));
        assert!(s.is_kind("ToolDefinition", "FinishTool"));
        assert!(s.is_llm_convertible("CondensationSummaryEvent"));
        assert!(!s.is_llm_convertible("Condensation"));
        assert!(s.models.len() > 100);
    }

    #[test]
    fn reports_paths_and_codes() {
        let issues = validate_event(&json!({"kind": "PauseEvent", "reason": 1, "id": "__root__"}));
        let codes: Vec<_> = issues.iter().map(|i| i.code).collect();
        assert_eq!(codes, vec!["unknown-field", "reserved-event-id"]);
        assert_eq!(issues[0].path, vec![Seg::key("reason")]);
        let issues = validate_event(&json!({"kind": "TokenEvent", "source": "agent", "prompt_token_ids": [1, 2.5], "response_token_ids": []}));
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].path, vec![Seg::key("prompt_token_ids"), Seg::Index(1)]);
        assert!(validate_event(&json!({"source": "user"})).iter().any(|i| i.code == "missing-kind"));
    }
}
