//! The log as a whole: which top-level value is what (an EvalLog or
//! `header.json`, a journal's `start.json`, a sample, a list of summaries or
//! reductions), the eval-level metadata, and the samples in the order
//! `read_eval_log` returns them.

use std::ops::Range;

use serde_json::Value;

use super::super::{json_type, Builder, Input};
use super::sample;
use crate::diagnostic::Severity::{Error, Info};
use crate::json::{scan, ContainerEnds};
use crate::model::{EventBody, Metadata};

/// A sample to read: where it is, its JSONPath, and its sort key.
pub(super) struct SampleAt {
    pub range: Range<usize>,
    pub path: String,
    pub members: Vec<(String, Range<usize>)>,
}

/// Reads the whole input.
pub fn import(input: &Input, out: &mut Builder) {
    let b = out.bytes();
    let ends = &input.split.ends;
    let mut header: Option<Header> = None;
    let mut start: Option<Header> = None;
    let mut samples: Vec<SampleAt> = Vec::new();
    // `.eval` samples are files of their own: sorted as read_eval_log sorts them.
    let mut member_samples: Vec<(u64, String, SampleAt)> = Vec::new();
    // A lazy opening's summaries, each standing for a sample left unread.
    let mut summaries: Vec<(u64, String, SampleAt, Kept)> = Vec::new();
    let mut values: Vec<Range<usize>> = Vec::new();
    for v in &input.split.values {
        let at = scan::skip_ws(b, v.range.start);
        // A list of samples (what the benchmark kit writes): each one read as a sample file.
        if b.get(at) == Some(&b'[') && list_of_samples(b, at, ends) {
            values.extend(scan::array_items_in(b, at, ends).0);
        } else {
            values.push(v.range.clone());
        }
    }
    for range in values {
        let v = Located { range };
        let at = scan::skip_ws(b, v.range.start);
        match b.get(at) {
            Some(b'{') => {
                let Ok(members) = scan::object_members_in(b, at, ends) else {
                    unreadable(out, v.range.clone(), "$", "not read: the value is not valid JSON");
                    continue;
                };
                let has = |k: &str| members.iter().any(|(key, _)| key == k);
                if has("eval") && has("version") {
                    let h = Header { range: v.range.clone(), members };
                    if h.has("status") || h.has("samples") || h.has("results") {
                        if header.is_none() {
                            header = Some(h);
                        } else {
                            keep_value(out, "logs", v.range.clone());
                        }
                    } else if start.is_none() {
                        start = Some(h);
                    } else {
                        keep_value(out, "journal_starts", v.range.clone());
                    }
                } else if has("epoch") && has("id") {
                    let key = sort_key(out, &members);
                    member_samples.push((key.0, key.1, SampleAt { range: v.range.clone(), path: "$".to_string(), members }));
                } else {
                    keep_value(out, "other_files", v.range.clone());
                }
            }
            Some(b'[') => {
                let kept = keep_list(out, v.range.clone(), ends);
                if let (true, Some(kept)) = (out.pending_bodies(), kept) {
                    summaries.extend(summary_items(out, v.range.clone(), ends, kept));
                }
            }
            _ => {
                let value = out.parse_record(&v.range, "$").unwrap_or(Value::Null);
                out.diag(Error, "not-an-eval-log", format!("expected an Inspect eval log object; found {}", json_type(&value)), "$".to_string(), at, None);
                unreadable(out, v.range.clone(), "$", "not an Inspect eval log");
            }
        }
    }
    let from_journal = header.is_none() && start.is_some();
    let head = header.or(start);
    if let Some(h) = &head {
        read_header(out, h, &mut samples, ends, from_journal);
    } else if !member_samples.is_empty() {
        out.diag(Error, "no-header", "the archive has neither `header.json` nor `_journal/start.json`: `read_eval_log` needs one of them".to_string(), "$".to_string(), 0, None);
    }
    let read: std::collections::HashSet<String> = member_samples.iter().map(|(_, _, s)| run_id_of(out, &s.members)).collect();
    let mut pending: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut runs: Vec<(u64, String, SampleAt, Option<Kept>)> = member_samples.into_iter().map(|(e, id, s)| (e, id, s, None)).collect();
    for (e, id, s, kept) in summaries {
        let run = run_id_of(out, &s.members);
        if !read.contains(&run) && out.is_pending_body(&format!("samples/{run}.json")) && pending.insert(run) {
            runs.push((e, id, s, Some(kept)));
        }
    }
    runs.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let (mut from_summaries, at) = (Vec::new(), samples.len());
    for (i, (_, _, s, kept)) in runs.into_iter().enumerate() {
        if let Some(kept) = kept {
            from_summaries.push((at + i, kept));
        }
        samples.push(s);
    }
    if samples.is_empty() && head.is_some() {
        let status = out.metadata().get("status").and_then(Value::as_str).unwrap_or("started").to_string();
        let why = match status.as_str() {
            "success" => "the eval finished but its log holds no samples (written with samples left out?)".to_string(),
            "started" => "the eval has not finished: no sample was written yet".to_string(),
            other => format!("the eval ended with status `{other}` before any sample was written"),
        };
        out.diag(Info, "no-samples", format!("no runs: {why}"), "$".to_string(), 0, None);
    }
    let task_model = task_and_model(out.metadata());
    for (i, s) in samples.iter().enumerate() {
        if let Ok(k) = from_summaries.binary_search_by_key(&i, |(j, _)| *j) {
            let kept = from_summaries.get(k).map(|(_, kept)| *kept);
            sample::read_summary(out, s, &task_model, kept);
        } else {
            sample::read(out, s, ends, &input.split.hazards, &task_model);
        }
    }
}

