//! The LazyArchive class: an archive (an Inspect `.eval`) opened from its
//! tail, its runs table first, each run's body read when it is shown or
//! searched (`crate::lazy`). The caller reads the bytes (a `File`'s slices);
//! the core inflates and parses them.

use wasm_bindgen::prelude::*;

use super::{parse_options, to_js, JsTrace};
use crate::container::{self, TailRead};
use crate::lazy::{LazyArchive, LazyError};
use crate::query::QueryIndex;

/// An archive read member by member. Call `free()` when done.
#[wasm_bindgen(js_name = LazyArchive)]
pub struct JsLazyArchive {
    archive: LazyArchive,
    options: crate::ParseOptions,
}

/// A lazy-reading error as a JS `Error`; one that needs more bytes has
/// `readTo`: read the member again from its `readRange` start to that byte.
fn lazy_error(e: LazyError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    match e {
        LazyError::Short { end } => {
            let _ = js_sys::Reflect::set(&err, &JsValue::from_str("readTo"), &JsValue::from_f64(end as f64));
        }
        // A caller tells "read it whole" from a broken archive by this, not by the message's words.
        LazyError::NotLazy => {
            let _ = js_sys::Reflect::set(&err, &JsValue::from_str("code"), &JsValue::from_str("not-lazy"));
        }
        _ => {}
    }
    err.into()
}

fn trace_of(trace: crate::model::Trace) -> JsTrace {
    let counts = crate::view::diagnostic_counts(&trace);
    JsTrace { trace, counts, index: QueryIndex::default() }
}

/// How many bytes from the end of a zip file of `fileLength` bytes its
/// central directory needs, given its last bytes `tail` (start with the
/// last 65,579, or the whole file): 0 when `tail` is enough for
/// `openArchiveLazily`. Throws when it is no zip archive.
#[wasm_bindgen(js_name = archiveTailNeeded)]
pub fn archive_tail_needed(tail: &[u8], file_length: f64) -> Result<f64, JsError> {
    match container::read_index(tail, file_length as u64).map_err(|e| JsError::new(&e.to_string()))? {
        TailRead::Index(_) => Ok(0.0),
        TailRead::NeedTail(n) => Ok(n as f64),
    }
}

/// Opens a zip archive from its last bytes (`archiveTailNeeded` says how
/// many): its central directory only. Throws when the archive does not
/// open, or when no format reads any of its members lazily (read it whole
/// with `parseTrace` then).
#[wasm_bindgen(js_name = openArchiveLazily)]
pub fn open_archive_lazily(
    tail: &[u8],
    file_length: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] options: Option<js_sys::Object>,
) -> Result<JsLazyArchive, JsValue> {
    let options = parse_options(options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED)).map_err(JsValue::from)?;
    let index = match container::read_index(tail, file_length as u64).map_err(|e| lazy_error(LazyError::Zip(e)))? {
        TailRead::Index(index) => index,
        TailRead::NeedTail(n) => return Err(js_sys::Error::new(&format!("the central directory needs the last {n} bytes of the file")).into()),
    };
    let archive = LazyArchive::new(index).map_err(lazy_error)?;
    Ok(JsLazyArchive { archive, options })
}

#[wasm_bindgen(js_class = LazyArchive)]
impl JsLazyArchive {
    /// The archive's members, in its directory's order.
    #[wasm_bindgen(unchecked_return_type = "ArchiveEntry[]")]
    pub fn entries(&self) -> JsValue {
        to_js(&self.archive.entry_views())
    }

    /// The members to read (`readRange`) and give to `addHead` before
    /// `runsTrace`: every member but the runs' bodies.
    #[wasm_bindgen(js_name = headsWanted, unchecked_return_type = "number[]")]
    pub fn heads_wanted(&self) -> JsValue {
        to_js(&self.archive.heads_wanted())
    }

