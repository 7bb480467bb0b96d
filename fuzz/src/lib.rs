//! What every fuzz target does with a parsed trace: walk every view the UI
//! and the wasm API can ask for, and check the invariants the rest of the
//! code relies on (ranges inside the source, links to existing events).
//! A panic here or in the library is a finding.

use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::{parse_files, parse_trace, ParseOptions, ParseError};

/// Inputs larger than this are cut: libFuzzer's default is 4 KiB and larger
/// inputs only slow the run down without reaching new code.
pub const MAX_INPUT: usize = 64 * 1024;

/// The format the first byte picks from the registry, and the rest of the input.
pub fn pick_format(data: &[u8]) -> Option<(&'static str, &[u8])> {
    let (first, rest) = data.split_first()?;
    let ids = agent_trace_viewer::format_ids();
    let format = ids.get(usize::from(*first) % ids.len().max(1))?;
    Some((format, rest))
}

pub fn parse_forced(data: &[u8], format: &str) {
    let options = ParseOptions { format: Some(format.to_string()), ..Default::default() };
    check_result(parse_trace(data.to_vec(), &options));
}

/// Parses `data` with the fast paths and with `exact_only`: both must give
/// the same runs, events, diagnostics and metadata (or the same error). A
/// difference is a finding: a fast path read a record differently from the
/// exact path it stands in for.
pub fn fast_equals_exact(data: &[u8], format: Option<&str>) {
    let options = |exact_only| ParseOptions { format: format.map(str::to_string), exact_only, ..Default::default() };
    let fast = parse_trace(data.to_vec(), &options(false));
    let exact = parse_trace(data.to_vec(), &options(true));
    match (&fast, &exact) {
        (Ok(a), Ok(b)) => {
            let model = |t: &Trace| format!("{:#?}", (t.format, t.layout, &t.detection, &t.runs, &t.events, &t.diagnostics, &t.metadata));
            let (a, b) = (model(a), model(b));
            if a != b {
                let line = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
                panic!("fast and exact paths differ at line {line}:\n--- fast\n{}\n--- exact\n{}", a.lines().skip(line.saturating_sub(5)).take(10).collect::<Vec<_>>().join("\n"), b.lines().skip(line.saturating_sub(5)).take(10).collect::<Vec<_>>().join("\n"));
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "the two paths fail differently"),
        _ => panic!("one path fails: fast {:?}, exact {:?}", fast.as_ref().err().map(|e| e.to_string()), exact.as_ref().err().map(|e| e.to_string())),
    }
    check_result(fast);
}

pub fn parse_detected(data: &[u8]) {
    check_result(parse_trace(data.to_vec(), &ParseOptions::default()));
}

/// Splits the input into files at `\xFF\x00` (a byte pair that is never
/// UTF-8, so seeds of single files stay whole) and names them like an
/// OpenHands conversation folder, numbered backwards so ordering matters.
pub fn parse_as_files(data: &[u8]) {
    let parts: Vec<&[u8]> = split_on(data, b"\xFF\x00");
    let n = parts.len();
    let files: Vec<(String, Vec<u8>)> = parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let name = match p.first() {
                Some(b'b') if i == 0 => "base_state.json".to_string(),
                Some(b'x') => format!("notes-{i}.json"),
                _ => format!("events/event-{:05}-id{i}.json", n - i),
            };
            (name, p.to_vec())
        })
        .collect();
    check_result(parse_files(files, &ParseOptions::default()));
}

pub fn split_on<'a>(data: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(at) = rest.windows(sep.len()).position(|w| w == sep) {
        out.push(rest.get(..at).unwrap_or(&[]));
        rest = rest.get(at + sep.len()..).unwrap_or(&[]);
    }
    out.push(rest);
    out
}

pub fn check_result(result: Result<Trace, ParseError>) {
    match result {
        Ok(trace) => check_trace(&trace),
        Err(e) => assert!(!e.to_string().is_empty(), "a parse error without a message"),
    }
}

