//! Claude Code session logs against the goldens of their references
//! (scripts/oracle/claude-code/goldens.py → tests/golden/claude-code/):
//! Docent 0.1.88's `load_claude_code_session` + `AgentRunView.to_text()`, and
//! ccusage 18.0.11's token totals.

mod common;

use std::path::PathBuf;

use agent_trace_viewer::analysis::usage::{totals, UsageTotals};
use agent_trace_viewer::model::{Content, ContentPart, EventBody, ToolStatus, Trace, Usage};
use agent_trace_viewer::render::{agent_run_text, TextOptions};
use agent_trace_viewer::{parse_files, ParseOptions};
use serde_json::Value;

const CASES: &[&str] = &["session", "older", "cost", "corpus-big", "corpus-short", "corpus-subagent", "corpus-tool-heavy"];
const S: &str = "11111111-2222-4333-8444-555555555555";

fn golden(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/claude-code").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

fn manifest(case: &str) -> Value {
    serde_json::from_str(&golden(&format!("{case}.json"))).unwrap()
}

fn resolve(p: &str) -> PathBuf {
    let (root, rest) = p.split_once('/').unwrap();
    match root {
        "fixtures" => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude-code").join(rest),
        _ => common::corpus_dir().join("claude-code").join(rest),
    }
}

/// The files of a case as `parseFiles` gets them (name, bytes).
fn files_of(case: &Value) -> Vec<(String, Vec<u8>)> {
    case["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).map(|p| (p.to_string(), std::fs::read(resolve(p)).unwrap())).collect()
}

fn text(trace: &Trace, run: usize) -> String {
    let chunks = agent_run_text(trace, &TextOptions { run, ..TextOptions::default() }, None).unwrap();
    assert_eq!(chunks.len(), 1);
    chunks.into_iter().next().unwrap()
}

fn first_difference(want: &str, got: &str) -> String {
    let at = want.bytes().zip(got.bytes()).take_while(|(a, b)| a == b).count();
    format!("first difference at byte {at} (lengths {} / {}): want {:?} got {:?}", want.len(), got.len(), want.get(at..(at + 80).min(want.len())), got.get(at..(at + 80).min(got.len())))
}

/// The run a file of a case is: run 0 for the session, `agent-<id>` for a sub-agent.
fn run_of(trace: &Trace, path: &str, kind: &str) -> usize {
    if kind == "main" {
        return 0;
    }
    let base = path.rsplit(['/']).next().unwrap();
    let agent = base.rsplit("agent-").next().unwrap().trim_end_matches(".jsonl");
    trace.runs.iter().position(|r| r.id == format!("agent-{agent}")).unwrap_or_else(|| panic!("no run for {path}"))
}

#[test]
fn agent_run_text_matches_docent_0_1_88_together_and_alone() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in CASES {
        let m = manifest(case);
        let files = files_of(&m);
        let together = parse_files(files.clone(), &ParseOptions::default()).unwrap();
        assert_eq!(together.format, "claude-code", "{case}");
        for (n, f) in m["files"].as_array().unwrap().iter().enumerate() {
            let (path, kind) = (f["path"].as_str().unwrap(), f["kind"].as_str().unwrap());
            let want = golden(f["text"].as_str().unwrap());
            let got = text(&together, run_of(&together, path, kind));
            if got != want {
                failures.push(format!("{case} file {n} (together): {}", first_difference(&want, &got)));
            }
            let alone = common::parse(&files[n].1);
            let got = text(&alone, 0);
            if got != want {
                failures.push(format!("{case} file {n} (alone): {}", first_difference(&want, &got)));
            }
            checked += 2;
        }
    }
    assert!(failures.is_empty(), "{} of {checked} texts differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 18);
}

fn ccusage_of(u: &UsageTotals) -> Value {
    let t = |u: &Usage| serde_json::json!({"input": u.input_tokens, "output": u.output_tokens, "cacheCreation": u.cache_creation_input_tokens, "cacheRead": u.cache_read_input_tokens});
    let mut total = t(&u.total);
    total["total"] = u.total.total_tokens.into();
    let by_model: serde_json::Map<String, Value> = u.by_model.iter().map(|(k, v)| (k.clone(), t(v))).collect();
    serde_json::json!({"total": total, "byModel": by_model})
}

#[test]
fn token_totals_match_ccusage_18_0_11_per_file_and_combined() {
    for case in CASES {
        let m = manifest(case);
        let trace = parse_files(files_of(&m), &ParseOptions::default()).unwrap();
        assert_eq!(ccusage_of(&totals(&trace, None)), m["ccusage_combined"], "{case}: combined");
        for (n, f) in m["files"].as_array().unwrap().iter().enumerate() {
            // The events of one file (a session file holds its sidechain runs too).
            let range = trace.files[n].range.clone();
            let mut u = UsageTotals::default();
            trace.events.iter().filter(|e| range.contains(&e.raw.start)).for_each(|e| u.add_event(e));
            assert_eq!(ccusage_of(&u), f["ccusage"], "{case} file {n}");
        }
    }
}

/// Cost per model as ccusage's `--mode display` lists it: a model whose
/// counted records carry no `costUSD` is 0 there, and has no cost here.
fn cost_of(u: &UsageTotals, models: &serde_json::Map<String, Value>) -> (i64, Vec<(String, i64)>) {
    let c = u.cost.clone().unwrap_or_default();
    let by_model = models.keys().map(|m| (m.clone(), c.by_model.get(m).map_or(0, |c| common::picodollars(c.total)))).collect();
    (common::picodollars(c.total.total), by_model)
}

#[test]
fn cost_matches_ccusage_display_mode_per_file_and_combined() {
    let want = |v: &Value| (common::picodollars(v["total"].as_f64().unwrap()), v["byModel"].as_object().unwrap().iter().map(|(m, c)| (m.clone(), common::picodollars(c.as_f64().unwrap()))).collect::<Vec<_>>());
    let mut priced = 0;
    for case in CASES {
        let m = manifest(case);
        let trace = parse_files(files_of(&m), &ParseOptions::default()).unwrap();
        let combined = &m["ccusage_cost_combined"];
        let u = totals(&trace, None);
        assert_eq!(cost_of(&u, combined["byModel"].as_object().unwrap()), want(combined), "{case}: combined");
        assert_eq!(u.cost.is_some(), want(combined).0 != 0, "{case}: no costUSD is no cost, not 0");
        priced += usize::from(u.cost.is_some());
        for (n, f) in m["files"].as_array().unwrap().iter().enumerate() {
            let range = trace.files[n].range.clone();
            let mut u = UsageTotals::default();
            trace.events.iter().filter(|e| range.contains(&e.raw.start)).for_each(|e| u.add_event(e));
            assert_eq!(cost_of(&u, f["ccusage_cost"]["byModel"].as_object().unwrap()), want(&f["ccusage_cost"]), "{case} file {n}");
        }
    }
    assert!(priced >= 1, "a case reports a cost");
    // The split records of msg_c1 repeat costUSD: counted once, as the usage.
    let t = parse_files(files_of(&manifest("cost")), &ParseOptions::default()).unwrap();
    assert_eq!(t.events.iter().filter(|e| e.facts().cost.is_some()).count(), 3, "msg_c1 once, msg_c2's two records (no requestId)");
}

fn session() -> Trace {
    let m = manifest("session");
    parse_files(files_of(&m), &ParseOptions::default()).unwrap()
}

#[test]
fn one_api_response_is_one_assistant_turn_and_every_record_an_event() {
    let t = session();
    let lines = std::fs::read_to_string(resolve(&format!("fixtures/session/{S}.jsonl"))).unwrap().lines().count()
        + std::fs::read_to_string(resolve(&format!("fixtures/session/{S}/subagents/agent-b1f2c3d.jsonl"))).unwrap().lines().count();
    assert_eq!(t.events.len(), lines, "one event per record");
    // msg_01 is five records: thinking, redacted_thinking, text, two tool_use.
    let turn = t.events.iter().position(|e| e.metadata.get("uuid").and_then(Value::as_str) == Some("a1")).unwrap();
    let EventBody::Message(m) = &t.events[turn].body else { panic!("a1 is a message") };
    assert_eq!(m.role, "assistant");
    let Content::Parts(parts) = &m.content else { panic!("parts") };
    assert!(matches!(parts.as_slice(), [ContentPart::Reasoning(_), ContentPart::Other(_), ContentPart::Text(_)]), "{parts:?}");
    assert_eq!(m.tool_calls.iter().map(|c| c.function.as_str()).collect::<Vec<_>>(), ["Read", "Bash"]);
    for (k, uuid) in ["a2", "a3", "a4", "a5"].iter().enumerate() {
        let e = &t.events[turn + 1 + k];
        assert_eq!(e.metadata.get("uuid").and_then(Value::as_str), Some(*uuid));
        assert_eq!(e.body.kind(), "marker", "{uuid} continues the turn");
        assert_eq!(e.metadata["continues_event"], turn);
        assert!(e.facts().usage.is_none(), "{uuid}: usage counted once per message.id + requestId");
    }
    assert_eq!(t.events[turn].facts().usage.map(|u| u.output_tokens), Some(50));
    // msg_07 has no requestId: each of its records counts, as in ccusage.
    let no_request: Vec<_> = t.events.iter().filter(|e| e.metadata.get("message").and_then(|m| m.get("id")).and_then(Value::as_str) == Some("msg_07")).collect();
    assert_eq!(no_request.iter().filter(|e| e.facts().usage.is_some()).count(), 2);
    assert_eq!(t.runs[0].name.as_deref(), Some("Fix the unicode parser bug"));
}

#[test]
fn tool_results_link_to_their_calls_and_errors_fail() {
    let t = session();
    assert_eq!(t.tool_call_count(), 6);
    assert_eq!(t.linked_result_count(), 6);
    let failed: Vec<_> = t.events.iter().filter(|e| matches!(&e.body, EventBody::ToolResult(r) if r.status == ToolStatus::Error)).collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0].failed);
    let EventBody::ToolResult(r) = &failed[0].body else { unreachable!() };
    assert_eq!(t.call(r.call.unwrap()).unwrap().function, "Bash");
    assert!(t.diagnostics.iter().all(|d| d.code != "unanswered-tool-call" && d.code != "orphan-tool-result"), "{:?}", common::codes(&t));
}

