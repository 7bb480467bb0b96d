//! Reads the records of the input into runs: ingest payloads (`{post,
//! patch}`: a patch completes the posted run with the same `id`, else the
//! same `dotted_order`), run trees (`child_runs`, nested), and lists (or
//! JSON Lines) of runs linked by `parent_run_id`.

use std::collections::HashMap;
use std::ops::Range;

use crate::import::chat::Field;
use serde_json::{Map, Value};

use super::llm_record;
use crate::import::history::MessagesInSource;
use crate::diagnostic::Severity::{Error, Warning};
use crate::import::{top_records, Builder, Input};
use crate::json::path::{list_items, member_range};
use crate::json::{render_path, Seg};

/// One run, with where it is.
pub struct RunRec {
    pub range: Range<usize>,
    pub path: String,
    /// The run's fields (a patch's laid over its post's), without `child_runs`.
    pub o: Map<String, Value>,
    /// The patch that completed it, when it came from an ingest payload.
    pub patch: Option<(Range<usize>, String)>,
    /// The fields the patch set (their diagnostics point into it).
    pub patch_keys: Vec<String>,
    /// Its `inputs.messages`, when left in the source (not in `o`).
    pub history: Option<MessagesInSource>,
    /// A tool run's `outputs.output` text, when left in the source (`o`
    /// holds `outputs: {}` in its place).
    pub output: Option<crate::model::Text>,
    /// An `llm` run's `outputs.choices`, when left in the source (`o`
    /// holds its `outputs` without them).
    pub choices: Option<llm_record::Choices>,
    /// `range` is the run object `o` was read from (no patch laid over it):
    /// its event's metadata may be left there (`Builder::can_defer_metadata`).
    pub own_range: bool,
    /// Its parent: `parent_run_id`, else the run it is a child run of.
    pub parent: Option<String>,
    /// Its trace: `trace_id`, else its tree's root, else its own id.
    pub trace: String,
}

impl RunRec {
    pub fn str_field(&self, k: &str) -> &str {
        self.o.field(k).and_then(Value::as_str).unwrap_or("")
    }
}

/// An ingest payload: `post` and/or `patch` lists.
pub fn is_payload(o: &Map<String, Value>) -> bool {
    let list = |k: &str| o.field(k).and_then(Value::as_array);
    let runs = |k: &str| list(k).is_some_and(|l| l.iter().all(|r| r.field("dotted_order").is_some() || r.field("id").is_some()));
    (list("post").is_some() || list("patch").is_some()) && (runs("post") || runs("patch")) && o.keys().all(|k| k == "post" || k == "patch")
}

/// A run: an id, a `run_type`, and a trace id, dotted order or start time.
pub fn is_run(o: &Map<String, Value>) -> bool {
    o.has_field("run_type") && (o.has_field("id") || o.has_field("dotted_order")) && (o.has_field("trace_id") || o.has_field("dotted_order") || o.has_field("start_time"))
}

fn id_of(o: &Map<String, Value>) -> Option<String> {
    o.field("id").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The parent's run id in a dotted order (`<time>Z<parent>.<time>Z<run>`).
fn dotted_parent(dotted: &str) -> Option<String> {
    let (before, _) = dotted.rsplit_once('.')?;
    let last = before.rsplit('.').next()?;
    last.split_once('Z').map(|(_, id)| id.to_string()).filter(|id| !id.is_empty())
}

pub struct Reader<'i, 'b, 'a> {
    input: &'i Input<'i>,
    out: &'b mut Builder<'a>,
    pub runs: Vec<RunRec>,
}

impl<'i, 'b, 'a> Reader<'i, 'b, 'a> {
    pub fn new(input: &'i Input<'i>, out: &'b mut Builder<'a>) -> Self {
        Reader { input, out, runs: Vec::new() }
    }

    pub fn read(mut self) -> Vec<RunRec> {
        for r in top_records(self.input) {
            if r.broken {
                continue; // kept as an unparsed event by the core
            }
            if let Some((o, left)) = llm_record::read_run(self.out, self.input, &r.range).filter(|(o, _)| is_run(o)) {
                let first = self.runs.len();
                self.tree(r.range.clone(), r.path.clone(), o, None, None, true);
                if let Some(run) = self.runs.get_mut(first) {
                    run.history = left.history;
                    run.output = left.output;
                    run.choices = left.choices;
                }
                continue;
            }
            let Ok(v) = self.out.parse_record(&r.range, &r.path) else { continue };
            match v {
                Value::Object(o) if is_payload(&o) => self.payload(&r.range, &r.path, o),
                Value::Object(o) if is_run(&o) => self.tree(r.range.clone(), r.path.clone(), o, None, None, true),
                other => {
                    let found = crate::import::json_type(&other);
                    self.out.diag_in(Error, "not-langsmith", format!("expected a LangSmith run (`id`, `run_type`, `trace_id`) or an ingest payload (`post`, `patch`), found {found}"), &r.range, &r.path, &[], None);
                    self.out.set_aside(r.range.clone(), r.path.clone(), "not a LangSmith run or payload");
                }
            }
        }
        self.runs
    }

