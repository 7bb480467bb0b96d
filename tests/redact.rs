//! Redaction (`agent_trace_viewer::redact`): every built-in kind of secret is
//! masked wherever it sits (content, tool arguments inside a JSON string,
//! results, metadata), placeholders are stable, the output is read back as
//! the same format, and nothing else changed: the redacted trace is compared
//! with the original event by event, the original's secrets replaced by
//! their placeholders. The same holds for every fixture of every format.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use agent_trace_viewer::redact::{redact_input, RedactOptions};
use agent_trace_viewer::view::{diagnostic_counts, event_view};
use agent_trace_viewer::{parse_trace, ParseOptions};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every string in `v` with each secret replaced by its placeholder (longest secrets first).
fn substitute(v: &mut Value, map: &[(String, String)]) {
    match v {
        Value::String(s) => {
            for (secret, placeholder) in map {
                if s.contains(secret.as_str()) {
                    *s = s.replace(secret.as_str(), placeholder);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| substitute(i, map)),
        Value::Object(o) => o.values_mut().for_each(|i| substitute(i, map)),
        _ => {}
    }
}

/// An event view without what a placeholder of another length than its
/// secret moves (the place in the file) or cuts (the one-line summary, cut
/// at 240 characters: the text it summarises is compared whole).
fn comparable(mut v: Value) -> Value {
    if let Value::Object(o) = &mut v {
        for key in ["line", "column", "offset", "summary"] {
            o.remove(key);
        }
    }
    v
}

/// Redacts `bytes`, reads both, and compares them event by event and run by run.
fn check_same_but_masked(name: &str, bytes: &[u8]) -> agent_trace_viewer::redact::Redaction {
    let r = redact_input(bytes, &RedactOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let Ok(original) = parse_trace(bytes.to_vec(), &ParseOptions::default()) else { return r };
    let redacted = parse_trace(r.bytes.clone(), &ParseOptions::default()).unwrap_or_else(|e| panic!("{name}: the redacted file is no trace: {e}"));
    assert_eq!(redacted.format, original.format, "{name}: read back as another format");
    assert_eq!(redacted.events.len(), original.events.len(), "{name}");
    assert_eq!(redacted.runs.len(), original.runs.len(), "{name}");
    let codes = |t: &agent_trace_viewer::model::Trace| t.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();
    assert_eq!(codes(&redacted), codes(&original), "{name}: the diagnostics changed");
    let mut map = r.placeholders.clone();
    // A secret found inside a JSON string that holds JSON (tool arguments)
    // was found in its escaped form; the parsed arguments hold it decoded.
    for (secret, placeholder) in &r.placeholders {
        if let Ok(decoded) = serde_json::from_str::<String>(&format!("\"{secret}\"")) {
            if &decoded != secret {
                map.push((decoded, placeholder.clone()));
            }
        }
    }
    map.sort_by(|a, b| b.0.len().cmp(&a.0.len()));
    let (oc, rc) = (diagnostic_counts(&original), diagnostic_counts(&redacted));
    for i in 0..original.events.len() {
        // NaN and the infinities (formats that read them) have no serde_json Value: compared as Debug text.
        let (want, got) = match (serde_json::to_value(event_view(&original, i, oc[i])), serde_json::to_value(event_view(&redacted, i, rc[i]))) {
            (Ok(want), Ok(got)) => (want, got),
            _ => {
                let debug = |t| format!("{:?}", event_view(t, i, (0, 0)).map(|e| (e.text, e.tool_calls.len())));
                assert_eq!(debug(&redacted), debug(&original), "{name}: event {i}");
                continue;
            }
        };
        let mut want = comparable(want);
        substitute(&mut want, &map);
        let got = comparable(got);
        assert_eq!(got, want, "{name}: event {i} differs beyond its masked secrets");
    }
    for (a, b) in original.runs.iter().zip(&redacted.runs) {
        let mut want = Value::Object(a.metadata.clone());
        substitute(&mut want, &map);
        assert_eq!(Value::Object(b.metadata.clone()), want, "{name}: run metadata");
    }
    let mut want = Value::Object(original.metadata.clone());
    substitute(&mut want, &map);
    assert_eq!(Value::Object(redacted.metadata.clone()), want, "{name}: trace metadata");
    r
}

#[test]
fn every_kind_is_masked_everywhere_and_nothing_else_changes() {
    let dir = root().join("tests/fixtures/redact");
    let bytes = std::fs::read(dir.join("secrets.json")).unwrap();
    let secrets: BTreeMap<String, String> = serde_json::from_slice(&std::fs::read(dir.join("secrets.list.json")).unwrap()).unwrap();
    let r = check_same_but_masked("secrets.json", &bytes);
    let text = String::from_utf8(r.bytes.clone()).unwrap();
    for (name, secret) in &secrets {
        // In the file a secret may sit JSON-escaped (the private key's newlines): look for both.
        let escaped = serde_json::to_string(secret).unwrap();
        let escaped = &escaped[1..escaped.len() - 1];
        assert!(!text.contains(secret.as_str()) && !text.contains(escaped), "{name} survived");
        let twice = serde_json::to_string(&serde_json::to_string(secret).unwrap()).unwrap();
        assert!(!text.contains(&twice[3..twice.len() - 3]), "{name} survived inside a JSON string");
    }
    let kinds: Vec<&str> = r.report.kinds.iter().map(|k| k.kind.as_str()).collect();
    for kind in ["openai-key", "anthropic-key", "aws-access-key", "aws-secret-key", "github-token", "google-api-key", "slack-token", "jwt", "bearer-token", "email", "private-key"] {
        assert!(kinds.contains(&kind), "{kind} not in the report: {kinds:?}");
    }
    // Stable: the OpenAI key twice, the e-mail address in metadata and in the system prompt, one placeholder each.
    assert_eq!(text.matches("[REDACTED:openai-key:1]").count(), 2);
    assert_eq!(text.matches("[REDACTED:email:1]").count(), 2);
    assert!(!text.contains("[REDACTED:openai-key:2]") && !text.contains("[REDACTED:email:2]"));
    // The look-alikes in the last message stay.
    assert!(text.contains("Nothing secret here: sk-short, user@localhost, Bearer of news"));
    // Redacting the redacted file changes nothing more.
    let again = redact_input(&r.bytes, &RedactOptions::default()).unwrap();
    assert_eq!(again.bytes, r.bytes);
    assert_eq!(again.report.strings_changed, 0);
}

#[test]
fn every_fixture_of_every_format_reads_back_the_same() {
    let mut checked = 0;
    let mut masked = 0;
    let mut zips = 0;
    for id in agent_trace_viewer::format_ids() {
        let files = common::files_under(&root().join("tests/fixtures").join(id));
        for f in files.iter().filter(|f| !f.components().any(|c| c.as_os_str() == "scaling")) {
            // Zips (Inspect `.eval`) too: written back as a zip of the same files.
            let bytes = std::fs::read(f).unwrap();
            zips += usize::from(agent_trace_viewer::container::is_zip(&bytes));
            let r = check_same_but_masked(&f.display().to_string(), &bytes);
            checked += 1;
            masked += r.report.strings_changed;
        }
    }
    assert!(checked > 50, "{checked} fixtures");
    assert!(zips >= 2, "{zips} zip fixtures");
    eprintln!("{checked} fixtures redacted and read back; {masked} strings masked");
}

#[test]
fn user_patterns_literals_and_refusals() {
    let bytes = br#"[{"role": "user", "content": "Project Falcon, ticket JIRA-1234, mail a@b.io"}]"#;
    let options = RedactOptions { no_builtin: true, patterns: vec![r"JIRA-\d+".to_string()], literals: vec!["Falcon".to_string()] };
    let r = redact_input(bytes, &options).unwrap();
    assert_eq!(String::from_utf8(r.bytes).unwrap(), r#"[{"role": "user", "content": "Project [REDACTED:literal:1], ticket [REDACTED:custom:1], mail a@b.io"}]"#);
    let bad = RedactOptions { patterns: vec!["[".to_string()], ..RedactOptions::default() };
    assert!(redact_input(bytes, &bad).unwrap_err().to_string().contains("not a valid regex"));
    assert!(redact_input(b"PK\x03\x04rest", &RedactOptions::default()).unwrap_err().to_string().contains("zip"));
    // An archive with a file that is not JSON is not written: that file could not be searched.
    use agent_trace_viewer::container::write_stored;
    let zip = write_stored(&[("header.json".to_string(), b"{}".to_vec()), ("logo.png".to_string(), vec![0x89, b'P', b'N', b'G'])]).unwrap();
    assert!(redact_input(&zip, &RedactOptions::default()).unwrap_err().to_string().contains("`logo.png`, which is not JSON"));
}

#[test]
fn an_eval_zip_is_redacted_file_by_file_with_one_set_of_placeholders() {
    use agent_trace_viewer::container::{unzip, write_stored, MAX_GZIP_EXPANSION};
    let key = "sk-proj-Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8";
    let members = vec![
        ("header.json".to_string(), format!(r#"{{"eval": {{"task": "t", "metadata": {{"key": "{key}"}}}}}}"#).into_bytes()),
        ("samples/1_epoch_1.json".to_string(), format!(r#"{{"id": 1, "input": "use {key}"}}"#).into_bytes()),
    ];
    let r = redact_input(&write_stored(&members).unwrap(), &RedactOptions::default()).unwrap();
    let back = unzip(&r.bytes, MAX_GZIP_EXPANSION).unwrap();
    assert_eq!(back.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["header.json", "samples/1_epoch_1.json"]);
    for (name, data) in &back {
        let text = std::str::from_utf8(data).unwrap();
        assert!(!text.contains(key) && text.contains("[REDACTED:openai-key:1]"), "{name}: {text}");
    }
    assert_eq!((r.report.kinds[0].occurrences, r.report.kinds[0].distinct, r.report.strings_changed), (2, 1, 2));
}
