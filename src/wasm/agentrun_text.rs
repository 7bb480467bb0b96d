//! `trace.toAgentRunText()` and `trace.agentRunTokenCount()`: the AgentRun
//! text of a run, byte for byte as Docent renders it (src/render/).
//!
//! The cl100k_base tokenizer is a separate wasm module (`pkg/tokenizer-*`,
//! several MB): callers pass it in when they want a token limit or count, so
//! the main module stays small. Anything with `encode(text)` and
//! `decode(tokens)` works; the tokenizer module's exports have exactly these.

use wasm_bindgen::prelude::*;

use super::JsTrace;
use crate::render::{agent_run_text, ContextConfig, Style, TextOptions, Tokenizer};

#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsTextOptions {
    style: Option<String>,
    #[serde(default, deserialize_with = "js_number")]
    token_limit: Option<f64>,
    context: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "js_number")]
    run: Option<f64>,
}

/// An optional number, as `Option<f64>` reads it, but without serde_json's
/// own float parser (`float_roundtrip`'s, ~10 KB of the gzipped .wasm, which
/// nothing else reaches): integers arrive as u64/i64, other numbers as their
/// digits (`arbitrary_precision`), which std's correctly rounded parser reads.
/// The text comes from `JSON.stringify`, so numbers are finite doubles in
/// their shortest form and both parsers give the same value; anything else is
/// the same "invalid type: …, expected f64" error as before (for a list or an
/// object, at the value's end rather than its start: a column later).
fn js_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    use serde::de::{Error, MapAccess, Visitor};
    struct Number;
    impl<'de> Visitor<'de> for Number {
        type Value = Option<f64>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("f64")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v as f64))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v as f64))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            // A number that is no u64/i64 (or an object, which is an error).
            match serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))? {
                serde_json::Value::Number(n) => n.as_f64().map(Some).ok_or_else(|| A::Error::custom("number out of range")),
                _ => Err(A::Error::invalid_type(serde::de::Unexpected::Map, &self)),
            }
        }
    }
    d.deserialize_any(Number)
}

/// A tokenizer implemented in JavaScript (usually the tokenizer wasm module).
struct JsTokenizer {
    encode: js_sys::Function,
    decode: js_sys::Function,
}

impl JsTokenizer {
    fn from(value: &JsValue) -> Result<Option<JsTokenizer>, JsError> {
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let method = |name: &str| -> Result<js_sys::Function, JsError> {
            js_sys::Reflect::get(value, &JsValue::from_str(name))
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or_else(|| JsError::new(&format!("the tokenizer has no `{name}` function (pass the agent-trace-viewer/tokenizer module)")))
        };
        Ok(Some(JsTokenizer { encode: method("encode")?, decode: method("decode")? }))
    }
}

impl Tokenizer for JsTokenizer {
    fn encode(&self, text: &str) -> Vec<u32> {
        match self.encode.call1(&JsValue::NULL, &JsValue::from_str(text)) {
            Ok(v) => js_sys::Uint32Array::new(&v).to_vec(),
            Err(_) => Vec::new(),
        }
    }

    fn decode(&self, tokens: &[u32]) -> String {
        let array = js_sys::Uint32Array::from(tokens);
        self.decode.call1(&JsValue::NULL, &array).ok().and_then(|v| v.as_string()).unwrap_or_default()
    }
}