    /// A run and its `child_runs`, depth first, each its own record.
    /// `own`: `range` is the run object's own (see [`RunRec::own_range`]).
    fn tree(&mut self, range: Range<usize>, path: String, o: Map<String, Value>, parent: Option<String>, trace: Option<String>, own: bool) {
        let mut stack = vec![(range, path, o, parent, trace, own)];
        while let Some((range, path, mut o, parent, trace, own)) = stack.pop() {
            let children = o.remove("child_runs");
            let id = id_of(&o);
            let dotted = o.field("dotted_order").and_then(Value::as_str).and_then(dotted_parent);
            let parent = o.field("parent_run_id").and_then(Value::as_str).map(str::to_string).or(parent).or(dotted);
            let trace = o.field("trace_id").and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_string).or(trace).or_else(|| id.clone()).unwrap_or_default();
            let kids = match children {
                Some(Value::Array(list)) => {
                    let at = member_range(self.input.bytes, range.start, &self.input.split.ends, "child_runs");
                    let ranges = at.map(|r| list_items(self.input.bytes, &r, &self.input.split.ends)).unwrap_or_default();
                    let mut kids = Vec::new();
                    let n = list.len();
                    for (i, c) in list.into_iter().enumerate() {
                        let segs = [Seg::key("child_runs"), Seg::Index(i)];
                        let c_path = render_path(&path, &segs);
                        let c_range = ranges.get(i).cloned().unwrap_or_else(|| range.clone());
                        match c {
                            Value::Object(c) => kids.push((c_range, c_path, c, id.clone(), Some(trace.clone()), own && ranges.len() == n)),
                            other => {
                                self.out.diag_in(Error, "langsmith-invalid", format!("expected a run object, found {}", crate::import::json_type(&other)), &range, &path, &segs, None);
                                self.out.set_aside(c_range, c_path, "a child run that is not an object");
                            }
                        }
                    }
                    kids
                }
                Some(Value::Null) | None => Vec::new(),
                Some(other) => {
                    o.insert("child_runs".to_string(), other);
                    Vec::new()
                }
            };
            self.runs.push(RunRec { range, path, o, patch: None, patch_keys: Vec::new(), history: None, output: None, choices: None, own_range: own, parent, trace });
            stack.extend(kids.into_iter().rev());
        }
    }

    /// `{post, patch}`: each patch laid over its post (by id, else dotted
    /// order); a patch of no post is a run of its own.
    fn payload(&mut self, range: &Range<usize>, path: &str, mut o: Map<String, Value>) {
        let mut lists = Vec::new();
        for key in ["post", "patch"] {
            let at = member_range(self.input.bytes, range.start, &self.input.split.ends, key);
            let ranges = at.map(|r| list_items(self.input.bytes, &r, &self.input.split.ends)).unwrap_or_default();
            let list = match o.remove(key) {
                Some(Value::Array(l)) => l,
                _ => Vec::new(),
            };
            let mut found = Vec::new();
            let n = list.len();
            for (i, v) in list.into_iter().enumerate() {
                let segs = [Seg::key(key), Seg::Index(i)];
                let p = render_path(path, &segs);
                let r = ranges.get(i).cloned().unwrap_or_else(|| range.clone());
                match v {
                    Value::Object(run) => found.push((r, p, run, ranges.len() == n)),
                    other => {
                        self.out.diag_in(Error, "langsmith-invalid", format!("expected a run object, found {}", crate::import::json_type(&other)), range, path, &segs, None);
                        self.out.set_aside(r, p, "a run that is not an object");
                    }
                }
            }
            lists.push(found);
        }
        let mut lists = lists.into_iter();
        let (posts, patches) = (lists.next().unwrap_or_default(), lists.next().unwrap_or_default());
        let first = self.runs.len();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for (r, p, run, own) in posts {
            let n = self.runs.len();
            if let Some(id) = id_of(&run) {
                by_key.insert(id, n);
            }
            if let Some(d) = run.field("dotted_order").and_then(Value::as_str) {
                by_key.entry(format!("dotted:{d}")).or_insert(n);
            }
            self.tree(r, p, run, None, None, own);
        }
        for (r, p, patch, own) in patches {
            let key = id_of(&patch).or_else(|| patch.field("dotted_order").and_then(Value::as_str).map(|d| format!("dotted:{d}")));
            let target = key.as_ref().and_then(|k| by_key.get(k)).copied().filter(|&n| n >= first);
            match target.and_then(|n| self.runs.get_mut(n)) {
                Some(run) if run.patch.is_none() => {
                    for (k, v) in patch {
                        if !v.is_null() {
                            if k == "inputs" {
                                run.history = None;
                            }
                            if k == "outputs" {
                                run.choices = None;
                            }
                            run.patch_keys.push(k.clone());
                            run.o.insert(k, v);
                        }
                    }
                    if let Some(parent) = run.o.field("parent_run_id").and_then(Value::as_str) {
                        run.parent = Some(parent.to_string());
                    }
                    if let Some(trace) = run.o.field("trace_id").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                        run.trace = trace.to_string();
                    }
                    run.patch = Some((r, p));
                    run.own_range = false;
                }
                _ => {
                    self.out.diag_in(Warning, "unmatched-patch", "this patch completes no run posted in this payload; shown as a run of its own".to_string(), &r, &p, &[], None);
                    self.tree(r, p, patch, None, None, own);
                }
            }
        }
    }
}
