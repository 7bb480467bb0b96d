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
//! begin/end pairing come from [`crate::analysis::spans`].
//!
//! pydantic's JSON parser reads `NaN`, `Infinity` and `-Infinity`, so the
//! input is split in that grammar (`json::Grammar::NonFinite`) and records
//! holding them are read with them ([`crate::json::python::read_nonfinite`]):
//! where a field takes any value (`tool_args`, `tool_result`, `annotations`,
//! …) they load as those numbers; elsewhere the field's own error stands.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::{Map, Value};

mod content;
mod fast;

use content::Links;

use super::pydantic_lax as lax;
use super::{json_type, Builder, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{self, Error, Warning};
use crate::json::read::{self, Kind, Member};
use crate::json::{path, scan, ContainerEnds, Seg};
use crate::model::{CallRef, Metadata};

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
    /// Its reference validates with pydantic, whose JSON parser reads them.
    fn reads_nonfinite(&self) -> bool {
        true
    }

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
        let mut reader = Reader { out, b, ends: &input.split.ends, hazards: &input.split.hazards, identifiers: HashSet::new() };
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
    /// The split's container ends (and grammar): records are jumped over.
    ends: &'r ContainerEnds,
    /// The split's: where `NaN` and the infinities are (the split reads them
    /// for this format, as agentc-core's pydantic does).
    hazards: &'r [usize],
    identifiers: HashSet<String>,
}

