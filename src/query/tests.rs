//! Every form of the query language and every error it reports.

use super::*;
use super::index::{push_lowercase, EventTexts};
use super::syntax::build_regex;
use crate::analysis::time::parse_instant;
use crate::diagnostic::Severity;
use crate::model::{EventBody, SpanEvent, SpanPhase};
use crate::{parse_trace, ParseOptions};

/// A small trace exercising every field: roles, tools, an error result, a
/// malformed record, timestamps (one with an offset, one broken, one missing).
const TRACE: &str = r#"[
{"role": "system", "content": "You are a helpful agent.", "timestamp": "2024-05-01T10:00:00Z"},
{"role": "user", "content": "What's the weather in Paris? (quickly)", "timestamp": "2024-05-01T10:00:05Z"},
{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}], "timestamp": "2024-05-01T10:00:06Z"},
{"role": "tool", "tool_call_id": "c1", "content": "Sunny, 21 C", "timestamp": "2024-05-01T10:00:07.500Z"},
{"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "send_email", "arguments": {"to": "bob@example.com", "body": "It is sunny"}}}]},
{"role": "tool", "tool_call_id": "c2", "content": "SMTP failure", "error": "timeout", "timestamp": "yesterday"},
{"role": "assistant", "content": "Done. The Weather is SUNNY.", "timestamp": "2024-05-01T12:00:08+02:00"},
{"role": "assistant", "tool_calls": "oops"}
]"#;

fn trace() -> Trace {
    parse_trace(TRACE.as_bytes().to_vec(), &ParseOptions::default()).unwrap()
}

fn q(query: &str) -> Vec<u32> {
    let t = trace();
    filter(&t, query, &mut QueryIndex::default()).unwrap_or_else(|e| panic!("{query}: {e}"))
}

fn e(query: &str) -> QueryError {
    check(query).expect_err(query)
}

#[test]
fn empty_query_matches_everything() {
    assert_eq!(q(""), (0..8).collect::<Vec<_>>());
    assert_eq!(q("   "), (0..8).collect::<Vec<_>>());
}

#[test]
fn role_and_kind() {
    assert_eq!(q("role:assistant"), vec![2, 4, 6, 7]);
    assert_eq!(q("role:ASSISTANT"), vec![2, 4, 6, 7]);
    assert_eq!(q("role:tool"), vec![3, 5]);
    assert_eq!(q("kind:tool-result"), vec![3, 5]);
    // The format's own record kind works too.
    assert_eq!(q("kind:ToolOutput"), vec![3, 5]);
    assert_eq!(q("kind:message role:system"), vec![0]);
}

