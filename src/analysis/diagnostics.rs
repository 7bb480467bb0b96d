//! Repeated diagnostics as one finding: a file written by another SDK
//! version has the same complaint on every record, and reads better as
//! "35 records: …" than as a red wall.

use std::collections::HashMap;

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};

/// Diagnostics with the same severity, code and message (exactly).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticGroup<'a> {
    pub code: &'static str,
    pub severity: Severity,
    pub message: &'a str,
    /// How many diagnostics.
    pub count: u32,
    /// How many distinct events they are about.
    pub events: u32,
    /// Their indices in the trace's diagnostics, in order.
    pub diagnostics: Vec<u32>,
    /// The first of them (`diagnostics[0]`).
    pub first: u32,
}

impl DiagnosticGroup<'_> {
    /// `35 records: <message>`, `3 diagnostics in 2 records: …`, or the
    /// message alone for a single diagnostic.
    pub fn headline(&self) -> String {
        match (self.count, self.events) {
            (1, _) => self.message.to_string(),
            (n, e) if n == e => format!("{n} records: {}", self.message),
            (n, 0) => format!("{n} times: {}", self.message),
            (n, 1) => format!("{n} diagnostics in 1 record: {}", self.message),
            (n, e) => format!("{n} diagnostics in {e} records: {}", self.message),
        }
    }
}

/// Groups `diagnostics` by (severity, code, message), in order of each
/// group's first diagnostic.
pub fn group(diagnostics: &[Diagnostic]) -> Vec<DiagnosticGroup<'_>> {
    let mut groups: Vec<DiagnosticGroup> = Vec::new();
    let mut index: HashMap<(Severity, &str, &str), usize> = HashMap::new();
    let mut seen_events: Vec<std::collections::HashSet<u32>> = Vec::new();
    for (i, d) in diagnostics.iter().enumerate() {
        let i = crate::source::clamp_u32(i);
        let at = *index.entry((d.severity, d.code, d.message.as_str())).or_insert_with(|| {
            groups.push(DiagnosticGroup {
                code: d.code,
                severity: d.severity,
                message: &d.message,
                count: 0,
                events: 0,
                diagnostics: Vec::new(),
                first: i,
            });
            seen_events.push(Default::default());
            groups.len() - 1
        });
        let (Some(g), Some(seen)) = (groups.get_mut(at), seen_events.get_mut(at)) else { continue };
        g.count += 1;
        g.diagnostics.push(i);
        if let Some(e) = d.event {
            if seen.insert(e) {
                g.events += 1;
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(code: &'static str, message: &str, event: Option<u32>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.to_string(),
            path: "$".to_string(),
            line: 1,
            column: 1,
            offset: 0,
            event,
            snippet: None,
        }
    }

    #[test]
    fn groups_by_severity_code_and_message_in_first_order() {
        let mut list = vec![d("a", "x", Some(0)), d("b", "x", Some(0)), d("a", "x", Some(1)), d("a", "y", Some(2)), d("a", "x", Some(1))];
        list.push(Diagnostic { severity: Severity::Warning, ..d("a", "x", Some(3)) });
        let groups = group(&list);
        type Shape<'a> = (&'a str, &'a str, u32, u32, Vec<u32>, u32);
        let shape: Vec<Shape> = groups.iter().map(|g| (g.code, g.message, g.count, g.events, g.diagnostics.clone(), g.first)).collect();
        assert_eq!(
            shape,
            vec![("a", "x", 3, 2, vec![0, 2, 4], 0), ("b", "x", 1, 1, vec![1], 1), ("a", "y", 1, 1, vec![3], 3), ("a", "x", 1, 1, vec![5], 5)]
        );
        assert_eq!(groups[0].headline(), "3 diagnostics in 2 records: x");
        assert_eq!(groups[1].headline(), "x");
        let same = [d("a", "x", Some(0)), d("a", "x", Some(1))];
        assert_eq!(group(&same)[0].headline(), "2 records: x");
        let one_record = [d("a", "x", Some(3)), d("a", "x", Some(3))];
        assert_eq!(group(&one_record)[0].headline(), "2 diagnostics in 1 record: x");
        let nowhere = [d("a", "x", None), d("a", "x", None)];
        assert_eq!(group(&nowhere)[0].headline(), "2 times: x");
    }
}
