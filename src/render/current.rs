//! The current AgentRun text: docent 0.1.88's
//! `AgentRunView.from_agent_run(run, context_config).to_text()`.
//!
//! A port of `AgentRunTree.from_agent_run` (transcript groups as a tree,
//! siblings sorted by `created_at` with missing times last, transcripts
//! numbered in pre-order), `_compute_visible_node_ids` (name filters, the most
//! specific decision wins down the tree) and the `to_text` methods of
//! AgentRun, TranscriptGroup and Transcript, with metadata as
//! `json.dumps(indent=2)` filtered by the context config.

use std::collections::{HashMap, HashSet};

use super::context::{filter_metadata, name_decision, ContextConfig, GlobFilter, Specificity, NO_MATCH};
use super::legacy::push_tool_calls_text;
use crate::agentrun::py::{py_str, Py};
use super::pyjson::dumps_indent2;
use crate::agentrun::{DocContent, DocMessage, DocPart, DocRun, DocTranscript};
use super::RenderError;

const ROOT: &str = "__global_root";

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Run,
    Group,
    Transcript,
}

struct Node {
    kind: Kind,
    children: Vec<String>,
    has_transcript: bool,
}

/// `AgentRunTree`.
struct Tree {
    nodes: HashMap<String, Node>,
    t_index: HashMap<String, usize>,
}

/// A `created_at` as Python compares it: aware times by instant, naive by wall time.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct When {
    aware: bool,
    micros: i128,
}

/// `datetime.max`, naive: what a missing `created_at` sorts as.
const MAX_TIME: When = When { aware: false, micros: i128::MAX };

pub fn render(run: &DocRun, config: &ContextConfig) -> Result<String, RenderError> {
    render_into(run, config, String::new())
}

/// [`render`] into `out`, a buffer taken before the run was mapped
/// ([`super::size`] says why); replaced when its capacity is far from the
/// run's text size.
pub fn render_into(run: &DocRun, config: &ContextConfig, mut out: String) -> Result<String, RenderError> {
    let need = super::size::of_run(run);
    // Both are estimates, a few percent over: near enough is kept.
    if out.capacity() < need - need / 8 || out.capacity() / 2 > need {
        out = String::with_capacity(need);
    }
    out.clear();
    let transcripts = by_id(&run.transcripts, |t| &t.id);
    let groups = by_id(&run.groups, |g| &g.id);
    let tree = build_tree(&transcripts, &groups)?;
    let visible = visible_nodes(&tree, &transcripts, &groups, config);
    let r = Renderer { tree: &tree, transcripts: &transcripts, groups: &groups, config, visible: &visible };
    r.node(ROOT, run, 0, &mut out)?;
    Ok(out)
}

/// `{x.id: x for x in items}`: first position, last value.
struct ById<'a, T> {
    order: Vec<(String, &'a T)>,
    index: HashMap<String, usize>,
}

impl<'a, T> ById<'a, T> {
    fn iter(&self) -> impl Iterator<Item = &(String, &'a T)> {
        self.order.iter()
    }
}

fn by_id<T>(items: &[T], id: impl Fn(&T) -> &String) -> ById<'_, T> {
    let mut out = ById { order: Vec::new(), index: HashMap::new() };
    for item in items {
        let key = id(item);
        match out.index.get(key).and_then(|&i| out.order.get_mut(i)) {
            Some(slot) => slot.1 = item,
            None => {
                out.index.insert(key.clone(), out.order.len());
                out.order.push((key.clone(), item));
            }
        }
    }
    out
}

fn lookup<'a, T>(items: &ById<'a, T>, id: &str) -> Option<&'a T> {
    items.index.get(id).and_then(|&i| items.order.get(i)).map(|(_, v)| *v)
}