#[test]
fn unknown_and_non_turn_records_are_kept_as_events() {
    let t = session();
    let kinds = |k: &str| t.events.iter().filter(|e| e.source_kind == k).count();
    for k in ["summary", "progress", "file-history-snapshot", "queue-operation", "custom-title", "attachment", "system", "mystery-record"] {
        assert!(kinds(k) >= 1, "{k}");
    }
    let mystery = t.events.iter().find(|e| e.source_kind == "mystery-record").unwrap();
    let EventBody::KeyValue(kv) = &mystery.body else { panic!() };
    assert_eq!(kv.value.get()["payload"]["kind"], "from a future version");
    let compaction = t.events.iter().find(|e| matches!(&e.body, EventBody::Marker(m) if m.label.starts_with("compaction boundary"))).unwrap();
    assert_eq!(compaction.source_kind, "system");
}

#[test]
fn a_subagent_is_its_own_run_linked_both_ways_with_its_task_call() {
    let t = session();
    assert_eq!(t.runs[0].id, S, "the main conversation is run 0");
    let (i, run) = t.runs.iter().enumerate().find(|(_, r)| r.id == "agent-b1f2c3d").unwrap();
    assert_eq!(run.metadata["parent_tool_call_id"], "toolu_03");
    let started_by = run.started_by.expect("the sub-agent's run names the call that started it");
    let call_event = started_by.event as usize;
    let EventBody::Message(m) = &t.events[call_event].body else { panic!() };
    let call = &m.tool_calls[started_by.call as usize];
    assert_eq!((call.function.as_str(), call.id.as_deref()), ("Task", Some("toolu_03")));
    assert_eq!(t.runs.iter().filter(|r| r.started_by == Some(started_by)).count(), 1, "run {i} alone");
    assert_eq!(t.runs[0].started_by, None);
    // The sidechain written inside the session file (older versions) is a run too.
    assert!(t.runs.iter().any(|r| r.id.starts_with("sidechain-")));
    // Files given in any order: the session is still run 0.
    let mut files = files_of(&manifest("session"));
    files.reverse();
    let t = parse_files(files, &ParseOptions::default()).unwrap();
    assert_eq!(t.runs[0].id, S);
    // The older layout links through toolUseResult.agentId.
    let t = parse_files(files_of(&manifest("older")), &ParseOptions::default()).unwrap();
    assert_eq!(t.runs[1].metadata["parent_tool_call_id"], "toolu_o1");
}

