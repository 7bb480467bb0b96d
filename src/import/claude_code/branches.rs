//! The `parentUuid` tree of a run: the main chain runs from the last
//! conversation record back to the root (through `logicalParentUuid` across
//! a compaction); `user`/`assistant` records off it were left by a rewind or
//! an edited prompt, and are marked `abandoned_branch`.

use crate::diagnostic::Severity;
use super::look::Id;
use crate::import::Builder;

/// One record of a run in the tree (its ids borrowed from the source where they can be).
pub struct Node<'b> {
    pub event: u32,
    pub uuid: Option<Id<'b>>,
    /// `parentUuid`, else `logicalParentUuid`.
    pub parent: Option<Id<'b>>,
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
    pub message_id: Option<Id<'b>>,
}

/// Marks the conversation records off the main chain, and reports where each branch leaves it.
pub fn mark(out: &mut Builder, nodes: &[Node<'_>]) {
    let by_uuid: super::Lookup<&[u8], usize> = nodes.iter().enumerate().filter_map(|(i, n)| Some((n.uuid.as_deref()?, i))).collect();
    // Each node's parent, by index.
    let mut previous: Option<usize> = None;
    let parents: Vec<Option<usize>> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let p = match n.parent.as_deref().map(|p| by_uuid.get(p).copied()) {
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
    let turns: super::LookupSet<&[u8]> = nodes.iter().zip(&chain).filter(|(_, c)| **c).filter_map(|(n, _)| n.message_id.as_deref()).collect();
    let mut abandoned = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if on_chain(Some(i)) || n.message_id.as_deref().is_some_and(|m| turns.contains(m)) {
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