#[test]
fn tool_matches_calls_and_their_results() {
    assert_eq!(q("tool:get_weather"), vec![2, 3]);
    assert_eq!(q("tool:send_email"), vec![4, 5]);
    assert_eq!(q("tool:nope"), Vec::<u32>::new());
    assert_eq!(q(r#"tool:"get_weather""#), vec![2, 3]);
}

#[test]
fn is_and_has() {
    // 5: a tool result with an error status; 7: a record with an error diagnostic.
    assert_eq!(q("is:error"), vec![5, 7]);
    assert_eq!(q("has:tool_calls"), vec![2, 4]);
    assert_eq!(q("has:tool-calls"), vec![2, 4]);
    let t = trace();
    let warned: Vec<u32> =
        t.diagnostics.iter().filter(|d| d.severity == Severity::Warning).filter_map(|d| d.event).collect();
    let got = filter(&t, "is:warning", &mut QueryIndex::default()).unwrap();
    assert_eq!(got.is_empty(), warned.is_empty());
    assert!(warned.iter().all(|w| got.contains(w)));
}

#[test]
fn free_text_phrase_and_regex() {
    // Case-insensitive over content, tool names, arguments and results.
    assert_eq!(q("sunny"), vec![3, 4, 6]);
    assert_eq!(q("paris"), vec![1, 2]);
    assert_eq!(q("bob@example.com"), vec![4]);
    assert_eq!(q("get_weather"), vec![2, 3]);
    assert_eq!(q(r#""weather is sunny""#), vec![6]);
    assert_eq!(q(r#""weather in""#), vec![1]);
    assert_eq!(q(r#"text:"smtp""#), vec![5]);
    // Escaped quotes inside a phrase.
    assert_eq!(q(r#""\"city\":\"paris\"""#), vec![2]);
    assert_eq!(q("/sun+y/"), vec![3, 4, 6]);
    assert_eq!(q(r"/\d+ C$/"), vec![3]);
    assert_eq!(q("/(?-i)SUNNY/"), vec![6]);
    assert_eq!(q(r"/bob@\w+\.com/"), vec![4]);
    // `\/` is a slash inside a regex.
    assert_eq!(trace().events.len(), 8);
    assert!(q(r"/a\/b/").is_empty());
    // A URL is text, not a field.
    assert!(q("http://x").is_empty());
}

#[test]
fn timestamps_compare_as_instants() {
    // 6 is 12:00:08+02:00 = 10:00:08Z: after 10:00:07.5Z although its text sorts later.
    assert_eq!(q("after:2024-05-01T10:00:07Z"), vec![3, 6]);
    assert_eq!(q("after:2024-05-01T10:00:07.500Z"), vec![6]);
    assert_eq!(q("before:2024-05-01T10:00:06Z"), vec![0, 1]);
    assert_eq!(q("after:2024-05-01T12:00:07+02:00 before:2024-05-01T10:00:09Z"), vec![3, 6]);
    // A date is its midnight UTC; a time without a zone is UTC.
    assert_eq!(q("after:2024-05-01"), vec![0, 1, 2, 3, 6]);
    assert_eq!(q(r#"before:"2024-05-01 10:00:01""#), vec![0]);
    // Events without a (readable) timestamp never match, negated they do.
    assert!(!q("after:2000-01-01").contains(&4));
    assert!(!q("after:2000-01-01").contains(&5));
    assert_eq!(q("-after:2000-01-01"), vec![4, 5, 7]);
}

#[test]
fn negation_or_and_groups() {
    assert_eq!(q("-role:assistant"), vec![0, 1, 3, 5]);
    assert_eq!(q("role:tool OR role:system"), vec![0, 3, 5]);
    // AND binds tighter than OR.
    assert_eq!(q("role:tool sunny OR role:system"), vec![0, 3]);
    assert_eq!(q("role:tool (sunny OR smtp)"), vec![3, 5]);
    assert_eq!(q("-(role:tool OR role:assistant)"), vec![0, 1]);
    assert_eq!(q("(role:tool)"), vec![3, 5]);
    assert_eq!(q("((role:tool) OR (tool:get_weather -role:tool))"), vec![2, 3, 5]);
    assert_eq!(q("--role:tool"), vec![3, 5]);
    // `or` in lower case is a word, not the operator.
    assert!(q("role:tool or role:system").is_empty());
    // A `)` closing a `(` of the word is part of it.
    assert_eq!(q("paris?"), vec![1]);
    assert!(q("f(x)").is_empty());
    assert!(q("tool:f(x)").is_empty());
    assert_eq!(q(r#"role:"(""#), Vec::<u32>::new());
    assert_eq!(q("(quickly)"), vec![1]);
    assert_eq!(q(r#""(quickly)""#), vec![1]);
}

#[test]
fn span_paths_from_span_events() {
    let mut t = trace();
    let span = |name: &[&str], phase| EventBody::Span(SpanEvent { name: name.iter().map(|s| s.to_string()).collect(), phase });
    t.events[1].body = span(&["agent"], SpanPhase::Begin);
    t.events[2].body = span(&["agent", "task"], SpanPhase::Begin);
    t.events[4].body = span(&["agent", "task"], SpanPhase::End);
    t.events[6].body = span(&["agent"], SpanPhase::End);
    let f = |query: &str| filter(&t, query, &mut QueryIndex::default()).unwrap();
    assert_eq!(f("span:agent/task"), vec![2, 3, 4]);
    assert_eq!(f("span:agent"), vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(f("span:agent/"), vec![1, 2, 3, 4, 5, 6]);
    // Segments, not characters.
    assert!(f("span:age").is_empty());
    assert_eq!(f("-span:agent"), vec![0, 7]);
}

#[test]
fn facets_count_matches() {
    let t = trace();
    let all = filter(&t, "", &mut QueryIndex::default()).unwrap();
    let f = facets(&t, &all);
    assert_eq!(f.total, 8);
    assert_eq!(f.role.get("assistant"), Some(&4));
    assert_eq!(f.role.get("tool"), Some(&2));
    assert_eq!(f.kind.get("message"), Some(&6));
    assert_eq!(f.tool.get("get_weather"), Some(&2));
    assert_eq!(f.source_kind.get("ToolOutput"), Some(&2));
    let m = filter(&t, "role:tool", &mut QueryIndex::default()).unwrap();
    let f = facets(&t, &m);
    assert_eq!(f.total, 2);
    assert_eq!(f.role.len(), 1);
    assert_eq!(f.tool.get("send_email"), Some(&1));
}

#[test]
fn errors_name_what_and_where() {
    let cases: &[(&str, usize, &str)] = &[
        ("role:user bogus:x", 11, "unknown field `bogus:`"),
        (r#"a "open"#, 3, "unterminated phrase"),
        ("role:", 6, "`role:` needs a value"),
        (r#"role:"""#, 6, "`role:` needs a value"),
        ("x - y", 3, "`-` must be followed by a term"),
        ("x -", 3, "`-` must be followed by a term"),
        ("(-)", 2, "`-` must be followed by a term"),
        ("/abc", 1, "unterminated regex"),
        ("a //", 3, "empty regex"),
        ("/a(b/", 1, "invalid regex"),
        ("OR x", 1, "`OR` needs a term before it"),
        ("x OR", 3, "`OR` needs a term after it"),
        ("x OR OR y", 3, "`OR` needs a term after it"),
        ("(x OR)", 4, "`OR` needs a term after it"),
        ("(role:tool", 1, "unclosed `(`"),
        ("x ()", 3, "empty parentheses"),
        ("role:tool)", 10, "unmatched `)`"),
        ("(a) b)", 6, "unmatched `)`"),
        // An unbalanced parenthesis is an error wherever it stands: in a field's
        // value (once read as the value "(") as in a free word.
        ("role:(", 6, "unclosed `(`"),
        ("role:)", 6, "`role:` needs a value"),
        ("tool:f(x", 7, "unclosed `(`"),
        ("f(x", 2, "unclosed `(`"),
        ("f(g(x) y", 2, "unclosed `(`"),
        ("(role:(x)", 1, "unclosed `(`"),
        ("is:broken", 4, "unknown value `broken` for `is:`"),
        ("has:wings", 5, "unknown value `wings` for `has:`"),
        ("after:yesterday", 7, "`yesterday` is not a time"),
        ("before:2024-13-01", 8, "not a time"),
        ("role:>3", 6, "`>` compares numbers"),
        ("metadata.x:1", 1, "filters runs, not events"),
    ];
    for (query, column, message) in cases {
        let got = e(query);
        assert_eq!(got.column, *column, "{query}: {got}");
        assert!(got.message.contains(message), "{query}: {got}");
    }
    // Columns count characters, not bytes.
    assert_eq!(e("héllo bogus:x").column, 7);
    assert!(e("x OR").to_string().starts_with("query error at column 3: "));
}

// ------------------------------------------------------------ runs

const RUNS: &str = r#"{"messages": [{"role": "user", "content": "a"}], "metadata": {"scores": {"correct": true, "reward": 0.75}, "model": "gpt-4o", "steps": 3, "tags": ["x", "y"], "task.id": "t-1", "note": null}}
{"messages": [{"role": "user", "content": "b"}], "metadata": {"scores": {"correct": false, "reward": 1}, "model": "claude-3", "steps": 12, "tags": ["y"]}}
{"messages": [{"role": "user", "content": "c"}], "metadata": {"model": "GPT-4o-mini", "steps": 7.5, "deep": {"a": {"b": 1}}}}
"#;

fn runs() -> Trace {
    parse_trace(RUNS.as_bytes().to_vec(), &ParseOptions::default()).unwrap()
}

fn r(query: &str) -> Vec<u32> {
    filter_runs(&runs(), query).unwrap_or_else(|e| panic!("{query}: {e}"))
}

#[test]
fn run_filters() {
    assert_eq!(runs().runs.len(), 3);
    assert_eq!(r(""), vec![0, 1, 2]);
    assert_eq!(r("metadata.scores.correct:true"), vec![0]);
    assert_eq!(r("metadata.scores.correct:false"), vec![1]);
    assert_eq!(r("metadata.scores.reward:>0.5"), vec![0, 1]);
    assert_eq!(r("metadata.scores.reward:>=1"), vec![1]);
    assert_eq!(r("metadata.scores.reward:<1"), vec![0]);
    assert_eq!(r("metadata.steps:<=7.5"), vec![0, 2]);
    assert_eq!(r("metadata.steps:12"), vec![1]);
    assert_eq!(r("metadata.model:gpt-4o"), vec![0]);
    assert_eq!(r("metadata.model:GPT-4O*"), vec![0, 2]);
    assert_eq!(r("metadata.model:*-3"), vec![1]);
    assert_eq!(r("metadata.tags:x"), vec![0]);
    assert_eq!(r("metadata.tags:y"), vec![0, 1]);
    // A key holding a dot.
    assert_eq!(r("metadata.task.id:t-1"), vec![0]);
    assert_eq!(r("metadata.note:null"), vec![0]);
    assert_eq!(r("metadata.deep.a.b:1"), vec![2]);
    // Missing fields do not match; negated they do.
    assert_eq!(r("-metadata.scores.correct:true"), vec![1, 2]);
    assert_eq!(r("metadata.scores.correct:true OR metadata.steps:>10"), vec![0, 1]);
    assert_eq!(r("claude"), vec![1]);
    assert_eq!(r("/gpt-4o$/"), Vec::<u32>::new());
    assert_eq!(r(r#"/"model":"gpt-4o"/"#), vec![0]);
    let id = runs().runs[1].id.clone();
    assert_eq!(r(&format!("id:{id}")), vec![1]);
}

#[test]
fn run_filter_errors() {
    let t = runs();
    let cases: &[(&str, usize, &str)] = &[
        ("metadata.steps:>x", 17, "`>` needs a number"),
        ("role:user", 1, "unknown run field `role:`"),
        ("metadata..x:1", 1, "empty path segment"),
        ("id:>3", 4, "compares numbers of `metadata.` fields only"),
        ("(metadata.steps:1", 1, "unclosed"),
    ];
    for (query, column, message) in cases {
        let got = filter_runs(&t, query).expect_err(query);
        assert_eq!(got.column, *column, "{query}: {got}");
        assert!(got.message.contains(message), "{query}: {got}");
    }
}

#[test]
fn filterable_fields_of_run_metadata() {
    let f = filterable_fields(&runs());
    let find = |n: &str| f.iter().find(|x| x.name == n).map(|x| x.kind);
    assert_eq!(find("metadata.scores.correct"), Some("bool"));
    // int in one run, float in another.
    assert_eq!(find("metadata.scores.reward"), Some("float"));
    assert_eq!(find("metadata.steps"), Some("float"));
    assert_eq!(find("metadata.model"), Some("str"));
    assert_eq!(find("metadata.task.id"), Some("str"));
    // Lists, nulls and deeper nesting than one level are not scalar fields here.
    assert_eq!(find("metadata.tags"), None);
    assert_eq!(find("metadata.note"), None);
    assert_eq!(find("metadata.deep.a.b"), None);
    assert_eq!(f.last().map(|x| (x.name.as_str(), x.kind)), Some(("text", "str")));
}

#[test]
fn field_values_per_run() {
    let t = runs();
    let values = |name: &str| field_values(&t, name).into_iter().map(|v| v.cloned()).collect::<Vec<_>>();
    assert_eq!(values("metadata.scores.reward"), [Some(0.75.into()), Some(1.into()), None]);
    // A key holding a dot is found as the filter finds it; lists and nulls are no scalars.
    assert_eq!(values("metadata.task.id"), [Some("t-1".into()), None, None]);
    assert_eq!(values("metadata.tags"), [None, None, None]);
    assert_eq!(values("metadata.note"), [None, None, None]);
}

#[test]
fn instants() {
    // As chrono renders them (a dev-dependency now; it was the parser).
    let t = |s: &str| {
        parse_instant(s).map(|i| chrono::DateTime::from_timestamp(i.unix_seconds(), i.subsec_nanos()).unwrap().to_rfc3339())
    };
    assert_eq!(t("2024-05-01T12:00:00+02:00").as_deref(), Some("2024-05-01T10:00:00+00:00"));
    assert_eq!(t("2024-05-01").as_deref(), Some("2024-05-01T00:00:00+00:00"));
    assert_eq!(t("2024-05-01 10:30").as_deref(), Some("2024-05-01T10:30:00+00:00"));
    assert_eq!(t("2024-05-01T10:30:00.25").as_deref(), Some("2024-05-01T10:30:00.250+00:00"));
    assert_eq!(t("May 1"), None);
}

#[test]
fn fast_lowercase_equals_the_standard_one() {
    for s in [
        "",
        "Plain ASCII, MIXED case 123",
        "Zürich ÜBER Straße",
        "İstanbul DİYARBAKIR",
        "ΟΔΟΣ Σ ΣΑΣ, σΣ.",
        "日本語 ТЕКСТ 🙂 Ǆ ǅ",
        "ends with non-ASCII É",
        // Every ASCII byte, in and out of eight-byte words.
        &(0u8..128).map(char::from).collect::<String>(),
        &format!("x{}", (0u8..128).map(char::from).collect::<String>()),
        "@[`{AZaz@[`{ AZ ÀZ",
    ] {
        let mut out = b"kept|".to_vec();
        push_lowercase(&mut out, s);
        assert_eq!(String::from_utf8(out).unwrap(), format!("kept|{}", s.to_lowercase()), "{s:?}");
    }
}

#[test]
fn search_index_holds_each_events_lowercase_text_apart() {
    // The fixture plus a non-ASCII role and text, so that the Unicode paths are covered too.
    let mut json = TRACE.trim_end().trim_end_matches(']').to_string();
    json.push_str(r#", {"role": "ÉDITEUR", "content": "Grüße aus ZÜRICH, ΟΔΟΣ"}]"#);
    let t = parse_trace(json.into_bytes(), &ParseOptions::default()).unwrap();
    let lower = EventTexts::build(&t, true);
    let plain = EventTexts::build(&t, false);
    assert_eq!(lower.ends.len(), t.events.len());
    for i in 0..t.events.len() {
        assert_eq!(lower.get(i), Some(event_text(&t, i).to_lowercase().as_bytes()), "event {i}");
        assert_eq!(plain.get(i), Some(event_text(&t, i).as_bytes()), "event {i}");
    }
    assert_eq!(lower.get(t.events.len()), None);
    let mut index = QueryIndex::default();
    assert_eq!(filter(&t, "zürich", &mut index).unwrap(), vec![8]);
    assert_eq!(filter(&t, "ZÜRICH οδος", &mut index).unwrap(), vec![8]);
    assert_eq!(filter(&t, "role:éditeur", &mut index).unwrap(), vec![8]);
    assert_eq!(filter(&t, "role:ÉDITEUR", &mut index).unwrap(), vec![8]);
    // Texts sit next to each other in one buffer, but a match never spans two
    // events: event 0 ends with "agent.\n", event 1 starts with "what's".
    assert!(memchr::memmem::find(&lower.text, b"agent.\nwhat's").is_some());
    assert_eq!(filter(&t, "text:\"agent.\n\"", &mut index).unwrap(), vec![0]);
    assert!(filter(&t, "text:\"agent.\nwhat's\"", &mut index).unwrap().is_empty());
}

#[test]
fn regex_with_a_literal_prefilter_matches_what_the_regex_alone_matches() {
    // Non-ASCII text, mixed case, Kelvin sign and long s (which ASCII case-insensitivity
    // leaves alone), so the prefilter's lower-cased index is put to work.
    let mut json = TRACE.trim_end().trim_end_matches(']').to_string();
    json.push_str(r#", {"role": "user", "content": "Line 12, in main\nKELVIN \u212a and ſun; ZÜRICH"}]"#);
    let t = parse_trace(json.into_bytes(), &ParseOptions::default()).unwrap();
    let mut index = QueryIndex::default();
    for pattern in [
        r"line \d+, in",
        "sun+y",
        "(?-i)SUNNY",
        r"bob@\w+\.com",
        "kelvin",
        "sun",
        r"ſun",
        "weather (is|in)",
        "smtp|kelvin|line",
        "(?-i)SMTP|Done",
        "zürich",
        r"\d+ C$",
        "colou?r",
        "get_weather",
        r"Paris\?",
    ] {
        assert!(required_literal::required_literals(pattern).is_some(), "{pattern} should have literals");
        let re = build_regex(pattern, 1).unwrap();
        let want: Vec<u32> = (0..t.events.len()).filter(|&i| re.is_match(&event_text(&t, i))).map(|i| i as u32).collect();
        assert_eq!(filter(&t, &format!("/{pattern}/"), &mut index).unwrap(), want, "/{pattern}/");
    }
    assert_eq!(filter(&t, r"/line \d+, in/", &mut index).unwrap(), vec![8]);
    // A regex in a query with other terms, negated, or ORed keeps its meaning.
    assert_eq!(filter(&t, r"-/sun+y/ role:tool", &mut index).unwrap(), vec![5]);
    assert_eq!(filter(&t, r"/sun+y/ OR /line \d/", &mut index).unwrap(), vec![3, 4, 6, 8]);
}
