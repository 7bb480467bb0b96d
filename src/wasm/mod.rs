//! The JavaScript API: a thin wasm-bindgen layer over the core.
//!
//! Parsed traces stay in wasm memory; JavaScript asks for pages of rows,
//! diagnostics and index arrays, never the whole trace as objects.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::model::Trace;
use crate::query::QueryIndex;

mod allocator;
mod memcmp;
// The Trace class's methods, by what they serve; each file its own impl block.
mod agentrun_text;
mod lazy;
mod redact;
mod trace;
mod views;

/// The TypeScript declarations of every value the API returns (one file,
/// checked against the Rust view types by tests/ts_types.rs).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");


#[wasm_bindgen(start)]
fn start() {
    // A panic in wasm poisons the module; say so loudly instead of "unreachable".
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!("agent-trace-viewer: internal error (please report): {info}"));
    }));
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);

    /// `JSON.parse(text, reviver)` (js-sys binds only the one-argument form).
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse_with_reviver(text: &str, reviver: &js_sys::Function) -> Result<JsValue, JsValue>;
}

/// Hands a value to JavaScript through `JSON.parse`, which makes keys such
/// as `__proto__` plain own properties: trace data cannot replace an object's
/// prototype (serde-wasm-bindgen's property assignment would). It is also one
/// string crossing instead of one call per field.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    match serde_json::to_string(value) {
        Ok(text) => parse_json(&text),
        Err(_) => JsValue::NULL,
    }
}

/// `JSON.parse` of serde_json's text; out of line, so that each of
/// [`to_js`]'s instances stays a call.
#[inline(never)]
fn parse_json(text: &str) -> JsValue {
    match js_sys::JSON::parse(text) {
        Ok(v) => v,
        // serde_json's text is JSON but for the numbers `NaN`, `Infinity`
        // and `-Infinity` (as Python's json and pydantic read them): they
        // cross as strings after a lone surrogate, which no other string
        // holds, and are turned back into those numbers.
        Err(_) => {
            let reviver = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(|_key: JsValue, value: JsValue| {
                let Some(s) = value.dyn_ref::<js_sys::JsString>().filter(|s| s.char_code_at(0) == f64::from(0xD800)) else { return value };
                match s.char_code_at(1) as u8 {
                    b'N' => JsValue::from_f64(f64::NAN),
                    b'I' => JsValue::from_f64(f64::INFINITY),
                    _ => JsValue::from_f64(f64::NEG_INFINITY),
                }
            });
            let quoted = crate::json::python::quote_nonfinite(text);
            json_parse_with_reviver(&quoted, reviver.as_ref().unchecked_ref()).unwrap_or(JsValue::NULL)
        }
    }
}

#[derive(Default, serde::Deserialize)]
struct JsParseOptions {
    format: Option<String>,
}

fn parse_options(options: JsValue) -> Result<crate::ParseOptions, JsError> {
    let opts: JsParseOptions = if options.is_undefined() || options.is_null() {
        JsParseOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| {
            let js: JsValue = e.into();
            let message = js.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
            JsError::new(&format!("invalid parse options: {message}"))
        })?
    };
    Ok(crate::ParseOptions { format: opts.format, ..Default::default() })
}