/// A record off the chain whose content holds a `tool_result` block answers
/// a call (any record type, not only `user`, as the reader has it): it is
/// attached to the chain, not the start of an abandoned branch.
#[test]
fn a_tool_result_block_off_the_chain_is_not_a_branch() {
    let line = |uuid: &str, parent: Option<&str>, kind: &str, content: &str| {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(r#"{{"type":"{kind}","uuid":"{uuid}","parentUuid":{parent},"sessionId":"s","timestamp":"2025-01-01T00:00:00.000Z","message":{{"role":"{kind}","content":{content}}}}}"#)
    };
    let lines = [
        line("u1", None, "user", r#""hi""#),
        line("a1", Some("u1"), "assistant", r#"[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]"#),
        line("x1", Some("a1"), "assistant", r#"[{"type":"tool_result","tool_use_id":"t1","content":"side"}]"#),
        line("u2", Some("a1"), "user", r#"[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]"#),
        line("a2", Some("u2"), "assistant", r#"[{"type":"text","text":"done"}]"#),
    ];
    let t = common::parse((lines.join("\n") + "\n").as_bytes());
    assert_eq!(t.format, "claude-code");
    assert!(t.events.iter().all(|e| e.metadata.get("abandoned_branch").is_none()));
    assert_eq!(t.diagnostics.iter().filter(|d| d.code == "abandoned-branch").count(), 0);
    // The same record without the block starts a branch.
    let mut plain = lines.clone();
    plain[2] = line("x1", Some("a1"), "assistant", r#"[{"type":"text","text":"side"}]"#);
    let t = common::parse((plain.join("\n") + "\n").as_bytes());
    assert_eq!(t.diagnostics.iter().filter(|d| d.code == "abandoned-branch").count(), 1);
}

#[test]
fn the_edited_prompt_leaves_an_abandoned_branch() {
    let t = session();
    let abandoned: Vec<&str> =
        t.events.iter().filter(|e| e.metadata.get("abandoned_branch").is_some()).filter_map(|e| e.metadata.get("uuid").and_then(Value::as_str)).collect();
    assert_eq!(abandoned, ["u3", "d1"]);
    assert_eq!(t.diagnostics.iter().filter(|d| d.code == "abandoned-branch").count(), 1);
    // Real sessions (parallel calls fork the uuid tree) have no false branches.
    for f in common::corpus_files("claude-code") {
        let t = common::parse(&std::fs::read(&f).unwrap());
        assert!(t.events.iter().all(|e| e.metadata.get("abandoned_branch").is_none()), "{}", f.display());
    }
}

#[test]
fn session_and_subagent_files_group_as_one_trace() {
    let paths: Vec<String> = [
        format!("p/{S}/subagents/agent-b1f2c3d.jsonl"),
        format!("p/{S}.jsonl"),
        "p/other.json".to_string(),
        format!("p/{S}/subagents/agent-b1f2c3d.meta.json"),
    ]
    .into();
    let groups = agent_trace_viewer::import::group_files(&paths, &[]);
    assert_eq!(groups[0].files, [0, 1, 3], "the sub-agent's meta.json is one of the session's files");
    assert_eq!(groups.len(), 2);
}

/// The session's files with the sub-agent's `agent-<id>.meta.json`, as a folder drop gives them.
fn session_with_meta() -> Vec<(String, Vec<u8>)> {
    let mut files = files_of(&manifest("session"));
    let meta = format!("fixtures/session/{S}/subagents/agent-b1f2c3d.meta.json");
    files.push((meta.clone(), std::fs::read(resolve(&meta)).unwrap()));
    files
}

#[test]
fn a_subagent_meta_json_describes_its_run() {
    let t = parse_files(session_with_meta(), &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "claude-code");
    let run = t.runs.iter().position(|r| r.id == "agent-b1f2c3d").unwrap();
    let r = &t.runs[run];
    // Every field of the meta file, an unknown one too, is run metadata.
    assert_eq!(r.metadata["agentType"], "Explore");
    assert_eq!(r.metadata["description"], "Find parse() callers");
    assert_eq!(r.metadata["toolUseId"], "toolu_03");
    assert_eq!(r.metadata["spawnDepth"], 1);
    assert_eq!(r.metadata["someFutureField"], "kept");
    // The records' own facts stay theirs.
    assert_eq!(r.metadata["sessionId"], S);
    assert_eq!(r.name.as_deref(), Some("Explore: Find parse() callers"));
    // The file is one event of that run, holding the whole object; nothing else moved.
    let metas: Vec<_> = t.events.iter().filter(|e| e.source_kind == "agent-meta").collect();
    assert_eq!(metas.len(), 1);
    assert_eq!(metas[0].run as usize, run);
    let EventBody::KeyValue(kv) = &metas[0].body else { panic!() };
    assert_eq!(kv.value.get()["someFutureField"], "kept");
    assert!(metas[0].metadata["file"].as_str().unwrap().ends_with("agent-b1f2c3d.meta.json"));
    let without = parse_files(files_of(&manifest("session")), &ParseOptions::default()).unwrap();
    assert_eq!(t.events.len(), without.events.len() + 1);
    assert_eq!(t.runs.len(), without.runs.len());
    assert!(common::errors(&t).is_empty(), "{:?}", common::codes(&t));
    assert!(t.diagnostics.iter().all(|d| d.code != "subagent-meta-only"));
    assert!(agent_trace_viewer::integrity::lost_values(&t).is_empty());
    // Docent's text of the sub-agent is what it was (the loader reads no meta file).
    let m = manifest("session");
    let sub = m["files"].as_array().unwrap().iter().find(|f| f["kind"] != "main").unwrap();
    assert_eq!(text(&t, run), golden(sub["text"].as_str().unwrap()));
}

#[test]
fn a_meta_json_tool_use_id_links_the_run_when_the_session_does_not() {
    // A session whose Task result names no agent: only the meta file's toolUseId links the run.
    let main = format!(
        "{{\"type\":\"assistant\",\"sessionId\":\"{S}\",\"uuid\":\"m1\",\"parentUuid\":null,\"message\":{{\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"Task\",\"input\":{{}}}}]}}}}\n\
         {{\"type\":\"user\",\"sessionId\":\"{S}\",\"uuid\":\"m2\",\"parentUuid\":\"m1\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_9\",\"content\":\"done\"}}]}}}}\n"
    );
    let agent = format!("{{\"type\":\"user\",\"isSidechain\":true,\"agentId\":\"z1\",\"sessionId\":\"{S}\",\"uuid\":\"z\",\"parentUuid\":null,\"message\":{{\"role\":\"user\",\"content\":\"go\"}}}}\n");
    // Pretty-printed, with a name: the name labels the run.
    let meta = "{\n  \"agentType\": \"general-purpose\",\n  \"name\": \"census\",\n  \"toolUseId\": \"toolu_9\"\n}\n";
    let files = vec![
        (format!("p/{S}.jsonl"), main.into_bytes()),
        (format!("p/{S}/subagents/agent-z1.meta.json"), meta.as_bytes().to_vec()),
        (format!("p/{S}/subagents/agent-z1.jsonl"), agent.into_bytes()),
    ];
    let t = parse_files(files.clone(), &ParseOptions::default()).unwrap();
    let r = t.runs.iter().find(|r| r.id == "agent-z1").unwrap();
    assert_eq!(r.name.as_deref(), Some("census"));
    let call = r.started_by.expect("linked by toolUseId");
    let EventBody::Message(m) = &t.events[call.event as usize].body else { panic!() };
    assert_eq!(m.tool_calls[call.call as usize].id.as_deref(), Some("toolu_9"));
    // Without the meta file nothing links it.
    let t = parse_files(vec![files[0].clone(), files[2].clone()], &ParseOptions::default()).unwrap();
    assert_eq!(t.runs.iter().find(|r| r.id == "agent-z1").unwrap().started_by, None);
}

#[test]
fn a_subagents_progress_links_its_run_when_the_result_does_not() {
    // The Task call has no result yet (the session was cut while the
    // sub-agent ran): only the `agent_progress` record names the agent.
    let progress = format!(
        "{{\"type\":\"progress\",\"sessionId\":\"{S}\",\"uuid\":\"m2\",\"parentUuid\":\"m1\",\"parentToolUseID\":\"toolu_9\",\"toolUseID\":\"agent_msg_1\",\
         \"data\":{{\"type\":\"agent_progress\",\"agentId\":\"z1\",\"prompt\":\"go\",\"message\":{{\"type\":\"user\"}}}}}}\n"
    );
    let main = format!(
        "{{\"type\":\"assistant\",\"sessionId\":\"{S}\",\"uuid\":\"m1\",\"parentUuid\":null,\"message\":{{\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"Task\",\"input\":{{}}}}]}}}}\n{progress}"
    );
    let agent = format!("{{\"type\":\"user\",\"isSidechain\":true,\"agentId\":\"z1\",\"sessionId\":\"{S}\",\"uuid\":\"z\",\"parentUuid\":null,\"message\":{{\"role\":\"user\",\"content\":\"go\"}}}}\n");
    let files = |main: &str| vec![(format!("p/{S}.jsonl"), main.as_bytes().to_vec()), (format!("p/{S}/subagents/agent-z1.jsonl"), agent.clone().into_bytes())];
    for exact_only in [false, true] {
        let options = ParseOptions { exact_only, ..ParseOptions::default() };
        let t = parse_files(files(&main), &options).unwrap();
        let r = t.runs.iter().find(|r| r.id == "agent-z1").unwrap();
        let call = r.started_by.unwrap_or_else(|| panic!("linked by the progress record (exact_only {exact_only})"));
        let EventBody::Message(m) = &t.events[call.event as usize].body else { panic!() };
        assert_eq!(m.tool_calls[call.call as usize].id.as_deref(), Some("toolu_9"));
        assert_eq!(r.metadata["parent_tool_call_id"], "toolu_9");
        // The record stays whole: its data is the event's value.
        let p = t.events.iter().find(|e| e.source_kind == "progress").unwrap();
        let EventBody::KeyValue(kv) = &p.body else { panic!() };
        assert_eq!(kv.value.get()["agentId"], "z1");
        // Progress of another kind links nothing.
        let other = main.replace("agent_progress", "hook_progress");
        let t = parse_files(files(&other), &options).unwrap();
        assert_eq!(t.runs.iter().find(|r| r.id == "agent-z1").unwrap().started_by, None);
    }
}

#[test]
fn a_meta_json_without_its_agent_says_what_it_is() {
    let meta = br#"{"agentType":"Explore","description":"look around"}"#.to_vec();
    // With the session, but its agent-<id>.jsonl missing.
    let mut files = files_of(&manifest("session"));
    files.retain(|(p, _)| !p.contains("/subagents/"));
    files.push((format!("p/{S}/subagents/agent-gone.meta.json"), meta.clone()));
    let t = parse_files(files, &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "claude-code");
    let (i, r) = t.runs.iter().enumerate().find(|(_, r)| r.id == "agent-gone").unwrap();
    assert_eq!(r.metadata["agentType"], "Explore");
    let d = t.diagnostics.iter().find(|d| d.code == "subagent-meta-only").expect("a warning");
    assert!(d.message.contains("agent-gone.meta.json") && d.message.contains("agent-gone.jsonl"), "{}", d.message);
    assert_eq!(t.events[d.event.unwrap() as usize].run as usize, i);
    // Alone: a tiny trace that says what the file is.
    let t = common::parse(&meta);
    assert_eq!(t.format, "claude-code");
    assert!(t.detection.evidence[0].contains("sub-agent's metadata"), "{:?}", t.detection);
    assert_eq!(t.events.len(), 1);
    let d = t.diagnostics.iter().find(|d| d.code == "subagent-meta-only").expect("a warning");
    assert!(d.message.contains("agent-<id>.jsonl"), "{}", d.message);
    assert_eq!(t.runs[0].name.as_deref(), Some("Explore: look around"));
    // A look-alike with a record type or nested values is not one.
    for other in [r#"{"agentType":"x","type":"y"}"#, r#"{"agentType":"x","config":{"a":1}}"#] {
        assert!(agent_trace_viewer::parse_trace(other.as_bytes().to_vec(), &ParseOptions::default()).map(|t| t.format != "claude-code").unwrap_or(true), "{other}");
    }
}

#[test]
fn bad_records_are_kept_and_located() {
    let src = format!(
        "{{\"type\":\"user\",\"sessionId\":\"{S}\",\"uuid\":\"x1\",\"parentUuid\":null,\"timestamp\":\"2026-01-01T00:00:00Z\",\"message\":{{\"role\":\"user\",\"content\":\"hi\"}}}}\n\
         {{\"type\":\"assistant\",\"sessionId\":\"{S}\",\"broken\n\
         7\n\
         {{\"type\":\"assistant\",\"sessionId\":\"{S}\",\"uuid\":\"x2\",\"parentUuid\":\"x1\",\"message\":\"not an object\"}}\n\
         {{\"type\":\"assistant\",\"sessionId\":\"{S}\",\"uuid\":\"x3\",\"parentUuid\":\"x2\",\"message\":{{\"id\":\"m\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Bash\",\"input\":{{}}}}]}}}}\n\
         {{\"type\":\"user\",\"sessionId\":\"{S}\",\"uuid\":\"x4\",\"parentUuid\":\"x3\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"nope\",\"content\":\"?\"}}]}}}}\n"
    );
    let t = common::parse(src.as_bytes());
    assert_eq!(t.format, "claude-code");
    assert_eq!(t.events.len(), 6, "every line is an event");
    let codes = common::codes(&t);
    for c in ["json-syntax", "not-an-object", "no-message", "unanswered-tool-call", "orphan-tool-result"] {
        assert!(codes.contains(&c), "{c} in {codes:?}");
    }
    let orphan = t.diagnostics.iter().find(|d| d.code == "orphan-tool-result").unwrap();
    assert_eq!(orphan.path, "$.message.content[0].tool_use_id");
    assert_eq!(orphan.line, 6);
    assert!(agent_trace_viewer::integrity::lost_values(&t).is_empty());
}

#[test]
fn every_corpus_session_is_detected_with_evidence() {
    for f in common::corpus_files("claude-code") {
        let t = common::parse(&std::fs::read(&f).unwrap());
        assert_eq!(t.format, "claude-code", "{}", f.display());
        assert!(t.detection.confidence > 0.9, "{}: {:?}", f.display(), t.detection);
        assert!(t.detection.evidence[0].contains("Claude Code session records"), "{:?}", t.detection.evidence);
        assert!(common::errors(&t).is_empty(), "{}: {:?}", f.display(), common::codes(&t));
    }
}

/// The corpus session and its sub-agent `a2898e3` as an older Claude Code laid
/// them out: `agent-<id>.jsonl` beside `<sessionId>.jsonl` in the project
/// folder (the corpus files read in place, under those names), with another
/// session of the same project.
fn older_layout_folder() -> Vec<(String, Vec<u8>)> {
    let corpus = common::corpus_dir().join("claude-code");
    let big = "4d5611e5-241a-462a-8d15-5122611a9569";
    let read = |n: &str| std::fs::read(corpus.join(format!("marot__spotter__test__fixtures__transcripts__{n}"))).unwrap();
    vec![
        (format!("proj/agent-a2898e3.jsonl"), read(&format!("{big}__subagents__agent-a2898e3.jsonl"))),
        (format!("proj/{S}.jsonl"), std::fs::read(resolve(&format!("fixtures/session/{S}.jsonl"))).unwrap()),
        (format!("proj/{big}.jsonl"), read(&format!("{big}.jsonl"))),
    ]
}

#[test]
fn an_older_agent_file_beside_two_sessions_joins_its_own_and_the_sessions_stay_apart() {
    let big = "4d5611e5-241a-462a-8d15-5122611a9569";
    let files = older_layout_folder();
    let t = parse_files(files.clone(), &ParseOptions::default()).unwrap();
    let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
    // Two sessions: two main conversations, neither holding the other's records.
    let main_a = ids.iter().position(|i| *i == big).unwrap_or_else(|| panic!("{ids:?}"));
    let main_b = ids.iter().position(|i| *i == S).unwrap_or_else(|| panic!("{ids:?}"));
    for (run, session) in [(main_a, big), (main_b, S)] {
        let other = t.events.iter().filter(|e| e.run as usize == run).filter_map(|e| e.metadata.get("sessionId")).find(|s| *s != session);
        assert_eq!(other, None, "run {run} holds only session {session}");
    }
    // The agent file's run is linked to its call in its own session.
    let agent = t.runs.iter().find(|r| r.id == "agent-a2898e3").unwrap();
    let call = agent.started_by.expect("linked to the Task call of its session");
    assert_eq!(t.events[call.event as usize].run as usize, main_a);
    // Docent's texts are each file's own, as when read alone.
    let together = [(main_a, 2), (main_b, 1)];
    for (run, file) in together {
        assert_eq!(text(&t, run), text(&common::parse(&files[file].1), 0), "run {run}");
    }
}

/// Grouping by path alone (no heads read): nothing names the session of an
/// older `agent-<id>.jsonl`, so it stays apart; two sessions are never one group.
#[test]
fn by_path_an_older_agent_file_is_not_grouped_and_sessions_stay_apart() {
    let paths: Vec<String> = older_layout_folder().into_iter().map(|(p, _)| p).collect();
    let groups = agent_trace_viewer::import::group_files(&paths, &[]);
    assert_eq!(groups.iter().map(|g| g.files.clone()).collect::<Vec<_>>(), [vec![0], vec![1], vec![2]]);
}

/// The first bytes of each file, as the page reads them for grouping.
fn heads_of(files: &[(String, Vec<u8>)]) -> Vec<Vec<u8>> {
    files.iter().map(|(_, b)| b.get(..agent_trace_viewer::import::GROUP_HEAD_BYTES).unwrap_or(b).to_vec()).collect()
}

/// With the files' heads, an older `agent-<id>.jsonl` groups with the
/// session its records name (`sessionId`), in the same folder only; a
/// sub-agent whose session is absent, and a head that is no record, stay
/// alone; the two sessions stay apart. The agent's group reads as one trace
/// with the sub-agent linked to its call.
#[test]
fn with_heads_an_older_agent_file_groups_with_its_own_session() {
    let big = "4d5611e5-241a-462a-8d15-5122611a9569";
    let mut files = older_layout_folder();
    let older = |n: &str| std::fs::read(resolve(&format!("fixtures/older/{n}"))).unwrap();
    // A sub-agent of a session that is not in the folder (its session file is in another one).
    files.push(("proj/agent-c9d8e7f.jsonl".into(), older("agent-c9d8e7f.jsonl")));
    files.push(("elsewhere/66666666-7777-4888-8999-aaaaaaaaaaaa.jsonl".into(), older("66666666-7777-4888-8999-aaaaaaaaaaaa.jsonl")));
    // Garbage where a record should be.
    files.push(("proj/agent-0bad.jsonl".into(), b"\x00\x01 not json {\"sessionId\": \"x\"".to_vec()));
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let heads = heads_of(&files);
    let wanted = agent_trace_viewer::import::group_heads_wanted(&paths);
    assert_eq!(wanted, [0, 3, 5], "only the older agent files want a head");
    let heads: Vec<Option<&[u8]>> = heads.iter().map(|h| Some(h.as_slice())).collect();
    let groups = agent_trace_viewer::import::group_files(&paths, &heads);
    let got: Vec<(&str, Vec<usize>)> = groups.iter().map(|g| (g.name.as_str(), g.files.clone())).collect();
    assert_eq!(
        got,
        [
            (format!("{big} (2 session files)").as_str(), vec![0, 2]),
            (format!("{S}.jsonl").as_str(), vec![1]),
            ("agent-c9d8e7f.jsonl", vec![3]),
            ("66666666-7777-4888-8999-aaaaaaaaaaaa.jsonl", vec![4]),
            ("agent-0bad.jsonl", vec![5]),
        ]
    );
    // The group opens as one trace: the session's main run and the sub-agent linked to its Task call.
    let group: Vec<(String, Vec<u8>)> = groups[0].files.iter().map(|i| files[*i].clone()).collect();
    let t = parse_files(group, &ParseOptions::default()).unwrap();
    assert_eq!(t.runs[0].id, big);
    let agent = t.runs.iter().find(|r| r.id == "agent-a2898e3").unwrap();
    let call = agent.started_by.expect("linked to the Task call of its session");
    assert_eq!(t.events[call.event as usize].run, 0);
}
