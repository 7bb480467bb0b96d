//! Token usage totals: what the model calls of a trace (or of one run) cost,
//! in all and per model, from the typed [`Usage`] the formats fill.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Event, Trace, Usage};

/// Usage summed over events.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageTotals {
    pub total: Usage,
    /// Per model name; events whose usage names no model count under "".
    pub by_model: BTreeMap<String, Usage>,
    /// How many events reported usage.
    pub events: u32,
}

impl UsageTotals {
    /// Adds the usage event `e` reports, if any.
    pub fn add_event(&mut self, e: &Event) {
        let Some(facts) = e.facts.as_deref() else { return };
        let Some(u) = &facts.usage else { return };
        self.total.add(u);
        let model = facts.model.as_deref().unwrap_or_default();
        match self.by_model.get_mut(model) {
            Some(m) => m.add(u),
            None => drop(self.by_model.insert(model.to_string(), *u)),
        }
        self.events += 1;
    }
}

/// The usage of every event of the trace, or of run `run` only.
pub fn totals(trace: &Trace, run: Option<u32>) -> UsageTotals {
    let mut out = UsageTotals::default();
    for e in trace.events.iter().filter(|e| run.is_none_or(|r| e.run == r)) {
        out.add_event(e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_per_trace_run_and_model() {
        let text = br#"{"session_id": "s", "agent_name": "x", "events": [
{"event_type": "llm_call", "event_id": "1", "model": "a", "tokens_in": 10, "tokens_out": 2},
{"event_type": "llm_call", "model": "b", "tokens_in": "5", "tokens_out": 1},
{"event_type": "llm_call", "model": "a", "tokens_in": 1, "tokens_out": 1},
{"event_type": "generic"}
]}"#;
        // An AgentLens session (detected: analysis names no format).
        let mut t = crate::parse_trace(text.to_vec(), &crate::ParseOptions::default()).unwrap();
        let u = totals(&t, None);
        assert_eq!((u.total.input_tokens, u.total.output_tokens, u.total.total_tokens, u.events), (16, 4, 20, 3));
        assert_eq!((u.by_model["a"].input_tokens, u.by_model["b"].input_tokens), (11, 5));
        t.events[0].run = 1;
        assert_eq!(totals(&t, Some(1)).total.input_tokens, 10);
        assert_eq!(totals(&t, Some(0)).total.input_tokens, 6);
    }
}