/// Reads a trace from bytes. Throws an `Error` only when the input is no
/// trace at all; malformed records become diagnostics.
#[wasm_bindgen(js_name = parseTrace)]
pub fn parse_trace(
    bytes: Vec<u8>,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] options: Option<js_sys::Object>,
) -> Result<JsTrace, JsError> {
    let options = options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
    let opts = parse_options(options)?;
    reserve_heap(bytes.len());
    let trace = crate::parse_trace(bytes, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    let counts = crate::view::diagnostic_counts(&trace);
    Ok(JsTrace { trace, counts, index: QueryIndex::default() })
}

/// Grows the heap once, before parsing, by about what the parse will use.
///
/// The allocator grows wasm memory 64 KiB at a time as the parse allocates,
/// and each `memory.grow` costs the engine a fresh view of the memory: a
/// 100 MB input made ~10,000 of them and spent more time there than parsing.
/// Allocating and freeing one block up front leaves it in the allocator's
/// free space for the parse to reuse.
/// Capped (a failed reservation is simply skipped) so that a big input
/// cannot push the heap past what the parse itself would need.
fn reserve_heap(input: usize) {
    const CAP: usize = 1 << 30;
    // The parse keeps about half the input besides the input itself (the
    // events, the line map; content stays in the input). Reserving more than
    // it uses only holds memory: 1 × kept the heap at 2 × the input, 2 × let
    // it grow to 5 × (no freed hole could hold the block) (BENCHMARKS.md).
    let want = (input / 2).min(CAP);
    let have = core::arch::wasm32::memory_size(0).saturating_mul(65536);
    if want > have / 2 {
        let mut block = Vec::<u8>::new();
        let _ = block.try_reserve_exact(want);
    }
}

/// The ids of the supported formats.
#[wasm_bindgen(js_name = formats, unchecked_return_type = "string[]")]
pub fn formats() -> JsValue {
    to_js(&crate::format_ids())
}

/// Groups dropped or picked files into traces: the files a format reads as
/// one trace together (an OpenHands conversation's event files), every
/// other file alone. Each group is `{ name, files }`, `files` indices into
/// `paths`; read a group of several with `parseFiles`. `heads`, optional,
/// are the files' first bytes by index (a `Uint8Array` or `ArrayBuffer` of
/// up to 8 KB; `null` or missing for a file not read): a file whose path names no group but whose records do (an
/// older Claude Code sub-agent file) is grouped by them. `groupHeadsWanted`
/// says which files to read.
#[wasm_bindgen(js_name = groupFiles, unchecked_return_type = "FileGroup[]")]
pub fn group_files(
    paths: Vec<String>,
    #[wasm_bindgen(unchecked_optional_param_type = "(Uint8Array | ArrayBuffer | null | undefined)[]")] heads: Option<js_sys::Array>,
) -> JsValue {
    let bytes = |h: JsValue| match h.dyn_into::<js_sys::Uint8Array>() {
        Ok(b) => Some(b.to_vec()),
        Err(h) => h.dyn_into::<js_sys::ArrayBuffer>().ok().map(|b| js_sys::Uint8Array::new(&b).to_vec()),
    };
    let heads: Vec<Option<Vec<u8>>> = heads.map(|a| a.iter().map(bytes).collect()).unwrap_or_default();
    let heads: Vec<Option<&[u8]>> = heads.iter().map(|h| h.as_deref()).collect();
    to_js(&crate::import::group_files(&paths, &heads))
}

/// The indices of the `paths` whose first bytes `groupFiles` would use (a
/// name that says nothing of its group, a format that reads its records):
/// read those files' first 8 KB (`file.slice(0, 8192)`) and pass them as
/// `groupFiles(paths, heads)`; every other file is grouped by its path.
#[wasm_bindgen(js_name = groupHeadsWanted, unchecked_return_type = "number[]")]
pub fn group_heads_wanted(paths: Vec<String>) -> JsValue {
    to_js(&crate::import::group_heads_wanted(&paths))
}

/// A parsed trace, held in wasm memory. Call `free()` when done.
#[wasm_bindgen(js_name = Trace)]
pub struct JsTrace {
    trace: Trace,
    counts: Vec<(u32, u32)>,
    index: QueryIndex,
}

/// Reads several files as one trace (an OpenHands conversation folder, or
/// several files dropped at once), ordered as the OpenHands SDK orders event
/// files. Throws like `parseTrace`.
#[wasm_bindgen(js_name = parseFiles)]
pub fn parse_files(
    #[wasm_bindgen(unchecked_param_type = "FileInput[]")] files: js_sys::Array,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] options: Option<js_sys::Object>,
) -> Result<JsTrace, JsError> {
    let options = options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
    let opts = parse_options(options)?;
    let mut inputs = Vec::with_capacity(files.length() as usize);
    for (i, f) in files.iter().enumerate() {
        let name = js_sys::Reflect::get(&f, &JsValue::from_str("name")).ok().and_then(|v| v.as_string());
        let bytes = js_sys::Reflect::get(&f, &JsValue::from_str("bytes")).ok().and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok());
        match (name, bytes) {
            (Some(name), Some(bytes)) => inputs.push((name, bytes.to_vec())),
            _ => return Err(JsError::new(&format!("files[{i}] must be {{ name: string, bytes: Uint8Array }}"))),
        }
    }
    if inputs.is_empty() {
        return Err(JsError::new("no files given"));
    }
    let trace = crate::parse_files(inputs, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    let counts = crate::view::diagnostic_counts(&trace);
    Ok(JsTrace { trace, counts, index: QueryIndex::default() })
}

impl JsTrace {
    fn row(&self, i: usize) -> Option<crate::view::RowView<'_>> {
        crate::view::row_view(&self.trace, i, self.counts.get(i).copied().unwrap_or((0, 0)))
    }
}

/// A query error as a JS `Error` with a `column` property.
fn query_error(e: crate::query::QueryError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("column"), &JsValue::from_f64(e.column as f64));
    err.into()
}