fn build_tree(transcripts: &ById<DocTranscript>, groups: &ById<crate::agentrun::DocGroup>) -> Result<Tree, RenderError> {
    let mut nodes: HashMap<String, Node> = HashMap::new();
    let new = |kind| Node { kind, children: Vec::new(), has_transcript: false };
    nodes.insert(ROOT.to_string(), new(Kind::Run));
    for (id, g) in groups.iter() {
        nodes.entry(id.clone()).or_insert_with(|| new(Kind::Group));
        let parent = g.parent_id.clone().filter(|p| !p.is_empty()).unwrap_or_else(|| ROOT.to_string());
        let kind = if parent == ROOT { Kind::Run } else { Kind::Group };
        nodes.entry(parent).or_insert_with(|| new(kind)).children.push(id.clone());
    }
    for (id, t) in transcripts.iter() {
        nodes.insert(id.clone(), new(Kind::Transcript));
        let mut parent = t.group_id.clone().filter(|p| !p.is_empty()).unwrap_or_else(|| ROOT.to_string());
        if !nodes.contains_key(&parent) {
            parent = ROOT.to_string();
        }
        if let Some(p) = nodes.get_mut(&parent) {
            p.children.push(id.clone());
        }
    }
    // Sort every node's children by created_at (stable); Python raises when aware and naive times meet.
    let kinds: HashMap<String, Kind> = nodes.iter().map(|(k, n)| (k.clone(), n.kind)).collect();
    let when_of = |id: &String| -> Result<When, RenderError> {
        let created = match kinds.get(id) {
            Some(Kind::Group) => lookup(groups, id).and_then(|g| g.created_at.as_ref()),
            Some(Kind::Transcript) => lookup(transcripts, id).and_then(|t| t.created_at.as_ref()),
            _ => None,
        };
        match created {
            None => Ok(MAX_TIME),
            Some(v) => parse_datetime(v).ok_or_else(|| RenderError::new(format!("`created_at` {} is not a date-time Docent reads", py_str(v)))),
        }
    };
    for node in nodes.values_mut() {
        let mut keyed = Vec::new();
        for c in &node.children {
            keyed.push((when_of(c)?, c.clone()));
        }
        if keyed.len() > 1 && keyed.iter().any(|(w, _)| w.aware) && keyed.iter().any(|(w, _)| !w.aware) {
            return Err(RenderError::new(
                "docent 0.1.88 raises TypeError (can't compare offset-naive and offset-aware datetimes): siblings mix `created_at` with and without a time zone, or a time zone with a missing `created_at`",
            ));
        }
        crate::sort::by_key(&mut keyed, |k| k.0.micros);
        node.children = keyed.into_iter().map(|(_, c)| c).collect();
    }
    let mut tree = Tree { nodes, t_index: HashMap::new() };
    let mut next = 0;
    let mut seen = Vec::new();
    mark(&mut tree, ROOT, &mut next, &mut seen)?;
    Ok(tree)
}

/// Pre-order DFS: marks subtrees holding transcripts and numbers transcripts.
fn mark(tree: &mut Tree, id: &str, next: &mut usize, path: &mut Vec<String>) -> Result<bool, RenderError> {
    let Some(node) = tree.nodes.get(id) else { return Ok(false) };
    if node.kind == Kind::Transcript {
        tree.t_index.insert(id.to_string(), *next);
        *next += 1;
        if let Some(n) = tree.nodes.get_mut(id) {
            n.has_transcript = true;
        }
        return Ok(true);
    }
    if path.iter().any(|p| p == id) || path.len() > 256 {
        return Err(RenderError::new("transcript groups form a cycle through the run (docent 0.1.88 recurses without end)"));
    }
    path.push(id.to_string());
    let children = node.children.clone();
    let mut any = false;
    for c in &children {
        any = mark(tree, c, next, path)? || any;
    }
    path.pop();
    if let Some(n) = tree.nodes.get_mut(id) {
        n.has_transcript = any;
    }
    Ok(any)
}

type Decision = Option<(bool, (i64, i64, i64))>;

/// `_updated_visibility_decision`.
fn update(best: Decision, included: bool, spec: Specificity, object: i64) -> Decision {
    if spec == NO_MATCH {
        return best;
    }
    let s = (spec.0, spec.1, object);
    match best {
        None => Some((included, s)),
        Some((best_included, best_s)) if s > best_s || (s == best_s && best_included && !included) => Some((included, s)),
        keep => keep,
    }
}

fn visible_nodes(tree: &Tree, transcripts: &ById<DocTranscript>, groups: &ById<crate::agentrun::DocGroup>, config: &ContextConfig) -> HashSet<String> {
    let mut visible = HashSet::from([ROOT.to_string()]);
    visit(tree, ROOT, None, 0, transcripts, groups, config, &mut visible, 0);
    visible
}

