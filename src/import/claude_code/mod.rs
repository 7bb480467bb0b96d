//! Claude Code session logs: `~/.claude/projects/<project>/<sessionId>.jsonl`,
//! one record per line, and the sub-agent files beside them
//! (`<sessionId>/subagents/agent-<id>.jsonl`, older `agent-<id>.jsonl`).
//!
//! Every record becomes one event ([`records`]); the records of one API
//! response (several `assistant` lines sharing `message.id`) show as one
//! assistant turn on the first record's event, the later records as events
//! pointing at it. The main conversation is run 0, each sub-agent a run of
//! its own. [`agentrun`] maps a run as Docent 0.1.88's
//! `load_claude_code_session` does. The mapping is documented in
//! docs/formats/claude-code.md.

mod agentrun;
mod branches;
mod blocks;
mod fast;
mod ids;
mod head;
mod keys;
mod look;
mod meta;
mod place;
mod records;
mod usage;
mod walk;

use serde_json::Value;

use super::{base_name, Builder, FileGroupKey, FileOrder, Format, Input, Sample, Score};
use crate::model::Trace;

pub struct ClaudeCode;

/// The record types Claude Code writes (others are read as generic events).
pub const RECORD_TYPES: &[&str] =
    &["user", "assistant", "system", "summary", "progress", "file-history-snapshot", "queue-operation", "custom-title", "attachment"];

/// The reader's tables of ids and uuids (a parse hashes every record's ids).
use crate::import::lookup::Lookup;

/// The record members whose first non-null value in a run is the run's metadata.
const RUN_KEYS: [look::K; 7] = [look::K::SessionId, look::K::Cwd, look::K::GitBranch, look::K::Version, look::K::Slug, look::K::Entrypoint, look::K::AgentId];

/// Fields only Claude Code records carry, one of which a record must have
/// besides its `type` to count as one.
const RECORD_KEYS: &[&str] = &["parentUuid", "sessionId", "leafUuid", "messageId", "isSidechain"];

impl Format for ClaudeCode {
    fn id(&self) -> &'static str {
        "claude-code"
    }

    fn name(&self) -> &'static str {
        "Claude Code session logs"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        detect(sample)
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        records::import(input, out);
    }

    /// The session file first, then its sub-agent files by name.
    fn file_order(&self, name: &str) -> FileOrder {
        let base = base_name(name);
        let group = if subagent_of(name).is_some() { 1 } else { 0 };
        FileOrder { group, index: 0, name: base.to_string() }
    }

    /// A session file `<sessionId>.jsonl` and its sub-agents
    /// (`<sessionId>/subagents/agent-<id>.jsonl` with their
    /// `agent-<id>.meta.json`, also flattened as
    /// `<sessionId>__subagents__agent-<id>.jsonl`) are one trace. An older
    /// `agent-<id>.jsonl` beside the session names no session in its path:
    /// it joins the session its first records name (`sessionId`, read from
    /// `head`), and stays alone without a readable head.
    fn file_group(&self, path: &str, head: Option<&[u8]>) -> Option<FileGroupKey> {
        let key = match subagent_of(path) {
            Some(key) if !key.ends_with('*') => key,
            Some(_) => {
                let prefix = older_agent_prefix(path).filter(|_| path.ends_with(".jsonl"))?;
                let session = head.and_then(head::session_id).filter(|id| looks_like_session_id(id))?;
                format!("{prefix}{session}")
            }
            None => {
                let stem = path.strip_suffix(".jsonl")?;
                if !looks_like_session_id(base_name(stem)) {
                    return None;
                }
                stem.to_string()
            }
        };
        let label = base_name(&key).rsplit("__").next().unwrap_or("session").to_string();
        Some(FileGroupKey { key, label, what: "session files" })
    }

    /// An older sub-agent's `agent-<id>.jsonl`: its session is in its records.
    fn file_group_reads_head(&self, path: &str) -> bool {
        path.ends_with(".jsonl") && subagent_of(path).is_some_and(|k| k.ends_with('*'))
    }

    fn agent_run(&self, trace: &Trace, run: usize) -> Option<crate::agentrun::DocRun> {
        agentrun::agent_run(trace, run)
    }
}

