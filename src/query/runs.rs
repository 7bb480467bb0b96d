//! Run filters: `metadata.<path>:` (with `>`, `<`, `>=`, `<=` for
//! numbers), `id:`, free text and regexes over the runs of a trace, and the
//! run-metadata fields a filter can name.

use serde::Serialize;
use serde_json::Value;

use crate::model::Trace;

use super::syntax::{build_regex, compile, parse, Atom, Op};
use super::{err, QueryError};

#[derive(Debug, Clone)]
enum RunTest {
    Meta { path: Vec<String>, op: Op, value: String, number: Option<f64> },
    Id(String),
    Text(String),
    Regex(regex_lite::Regex),
}

fn run_test(atom: Atom, column: usize) -> Result<RunTest, QueryError> {
    let (name, op, value, value_column) = match atom {
        Atom::Text(t) => return Ok(RunTest::Text(t.to_lowercase())),
        Atom::Regex(r) => return Ok(RunTest::Regex(build_regex(&r, column)?)),
        Atom::Field { name, op, value, value_column } => (name, op, value, value_column),
    };
    let number = value.parse::<f64>().ok().filter(|n| n.is_finite());
    if let Some(path) = name.strip_prefix("metadata.") {
        let path: Vec<String> = path.split('.').map(str::to_string).collect();
        if path.iter().any(String::is_empty) {
            return err(column, format!("`{name}` has an empty path segment"));
        }
        if op != Op::Eq && number.is_none() {
            return err(value_column, format!("`{}` needs a number, not `{value}`", op.symbol()));
        }
        return Ok(RunTest::Meta { path, op, value, number });
    }
    if op != Op::Eq {
        return err(value_column.saturating_sub(op.symbol().len()), format!("`{}` compares numbers of `metadata.` fields only", op.symbol()));
    }
    match name.to_lowercase().as_str() {
        "id" => Ok(RunTest::Id(value)),
        "text" => Ok(RunTest::Text(value.to_lowercase())),
        _ => err(column, format!("unknown run field `{name}:` (fields: metadata.<path>:, id:, text:)")),
    }
}

