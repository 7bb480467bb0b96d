//! Langfuse traces: the UI's "download trace" JSON (`{trace, observations}`,
//! its `metadata` a JSON string), the public API's trace with full details,
//! a page of the observations API, and lone observations. Observations
//! (SPAN, GENERATION, EVENT, AGENT, TOOL, CHAIN, RETRIEVER, EVALUATOR,
//! EMBEDDING, GUARDRAIL) nest by `parentObservationId`; generations carry
//! the model, the messages and the usage (docs/formats/langfuse.md).
//!
//! One run per trace; each observation a begin and an end span event around
//! what it adds ([`tree`]). [`chat`] reads the message shapes instrumented
//! libraries record (also used by the `langsmith` format).

mod facts;
mod generations;
mod reader;
mod tree;
mod validate;

use super::{Builder, Format, Input, Sample, Score};

pub struct Langfuse;

impl Format for Langfuse {
    fn id(&self) -> &'static str {
        "langfuse"
    }

    fn name(&self) -> &'static str {
        "Langfuse traces (UI export, API trace, observations)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let (mut records, mut exports, mut full, mut observations) = (0usize, 0usize, 0usize, 0usize);
        for v in sample.records() {
            records += 1;
            let Some(o) = v.as_object() else { continue };
            if reader::is_export(o) {
                exports += 1;
            } else if reader::is_full_trace(o) {
                full += 1;
            } else if reader::is_observation(o) || reader::is_observation_page(o) {
                observations += 1;
            }
        }
        let matched = exports + full + observations;
        if matched == 0 {
            return None;
        }
        let mut evidence = Vec::new();
        if exports > 0 {
            evidence.push(format!("{exports} of {records} sampled records are Langfuse trace exports (`trace` object, `observations` list)"));
        }
        if full > 0 {
            evidence.push(format!("{full} of {records} sampled records are Langfuse traces with `observations` (`id`, `timestamp`/`htmlPath`)"));
        }
        if observations > 0 {
            evidence.push(format!("{observations} of {records} sampled records are Langfuse observations (`traceId`, `startTime`, a `type` such as GENERATION or SPAN)"));
        }
        Some(Score { confidence: matched as f32 / records as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        for t in reader::read(input, out) {
            tree::run(t, input, out);
        }
    }
}