/// Where diagnostics about the record being read go.
struct Ctx {
    range: Range<usize>,
    path: String,
    index: u32,
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
        let session = session_of(self.b, &range, self.ends);
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
                self.out.unparsed(r.range.clone(), &r.path, "not read: invalid JSON".to_string());
            } else {
                self.record(r, session.is_none(), &mut links);
            }
        }
        self.finish_links(&links);
    }

    fn d(&mut self, ctx: &Ctx, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &ctx.range, &ctx.path, segs, Some(ctx.index));
    }

    /// The record as pydantic's JSON parser reads it: serde_json's value,
    /// or, when it holds `NaN`, `Infinity` or `-Infinity`, the value with
    /// those numbers (`Builder::parse_record` would call it invalid JSON).
    fn parse(&mut self, r: &Record) -> Result<Value, crate::import::UnreadableRecord> {
        match crate::json::python::read_nonfinite(self.b, r.range.clone(), self.hazards) {
            Some(v) => Ok(v),
            None => self.out.parse_record(&r.range, &r.path),
        }
    }

    fn record(&mut self, r: &Record, no_session: bool, links: &mut Links) {
        let (v, text) = match self.fast_record(&r.range) {
            Some((v, text)) => (v, Some(text)),
            None => match self.parse(r) {
                Ok(v) => (v, None),
                Err(msg) => {
                    self.out.unparsed(r.range.clone(), &r.path, format!("invalid JSON: {msg}"));
                    return;
                }
            },
        };
        let ctx = Ctx { range: r.range.clone(), path: r.path.clone(), index: self.out.next_event() };
        let Value::Object(o) = &v else {
            self.d(&ctx, Error, "record-not-object", format!("expected a log record object, found {}", json_type(&v)), &[]);
            self.out.unparsed(r.range.clone(), &r.path, format!("a log record must be an object, not {}", json_type(&v)));
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
        let read = self.content(o, &ctx, span.as_deref(), &mut meta, links, text);
        let index = self.out.push_event(read.body, &read.kind, r.range.clone(), r.path.clone(), timestamp);
        if let Some(call) = read.link {
            self.out.link_result(CallRef { event: call, call: 0 }, index);
        }
        if let Some(e) = self.out.event_mut(index) {
            e.span = span;
            e.metadata = meta.into();
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
        let offset = scan::find_path(self.b, ctx.range.start, segs);
        self.type_error_at(ctx, segs, expected, found, offset);
    }

    /// [`Reader::type_error`] at a known offset (of the value at `segs`).
    fn type_error_at(&mut self, ctx: &Ctx, segs: &[Seg], expected: &str, found: &Value, offset: usize) {
        let what = crate::json::render_path("", segs);
        let what = what.trim_start_matches('.');
        let message = format!("`{what}` must be {expected}, found {}", json_type(found));
        self.out.diag(Error, "field-type", message, crate::json::render_path(&ctx.path, segs), offset, Some(ctx.index));
    }

    fn missing(&mut self, ctx: &Ctx, segs: &[Seg], context: &str) {
        let offset = scan::find_path(self.b, ctx.range.start, segs);
        self.missing_at(ctx, segs, context, offset);
    }

    /// [`Reader::missing`] at a known offset (of the deepest value found on the way to `segs`).
    fn missing_at(&mut self, ctx: &Ctx, segs: &[Seg], context: &str, offset: usize) {
        let what = crate::json::render_path("", segs);
        let what = what.trim_start_matches('.');
        let message = format!("`{what}` is required{context}");
        self.out.diag(Error, "field-missing", message, crate::json::render_path(&ctx.path, segs), offset, Some(ctx.index));
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
        // Where the items are, found once for all of them (a path looked up
        // per item would scan the record once per item).
        let (b, ends) = (self.b, self.ends);
        let mut starts = None;
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => names.push(s.clone()),
                other => {
                    let starts = starts.get_or_insert_with(|| path::item_starts(b, ctx.range.start, at, ends));
                    let mut segs = at.to_vec();
                    segs.push(Seg::Index(i));
                    let offset = starts.get(i).copied().unwrap_or(ctx.range.start);
                    self.type_error_at(ctx, &segs, "a string", other, offset);
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
            Some(Value::Object(m)) if m.values().any(|v| !v.is_string()) => {
                // The members' places, found once, in source order; a key
                // given twice is reported once, at its first place (as a
                // path lookup finds it), with the value that stands (the last).
                let mut seen = HashSet::new();
                for (k, at) in path::member_starts(self.b, ctx.range.start, &[key("catalog_version"), key("metadata")], self.ends) {
                    match m.get(&k) {
                        Some(v) if !v.is_string() && seen.insert(k.clone()) => {
                            self.type_error_at(ctx, &[key("catalog_version"), key("metadata"), key(&k)], "a string", v, at);
                        }
                        _ => {}
                    }
                }
            }
            Some(Value::Object(_)) => {}
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

/// `span.session` of a record, read without parsing the whole record (its
/// containers the split recorded are jumped over).
fn session_of(b: &[u8], range: &Range<usize>, ends: &ContainerEnds) -> Option<String> {
    // The split validated the record: its members are read without a second
    // validating scan (a tenth of the parse), unless a key holds an escape.
    let last = |members: &[Member], key: &[u8]| members.iter().rev().find(|m| b.get(m.key.clone()) == Some(key)).cloned();
    let plain = |members: &[Member]| members.iter().all(|m| !m.key_escaped);
    let mut members = Vec::new();
    if read::members(b, scan::skip_ws(b, range.start), ends, &mut members).is_some() && plain(&members) {
        let span = last(&members, b"span").filter(|s| s.kind == Kind::Object)?;
        if read::members(b, span.value.start, ends, &mut members).is_some() && plain(&members) {
            let session = last(&members, b"session").filter(|s| s.kind == Kind::String)?;
            return scan::decode_string(b, session.value);
        }
    }
    let start = scan::skip_ws(b, range.start);
    let members = scan::object_members_in(b, start, ends).ok()?;
    let span = members.iter().rev().find(|(k, _)| k == "span")?.1.clone();
    let span_members = scan::object_members_in(b, scan::skip_ws(b, span.start), ends).ok()?;
    let session = span_members.iter().rev().find(|(k, _)| k == "session")?.1.clone();
    if b.get(session.start) != Some(&b'"') {
        return None;
    }
    scan::decode_string(b, session)
}

#[cfg(test)]
mod tests {
    use super::session_of;
    use crate::json::scan::NO_ENDS;

    #[test]
    fn a_record_session_is_its_last_span_session_keys_decoded() {
        let session = |s: &str| session_of(s.as_bytes(), &(0..s.len()), &NO_ENDS);
        assert_eq!(session(r#" {"span": {"name": ["a"], "session": "s1"}}"#).as_deref(), Some("s1"));
        assert_eq!(session(r#"{"span": {"session": "x", "session": "y"}}"#).as_deref(), Some("y"));
        assert_eq!(session(r#"{"span": {"session": "x"}, "span": {"session": "z"}}"#).as_deref(), Some("z"));
        assert_eq!(session(r#"{"sp\u0061n": {"session": "e"}}"#).as_deref(), Some("e"));
        assert_eq!(session(r#"{"span": {"sess\u0069on": "f", "x": 1}}"#).as_deref(), Some("f"));
        assert_eq!(session(r#"{"span": {"session": "caf\u00e9"}}"#).as_deref(), Some("café"));
        assert_eq!(session(r#"{"span": {"session": 1}}"#), None);
        assert_eq!(session(r#"{"span": 1}"#), None);
        assert_eq!(session(r#"{"other": 1}"#), None);
    }
}