/// The session a sub-agent file (`agent-<id>.jsonl` or its
/// `agent-<id>.meta.json`) belongs to (its path up to the session id), or
/// `<folder>*` for an older `agent-<id>.jsonl` beside the session (its
/// path names none).
fn subagent_of(path: &str) -> Option<String> {
    if !path.ends_with(".jsonl") && meta_agent_id(path).is_none() {
        return None;
    }
    for sep in ["/subagents/agent-", "__subagents__agent-", "\\subagents\\agent-"] {
        if let Some(i) = path.rfind(sep) {
            if path.get(i + sep.len()..).is_some_and(|rest| !rest.contains(['/', '\\'])) {
                return path.get(..i).map(str::to_string);
            }
        }
    }
    older_agent_prefix(path).map(|dir| format!("{dir}*"))
}

/// The path of an older sub-agent file, `<folder>/agent-<id>.jsonl` (also
/// flattened, `<folder>__agent-<id>.jsonl`), up to `agent-`: where its
/// session file `<sessionId>.jsonl` would be, less the id.
fn older_agent_prefix(path: &str) -> Option<&str> {
    let base = base_name(path);
    let last = base.rsplit("__").next().unwrap_or(base);
    if !last.starts_with("agent-") {
        return None;
    }
    path.get(..path.len() - last.len())
}

/// The agent id of a sub-agent's metadata file, `agent-<id>.meta.json`
/// (flattened: `…__agent-<id>.meta.json`).
pub(super) fn meta_agent_id(path: &str) -> Option<&str> {
    let base = base_name(path);
    let base = base.rsplit("__").next().unwrap_or(base);
    base.strip_prefix("agent-")?.strip_suffix(".meta.json").filter(|id| !id.is_empty())
}

/// A sub-agent's metadata as Claude Code writes it beside the sub-agent
/// (`{"agentType": "Explore", "description": …, "toolUseId": …,
/// "spawnDepth": 1, …}`): an object with a string `agentType`, no record
/// `type`, and only plain values.
pub(super) fn is_agent_meta(o: &serde_json::Map<String, Value>) -> bool {
    o.get("agentType").is_some_and(Value::is_string) && !o.contains_key("type") && o.values().all(|v| !v.is_object() && !v.is_array())
}

/// A Claude Code session id: a UUID (8-4-4-4-12 hex digits), possibly after
/// a flattened path (`…__<uuid>`).
fn looks_like_session_id(stem: &str) -> bool {
    let id = stem.rsplit("__").next().unwrap_or(stem);
    let parts: Vec<&str> = id.split('-').collect();
    parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12]) && parts.iter().all(|p| p.bytes().all(|c| c.is_ascii_hexdigit()))
}

