//! OpenTelemetry traces: OTLP JSON (`ExportTraceServiceRequest` as the
//! protobuf JSON mapping writes it, with OTLP/JSON's hex ids), one request
//! per file or one per line as the Collector's file exporter writes them;
//! lone span objects; and one span's flat attribute object. The GenAI
//! semantic conventions (current and deprecated) and OpenInference give
//! the messages, tool calls, usage and models (docs/formats/otel.md).
//!
//! One run per trace id; each span a begin and an end event around what it
//! adds ([`tree`]).

mod attrs;
mod convert;
mod fast;
mod genai_schema;
mod input_tail;
mod input_text;
mod messages;
mod output_reuse;
mod reader;
mod schema;
mod span_walk;
mod time;
mod tool_answers;
mod tree;
mod unescape;

use serde_json::Value;

use super::{Builder, Format, Input, Sample, Score};

pub struct Otel;

impl Format for Otel {
    fn id(&self) -> &'static str {
        "otel"
    }

    fn name(&self) -> &'static str {
        "OpenTelemetry traces (OTLP JSON, GenAI / OpenInference)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let (mut records, mut requests, mut spans, mut flat) = (0usize, 0usize, 0usize, 0usize);
        for v in sample.records() {
            records += 1;
            let Some(o) = v.as_object() else { continue };
            if reader::is_request(o) {
                requests += 1;
            } else if reader::is_span_object(o) && (o.contains_key("startTimeUnixNano") || o.contains_key("start_time_unix_nano")) {
                spans += 1;
            } else if reader::is_flat_attributes(o) {
                flat += 1;
            }
        }
        let matched = requests + spans + flat;
        if matched == 0 {
            return None;
        }
        let mut evidence = Vec::new();
        if requests > 0 {
            evidence.push(format!("{requests} of {records} sampled records are OTLP export requests (`resourceSpans`)"));
        }
        if spans > 0 {
            evidence.push(format!("{spans} of {records} sampled records are OTLP spans (`traceId`, `spanId`, `startTimeUnixNano`)"));
        }
        if flat > 0 {
            evidence.push(format!("{flat} of {records} sampled records are span attributes (`gen_ai.*`, `llm.*`, `openinference.*`)"));
        }
        // Flat attributes are a weaker sign than an OTLP envelope.
        let weight = (requests + spans) as f32 + flat as f32 * 0.9;
        Some(Score { confidence: weight / records as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let found = reader::read(input, out);
        tree::runs(&found.spans, out);
        if !found.resources.is_empty() {
            out.metadata_mut().insert("resourceSpans".to_string(), Value::Array(found.resources));
        }
    }
}
