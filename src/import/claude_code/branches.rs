//! The `parentUuid` tree of a run: the main chain runs from the last
//! conversation record back to the root (through `logicalParentUuid` across
//! a compaction); `user`/`assistant` records off it were left by a rewind or
//! an edited prompt, and are marked `abandoned_branch`.

use crate::diagnostic::Severity;
use crate::import::Builder;

/// One record of a run in the tree, its ids by their numbers
/// ([`super::ids::Symbols`], given while the record was read: looked up
/// here, in the source, each id was a miss to memory).
pub struct Node {
    pub event: u32,
    pub uuid: Option<u32>,
    /// `parentUuid`, else `logicalParentUuid`.
    pub parent: Option<u32>,
    /// `parent` is a compaction's `logicalParentUuid`: when the file lacks
    /// that record, the boundary follows the record before it.
    pub logical: bool,
    /// A `user` or `assistant` record (the turns a branch is made of).
    pub conversation: bool,
    /// A record of tool results: it hangs off its call's record, beside the
    /// chain when calls ran in parallel, and is on a branch only when its
    /// parent is.
    pub attached: bool,
    /// An assistant record's `message.id`: the records of one response are
    /// one turn, though parallel calls put some of them beside the chain.
    pub message_id: Option<u32>,
}

/// Marks the conversation records off the main chain, and reports where
/// each branch leaves it; `symbols`: the ids' numbers are below it.
pub fn mark(out: &mut Builder, nodes: &[Node], symbols: usize) {
    // The last node of each uuid, by its number.
    let mut node_of = vec![None; symbols];
    for (i, n) in nodes.iter().enumerate() {
        if let Some(slot) = n.uuid.and_then(|u| node_of.get_mut(u as usize)) {
            *slot = Some(i);
        }
    }
    // Each node's parent, by index.
    let mut previous: Option<usize> = None;
    let parents: Vec<Option<usize>> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let p = match n.parent.map(|p| node_of.get(p as usize).copied().flatten()) {
                Some(Some(p)) => Some(p),
                Some(None) if n.logical => previous,
                _ => None,
            };
            if n.uuid.is_some() {
                previous = Some(i);
            }
            p
        })
        .collect();
    let Some(leaf) = nodes.iter().rposition(|n| n.conversation && n.uuid.is_some()) else { return };
    let mut chain = vec![false; nodes.len()];
    let mut at = Some(leaf);
    while let Some(i) = at {
        match chain.get_mut(i) {
            Some(c) if !*c => *c = true,
            _ => break, // a cycle: stop where it closes
        }
        at = parents.get(i).copied().flatten();
    }
    let on_chain = |i: Option<usize>| i.is_some_and(|i| chain.get(i).copied().unwrap_or(false));
    // The message ids on the chain, by number.
    let mut turns = vec![false; symbols];
    for n in nodes.iter().zip(&chain).filter(|(_, c)| **c).map(|(n, _)| n) {
        if let Some(t) = n.message_id.and_then(|m| turns.get_mut(m as usize)) {
            *t = true;
        }
    }
    let mut abandoned = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if on_chain(Some(i)) || n.message_id.is_some_and(|m| turns.get(m as usize).copied().unwrap_or(false)) {
            continue;
        }
        // Only records that leave the chain, or descend from such, are on a
        // branch; a part of the tree the chain never reaches (its parent
        // missing from the file) says nothing about one.
        let parent = parents.get(i).copied().flatten();
        let parent_abandoned = parent.is_some_and(|p| abandoned.get(p).copied().unwrap_or(false));
        let branch_start = on_chain(parent) && n.conversation && !n.attached;
        if !(parent_abandoned || branch_start) {
            continue;
        }
        if let Some(a) = abandoned.get_mut(i) {
            *a = true;
        }
        if !n.conversation {
            continue;
        }
        let Some(e) = out.event_mut(n.event) else { continue };
        e.metadata.insert("abandoned_branch".to_string(), serde_json::Value::Bool(true));
        if branch_start {
            let (path, offset) = (e.path.clone(), e.raw.start);
            let message = "a branch leaves the main chain here (a rewind or an edited prompt): its records are marked `abandoned_branch`".to_string();
            out.diag(Severity::Info, "abandoned-branch", message, path, offset, Some(n.event));
        }
    }
}
