//! Couchbase Agent Catalog activity logs: `Log` records of PyPI `agentc-core`
//! 1.1.5 (`agentc_core.activity.models.log.Log`), as its `LocalLogger`
//! writes them (JSON Lines, `.agent-activity/activity.log`) or as a JSON list.
//!
//! A record is `{identifier, span: {session, name: [..]}, timestamp,
//! content: {kind, ..}, annotations, catalog_version: {..}}`; `content` is a
//! union tagged by `kind`, one of eleven shapes. Verdicts follow
//! `Log.model_validate_json` in pydantic's lax mode: what it rejects is an
//! Error at the JSON path pydantic names, what it accepts loads without one.
//!
//! One run per `span.session` (records are regrouped when sessions
//! interleave, because a run's events are contiguous). Tool results link to
//! calls by `tool_call_id`, and by order where a result has no matching id,
//! as the library's `ToolInvocations` view pairs them. The span tree and the
//! begin/end pairing come from [`crate::spans`].

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::{Map, Value};

use super::pydantic_lax as lax;
use super::{json_type, Builder, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{self, Error, Warning};
use crate::json::{scan, Seg};
use crate::model::{
    Arguments, CallRef, Content, EventBody, Handoff, KeyValue, Marker, Message, Metadata, SpanEvent, SpanPhase, ToolCall,
    ToolDefinition, ToolResult, ToolStatus,
};

pub struct AgentCatalog;

/// The `content.kind` tags of agentc-core 1.1.5, in its declaration order.
pub const KINDS: &[&str] = &[
    "system",
    "tool-call",
    "tool-result",
    "chat-completion",
    "request-header",
    "user",
    "assistant",
    "begin",
    "end",
    "edge",
    "key-value",
];

/// Run id for records whose span names no session (the library would give
/// each a fresh random one).
const NO_SESSION: &str = "(no session)";

impl Format for AgentCatalog {
    fn id(&self) -> &'static str {
        "agent-catalog"
    }

    fn name(&self) -> &'static str {
        "Couchbase Agent Catalog logs"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let records: Vec<&Value> = sample.records().collect();
        let mut matched = 0usize;
        let mut known_kind = 0usize;
        let mut with_version = 0usize;
        for r in &records {
            let Some(o) = r.as_object() else { continue };
            let kind = o.get("content").and_then(|c| c.get("kind"));
            let span = o.get("span").is_some_and(|s| s.get("name").is_some() || s.get("session").is_some());
            let version = o.get("catalog_version").is_some_and(Value::is_object);
            if kind.is_some() && (span || version) {
                matched += 1;
                if kind.and_then(Value::as_str).is_some_and(|k| KINDS.contains(&k)) {
                    known_kind += 1;
                }
                if version {
                    with_version += 1;
                }
            }
        }
        if matched == 0 {
            return None;
        }
        let evidence = vec![
            format!("{matched} of {} sampled records have `content.kind` with a `span` or `catalog_version`", records.len()),
            format!("{known_kind} have one of the eleven Agent Catalog content kinds"),
            format!("{with_version} carry a `catalog_version`"),
        ];
        Some(Score { confidence: matched as f32 / records.len() as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let b = out.bytes();
        let mut reader = Reader { out, b, identifiers: HashSet::new() };
        let records = reader.records(input);
        reader.sessions(records);
        reader.span_diagnostics();
    }
}

/// One record of the input, before it is read.
struct Record {
    range: Range<usize>,
    path: String,
    /// Not valid JSON: the core already reported it; kept as an unparsed event.
    broken: bool,
    session: Option<String>,
}

struct Reader<'r, 'a> {
    out: &'r mut Builder<'a>,
    b: &'a [u8],
    identifiers: HashSet<String>,
}

/// Where diagnostics about the record being read go.
struct Ctx {
    range: Range<usize>,
    path: String,
    index: u32,
}

/// What `content` became.
struct Read {
    body: EventBody,
    /// `content.kind`, the event's source kind.
    kind: String,
    /// For a tool result: the call event it answers.
    link: Option<u32>,
    failed: bool,
    /// For an `edge`: the span paths it hands over between.
    handoff: Option<Handoff>,
}

impl Read {
    fn unparsed(why: String, kind: String) -> Read {
        Read { body: EventBody::Unparsed(why), kind, link: None, failed: false, handoff: None }
    }
}

/// Tool-call linking state within one session.
#[derive(Default)]
struct Links {
    by_id: HashMap<String, u32>,
    /// Call events in order, for the unanswered-call warnings.
    calls: Vec<u32>,
    /// Calls that may still be unanswered, latest last: results without an
    /// id take the latest unanswered one (answered ones are dropped from the
    /// end as they surface, so each lookup costs O(1) amortised).
    open: Vec<u32>,
    answered: HashSet<u32>,
}

fn key(k: &str) -> Seg {
    Seg::key(k)
}

fn content_at(k: &str) -> Vec<Seg> {
    vec![key("content"), key(k)]
}

impl<'r, 'a> Reader<'r, 'a> {
    /// The records of the input in source order: list items or JSONL lines,
    /// with broken lines kept in their place.
    fn records(&mut self, input: &Input) -> Vec<Record> {
        super::top_records(input)
            .into_iter()
            .map(|r| if r.broken { Record { range: r.range, path: r.path, broken: true, session: None } } else { self.record_at(r.range, r.path) })
            .collect()
    }

    fn record_at(&self, range: Range<usize>, path: String) -> Record {
        let session = session_of(self.b, &range);
        Record { range, path, broken: false, session }
    }

    /// Groups records by session (first appearance first) and reads each group as a run.
    fn sessions(&mut self, records: Vec<Record>) {
        let mut order: Vec<Option<String>> = Vec::new();
        let mut groups: HashMap<Option<String>, Vec<Record>> = HashMap::new();
        let mut previous: Option<Option<String>> = None;
        for r in records {
            // A broken line stays with the record before it.
            let group = if r.broken { previous.clone().unwrap_or(None) } else { r.session.clone() };
            previous = Some(group.clone());
            if !groups.contains_key(&group) {
                order.push(group.clone());
            }
            groups.entry(group).or_default().push(r);
        }
        for group in order {
            let Some(records) = groups.remove(&group) else { continue };
            self.run(group, &records);
        }
    }

    fn run(&mut self, session: Option<String>, records: &[Record]) {
        let mut metadata = Metadata::new();
        if let Some(s) = &session {
            metadata.insert("session".to_string(), Value::String(s.clone()));
        }
        let offset = records.first().map(|r| r.range.start);
        self.out.begin_run(session.clone().unwrap_or_else(|| NO_SESSION.to_string()), metadata, offset);
        let mut links = Links::default();
        for r in records {
            if r.broken {
                self.unparsed(r.range.clone(), &r.path, "not read: invalid JSON".to_string());
            } else {
                self.record(r, session.is_none(), &mut links);
            }
        }
        self.finish_links(&links);
    }

    fn unparsed(&mut self, range: Range<usize>, path: &str, why: String) {
        if range.start < range.end {
            self.out.push_event(EventBody::Unparsed(why), "unparsed", range, path.to_string(), None);
        }
    }

    fn d(&mut self, ctx: &Ctx, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &ctx.range, &ctx.path, segs, Some(ctx.index));
    }

    fn record(&mut self, r: &Record, no_session: bool, links: &mut Links) {
        let v = match self.out.parse_record(&r.range, &r.path) {
            Ok(v) => v,
            Err(msg) => {
                self.unparsed(r.range.clone(), &r.path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        let ctx = Ctx { range: r.range.clone(), path: r.path.clone(), index: self.out.next_event() };
        let Value::Object(o) = &v else {
            self.d(&ctx, Error, "record-not-object", format!("expected a log record object, found {}", json_type(&v)), &[]);
            self.unparsed(r.range.clone(), &r.path, format!("a log record must be an object, not {}", json_type(&v)));
            return;
        };
        let mut meta = Metadata::new();
        self.identifier(o, &ctx, &mut meta);
        let span = self.span(o, &ctx);
        if no_session && o.get("span").is_some_and(|s| s.is_object() && s.get("session").is_none()) {
            self.d(
                &ctx,
                Warning,
                "span-session-missing",
                "`span.session` is missing; the library gives such a record a random session of its own, so it belongs to no run of this file"
                    .to_string(),
                &[key("span")],
            );
        }
        let timestamp = self.aware_datetime(o.get("timestamp"), &ctx, &[key("timestamp")]);
        match o.get("annotations") {
            None | Some(Value::Null) => {}
            Some(a @ Value::Object(_)) => {
                meta.insert("annotations".to_string(), a.clone());
            }
            Some(other) => {
                self.type_error(&ctx, &[key("annotations")], "an object (or null)", other);
                meta.insert("annotations".to_string(), other.clone());
            }
        }
        self.catalog_version(o, &ctx);
        self.remember_catalog_version(o);
        let read = self.content(o, &ctx, span.as_deref(), &mut meta, links);
        let index = self.out.push_event(read.body, &read.kind, r.range.clone(), r.path.clone(), timestamp);
        if let Some(call) = read.link {
            self.out.link_result(CallRef { event: call, call: 0 }, index);
        }
        if let Some(e) = self.out.event_mut(index) {
            e.span = span;
            e.metadata = meta;
            e.failed = read.failed;
            if let Some(h) = read.handoff {
                e.facts_mut().handoff = Some(h);
            }
        }
    }

    /// The run's catalog version and root span: those of its first record.
    fn remember_catalog_version(&mut self, o: &Map<String, Value>) {
        let Some(run) = self.out.last_run_mut() else { return };
        if let Some(cv) = o.get("catalog_version") {
            run.metadata.entry("catalog_version".to_string()).or_insert_with(|| cv.clone());
        }
        if run.name.is_none() {
            run.name = o.get("span").and_then(|s| s.get("name")).and_then(|n| n.get(0)).and_then(Value::as_str).map(str::to_string);
        }
    }

    fn type_error(&mut self, ctx: &Ctx, segs: &[Seg], expected: &str, found: &Value) {
        let what = crate::json::render_path("", segs);
        let what = what.trim_start_matches('.');
        self.d(ctx, Error, "field-type", format!("`{what}` must be {expected}, found {}", json_type(found)), segs);
    }

    fn missing(&mut self, ctx: &Ctx, segs: &[Seg], context: &str) {
        let what = crate::json::render_path("", segs);
        let what = what.trim_start_matches('.');
        self.d(ctx, Error, "field-missing", format!("`{what}` is required{context}"), segs);
    }

    fn identifier(&mut self, o: &Map<String, Value>, ctx: &Ctx, meta: &mut Metadata) {
        match o.get("identifier") {
            None => {}
            Some(Value::String(id)) => {
                if !self.identifiers.insert(id.clone()) {
                    self.d(
                        ctx,
                        Warning,
                        "duplicate-identifier",
                        format!("another record of this file already has identifier {id:?}; identifiers are meant to be unique"),
                        &[key("identifier")],
                    );
                }
                meta.insert("identifier".to_string(), Value::String(id.clone()));
            }
            Some(other) => {
                self.type_error(ctx, &[key("identifier")], "a string", other);
                meta.insert("identifier".to_string(), other.clone());
            }
        }
    }

    /// Checks `span` and returns its name path (non-strings as JSON text).
    fn span(&mut self, o: &Map<String, Value>, ctx: &Ctx) -> Option<Vec<String>> {
        let s = match o.get("span") {
            None => {
                self.missing(ctx, &[key("span")], " (an object with `session` and `name`)");
                return None;
            }
            Some(Value::Object(s)) => s,
            Some(other) => {
                self.type_error(ctx, &[key("span")], "an object with `session` and `name`", other);
                return None;
            }
        };
        match s.get("session") {
            None | Some(Value::String(_)) => {}
            Some(other) => self.type_error(ctx, &[key("span"), key("session")], "a string", other),
        }
        match s.get("name") {
            None => {
                self.missing(ctx, &[key("span"), key("name")], " (the list of span names, root first)");
                None
            }
            Some(Value::Array(items)) => Some(self.string_list(items, ctx, &[key("span"), key("name")])),
            Some(other) => {
                self.type_error(ctx, &[key("span"), key("name")], "a list of span names such as [\"app\", \"agent\"]", other);
                other.as_str().map(|s| vec![s.to_string()])
            }
        }
    }

    /// A `list[str]`: reports each non-string item, returns all as text.
    fn string_list(&mut self, items: &[Value], ctx: &Ctx, at: &[Seg]) -> Vec<String> {
        let mut names = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => names.push(s.clone()),
                other => {
                    let mut segs = at.to_vec();
                    segs.push(Seg::Index(i));
                    self.type_error(ctx, &segs, "a string", other);
                    names.push(other.to_string());
                }
            }
        }
        names
    }

    /// A required `AwareDatetime`; returns the value as text for the event.
    fn aware_datetime(&mut self, v: Option<&Value>, ctx: &Ctx, at: &[Seg]) -> Option<String> {
        let Some(v) = v else {
            self.missing(ctx, at, " (a timestamp with a timezone, e.g. 2024-08-26T12:02:59.500Z)");
            return None;
        };
        let what = crate::json::render_path("", at);
        let what = what.trim_start_matches('.').to_string();
        match lax::datetime(v) {
            Ok(d) if d.aware => {}
            Ok(_) => self.d(
                ctx,
                Error,
                "timestamp-naive",
                format!("`{what}` {v} has no timezone; Agent Catalog requires one (e.g. 2024-08-26T12:02:59.500Z or +05:30)"),
                at,
            ),
            Err(e) => self.d(ctx, Error, "timestamp-invalid", format!("`{what}`: {}", e.message), at),
        }
        match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// `catalog_version`: agentc-core's `VersionDescriptor`.
    fn catalog_version(&mut self, o: &Map<String, Value>, ctx: &Ctx) {
        let at = |k: &str| vec![key("catalog_version"), key(k)];
        let cv = match o.get("catalog_version") {
            None => {
                self.missing(ctx, &[key("catalog_version")], " (the catalog version the record was logged against)");
                return;
            }
            Some(Value::Object(cv)) => cv,
            Some(other) => {
                self.type_error(ctx, &[key("catalog_version")], "an object with `timestamp` and `identifier`", other);
                return;
            }
        };
        let errors_before = self.out.diagnostic_count();
        self.aware_datetime(cv.get("timestamp"), ctx, &at("timestamp"));
        let identifier = match cv.get("identifier") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.type_error(ctx, &at("identifier"), "a string (or null)", other);
                None
            }
        };
        let is_dirty = match cv.get("is_dirty") {
            None => Some(false),
            Some(Value::Null) => None,
            Some(v) => match lax::boolean(v) {
                Ok(b) => Some(b),
                Err(why) => {
                    self.d(ctx, Error, "field-type", format!("`catalog_version.is_dirty`: {why}"), &at("is_dirty"));
                    None
                }
            },
        };
        match cv.get("version_system") {
            None => {}
            Some(Value::String(s)) if s == "git" || s == "raw" => {}
            Some(other) => self.d(
                ctx,
                Error,
                "invalid-value",
                format!("`catalog_version.version_system` must be \"git\" or \"raw\", found {other}"),
                &at("version_system"),
            ),
        }
        match cv.get("metadata") {
            None | Some(Value::Null) => {}
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    if !v.is_string() {
                        self.type_error(ctx, &[key("catalog_version"), key("metadata"), key(k)], "a string", v);
                    }
                }
            }
            Some(other) => self.type_error(ctx, &at("metadata"), "an object of strings (or null)", other),
        }
        // The model's own validator runs only once its fields are valid.
        if self.out.diagnostic_count() == errors_before && identifier.is_none() && !is_dirty.unwrap_or(false) {
            self.d(
                ctx,
                Error,
                "catalog-version-unidentified",
                "`catalog_version` has no `identifier` and is not dirty; the library rejects such a version (\"A non-dirty version descriptor cannot have an empty identifier\")"
                    .to_string(),
                &[key("catalog_version")],
            );
        }
    }

    /// Reads `content` into an event body, with its source kind and, for a
    /// tool result, the call event it answers.
    fn content(
        &mut self,
        o: &Map<String, Value>,
        ctx: &Ctx,
        span: Option<&[String]>,
        meta: &mut Metadata,
        links: &mut Links,
    ) -> Read {
        let c = match o.get("content") {
            None => {
                self.missing(ctx, &[key("content")], &format!(" (an object with a `kind` of {})", KINDS.join(", ")));
                return Read::unparsed("the record has no `content`".to_string(), "unknown".to_string());
            }
            Some(Value::Object(c)) => c,
            Some(other) => {
                self.type_error(ctx, &[key("content")], "an object with a `kind`", other);
                return Read::unparsed(format!("`content` is {}", json_type(other)), "unknown".to_string());
            }
        };
        let kind = match c.get("kind") {
            Some(Value::String(k)) if KINDS.contains(&k.as_str()) => k.clone(),
            None => {
                self.d(
                    ctx,
                    Error,
                    "content-kind-missing",
                    format!("`content` has no `kind`; expected one of {}", KINDS.join(", ")),
                    &[key("content")],
                );
                return Read::unparsed("`content` has no `kind`".to_string(), "unknown".to_string());
            }
            Some(other) => {
                let shown = other.as_str().map(str::to_string).unwrap_or_else(|| other.to_string());
                self.d(
                    ctx,
                    Error,
                    "content-kind-unknown",
                    format!("`content.kind` {other} is not one of {}", KINDS.join(", ")),
                    &[key("content")],
                );
                return Read::unparsed(format!("content of unknown kind {other}"), shown);
            }
        };
        match c.get("extra") {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(other) => self.type_error(ctx, &content_at("extra"), "an object (or null)", other),
        }
        // What the body does not hold stays reachable as metadata.
        let consumed: &[&str] = match kind.as_str() {
            "system" | "user" | "assistant" => &["kind", "value"],
            "chat-completion" => &["kind", "output"],
            "tool-call" => &["kind", "tool_name", "tool_args", "tool_call_id"],
            "tool-result" => &["kind", "tool_call_id", "tool_result", "status"],
            "request-header" => &["kind", "tools"],
            "key-value" => &["kind", "key", "value"],
            _ => &["kind"],
        };
        for (k, v) in c {
            if !consumed.contains(&k.as_str()) {
                meta.insert(k.clone(), v.clone());
            }
        }
        let mut link = None;
        let mut failed = false;
        let mut handoff = None;
        let body = match kind.as_str() {
            "system" | "user" | "assistant" => {
                if kind == "user" {
                    self.optional_string(c, "user_id", ctx);
                }
                let content = self.required_text(c, "value", &kind, ctx);
                EventBody::Message(Message { role: kind.clone(), content, tool_calls: Vec::new() })
            }
            "chat-completion" => {
                self.optional_object(c, "meta", ctx);
                let content = self.required_text(c, "output", &kind, ctx);
                EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls: Vec::new() })
            }
            "tool-call" => {
                let (call, call_failed) = self.tool_call(c, ctx, links);
                failed = call_failed;
                EventBody::ToolCall(call)
            }
            "tool-result" => {
                let (result, target) = self.tool_result(c, ctx, links);
                link = target;
                EventBody::ToolResult(result)
            }
            "request-header" => {
                self.optional_object(c, "output", ctx);
                self.optional_object(c, "meta", ctx);
                EventBody::ToolDefinitions(self.tools(c, ctx))
            }
            "begin" | "end" => EventBody::Span(SpanEvent {
                name: span.map(<[String]>::to_vec).unwrap_or_default(),
                phase: if kind == "begin" { SpanPhase::Begin } else { SpanPhase::End },
            }),
            "edge" => {
                let source = self.required_names(c, "source", ctx);
                let dest = self.required_names(c, "dest", ctx);
                if c.get("source").is_some_and(Value::is_array) && c.get("dest").is_some_and(Value::is_array) {
                    handoff = Some(Handoff { source: source.clone(), dest: dest.clone() });
                }
                EventBody::Marker(Marker { label: format!("hand-off {} → {}", source.join("/"), dest.join("/")) })
            }
            _ => EventBody::KeyValue(self.key_value(c, ctx)),
        };
        Read { body, kind, link, failed, handoff }
    }

    fn key_value(&mut self, c: &Map<String, Value>, ctx: &Ctx) -> KeyValue {
        let k = match c.get("key") {
            Some(Value::String(s)) => s.clone(),
            None => {
                self.missing(ctx, &content_at("key"), " for a `key-value` record");
                String::new()
            }
            Some(other) => {
                self.type_error(ctx, &content_at("key"), "a string", other);
                other.to_string()
            }
        };
        if !c.contains_key("value") {
            self.missing(ctx, &content_at("value"), " for a `key-value` record (null is allowed)");
        }
        KeyValue { key: k, value: c.get("value").cloned().unwrap_or(Value::Null) }
    }

    /// A required `str` shown as the message text.
    fn required_text(&mut self, c: &Map<String, Value>, field: &str, kind: &str, ctx: &Ctx) -> Content {
        match c.get(field) {
            Some(Value::String(s)) => Content::Text(s.as_str().into()),
            None => {
                self.missing(ctx, &content_at(field), &format!(" for a `{kind}` record"));
                Content::None
            }
            Some(other) => {
                self.type_error(ctx, &content_at(field), "a string", other);
                Content::Json(other.clone())
            }
        }
    }

    fn optional_string(&mut self, c: &Map<String, Value>, field: &str, ctx: &Ctx) {
        match c.get(field) {
            None | Some(Value::Null) | Some(Value::String(_)) => {}
            Some(other) => self.type_error(ctx, &content_at(field), "a string (or null)", other),
        }
    }

    fn optional_object(&mut self, c: &Map<String, Value>, field: &str, ctx: &Ctx) {
        match c.get(field) {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(other) => self.type_error(ctx, &content_at(field), "an object (or null)", other),
        }
    }

    /// An edge's required `source` / `dest` span path.
    fn required_names(&mut self, c: &Map<String, Value>, field: &str, ctx: &Ctx) -> Vec<String> {
        match c.get(field) {
            Some(Value::Array(items)) => self.string_list(items, ctx, &content_at(field)),
            None => {
                self.missing(ctx, &content_at(field), " for an `edge` record (the span path, root first)");
                Vec::new()
            }
            Some(other) => {
                self.type_error(ctx, &content_at(field), "a list of span names", other);
                vec![other.as_str().map(str::to_string).unwrap_or_else(|| other.to_string())]
            }
        }
    }

    /// `status` of a tool call or result: "success" (the default), "error" or null.
    fn status(&mut self, c: &Map<String, Value>, ctx: &Ctx) -> ToolStatus {
        match c.get("status") {
            None => ToolStatus::Success,
            Some(Value::Null) => ToolStatus::Unknown,
            Some(Value::String(s)) if s == "success" => ToolStatus::Success,
            Some(Value::String(s)) if s == "error" => ToolStatus::Error,
            Some(other) => {
                self.d(
                    ctx,
                    Error,
                    "invalid-value",
                    format!("`content.status` must be \"success\" or \"error\" (or null), found {other}"),
                    &content_at("status"),
                );
                ToolStatus::Unknown
            }
        }
    }

    /// A tool call, and whether its own `status` says generating it failed.
    fn tool_call(&mut self, c: &Map<String, Value>, ctx: &Ctx, links: &mut Links) -> (ToolCall, bool) {
        let mut call = ToolCall { id: None, function: String::new(), arguments: Arguments::default(), result: None };
        match c.get("tool_name") {
            Some(Value::String(s)) => call.function = s.clone(),
            None => self.missing(ctx, &content_at("tool_name"), " for a `tool-call` record"),
            Some(other) => {
                self.type_error(ctx, &content_at("tool_name"), "a string", other);
                call.function = other.to_string();
            }
        }
        match c.get("tool_args") {
            Some(v @ Value::Object(_)) => call.arguments.value = Some(v.clone().into()),
            None => self.missing(ctx, &content_at("tool_args"), " for a `tool-call` record (an object of named arguments)"),
            Some(other) => {
                self.type_error(ctx, &content_at("tool_args"), "an object of named arguments", other);
                match other {
                    Value::String(s) => call.arguments.text = Some(s.as_str().into()),
                    v => call.arguments.value = Some(v.clone().into()),
                }
            }
        }
        match c.get("tool_call_id") {
            Some(Value::String(s)) => call.id = Some(s.clone()),
            None => self.missing(ctx, &content_at("tool_call_id"), " for a `tool-call` record"),
            Some(other) => self.type_error(ctx, &content_at("tool_call_id"), "a string", other),
        }
        self.optional_object(c, "meta", ctx);
        // "error": the call could not be generated properly (e.g. arguments off-signature).
        let failed = self.status(c, ctx) == ToolStatus::Error;
        if let Some(id) = &call.id {
            if let Some(prev) = links.by_id.insert(id.clone(), ctx.index) {
                self.d(
                    ctx,
                    Warning,
                    "duplicate-tool-call-id",
                    format!("tool call id {id:?} was already used by event {prev}; results with this id link to this later call"),
                    &content_at("tool_call_id"),
                );
            }
        }
        links.calls.push(ctx.index);
        links.open.push(ctx.index);
        (call, failed)
    }

    fn tool_result(&mut self, c: &Map<String, Value>, ctx: &Ctx, links: &mut Links) -> (ToolResult, Option<u32>) {
        let content = match c.get("tool_result") {
            None => {
                self.missing(ctx, &content_at("tool_result"), " for a `tool-result` record (null is allowed)");
                Content::None
            }
            Some(Value::Null) => Content::None,
            Some(Value::String(s)) => Content::Text(s.as_str().into()),
            Some(v) => Content::Json(v.clone()),
        };
        let status = self.status(c, ctx);
        let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
        let by_id = match c.get("tool_call_id") {
            None | Some(Value::Null) => None,
            Some(Value::String(id)) => {
                result.call_id = Some(id.clone());
                let found = links.by_id.get(id).copied();
                if found.is_none() {
                    self.d(
                        ctx,
                        Warning,
                        "unknown-tool-call-id",
                        format!("no tool call before this result in its session has id {id:?}; linked by order instead"),
                        &content_at("tool_call_id"),
                    );
                }
                found
            }
            Some(other) => {
                self.type_error(ctx, &content_at("tool_call_id"), "a string (or null)", other);
                None
            }
        };
        let target = match by_id {
            Some(call) => Some(call),
            None => {
                // As the `ToolInvocations` view: the nearest call before it that has no result yet.
                result.implicit_link = true;
                while links.open.last().is_some_and(|c| links.answered.contains(c)) {
                    links.open.pop();
                }
                let found = links.open.last().copied();
                if found.is_none() {
                    self.d(
                        ctx,
                        Warning,
                        "tool-result-without-call",
                        "no unanswered tool call comes before this result in its session".to_string(),
                        &[key("content")],
                    );
                }
                found
            }
        };
        if let Some(call) = target {
            links.answered.insert(call);
            result.call = Some(CallRef { event: call, call: 0 });
        }
        (result, target)
    }

    fn finish_links(&mut self, links: &Links) {
        for &call in &links.calls {
            if links.answered.contains(&call) {
                continue;
            }
            let Some(e) = self.out.events().get(call as usize) else { continue };
            let name = match &e.body {
                EventBody::ToolCall(c) if !c.function.is_empty() => format!("call to `{}`", c.function),
                _ => "tool call".to_string(),
            };
            let (path, offset) = (e.path.clone(), e.raw.start);
            self.out.diag(Warning, "unanswered-tool-call", format!("{name} never gets a tool-result in its session"), path, offset, Some(call));
        }
    }

    /// `request-header` tools: each `{name, description, args_schema}`.
    fn tools(&mut self, c: &Map<String, Value>, ctx: &Ctx) -> Vec<ToolDefinition> {
        let items = match c.get("tools") {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.type_error(ctx, &content_at("tools"), "a list of tools (or null)", other);
                return Vec::new();
            }
        };
        let mut tools = Vec::with_capacity(items.len());
        for (i, t) in items.iter().enumerate() {
            let at = |k: &str| vec![key("content"), key("tools"), Seg::Index(i), key(k)];
            let Some(t) = t.as_object() else {
                self.type_error(ctx, &[key("content"), key("tools"), Seg::Index(i)], "a tool object with `name`, `description` and `args_schema`", t);
                continue;
            };
            let text = |this: &mut Self, field: &str| match t.get(field) {
                Some(Value::String(s)) => Some(s.clone()),
                None => {
                    this.missing(ctx, &at(field), " for a tool of a `request-header` record");
                    None
                }
                Some(other) => {
                    this.type_error(ctx, &at(field), "a string", other);
                    None
                }
            };
            let name = text(self, "name").unwrap_or_default();
            let description = text(self, "description");
            match t.get("args_schema") {
                Some(Value::Object(_)) => {}
                None => self.missing(ctx, &at("args_schema"), " for a tool of a `request-header` record (its JSON schema)"),
                Some(other) => self.type_error(ctx, &at("args_schema"), "an object (a JSON schema)", other),
            }
            tools.push(ToolDefinition { name, description, parameters: t.get("args_schema").cloned() });
        }
        tools
    }

    /// Warnings for begin/end records without a partner, from the span tree.
    fn span_diagnostics(&mut self) {
        let tree = crate::analysis::spans::build(self.out.events());
        for issue in &tree.issues {
            let name = tree.path(issue.node).join("/");
            let Some(e) = self.out.events().get(issue.event as usize) else { continue };
            let (path, offset) = (e.path.clone(), e.raw.start);
            let message = match issue.code {
                "span-not-ended" => format!("span `{name}` begins here but no `end` record with the same `span.name` follows in its session"),
                _ => format!("span `{name}` ends here but was not begun (no open `begin` with the same `span.name` in its session)"),
            };
            self.out.diag(Warning, issue.code, message, path, offset, Some(issue.event));
        }
    }
}

/// `span.session` of a record, read without parsing the whole record.
fn session_of(b: &[u8], range: &Range<usize>) -> Option<String> {
    let start = scan::skip_ws(b, range.start);
    let members = scan::object_members(b, start).ok()?;
    let span = members.iter().rev().find(|(k, _)| k == "span")?.1.clone();
    let span_members = scan::object_members(b, scan::skip_ws(b, span.start)).ok()?;
    let session = span_members.iter().rev().find(|(k, _)| k == "session")?.1.clone();
    if b.get(session.start) != Some(&b'"') {
        return None;
    }
    scan::decode_string(b, session)
}
