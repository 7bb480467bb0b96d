//! Two runs' comparison ([`crate::analysis::compare`]) as terminal text:
//! a header of deltas, then the steps side by side, a mark per row
//! (` ` same, `~` changed, `-` only left, `+` only right).

use serde_json::Value;

use crate::analysis::compare::{step_line, Change, Comparison};
use crate::analysis::runs::RunRow;
use crate::render::dollars::dollars;
use crate::model::Trace;

/// Characters of each side of a row.
const SIDE: usize = 58;

fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{:.3}", v).trim_end_matches('0').to_string()
    }
}

fn delta(name: &str, a: f64, b: f64, unit: &str) -> Option<String> {
    (a != b).then(|| format!("{name} {}{unit} → {}{unit} ({}{}{unit})", number(a), number(b), if b > a { "+" } else { "" }, number(b - a)))
}

fn scalar(v: Option<&&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => "—".to_string(),
    }
}

/// The deltas of the runs' rows, one per line (nothing for what is equal).
pub fn deltas(a: &RunRow, b: &RunRow) -> Vec<String> {
    let mut out = Vec::new();
    let names: std::collections::BTreeSet<&str> = a.scores.keys().chain(b.scores.keys()).copied().collect();
    for name in names {
        let (x, y) = (a.scores.get(name), b.scores.get(name));
        if x != y {
            out.push(format!("score {name}: {} → {}", scalar(x), scalar(y)));
        }
    }
    out.extend(delta("tokens", a.tokens as f64, b.tokens as f64, ""));
    if let (Some(x), Some(y)) = (a.cost, b.cost) {
        if x != y {
            let (d, plus) = (y - x, if y > x { "+" } else { "" });
            out.push(format!("cost {} → {} ({plus}{})", dollars(x), dollars(y), dollars(d)));
        }
    }
    out.extend(delta("tool calls", f64::from(a.tool_calls), f64::from(b.tool_calls), ""));
    out.extend(delta("failures", f64::from(a.failures), f64::from(b.failures), ""));
    out.extend(delta("events", f64::from(a.events), f64::from(b.events), ""));
    if let (Some(x), Some(y)) = (a.duration_seconds, b.duration_seconds) {
        out.extend(delta("duration", (x * 10.0).round() / 10.0, (y * 10.0).round() / 10.0, " s"));
    }
    if a.model != b.model {
        out.push(format!("model: {} → {}", a.model.unwrap_or("—"), b.model.unwrap_or("—")));
    }
    if a.error != b.error {
        out.push(format!("error: {} → {}", a.error.as_deref().unwrap_or("—"), b.error.as_deref().unwrap_or("—")));
    }
    out
}

fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s.chars().take(width).collect()
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}

/// The comparison as text; `names` label the two sides (file and run).
pub fn diff_text(c: &Comparison, left: &Trace, right: &Trace, names: (&str, &str)) -> String {
    let mut out = format!("--- {} (run {}, {} steps)\n+++ {} (run {}, {} steps)\n", names.0, c.left.id, c.same + c.changed + c.removed, names.1, c.right.id, c.same + c.changed + c.added);
    let d = deltas(&c.left, &c.right);
    if d.is_empty() {
        out.push_str("no differences in scores, tokens, cost, tool calls, failures or duration\n");
    }
    for line in d {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str(&format!("steps: {} same, {} changed, {} only left, {} only right{}\n\n", c.same, c.changed, c.removed, c.added, if c.approximate { " (too long to align: the middle is paired by position)" } else { "" }));
    for s in &c.steps {
        let mark = match s.change {
            Change::Same => ' ',
            Change::Changed => '~',
            Change::Removed => '-',
            Change::Added => '+',
        };
        let side = |trace: &Trace, e: Option<u32>| match e {
            Some(i) => format!("#{i} {}", step_line(trace, Some(i), SIDE)),
            None => String::new(),
        };
        let line = format!("{mark} {} │ {}", pad(&side(left, s.left), SIDE), side(right, s.right));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_delta_is_in_dollars() {
        let t = crate::parse_trace(br#"{"id": "a", "transcripts": {"m": {"messages": [{"role": "user", "content": "q"}]}}}"#.to_vec(), &crate::ParseOptions::default()).unwrap();
        let rows = crate::analysis::runs::run_rows(&t);
        let (mut a, mut b) = (rows[0].clone(), rows[0].clone());
        (a.cost, b.cost) = (Some(0.005335), Some(0.0042));
        assert!(deltas(&a, &b).contains(&"cost $0.00534 → $0.0042 (-$0.00114)".to_string()), "{:?}", deltas(&a, &b));
        b.cost = None;
        assert!(!deltas(&a, &b).iter().any(|d| d.starts_with("cost")), "one side without a cost: no delta");
    }

    #[test]
    fn deltas_name_what_changed() {
        let text = r#"[{"id": "a", "metadata": {"scores": {"acc": 1}}, "transcripts": {"m": {"messages": [{"role": "user", "content": "q"}]}}},
{"id": "b", "metadata": {"scores": {"acc": 0}}, "transcripts": {"m": {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}}}]"#;
        let t = crate::parse_trace(text.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap();
        let c = crate::analysis::compare::compare(&t, 0, &t, 1).unwrap();
        let out = diff_text(&c, &t, &t, ("x.json", "x.json"));
        assert!(out.starts_with("--- x.json (run a, 1 steps)\n+++ x.json (run b, 2 steps)\n  score acc: 1 → 0\n  events 1 → 2 (+1)\nsteps: 1 same, 0 changed, 0 only left, 1 only right\n\n"), "{out}");
        let rows: Vec<Vec<&str>> = out.lines().skip(6).map(|l| l.split('│').map(str::trim).collect()).collect();
        assert_eq!(rows, [vec!["#0 q", "#1 q"], vec!["+", "#2 a"]], "{out}");
    }
}
