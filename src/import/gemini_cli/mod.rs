//! Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`,
//! a sub-agent's under `chats/<parent session id>/<id>.jsonl`; older
//! versions wrote one JSON document, `session-….json`).
//!
//! The types and rules are those of `@google/gemini-cli-core` 0.61.0
//! (`services/chatRecordingTypes.d.ts`, `services/chatRecordingService.js`):
//! a metadata line `{sessionId, projectHash, startTime, lastUpdated, kind?}`,
//! then message records `{id, timestamp, type: user|gemini|info|error|warning,
//! content, …}` (a `gemini` message with `toolCalls`, `thoughts`, `tokens`,
//! `model`), `{"$set": {...}}` metadata updates (with `messages`: a history
//! checkpoint that replaces the conversation) and `{"$rewindTo": id}`, which
//! removes that message and every later one. A record whose `id` repeats
//! replaces the earlier one in its place (the recorder appends a message
//! again when its tokens or tool calls arrive). [`plan`] replays the
//! loader's rules; [`emit`] writes events. docs/formats/gemini-cli.md has
//! the whole mapping.

mod content;
mod emit;
mod fast;
mod plan;
mod slots;

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{base_name, Builder, FileGroupKey, FileOrder, Format, Input, Sample, Score};
use crate::model::CallRef;
use crate::diagnostic::Severity::Warning;
use crate::model::Metadata;
use emit::MESSAGE_TYPES;

pub struct GeminiCli;

impl Format for GeminiCli {
    fn id(&self) -> &'static str {
        "gemini-cli"
    }

    fn name(&self) -> &'static str {
        "Gemini CLI sessions"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        detect(sample)
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        // Sub-agent calls seen so far: `agentId` → (call, parent session).
        let mut agents: HashMap<String, (CallRef, String)> = HashMap::new();
        // The objects that may repeat a key, sorted, when the split found them all.
        let repeats = input.split.errors.is_empty().then(|| {
            let mut r = input.split.repeats.clone();
            r.sort_unstable();
            r
        });
        // Each file's lines count from its own start: with several, no line is taken from the split.
        let tops = if input.files.len() <= 1 { input.split.values.as_slice() } else { &[] };
        for plan in plan::plan(input, out) {
            let meta = plan.metadata.clone();
            let session = meta.get("sessionId").and_then(Value::as_str).map(str::to_string);
            let loadable = session.is_some() && (plan.document || meta.get("projectHash").is_some_and(Value::is_string));
            let id = session.clone().unwrap_or_else(|| format!("session-{}", out.runs().len()));
            let mut run_meta: Metadata = meta.clone();
            let parent = session.as_ref().and_then(|s| agents.get(s)).cloned();
            if let Some((call, parent_session)) = &parent {
                run_meta.insert("parent_session_id".to_string(), Value::String(parent_session.clone()));
                if let Some(c) = out.call(*call).and_then(|c| c.id.clone()) {
                    run_meta.insert("parent_tool_call_id".to_string(), Value::String(c));
                }
            }
            let first = plan.start();
            out.begin_run(id.clone(), run_meta, first);
            if let Some(r) = out.last_run_mut() {
                let sub = meta.get("kind").and_then(Value::as_str) == Some("subagent");
                r.name = Some(if sub { "Gemini CLI sub-agent" } else { "Gemini CLI session" }.to_string());
                r.description = meta.get("summary").and_then(Value::as_str).map(str::to_string);
                r.started_by = parent.as_ref().map(|(call, _)| *call);
            }
            if !loadable {
                let why = "no metadata record with a string `sessionId` and `projectHash`: Gemini CLI does not load this session (its messages are read all the same)";
                out.diag(Warning, "metadata-missing", why.to_string(), "$".to_string(), first.unwrap_or(0), None);
            }
            for (agent, call) in emit::Emitter::new(out, plan, (&input.split.ends, repeats.as_deref()), tops).run() {
                agents.entry(agent).or_insert((call, id.clone()));
            }
        }
    }

    /// Main sessions (`session-….jsonl`) before sub-agent sessions, so that a
    /// parent's run comes before its sub-agents' and links to them.
    fn file_order(&self, name: &str) -> FileOrder {
        let base = base_name(name);
        let group = if base.starts_with("session-") { 0 } else { 1 };
        FileOrder { group, index: 0, name: base.to_string() }
    }

    /// A session `chats/session-<time>-<first 8 of its id>.jsonl` and its
    /// sub-agents' `chats/<its id>/<sub-agent id>.jsonl` are one trace.
    fn file_group(&self, path: &str, _head: Option<&[u8]>) -> Option<FileGroupKey> {
        let base = base_name(path);
        let dir = path.get(..path.len() - base.len()).unwrap_or("");
        let key = if let Some(stem) = base.strip_prefix("session-").and_then(|s| s.strip_suffix(".jsonl").or_else(|| s.strip_suffix(".json"))) {
            let short = stem.rsplit('-').next().filter(|s| s.len() == 8 && s.bytes().all(|c| c.is_ascii_hexdigit()))?;
            format!("{dir}{short}")
        } else {
            let stem = base.strip_suffix(".jsonl")?;
            let parent_dir = dir.strip_suffix(['/', '\\'])?;
            let parent = base_name(parent_dir);
            if !(looks_like_uuid(stem) && looks_like_uuid(parent)) {
                return None;
            }
            format!("{}{}", parent_dir.get(..parent_dir.len() - parent.len()).unwrap_or(""), parent.get(..8)?)
        };
        Some(FileGroupKey { label: format!("session {}", base_name(&key)), key, what: "session files" })
    }
}

