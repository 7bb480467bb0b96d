//! Nothing in the input is lost: passes that run after every format module.
//!
//! Format modules read the values the JSON layer split out; the bytes the
//! split could not read (a broken JSON Lines line, content after the
//! document) would otherwise belong to no event. [`keep_leftovers`] makes
//! them unparsed events, [`relink_diagnostics`] makes sure every diagnostic
//! names the event that holds its offset, and [`lost_values`] is the check
//! the tests and fuzzers run: every value of the input must be reachable from
//! the parsed trace.

use std::collections::HashSet;
use std::ops::Range;

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::import::Builder;
use crate::json::{self, scan, Layout, Split};
use crate::model::{Event, EventBody, Metadata, Trace};

/// Id of the run that holds input no format module read.
pub const LEFTOVER_RUN_ID: &str = "unparsed-input";

/// Makes every range no event holds into an unparsed event: the leftovers
/// of the split (broken JSON Lines lines, content after the document), the
/// records a format module could not decode (`Builder::failed_records`,
/// e.g. a metadata value holding invalid UTF-8) and those it set aside
/// (`Builder::set_aside`). They go in a run of their
/// own at the end: inserting them among the format's events would shift
/// every index the format already linked.
pub fn keep_leftovers(out: &mut Builder, split: &Split) {
    let broken_tails = broken_tails(out, split);
    let mut pending: Vec<(Range<usize>, &str, String)> = split
        .leftovers
        .iter()
        .chain(&broken_tails)
        .map(|r| (r.clone(), "not valid JSON", "$".to_string()))
        .chain(out.failed_records().iter().map(|(r, path)| (r.clone(), "a value that could not be decoded", path.clone())))
        .chain(out.set_aside_records().iter().map(|(r, path, why)| (r.clone(), *why, path.clone())))
        .map(|(r, why, path)| (scan::skip_ws(out.bytes(), r.start)..r.end, why, path))
        .filter(|(r, _, _)| r.start < r.end)
        .collect();
    if pending.is_empty() {
        return;
    }
    // Outer ranges first, so that a failed record inside a kept one is not
    // kept twice; then kept ranges never nest, and the last one kept is the
    // only one that can hold the next.
    crate::sort::by_key(&mut pending, |(r, _, _)| (r.start, std::cmp::Reverse(r.end)));
    let covered = CoveredRanges::new(out.events());
    // Diagnostics with no event, by offset, to give them the new events.
    let mut loose: Vec<(usize, usize)> =
        out.diagnostics_mut().iter().enumerate().filter(|(_, d)| d.event.is_none()).map(|(i, d)| (d.offset, i)).collect();
    crate::sort::by(&mut loose, Ord::cmp);
    let mut last_kept_end = 0;
    let mut run_started = false;
    for (r, why, path) in pending {
        if r.end <= last_kept_end || covered.contains_range(r.clone()) {
            continue;
        }
        if !run_started {
            let mut metadata = Metadata::new();
            metadata.insert(
                "note".to_string(),
                Value::String("input the format could not read; each piece is kept raw".to_string()),
            );
            out.begin_run(LEFTOVER_RUN_ID.to_string(), metadata, Some(r.start));
            if let Some(run) = out.last_run_mut() {
                run.name = Some("Unreadable input".to_string());
            }
            run_started = true;
        }
        let index = out.push_event(EventBody::Unparsed(why.to_string()), "unparsed", r.clone(), path, None);
        let from = loose.partition_point(|(offset, _)| *offset < r.start);
        for (offset, i) in loose.get(from..).unwrap_or(&[]) {
            if *offset > r.end {
                break;
            }
            if let Some(d) = out.diagnostics_mut().get_mut(*i) {
                d.event.get_or_insert(index);
            }
        }
        last_kept_end = r.end;
    }
}

/// For each syntax error inside a value that no event holds, the value's
/// bytes from the end of the last event before the error: what the format
/// could not read of a broken document (e.g. one file of several).
fn broken_tails(out: &Builder, split: &Split) -> Vec<Range<usize>> {
    if split.errors.is_empty() {
        return Vec::new();
    }
    let covered = CoveredRanges::new(out.events());
    let mut ends: Vec<usize> = out.events().iter().map(|e| e.raw.end).collect();
    crate::sort::by(&mut ends, Ord::cmp);
    let mut tails = Vec::new();
    for e in &split.errors {
        if covered.touches(e.offset) {
            continue;
        }
        let at = split.values.partition_point(|v| v.range.start <= e.offset);
        let Some(v) = at.checked_sub(1).and_then(|i| split.values.get(i)) else { continue };
        if e.offset > v.range.end {
            continue;
        }
        let before = ends.partition_point(|end| *end <= e.offset);
        let from = before.checked_sub(1).and_then(|i| ends.get(i)).copied().filter(|end| *end > v.range.start);
        tails.push(from.unwrap_or(v.range.start)..v.range.end);
    }
    tails
}

