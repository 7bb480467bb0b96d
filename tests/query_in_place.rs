//! The first free-text query searches the source in place; later ones (after
//! `prepare_search`) the lower-cased index. Both must answer alike: here on
//! texts built to break the in-place search (escapes of letters, `\/`, the
//! Kelvin sign and dotted I, matches inside escapes, arguments written from
//! their parse), and on needles cut from every fixture of every format.

use agent_trace_viewer::query::{event_text, filter, QueryIndex};
use agent_trace_viewer::model::Trace;
use agent_trace_viewer::{parse_trace, ParseOptions};

/// The events matching `query` on a fresh index (in place) and on a
/// prepared one (the index), which must agree; both are returned.
fn first_and_later(t: &Trace, query: &str) -> (Vec<u32>, Vec<u32>) {
    let first = filter(t, query, &mut QueryIndex::default()).unwrap_or_else(|e| panic!("{query}: {e}"));
    let mut index = QueryIndex::default();
    index.prepare_search(t);
    let later = filter(t, query, &mut index).unwrap_or_else(|e| panic!("{query}: {e}"));
    (first, later)
}

/// What the query means: the events whose text, lower-cased, holds the needle.
fn brute(t: &Trace, needle: &str) -> Vec<u32> {
    let needle = needle.to_lowercase();
    (0..t.events.len()).filter(|&i| event_text(t, i).to_lowercase().contains(&needle)).map(|i| i as u32).collect()
}

fn quoted(needle: &str) -> String {
    format!("\"{needle}\"")
}