/// 8-4-4-4-12 hex digits.
fn looks_like_uuid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12]) && parts.iter().all(|p| p.bytes().all(|c| c.is_ascii_hexdigit()))
}

fn is_message(o: &Map<String, Value>) -> bool {
    o.get("id").is_some_and(Value::is_string)
        && o.get("type").and_then(Value::as_str).is_some_and(|t| MESSAGE_TYPES.contains(&t))
        && o.get("timestamp").is_some_and(Value::is_string)
        && o.contains_key("content")
}

fn is_metadata(o: &Map<String, Value>) -> bool {
    o.get("sessionId").is_some_and(Value::is_string) && o.get("projectHash").is_some_and(Value::is_string)
}

/// Counts sampled records that are Gemini CLI session records.
fn detect(sample: &Sample) -> Option<Score> {
    let (mut records, mut metas, mut messages, mut updates, mut documents) = (0usize, 0usize, 0usize, 0usize, 0usize);
    for v in sample.records() {
        records += 1;
        let Some(o) = v.as_object() else { continue };
        if is_metadata(o) {
            let listed = o.get("messages").and_then(Value::as_array);
            match listed {
                Some(list) if list.iter().filter_map(Value::as_object).any(is_message) || list.is_empty() => documents += 1,
                Some(_) => {}
                None => metas += 1,
            }
        } else if is_message(o) {
            messages += 1;
        } else if o.get("$set").is_some_and(Value::is_object) || o.get("$rewindTo").is_some_and(Value::is_string) {
            updates += 1;
        }
    }
    let matched = metas + messages + updates + documents;
    // A file of bare messages (no metadata line, no update) is not enough:
    // the metadata line or a whole session document says it is a session.
    if metas + documents == 0 && updates == 0 {
        return None;
    }
    let mut evidence = Vec::new();
    if documents > 0 {
        evidence.push(format!("{documents} of {records} sampled records is a whole session (`sessionId`, `projectHash` and `messages` of `{{id, timestamp, type, content}}`)"));
    }
    if metas > 0 {
        evidence.push(format!("{metas} of {records} sampled records is a session metadata line (string `sessionId` and `projectHash`)"));
    }
    if messages > 0 {
        evidence.push(format!("{messages} are message records `{{id, timestamp, type, content}}` with `type` one of {}", MESSAGE_TYPES.join(", ")));
    }
    if updates > 0 {
        evidence.push(format!("{updates} are `$set` / `$rewindTo` update records"));
    }
    Some(Score { confidence: matched as f32 / records.max(1) as f32, evidence })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str) -> Sample {
        let split = crate::json::split(text.as_bytes(), 0);
        Sample::new(text.as_bytes(), &split)
    }

    #[test]
    fn detects_both_forms_not_look_alikes() {
        let jsonl = r#"{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t"}
{"id":"m","timestamp":"t","type":"user","content":[{"text":"hi"}]}
{"$set":{"lastUpdated":"t"}}
{"$rewindTo":"m"}"#;
        let s = detect(&sample(jsonl)).expect("a session");
        assert!((s.confidence - 1.0).abs() < 1e-6, "{s:?}");
        let doc = r#"{"sessionId":"s","projectHash":"h","startTime":"t","messages":[{"id":"m","timestamp":"t","type":"gemini","content":"x"}]}"#;
        assert!(detect(&sample(doc)).is_some_and(|s| s.evidence[0].contains("whole session")));
        for other in [
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#,
            r#"{"type":"user","sessionId":"s","parentUuid":null,"uuid":"u","message":{"role":"user","content":"hi"}}"#,
            r#"[{"sessionId":"s","messageId":0,"type":"user","message":"hi","timestamp":"t"}]"#,
            r#"{"role":"user","content":"hi"}"#,
            r#"{"id":"m","timestamp":"t","type":"user","content":"hi"}"#,
        ] {
            assert!(detect(&sample(other)).is_none(), "{other}");
        }
    }

    #[test]
    fn a_session_and_its_sub_agents_group_main_first() {
        let f = GeminiCli;
        let main = "/h/.gemini/tmp/p/chats/session-2026-03-01T10-00-c3d4e5f6.jsonl";
        let sub = "/h/.gemini/tmp/p/chats/c3d4e5f6-0000-4000-8000-00000000f003/d4e5f6a7-0000-4000-8000-00000000f004.jsonl";
        let other = "/h/.gemini/tmp/p/chats/d4e5f6a7-0000-4000-8000-00000000f009/d4e5f6a7-0000-4000-8000-00000000f004.jsonl";
        assert_eq!(f.file_group(main, None).map(|k| k.key), f.file_group(sub, None).map(|k| k.key));
        assert_ne!(f.file_group(main, None).map(|k| k.key), f.file_group(other, None).map(|k| k.key));
        assert!(f.file_order(main) < f.file_order(sub));
        for alone in ["notes.jsonl", "p/4d5611e5-241a-462a-8d15-5122611a9569.jsonl", "p/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a1.jsonl", "session-x.jsonl"] {
            assert_eq!(f.file_group(alone, None), None, "{alone}");
        }
    }
}
