//! A run as a Docent AgentRun: the document both AgentRun text renderers
//! ([`crate::render`]) read, `convert --to agentrun-json` writes, and a format
//! produces when its reference defines the mapping ([`crate::import::Format::agent_run`]).
//! Every other format goes through [`from_model`], which maps the shared
//! model's events onto Docent messages (docs/agentrun-text.md).

mod from_model;
mod json;
pub mod py;
mod py_json;
mod py_printable;

pub use from_model::{args_from_text, args_from_value, from_model, from_model_keeping};
pub use json::to_docent_json;

use py::Py;

use crate::text::Text;

#[derive(Debug, Clone)]
pub struct DocRun {
    pub id: String,
    pub name: Option<String>,
    pub description: Option<String>,
    /// The run's `metadata` as the JSON holds it.
    pub metadata: Vec<(String, Py)>,
    pub transcripts: Vec<DocTranscript>,
    pub groups: Vec<DocGroup>,
}

impl DocRun {
    /// A run with one transcript, `default`, as Docent's loaders build it
    /// (`load_claude_code_session`, `load_inspect`).
    pub fn with_one_transcript(id: String, metadata: Vec<(String, Py)>, messages: Vec<DocMessage>) -> DocRun {
        let transcript = DocTranscript { key: "default".to_string(), id: "default".to_string(), name: None, group_id: None, created_at: None, metadata: Vec::new(), messages };
        DocRun { id, name: None, description: None, metadata, transcripts: vec![transcript], groups: Vec::new() }
    }
}

#[derive(Debug, Clone)]
pub struct DocTranscript {
    /// The older generation's dict key (`<transcript KEY>`); the id otherwise.
    pub key: String,
    pub id: String,
    pub name: Option<String>,
    pub group_id: Option<String>,
    pub created_at: Option<Py>,
    pub metadata: Vec<(String, Py)>,
    pub messages: Vec<DocMessage>,
}

#[derive(Debug, Clone)]
pub struct DocGroup {
    pub id: String,
    pub name: Option<String>,
    pub parent_id: Option<String>,
    pub created_at: Option<Py>,
    pub metadata: Vec<(String, Py)>,
}

#[derive(Debug, Clone)]
pub struct DocMessage {
    /// One of `system`, `user`, `assistant`, `tool`.
    pub role: &'static str,
    pub content: DocContent,
    pub tool_calls: Vec<DocToolCall>,
    pub metadata: Option<Py>,
    /// Fields Docent keeps but never renders (`tool_call_id`, `function`, `error`), for the JSON export.
    pub fields: Vec<(String, Py)>,
}

#[derive(Debug, Clone)]
pub enum DocContent {
    /// The model's text, still in the source when it was there: the renderer
    /// decodes it straight into its output, so mapping a 100 MB run copies no text.
    Text(Text),
    Parts(Vec<DocPart>),
}

#[derive(Debug, Clone)]
pub enum DocPart {
    Text(String),
    Reasoning { reasoning: String, summary: Option<String>, redacted: bool },
    /// A part Docent has no content type for (images, …): not rendered.
    Other,
}

#[derive(Debug, Clone)]
pub struct DocToolCall {
    pub id: Option<String>,
    pub function: String,
    pub arguments: DocArgs,
    /// `view.content`, rendered instead of the arguments.
    pub view: Option<String>,
}

/// Keyword arguments in order. Docent requires an object; anything else is
/// kept as the one argument `arguments` (so `f(arguments=…)`), in the text and
/// in the JSON export alike.
pub type DocArgs = Vec<(String, Py)>;

impl DocMessage {
    /// `message.text`: the string content, or the text parts joined by newlines.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.push_text(&mut out);
        out
    }

    /// Appends [`DocMessage::text`] to `out`: the renderers write one buffer.
    pub fn push_text(&self, out: &mut String) {
        match &self.content {
            DocContent::Text(t) => t.push_to(out),
            DocContent::Parts(parts) => {
                let mut first = true;
                for p in parts {
                    if let DocPart::Text(t) = p {
                        if !first {
                            out.push('\n');
                        }
                        out.push_str(t);
                        first = false;
                    }
                }
            }
        }
    }
}

/// Docent's roles; other roles of other formats map onto them.
pub fn docent_role(role: &str) -> &'static str {
    match role {
        "system" | "developer" => "system",
        "assistant" | "ai" | "model" | "bot" => "assistant",
        "tool" | "function" | "ipython" | "tool_result" => "tool",
        _ => "user",
    }
}

