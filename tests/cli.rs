//! The command-line tool, run as a process on fixtures and the corpus.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn cli(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-trace-viewer"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn validate_prints_compiler_style_lines_and_exits_1_on_errors() {
    let file = common::corpus_dir().join("invariant/invariantlabs-ai__faithful_simulation__example_traces__trace_20250922_160348.json");
    let file = file.to_str().unwrap();
    let (code, out, _) = cli(&["validate", file], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("{file}:19:24: error[arguments-not-json]: ")), "{out}");
    assert!(out.contains("(at $[2].tool_calls[0].function.arguments)"), "{out}");
    assert!(out.contains("openai (7 events, 1 run): 1 error, 0 other diagnostics"), "{out}");
}

#[test]
fn clean_files_exit_0_and_several_files_are_read() {
    let (code, out, err) = cli(&["validate", "tests/fixtures/agentlens/session.json", "tests/fixtures/docent/lib_current_run.json"], None);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("tests/fixtures/agentlens/session.json: agentlens (10 events, 1 run): 0 errors"), "{out}");
    assert!(out.contains("tests/fixtures/docent/lib_current_run.json: docent"), "{out}");
}

#[test]
fn stdin_json_output_and_unreadable_files() {
    let (code, out, _) = cli(&["validate", "--format", "json", "-"], Some(br#"[{"role": "user", "content": 1}]"#));
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v[0]["file"], "-");
    assert_eq!(v[0]["format"], "openai");
    assert_eq!(v[0]["diagnostics"][0]["code"], "content-type");
    assert_eq!(v[0]["diagnostics"][0]["line"], 1);

    let (code, _, err) = cli(&["validate", "no/such/file.json"], None);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.json: cannot read"), "{err}");

    let (code, out, _) = cli(&["validate", "-"], Some(b"{\"hello\": 1}"));
    assert_eq!(code, 1);
    assert!(out.contains("-: error: not a supported trace format"), "{out}");

    let (code, _, err) = cli(&["validate"], None);
    assert_eq!(code, 2);
    assert!(err.contains("no FILE given"), "{err}");
    let (code, _, err) = cli(&["frobnicate", "x"], None);
    assert_eq!(code, 2);
    assert!(err.contains("unknown command"), "{err}");
}

#[test]
fn stats_counts_tools_tokens_and_time() {
    let (code, out, _) = cli(&["stats", "--format", "json", "tests/fixtures/agentlens/session.json"], None);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let session: serde_json::Value = serde_json::from_slice(&common::fixture("agentlens/session.json")).unwrap();
    let events = session["events"].as_array().unwrap();
    let sum = |k: &str| events.iter().map(|e| e[k].as_u64().unwrap_or(0)).sum::<u64>();
    assert_eq!(v[0]["tokensIn"], sum("tokens_in"));
    assert_eq!(v[0]["tokensOut"], sum("tokens_out"));
    let failures = events.iter().filter(|e| e["event_type"] == "tool_error").count() as u64;
    let tools = v[0]["tools"].as_object().unwrap();
    assert_eq!(tools.values().map(|t| t["failures"].as_u64().unwrap()).sum::<u64>(), failures);
    assert_eq!(v[0]["runTimes"][0]["durationSeconds"], 7.0);

    let (code, out, _) = cli(&["stats", "-"], Some(br#"[{"role": "user", "content": "a"}]"#));
    assert_eq!(code, 0);
    assert!(out.contains("format      openai") && out.contains("by role     user 1"), "{out}");
}
