//! Two runs side by side: their steps aligned turn by turn, and what changed.
//!
//! A step is one event that says something (a message, a tool call or
//! result); its alignment key is its role and the tools it names, so an
//! inserted step (one more tool call) shows as a gap on one side instead of
//! shifting every step below it. The alignment is a longest common
//! subsequence of keys (dynamic programming over the two step lists, after
//! the common prefix and suffix are set aside); two steps with the same key
//! whose content differs are a change. Runs too long for the table (more
//! than [`MAX_CELLS`] pairs left in the middle) are paired by position
//! there, and the comparison says so.

use serde::Serialize;

use super::runs::{run_rows, RunRow};
use super::summary::{one_line, summary};
use crate::model::{Event, EventBody, Trace};

/// Pairs of middle steps the table may hold (16 M: 64 MB of u32).
pub const MAX_CELLS: usize = 16 << 20;

/// How two aligned steps relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// Same key, same content.
    Same,
    /// Same key (role and tools), other content.
    Changed,
    /// Only in the left run.
    Removed,
    /// Only in the right run.
    Added,
}

/// One row of the alignment: event indices of each side (None: a gap).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlignedStep {
    pub change: Change,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<u32>,
    /// The step's key (role and tools) on whichever side has it.
    pub key: String,
}

/// What the two runs' rows say, side by side.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison<'t> {
    pub left: RunRow<'t>,
    pub right: RunRow<'t>,
    pub steps: Vec<AlignedStep>,
    /// Counts by change.
    pub same: u32,
    pub changed: u32,
    pub removed: u32,
    pub added: u32,
    /// The middle was too long to align and was paired by position.
    pub approximate: bool,
}

/// A step: its event index, key and the text its content compares by.
struct Step {
    event: u32,
    key: String,
    text: String,
}

/// The steps of run `run`: messages, tool calls and results (spans, markers
/// and the rest are structure, not turns).
fn steps(trace: &Trace, run: u32) -> Vec<Step> {
    trace
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.run == run)
        .filter_map(|(i, e)| step_key(trace, e).map(|key| Step { event: crate::source::clamp_u32(i), key, text: summary(trace, e) }))
        .collect()
}

fn step_key(trace: &Trace, e: &Event) -> Option<String> {
    let role = e.role().unwrap_or("");
    match &e.body {
        EventBody::Message(m) if m.tool_calls.is_empty() => Some(role.to_string()),
        EventBody::Message(m) => Some(format!("{role}: {}", m.tool_calls.iter().map(|c| c.function.as_str()).collect::<Vec<_>>().join(", "))),
        EventBody::ToolCall(c) => Some(format!("call: {}", c.function)),
        EventBody::ToolResult(r) => {
            let function = r.call.and_then(|c| trace.events.get(c.event as usize)).and_then(|e| match &e.body {
                EventBody::Message(m) => m.tool_calls.get(r.call.map_or(0, |c| c.call as usize)).map(|c| c.function.clone()),
                EventBody::ToolCall(c) => Some(c.function.clone()),
                _ => None,
            });
            Some(format!("result: {}", function.unwrap_or_default()))
        }
        _ => None,
    }
}

/// Aligns run `a` of `left` with run `b` of `right` (None when a run is missing).
pub fn compare<'t>(left: &'t Trace, a: u32, right: &'t Trace, b: u32) -> Option<Comparison<'t>> {
    let left_row = run_rows(left).into_iter().nth(a as usize)?;
    let right_row = run_rows(right).into_iter().nth(b as usize)?;
    let (l, r) = (steps(left, a), steps(right, b));
    let (pairs, approximate) = align(&l, &r);
    let mut out = Comparison { left: left_row, right: right_row, steps: Vec::with_capacity(pairs.len()), same: 0, changed: 0, removed: 0, added: 0, approximate };
    for (x, y) in pairs {
        let (ls, rs) = (x.and_then(|i| l.get(i)), y.and_then(|j| r.get(j)));
        let change = match (ls, rs) {
            (Some(p), Some(q)) if p.key == q.key && p.text == q.text => Change::Same,
            (Some(_), Some(_)) => Change::Changed,
            (Some(_), None) => Change::Removed,
            _ => Change::Added,
        };
        match change {
            Change::Same => out.same += 1,
            Change::Changed => out.changed += 1,
            Change::Removed => out.removed += 1,
            Change::Added => out.added += 1,
        }
        let key = ls.or(rs).map(|s| s.key.clone()).unwrap_or_default();
        out.steps.push(AlignedStep { change, left: ls.map(|s| s.event), right: rs.map(|s| s.event), key });
    }
    Some(out)
}

/// Indices of a left and a right step paired by the alignment (None: a gap).
type Pair = (Option<usize>, Option<usize>);

