//! The legacy AgentRun text: docent-python 0.1.0a1–0.1.3a0's
//! `AgentRun.to_text(token_limit)` (and `.text`, its first string).
//!
//! A port of `AgentRun.to_text`, `Transcript.to_str_with_token_limit`,
//! `format_chat_message` and `group_messages_into_ranges` of docent-python
//! 0.1.3a0, including their quirks: only the last reasoning part is shown;
//! transcripts split off on their own are labelled `T0` whatever their index;
//! action units too long even alone are cut with `truncate_to_token_limit`
//! (which may end in U+FFFD where a token splits a character).

use crate::agentrun::py::{get, push_py_str, py_str, set, Py};
use crate::agentrun::{DocContent, DocMessage, DocPart, DocRun, DocTranscript};
use super::{yaml, RenderError, Tokenizer};

const SCORES_DESCRIPTION: &str = "A dict of score_key -> score_value. Use one key for each metric you're tracking.";

/// `run.to_text(token_limit)`; no limit is `sys.maxsize`, one string.
pub fn render(run: &DocRun, token_limit: Option<i64>, tok: Option<&dyn Tokenizer>) -> Result<Vec<String>, RenderError> {
    let mut transcript_strs = Vec::new();
    for (i, t) in run.transcripts.iter().enumerate() {
        let body = first(transcript_str(t, i, None, tok)?)?;
        transcript_strs.push(format!("<transcript {k}>\n{body}\n</transcript {k}>", k = t.key));
    }
    let transcripts_str = format!("Here is a complete agent run for analysis purposes only:\n{}\n\n", transcript_strs.join("\n\n"));
    let metadata = run_metadata(run)?;
    let metadata_str = format!("Metadata about the complete agent run:\n<agent run metadata>\n{}\n</agent run metadata>", yaml::dump(&metadata));
    let whole = format!("{transcripts_str}{metadata_str}");
    let (Some(limit), Some(tok)) = (token_limit, tok) else {
        return Ok(vec![whole]);
    };
    let count = |s: &str| tok.encode(s).len() as i64;
    let metadata_tokens = count(&metadata_str);
    if count(&transcripts_str) + metadata_tokens <= limit {
        return Ok(vec![whole]);
    }
    let counts: Vec<i64> = transcript_strs.iter().map(|s| count(s)).collect();
    let mut results = Vec::new();
    for r in group_into_ranges(&counts, metadata_tokens, limit - 50) {
        if r.include_metadata {
            let part = transcript_strs.get(r.start..r.end).unwrap_or_default().join("\n\n");
            results.push(format!("Here is a partial agent run for analysis purposes only:\n{part}{metadata_str}"));
            continue;
        }
        single(&r)?;
        let Some(t) = run.transcripts.get(r.start) else { continue };
        if r.num_tokens < limit - 50 {
            let body = first(transcript_str(t, 0, None, Some(tok))?)?;
            results.push(format!("Here is a partial agent run for analysis purposes only:\n<transcript {k}>\n{body}\n</transcript {k}>", k = t.key));
        } else {
            for fragment in transcript_str(t, 0, Some(limit - 50), Some(tok))? {
                results.push(format!("Here is a partial agent run for analysis purposes only:\n<transcript {k}>\n{fragment}\n</transcript {k}>", k = t.key));
            }
        }
    }
    Ok(results)
}

fn first(mut v: Vec<String>) -> Result<String, RenderError> {
    if v.is_empty() {
        return Err(RenderError::new("a transcript rendered to no text"));
    }
    Ok(v.swap_remove(0))
}

fn single(r: &Range) -> Result<(), RenderError> {
    if r.end != r.start + 1 {
        // docent-python asserts here ("Ranges without metadata should be a single message").
        return Err(RenderError::new("docent-python cannot split this run at this token limit: it fails its assertion \"Ranges without metadata should be a single message\""));
    }
    Ok(())
}

