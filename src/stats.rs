//! Counts that summarise a trace: events by kind and role, tool calls per
//! tool with failures and latency, tokens, and the time each run spans.
//!
//! One place computes them so the CLI, the wasm API and the page agree.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Severity;
use crate::model::{EventBody, ToolStatus, Trace};

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceStats {
    pub format: &'static str,
    pub events: usize,
    pub runs: usize,
    pub tool_calls: usize,
    pub linked_results: usize,
    pub errors: usize,
    pub warnings: usize,
    pub by_kind: BTreeMap<&'static str, u32>,
    pub by_role: BTreeMap<String, u32>,
    pub tools: BTreeMap<String, ToolStats>,
    /// Sums of the `tokens_in` / `tokens_out` (or `input_tokens` /
    /// `output_tokens`) numbers events carry in their metadata.
    pub tokens_in: u64,
    pub tokens_out: u64,
    /// First and last timestamp of each run, as written, with the span
    /// between them when both parse as RFC 3339.
    pub run_times: Vec<RunTime>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolStats {
    pub calls: u32,
    pub results: u32,
    pub failures: u32,
    /// Sum of `duration_ms` recorded on the calls or results, and how many had one.
    pub duration_ms_total: f64,
    pub durations: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunTime {
    pub run: usize,
    pub first: Option<String>,
    pub last: Option<String>,
    pub duration_seconds: Option<f64>,
}

fn metadata_number(e: &crate::model::Event, keys: &[&str]) -> Option<f64> {
    keys.iter().find_map(|k| e.metadata.get(*k).and_then(Value::as_f64))
}

pub fn trace_stats(trace: &Trace) -> TraceStats {
    let mut s = TraceStats {
        format: trace.format,
        events: trace.events.len(),
        runs: trace.runs.len(),
        tool_calls: trace.tool_call_count(),
        linked_results: trace.linked_result_count(),
        errors: trace.diagnostics.iter().filter(|d| d.severity == Severity::Error).count(),
        warnings: trace.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count(),
        ..TraceStats::default()
    };
    let mut times: Vec<(Option<&str>, Option<&str>)> = vec![(None, None); trace.runs.len()];
    for e in &trace.events {
        *s.by_kind.entry(e.body.kind()).or_insert(0) += 1;
        let duration = metadata_number(e, &["duration_ms"]);
        match &e.body {
            EventBody::Message(m) => {
                *s.by_role.entry(m.role.clone()).or_insert(0) += 1;
                for c in &m.tool_calls {
                    s.tools.entry(c.function.clone()).or_default().calls += 1;
                }
            }
            EventBody::ToolCall(c) => {
                let t = s.tools.entry(c.function.clone()).or_default();
                t.calls += 1;
                if let Some(d) = duration {
                    t.duration_ms_total += d;
                    t.durations += 1;
                }
            }
            EventBody::ToolResult(r) => {
                *s.by_role.entry("tool".to_string()).or_insert(0) += 1;
                let name = r.call.and_then(|c| trace.call(c)).map(|c| c.function.clone()).unwrap_or_default();
                let t = s.tools.entry(name).or_default();
                t.results += 1;
                if r.status == ToolStatus::Error || e.failed {
                    t.failures += 1;
                }
                if let Some(d) = duration {
                    t.duration_ms_total += d;
                    t.durations += 1;
                }
            }
            _ => {}
        }
        let as_tokens = |v: Option<f64>| v.filter(|n| *n >= 0.0).map(|n| n as u64).unwrap_or(0);
        s.tokens_in += as_tokens(metadata_number(e, &["tokens_in", "input_tokens", "prompt_tokens"]));
        s.tokens_out += as_tokens(metadata_number(e, &["tokens_out", "output_tokens", "completion_tokens"]));
        if let (Some(ts), Some(slot)) = (e.timestamp.as_deref(), times.get_mut(e.run as usize)) {
            if slot.0.is_none() {
                slot.0 = Some(ts);
            }
            slot.1 = Some(ts);
        }
    }
    s.run_times = times
        .into_iter()
        .enumerate()
        .filter(|(_, (first, _))| first.is_some())
        .map(|(run, (first, last))| RunTime {
            run,
            first: first.map(str::to_string),
            last: last.map(str::to_string),
            duration_seconds: match (first.and_then(parse_rfc3339), last.and_then(parse_rfc3339)) {
                (Some(a), Some(b)) => Some(b - a),
                _ => None,
            },
        })
        .collect();
    s
}

/// Seconds since the epoch of an RFC 3339 / ISO 8601 date-time
/// (`2025-07-07T12:18:46.065764+05:30`, `…Z`, or naive, read as UTC).
pub fn parse_rfc3339(s: &str) -> Option<f64> {
    let s = s.trim();
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> { s.get(r)?.parse().ok() };
    if b.len() < 19 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut i = 19;
    let mut frac = 0.0;
    if b.get(i) == Some(&b'.') {
        let start = i;
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac = s.get(start..i)?.parse::<f64>().ok()?;
    }
    let offset = match b.get(i) {
        None | Some(b'Z' | b'z') => 0,
        Some(sign @ (b'+' | b'-')) => {
            let oh = num(i + 1..i + 3)?;
            let om = if b.get(i + 3) == Some(&b':') { num(i + 4..i + 6)? } else { num(i + 3..i + 5).unwrap_or(0) };
            let o = oh * 3600 + om * 60;
            if *sign == b'-' {
                -o
            } else {
                o
            }
        }
        _ => return None,
    };
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = if y2 >= 0 { y2 } else { y2 - 399 } / 400;
    let yoe = y2 - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + h * 3600 + mi * 60 + sec - offset) as f64 + frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(parse_rfc3339("2000-03-01T00:00:00Z"), Some(951_868_800.0));
        assert_eq!(parse_rfc3339("2025-07-07T12:18:46+05:30"), parse_rfc3339("2025-07-07T06:48:46Z"));
        assert_eq!(parse_rfc3339("2024-10-11T20:58:24.5-01:00"), Some(parse_rfc3339("2024-10-11T21:58:24Z").unwrap() + 0.5));
        assert_eq!(parse_rfc3339("2024-10-11 20:58:24"), parse_rfc3339("2024-10-11T20:58:24Z"));
        assert_eq!(parse_rfc3339("yesterday"), None);
        assert_eq!(parse_rfc3339("2024-13-11T20:58:24Z"), None);
    }
}
