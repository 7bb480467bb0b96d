//! The command-line tool, run as a process on fixtures and the corpus.

mod common;

use std::process::Command;

use common::cli;

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
    // Token usage is typed now (`usage.total`, per model in `usage.byModel`), and
    // `tools` is the list `trace.toolStats()` gives, with results answering no
    // call counted apart.
    assert_eq!(v[0]["usage"]["total"]["inputTokens"], sum("tokens_in"));
    assert_eq!(v[0]["usage"]["total"]["outputTokens"], sum("tokens_out"));
    let failures = events.iter().filter(|e| e["event_type"] == "tool_error").count() as u64;
    let tools = v[0]["tools"].as_array().unwrap();
    let unlinked = v[0]["unlinkedResults"]["failures"].as_u64().unwrap();
    assert_eq!(tools.iter().map(|t| t["failures"].as_u64().unwrap()).sum::<u64>() + unlinked, failures);
    assert_eq!(v[0]["runTimes"][0]["durationSeconds"], 7.0);

    let (code, out, _) = cli(&["stats", "-"], Some(br#"[{"role": "user", "content": "a"}]"#));
    assert_eq!(code, 0);
    assert!(out.contains("format      openai") && out.contains("by role     user 1"), "{out}");
}

/// The cost the trace reports: in the text (total, parts, per model) and the
/// JSON (`usage.cost`); a trace reporting none has no cost line or field.
#[test]
fn stats_shows_the_reported_cost_and_none_when_there_is_none() {
    let (code, out, _) = cli(&["stats", "tests/fixtures/langfuse/api-trace.json"], None);
    assert_eq!(code, 0);
    assert!(out.contains("  cost        $0.0012 (input $0.0001, output $0.0002), reported by 2 events\n    gpt-4o: $0.0012"), "{out}");
    let (_, out, _) = cli(&["stats", "--format", "json", "tests/fixtures/langfuse/api-trace.json"], None);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["usage"]["cost"]["events"], 2);
    let (_, out, _) = cli(&["stats", "tests/fixtures/agentlens/session.json"], None);
    assert!(!out.contains("cost"), "{out}");
    let (_, out, _) = cli(&["stats", "--format", "json", "tests/fixtures/agentlens/session.json"], None);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap()[0]["usage"].get("cost"), None, "absent, not 0");
}

#[test]
fn validate_groups_repeated_diagnostics_unless_all() {
    let file = common::corpus_dir().join("openhands/OpenHands__benchmarks__benchmarks__openagentsafety__outputs__mgulavani__openagentsafety_full_updated-train__litellm_proxy__neulab__gpt-4o-2024-08-06_maxiter_100_N_initial__output.jsonl");
    let file = file.to_str().unwrap();
    let (code, out, _) = cli(&["validate", file], None);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    // 35 errors: two messages repeated 17 times each, and one on its own.
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with(&format!("{file}:1:3141: error[unknown-action-kind]: 17 records: openhands-sdk 1.58.2")), "{out}");
    assert!(lines[0].ends_with("(first at $.history[0].action)"), "{out}");
    assert!(lines[1].contains("error[unknown-observation-kind]: 17 records: "), "{out}");
    assert!(lines[2].contains("error[unknown-field]: FinishObservation has no field `message`"), "{out}");
    assert!(lines[3].ends_with("35 errors, 0 other diagnostics (repeated ones grouped: --all lists each)"), "{out}");
    let (code, all, _) = cli(&["validate", "--all", file], None);
    assert_eq!(code, 1);
    assert_eq!(all.lines().count(), 36, "{all}");
    assert_eq!(all.lines().filter(|l| l.contains("error[unknown-action-kind]: openhands-sdk")).count(), 17);
    let (_, json, _) = cli(&["validate", "--format", "json", file], None);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["diagnostics"].as_array().unwrap().len(), 35);
    let counts: Vec<u64> = v[0]["groups"].as_array().unwrap().iter().map(|g| g["count"].as_u64().unwrap()).collect();
    assert_eq!(counts, [17, 17, 1]);
    let (code, _, err) = cli(&["stats", "--all", file], None);
    assert_eq!(code, 2);
    assert!(err.contains("--all is not an option of this command"), "{err}");
}

// ---- text and convert -------------------------------------------------------

use std::path::{Path, PathBuf};