/// `Transcript.to_str_with_token_limit` (`None`: `sys.maxsize`).
fn transcript_str(t: &DocTranscript, transcript_idx: usize, token_limit: Option<i64>, tok: Option<&dyn Tokenizer>) -> Result<Vec<String>, RenderError> {
    let mut au_blocks = Vec::new();
    for (unit_idx, unit) in units_of_action(&t.messages).iter().enumerate() {
        let blocks: Vec<String> = unit
            .iter()
            .filter_map(|&i| t.messages.get(i).map(|m| format_message(m, i, transcript_idx)))
            .collect();
        au_blocks.push(format!("<action unit {unit_idx}>\n{}\n</action unit {unit_idx}>", blocks.join("\n")));
    }
    let metadata = described(&base_metadata(&t.metadata, false), &t.metadata, false)?;
    let block_str = format!("<blocks>\n{}\n</blocks>\n", au_blocks.join("\n"));
    let metadata_str = format!("<metadata>\n{}\n</metadata>", yaml::dump(&metadata));
    let (Some(limit), Some(tok)) = (token_limit, tok) else {
        return Ok(vec![format!("{block_str}{metadata_str}")]);
    };
    let count = |s: &str| tok.encode(s).len() as i64;
    let metadata_tokens = count(&metadata_str);
    if metadata_tokens + count(&block_str) <= limit {
        return Ok(vec![format!("{block_str}{metadata_str}")]);
    }
    let counts: Vec<i64> = au_blocks.iter().map(|b| count(b)).collect();
    let mut results = Vec::new();
    for r in group_into_ranges(&counts, metadata_tokens, limit) {
        if r.include_metadata {
            let part = au_blocks.get(r.start..r.end).unwrap_or_default().join("\n");
            results.push(format!("<blocks>\n{part}\n</blocks>\n{metadata_str}"));
        } else {
            single(&r)?;
            let mut result = au_blocks.get(r.start).cloned().unwrap_or_default();
            if r.num_tokens > limit - 10 {
                result = truncate(tok, &result, limit - 10);
            }
            results.push(format!("<blocks>\n{result}\n</blocks>\n"));
        }
    }
    Ok(results)
}

/// `truncate_to_token_limit`: the first `max` tokens, decoded with
/// replacement characters (a negative `max` slices from the end, as Python does).
pub fn truncate(tok: &dyn Tokenizer, text: &str, max: i64) -> String {
    let tokens = tok.encode(text);
    let n = tokens.len() as i64;
    if n <= max {
        return text.to_string();
    }
    let keep = if max >= 0 { max } else { (n + max).max(0) };
    tok.decode(tokens.get(..keep as usize).unwrap_or_default())
}

/// `_compute_units_of_action`: a system message alone; a user message starts
/// a unit unless it follows a user message; an assistant message starts one
/// after anything but a user or assistant message; tool messages join.
pub fn units_of_action(messages: &[DocMessage]) -> Vec<Vec<usize>> {
    let mut units = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|p| messages.get(p)).map(|p| p.role);
        match m.role {
            "system" => {
                if !current.is_empty() {
                    units.push(std::mem::take(&mut current));
                }
                units.push(vec![i]);
            }
            "user" => {
                if !current.is_empty() && prev.is_some_and(|r| r != "user") {
                    units.push(std::mem::take(&mut current));
                }
                current.push(i);
            }
            "assistant" => {
                if !current.is_empty() && prev.is_some_and(|r| r != "user" && r != "assistant") {
                    units.push(std::mem::take(&mut current));
                }
                current.push(i);
            }
            _ => current.push(i),
        }
    }
    if !current.is_empty() {
        units.push(current);
    }
    units
}

fn format_message(m: &DocMessage, block_idx: usize, transcript_idx: usize) -> String {
    let label = format!("T{transcript_idx}B{block_idx}");
    let mut content = String::new();
    if m.role == "assistant" {
        if let DocContent::Parts(parts) = &m.content {
            for p in parts {
                if let DocPart::Reasoning { reasoning, .. } = p {
                    content = format!("<reasoning>\n{reasoning}\n</reasoning>\n");
                }
            }
        }
    }
    content.push_str(&m.text());
    content.push_str(&tool_calls_text(m));
    format!("<{label} | role: {role}>\n{content}\n</{label}>", role = m.role)
}

/// `\n<tool call>\n…\n</tool call>` per call: its view, or `f(k=str(v), …)`.
pub fn tool_calls_text(m: &DocMessage) -> String {
    let mut out = String::new();
    push_tool_calls_text(m, &mut out);
    out
}

/// Appends [`tool_calls_text`] to `out`.
pub fn push_tool_calls_text(m: &DocMessage, out: &mut String) {
    for c in &m.tool_calls {
        out.push_str("\n<tool call>\n");
        match &c.view {
            Some(view) => out.push_str(view),
            None => {
                out.push_str(&c.function);
                out.push('(');
                for (i, (k, v)) in c.arguments.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push('=');
                    push_py_str(v, out);
                }
                out.push(')');
            }
        }
        out.push_str("\n</tool call>");
    }
}