/// Follows a dotted path into metadata; a key that itself holds dots is
/// found too (the longest matching key wins).
fn lookup<'v>(map: &'v serde_json::Map<String, Value>, path: &[String]) -> Option<&'v Value> {
    for k in (1..=path.len()).rev() {
        let key = path.get(..k)?.join(".");
        if let Some(v) = map.get(&key) {
            let rest = path.get(k..)?;
            if rest.is_empty() {
                return Some(v);
            }
            if let Value::Object(inner) = v {
                if let Some(found) = lookup(inner, rest) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// `*` matches any run of characters; the rest compares case-insensitively.
fn glob_eq(pattern: &str, text: &str) -> bool {
    let p = pattern.to_lowercase();
    let t = text.to_lowercase();
    if !p.contains('*') {
        return p == t;
    }
    let parts: Vec<&str> = p.split('*').collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else { return false };
    if !t.starts_with(first) || t.len() < first.len() + last.len() || !t.ends_with(last) {
        return false;
    }
    let mut rest = t.get(first.len()..t.len() - last.len()).unwrap_or("");
    for mid in parts.get(1..parts.len().saturating_sub(1)).unwrap_or(&[]) {
        match rest.find(mid) {
            Some(at) => rest = rest.get(at + mid.len()..).unwrap_or(""),
            None => return false,
        }
    }
    true
}

fn meta_matches(v: &Value, op: Op, value: &str, number: Option<f64>) -> bool {
    match (v, op) {
        (Value::Array(items), _) => items.iter().any(|x| meta_matches(x, op, value, number)),
        (Value::Number(n), _) => {
            let (Some(n), Some(q)) = (n.as_f64(), number) else { return false };
            match op {
                Op::Eq => n == q,
                Op::Gt => n > q,
                Op::Ge => n >= q,
                Op::Lt => n < q,
                Op::Le => n <= q,
            }
        }
        (_, Op::Gt | Op::Ge | Op::Lt | Op::Le) => false,
        (Value::Bool(b), Op::Eq) => value.eq_ignore_ascii_case(if *b { "true" } else { "false" }),
        (Value::Null, Op::Eq) => value.eq_ignore_ascii_case("null"),
        (Value::String(s), Op::Eq) => glob_eq(value, s),
        (Value::Object(_), Op::Eq) => false,
    }
}

/// The text a run's free-text search looks at: id, name, description, metadata.
fn run_text(run: &crate::model::AgentRun) -> String {
    let mut out = run.id.clone();
    for s in [&run.name, &run.description].into_iter().flatten() {
        out.push('\n');
        out.push_str(s);
    }
    out.push('\n');
    out.push_str(&Value::Object(run.metadata.clone()).to_string());
    out
}

/// Indices of the runs matching `query`: `metadata.<path>:<value>` (with
/// `>`, `<`, `>=`, `<=` for numbers), `id:`, free text, regex.
pub fn filter_runs(trace: &Trace, query: &str) -> Result<Vec<u32>, QueryError> {
    let expr = compile(parse(query)?, &run_test)?;
    let needs_text = expr.any_term(&|t| matches!(t, RunTest::Text(_) | RunTest::Regex(_)));
    Ok(trace
        .runs
        .iter()
        .enumerate()
        .filter(|(_, run)| {
            let text = if needs_text { run_text(run) } else { String::new() };
            let lower = if needs_text { text.to_lowercase() } else { String::new() };
            expr.eval(&mut |t| match t {
                RunTest::Meta { path, op, value, number } => {
                    lookup(&run.metadata, path).is_some_and(|v| meta_matches(v, *op, value, *number))
                }
                RunTest::Id(id) => glob_eq(id, &run.id),
                RunTest::Text(s) => lower.contains(s.as_str()),
                RunTest::Regex(re) => re.is_match(&text),
            })
        })
        .map(|(i, _)| crate::source::clamp_u32(i))
        .collect())
}

/// Each run's value of field `name` (`metadata.a.b`, as
/// [`filterable_fields`] names them): the scalar there, or None.
pub fn field_values<'t>(trace: &'t Trace, name: &str) -> Vec<Option<&'t Value>> {
    let path: Vec<String> = name.strip_prefix("metadata.").unwrap_or(name).split('.').map(str::to_string).collect();
    trace
        .runs
        .iter()
        .map(|run| lookup(&run.metadata, &path).filter(|v| scalar_type(v).is_some()))
        .collect()
}

/// A field the run filter can use, with its JSON type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FilterableField {
    pub name: String,
    /// `bool`, `int`, `float`, `str`.
    #[serde(rename = "type")]
    pub kind: &'static str,
}

fn scalar_type(v: &Value) -> Option<&'static str> {
    match v {
        Value::Bool(_) => Some("bool"),
        Value::Number(n) if n.is_f64() => Some("float"),
        Value::Number(_) => Some("int"),
        Value::String(_) => Some("str"),
        _ => None,
    }
}

/// Scalar fields of the runs' metadata, like Docent's
/// `get_filterable_fields(max_depth=1)`: `metadata.<key>` and one level of
/// nesting `metadata.<key>.<key>`, in first-seen order; a field that is an
/// int in one run and a float in another is a `float`. Then `text`.
pub fn filterable_fields(trace: &Trace) -> Vec<FilterableField> {
    fn visit(prefix: &str, map: &serde_json::Map<String, Value>, depth: usize, out: &mut Vec<FilterableField>) {
        for (k, v) in map {
            let name = format!("{prefix}.{k}");
            if let Value::Object(inner) = v {
                if depth > 0 {
                    visit(&name, inner, depth - 1, out);
                }
                continue;
            }
            let Some(kind) = scalar_type(v) else { continue };
            match out.iter_mut().find(|f| f.name == name) {
                Some(f) if f.kind != kind && matches!((f.kind, kind), ("int", "float") | ("float", "int")) => f.kind = "float",
                Some(_) => {}
                None => out.push(FilterableField { name, kind }),
            }
        }
    }
    let mut out = Vec::new();
    for run in &trace.runs {
        visit("metadata", &run.metadata, 1, &mut out);
    }
    out.push(FilterableField { name: "text".to_string(), kind: "str" });
    out
}

