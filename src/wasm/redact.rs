//! `redact(bytes, options)`: a trace file with its secrets masked, in its
//! own format (`crate::redact`), for the page's redacted export.

use wasm_bindgen::prelude::*;

use super::to_js;
use crate::redact::preview::examples;
use crate::redact::{redact_input, RedactOptions};

#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsRedactOptions {
    #[serde(default)]
    no_builtin: bool,
    #[serde(default)]
    patterns: Vec<String>,
    #[serde(default)]
    literals: Vec<String>,
}

/// Masks the secrets of a trace file (gzip and UTF-16 are read first; the
/// output is UTF-8 JSON of the same format, or for a zip such as an Inspect
/// `.eval` a zip of the same files, each redacted): `{ bytes, report, examples }`,
/// `examples` the first few placeholders of each kind with their secret
/// masked (`redact::preview`), for a preview that must not show the secret. Throws an
/// `Error` for a pattern that is not a regex, options that are not
/// `RedactOptions`, or a zip archive that does not read or holds a file that
/// is not JSON.
#[wasm_bindgen(unchecked_return_type = "Redacted")]
pub fn redact(bytes: &[u8], #[wasm_bindgen(unchecked_optional_param_type = "RedactOptions")] options: Option<js_sys::Object>) -> Result<JsValue, JsError> {
    let options: JsRedactOptions = match options {
        None => JsRedactOptions::default(),
        Some(o) => {
            // serde-wasm-bindgen reads only the fields it knows: a misspelt
            // option would be dropped silently, and a secret left unmasked.
            if let Some(k) = js_sys::Object::keys(&o).iter().filter_map(|k| k.as_string()).find(|k| !["noBuiltin", "patterns", "literals"].contains(&k.as_str())) {
                return Err(JsError::new(&format!("invalid redact options: unknown option {k:?} (options: noBuiltin, patterns, literals)")));
            }
            serde_wasm_bindgen::from_value(o.into()).map_err(|e| {
            let js: JsValue = e.into();
            let message = js.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
            JsError::new(&format!("invalid redact options: {message}"))
            })?
        }
    };
    let options = RedactOptions { no_builtin: options.no_builtin, patterns: options.patterns, literals: options.literals };
    let r = redact_input(bytes, &options).map_err(|e| JsError::new(&e.to_string()))?;
    let out = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v).map(drop);
    set("bytes", &js_sys::Uint8Array::from(r.bytes.as_slice()).into()).map_err(|_| JsError::new("cannot build the result"))?;
    set("report", &to_js(&r.report)).map_err(|_| JsError::new("cannot build the result"))?;
    set("examples", &to_js(&examples(&r.placeholders, EXAMPLES_PER_KIND))).map_err(|_| JsError::new("cannot build the result"))?;
    Ok(out.into())
}

/// Placeholders shown per kind in a preview.
const EXAMPLES_PER_KIND: usize = 3;
