//! Recognises trace formats we do not read yet, so that an unsupported file
//! gets "not supported yet: this looks like X" instead of a shrug.

use serde_json::Value;

use super::Sample;

/// What the sample looks like, when it is a known format we do not read.
pub fn recognise(sample: &Sample) -> Option<&'static str> {
    let first = sample.values.first()?;
    if let Some(o) = first.as_object() {
        let has = |k: &str| o.contains_key(k);
        if has("trace") && has("observations") {
            return Some("a Langfuse trace export ({trace, observations})");
        }
        if (has("post") || has("patch")) && o.values().any(Value::is_array) {
            return Some("LangSmith run ingest payloads ({post, patch})");
        }
    }
    None
}