/// Where [`keep_list`] kept an item of a list file: the trace metadata's
/// list and the item's place in it.
pub(super) type Kept = (&'static str, usize);

/// The items of a summaries list (`id` and `epoch`), for a lazy opening,
/// each with where its parsed value is kept (`kept`: the list's key and
/// where its first item went).
fn summary_items(out: &Builder, range: Range<usize>, ends: &ContainerEnds, kept: Kept) -> Vec<(u64, String, SampleAt, Kept)> {
    let b = out.bytes();
    let at = scan::skip_ws(b, range.start);
    let (items, _) = scan::array_items_in(b, at, ends);
    let mut found = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let open = scan::skip_ws(b, item.start);
        let Ok(members) = scan::object_members_in(b, open, ends) else { continue };
        let has = |k: &str| members.iter().any(|(key, _)| key == k);
        if b.get(open) != Some(&b'{') || !has("id") || !has("epoch") || has("scorer") {
            continue;
        }
        let key = sort_key(out, &members);
        found.push((key.0, key.1, SampleAt { range: item, path: format!("$[{i}]"), members }, (kept.0, kept.1 + i)));
    }
    found
}

/// The run id of a sample or summary: `<id>_epoch_<epoch>`, as
/// [`sample::read`] names its run and inspect_ai its member.
fn run_id_of(out: &Builder, members: &[(String, Range<usize>)]) -> String {
    let b = out.bytes();
    let get = |k: &str| members.iter().find(|(key, _)| key == k).and_then(|(_, r)| crate::json::build::from_slice(b.get(r.clone())?).ok());
    sample::run_id(get("id").as_ref(), get("epoch").as_ref(), 0)
}

struct Located {
    range: Range<usize>,
}

/// A list whose first item is a sample: an object with `id`, `epoch` and
/// `messages` or `events`.
fn list_of_samples(b: &[u8], open: usize, ends: &ContainerEnds) -> bool {
    let (items, _) = scan::array_items_in(b, open, ends);
    let Some(first) = items.first() else { return false };
    let at = scan::skip_ws(b, first.start);
    b.get(at) == Some(&b'{')
        && scan::object_members_in(b, at, ends).is_ok_and(|m| {
            let has = |key: &str| m.iter().any(|(k, _)| k == key);
            // Summaries have `id` and `epoch` too, but no messages or events.
            has("epoch") && has("id") && (has("messages") || has("events"))
        })
}

/// The eval's task and model, which every run names.
pub(super) struct TaskModel {
    pub task: Option<Value>,
    pub model: Option<Value>,
}

fn task_and_model(m: &Metadata) -> TaskModel {
    let eval = m.get("eval");
    TaskModel { task: eval.and_then(|e| e.get("task")).cloned(), model: eval.and_then(|e| e.get("model")).cloned() }
}

struct Header {
    range: Range<usize>,
    members: Vec<(String, Range<usize>)>,
}

impl Header {
    fn has(&self, k: &str) -> bool {
        self.members.iter().any(|(key, _)| key == k)
    }
}

