//! AgentRun text: a run rendered byte for byte as Docent renders it for LLMs.
//!
//! Two styles (docs/agentrun-text.md):
//! - [`Style::Legacy`]: docent-python 0.1.0a1–0.1.3a0's `AgentRun.to_text`
//!   (`<transcript KEY>`, `<T0B1 | role: user>`, run metadata as YAML), split
//!   into chunks under a token limit as that library splits it;
//! - [`Style::Current`]: docent 0.1.88's `AgentRunView.to_text()`
//!   (`<|agent run R0|>`, metadata as JSON shown per [`ContextConfig`]).
//!
//! Every format renders: [`crate::import::agent_run`] reads a run as a Docent AgentRun.
//! Token counts need a [`Tokenizer`] (cl100k_base, GPT-4's encoding), which
//! lives outside the core so the main wasm module stays small.

pub mod context;
pub mod current;
pub mod diff;
pub mod dollars;
pub mod legacy;
pub mod pattern;
pub mod pyjson;
mod size;
pub mod yaml;

pub use context::ContextConfig;

use crate::model::Trace;

/// The BPE tokenizer Docent counts with: tiktoken's `cl100k_base`, without
/// special tokens (text is encoded as ordinary text).
pub trait Tokenizer {
    fn encode(&self, text: &str) -> Vec<u32>;
    /// The tokens' bytes as UTF-8, invalid sequences replaced by U+FFFD
    /// (tiktoken's `decode(errors="replace")`).
    fn decode(&self, tokens: &[u32]) -> String;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Legacy,
    Current,
}

impl Style {
    pub fn parse(s: &str) -> Option<Style> {
        match s {
            "legacy" => Some(Style::Legacy),
            "current" => Some(Style::Current),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct TextOptions {
    pub style: Style,
    /// Legacy only: split into strings of at most about this many tokens.
    pub token_limit: Option<i64>,
    /// Current only: which metadata and transcripts to show.
    pub context: ContextConfig,
    /// Which run of the trace.
    pub run: usize,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions { style: Style::Current, token_limit: None, context: ContextConfig::default(), run: 0 }
    }
}

/// Why a text cannot be produced (Docent itself would fail, or bad options).
#[derive(Debug, Clone, PartialEq)]
pub struct RenderError {
    pub message: String,
}

impl RenderError {
    pub fn new(message: impl Into<String>) -> Self {
        RenderError { message: message.into() }
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RenderError {}

/// The run's text: one string, or the legacy chunks when a token limit is set.
pub fn agent_run_text(trace: &Trace, options: &TextOptions, tokenizer: Option<&dyn Tokenizer>) -> Result<Vec<String>, RenderError> {
    // The current text's buffer is taken before the mapping (`size` says why).
    let buffer = (options.style == Style::Current && options.token_limit.is_none()).then(|| String::with_capacity(size::of_trace_run(trace, options.run)));
    let run = crate::import::agent_run(trace, options.run).ok_or_else(|| RenderError::new(format!("the trace has {} runs; there is no run {}", trace.runs.len(), options.run)))?;
    match buffer {
        Some(out) => Ok(vec![current::render_into(&run, &options.context, out)?]),
        None => render_run(&run, options, tokenizer),
    }
}

/// Renders an already mapped run.
pub fn render_run(run: &crate::agentrun::DocRun, options: &TextOptions, tokenizer: Option<&dyn Tokenizer>) -> Result<Vec<String>, RenderError> {
    match options.style {
        Style::Legacy => {
            if options.token_limit.is_some() && tokenizer.is_none() {
                return Err(RenderError::new("a token limit needs the cl100k_base tokenizer"));
            }
            legacy::render(run, options.token_limit, tokenizer)
        }
        Style::Current => {
            if options.token_limit.is_some() {
                return Err(RenderError::new("docent 0.1.88 does not split the current text by tokens; a token limit applies to the legacy style"));
            }
            Ok(vec![current::render(run, &options.context)?])
        }
    }
}
