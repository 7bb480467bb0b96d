//! SWE-agent trajectories (`.traj`), 0.x and 1.x.
//!
//! A `.traj` file is one JSON object, written by `Agent.save_trajectory`:
//! `history` (the messages the model saw), `trajectory` (one step per
//! action: `action`, `observation`, `response`, `thought`, `state`, and in
//! 1.x `execution_time`, `query` — `messages` before SWE-agent 1.1 — and
//! `extra_info`), `info` (`exit_status`, `submission`, `model_stats`, …),
//! `environment` and, in 1.x, `replay_config`. The shapes are SWE-agent's
//! own types (`sweagent/types.py` at commit 3ea751c0: `HistoryItem`,
//! `TrajectoryStep`, `AgentInfo`; `InstanceStats` in `sweagent/agent/models.py`);
//! 0.x files (v0.7.0) write `state` as a JSON string and have no
//! `message_type`. Demonstrations may hold only `history`.
//!
//! One run per file, three transcripts: `history` (messages; tool calls
//! linked to the tool messages naming them in `tool_call_ids`),
//! `trajectory` (each step an assistant message with the action as its
//! call, and the observation as that call's result) and `info` (the run's
//! `info` with `model_stats` as its usage, and the submission patch). The
//! mapping is documented in docs/formats/swe-agent.md.

mod detect;
mod fast;
mod history;
mod steps;

use std::ops::Range;

use serde_json::Value;

use super::{json_type, Builder, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{Error, Warning};
use crate::json::{scan, Layout, Seg};
use crate::model::Metadata;

pub struct SweAgent;

impl Format for SweAgent {
    fn id(&self) -> &'static str {
        "swe-agent"
    }

    fn name(&self) -> &'static str {
        "SWE-agent trajectories (.traj)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        detect::detect(sample)
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let b = out.bytes();
        let complete = input.split.errors.is_empty();
        for (i, v) in input.split.values.iter().enumerate() {
            let path = "$".to_string();
            let is_last = i + 1 == input.split.values.len();
            let whole = complete || !is_last || v.range.end < b.len() || input.split.layout == Layout::Jsonl;
            let mut reader = Reader { out, b, ends: &input.split.ends, scratch: fast::Scratch::default() };
            reader.document(v.range.clone(), &path, whole);
        }
    }
}

/// Reads one `.traj` document into one run.
pub(super) struct Reader<'r, 'a> {
    pub(super) out: &'r mut Builder<'a>,
    pub(super) b: &'a [u8],
    pub(super) ends: &'r crate::json::ContainerEnds,
    /// The fast path's buffers.
    scratch: fast::Scratch,
}

/// The top-level keys the transcripts read; every other key is run metadata.
const READ_KEYS: &[&str] = &["history", "trajectory", "info"];

impl Reader<'_, '_> {
    fn document(&mut self, range: Range<usize>, path: &str, complete: bool) {
        let start = scan::skip_ws(self.b, range.start);
        if !complete {
            self.out.unparsed(range, path, "not read: the document is not valid JSON");
            return;
        }
        let members = match self.b.get(start) {
            Some(b'{') => scan::object_members_in(self.b, start, self.ends).ok(),
            _ => None,
        };
        let Some(members) = members else {
            let v = self.out.parse_record(&range, path).unwrap_or(Value::Null);
            let message = format!("expected a SWE-agent trajectory object with `history` or `trajectory`; found {}", json_type(&v));
            self.out.diag(Error, "not-a-trace", message, path.to_string(), start, None);
            self.out.unparsed(range, path, "not a SWE-agent trajectory");
            return;
        };
        let mut metadata = Metadata::new();
        let mut parts: Vec<(&str, Range<usize>)> = Vec::new();
        for (key, r) in &members {
            if let Some(k) = READ_KEYS.iter().find(|k| **k == key.as_str()) {
                parts.push((k, r.clone()));
                continue;
            }
            match self.out.parse_record(r, &format!("{path}.{key}")) {
                Ok(v) => drop(metadata.insert(key.clone(), v)),
                Err(_) => self.out.unparsed(r.clone(), &format!("{path}.{key}"), "a value that could not be read"),
            }
        }
        if !members.iter().any(|(k, _)| k == "history" || k == "trajectory") {
            self.out.diag(Warning, "no-history", "a SWE-agent trajectory has `history` and `trajectory`; this object has neither".to_string(), path.to_string(), start, None);
        }
        let replay = replay_object(metadata.get("replay_config"));
        let model = replay_model(replay.as_ref());
        let id = replay_instance(replay.as_ref()).unwrap_or_else(|| format!("run-{}", self.out.runs().len()));
        self.out.begin_run(id, metadata, Some(start));
        let find = |k: &str| parts.iter().find(|(key, _)| *key == k).map(|(_, r)| r.clone());
        if let Some(r) = find("history") {
            self.out.begin_transcript("history".to_string(), Metadata::new());
            history::read(self, r, &format!("{path}.history"));
        }
        if let Some(r) = find("trajectory") {
            self.out.begin_transcript("trajectory".to_string(), Metadata::new());
            steps::read_trajectory(self, r, &format!("{path}.trajectory"));
        }
        if let Some(r) = find("info") {
            self.out.begin_transcript("info".to_string(), Metadata::new());
            steps::read_info(self, r, &format!("{path}.info"), model);
        }
    }

    /// The items of the list at `r`, or a diagnostic and an unparsed event
    /// when it is not a list.
    pub(super) fn list_items(&mut self, r: Range<usize>, path: &str, what: &str) -> Option<Vec<Range<usize>>> {
        let start = scan::skip_ws(self.b, r.start);
        if self.b.get(start) != Some(&b'[') {
            let v = self.out.parse_record(&r, path).unwrap_or(Value::Null);
            let message = format!("expected `{what}` to be a list; found {}", json_type(&v));
            self.out.diag(Error, "not-a-list", message, path.to_string(), start, Some(self.out.next_event()));
            self.out.unparsed(r, path, "not a list");
            return None;
        }
        let (items, end) = scan::array_items_in(self.b, start, self.ends);
        if let Err(e) = end {
            self.out.syntax_error(&e, path);
        }
        Some(items)
    }

    /// A warning about the value at `segs` inside the record at `record`.
    pub(super) fn warn(&mut self, code: &'static str, message: String, record: &Range<usize>, path: &str, segs: &[Seg], event: u32) {
        self.out.diag_in(Warning, code, message, record, path, segs, Some(event));
    }
}

/// `replay_config` as an object: it is one (older 1.x) or its JSON text
/// (`model_dump_json()`, current 1.x), which is parsed here only to name
/// the run and the model (the run keeps the value as written).
fn replay_object(v: Option<&Value>) -> Option<std::borrow::Cow<'_, Value>> {
    match v? {
        Value::String(s) => crate::json::build::from_str(s).ok().map(std::borrow::Cow::Owned),
        other => Some(std::borrow::Cow::Borrowed(other)),
    }
}

/// The model named by `replay_config.agent.model.name`.
fn replay_model(c: Option<&std::borrow::Cow<'_, Value>>) -> Option<String> {
    c?.get("agent")?.get("model")?.get("name")?.as_str().map(str::to_string)
}

/// The instance id of `replay_config.problem_statement.id`.
fn replay_instance(c: Option<&std::borrow::Cow<'_, Value>>) -> Option<String> {
    c?.get("problem_statement")?.get("id")?.as_str().filter(|s| !s.is_empty()).map(str::to_string)
}
