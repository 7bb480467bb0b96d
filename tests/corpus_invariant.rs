//! Every file of the real-world Invariant corpus loads without a panic, and
//! selected files give the counts computed independently (by a Python script
//! over the raw JSON, see the numbers' comments).

mod common;

use agent_trace_viewer::model::EventBody;
use common::{corpus_dir, corpus_files, parse};

#[test]
fn every_invariant_corpus_file_loads() {
    for path in corpus_files("invariant") {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let result = agent_trace_viewer::parse_trace(bytes, &Default::default());
        if name.ends_with("playground-examples.json") {
            // Explorer's playground list ({name, description, policy, input}) is not a trace.
            let e = result.expect_err("not a trace");
            assert!(e.to_string().contains("not a supported trace format"), "{e}");
            let m = e.to_string();
            assert!(m.contains("`input`") && m.contains("`policy`"), "{m}");
            continue;
        }
        let trace = result.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(trace.format, "openai", "{name}");
        assert!(!trace.events.is_empty(), "{name}: no events");
        // Every event's raw bytes are valid slices of the source.
        for e in &trace.events {
            assert!(trace.source.get(e.raw.clone()).is_some(), "{name}: bad raw range");
        }
    }
}

struct Expect {
    file: &'static str,
    runs: usize,
    events: usize,
    calls: usize,
    linked: usize,
}

/// Counts from an independent Python pass over each file (json.loads, one run
/// per trace; a result is linked when its tool_call_id names an earlier call,
/// or it has none and a call came before it in the trace).
const EXPECTED: &[Expect] = &[
    Expect { file: "invariantlabs-ai__testing__demo__swarm_agentic_rag__trace_fixed.json", runs: 1, events: 8, calls: 3, linked: 3 },
    Expect { file: "invariantlabs-ai__faithful_simulation__traces__trace_20250902_121058.json", runs: 1, events: 44, calls: 28, linked: 28 },
    Expect { file: "invariantlabs-ai__explorer__tests__data__webarena.jsonl", runs: 2, events: 29, calls: 9, linked: 7 },
    Expect { file: "invariantlabs-ai__explorer__app-api__assets__sample_data.jsonl", runs: 3, events: 17, calls: 6, linked: 5 },
    Expect { file: "invariantlabs-ai__invariant__invariant__agent-datasets__agent_instruct_kg.json", runs: 324, events: 9746, calls: 4465, linked: 4225 },
    Expect { file: "invariantlabs-ai__invariant__invariant__agent-datasets__agent_instruct_os.json", runs: 195, events: 2672, calls: 1336, linked: 1141 },
];

#[test]
fn counts_match_an_independent_count() {
    for x in EXPECTED {
        let bytes = std::fs::read(corpus_dir().join("invariant").join(x.file)).unwrap();
        let t = parse(&bytes);
        assert_eq!(t.runs.len(), x.runs, "{}: runs", x.file);
        assert_eq!(t.events.len(), x.events, "{}: events", x.file);
        assert_eq!(t.tool_call_count(), x.calls, "{}: calls", x.file);
        assert_eq!(t.linked_result_count(), x.linked, "{}: linked results", x.file);
    }
}

#[test]
fn links_go_both_ways() {
    let bytes = std::fs::read(corpus_dir().join("invariant/invariantlabs-ai__faithful_simulation__traces__trace_20250902_121058.json")).unwrap();
    let t = parse(&bytes);
    let mut checked = 0;
    for (i, e) in t.events.iter().enumerate() {
        if let EventBody::ToolResult(r) = &e.body {
            let cref = r.call.expect("linked");
            let call = t.call(cref).expect("call exists");
            assert_eq!(call.result, Some(i as u32), "call {cref:?} points back at its result");
            assert_eq!(call.id, r.call_id, "ids agree");
            checked += 1;
        }
    }
    assert_eq!(checked, 28);
}

#[test]
fn explorer_dataset_metadata_line_is_file_metadata() {
    let bytes = std::fs::read(corpus_dir().join("invariant/invariantlabs-ai__explorer__tests__data__code.jsonl")).unwrap();
    let t = parse(&bytes);
    assert!(t.metadata.contains_key("description"), "{:?}", t.metadata);
    assert_eq!(t.runs.len(), 1);
}

/// Docent's bundled tau-bench sample holds an OpenAI message list under
/// `traj`: counts from the corpus INDEX (system 1, user 9, assistant 20,
/// tool 12; 12 tool calls).
#[test]
fn tau_bench_traj_in_the_docent_folder_loads_as_openai() {
    let bytes = std::fs::read(corpus_dir().join("docent/TransluceAI__docent__docent__docent__samples__tb_airline.json")).unwrap();
    let t = parse(&bytes);
    assert_eq!(t.format, "openai");
    assert_eq!(t.events.len(), 42);
    assert_eq!(t.tool_call_count(), 12);
    assert_eq!(t.linked_result_count(), 12);
    assert!(t.runs[0].metadata.contains_key("reward"));
}
