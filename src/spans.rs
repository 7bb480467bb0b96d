//! Span trees: how the records of a run nest under named spans.
//!
//! Some formats name a span path on every record (Agent Catalog's
//! `span.name`, root first) and open and close spans with begin/end records.
//! The tree is built from the paths alone, so records of a span that was never
//! opened still find their place; begin/end records are then paired per span
//! (the last open begin of the same path takes an end), and what stays
//! unpaired is reported. Hand-offs between spans (Agent Catalog `edge`
//! records) are listed beside the tree.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use crate::model::{Event, EventBody, SpanPhase, Trace};

/// The spans of a trace, per run.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanTree {
    pub nodes: Vec<SpanNode>,
    /// Indices of the nodes without a parent, in order of first appearance.
    pub roots: Vec<usize>,
    pub handoffs: Vec<Handoff>,
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

/// A unit of work handing over to another: a marker event whose metadata
/// names a `source` and a `dest` span path.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Handoff {
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
        if let EventBody::Marker(_) = &e.body {
            if let (Some(source), Some(dest)) = (names(e.metadata.get("source")), names(e.metadata.get("dest"))) {
                b.handoffs.push((index, e.run, source, dest));
            }
        }
    }
    b.finish()
}

/// A list of span names, non-strings shown as their JSON.
fn names(v: Option<&Value>) -> Option<Vec<String>> {
    let items = v?.as_array()?;
    Some(items.iter().map(|x| x.as_str().map(str::to_string).unwrap_or_else(|| x.to_string())).collect())
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
            self.tree.handoffs.push(Handoff { event, run, source, dest, source_node, dest_node });
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
            source_kind: String::new(),
            timestamp: None,
            raw: 0..0,
            path: "$".to_string(),
            line: 1,
            column: 1,
            span: Some(span),
            failed: false,
            metadata: Metadata::new(),
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
