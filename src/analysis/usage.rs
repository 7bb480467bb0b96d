//! Token usage totals: what the model calls of a trace (or of one run) cost,
//! in all and per model, from the typed [`Usage`] the formats fill, and the
//! [`Cost`] in dollars where the trace reports one.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Cost, Event, Trace, Usage};

/// Usage summed over events.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageTotals {
    pub total: Usage,
    /// Per model name; events whose usage names no model count under "".
    pub by_model: BTreeMap<String, Usage>,
    /// How many events reported usage.
    pub events: u32,
    /// The cost the events report, when any does: absent, not 0, when none
    /// does (a trace that says nothing about cost has no cost we know).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostTotals>,
}

/// Cost summed over the events that report one, counted once as usage is
/// (a format that repeats a call's usage on several records reports its
/// cost on one of them only).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostTotals {
    pub total: Cost,
    /// Per model name; events whose cost names no model count under "".
    pub by_model: BTreeMap<String, Cost>,
    /// How many events reported a cost (compare with the usage's `events`:
    /// fewer means some calls' cost is not in the total).
    pub events: u32,
}

impl UsageTotals {
    /// Adds the usage event `e` reports, if any.
    pub fn add_event(&mut self, e: &Event) {
        let Some(facts) = e.facts.as_deref() else { return };
        let model = facts.model.as_deref().unwrap_or_default();
        if let Some(c) = &facts.cost {
            let totals = self.cost.get_or_insert_with(CostTotals::default);
            totals.total.add(c);
            match totals.by_model.get_mut(model) {
                Some(m) => m.add(c),
                None => drop(totals.by_model.insert(model.to_string(), *c)),
            }
            totals.events += 1;
        }
        let Some(u) = &facts.usage else { return };
        self.total.add(u);
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
        assert_eq!(totals(&t, None).cost, None, "no event reports a cost: none, not 0");
        let cost = |total, input| Some(Cost { total, input, output: None });
        t.events[0].facts_mut().cost = cost(0.5, Some(0.25));
        t.events[1].facts_mut().cost = cost(0.125, None);
        t.events[3].facts_mut().cost = cost(1.0, Some(1.0));
        let c = totals(&t, None).cost.unwrap();
        assert_eq!((c.total, c.events), (Cost { total: 1.625, input: Some(1.25), output: None }, 3));
        assert_eq!((c.by_model["a"].total, c.by_model["b"].total, c.by_model[""].total), (0.5, 0.125, 1.0));
        assert_eq!(totals(&t, Some(1)).cost.unwrap().total.total, 0.5);
    }
}