/// Drops a syntax error reported twice at one place (by the JSON layer and
/// again by a format module that met it while reading).
pub fn dedup_syntax_errors(diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    diagnostics.retain(|d| d.code != "json-syntax" || seen.insert((d.offset, d.message.clone())));
}

/// Points every diagnostic at an event that exists and holds its place: a
/// record that failed to decode is reported before its event is pushed, with
/// a guessed index (`Builder::parse_record`), and a syntax error is found by
/// the JSON layer before any event exists; both belong to the unparsed event
/// that keeps the broken bytes.
pub fn relink_diagnostics(diagnostics: &mut [Diagnostic], events: &[Event]) {
    let holds = |e: &Event, offset: usize| e.raw.start <= offset && offset <= e.raw.end;
    let record_level = |d: &Diagnostic| d.code == "json-invalid" || d.code == "json-syntax";
    let misplaced = |d: &Diagnostic| match d.event {
        None => record_level(d) || d.code == "duplicate-key",
        Some(i) => events.get(i as usize).is_none_or(|e| record_level(d) && !holds(e, d.offset)),
    };
    if !diagnostics.iter().any(misplaced) {
        return;
    }
    let by_start = |filter: &dyn Fn(&Event) -> bool| {
        let mut v: Vec<(usize, usize, u32)> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| filter(e))
            .map(|(i, e)| (e.raw.start, e.raw.end, crate::source::clamp_u32(i)))
            .collect();
        crate::sort::by(&mut v, Ord::cmp);
        v
    };
    let unparsed = by_start(&|e| matches!(e.body, EventBody::Unparsed(_)));
    let all = by_start(&|_| true);
    // The innermost of the few events starting last before `offset` that hold it.
    let innermost = |sorted: &[(usize, usize, u32)], offset: usize| {
        let after = sorted.partition_point(|(start, _, _)| *start <= offset);
        sorted
            .get(..after)
            .unwrap_or(&[])
            .iter()
            .rev()
            .take(4)
            .filter(|(_, end, _)| offset <= *end)
            .min_by_key(|(start, end, _)| end - start)
            .map(|(_, _, i)| *i)
    };
    for d in diagnostics.iter_mut() {
        if misplaced(d) {
            d.event = match d.event {
                None if record_level(d) => innermost(&unparsed, d.offset),
                _ => innermost(&all, d.offset),
            };
        }
    }
}

/// Event byte ranges, merged, for "is this range inside an event" queries.
struct CoveredRanges {
    merged: Vec<Range<usize>>,
}

impl CoveredRanges {
    fn new(events: &[Event]) -> CoveredRanges {
        let mut ranges: Vec<Range<usize>> = events.iter().map(|e| e.raw.clone()).filter(|r| r.start < r.end).collect();
        crate::sort::by_key(&mut ranges, |r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        CoveredRanges { merged }
    }

    fn containing(&self, offset: usize) -> Option<&Range<usize>> {
        let i = self.merged.partition_point(|r| r.start <= offset);
        self.merged.get(i.checked_sub(1)?).filter(|r| offset < r.end)
    }

    fn contains_range(&self, r: Range<usize>) -> bool {
        if r.start >= r.end {
            return true;
        }
        self.containing(r.start).is_some_and(|c| r.end <= c.end)
    }

    /// True when `offset` is inside an event or at its end (a syntax error
    /// found at the end of a truncated record).
    fn touches(&self, offset: usize) -> bool {
        self.containing(offset).is_some() || self.merged.iter().any(|r| r.end == offset)
    }
}

/// A value of the input that nothing in the parsed trace leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lost {
    pub offset: usize,
    /// JSONPath inside its top-level value.
    pub path: String,
    /// The value's text, cut to 80 bytes.
    pub text: String,
}

