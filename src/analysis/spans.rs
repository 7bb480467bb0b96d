//! Span trees: how the records of a run nest under named spans.
//!
//! Some formats name a span path on every record (Agent Catalog's
//! `span.name`, root first) and open and close spans with begin/end records.
//! The tree is built from the paths alone, so records of a span that was never
//! opened still find their place; begin/end records are then paired per span
//! (the last open begin of the same path takes an end), and what stays
//! unpaired is reported. Hand-offs between spans (Agent Catalog `edge`
//! records) are listed beside the tree.
//!
//! The one place spans are walked: the flat list the page shows
//! ([`SpanTree::rows`], `trace.spans()`) and the span each event is in
//! (`span:` queries, [`SpanTree::event_nodes`]) are read off this tree.

use std::collections::HashMap;

use serde::Serialize;

use crate::model::{Event, EventBody, SpanPhase, Trace};

/// The spans of a trace, per run.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanTree {
    pub nodes: Vec<SpanNode>,
    /// Indices of the nodes without a parent, in order of first appearance.
    pub roots: Vec<usize>,
    pub handoffs: Vec<SpanHandoff>,
    /// Begin/end records that found no partner, in event order.
    pub issues: Vec<SpanIssue>,
}

/// One span path of one run. A span opened several times has one node with
/// several occurrences.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanNode {
    pub run: u32,
    /// The span's own name, the last step of its path (see [`SpanTree::path`]).
    pub name: String,
    /// 0 for a root.
    pub depth: u32,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Each opening and closing of the span, in order.
    pub occurrences: Vec<SpanOccurrence>,
    /// Every event logged under exactly this path (begin/end included).
    pub events: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanOccurrence {
    pub begin: Option<u32>,
    pub end: Option<u32>,
}

/// A unit of work handing over to another: an event with a typed
/// [`crate::model::Handoff`] (Agent Catalog `edge` records).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanHandoff {
    pub event: u32,
    pub run: u32,
    pub source: Vec<String>,
    pub dest: Vec<String>,
    /// The nodes of those paths, when records were logged under them.
    pub source_node: Option<usize>,
    pub dest_node: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanIssue {
    /// `span-not-ended` or `span-end-without-begin`.
    pub code: &'static str,
    pub event: u32,
    pub run: u32,
    pub node: usize,
}

impl SpanTree {
    /// The full name path of a node, root first.
    pub fn path(&self, node: usize) -> Vec<String> {
        let mut names = Vec::new();
        let mut at = self.nodes.get(node);
        while let Some(n) = at {
            names.push(n.name.clone());
            at = n.parent.and_then(|p| self.nodes.get(p));
        }
        names.reverse();
        names
    }

    /// The node of `path` in `run`.
    pub fn find(&self, run: u32, path: &[String]) -> Option<usize> {
        let mut candidates: &[usize] = &self.roots;
        let mut found = None;
        for name in path {
            let n = candidates.iter().copied().find(|&c| self.nodes.get(c).is_some_and(|n| n.run == run && &n.name == name))?;
            found = Some(n);
            candidates = self.nodes.get(n).map(|n| n.children.as_slice()).unwrap_or(&[]);
        }
        found
    }