    /// The member named `name` (a run's `pendingBody`), or -1.
    #[wasm_bindgen(js_name = entryNamed)]
    pub fn entry_named(&self, name: &str) -> i32 {
        self.archive.entry_named(name).and_then(|i| i32::try_from(i).ok()).unwrap_or(-1)
    }

    /// `[start, end)`: the bytes of the file to read for member `entry`
    /// (its local header, name and data, with a little slack).
    #[wasm_bindgen(js_name = readRange, unchecked_return_type = "[number, number]")]
    pub fn read_range(&self, entry: u32) -> JsValue {
        let r = self.archive.read_range(entry as usize).unwrap_or(0..0);
        to_js(&[r.start, r.end])
    }

    /// Where member `entry`'s data ends in the file, read from its local
    /// header (`bytes`: the file's bytes from `readRange(entry)[0]` on, at
    /// least 30): read that far before `runsTrace` or `bodyTrace`.
    #[wasm_bindgen(js_name = dataEnd)]
    pub fn data_end(&self, entry: u32, bytes: &[u8]) -> Result<f64, JsValue> {
        self.archive.data_end(entry as usize, bytes).map(|end| end as f64).map_err(lazy_error)
    }

    /// Keeps member `entry` (one of `headsWanted`), inflated from `bytes`
    /// (the file's bytes from `readRange(entry)[0]` on). Throws when it
    /// does not inflate; an error with `readTo` asks for more bytes.
    #[wasm_bindgen(js_name = addHead)]
    pub fn add_head(&mut self, entry: u32, bytes: &[u8]) -> Result<(), JsValue> {
        self.archive.add_head(entry as usize, bytes).map_err(lazy_error)
    }

    /// The runs table's trace: a run per summary, their bodies unread
    /// (`pendingBody` on each run, `pending` on its `runRows()` row), but
    /// those of `bodies` (each `{ entry, bytes }`, bytes as for `addHead`),
    /// whose runs read exactly as `parseTrace` of the whole archive reads
    /// them.
    #[wasm_bindgen(js_name = runsTrace)]
    pub fn runs_trace(&self, #[wasm_bindgen(unchecked_param_type = "ArchiveRead[]")] bodies: js_sys::Array) -> Result<JsTrace, JsValue> {
        let mut read = Vec::new();
        for b in bodies.iter() {
            let entry = js_sys::Reflect::get(&b, &JsValue::from_str("entry")).ok().and_then(|v| v.as_f64()).unwrap_or(-1.0);
            let bytes = js_sys::Reflect::get(&b, &JsValue::from_str("bytes")).ok().and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok());
            let (Some(bytes), true) = (bytes, entry >= 0.0) else {
                return Err(js_sys::Error::new("bodies must be { entry: number, bytes: Uint8Array }").into());
            };
            read.push(self.archive.read_body(entry as usize, &bytes.to_vec()).map_err(lazy_error)?);
        }
        self.archive.runs_trace(read, &self.options).map(trace_of).map_err(lazy_error)
    }

    /// The bodies no run of `trace` (a `runsTrace`) stands for: no summary
    /// lists them. Read them and make the runs trace again with them.
    #[wasm_bindgen(js_name = bodiesUnlisted, unchecked_return_type = "number[]")]
    pub fn bodies_unlisted(&self, trace: &JsTrace) -> JsValue {
        let given: Vec<String> = trace.trace.files.iter().map(|f| f.name.clone()).collect();
        to_js(&self.archive.bodies_unlisted(&trace.trace, &given))
    }

    /// Member `entry`'s body alone with the members it needs (not the
    /// summaries): one run, as `parseTrace` of the whole archive reads it.
    /// For a search going through every body one at a time.
    #[wasm_bindgen(js_name = bodyTrace)]
    pub fn body_trace(&self, entry: u32, bytes: &[u8]) -> Result<JsTrace, JsValue> {
        let body = self.archive.read_body(entry as usize, bytes).map_err(lazy_error)?;
        self.archive.body_trace(body, &self.options).map(trace_of).map_err(lazy_error)
    }
}
