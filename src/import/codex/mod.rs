//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`).
//!
//! Each line is a `RolloutLine` of codex-rs/protocol (`protocol.rs`, with the
//! response items of `models.rs`): `{timestamp, type, payload}`, `type` one of
//! `session_meta`, `turn_context`, `response_item`, `event_msg`, `compacted`.
//! One run per session (`session_meta.id`); tool calls and their outputs are
//! linked by `call_id`; the `event_msg` lines that mirror a response item
//! (`user_message`, `agent_message`, `agent_reasoning`) are kept as key-value
//! events so that each turn shows once; `token_count` events carry the usage
//! ccusage's Codex report counts ([`usage`]). docs/formats/codex.md has the
//! whole mapping and the protocol version it follows.

mod as_written;
mod events;
mod fast;
mod fast_events;
mod inner_literal;
mod items;
mod reader;
mod shell;
pub mod usage;

use serde_json::Value;

use super::{Builder, Format, Input, Sample, Score};
use crate::model::{EventBody, Trace};

pub struct Codex;

/// The `type`s of a rollout line (`RolloutItem`).
pub const RECORD_TYPES: &[&str] = &["session_meta", "turn_context", "response_item", "event_msg", "compacted"];

impl Format for Codex {
    fn id(&self) -> &'static str {
        "codex"
    }

    fn name(&self) -> &'static str {
        "Codex CLI rollouts"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let mut records = 0usize;
        let mut lines = 0usize;
        let mut metas = 0usize;
        for r in sample.records() {
            records += 1;
            let Some(o) = r.as_object() else { continue };
            let kind = o.get("type").and_then(Value::as_str).unwrap_or_default();
            let payload = o.get("payload").and_then(Value::as_object);
            if !RECORD_TYPES.contains(&kind) || payload.is_none() {
                continue;
            }
            lines += 1;
            if kind == "session_meta" && payload.is_some_and(|p| p.contains_key("originator") || p.contains_key("cli_version")) {
                metas += 1;
            }
        }
        if lines == 0 {
            return None;
        }
        let mut evidence = vec![format!(
            "{lines} of {records} sampled records are rollout lines: an object `payload` under a `type` of {}",
            RECORD_TYPES.join(", ")
        )];
        if metas > 0 {
            evidence.push(format!("{metas} `session_meta` payload(s) with Codex's `originator` / `cli_version`"));
        }
        Some(Score { confidence: lines as f32 / records as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        reader::read(input, out);
    }

    /// No Docent loader reads Codex rollouts; the shared mapping would show
    /// every `event_msg` as a system message — the mirrors of the response
    /// items (each user and agent message twice), token counts, exec
    /// begin/end markers, `session_meta` and `turn_context`. The run reads
    /// as the conversation: messages, reasoning, tool calls and their
    /// outputs (and any line that could not be read). The rest stays in the
    /// events and the run's metadata.
    fn agent_run(&self, trace: &Trace, run: usize) -> Option<crate::agentrun::DocRun> {
        trace.runs.get(run)?;
        let keep = |e: &crate::model::Event| {
            matches!(e.body, EventBody::Message(_) | EventBody::ToolCall(_) | EventBody::ToolResult(_) | EventBody::ToolDefinitions(_) | EventBody::Unparsed(_))
        };
        Some(crate::agentrun::from_model_keeping(trace, run, &keep))
    }
}