    /// Every opening of a span, in the order they begin, with its depth and
    /// its first and last record: the flat list `trace.spans()` gives.
    pub fn rows<'t>(&self, trace: &'t Trace) -> Vec<SpanRow<'t>> {
        let time = |e: Option<u32>| e.and_then(|e| trace.events.get(e as usize)).and_then(|e| e.timestamp.as_deref());
        let mut rows: Vec<SpanRow> = Vec::new();
        for (index, node) in self.nodes.iter().enumerate() {
            for o in &node.occurrences {
                let Some(begin) = o.begin else { continue };
                rows.push(SpanRow {
                    run: node.run,
                    name: node.name.clone(),
                    path: self.path(index).join("/"),
                    depth: node.depth,
                    begin,
                    end: o.end,
                    start_time: time(Some(begin)),
                    end_time: time(o.end),
                });
            }
        }
        crate::sort::by_key(&mut rows, |r| r.begin);
        rows
    }

    /// The node each event is in ([`NO_NODE`]: none): the node of its own
    /// span path for records that name one and for span records, else the
    /// innermost span begun before it and not yet ended, in its run. An end
    /// closes its span and the spans opened inside it and left open.
    pub fn event_nodes(&self, events: &[Event]) -> Vec<u32> {
        let mut own = vec![NO_NODE; events.len()];
        let mut begins = vec![NO_NODE; events.len()];
        let mut ends = vec![NO_NODE; events.len()];
        for (index, node) in self.nodes.iter().enumerate() {
            let id = crate::source::clamp_u32(index);
            for e in &node.events {
                if let Some(slot) = own.get_mut(*e as usize) {
                    *slot = id;
                }
            }
            for o in &node.occurrences {
                if let Some(slot) = o.begin.and_then(|b| begins.get_mut(b as usize)) {
                    *slot = id;
                }
                if let Some(slot) = o.end.and_then(|e| ends.get_mut(e as usize)) {
                    *slot = id;
                }
            }
        }
        let mut open: Vec<u32> = Vec::new();
        let mut run = u32::MAX;
        for (i, e) in events.iter().enumerate() {
            if e.run != run {
                run = e.run;
                open.clear();
            }
            let (begin, end) = (begins.get(i).copied().unwrap_or(NO_NODE), ends.get(i).copied().unwrap_or(NO_NODE));
            if begin != NO_NODE {
                open.push(begin);
            }
            if end != NO_NODE {
                if let Some(at) = open.iter().rposition(|n| *n == end) {
                    open.truncate(at);
                }
            }
            if let Some(slot) = own.get_mut(i).filter(|n| **n == NO_NODE) {
                *slot = open.last().copied().unwrap_or(NO_NODE);
            }
        }
        own
    }
}

/// No span: see [`SpanTree::event_nodes`].
pub const NO_NODE: u32 = u32::MAX;

/// One opening of a span, for the flat list of spans (`trace.spans()`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanRow<'t> {
    pub run: u32,
    pub name: String,
    /// Names from the root, joined with `/`.
    pub path: String,
    pub depth: u32,
    /// Event index of the span's begin record.
    pub begin: u32,
    /// Event index of its end record (None: never closed).
    pub end: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<&'t str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<&'t str>,
}

/// The span tree of a parsed trace.
pub fn span_tree(trace: &Trace) -> SpanTree {
    build(&trace.events)
}

/// Builds the tree from events (also used by importers before the trace exists).
pub fn build(events: &[Event]) -> SpanTree {
    let mut b = TreeBuilder::default();
    for (i, e) in events.iter().enumerate() {
        let index = crate::source::clamp_u32(i);
        if let Some(h) = &e.facts().handoff {
            b.handoffs.push((index, e.run, h.source.clone(), h.dest.clone()));
        }
        let path = match &e.body {
            EventBody::Span(s) => Some(&s.name),
            _ => e.span.as_ref(),
        };
        let Some(path) = path else { continue };
        let node = b.node(e.run, path);
        if let Some(n) = b.tree.nodes.get_mut(node) {
            n.events.push(index);
        }
        if let EventBody::Span(s) = &e.body {
            b.phase(node, index, s.phase);
        }
    }
    b.finish()
}

#[derive(Default)]
struct TreeBuilder {
    tree: SpanTree,
    /// (run, parent or `usize::MAX` for a root, own name) → node.
    index: HashMap<(u32, usize, String), usize>,
    /// Per node: occurrences begun and not yet ended.
    open: HashMap<usize, Vec<usize>>,
    handoffs: Vec<(u32, u32, Vec<String>, Vec<String>)>,
}