use agent_trace_viewer::render::{agent_run_text, Style, TextOptions};
use serde_json::Value;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/agentrun-text").join(name)
}

fn golden_text(name: &str) -> String {
    String::from_utf8(std::fs::read(golden(name)).unwrap()).unwrap()
}

fn manifest() -> Value {
    serde_json::from_str(&golden_text("cases.json")).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The text of a run as the library renders it (what the CLI must print).
fn library_text(bytes: &[u8], format: Option<&str>, style: Style, run: usize) -> Result<String, String> {
    let options = agent_trace_viewer::ParseOptions { format: format.map(str::to_string), ..Default::default() };
    let trace = agent_trace_viewer::parse_trace(bytes.to_vec(), &options).map_err(|e| e.to_string())?;
    let o = TextOptions { style, run, ..TextOptions::default() };
    agent_run_text(&trace, &o, None).map(|c| c.concat()).map_err(|e| e.message)
}

#[test]
fn text_prints_docent_goldens_byte_for_byte_in_both_styles_and_every_context() {
    let m = manifest();
    let dir = std::env::temp_dir().join(format!("atv-cli-ctx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in m["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = golden(&format!("{name}.json"));
        let mut runs: Vec<(Vec<String>, String)> = Vec::new();
        if case["generation"] == "older" {
            runs.push((vec!["--style".into(), "legacy".into()], format!("{name}.legacy.txt")));
        }
        if let Some(error) = case["current_error"].as_str() {
            // Docent itself raises here: the CLI fails (exit 1) naming the same exception.
            let (code, out, err) = cli(&["text", s(&input)], None);
            let kind = error.split(':').next().unwrap();
            assert_eq!((code, out.as_str()), (1, ""), "{name}: {err}");
            assert!(err.contains(&format!("{}: error: ", s(&input))) && err.contains(kind), "{name}: {err}");
            checked += 1;
        } else {
            runs.push((vec![], format!("{name}.current.txt")));
            runs.push((vec!["--style".into(), "current".into()], format!("{name}.current.txt")));
            for (i, ctx) in case["contexts"].as_array().unwrap().iter().enumerate() {
                let ctx = ctx.as_str().unwrap();
                let json = m["contexts"][ctx].to_string();
                // Alternately inline JSON and a file holding it.
                let arg = if i % 2 == 0 {
                    json
                } else {
                    let f = dir.join(format!("{ctx}.json"));
                    std::fs::write(&f, json).unwrap();
                    f.to_str().unwrap().to_string()
                };
                runs.push((vec!["--context".into(), arg], format!("{name}.current.{ctx}.txt")));
            }
        }
        for (flags, want) in runs {
            let mut args = vec!["text".to_string()];
            args.extend(flags);
            args.push(s(&input).to_string());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = cli(&args, None);
            checked += 1;
            if code != 0 || out != golden_text(&want) {
                failures.push(format!("{args:?} (exit {code}, {err}) differs from {want}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 90, "only {checked} goldens checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Splits `--format text` chunk output at its separator lines.
fn split_chunks(out: &str) -> Vec<(String, usize)> {
    let mut chunks: Vec<(String, usize)> = Vec::new();
    let mut total = 0;
    let mut lines = out.split_inclusive('\n').peekable();
    while let Some(header) = lines.next() {
        let rest = header.strip_prefix("===== agent-trace-viewer: chunk ").unwrap_or_else(|| panic!("not a separator: {header:?}"));
        let (of, tokens) = rest.split_once(", ").unwrap();
        let (i, n) = of.split_once('/').unwrap();
        assert_eq!(i.parse::<usize>().unwrap(), chunks.len() + 1);
        let n: usize = n.parse().unwrap();
        assert!(total == 0 || total == n, "chunk counts {total} and {n}");
        total = n;
        let tokens: usize = tokens.strip_suffix(" tokens =====\n").unwrap().parse().unwrap();
        let mut text = String::new();
        while let Some(l) = lines.peek() {
            if l.starts_with("===== agent-trace-viewer: chunk ") {
                break;
            }
            text.push_str(lines.next().unwrap());
        }
        // Each chunk is followed by one newline of the separator layout.
        chunks.push((text.strip_suffix('\n').unwrap().to_string(), tokens));
    }
    assert_eq!(total, chunks.len(), "every separator says how many chunks there are");
    chunks
}

#[test]
fn token_limited_legacy_chunks_and_counts_match_docent_and_tiktoken() {
    let m = manifest();
    // Whole texts tiktoken counted for the goldens (tokens.json): a one-chunk split must give the same count.
    let counted: std::collections::HashMap<String, u64> = serde_json::from_str::<Value>(&golden_text("tokens.json")).unwrap()["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["text"].as_str().unwrap().to_string(), t["count"].as_u64().unwrap()))
        .collect();
    let (mut checked, mut counts_from_tiktoken, mut multi) = (0, 0, 0);
    for case in m["cases"].as_array().unwrap().iter().filter(|c| c["generation"] == "older") {
        let name = case["name"].as_str().unwrap();
        let input = golden(&format!("{name}.json"));
        for limit in case["legacy_limits"].as_array().unwrap() {
            let limit = limit.to_string();
            let want: Vec<String> = serde_json::from_str(&golden_text(&format!("{name}.legacy.{limit}.json"))).unwrap();
            let (code, out, err) = cli(&["text", "--style", "legacy", "--token-limit", &limit, "--format", "json", s(&input)], None);
            assert_eq!(code, 0, "{name} @{limit}: {err}");
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["style"], "legacy");
            assert_eq!(v["run"], 0);
            assert_eq!(v["tokenLimit"].to_string(), limit);
            assert_eq!(v["file"], s(&input));
            let got: Vec<(String, u64)> =
                v["chunks"].as_array().unwrap().iter().map(|c| (c["text"].as_str().unwrap().to_string(), c["tokens"].as_u64().unwrap())).collect();
            let texts: Vec<&String> = got.iter().map(|(t, _)| t).collect();
            assert_eq!(texts, want.iter().collect::<Vec<_>>(), "{name} @{limit}: chunks differ from docent-python's to_text({limit})");
            for (text, tokens) in &got {
                assert_eq!(*tokens as usize, atv_tokenizer::count(text), "{name} @{limit}");
                if let Some(n) = counted.get(text) {
                    assert_eq!(tokens, n, "{name} @{limit}: tiktoken counts {n}");
                    counts_from_tiktoken += 1;
                }
            }
            // The same through the text layout: separator lines, then the chunk.
            let (code, text_out, text_err) = cli(&["text", "--style", "legacy", "--token-limit", &limit, s(&input)], None);
            assert_eq!(code, 0);
            // docent-python sometimes gives no chunks at all (empty-transcript-older): said on stderr.
            assert_eq!(want.is_empty(), text_err.contains("gives no chunks for this run at a token limit of"), "{name} @{limit}: {text_err}");
            let split = split_chunks(&text_out);
            assert_eq!(split.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(), want, "{name} @{limit} (text layout)");
            assert_eq!(split.iter().map(|(_, n)| *n as u64).collect::<Vec<_>>(), got.iter().map(|(_, n)| *n).collect::<Vec<_>>());
            if want.len() > 1 {
                multi += 1;
            }
            checked += 1;
        }
    }
    assert!(checked >= 20 && multi >= 5, "{checked} limits, {multi} split into several chunks");
    assert!(counts_from_tiktoken >= 8, "only {counts_from_tiktoken} chunk counts compared with tiktoken's");
    // basic-older under 200 tokens: three chunks (the goldens), and a one-chunk split of 294 tokens (tiktoken).
    let (_, out, _) = cli(&["text", "--style", "legacy", "--token-limit", "1000", "--format", "json", s(&golden("basic-older.json"))], None);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["chunks"][0]["tokens"], 294);
}

#[test]
fn text_reads_stdin_several_files_and_picks_runs() {
    let older = std::fs::read(golden("basic-older.json")).unwrap();
    let (code, out, _) = cli(&["text", "--style", "legacy", "-"], Some(&older));
    assert_eq!(code, 0);
    assert_eq!(out, golden_text("basic-older.legacy.txt"));

    // Two files: each after a `==> FILE <==` line, each text followed by a newline.
    let a = golden("basic-older.json");
    let b = golden("reasoning-current.json");
    let (code, out, _) = cli(&["text", s(&a), s(&b)], None);
    assert_eq!(code, 0);
    let want = format!(
        "==> {} <==\n{}\n==> {} <==\n{}\n",
        s(&a),
        golden_text("basic-older.current.txt"),
        s(&b),
        golden_text("reasoning-current.current.txt")
    );
    assert_eq!(out, want);

    // JSON: one object per file and line; a run picked by --run from a JSON Lines file.
    let jsonl = format!(
        "{}\n{}\n",
        serde_json::from_slice::<Value>(&older).unwrap(),
        serde_json::from_str::<Value>(&golden_text("reasoning-current.json")).unwrap()
    );
    let (code, out, _) = cli(&["text", "--run", "1", "--format", "json", "-"], Some(jsonl.as_bytes()));
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["file"], "-");
    assert_eq!(v["style"], "current");
    assert_eq!(v["run"], 1);
    assert_eq!(v["tokenLimit"], Value::Null);
    assert_eq!(v["chunks"].as_array().unwrap().len(), 1);
    assert_eq!(v["chunks"][0]["text"], golden_text("reasoning-current.current.txt"));
    assert_eq!(v["chunks"][0]["tokens"].as_u64().unwrap() as usize, atv_tokenizer::count(&golden_text("reasoning-current.current.txt")));
    let (code, _, err) = cli(&["text", "--run", "2", "-"], Some(jsonl.as_bytes()));
    assert_eq!(code, 1);
    assert!(err.contains("the trace has 2 runs; there is no run 2"), "{err}");
}

#[test]
fn text_and_convert_errors_have_clear_messages_and_exit_codes() {
    let f = s(&golden("basic-older.json")).to_string();
    let usage = |args: &[&str], says: &str| {
        let (code, out, err) = cli(args, None);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
    };
    usage(&["text", "--style", "fancy", &f], "--style takes legacy or current, not \"fancy\"");
    usage(&["text", "--style"], "--style takes legacy or current");
    usage(&["text", "--token-limit", "100", &f], "--token-limit needs --style legacy");
    usage(&["text", "--style", "legacy", "--token-limit", "-3", &f], "--token-limit takes a whole number");
    usage(&["text", "--style", "legacy", "--context", "{}", &f], "--context applies to the current style only");
    usage(&["text", "--context", "{not json", &f], "--context: not JSON");
    usage(&["text", "--context", "[1]", &f], "--context: context must be an AgentRunContextConfig object");
    usage(&["text", "--context", "no/such/context.json", &f], "--context no/such/context.json: cannot read");
    usage(&["text", "--run", "x", &f], "--run takes a whole number");
    usage(&["text", "--to", "openai-json", &f], "--to is not an option of this command");
    usage(&["convert", &f], "convert needs --to");
    usage(&["convert", "--to", "yaml", &f], "--to takes agentrun-json or openai-json, not yaml");
    usage(&["convert", "--to", "openai-json", &f, &f], "convert takes one FILE");
    usage(&["convert", "--to", "openai-json", "--style", "legacy", &f], "--style is not an option of this command");
    usage(&["stats", "--run", "0", &f], "--run is not an option of this command");

    for cmd in [&["text"][..], &["text", "--format", "json"], &["convert", "--to", "agentrun-json"]] {
        // Unreadable: exit 2, named on stderr, nothing on stdout.
        let mut args = cmd.to_vec();
        args.push("no/such/file.json");
        let (code, out, err) = cli(&args, None);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.contains("no/such/file.json: cannot read"), "{err}");
        // A folder without files is a usage error too (a folder is read as its traces).
        let empty = std::env::temp_dir().join(format!("atv-cli-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let mut args = cmd.to_vec();
        args.push(empty.to_str().unwrap());
        let (code, _, err) = cli(&args, None);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("no files in this folder"), "{err}");
        // Not a trace: exit 1.
        let mut args = cmd.to_vec();
        args.push("-");
        let (code, out, err) = cli(&args, Some(b"{\"hello\": 1}"));
        assert_eq!(code, 1, "{args:?}");
        let said = if cmd.contains(&"json") { out } else { err };
        assert!(said.contains("not a supported trace format"), "{args:?}: {said}");
    }
    // A readable file among unreadable ones still prints; the exit status is the worst.
    let (code, out, err) = cli(&["text", "--style", "legacy", "no/such/file.json", &f], None);
    assert_eq!(code, 2, "{err}");
    assert!(out.contains(&golden_text("basic-older.legacy.txt")));
}

/// Fixtures of every format, and the Docent goldens' runs.
fn inputs() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/fixtures/openai", "tests/fixtures/docent", "tests/fixtures/agentlens", "tests/fixtures/agent-catalog", "tests/fixtures/openhands"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() && p.extension().is_some_and(|x| x == "json" || x == "jsonl") && !p.to_str().unwrap().ends_with(".names.json") {
                files.push(p);
            }
        }
    }
    for case in manifest()["cases"].as_array().unwrap() {
        files.push(golden(&format!("{}.json", case["name"].as_str().unwrap())));
    }
    files.sort();
    files
}

#[test]
fn convert_agentrun_json_reads_back_to_the_same_run_text() {
    let (mut runs_checked, mut legacy_checked, mut formats) = (0, 0, std::collections::BTreeSet::new());
    let mut failures = Vec::new();
    for file in inputs() {
        let bytes = std::fs::read(&file).unwrap();
        let Ok(trace) = agent_trace_viewer::parse_trace(bytes.clone(), &Default::default()) else { continue };
        let (code, out, err) = cli(&["convert", "--to", "agentrun-json", s(&file)], None);
        assert_eq!(code, 0, "{}: {err}", file.display());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), trace.runs.len(), "{}: one line per run", file.display());
        for (r, line) in lines.iter().enumerate() {
            // Older Docent runs key transcripts by dict key, which the current generation's JSON
            // (a list of transcripts with ids) has no place for: the legacy text, which shows
            // `<transcript KEY>`, names them by id after the conversion. Everything else is kept.
            let run = agent_trace_viewer::import::agent_run(&trace, r).unwrap();
            let mut styles = vec![Style::Current];
            if run.transcripts.iter().all(|t| t.key == t.id) {
                styles.push(Style::Legacy);
                legacy_checked += 1;
            }
            for style in styles {
                let want = library_text(&bytes, None, style, r);
                let got = library_text(line.as_bytes(), Some("docent"), style, 0);
                // `NaN` has no JSON number: the AgentRun JSON holds null for
                // it (as Docent's own `model_dump_json` writes it), so a run
                // holding one reads back with `None` there, and only there.
                if bytes.windows(3).any(|w| w == b"NaN") && want != got {
                    let nan_to_none = |t: &str| t.replace("=nan", "=None").replace("[nan", "[None").replace(": .nan", ": null");
                    if let (Ok(w), Ok(g)) = (&want, &got) {
                        if nan_to_none(w) == *g {
                            continue;
                        }
                    }
                }
                if want != got {
                    failures.push(format!("{} run {r} {style:?}: {want:?}\n  vs {got:?}", file.display()));
                }
            }
            runs_checked += 1;
            formats.insert(trace.format);
        }
        // --run N: that run's line alone.
        if trace.runs.len() > 1 {
            let (_, one, _) = cli(&["convert", "--to", "agentrun-json", "--run", "1", s(&file)], None);
            assert_eq!(one, format!("{}\n", lines[1]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(formats.len(), 5, "{formats:?}");
    assert!(runs_checked >= 100 && legacy_checked >= 50, "{runs_checked} runs, {legacy_checked} in both styles");
}

#[test]
fn convert_openai_json_reads_back_to_the_same_run_text() {
    let mut checked = 0;
    for file in inputs().into_iter().filter(|f| f.to_str().unwrap().contains("fixtures/openai/")) {
        let bytes = std::fs::read(&file).unwrap();
        let Ok(trace) = agent_trace_viewer::parse_trace(bytes.clone(), &Default::default()) else { continue };
        // Unparsed records are exported as they are, and read back with another reason.
        if trace.events.iter().any(|e| e.body.kind() == "unparsed") {
            continue;
        }
        let (code, out, err) = cli(&["convert", "--to", "openai-json", s(&file)], None);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, agent_trace_viewer::export::to_openai_jsonl(&trace));
        for r in 0..trace.runs.len() {
            for style in [Style::Current, Style::Legacy] {
                assert_eq!(library_text(out.as_bytes(), Some("openai"), style, r), library_text(&bytes, None, style, r), "{} run {r}", file.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked}");
    // From another format, through stdin, one run.
    let agentlens = std::fs::read("tests/fixtures/agentlens/sessions.jsonl").unwrap();
    let (code, out, _) = cli(&["convert", "--to", "openai-json", "--run", "1", "-"], Some(&agentlens));
    assert_eq!(code, 0);
    let row: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(out.lines().count(), 1);
    let trace = common::parse(&agentlens);
    assert_eq!(row, agent_trace_viewer::export::run_to_openai(&trace, 1).unwrap());
    let (code, _, err) = cli(&["convert", "--to", "openai-json", "--run", "99", "-"], Some(&agentlens));
    assert_eq!(code, 1);
    assert!(err.contains("the trace has 22 runs; there is no run 99"), "{err}");
}

#[test]
fn every_corpus_file_goes_through_text_and_convert_without_a_crash() {
    let mut files = Vec::new();
    let mut dirs = vec![common::corpus_dir()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.file_name().is_some_and(|n| n != "INDEX.md") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 50, "{} corpus files", files.len());
    let mut rendered = 0;
    for f in &files {
        for args in [
            &["text"][..],
            &["text", "--style", "legacy"],
            &["text", "--style", "legacy", "--token-limit", "2000"],
            &["convert", "--to", "agentrun-json"],
            &["convert", "--to", "openai-json"],
        ] {
            let mut args = args.to_vec();
            args.push(s(f));
            let (code, out, err) = cli(&args, None);
            assert!(code == 0 || code == 1, "{args:?}: exit {code}\n{err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            if code == 1 {
                assert!(err.contains(": error: ") && out.is_empty(), "{args:?}: exit 1 without a message: {err}");
            } else {
                assert!(!out.is_empty(), "{args:?}: exit 0 and no output");
                rendered += 1;
            }
        }
    }
    assert!(rendered >= 150, "only {rendered} renderings succeeded");
}

#[test]
fn convert_redact_writes_the_same_format_masked_and_previews_first() {
    // Relative to the crate root, where cli() runs.
    let f = "tests/fixtures/redact/secrets.json";
    // The preview says what would be masked and writes nothing else.
    let (code, out, _) = cli(&["convert", "--redact", "--preview", f], None);
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("{f}: 13 secrets masked in 9 strings\n")), "{out}");
    assert!(out.contains("  openai-key            2 × (1 distinct)"), "{out}");
    let (_, json_out, _) = cli(&["convert", "--redact", "--preview", "--format", "json", f], None);
    let report: Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(report["report"]["stringsChanged"], 9);
    // The export: the input's own format, read back clean, no secret left.
    let (code, out, err) = cli(&["convert", "--redact", f], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("13 secrets masked"), "{err}");
    assert!(out.contains("[REDACTED:openai-key:1]") && !out.contains("sk-proj-"));
    let (code, validated, _) = cli(&["validate", "-"], Some(out.as_bytes()));
    assert_eq!(code, 0);
    assert!(validated.starts_with("-: openai (6 events, 1 run): 0 errors"), "{validated}");
    // With --to, the conversion is what gets masked; user patterns too.
    let (code, out, _) = cli(&["convert", "--to", "agentrun-json", "--redact", "--redact-literal", "write_file", "--redact-regex", r"call_(\d)", f], None);
    assert_eq!(code, 0);
    assert!(out.contains("[REDACTED:literal:1]") && !out.contains("write_file") && !out.contains("sk-ant-"));
    // Mistakes are usage errors.
    assert_eq!(cli(&["convert", "--preview", f], None).0, 2);
    assert_eq!(cli(&["convert", "--redact", "--redact-regex", "(", f], None).0, 1);
}

#[test]
fn convert_redact_keeps_an_inspect_eval_a_zip_of_its_files() {
    let f = "www/samples/inspect-arith.eval";
    let out = Command::new(env!("CARGO_BIN_EXE_agent-trace-viewer"))
        .args(["convert", "--redact", "--redact-literal", "Use the add tool", f])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("20 secrets masked"));
    // The bytes the library's redaction (the page's and the package's) gives, read back as the same log.
    let input = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(f)).unwrap();
    let options = agent_trace_viewer::redact::RedactOptions { literals: vec!["Use the add tool".to_string()], ..Default::default() };
    assert_eq!(out.stdout, agent_trace_viewer::redact::redact_input(&input, &options).unwrap().bytes);
    assert!(agent_trace_viewer::container::is_zip(&out.stdout));
    let (code, validated, _) = cli(&["validate", "-"], Some(&out.stdout));
    assert_eq!(code, 0);
    assert!(validated.starts_with("-: inspect (120 events, 4 runs): 0 errors"), "{validated}");
}

#[test]
fn diff_aligns_two_runs_turn_by_turn_with_their_deltas() {
    // Two runs of one file: the second makes one more tool call (an inserted step).
    let run = |calls: &[&str], answer: &str, score: f64| {
        let mut messages = vec![serde_json::json!({"role": "user", "content": "fix it"})];
        for (k, tool) in calls.iter().enumerate() {
            messages.push(serde_json::json!({"role": "assistant", "content": "", "tool_calls": [{"id": format!("c{k}"), "type": "function", "function": {"name": tool, "arguments": "{}"}}]}));
            messages.push(serde_json::json!({"role": "tool", "tool_call_id": format!("c{k}"), "content": format!("{tool} ok")}));
        }
        messages.push(serde_json::json!({"role": "assistant", "content": answer}));
        serde_json::json!({"messages": messages, "metadata": {"scores": {"pass": score}}}).to_string()
    };
    let input = format!("{}\n{}\n", run(&["read", "edit"], "done", 0.0), run(&["read", "grep", "edit"], "done", 1.0));
    let (code, out, err) = cli(&["diff", "-"], Some(input.as_bytes()));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[2].contains("score pass: 0.0 → 1.0"), "{out}");
    assert!(out.contains("steps: 6 same, 0 changed, 0 only left, 2 only right"), "{out}");
    let marks: String = lines.iter().skip_while(|l| !l.is_empty()).skip(1).map(|l| l.chars().next().unwrap()).collect();
    assert_eq!(marks, "   ++   ", "{out}");
    let (code, out, _) = cli(&["diff", "--format", "json", "--runs", "1,0", "-"], Some(input.as_bytes()));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["comparison"]["removed"], 2);
    assert_eq!(v["comparison"]["steps"][3]["change"], "removed");
    // A run that is not there, and wrong arguments.
    assert_eq!(cli(&["diff", "--runs", "0,5", "-"], Some(input.as_bytes())).0, 1);
    assert_eq!(cli(&["diff", "--runs", "5", "-"], Some(input.as_bytes())).0, 2);
}