/// Every value of the input that is not reachable from the trace: not inside
/// an event's raw JSON, not a value of the run, transcript or file metadata,
/// and not a broken place kept as an unparsed record. Empty for a trace that
/// lost nothing. Containers are reachable when all their members are (their
/// keys are structure); metadata values are matched by value.
pub fn lost_values(trace: &Trace) -> Vec<Lost> {
    let covered = CoveredRanges::new(&trace.events);
    let known = metadata_values(trace);
    let dup_offsets: Vec<usize> = trace.diagnostics.iter().filter(|d| d.code == "duplicate-key").map(|d| d.offset).collect();
    // The summary past the report cap covers every object.
    let all_warned = trace.diagnostics.iter().any(|d| d.code == "duplicate-key" && d.path == "$" && d.offset == 0);
    let duplicates_warned = |object: Range<usize>| all_warned || dup_offsets.iter().any(|o| object.contains(o));
    let mut lost = Vec::new();
    for (split, bytes) in splits(trace) {
        for v in &split.values {
            match scan::scan_value(bytes, v.range.start) {
                Ok(end) => walk(bytes, v.range.start..end, &covered, &known, &duplicates_warned, &mut lost),
                Err(e) if !covered.touches(e.offset) => lost.push(lost_at(bytes, e.offset, "$ (syntax error)")),
                Err(_) => {}
            }
        }
        for e in &split.errors {
            if !covered.touches(e.offset) && split.layout == Layout::Jsonl {
                lost.push(lost_at(bytes, e.offset, "$ (broken line)"));
            }
        }
        for r in &split.leftovers {
            let start = scan::skip_ws(bytes, r.start);
            if !covered.contains_range(start..r.end) {
                lost.push(lost_at(bytes, start, "$ (leftover)"));
            }
        }
    }
    lost
}

fn lost_at(bytes: &[u8], offset: usize, path: &str) -> Lost {
    let end = offset.saturating_add(80).min(bytes.len());
    Lost { offset, path: path.to_string(), text: String::from_utf8_lossy(bytes.get(offset..end).unwrap_or(&[])).into_owned() }
}

/// The input split as the parse split it: per file for multi-file traces.
fn splits(trace: &Trace) -> Vec<(Split, &[u8])> {
    let bytes = trace.source.as_slice();
    if trace.files.len() <= 1 {
        return vec![(json::split(bytes, json::bom_len(bytes)), bytes)];
    }
    trace
        .files
        .iter()
        .map(|f| {
            let upto = bytes.get(..f.range.end).unwrap_or(bytes);
            let bom = json::bom_len(bytes.get(f.range.clone()).unwrap_or(&[]));
            (json::split(upto, f.range.start + bom), upto)
        })
        .collect()
}

/// Canonical text of every leaf value in run, transcript and file metadata,
/// plus run ids, names and descriptions and transcript keys.
fn metadata_values(trace: &Trace) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut stack: Vec<&Value> = trace.metadata.values().collect();
    for run in &trace.runs {
        out.insert(Value::String(run.id.clone()).to_string());
        out.extend(run.name.iter().chain(&run.description).map(|s| Value::String(s.clone()).to_string()));
        stack.extend(run.metadata.values());
        for t in &run.transcripts {
            out.insert(Value::String(t.key.clone()).to_string());
            stack.extend(t.metadata.values());
        }
    }
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.values()),
            leaf => {
                out.insert(leaf.to_string());
            }
        }
    }
    out
}

/// Walks the value at `range` without recursion (inputs nest 100,000 deep).
fn walk(
    bytes: &[u8],
    range: Range<usize>,
    covered: &CoveredRanges,
    known: &HashSet<String>,
    duplicates_warned: &dyn Fn(Range<usize>) -> bool,
    lost: &mut Vec<Lost>,
) {
    let mut stack: Vec<(Range<usize>, String)> = vec![(range, "$".to_string())];
    while let Some((r, path)) = stack.pop() {
        if covered.contains_range(r.clone()) {
            continue;
        }
        match bytes.get(r.start) {
            Some(b'[') => {
                let (items, _) = scan::array_items(bytes, r.start);
                stack.extend(items.into_iter().enumerate().map(|(i, item)| (item, format!("{path}[{i}]"))));
            }
            Some(b'{') => {
                let members = scan::object_members(bytes, r.start).unwrap_or_default();
                // A value shadowed by a later duplicate key is read by no
                // parser; the duplicate-key warning on the object quotes it.
                let warned = duplicates_warned(r.clone());
                for (i, (k, v)) in members.iter().enumerate() {
                    let shadowed = members.get(i + 1..).unwrap_or(&[]).iter().any(|(later, _)| later == k);
                    if !(shadowed && warned) {
                        stack.push((v.clone(), json::render_path(&path, &[json::Seg::Key(k.clone())])));
                    }
                }
            }
            _ => {
                let text = bytes.get(r.clone()).unwrap_or(&[]);
                let found = serde_json::from_slice::<Value>(text).is_ok_and(|v| known.contains(&v.to_string()));
                if !found {
                    let mut l = lost_at(bytes, r.start, &path);
                    l.text.truncate(floor_char_boundary(&l.text, (r.end - r.start).min(80)));
                    lost.push(l);
                }
            }
        }
    }
}

fn floor_char_boundary(s: &str, mut at: usize) -> usize {
    while at > 0 && !s.is_char_boundary(at) {
        at -= 1;
    }
    at.min(s.len())
}