fn options(value: JsValue) -> Result<TextOptions, JsError> {
    let raw: JsTextOptions = if value.is_undefined() || value.is_null() {
        JsTextOptions::default()
    } else {
        let json = js_sys::JSON::stringify(&value).map_err(|_| JsError::new("options must be a plain object"))?;
        serde_json::from_str(&String::from(json)).map_err(|e| JsError::new(&format!("invalid AgentRun text options: {e}")))?
    };
    let style = match raw.style.as_deref() {
        None => Style::Current,
        Some(s) => Style::parse(s).ok_or_else(|| JsError::new(&format!("style must be \"legacy\" or \"current\", not {s:?}")))?,
    };
    let whole = |x: f64, what: &str| -> Result<i64, JsError> {
        if x.fract() == 0.0 && (0.0..=9.0e15).contains(&x) {
            Ok(x as i64)
        } else {
            Err(JsError::new(&format!("{what} must be a whole number ≥ 0")))
        }
    };
    let context = match &raw.context {
        None | Some(serde_json::Value::Null) => ContextConfig::default(),
        Some(c) => ContextConfig::from_json(c).map_err(|e| JsError::new(&e.message))?,
    };
    Ok(TextOptions {
        style,
        token_limit: raw.token_limit.map(|n| whole(n, "tokenLimit")).transpose()?,
        context,
        run: raw.run.map(|n| whole(n, "run")).transpose()?.unwrap_or(0) as usize,
    })
}

#[wasm_bindgen(js_class = Trace)]
impl JsTrace {
    /// The run's AgentRun text as Docent renders it: a string, or the
    /// chunks (`string[]`) when `tokenLimit` is given (legacy style; needs
    /// `tokenizer`). Throws an `Error` for bad options or where Docent itself fails.
    #[wasm_bindgen(js_name = toAgentRunText, unchecked_return_type = "string | string[]")]
    pub fn to_agent_run_text(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "AgentRunTextOptions")] options_value: Option<js_sys::Object>,
        #[wasm_bindgen(unchecked_optional_param_type = "Cl100kTokenizer")] tokenizer: Option<js_sys::Object>,
    ) -> Result<JsValue, JsError> {
        let opts = options(options_value.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
        let tok = JsTokenizer::from(&tokenizer.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
        let chunks = agent_run_text(&self.trace, &opts, tok.as_ref().map(|t| t as &dyn Tokenizer)).map_err(|e| JsError::new(&e.message))?;
        if opts.token_limit.is_some() {
            let array = js_sys::Array::new();
            for c in &chunks {
                array.push(&JsValue::from_str(c));
            }
            return Ok(array.into());
        }
        // One chunk (the current style always): no copy of a text that may be 100 MB.
        Ok(JsValue::from_str(&match <[String; 1]>::try_from(chunks) {
            Ok([one]) => one,
            Err(chunks) => chunks.concat(),
        }))
    }

    /// The run as Docent AgentRun JSON (current generation: what
    /// `docent.data_models.AgentRun.model_validate` reads), per the mapping
    /// the text is rendered from. `options.run` picks the run.
    #[wasm_bindgen(js_name = toAgentRun, unchecked_return_type = "Record<string, unknown>")]
    pub fn to_agent_run(&self, #[wasm_bindgen(unchecked_optional_param_type = "{ run?: number }")] options_value: Option<js_sys::Object>) -> Result<JsValue, JsError> {
        let opts = options(options_value.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
        let run = crate::import::agent_run(&self.trace, opts.run).ok_or_else(|| JsError::new(&format!("the trace has {} runs; there is no run {}", self.trace.runs.len(), opts.run)))?;
        Ok(super::to_js(&crate::agentrun::to_docent_json(&run)))
    }

    /// cl100k_base tokens of the run's whole AgentRun text (as docent-python's
    /// `get_token_count` counts it), for the same options without `tokenLimit`.
    #[wasm_bindgen(js_name = agentRunTokenCount)]
    pub fn agent_run_token_count(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AgentRunTextOptions")] options_value: Option<js_sys::Object>,
        #[wasm_bindgen(unchecked_param_type = "Cl100kTokenizer")] tokenizer: JsValue,
    ) -> Result<usize, JsError> {
        let mut opts = options(options_value.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
        opts.token_limit = None;
        let tok = JsTokenizer::from(&tokenizer)?.ok_or_else(|| JsError::new("agentRunTokenCount needs the cl100k_base tokenizer"))?;
        let text = agent_run_text(&self.trace, &opts, None).map_err(|e| JsError::new(&e.message))?.concat();
        Ok(tok.encode(&text).len())
    }
}