#[test]
fn bundle_writes_the_viewer_and_the_traces_as_its_samples() {
    // A stand-in viewer: what bundle checks for and copies (the browser test serves a real one).
    let tmp = std::env::temp_dir().join(format!("atv-bundle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let viewer = tmp.join("viewer-src");
    std::fs::create_dir_all(viewer.join("pkg")).unwrap();
    std::fs::create_dir_all(viewer.join("samples")).unwrap();
    std::fs::write(viewer.join("index.html"), "<!doctype html>").unwrap();
    std::fs::write(viewer.join("pkg/agent_trace_viewer_bg.wasm"), b"\0asm").unwrap();
    std::fs::write(viewer.join("samples/index.json"), "[]").unwrap();
    let out = tmp.join("out");
    let (v, o) = (viewer.to_str().unwrap(), out.to_str().unwrap());
    let (code, _, err) = cli(&["bundle", "-o", o, "--viewer", v, "--redact", "tests/fixtures/redact/secrets.json", "tests/fixtures/openai/tool_output_id_matching.json"], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 traces and the viewer (13 secrets masked)"), "{err}");
    assert!(out.join("viewer/index.html").is_file() && out.join("viewer/pkg/agent_trace_viewer_bg.wasm").is_file());
    let index: Value = serde_json::from_slice(&std::fs::read(out.join("viewer/samples/index.json")).unwrap()).unwrap();
    assert_eq!(index.as_array().unwrap().len(), 2, "the viewer's own samples are replaced");
    assert_eq!(index[0]["file"], "secrets.json");
    let shared = std::fs::read_to_string(out.join("viewer/samples/secrets.json")).unwrap();
    assert!(shared.contains("[REDACTED:openai-key:1]") && !shared.contains("sk-proj-"));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("url=viewer/index.html?sample=secrets.json"), "{html}");
    // An existing, non-empty folder is refused; so is a file that is no trace.
    assert_eq!(cli(&["bundle", "-o", o, "--viewer", v, "tests/fixtures/redact/secrets.json"], None).0, 2);
    let bad = tmp.join("bad.json");
    std::fs::write(&bad, "not json").unwrap();
    assert_eq!(cli(&["bundle", "-o", tmp.join("out2").to_str().unwrap(), "--viewer", v, bad.to_str().unwrap()], None).0, 1);
    let _ = std::fs::remove_dir_all(&tmp);
}