const TRICKY: &str = r#"[
{"role": "user", "content": "plain Traceback here"},
{"role": "user", "content": "esc\naped\ttrace\u0062ack and \u0054RACEBACK"},
{"role": "user", "content": "kelvin: bac\u212A1 and raw bacK, dotted: x\u0130ndex and İndex"},
{"role": "user", "content": "no escape: bacK2, zİ"},
{"role": "user", "content": "slash: src\/query and a\\nb (backslash n) and \\u0041"},
{"role": "user", "content": "split\nacross\u000Alines"},
{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "Run_Tool", "arguments": "{\"cmd\": \"ls \\u002Ftmp\", \"n\": 1e5, \"x\": NaN, \"s\": \"tr\\u0061ceback\"}"}}]},
{"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "send", "arguments": {"Key": "Va\u006Cue", "dup": 1, "dup": 2, "t": true, "big": 1.50, "txt": "line1\nline2"}}}]},
{"role": "tool", "tool_call_id": "c1", "content": "ΣΑΣ ΟΔΟΣ result of run_tool"},
{"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "part one"}, {"type": "text", "text": "Part TWO \u00e9t\u00e9"}]},
{"role": "assistant", "tool_calls": "oops"},
{"role": "system", "content": {"structured": "Value", "n": [1, 2]}},
{"role": "system", "content": {"json": "bac\u212A3 and x\u0130ndex, raw bacK4 and zİ"}},
{"role": "system", "content": {"esc": "x\traceback"}},
{"role": "system", "content": {"esc": "\u001bumble"}}
]"#;

/// A trace whose texts are written out for the search (markers): Claude
/// Code `system` records, with the same traps.
const MARKERS: &str = r#"{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:00.000Z"}
{"type":"system","subtype":"note","content":"kelvin bac\u212A5 and raw bacK6, dotted x\u0130ndex and İndex","uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:01.000Z"}
{"type":"system","subtype":"note","content":"plain TRACEBACK","uuid":"u3","parentUuid":"u2","sessionId":"s","timestamp":"2025-01-01T00:00:02.000Z"}
{"type":"progress","data":{"type":"hook","note":"bac\u212A7 and Tab\there","n":12345},"uuid":"u4","parentUuid":"u3","sessionId":"s","timestamp":"2025-01-01T00:00:03.000Z"}
{"type":"custom-title","customTitle":"Title with TRACEBACK","sessionId":"s"}
"#;

#[test]
fn written_texts_agree_with_the_index() {
    let t = parse_trace(MARKERS.as_bytes().to_vec(), &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "claude-code");
    for needle in ["back", "back5", "back6", "back7", "bac", "k", "xi", "index", "ndex", "i", "traceback", "note", "kelvin", "xyz", "hook", "tab", "there", "tab\\there", "12345", "title", "=", "custom"] {
        let q = quoted(needle);
        let (first, later) = first_and_later(&t, &q);
        assert_eq!(first, later, "{q}: in place vs index");
        assert_eq!(first, brute(&t, needle), "{q}: vs the definition");
    }
    assert_eq!(first_and_later(&t, "back5").0, vec![1], "the Kelvin sign lowers to k");
    assert_eq!(first_and_later(&t, "xi").0, vec![1]);
    assert_eq!(first_and_later(&t, "back7").0, vec![3], "the Kelvin sign in a key-value event's JSON");
    assert_eq!(first_and_later(&t, "traceback").0, vec![2, 4]);
}

#[test]
fn tricky_texts_agree_with_the_index() {
    let t = parse_trace(TRICKY.as_bytes().to_vec(), &ParseOptions::default()).unwrap();
    let needles = [
        "traceback", "TRACEBACK", "raceb", "trace", "nab", "aped", "atrace", "ntrace", "back", "bac", "back and", "k", "bak", "kelvin", "back1", "back2", "xi", "zi",
        "index", "ndex", "i", "src/query", "/query", "/", "/tmp", "ls /tmp", "u002f", "002f", "u0041", "nb", "a\\nb", "split", "lines",
        "acrosslines", "run_tool", "run", "tool", "cmd", "1e5", "100000", "nan", "null", "value", "key", "dup", "dup\":2", "true", "1.50",
        "1.5", "line1", "nline2", "n", "ς", "σας", "οδος", "part", "one", "two", "été", "ete", "structured", "\"structured\"", "oops", "u",
        "e", "a", " ", "-", "xyz", "back3", "back4", "json", "xtrace", "bumble", "umble", "esc",
    ];
    for needle in needles {
        let q = quoted(&needle.replace('"', ""));
        let (first, later) = first_and_later(&t, &q);
        assert_eq!(first, later, "{q}: in place vs index");
        if !needle.contains('"') {
            assert_eq!(first, brute(&t, needle), "{q}: vs the definition");
        }
    }
    // Spot checks of what the texts hold.
    assert_eq!(first_and_later(&t, "back").0, vec![0, 1, 2, 3, 4, 6, 12, 13]);
    assert_eq!(first_and_later(&t, "index").0, Vec::<u32>::new(), "İ lowers to i and a combining dot");
    assert_eq!(first_and_later(&t, "back1").0, vec![2]);
    assert_eq!(first_and_later(&t, "back2").0, vec![3]);
    assert_eq!(first_and_later(&t, "xi").0, vec![2, 12]);
    assert_eq!(first_and_later(&t, "zi").0, vec![3, 12]);
    assert_eq!(first_and_later(&t, "src/query").0, vec![4]);
    assert_eq!(first_and_later(&t, "value").0, vec![7, 11]);
    assert_eq!(first_and_later(&t, "back3").0, vec![12], "the Kelvin sign in written JSON");
    assert_eq!(first_and_later(&t, "traceback").0, vec![0, 1, 6, 13], "`\\t` then `raceback`, written out");
    assert_eq!(first_and_later(&t, "bumble").0, vec![14], "`\\u001b` then `umble`, written out");
}

/// Arguments the format parses itself (Claude Code's `input`): looked at
/// string by string, and written when a string holds what JSON escapes.
#[test]
fn parsed_arguments_agree_with_the_index() {
    let line = |id: &str, input: &str| {
        format!(
            r#"{{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"11111111-2222-4333-8444-555555555555","version":"2.1.39","message":{{"model":"m","id":"msg_{id}","type":"message","role":"assistant","content":[{{"type":"tool_use","id":"toolu_{id}","name":"Bash","input":{input}}}],"stop_reason":null,"stop_sequence":null}},"type":"assistant","timestamp":"2025-10-09T08:54:16.296Z","uuid":"{id}"}}"#
        )
    };
    let jsonl = [
        line("a1", r#"{"command": "line1\nline2", "n": 1.50}"#),
        line("a2", r#"{"command": "say \"hi\" to\tme", "flag": true, "nested": {"Deep": [null, "K"]}}"#),
        line("a3", r#"{"command": "plain words only"}"#),
    ]
    .join("\n");
    let t = parse_trace(jsonl.into_bytes(), &ParseOptions::default()).unwrap();
    assert!(t.events.len() >= 3, "{} events", t.events.len());
    for needle in ["nline2", "line1", "say", "hi", "tme", "tto", "true", "deep", "null", "1.50", "words", "bash", "command", "deepk", "k", "xyz"] {
        let (first, later) = first_and_later(&t, &quoted(needle));
        assert_eq!(first, later, "{needle}");
        assert_eq!(first, brute(&t, needle), "{needle}");
    }
    assert_eq!(first_and_later(&t, "nline2").0.len(), 1, "the newline is written as \\n");
    assert_eq!(first_and_later(&t, "tme").0.len(), 1, "the tab is written as \\t");
}

/// Needles cut from every event's text in every fixture (every format),
/// in mixed case: the in-place search finds what the index finds.
#[test]
fn needles_from_every_fixture_agree_with_the_index() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (mut files, mut checked) = (0, 0);
    // Every file under the fixtures, folders within folders too.
    let mut paths = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                paths.push(path);
            }
        }
    }
    paths.sort();
    {
        for path in paths {
            let Ok(t) = parse_trace(std::fs::read(&path).unwrap(), &ParseOptions::default()) else { continue };
            if t.events.is_empty() {
                continue;
            }
            files += 1;
            for _ in 0..6 {
                let text = event_text(&t, next(t.events.len()));
                let chars: Vec<char> = text.chars().collect();
                if chars.is_empty() {
                    continue;
                }
                let start = next(chars.len());
                let len = 1 + next(12);
                let needle: String = chars
                    .iter()
                    .skip(start)
                    .take(len)
                    .enumerate()
                    .map(|(i, c)| if i % 2 == 0 { c.to_uppercase().next().unwrap_or(*c) } else { *c })
                    .filter(|c| *c != '"' && !c.is_whitespace())
                    .collect();
                if needle.is_empty() {
                    continue;
                }
                let q = quoted(&needle);
                let (first, later) = first_and_later(&t, &q);
                assert_eq!(first, later, "{}: {q}", path.display());
                checked += 1;
            }
        }
    }
    assert!(files > 100 && checked > 500, "{files} files, {checked} needles");
}