#[allow(clippy::too_many_arguments)]
fn visit(
    tree: &Tree,
    id: &str,
    mut best: Decision,
    mut depth: i64,
    transcripts: &ById<DocTranscript>,
    groups: &ById<crate::agentrun::DocGroup>,
    config: &ContextConfig,
    visible: &mut HashSet<String>,
    guard: usize,
) -> bool {
    let Some(node) = tree.nodes.get(id) else { return false };
    if !node.has_transcript || guard > 256 {
        return false;
    }
    if node.kind == Kind::Transcript {
        if let Some(t) = lookup(transcripts, id) {
            let (inc, spec) = name_decision(t.name.as_deref(), &config.transcript_names, Some(&t.id));
            best = update(best, inc, spec, 10_000);
        }
        let shown = best.is_some_and(|(inc, _)| inc);
        if shown {
            visible.insert(id.to_string());
        }
        return shown;
    }
    if node.kind == Kind::Group {
        depth += 1;
        if let Some(g) = lookup(groups, id) {
            let (inc, spec) = name_decision(g.name.as_deref(), &config.transcript_group_names, Some(&g.id));
            best = update(best, inc, spec, depth);
        }
    }
    let mut any = false;
    for c in &node.children {
        any = visit(tree, c, best, depth, transcripts, groups, config, visible, guard + 1) || any;
    }
    if any {
        visible.insert(id.to_string());
    }
    any
}

struct Renderer<'a> {
    tree: &'a Tree,
    transcripts: &'a ById<'a, DocTranscript>,
    groups: &'a ById<'a, crate::agentrun::DocGroup>,
    config: &'a ContextConfig,
    visible: &'a HashSet<String>,
}

impl Renderer<'_> {
    /// Appends node `id`'s text to `out`: every piece written once, into one
    /// buffer (the text of a 100 MB run is about 100 MB; building it from
    /// nested `format!`s copied it five times).
    fn node(&self, id: &str, run: &DocRun, depth: usize, out: &mut String) -> Result<(), RenderError> {
        let Some(u) = self.tree.nodes.get(id).filter(|n| n.has_transcript || id == ROOT) else { return Ok(()) };
        if depth > 256 {
            return Err(RenderError::new("transcript groups nest too deep"));
        }
        let group = if id == ROOT {
            None
        } else {
            let Some(g) = lookup(self.groups, id) else {
                return Err(RenderError::new(format!("docent 0.1.88 raises KeyError: transcript group {id:?} is missing")));
            };
            Some((g, g.name.clone().unwrap_or_else(|| "None".to_string())))
        };
        match &group {
            None => out.push_str("<|agent run R0|>\n"),
            Some((_, name)) => push_all(out, &["<|", name, "|>\n"]),
        }
        let mut first = true;
        for v_id in &u.children {
            if !self.visible.contains(v_id) {
                continue;
            }
            let Some(v) = self.tree.nodes.get(v_id).filter(|n| n.has_transcript) else { continue };
            match v.kind {
                Kind::Group => {
                    if !std::mem::take(&mut first) {
                        out.push('\n');
                    }
                    self.node(v_id, run, depth + 1, out)?;
                }
                Kind::Transcript => {
                    let (Some(t), Some(idx)) = (lookup(self.transcripts, v_id), self.tree.t_index.get(v_id)) else { continue };
                    if !std::mem::take(&mut first) {
                        out.push('\n');
                    }
                    push_transcript(t, *idx, &self.config.transcript_metadata, &self.config.message_metadata, out);
                }
                Kind::Run => return Err(RenderError::new("a transcript group names the run's root as its parent")),
            }
        }
        match &group {
            None => {
                if let Some(md) = dump_metadata(&run.metadata, &self.config.agent_run_metadata) {
                    push_all(out, &["\n<|agent run metadata R0M|>\n", &md, "\n</|agent run metadata R0M|>"]);
                }
                out.push_str("\n</|agent run R0|>\n");
            }
            Some((g, name)) => {
                if let Some(md) = dump_metadata(&g.metadata, &self.config.transcript_group_metadata) {
                    push_all(out, &["\n<|", name, " metadata|>\n", &md, "\n</|", name, " metadata|>"]);
                }
                push_all(out, &["\n</|", name, "|>"]);
            }
        }
        Ok(())
    }
}

