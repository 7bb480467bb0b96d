//! The command-line tool given a folder, run as a process.

mod common;

use common::cli;

/// A folder is read as the page reads a dropped one: the formats' groups
/// (a Claude Code session with its sub-agents; an older `agent-<id>.jsonl`
/// joined by the session its records name) one trace each, other files
/// their own, hidden files skipped.
#[test]
fn a_folder_is_read_as_its_groups_and_files() {
    let runs = |out: &str| -> Vec<(String, u64)> {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        v.as_array().unwrap().iter().map(|t| (t["file"].as_str().unwrap().to_string(), t["runs"].as_u64().unwrap_or(0))).collect()
    };
    let (code, out, err) = cli(&["stats", "--format", "json", "tests/fixtures/claude-code/session"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(runs(&out), [("tests/fixtures/claude-code/session: 11111111-2222-4333-8444-555555555555 (3 session files)".to_string(), 3)]);
    let (_, out, _) = cli(&["stats", "--format", "json", "tests/fixtures/claude-code/older"], None);
    assert_eq!(runs(&out).len(), 1, "the older sub-agent file joins its session by its first record: {out}");
    assert_eq!(runs(&out)[0].1, 2);

    let dir = std::env::temp_dir().join(format!("atv-cli-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let session = dir.join("s/11111111-2222-4333-8444-555555555555/subagents");
    std::fs::create_dir_all(&session).unwrap();
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude-code/session");
    std::fs::copy(from.join("11111111-2222-4333-8444-555555555555.jsonl"), dir.join("s/11111111-2222-4333-8444-555555555555.jsonl")).unwrap();
    std::fs::copy(from.join("11111111-2222-4333-8444-555555555555/subagents/agent-b1f2c3d.jsonl"), session.join("agent-b1f2c3d.jsonl")).unwrap();
    std::fs::write(dir.join("chat.json"), br#"[{"role": "user", "content": "hi"}]"#).unwrap();
    std::fs::write(dir.join(".DS_Store"), b"\0\0\0\x01Bud1").unwrap();
    // A link back up the tree is not followed (it would never end).
    #[cfg(unix)]
    std::os::unix::fs::symlink(&dir, dir.join("s/loop")).unwrap();
    let (code, out, err) = cli(&["stats", "--format", "json", dir.to_str().unwrap()], None);
    let got = runs(&out);
    assert_eq!(code, 0, "{err}\n{out}");
    assert_eq!(got.len(), 2, "the session and the chat, not the hidden file: {got:?}");
    assert!(got[0].0.ends_with("chat.json") && got[0].1 == 1, "{got:?}");
    assert!(got[1].0.contains("(2 session files)") && got[1].1 == 3, "the runs the session folder gives (3): {got:?}");
    let (code, _, err) = cli(&["convert", "--to", "openai-json", dir.to_str().unwrap()], None);
    assert_eq!(code, 2, "convert takes one trace: {err}");
    assert!(err.contains("holds 2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
