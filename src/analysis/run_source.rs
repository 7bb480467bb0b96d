//! A run's own records as a file of the trace's format, where the file lets
//! one be cut out faithfully: in JSON Lines, the whole lines from the run's
//! first record to its last, when no other run has a record on them. A run
//! of one JSON document is part of a single value, which cannot be cut out
//! without rewriting it; a trace read from several files has no one file.
//!
//! The page's redacted export of one run starts here; it then parses the
//! lines again and checks that they read as that run alone before offering
//! them (the caller's check: a format may need a line this range leaves out).

use std::fmt;
use std::ops::Range;

use crate::json::Layout;
use crate::model::Trace;

/// Why a run cannot be cut out of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotCuttable {
    /// The file is one JSON document, not JSON Lines.
    Document,
    /// The trace was read from several files.
    SeveralFiles,
    /// No such run, or it has no records.
    NoRecords,
    /// Another run has a record on the run's lines.
    Shared { other: usize },
}

impl fmt::Display for NotCuttable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotCuttable::Document => write!(f, "the file is one JSON document, and a run of it is part of one value that cannot be cut out without rewriting it"),
            NotCuttable::SeveralFiles => write!(f, "the trace was read from several files (or the members of an archive), not one file of lines"),
            NotCuttable::NoRecords => write!(f, "the run has no records of its own in the file"),
            NotCuttable::Shared { other } => write!(f, "its lines also hold records of run #{other}"),
        }
    }
}

/// The bytes of `trace.source` holding run `run`'s lines: from the start of
/// the line of its first record (its own record or an event) to the end of
/// the line of its last, newline included.
pub fn run_lines(trace: &Trace, run: u32) -> Result<Range<usize>, NotCuttable> {
    if trace.layout != Layout::Jsonl {
        return Err(NotCuttable::Document);
    }
    if !trace.files.is_empty() {
        return Err(NotCuttable::SeveralFiles);
    }
    let own = trace.runs.get(run as usize).ok_or(NotCuttable::NoRecords)?.offset.map(|o| o..o + 1);
    let records = trace.events.iter().filter(|e| e.run == run).map(|e| e.raw.clone()).chain(own);
    let (start, end) = records.fold((usize::MAX, 0), |(s, e), r| (s.min(r.start), e.max(r.end)));
    if start >= end {
        return Err(NotCuttable::NoRecords);
    }
    let bytes: &[u8] = &trace.source;
    let start = bytes.get(..start).and_then(|b| b.iter().rposition(|&c| c == b'\n')).map_or(0, |p| p + 1);
    let end = bytes.get(end..).and_then(|b| b.iter().position(|&c| c == b'\n')).map_or(bytes.len(), |p| end + p + 1);
    let overlaps = |r: &Range<usize>| r.start < end && r.end > start;
    if let Some(e) = trace.events.iter().find(|e| e.run != run && overlaps(&e.raw)) {
        return Err(NotCuttable::Shared { other: e.run as usize });
    }
    if let Some(other) = trace.runs.iter().enumerate().find(|(i, r)| *i != run as usize && r.offset.is_some_and(|o| o >= start && o < end)).map(|(i, _)| i) {
        return Err(NotCuttable::Shared { other });
    }
    Ok(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_trace, ParseOptions};

    fn trace(text: &str) -> Trace {
        parse_trace(text.as_bytes().to_vec(), &ParseOptions::default()).expect("parses")
    }

    const RUN: &str = r#"{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}"#;

    #[test]
    fn a_run_of_json_lines_is_its_line() {
        let text = format!("{RUN}\n{}\n", RUN.replace("hi", "bye"));
        let t = trace(&text);
        assert_eq!(t.runs.len(), 2);
        let second = run_lines(&t, 1).expect("cuttable");
        assert_eq!(&text[second], format!("{}\n", RUN.replace("hi", "bye")));
        let first = run_lines(&t, 0).expect("cuttable");
        assert_eq!(&text[first], format!("{RUN}\n"));
    }

    #[test]
    fn a_run_of_a_document_is_not_cut() {
        let t = trace(&format!("[{RUN}, {RUN}]"));
        assert_eq!(run_lines(&t, 0), Err(NotCuttable::Document));
        assert_eq!(run_lines(&t, 9), Err(NotCuttable::Document));
    }

    #[test]
    fn no_such_run_has_no_records() {
        let t = trace(&format!("{RUN}\n{RUN}\n"));
        assert_eq!(t.layout, Layout::Jsonl);
        assert_eq!(run_lines(&t, 3), Err(NotCuttable::NoRecords));
    }
}