fn push_all(out: &mut String, parts: &[&str]) {
    for p in parts {
        out.push_str(p);
    }
}

/// `dump_metadata`: None when the filtered metadata is empty.
fn dump_metadata(md: &[(String, Py)], filter: &GlobFilter) -> Option<String> {
    let filtered = filter_metadata(md, filter);
    if filtered.is_empty() {
        return None;
    }
    Some(dumps_indent2(&Py::Dict(filtered)).trim().to_string())
}

fn push_transcript(t: &DocTranscript, idx: usize, metadata_filter: &GlobFilter, message_filter: &GlobFilter, out: &mut String) {
    let alias = format!("T{idx}");
    push_all(out, &["<|transcript ", &alias, "|>\n<|", &alias, " blocks|>\n"]);
    let mut label = String::new();
    for (i, m) in t.messages.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        label.clear();
        label.push_str(&alias);
        label.push('B');
        label.push_str(&i.to_string());
        push_message(m, &label, message_filter, out);
    }
    push_all(out, &["\n</|", &alias, " blocks|>"]);
    if let Some(md) = dump_metadata(&t.metadata, metadata_filter) {
        push_all(out, &["\n<|transcript metadata ", &alias, "M|>\n", &md, "\n</|transcript metadata ", &alias, "M|>"]);
    }
    push_all(out, &["\n</|transcript ", &alias, "|>\n"]);
}

fn push_message(m: &DocMessage, label: &str, message_filter: &GlobFilter, out: &mut String) {
    push_all(out, &["<|", label, "; role: ", m.role, "|>\n"]);
    if m.role == "assistant" {
        if let DocContent::Parts(parts) = &m.content {
            // The last reasoning part only: Docent's loop overwrites.
            let last = parts.iter().rev().find_map(|p| match p {
                DocPart::Reasoning { reasoning, summary, redacted } => Some((reasoning, summary, redacted)),
                _ => None,
            });
            if let Some((reasoning, summary, redacted)) = last {
                // `display_reasoning`: the summary of redacted reasoning, when there is one.
                let shown = match (redacted, summary) {
                    (true, Some(s)) if !s.is_empty() => s,
                    _ => reasoning,
                };
                push_all(out, &["<reasoning>\n", shown, "\n</reasoning>\n"]);
            }
        }
    }
    m.push_text(out);
    push_tool_calls_text(m, out);
    if let Some(Py::Dict(md)) = &m.metadata {
        if !md.is_empty() {
            if let Some(text) = dump_metadata(md, message_filter) {
                push_all(out, &["\n<|message metadata|>\n", &text, "\n</|message metadata|>"]);
            }
        }
    }
    push_all(out, &["\n</|", label, "; role: ", m.role, "|>"]);
}

/// A `created_at` as pydantic reads it: ISO 8601 (date, or date and time with
/// optional fraction and `Z`/`±HH:MM`/`±HHMM`) or a unix timestamp (aware,
/// UTC; milliseconds above 2e10).
fn parse_datetime(v: &Py) -> Option<When> {
    match v {
        Py::Int(i) => timestamp(i.parse::<f64>().ok()?),
        Py::Float(f) => timestamp(*f),
        Py::Str(s) => {
            let s = s.trim();
            iso(s).or_else(|| timestamp(crate::analysis::time::iso::numeric(s)?))
        }
        _ => None,
    }
}

fn timestamp(x: f64) -> Option<When> {
    let seconds = crate::analysis::time::iso::unix_seconds(x);
    Some(When { aware: true, micros: (seconds * 1e6).round() as i128 })
}

/// The date-time string as pydantic reads it ([`crate::analysis::time::iso`],
/// the validators' reader too); naive values stay naive, as Docent compares them.
fn iso(s: &str) -> Option<When> {
    let d = crate::analysis::time::iso::parse(s.as_bytes()).ok()?;
    Some(When { aware: d.aware, micros: i128::from(d.micros) })
}
