//! Inspect AI evaluation logs (`inspect_ai` 0.3.285): the `.json` EvalLog,
//! and the `.eval` zip, whose files the container layer hands over as one
//! multi-file input (`header.json`, `samples/<id>_epoch_<n>.json`,
//! `summaries.json`, `reductions.json`, `_journal/start.json`,
//! `_journal/summaries/<n>.json`).
//!
//! Each sample × epoch is a run with two transcripts: `messages` (the
//! ChatMessages, tool results linked to their calls) and `events` (the
//! sample's transcript events: model calls, tool calls, spans nesting by
//! `span_id`/`parent_id`, scores, state changes, …). Eval-level facts
//! (`eval`, `plan`, `results`, `stats`, `status`, `error`) are the trace's
//! metadata; sample-level ones (`id`, `epoch`, `input`, `target`, `scores`,
//! `model_usage`, times, `error`, `limit`, …) the run's. What the log says
//! went wrong is data (failed events, metadata); error diagnostics are kept
//! for what `read_eval_log` refuses. The mapping is documented in
//! docs/formats/inspect.md.

mod agentrun;
mod detect;
mod event_record;
mod events;
mod fast;
mod log;
mod messages;
mod pool;
mod retold;
mod sample;

use super::{Builder, FileOrder, Format, Input, Sample, Score};

pub struct Inspect;

impl Format for Inspect {
    fn id(&self) -> &'static str {
        "inspect"
    }

    fn name(&self) -> &'static str {
        "Inspect AI evaluation logs (.json, .eval)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        detect::detect(sample)
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        log::import(input, out);
    }

    /// The files of a `.eval` archive: the header first, then the samples
    /// by epoch and id (as `read_eval_log` orders them), then summaries,
    /// reductions and the journal.
    fn file_order(&self, name: &str) -> FileOrder {
        member_order(name)
    }

    /// A sample file (`samples/<id>_epoch_<n>.json`) is a body;
    /// `summaries.json`, the journal's summaries and `reductions.json` are
    /// what the runs table needs, not a sample.
    fn lazy_member(&self, name: &str) -> Option<super::LazyMember> {
        if name.starts_with("samples/") && name.ends_with(".json") {
            Some(super::LazyMember::Body)
        } else if name == "summaries.json" || name == "reductions.json" || name.starts_with("_journal/summaries/") {
            Some(super::LazyMember::Summaries)
        } else {
            None
        }
    }

    fn agent_run(&self, trace: &crate::model::Trace, run: usize) -> Option<crate::agentrun::DocRun> {
        agentrun::agent_run(trace, run)
    }
}

/// Where a `.eval` member goes (see [`Inspect::file_order`]).
fn member_order(name: &str) -> FileOrder {
    let base = super::base_name(name).to_string();
    let group = |group: u8| FileOrder { group, index: 0, name: name.to_string() };
    if name == "header.json" {
        return group(0);
    }
    if let Some(stem) = name.strip_prefix("samples/").and_then(|n| n.strip_suffix(".json")) {
        if let Some((id, epoch)) = stem.rsplit_once("_epoch_") {
            if let Ok(epoch) = epoch.parse::<u64>() {
                return FileOrder { group: 1, index: epoch, name: log::id_sort_key_text(id) };
            }
        }
        return FileOrder { group: 1, index: u64::MAX, name: base };
    }
    match name {
        "summaries.json" => group(2),
        "reductions.json" => group(3),
        _ => group(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_order_as_read_eval_log_reads_them() {
        let mut names = vec![
            "_journal/start.json",
            "samples/10_epoch_1.json",
            "summaries.json",
            "samples/2_epoch_2.json",
            "header.json",
            "samples/2_epoch_1.json",
            "reductions.json",
        ];
        names.sort_by_key(|n| member_order(n));
        assert_eq!(
            names,
            [
                "header.json",
                "samples/2_epoch_1.json",
                "samples/10_epoch_1.json",
                "samples/2_epoch_2.json",
                "summaries.json",
                "reductions.json",
                "_journal/start.json"
            ]
        );
    }
}