/// Walks every view of the trace and checks the model's invariants.
pub fn check_trace(t: &Trace) {
    let len = t.source.len();
    let events = t.events.len();
    for (i, e) in t.events.iter().enumerate() {
        assert!(e.raw.start <= e.raw.end && e.raw.end <= len, "event {i}: raw {:?} outside the source ({len})", e.raw);
        assert!((e.run as usize) < t.runs.len(), "event {i}: run {} of {}", e.run, t.runs.len());
        assert!(t.event_position(i).is_some_and(|p| p.line >= 1), "event {i}: line 0");
        match &e.body {
            EventBody::Message(m) => {
                for c in &m.tool_calls {
                    if let Some(r) = c.result {
                        assert!((r as usize) < events, "event {i}: call result {r} of {events}");
                    }
                }
            }
            EventBody::ToolCall(c) => {
                if let Some(r) = c.result {
                    assert!((r as usize) < events, "event {i}: call result {r} of {events}");
                }
            }
            EventBody::ToolResult(r) => {
                if let Some(call) = r.call {
                    assert!(t.call(call).is_some(), "event {i}: links to a missing call {call:?}");
                }
            }
            _ => {}
        }
        let _ = t.raw_json(i);
        let _ = agent_trace_viewer::query::event_text(t, i);
        let _ = agent_trace_viewer::view::summary(t, e);
    }
    for run in &t.runs {
        for tr in &run.transcripts {
            assert!(tr.events.start <= tr.events.end && tr.events.end as usize <= events, "transcript {:?} of {events}", tr.events);
        }
    }
    for d in &t.diagnostics {
        assert!(d.offset <= len, "diagnostic {} at {} past the end ({len})", d.code, d.offset);
        assert!(d.line >= 1 && d.column >= 1, "diagnostic {} at {}:{}", d.code, d.line, d.column);
        if let Some(ev) = d.event {
            assert!((ev as usize) < events, "diagnostic {} names event {ev} of {events}", d.code);
        }
        assert!(!d.message.is_empty(), "diagnostic {} without a message", d.code);
    }
    let counts = agent_trace_viewer::view::diagnostic_counts(t);
    let rows: Vec<_> = (0..events)
        .map(|i| agent_trace_viewer::view::event_view(t, i, counts.get(i).copied().unwrap_or((0, 0))))
        .collect();
    assert!(rows.iter().all(Option::is_some), "an event without a row");
    // The wasm layer hands these to JS as JSON text.
    assert!(serde_json::to_string(&rows).is_ok());
    assert!(serde_json::to_string(&t.diagnostics).is_ok());
    assert!(serde_json::to_string(&t.metadata).is_ok());
    assert!(serde_json::to_string(&t.detection).is_ok());
    let _ = agent_trace_viewer::analysis::spans::span_tree(t);
    for run in 0..t.runs.len().min(64) {
        let run = run as u32;
        let _ = serde_json::to_string(&agent_trace_viewer::import::openhands::views::condensed_view(t, run));
        let _ = serde_json::to_string(&agent_trace_viewer::import::openhands::views::llm_messages(t, run));
    }
    // Nothing lost: every value of the input is reachable from the trace.
    let lost = agent_trace_viewer::integrity::lost_values(t);
    assert!(lost.is_empty(), "values lost: {lost:?}");
    let _ = t.tool_call_count();
    let _ = t.linked_result_count();
}

/// cl100k_base, the tokenizer Docent counts with.
struct Cl100k;

impl agent_trace_viewer::render::Tokenizer for Cl100k {
    fn encode(&self, text: &str) -> Vec<u32> {
        atv_tokenizer::encode(text)
    }
    fn decode(&self, tokens: &[u32]) -> String {
        atv_tokenizer::decode(tokens)
    }
}

/// Renders every run of whatever `data` parses to (formats detected). A
/// render error must carry a message; chunks must not lose text.
pub fn render_all(data: &[u8], style: agent_trace_viewer::render::Style, token_limit: Option<i64>) {
    use agent_trace_viewer::render::{agent_run_text, TextOptions};
    let Ok(trace) = parse_trace(data.to_vec(), &ParseOptions::default()) else { return };
    for run in 0..trace.runs.len().min(4) {
        let whole = TextOptions { style, token_limit: None, run, ..TextOptions::default() };
        let text = match agent_run_text(&trace, &whole, None) {
            Ok(chunks) => chunks.concat(),
            Err(e) => {
                assert!(!e.message.is_empty(), "a render error without a message");
                continue;
            }
        };
        if let Some(limit) = token_limit {
            let split = TextOptions { token_limit, ..whole };
            match agent_run_text(&trace, &split, Some(&Cl100k)) {
                // No chunks at all is not a failure: docent-python returns none
                // when the only transcript has no messages and the limit is under
                // its 50-token margin (golden: empty-transcript-older). But a run
                // that fits is the whole text, once, and no chunk is empty.
                Ok(chunks) => {
                    assert!(chunks.iter().all(|c| !c.is_empty()), "an empty chunk");
                    // 8 tokens of slack: counting the parts apart can differ from the whole by a few.
                    if atv_tokenizer::encode(&text).len() as i64 + 8 <= limit {
                        assert_eq!(chunks, vec![text.clone()], "a run that fits the limit, split");
                    }
                }
                Err(e) => assert!(!e.message.is_empty(), "a render error without a message"),
            }
        }
    }
}

/// The current style under a context config built from `mask`'s bits.
pub fn render_current(data: &[u8], mask: u8) {
    use agent_trace_viewer::render::{agent_run_text, ContextConfig, Style, TextOptions};
    let Ok(trace) = parse_trace(data.to_vec(), &ParseOptions::default()) else { return };
    let include = |bit: u8| if mask & bit != 0 { serde_json::json!({ "include": ["*"], "exclude": ["*.secret", "a.*.b"] }) } else { serde_json::json!({ "include": [], "exclude": ["*"] }) };
    let config = serde_json::json!({
        "type": "agent_run",
        "agent_run_metadata": include(1),
        "transcript_metadata": include(2),
        "message_metadata": include(4),
        "transcript_group_metadata": include(8),
        "transcript_names": if mask & 16 != 0 { serde_json::json!({ "include": ["t*", "[!x]?"], "exclude": [] }) } else { serde_json::json!({}) },
    });
    let Ok(context) = ContextConfig::from_json(&config) else { panic!("the fuzz target's own context config is rejected") };
    for run in 0..trace.runs.len().min(4) {
        let options = TextOptions { style: Style::Current, token_limit: None, context: context.clone(), run };
        if let Err(e) = agent_run_text(&trace, &options, None) {
            assert!(!e.message.is_empty(), "a render error without a message");
        }
    }
}

/// PyYAML's dump, Python's str/repr and json.dumps of the bytes as JSON.
pub fn render_values(data: &[u8]) {
    use agent_trace_viewer::agentrun::py;
    use agent_trace_viewer::render::{pyjson, yaml};
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let v = py::Py::from_json(&value);
    let _ = yaml::dump(&v);
    let _ = py::repr(&v);
    let _ = py::py_str(&v);
    let _ = pyjson::dumps_indent2(&v);
}