/// The pairs of the alignment, and whether the middle was paired by
/// position for want of room.
fn align(l: &[Step], r: &[Step]) -> (Vec<Pair>, bool) {
    let same = |i: usize, j: usize| l.get(i).map(|s| &s.key) == r.get(j).map(|s| &s.key);
    let prefix = (0..l.len().min(r.len())).take_while(|&k| same(k, k)).count();
    let suffix = (0..l.len().min(r.len()) - prefix).take_while(|&k| same(l.len() - 1 - k, r.len() - 1 - k)).count();
    let (n, m) = (l.len() - prefix - suffix, r.len() - prefix - suffix);
    let mut out: Vec<Pair> = (0..prefix).map(|k| (Some(k), Some(k))).collect();
    let approximate = n.saturating_mul(m) > MAX_CELLS;
    if approximate {
        for k in 0..n.max(m) {
            out.push(((k < n).then_some(prefix + k), (k < m).then_some(prefix + k)));
        }
    } else {
        // lcs[i][j]: the longest common subsequence of keys of l[i..n] and r[j..m] (middle parts).
        let w = m + 1;
        let mut lcs = vec![0u32; (n + 1) * w];
        let at = |lcs: &[u32], i: usize, j: usize| lcs.get(i * w + j).copied().unwrap_or(0);
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                let v = if same(prefix + i, prefix + j) { at(&lcs, i + 1, j + 1) + 1 } else { at(&lcs, i + 1, j).max(at(&lcs, i, j + 1)) };
                if let Some(cell) = lcs.get_mut(i * w + j) {
                    *cell = v;
                }
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && same(prefix + i, prefix + j) {
                out.push((Some(prefix + i), Some(prefix + j)));
                i += 1;
                j += 1;
            } else if j < m && (i == n || at(&lcs, i, j + 1) >= at(&lcs, i + 1, j)) {
                out.push((None, Some(prefix + j)));
                j += 1;
            } else {
                out.push((Some(prefix + i), None));
                i += 1;
            }
        }
    }
    out.extend((0..suffix).map(|k| (Some(l.len() - suffix + k), Some(r.len() - suffix + k))));
    (out, approximate)
}

/// One side of a step as one line: the event's summary.
pub fn step_line(trace: &Trace, event: Option<u32>, width: usize) -> String {
    event.and_then(|i| trace.events.get(i as usize)).map(|e| one_line(&summary(trace, e), width)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(steps: &[(&str, &str)]) -> String {
        // OpenAI JSONL, one run a line: (role, content or "call:<tool>").
        let mut messages = Vec::new();
        for (k, (role, content)) in steps.iter().enumerate() {
            match content.strip_prefix("call:") {
                Some(tool) => {
                    messages.push(serde_json::json!({"role": "assistant", "content": "", "tool_calls": [{"id": format!("c{k}"), "type": "function", "function": {"name": tool, "arguments": "{}"}}]}));
                    messages.push(serde_json::json!({"role": "tool", "tool_call_id": format!("c{k}"), "content": format!("{tool} done")}));
                }
                None => messages.push(serde_json::json!({"role": role, "content": content})),
            }
        }
        serde_json::json!({"messages": messages}).to_string()
    }

    #[test]
    fn an_inserted_step_is_a_gap_not_a_shift() {
        let a = run(&[("user", "fix the bug"), ("assistant", "call:read"), ("assistant", "call:edit"), ("assistant", "done")]);
        let b = run(&[("user", "fix the bug"), ("assistant", "call:read"), ("assistant", "call:grep"), ("assistant", "call:edit"), ("assistant", "all done")]);
        let t = crate::parse_trace(format!("{a}\n{b}\n").into_bytes(), &crate::ParseOptions::default()).unwrap();
        let c = compare(&t, 0, &t, 1).unwrap();
        let changes: Vec<(Change, &str)> = c.steps.iter().map(|s| (s.change, s.key.as_str())).collect();
        assert_eq!(
            changes,
            [
                (Change::Same, "user"),
                (Change::Same, "assistant: read"),
                (Change::Same, "result: read"),
                (Change::Added, "assistant: grep"),
                (Change::Added, "result: grep"),
                (Change::Same, "assistant: edit"),
                (Change::Same, "result: edit"),
                (Change::Changed, "assistant"),
            ]
        );
        assert_eq!((c.same, c.changed, c.removed, c.added, c.approximate), (5, 1, 0, 2, false));
        assert_eq!(c.left.tool_calls, 2);
        assert_eq!(c.right.tool_calls, 3);
        assert!(compare(&t, 0, &t, 2).is_none());
    }

    #[test]
    fn removed_steps_and_empty_runs() {
        let a = run(&[("user", "q"), ("assistant", "call:x"), ("assistant", "a")]);
        let b = run(&[("user", "q"), ("assistant", "a")]);
        let t = crate::parse_trace(format!("{a}\n{b}\n").into_bytes(), &crate::ParseOptions::default()).unwrap();
        let c = compare(&t, 0, &t, 1).unwrap();
        assert_eq!((c.same, c.removed, c.added), (2, 2, 0));
        assert_eq!(c.steps.iter().filter(|s| s.change == Change::Removed).map(|s| s.key.as_str()).collect::<Vec<_>>(), ["assistant: x", "result: x"]);
    }
}