impl TreeBuilder {
    /// The node of `path` in `run`, creating it and its ancestors. Walks the
    /// path once, so a very long path costs its length, not its square.
    fn node(&mut self, run: u32, path: &[String]) -> usize {
        let mut parent: Option<usize> = None;
        let mut node = None;
        for name in path {
            let key = (run, parent.unwrap_or(usize::MAX), name.clone());
            let n = match self.index.get(&key) {
                Some(&n) => n,
                None => self.create(key, parent),
            };
            parent = Some(n);
            node = Some(n);
        }
        match node {
            Some(n) => n,
            // The empty path `[]` is a root of its own, named "".
            None => {
                let key = (run, usize::MAX, String::new());
                match self.index.get(&key) {
                    Some(&n) => n,
                    None => self.create(key, None),
                }
            }
        }
    }

    /// The node of `path` in `run`, if records were logged under it.
    fn find(&self, run: u32, path: &[String]) -> Option<usize> {
        let mut parent = usize::MAX;
        for name in path {
            parent = *self.index.get(&(run, parent, name.clone()))?;
        }
        (parent != usize::MAX).then_some(parent)
    }

    fn create(&mut self, key: (u32, usize, String), parent: Option<usize>) -> usize {
        let n = self.tree.nodes.len();
        let depth = parent.and_then(|p| self.tree.nodes.get(p)).map(|p| p.depth + 1).unwrap_or(0);
        self.tree.nodes.push(SpanNode {
            run: key.0,
            name: key.2.clone(),
            depth,
            parent,
            children: Vec::new(),
            occurrences: Vec::new(),
            events: Vec::new(),
        });
        match parent.and_then(|p| self.tree.nodes.get_mut(p)) {
            Some(p) => p.children.push(n),
            None => self.tree.roots.push(n),
        }
        self.index.insert(key, n);
        n
    }

    fn phase(&mut self, node: usize, event: u32, phase: SpanPhase) {
        let Some(n) = self.tree.nodes.get_mut(node) else { return };
        let open = self.open.entry(node).or_default();
        match phase {
            SpanPhase::Begin => {
                open.push(n.occurrences.len());
                n.occurrences.push(SpanOccurrence { begin: Some(event), end: None });
            }
            SpanPhase::End => match open.pop().and_then(|o| n.occurrences.get_mut(o)) {
                Some(o) => o.end = Some(event),
                None => {
                    n.occurrences.push(SpanOccurrence { begin: None, end: Some(event) });
                    let issue = SpanIssue { code: "span-end-without-begin", event, run: n.run, node };
                    self.tree.issues.push(issue);
                }
            },
        }
    }

    fn finish(mut self) -> SpanTree {
        for (index, node) in self.tree.nodes.iter().enumerate() {
            for o in &node.occurrences {
                if let (Some(begin), None) = (o.begin, o.end) {
                    let issue = SpanIssue { code: "span-not-ended", event: begin, run: node.run, node: index };
                    self.tree.issues.push(issue);
                }
            }
        }
        crate::sort::by_key(&mut self.tree.issues, |i| i.event);
        for (event, run, source, dest) in std::mem::take(&mut self.handoffs) {
            let source_node = self.find(run, &source);
            let dest_node = self.find(run, &dest);
            self.tree.handoffs.push(SpanHandoff { event, run, source, dest, source_node, dest_node });
        }
        self.tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Marker, Metadata};

    fn event(run: u32, span: Vec<String>, body: EventBody) -> Event {
        Event {
            run,
            transcript: 0,
            body,
            source_kind: Default::default(),
            timestamp: None,
            raw: 0..0,
            path: "$".to_string(),
            span: Some(span),
            failed: false,
            metadata: Metadata::new().into(),
            facts: None,
        }
    }

