//! Recognises files people drop that are traces of another kind, so that
//! they get "not supported: this looks like X" instead of a shrug.
//!
//! Every agent-trace format this once named (Inspect logs, Langfuse and
//! LangSmith exports, Claude Code, Codex, SWE-agent, OpenTelemetry) is read
//! now; what is left are the look-alikes users reach for next.

use super::Sample;

/// What the sample looks like, when it is a known kind of file we do not read.
pub fn recognise(sample: &Sample) -> Option<&'static str> {
    let first = sample.values.first()?;
    let o = first.as_object()?;
    let has = |k: &str| o.contains_key(k);
    if has("traceEvents") || (has("displayTimeUnit") && has("systemTraceEvents")) {
        return Some("a Chrome / Perfetto trace-event file (a performance profile, not an agent trace)");
    }
    if o.get("log").and_then(|l| l.get("entries")).is_some_and(serde_json::Value::is_array) {
        return Some("an HTTP archive (HAR) of browser requests, not an agent trace");
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn profiles_and_har_files_are_named() {
        for (text, says) in [(r#"{"traceEvents": [{"ph": "X", "name": "f"}]}"#, "Perfetto"), (r#"{"log": {"version": "1.2", "entries": []}}"#, "HAR")] {
            let e = crate::parse_trace(text.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        }
    }
}