/// Counts sampled records that have a Claude Code `type` and one of its own fields.
fn detect(sample: &Sample) -> Option<Score> {
    let mut records = 0usize;
    let mut matched = 0usize;
    let mut unknown_type = 0usize;
    let mut types: Vec<&str> = Vec::new();
    let mut api_messages = 0usize;
    let mut metas = 0usize;
    for v in sample.records() {
        records += 1;
        let Some(o) = v.as_object() else { continue };
        if is_agent_meta(o) {
            metas += 1;
            continue;
        }
        let Some(t) = o.get("type").and_then(Value::as_str) else { continue };
        if !RECORD_KEYS.iter().any(|k| o.contains_key(*k)) {
            continue;
        }
        // Gemini CLI's `logs.json` has `sessionId`, `messageId` and `type:
        // "user"` too, with a string `message`; a Claude Code turn carries an
        // API message object.
        if matches!(t, "user" | "assistant") && !o.get("message").is_some_and(Value::is_object) {
            continue;
        }
        match RECORD_TYPES.iter().find(|k| **k == t) {
            Some(known) => {
                matched += 1;
                if !types.contains(known) {
                    types.push(known);
                }
            }
            None => unknown_type += 1,
        }
        if o.get("message").and_then(|m| m.get("role")).is_some() {
            api_messages += 1;
        }
    }
    if matched == 0 {
        // A sub-agent's `agent-<id>.meta.json` alone: read as what it is (the
        // import says the conversation is missing), but any format that
        // recognises more wins.
        return (metas == 1 && records == 1).then(|| Score {
            confidence: 0.5,
            evidence: vec!["the input is one object with a string `agentType` and no record `type`: a Claude Code sub-agent's metadata file (`agent-<id>.meta.json`), without its conversation".to_string()],
        });
    }
    let shown: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
    let mut evidence = vec![format!(
        "{matched} of {records} sampled records are Claude Code session records: `type` {} with `parentUuid`/`sessionId`/`isSidechain`/`messageId`/`leafUuid`",
        shown.join(", ")
    )];
    if api_messages > 0 {
        evidence.push(format!("{api_messages} carry an Anthropic API `message` with a `role`"));
    }
    if metas > 0 {
        evidence.push(format!("{metas} are sub-agent metadata (`agentType`, from an `agent-<id>.meta.json`)"));
    }
    if unknown_type > 0 {
        evidence.push(format!("{unknown_type} more have those fields with a record type new to this reader"));
    }
    let confidence = (matched + unknown_type + metas) as f32 / records.max(1) as f32;
    Some(Score { confidence, evidence })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str) -> Sample {
        let split = crate::json::split(text.as_bytes(), 0);
        Sample::new(text.as_bytes(), &split)
    }

    #[test]
    fn detects_sessions_not_look_alikes() {
        let claude = r#"{"type":"user","sessionId":"s","parentUuid":null,"uuid":"u","message":{"role":"user","content":"hi"}}
{"type":"file-history-snapshot","messageId":"u","snapshot":{}}
{"type":"brand-new","sessionId":"s","uuid":"v"}"#;
        let score = detect(&sample(claude)).expect("a session");
        assert!((score.confidence - 1.0).abs() < 1e-6, "{score:?}");
        assert!(score.evidence.iter().any(|e| e.contains("new to this reader")), "{score:?}");
        for other in [
            // Codex rollout, Gemini CLI logs.json and chat file, OpenAI messages.
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#,
            r#"[{"sessionId":"s","messageId":0,"type":"user","message":"hi","timestamp":"t"}]"#,
            r#"{"sessionId":"s","projectHash":"h","startTime":"t","messages":[{"id":"m","type":"user","content":"hi"}]}"#,
            r#"{"role":"user","content":"hi"}"#,
        ] {
            assert!(detect(&sample(other)).is_none(), "{other}");
        }
    }

    #[test]
    fn session_and_subagent_files_group_main_first() {
        let f = ClaudeCode;
        let s = "p/4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
        let a = "p/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl";
        let flat = "x__4d5611e5-241a-462a-8d15-5122611a9569__subagents__agent-acompact-e1f845.jsonl";
        let flat_session = "x__4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
        let key = |p: &str| f.file_group(p, None).map(|k| k.key);
        assert_eq!(key(s), key(a));
        assert_eq!(key(flat), key(flat_session));
        assert!(f.file_order(s) < f.file_order(a));
        assert!(f.file_order("z/agent-1.jsonl") > f.file_order("z/b.jsonl"));
        assert_eq!(key("notes.jsonl"), None);
        assert_eq!(key("p/agent-1.jsonl"), None);
        // Paths that name their group never need a head.
        for p in [s, a, flat, flat_session, "notes.jsonl", "p/agent-1.meta.json"] {
            assert!(!f.file_group_reads_head(p), "{p}");
        }
    }

    #[test]
    fn an_older_agent_file_joins_the_session_its_head_names() {
        let f = ClaudeCode;
        let sid = "4d5611e5-241a-462a-8d15-5122611a9569";
        let head = format!(r#"{{"parentUuid":null,"isSidechain":true,"sessionId":"{sid}","agentId":"a1","type":"user","message":{{"#);
        let key = |p: &str, h: &str| f.file_group(p, Some(h.as_bytes())).map(|k| k.key);
        for (agent, session) in [("p/agent-a1.jsonl", format!("p/{sid}.jsonl")), ("x__agent-a1.jsonl", format!("x__{sid}.jsonl")), ("agent-a1.jsonl", format!("{sid}.jsonl"))] {
            assert!(f.file_group_reads_head(agent), "{agent}");
            assert_eq!(key(agent, &head), key(&session, ""), "{agent}");
            assert!(key(agent, &head).is_some());
            assert!(f.file_order(&session) < f.file_order(agent));
        }
        // The same session in another folder is another trace.
        assert_ne!(key("q/agent-a1.jsonl", &head), key(&format!("p/{sid}.jsonl"), ""));
        // A head that names no session id (or not one that could be a file's) leaves the path rule: alone.
        for bad in ["garbage", r#"{"sessionId":"../other"}"#, r#"{"sessionId":null}"#, ""] {
            assert_eq!(key("p/agent-a1.jsonl", bad), None, "{bad}");
        }
        assert_eq!(key("p/agent-a1.meta.json", &head), None);
        assert!(!f.file_group_reads_head("p/agent-a1.jsonl.gz"));
    }
}