/// A key-value event's text is its key and the head of its value's JSON, on
/// one line and cut; the in-place search looks only that far into the value
/// (a mirrored tool output can be megabytes). Needles placed as far into the
/// value as the line can still show them, and past it: wide characters and
/// runs of spaces (which the line collapses), in strings, arrays and keys.
#[test]
fn a_key_values_head_agrees_with_the_index() {
    let wide = format!("\u{1F600}{}", " ".repeat(14));
    let mut lines = Vec::new();
    for n in (0..70).step_by(3) {
        let datas = [
            serde_json::json!({ "type": "hook", "a": format!("{}TraceBack", wide.repeat(n)) }),
            serde_json::json!({ "type": "hook", "l": vec![wide.clone(); n], "z": "traceback" }),
            serde_json::json!({ "type": "hook", "n": vec![1.5e300; n], "x\tracebacK": 1 }),
            serde_json::json!({ "type": "hook", "o": { "p": [{ "q": wide.repeat(n / 3) }], "r": "tab\traceback \u{212A}" } }),
        ];
        for data in datas {
            let i = lines.len();
            lines.push(format!(r#"{{"type":"progress","uuid":"u{i}","sessionId":"s","timestamp":"2025-01-01T00:00:00.000Z","data":{data}}}"#));
        }
    }
    let t = parse_trace(lines.join("\n").into_bytes(), &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "claude-code");
    for needle in ["traceback", "Tab", "raceback", "back", "bac", "hook", "= {", "xyz"] {
        let q = quoted(needle);
        let (first, later) = first_and_later(&t, &q);
        assert_eq!(first, later, "{q}: in place vs index");
        assert_eq!(first, brute(&t, needle), "{q}: vs the definition");
        if needle == "traceback" {
            // Near and far: some values show the needle, some hide it past the cut.
            assert!(first.len() > 10 && first.len() + 10 < t.events.len(), "{} of {}", first.len(), t.events.len());
        }
    }
}

/// JSON content and arguments left in the source (AgentLens's input and
/// output data, OpenAI's object arguments): a word found in their bytes
/// outside an escape is taken as found without writing them, unless an
/// object repeats a key (the parse keeps its last value only).
const IN_SOURCE: &str = r#"{"event_id": "e0", "session_id": "a", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:00Z", "output_data": {"response": "a Traceback here"}}
{"event_id": "e1", "session_id": "a", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:01Z", "output_data": {"response": "shadowed traceback", "response": "kept"}}
{"event_id": "e2", "session_id": "a", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:02Z", "output_data": {"r": {"n": "inner TRACEBACK", "n": 2}, "s": "kept"}}
{"event_id": "e3", "session_id": "a", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:03Z", "output_data": {"r": "tr\u0061ceback and \u0074raceback"}}
{"event_id": "e4", "session_id": "a", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:04Z", "output_data": {"traceback": 1, "\u0074raceback": 2}}
{"event_id": "e5", "session_id": "a", "event_type": "llm_call", "timestamp": "2025-03-01T10:00:05Z", "output_data": {"r": "x\traceback", "traceback2": [true, null, 1e5]}}
"#;

#[test]
fn json_in_the_source_agrees_with_the_index() {
    let t = parse_trace(IN_SOURCE.as_bytes().to_vec(), &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "agentlens");
    for needle in ["traceback", "TraceBack", "shadowed", "inner", "kept", "response", "raceback", "traceback2", "true", "null", "xtraceback", "e5", "1e5", "tr"] {
        let q = quoted(needle);
        let (first, later) = first_and_later(&t, &q);
        assert_eq!(first, later, "{q}: in place vs index");
        assert_eq!(first, brute(&t, needle), "{q}: vs the definition");
    }
    let (traceback, _) = first_and_later(&t, "traceback");
    let with = |s: &str| (0..t.events.len()).filter(|&i| event_text(&t, i).contains(s)).map(|i| i as u32).collect::<Vec<_>>();
    assert!(!traceback.is_empty() && traceback == brute(&t, "traceback"));
    assert!(first_and_later(&t, "shadowed").0.is_empty(), "a repeated key's earlier value is not read");
    assert!(first_and_later(&t, "inner").0.is_empty(), "nor in a nested object");
    assert_eq!(first_and_later(&t, "kept").0, with("kept"));
}

/// Codex shell outputs left in the source escaped twice (a JSON document in
/// a string): escapes of either string may hide a letter.
const SHELL: &str = r#"{"timestamp":"2025-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s1","originator":"codex_cli_rs","cli_version":"0.46.0"}}
{"timestamp":"2025-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}
{"timestamp":"2025-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"plain Traceback, esc\\naped\\ttrace\\u0062ack \\u0054RACEBACK \u0074raceback bac\\u212A1 x\\u0130ndex \u00e9t\u00e9 a\\\\nb \\\"q\\\" src\\/query\",\"metadata\":{\"exit_code\":0}}"}}
{"timestamp":"2025-01-01T00:00:03.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c2"}}
{"timestamp":"2025-01-01T00:00:04.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"{\"output\":\"nothing here but n and u0041\",\"metadata\":{\"exit_code\":1}}"}}
"#;

#[test]
fn twice_encoded_shell_outputs_agree_with_the_index() {
    let t = parse_trace(SHELL.as_bytes().to_vec(), &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "codex");
    let needles = [
        "traceback", "TRACEBACK", "raceb", "back", "k", "nab", "aped", "naped", "ttrace", "atrace", "ntrace", "back1", "xi", "index", "été", "ete", "a\\nb", "nb", "q",
        "src/query", "/query", "u0062", "u0041", "0041", "n", "u", "plain", "nothing", "exit_code", "metadata", "output",
    ];
    for needle in needles {
        let q = quoted(needle);
        let (first, later) = first_and_later(&t, &q);
        assert_eq!(first, later, "{q}: in place vs index");
        assert_eq!(first, brute(&t, needle), "{q}: vs the definition");
    }
    assert_eq!(first_and_later(&t, "traceback").0, vec![2]);
    assert_eq!(first_and_later(&t, "back1").0, vec![2], "the Kelvin sign, escaped in the document");
}
