//! LangSmith runs: the SDKs' ingest payloads (`{post, patch}`), run trees
//! (`child_runs`) and lists of runs (JSON or JSON Lines). A run (`llm`,
//! `chain`, `tool`, `retriever`, `prompt`, `parser`, `embedding`) nests by
//! `parent_run_id` and sorts by `dotted_order`; `inputs`/`outputs` hold
//! OpenAI or LangChain messages (docs/formats/langsmith.md).
//!
//! One agent run per trace; each run a begin and an end span event around
//! what it adds ([`tree`]). Messages are read by the `langfuse` format's
//! [`crate::import::chat`], which knows the same shapes.

mod facts;
mod llm_record;
mod reader;
mod tree;
mod validate;

use super::{Builder, Format, Input, Sample, Score};

pub struct LangSmith;

impl Format for LangSmith {
    fn id(&self) -> &'static str {
        "langsmith"
    }

    fn name(&self) -> &'static str {
        "LangSmith runs (ingest payloads, run trees, run lists)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let (mut records, mut payloads, mut runs) = (0usize, 0usize, 0usize);
        for v in sample.records() {
            records += 1;
            let Some(o) = v.as_object() else { continue };
            if reader::is_payload(o) {
                payloads += 1;
            } else if reader::is_run(o) {
                runs += 1;
            }
        }
        if payloads + runs == 0 {
            return None;
        }
        let mut evidence = Vec::new();
        if payloads > 0 {
            evidence.push(format!("{payloads} of {records} sampled records are LangSmith ingest payloads (`post`/`patch` lists of runs)"));
        }
        if runs > 0 {
            evidence.push(format!("{runs} of {records} sampled records are LangSmith runs (`run_type`, `id`/`dotted_order`, `trace_id`/`start_time`)"));
        }
        Some(Score { confidence: (payloads + runs) as f32 / records as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let runs = reader::Reader::new(input, out).read();
        tree::runs(&runs, input, out);
    }
}
