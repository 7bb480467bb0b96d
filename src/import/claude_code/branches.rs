//! The `parentUuid` tree of a run: the main chain runs from the last
//! conversation record back to the root (through `logicalParentUuid` across
//! a compaction); `user`/`assistant` records off it were left by a rewind or
//! an edited prompt, and are marked `abandoned_branch`.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::Severity;
use crate::import::Builder;

/// One record of a run in the tree.
pub struct Node {
    pub event: u32,
    pub uuid: Option<String>,
    /// `parentUuid`, else `logicalParentUuid`.
    pub parent: Option<String>,
    /// A `user` or `assistant` record (the turns a branch is made of).
    pub conversation: bool,
    /// A record of tool results: it hangs off its call's record, beside the
    /// chain when calls ran in parallel, and is on a branch only when its
    /// parent is.
    pub attached: bool,
    /// An assistant record's `message.id`: the records of one response are
    /// one turn, though parallel calls put some of them beside the chain.
    pub message_id: Option<String>,
}

/// Marks the conversation records off the main chain, and reports where each branch leaves it.
pub fn mark(out: &mut Builder, nodes: &[Node]) {
    let by_uuid: HashMap<&str, &Node> = nodes.iter().filter_map(|n| Some((n.uuid.as_deref()?, n))).collect();
    let Some(leaf) = nodes.iter().rev().find(|n| n.conversation && n.uuid.is_some()) else { return };
    let mut chain: HashSet<&str> = HashSet::new();
    let mut at = leaf.uuid.as_deref();
    while let Some(u) = at {
        if !chain.insert(u) {
            break; // a cycle: stop where it closes
        }
        at = by_uuid.get(u).and_then(|n| n.parent.as_deref());
    }
    let turns: HashSet<&str> =
        nodes.iter().filter(|n| n.uuid.as_deref().is_some_and(|u| chain.contains(u))).filter_map(|n| n.message_id.as_deref()).collect();
    let mut abandoned: HashSet<&str> = HashSet::new();
    for n in nodes {
        let Some(u) = n.uuid.as_deref() else { continue };
        if chain.contains(u) || n.message_id.as_deref().is_some_and(|m| turns.contains(m)) {
            continue;
        }
        let parent_abandoned = n.parent.as_deref().is_some_and(|p| abandoned.contains(p));
        if !(parent_abandoned || (n.conversation && !n.attached)) {
            continue;
        }
        abandoned.insert(u);
        if !n.conversation {
            continue;
        }
        // Only records the tree reaches from its root are branches; a record
        // whose parent is missing from the file says nothing about one.
        let branch_start = n.parent.as_deref().is_some_and(|p| chain.contains(p));
        let Some(e) = out.event_mut(n.event) else { continue };
        e.metadata.insert("abandoned_branch".to_string(), serde_json::Value::Bool(true));
        if branch_start {
            let (path, offset) = (e.path.clone(), e.raw.start);
            let message = "a branch leaves the main chain here (a rewind or an edited prompt): its records are marked `abandoned_branch`".to_string();
            out.diag(Severity::Info, "abandoned-branch", message, path, offset, Some(n.event));
        }
    }
}
