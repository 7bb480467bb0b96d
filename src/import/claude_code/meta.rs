//! A sub-agent's `agent-<id>.meta.json`: what Claude Code knows of the
//! sub-agent besides its conversation (`{"agentType": "Explore",
//! "description": …, "toolUseId": …, "spawnDepth": 1, "name": …, "model": …}`
//! in the versions seen; any other field is kept too).
//!
//! Read with its `agent-<id>.jsonl` (a folder, several files), the file is
//! one event of that sub-agent's run (a key-value `agent-meta` holding the
//! whole object) and its fields are the run's metadata; the run is named
//! by it, and `toolUseId` links the run to its call when the session says
//! nothing else. Without the agent's conversation (the meta file alone, or
//! its `.jsonl` not among the files) the run holds that one event and a
//! `subagent-meta-only` warning says what is missing.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::diagnostic::Severity;
use crate::import::Builder;
use crate::model::{EventBody, KeyValue, Metadata};

/// The event kind of a metadata file's object.
pub const KIND: &str = "agent-meta";

/// A metadata file's value, placed in its sub-agent's run.
pub struct MetaRecord {
    pub range: Range<usize>,
    pub path: String,
    /// Its file's name (`None` for an input read alone).
    pub file: Option<String>,
}

/// What the metadata files of one run said.
#[derive(Default)]
pub struct RunMeta {
    pub fields: Map<String, Value>,
}

impl RunMeta {
    /// The run's name: the sub-agent's `name`, else `<agentType>: <description>`
    /// (either alone when the other is missing), as Claude Code labels it.
    pub fn name(&self) -> Option<String> {
        let s = |k: &str| self.fields.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
        if let Some(name) = s("name") {
            return Some(name.to_string());
        }
        match (s("agentType"), s("description")) {
            (Some(t), Some(d)) => Some(format!("{t}: {d}")),
            (Some(x), None) | (None, Some(x)) => Some(x.to_string()),
            (None, None) => None,
        }
    }

    /// The call that started the sub-agent, as the metadata names it.
    pub fn tool_use_id(&self) -> Option<&str> {
        self.fields.get("toolUseId").and_then(Value::as_str)
    }

    /// Adds the fields to the run's metadata; a key the records already set
    /// (`sessionId`, `cwd`, … of the conversation) keeps the records' value,
    /// the metadata file's stays in its event.
    pub fn merge_into(&self, metadata: &mut Metadata) {
        for (k, v) in &self.fields {
            if !metadata.contains_key(k) {
                metadata.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Reads one metadata file's value into an event of the current run; a value
/// that is not an object is handed back to be read as a record.
pub fn read(out: &mut Builder, rec: &MetaRecord, meta: &mut RunMeta) -> Option<Value> {
    let Ok(v) = out.parse_record(&rec.range, &rec.path) else { return None };
    let Value::Object(o) = v else { return Some(v) };
    for (k, x) in &o {
        meta.fields.insert(k.clone(), x.clone());
    }
    let ev = out.push_event(EventBody::KeyValue(KeyValue { key: KIND.to_string(), value: Value::Object(o).into() }), KIND, rec.range.clone(), rec.path.clone(), None);
    if let (Some(file), Some(e)) = (&rec.file, out.event_mut(ev)) {
        e.metadata.insert("file".to_string(), Value::from(file.clone()));
    }
    None
}

/// Says that a run has its metadata file but not its conversation.
pub fn warn_alone(out: &mut Builder, rec: &MetaRecord, meta: &RunMeta, event: u32) {
    let kind = meta.fields.get("agentType").and_then(Value::as_str).map(|t| format!(" (agentType `{t}`)")).unwrap_or_default();
    let message = match &rec.file {
        Some(file) => {
            let name = crate::import::base_name(file);
            let conversation = name.strip_suffix(".meta.json").map(|s| format!("{s}.jsonl")).unwrap_or_else(|| "agent-<id>.jsonl".to_string());
            format!("`{name}` is a Claude Code sub-agent's metadata{kind}; its conversation, `{conversation}`, is not among the files read, so the run holds only the metadata")
        }
        None => format!(
            "this is a Claude Code sub-agent's metadata file (`agent-<id>.meta.json`){kind}, not a session: the sub-agent's conversation is the `agent-<id>.jsonl` beside it; open both (or the session's folder) together"
        ),
    };
    out.diag(Severity::Warning, "subagent-meta-only", message, rec.path.clone(), rec.range.start, Some(event));
}
