//! Recognises trace formats we do not read yet, so that an unsupported file
//! gets "not supported yet: this looks like X" instead of a shrug.

use super::Sample;

/// What the sample looks like, when it is a known format we do not read.
pub fn recognise(sample: &Sample) -> Option<&'static str> {
    let first = sample.values.first()?;
    if let Some(o) = first.as_object() {
        let has = |k: &str| o.contains_key(k);
        if has("eval") && has("version") && (has("samples") || has("results")) {
            return Some("an Inspect AI evaluation log (JSON)");
        }
    }
    None
}