/// `BaseMetadata.model_dump(strip_internal_fields=True)` of metadata read
/// from JSON: declared fields first (`scores`, coerced as pydantic does), then
/// the extras; the internal fields dropped.
fn base_metadata(md: &[(String, Py)], run_level: bool) -> Vec<(String, Py)> {
    let mut out = Vec::new();
    if run_level {
        if let Some(scores) = get(md, "scores") {
            out.push(("scores".to_string(), coerce_scores(scores)));
        }
    }
    for (k, v) in md {
        let internal = matches!(k.as_str(), "allow_fields_without_descriptions" | "_field_descriptions" | "model_config");
        let declared = run_level && k == "scores";
        if !internal && !declared {
            out.push((k.clone(), v.clone()));
        }
    }
    out
}

fn run_metadata(run: &DocRun) -> Result<Py, RenderError> {
    let mut md = base_metadata(&run.metadata, true);
    if let Some(name) = &run.name {
        set(&mut md, "name", Py::Str(name.clone()));
    }
    if let Some(description) = &run.description {
        set(&mut md, "description", Py::Str(description.clone()));
    }
    described(&md, &run.metadata, true)
}

/// Renames keys with a description to `key (description)`. Descriptions come
/// from `_field_descriptions` in the JSON, else from the class (`scores` only).
fn described(md: &[(String, Py)], source: &[(String, Py)], run_level: bool) -> Result<Py, RenderError> {
    let provided = get(source, "_field_descriptions").filter(|v| **v != Py::None);
    let mut out = Vec::new();
    for (k, v) in md {
        let description = match provided {
            Some(Py::Dict(d)) => get(d, k).filter(|d| **d != Py::None).map(py_str),
            Some(Py::List(items)) if items.iter().any(|i| i.as_str() == Some(k)) => {
                return Err(RenderError::new("docent-python raises TypeError here: `_field_descriptions` is a list (list indices must be integers)"))
            }
            Some(Py::Str(s)) if s.contains(k.as_str()) => return Err(RenderError::new("docent-python raises TypeError here: `_field_descriptions` is a string")),
            Some(Py::Int(_) | Py::Float(_) | Py::Bool(_)) => return Err(RenderError::new("docent-python raises TypeError here: `_field_descriptions` is not iterable")),
            Some(_) => None,
            None if run_level && k == "scores" => Some(SCORES_DESCRIPTION.to_string()),
            None => None,
        };
        let key = match description {
            Some(d) => format!("{k} ({d})"),
            None => k.clone(),
        };
        set(&mut out, &key, v.clone());
    }
    Ok(Py::Dict(out))
}

/// `scores: dict[str, int | float | bool | None]` in pydantic's lax mode:
/// strings become the first of int, float, bool that reads them.
fn coerce_scores(scores: &Py) -> Py {
    match scores {
        Py::Dict(items) => Py::Dict(items.iter().map(|(k, v)| (k.clone(), coerce_score(v))).collect()),
        other => other.clone(),
    }
}

fn coerce_score(v: &Py) -> Py {
    use crate::import::pydantic_lax::{bool_text, float_text, int_text};
    let Py::Str(s) = v else { return v.clone() };
    if let Some(digits) = int_text(s) {
        return crate::agentrun::py::number(&digits);
    }
    if let Some(f) = float_text(s) {
        return Py::Float(f);
    }
    match bool_text(s) {
        Some(b) => Py::Bool(b),
        None => v.clone(),
    }
}

/// `MessageRange`.
struct Range {
    start: usize,
    end: usize,
    include_metadata: bool,
    num_tokens: i64,
}

/// `group_messages_into_ranges(token_counts, metadata_tokens, max_tokens, margin=50)`.
fn group_into_ranges(counts: &[i64], metadata_tokens: i64, max_tokens: i64) -> Vec<Range> {
    let margin = 50;
    let mut ranges = Vec::new();
    let (mut start, mut running, mut i) = (0usize, 0i64, 0usize);
    while let Some(&count) = counts.get(i) {
        if running + count + metadata_tokens > max_tokens - margin {
            if start == i {
                ranges.push(Range { start: i, end: i + 1, include_metadata: false, num_tokens: count });
                i += 1;
            } else {
                ranges.push(Range { start, end: i, include_metadata: true, num_tokens: running + metadata_tokens });
            }
            running = 0;
            start = i;
        } else {
            running += count;
            i += 1;
        }
    }
    if running > 0 {
        let include_metadata = running + metadata_tokens < max_tokens - margin;
        let num_tokens = if include_metadata { running + metadata_tokens } else { running };
        ranges.push(Range { start, end: counts.len(), include_metadata, num_tokens });
    }
    ranges
}