/// The header's members are the trace's metadata (its `samples`, the runs).
fn read_header(out: &mut Builder, h: &Header, samples: &mut Vec<SampleAt>, ends: &ContainerEnds, from_journal: bool) {
    let b = out.bytes();
    for (key, r) in &h.members {
        let path = format!("$.{key}");
        if key == "samples" {
            let open = scan::skip_ws(b, r.start);
            if b.get(open) != Some(&b'[') {
                // `samples: null` is a log without samples.
                if let Ok(v) = out.parse_record(r, &path) {
                    if !v.is_null() {
                        out.diag(Error, "not-a-list", format!("expected `samples` to be a list; found {}", json_type(&v)), path.clone(), open, None);
                        out.metadata_mut().insert(key.clone(), v);
                    }
                }
                continue;
            }
            let (items, _) = scan::array_items_in(b, open, ends);
            for (i, item) in items.into_iter().enumerate() {
                let item_path = format!("$.samples[{i}]");
                let at = scan::skip_ws(b, item.start);
                match scan::object_members_in(b, at, ends) {
                    Ok(members) if b.get(at) == Some(&b'{') => samples.push(SampleAt { range: item, path: item_path, members }),
                    _ => {
                        let v = out.parse_record(&item, &item_path).unwrap_or(Value::Null);
                        out.diag(Error, "not-a-sample", format!("expected a sample object; found {}", json_type(&v)), item_path.clone(), at, None);
                        unreadable(out, item, &item_path, "not an Inspect sample");
                    }
                }
            }
            continue;
        }
        match out.parse_record(r, &path) {
            Ok(v) => drop(out.metadata_mut().insert(key.clone(), v)),
            Err(_) => unreadable(out, r.clone(), &path, "a value that could not be read"),
        }
    }
    if from_journal {
        out.metadata_mut().insert("status".to_string(), Value::String("started".to_string()));
        out.diag(Info, "unfinished-log", "the log has no `header.json`: its eval did not finish; read from the journal's `start.json` and the samples written so far".to_string(), "$".to_string(), h.range.start, None);
    }
    let missing: Option<Vec<&str>> = match out.metadata().get("eval") {
        Some(Value::Object(e)) => Some(["created", "task", "dataset", "model", "config"].into_iter().filter(|k| !e.contains_key(*k)).collect()),
        _ => None,
    };
    match missing {
        Some(keys) => {
            for k in keys {
                let at = out.locate(h.range.start, &[crate::json::Seg::key("eval")]);
                out.diag(Error, "missing-field", format!("`eval.{k}` is required: `read_eval_log` refuses an eval spec without it"), "$.eval".to_string(), at, None);
            }
        }
        None => out.diag(Error, "missing-field", "`eval` must be an object (the eval spec): `read_eval_log` refuses the log".to_string(), "$".to_string(), h.range.start, None),
    }
    let status = out.metadata().get("status").and_then(Value::as_str).map(str::to_string);
    if let Some(status @ ("error" | "cancelled")) = status.as_deref() {
        let why = out.metadata().get("error").and_then(|e| e.get("message")).and_then(Value::as_str).map(|m| format!(": {m}")).unwrap_or_default();
        out.diag(Info, "eval-status", format!("the eval's status is `{status}`{why}; its samples are what was logged before it stopped"), "$.status".to_string(), h.range.start, None);
    }
}

/// A value that belongs to no run (a second log, a file the format does not
/// know): kept in the trace's metadata under `key`, in a list.
fn keep_value(out: &mut Builder, key: &str, range: Range<usize>) {
    let Ok(v) = out.parse_record(&range, "$") else {
        unreadable(out, range, "$", "a value that could not be read");
        return;
    };
    let slot = out.metadata_mut().entry(key.to_string()).or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(items) = slot {
        items.push(v);
    }
}

/// A list file of a `.eval` (`summaries.json`, `reductions.json`, a
/// journal's summaries): the trace's metadata, by what its items are.
fn keep_list(out: &mut Builder, range: Range<usize>, _ends: &ContainerEnds) -> Option<Kept> {
    let Ok(Value::Array(items)) = out.parse_record(&range, "$") else {
        unreadable(out, range, "$", "a value that could not be read");
        return None;
    };
    let first = items.first();
    let key = if first.is_some_and(|i| i.get("scorer").is_some()) {
        "reductions"
    } else if first.is_some_and(|i| i.get("epoch").is_some()) {
        if out.metadata().contains_key("summaries") { "journal_summaries" } else { "summaries" }
    } else {
        "other_files"
    };
    // A header's own `reductions` stay; the file's go beside them.
    let key = if key == "reductions" && out.metadata().contains_key("reductions") { "reductions_file" } else { key };
    let offset = match out.metadata_mut().get_mut(key) {
        Some(Value::Array(prev)) => {
            let offset = prev.len();
            prev.extend(items);
            offset
        }
        _ => {
            out.metadata_mut().insert(key.to_string(), Value::Array(items));
            0
        }
    };
    matches!(key, "summaries" | "journal_summaries").then_some((key, offset))
}

fn unreadable(out: &mut Builder, range: Range<usize>, path: &str, why: &str) {
    if range.start < range.end {
        out.push_event(EventBody::Unparsed(why.to_string()), "unparsed", range, path.to_string(), None);
    }
}

/// `read_eval_log`'s sort key of a sample (`sort_samples`): its epoch, then
/// its id, an integer id zero-padded to 20 digits as text.
fn sort_key(out: &Builder, members: &[(String, Range<usize>)]) -> (u64, String) {
    let b = out.bytes();
    let get = |k: &str| members.iter().find(|(key, _)| key == k).and_then(|(_, r)| crate::json::build::from_slice(b.get(r.clone())?).ok());
    let epoch = get("epoch").and_then(|e| e.as_u64()).unwrap_or(u64::MAX);
    let id = match get("id") {
        Some(Value::String(s)) => s,
        Some(Value::Number(n)) => zfill(&n.to_string()),
        _ => String::new(),
    };
    (epoch, id)
}

/// Python's `str.zfill(20)`.
fn zfill(s: &str) -> String {
    let n = s.chars().count();
    if n >= 20 {
        return s.to_string();
    }
    let pad = "0".repeat(20 - n);
    match s.strip_prefix('-') {
        Some(rest) => format!("-{pad}{rest}"),
        None => format!("{pad}{s}"),
    }
}

/// The sort key of an id read from a member's name: all digits is taken
/// for an integer id.
pub(super) fn id_sort_key_text(id: &str) -> String {
    if !id.is_empty() && id.bytes().all(|c| c.is_ascii_digit()) {
        zfill(id)
    } else {
        id.to_string()
    }
}
