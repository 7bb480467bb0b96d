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

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::{Map, Value};

mod content;
mod fast;
mod record;

use content::{Links, Pieces};
use record::{ContentMembers, Members, RecordMembers, ANNOTATIONS, CATALOG_VERSION, CONTENT, CONTENT_MEMBERS, IDENTIFIER, RECORD_MEMBERS, SPAN, TIMESTAMP};

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
        let mut reader = Reader { out, b, ends: &input.split.ends, hazards: &input.split.hazards, identifiers: HashSet::new(), clean_catalog_version: None, scratch: fast::Scratch::default() };
        let records = reader.records(input);
        reader.sessions(records);
        reader.span_diagnostics();
    }
}

/// One record of the input, before it is read.
struct Record<'a> {
    range: Range<usize>,
    path: String,
    /// Not valid JSON: the core already reported it; kept as an unparsed event.
    broken: bool,
    /// Borrowed from the source unless written with an escape.
    session: Option<Cow<'a, str>>,
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
    /// The bytes of the last `catalog_version` object the fast path read
    /// that passed its checks (a log repeats one version on every record).
    clean_catalog_version: Option<&'a [u8]>,
    /// The fast path's buffers.
    scratch: fast::Scratch,
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
    fn records(&mut self, input: &Input) -> Vec<Record<'a>> {
        super::top_records(input)
            .into_iter()
            .map(|r| if r.broken { Record { range: r.range, path: r.path, broken: true, session: None } } else { self.record_at(r.range, r.path) })
            .collect()
    }

    fn record_at(&self, range: Range<usize>, path: String) -> Record<'a> {
        let session = session_of(self.b, &range, self.ends);
        Record { range, path, broken: false, session }
    }

    /// Groups records by session (first appearance first) and reads each group as a run.
    fn sessions(&mut self, records: Vec<Record<'a>>) {
        let mut groups: Vec<(Option<Cow<'a, str>>, Vec<Record<'a>>)> = Vec::new();
        let mut index: HashMap<Option<Cow<'a, str>>, usize> = HashMap::new();
        let mut previous: Option<usize> = None;
        for r in records {
            let at = match previous {
                // A broken line stays with the record before it.
                Some(p) if r.broken => p,
                // Most records follow one of their own session: not looked up.
                Some(p) if groups.get(p).is_some_and(|(s, _)| *s == r.session) => p,
                _ => {
                    let session = if r.broken { None } else { r.session.clone() };
                    *index.entry(session.clone()).or_insert_with(|| {
                        groups.push((session, Vec::new()));
                        groups.len() - 1
                    })
                }
            };
            if let Some((_, group)) = groups.get_mut(at) {
                group.push(r);
            }
            previous = Some(at);
        }
        for (session, records) in groups {
            self.run(session.map(Cow::into_owned), &records);
        }
    }

    fn run(&mut self, session: Option<String>, records: &[Record<'a>]) {
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
    fn parse(&mut self, r: &Record<'a>) -> Result<Value, crate::import::UnreadableRecord> {
        match crate::json::python::read_nonfinite(self.b, r.range.clone(), self.hazards) {
            Some(v) => Ok(v),
            None => self.out.parse_record(&r.range, &r.path),
        }
    }

    fn record(&mut self, r: &Record<'a>, no_session: bool, links: &mut Links) {
        if let Some(read) = self.fast_record(&r.range) {
            let fast::Read { record, content, pieces, catalog_version, span_names } = read;
            let o = Members(record.each_ref().map(Option::as_ref));
            let c = Members(content.each_ref().map(Option::as_ref));
            let index = self.place(r, no_session, &o, &c, pieces, (catalog_version, span_names), links);
            // Its metadata stays in the source (`reads_fast` is `can_defer_metadata`).
            let metadata = self.out.metadata_in_source(r.range.clone(), record::metadata_shape, Map::new());
            if let Some(e) = self.out.event_mut(index) {
                e.metadata = metadata;
            }
            return;
        }
        let v = match self.parse(r) {
            Ok(v) => v,
            Err(msg) => {
                self.out.unparsed(r.range.clone(), &r.path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        let Value::Object(o) = &v else {
            let ctx = Ctx { range: r.range.clone(), path: r.path.clone(), index: self.out.next_event() };
            self.d(&ctx, Error, "record-not-object", format!("expected a log record object, found {}", json_type(&v)), &[]);
            self.out.unparsed(r.range.clone(), &r.path, format!("a log record must be an object, not {}", json_type(&v)));
            return;
        };
        let members = Members::of(o, &RECORD_MEMBERS);
        let content = match o.get("content") {
            Some(Value::Object(c)) => Members::of(c, &CONTENT_MEMBERS),
            _ => Members([None; 15]),
        };
        let index = self.place(r, no_session, &members, &content, Pieces::default(), (None, None), links);
        // The exact path keeps `v` (tests/fast_paths.rs compares the two).
        let metadata = if self.out.can_defer_metadata(&r.range) {
            self.out.metadata_in_source(r.range.clone(), record::metadata_shape, Map::new())
        } else {
            let Value::Object(o) = v else { return };
            record::metadata_shape(o, &Map::new()).into()
        };
        if let Some(e) = self.out.event_mut(index) {
            e.metadata = metadata;
        }
    }

    /// Checks the record whose members are `o` (its `content` object's `c`,
    /// its big values left in the source `pieces`) and places its event;
    /// returns the event's index. When the fast path read it: the bytes of
    /// its `catalog_version` object (one the last such check found clean is
    /// not checked again: the check reads nothing else), and its span's
    /// names when the span check has nothing to say (the span is not built).
    #[allow(clippy::too_many_arguments)]
    fn place(
        &mut self,
        r: &Record<'a>,
        no_session: bool,
        o: &RecordMembers<'_>,
        c: &ContentMembers<'_>,
        pieces: Pieces,
        (catalog_version, span_names): (Option<&'a [u8]>, Option<Vec<String>>),
        links: &mut Links,
    ) -> u32 {
        let ctx = Ctx { range: r.range.clone(), path: r.path.clone(), index: self.out.next_event() };
        self.identifier(o.get(IDENTIFIER), &ctx);
        let span = match span_names {
            Some(names) => Some(names),
            None => self.span(o.get(SPAN), &ctx),
        };
        if no_session && o.get(SPAN).is_some_and(|s| s.is_object() && s.get("session").is_none()) {
            self.d(
                &ctx,
                Warning,
                "span-session-missing",
                "`span.session` is missing; the library gives such a record a random session of its own, so it belongs to no run of this file"
                    .to_string(),
                &[key("span")],
            );
        }
        let timestamp = self.aware_datetime(o.get(TIMESTAMP), &ctx, &[key("timestamp")]);
        match o.get(ANNOTATIONS) {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(other) => self.type_error(&ctx, &[key("annotations")], "an object (or null)", other),
        }
        let known_clean = catalog_version.is_some() && catalog_version == self.clean_catalog_version;
        if !known_clean {
            let before = self.out.diagnostic_count();
            self.catalog_version(o.get(CATALOG_VERSION), &ctx);
            if catalog_version.is_some() && self.out.diagnostic_count() == before {
                self.clean_catalog_version = catalog_version;
            }
        }
        self.remember_catalog_version(o, catalog_version, span.as_deref());
        let read = self.content(o.get(CONTENT), c, &ctx, span.as_deref(), links, pieces);
        let index = self.out.push_event(read.body, &read.kind, r.range.clone(), r.path.clone(), timestamp);
        if let Some(call) = read.link {
            self.out.link_result(CallRef { event: call, call: 0 }, index);
        }
        if let Some(e) = self.out.event_mut(index) {
            e.span = span;
            e.failed = read.failed;
            if let Some(h) = read.handoff {
                e.facts_mut().handoff = Some(h);
            }
        }
        index
    }

    /// The run's catalog version and root span: those of its first record
    /// (`in_source`: the bytes of the version object, when read fast;
    /// `names`: the span's, which stand for it when it was not built).
    fn remember_catalog_version(&mut self, o: &RecordMembers<'_>, in_source: Option<&[u8]>, names: Option<&[String]>) {
        let Some(run) = self.out.last_run_mut() else { return };
        if !run.metadata.contains_key("catalog_version") {
            let cv = match in_source {
                Some(bytes) => crate::json::build::from_slice(bytes).ok(),
                None => o.get(CATALOG_VERSION).cloned(),
            };
            if let Some(cv) = cv {
                run.metadata.insert("catalog_version".to_string(), cv);
            }
        }
        if run.name.is_none() {
            run.name = match (o.get(SPAN), names) {
                (None, Some(names)) => names.first().cloned(),
                (span, _) => span.and_then(|s| s.get("name")).and_then(|n| n.get(0)).and_then(Value::as_str).map(str::to_string),
            };
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

    fn identifier(&mut self, id: Option<&Value>, ctx: &Ctx) {
        match id {
            Some(Value::String(id)) if !self.identifiers.insert(id.clone()) => self.d(
                ctx,
                Warning,
                "duplicate-identifier",
                format!("another record of this file already has identifier {id:?}; identifiers are meant to be unique"),
                &[key("identifier")],
            ),
            None | Some(Value::String(_)) => {}
            Some(other) => self.type_error(ctx, &[key("identifier")], "a string", other),
        }
    }

    /// Checks `span` and returns its name path (non-strings as JSON text).
    fn span(&mut self, span: Option<&Value>, ctx: &Ctx) -> Option<Vec<String>> {
        let s = match span {
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
        let what = || crate::json::render_path("", at).trim_start_matches('.').to_string();
        match lax::datetime(v) {
            Ok(d) if d.aware => {}
            Ok(_) => self.d(
                ctx,
                Error,
                "timestamp-naive",
                format!("`{}` {v} has no timezone; Agent Catalog requires one (e.g. 2024-08-26T12:02:59.500Z or +05:30)", what()),
                at,
            ),
            Err(e) => self.d(ctx, Error, "timestamp-invalid", format!("`{}`: {}", what(), e.message), at),
        }
        match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// `catalog_version`: agentc-core's `VersionDescriptor`.
    fn catalog_version(&mut self, cv: Option<&Value>, ctx: &Ctx) {
        let at = |k: &str| vec![key("catalog_version"), key(k)];
        let cv = match cv {
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
fn session_of<'a>(b: &'a [u8], range: &Range<usize>, ends: &ContainerEnds) -> Option<Cow<'a, str>> {
    // The split validated the record: its members are read without a second
    // validating scan (a tenth of the parse), unless a key holds an escape.
    let last = |members: &[Member], key: &[u8]| members.iter().rev().find(|m| b.get(m.key.clone()) == Some(key)).cloned();
    let plain = |members: &[Member]| members.iter().all(|m| !m.key_escaped);
    let mut members = Vec::new();
    if read::members(b, scan::skip_ws(b, range.start), ends, &mut members).is_some() && plain(&members) {
        let span = last(&members, b"span").filter(|s| s.kind == Kind::Object)?;
        if read::members(b, span.value.start, ends, &mut members).is_some() && plain(&members) {
            let session = last(&members, b"session").filter(|s| s.kind == Kind::String)?;
            let plain = (!session.escaped).then(|| b.get(session.inner()).and_then(|s| std::str::from_utf8(s).ok())).flatten();
            return plain.map(Cow::Borrowed).or_else(|| scan::decode_string(b, session.value).map(Cow::Owned));
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
    scan::decode_string(b, session).map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::session_of;
    use crate::json::scan::NO_ENDS;

    #[test]
    fn a_record_session_is_its_last_span_session_keys_decoded() {
        let session = |s: &str| session_of(s.as_bytes(), &(0..s.len()), &NO_ENDS).map(|c| c.into_owned());
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