    #[test]
    fn a_very_deep_path_builds_without_recursion() {
        let path: Vec<String> = (0..50_000).map(|i| i.to_string()).collect();
        let tree = build(&[event(0, path.clone(), EventBody::Marker(Marker { label: String::new() }))]);
        assert_eq!(tree.nodes.len(), 50_000);
        let leaf = tree.find(0, &path).unwrap();
        assert_eq!(tree.nodes[leaf].depth, 49_999);
        assert_eq!(tree.path(leaf), path);
    }

    fn span(run: u32, name: &[&str], phase: SpanPhase) -> Event {
        let name: Vec<String> = name.iter().map(|s| s.to_string()).collect();
        Event { span: None, ..event(run, Vec::new(), EventBody::Span(crate::model::SpanEvent { name, phase })) }
    }

    fn plain(run: u32) -> Event {
        Event { span: None, ..event(run, Vec::new(), EventBody::Marker(Marker { label: String::new() })) }
    }

    #[test]
    fn events_are_in_the_innermost_open_span_and_an_end_closes_what_it_encloses() {
        use SpanPhase::{Begin, End};
        let events = vec![
            plain(0),                       // 0: outside
            span(0, &["a"], Begin),         // 1
            span(0, &["a", "b"], Begin),    // 2: never ended
            plain(0),                       // 3: in a/b
            span(0, &["a"], End),           // 4: closes a, and a/b with it
            plain(0),                       // 5: outside
            span(0, &["x"], End),           // 6: an end without a begin closes nothing
            span(1, &["a"], Begin),         // 7: another run
            plain(1),                       // 8: in run 1's a
        ];
        let tree = build(&events);
        let nodes = tree.event_nodes(&events);
        let path = |e: usize| (nodes[e] != NO_NODE).then(|| tree.path(nodes[e] as usize).join("/"));
        let paths: Vec<Option<String>> = (0..events.len()).map(path).collect();
        let want = [None, Some("a"), Some("a/b"), Some("a/b"), Some("a"), None, Some("x"), Some("a"), Some("a")];
        assert_eq!(paths, want.map(|p| p.map(str::to_string)));
        assert_eq!(tree.nodes[nodes[8] as usize].run, 1);
    }

    #[test]
    fn rows_are_the_openings_in_begin_order() {
        use SpanPhase::{Begin, End};
        let mut trace = crate::parse_trace(br#"[{"role": "user", "content": "x"}]"#.to_vec(), &crate::ParseOptions::default()).unwrap();
        trace.events = vec![span(0, &["a"], Begin), span(0, &["a", "b"], Begin), span(0, &["a", "b"], End), span(0, &["a", "b"], Begin)];
        trace.events[0].timestamp = Some("t0".to_string());
        trace.events[2].timestamp = Some("t2".to_string());
        let rows = span_tree(&trace).rows(&trace);
        let shape: Vec<(&str, &str, u32, u32, Option<u32>)> = rows.iter().map(|r| (r.name.as_str(), r.path.as_str(), r.depth, r.begin, r.end)).collect();
        assert_eq!(shape, vec![("a", "a", 0, 0, None), ("b", "a/b", 1, 1, Some(2)), ("b", "a/b", 1, 3, None)]);
        assert_eq!((rows[0].start_time, rows[1].end_time, rows[2].end_time), (Some("t0"), Some("t2"), None));
    }

    #[test]
    fn runs_have_separate_trees() {
        let a = vec!["a".to_string()];
        let tree = build(&[
            event(0, a.clone(), EventBody::Span(crate::model::SpanEvent { name: a.clone(), phase: SpanPhase::Begin })),
            event(1, a.clone(), EventBody::Span(crate::model::SpanEvent { name: a.clone(), phase: SpanPhase::End })),
        ]);
        assert_eq!(tree.roots.len(), 2);
        let codes: Vec<&str> = tree.issues.iter().map(|i| i.code).collect();
        assert_eq!(codes, ["span-not-ended", "span-end-without-begin"]);
    }
}
