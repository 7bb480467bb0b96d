//! Redaction: a trace made safe to share, in its own format.
//!
//! Works on the JSON text, not the model, so the output is the same file
//! with secrets masked and every other byte as it was: whatever the format,
//! it loads back as that format. Each JSON string value (content,
//! arguments — a JSON string inside a string is searched as text too —
//! results, metadata) is decoded, searched by the [`detectors`], and only
//! when something is masked written back as a new JSON string. Object keys
//! are left alone (masking two keys to one placeholder could merge them).
//!
//! Placeholders are stable: `[REDACTED:<kind>:<n>]`, numbered per kind in
//! order of first appearance, the same secret always the same placeholder,
//! so a redacted trace still shows which calls used the same key.

pub mod detectors;
pub mod preview;

use std::collections::HashMap;
use std::ops::Range;

use serde::Serialize;

pub use detectors::{BadPattern, Detector};

/// What to mask besides nothing.
#[derive(Debug, Clone, Default)]
pub struct RedactOptions {
    /// Leave the built-in kinds out (only the user's patterns and literals).
    pub no_builtin: bool,
    /// Regexes (regex-lite syntax); a match (or its first group) is masked as `custom`.
    pub patterns: Vec<String>,
    /// Literal strings masked as `literal`.
    pub literals: Vec<String>,
}

/// How often each kind was masked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindCount {
    pub kind: String,
    /// Occurrences masked.
    pub occurrences: u32,
    /// Distinct secrets (placeholders) of the kind.
    pub distinct: u32,
}

/// What a redaction masked: per kind, and how many JSON strings changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RedactReport {
    pub kinds: Vec<KindCount>,
    pub strings_changed: u32,
    /// String literals that could not be searched (not UTF-8): left as they
    /// are. The input's own diagnostics name them.
    pub strings_unread: u32,
}

/// The redacted text and what was masked.
#[derive(Debug, Clone)]
pub struct Redaction {
    pub bytes: Vec<u8>,
    pub report: RedactReport,
    /// Each secret with its placeholder, in order of first appearance.
    pub placeholders: Vec<(String, String)>,
}

/// The detectors `options` ask for.
pub fn detectors(options: &RedactOptions) -> Result<Vec<Detector>, BadPattern> {
    let mut out = if options.no_builtin { Vec::new() } else { Detector::builtin() };
    for p in &options.patterns {
        out.push(Detector::regex(p)?);
    }
    out.extend(options.literals.iter().filter_map(|l| Detector::literal(l)));
    Ok(out)
}

/// Why an input cannot be redacted.
#[derive(Debug)]
pub enum RedactError {
    Pattern(BadPattern),
    Gzip(crate::container::GzipError),
    Zip(crate::container::ZipError),
    /// A file of an archive that is not JSON: it cannot be searched, so the
    /// archive is not written (a secret in it would leave unmasked).
    NotJsonMember(String),
    TooLargeForZip(crate::container::TooLargeForZip),
}

impl std::fmt::Display for RedactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RedactError::Pattern(e) => e.fmt(f),
            RedactError::Gzip(e) => write!(f, "the gzip input could not be read: {e}"),
            RedactError::Zip(e) => write!(f, "the zip input could not be read: {e}"),
            RedactError::NotJsonMember(name) => {
                write!(f, "the archive holds `{name}`, which is not JSON and cannot be searched for secrets: nothing was written")
            }
            RedactError::TooLargeForZip(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RedactError {}

/// Masks the secrets of an input file as the parser receives it: gzip is
/// unwrapped and UTF-16 converted first (the output is plain UTF-8 JSON); a
/// zip (an Inspect `.eval`) stays a zip of the same files, each redacted,
/// stored (the placeholders numbered across the files).
pub fn redact_input(bytes: &[u8], options: &RedactOptions) -> Result<Redaction, RedactError> {
    use crate::container;
    if container::is_zip(bytes) {
        return redact_archive(bytes, options);
    }
    let unzipped;
    let bytes = if container::is_gzip(bytes) {
        unzipped = container::gunzip(bytes, container::MAX_GZIP_EXPANSION).map_err(RedactError::Gzip)?;
        &unzipped[..]
    } else {
        bytes
    };
    let converted;
    let bytes = match container::utf16_kind(bytes) {
        Some(kind) => {
            converted = container::utf16_to_utf8(bytes, kind);
            &converted[..]
        }
        None => bytes,
    };
    redact_json(bytes, options).map_err(RedactError::Pattern)
}

/// A zip's JSON files redacted by one masker, written back as a stored zip.
fn redact_archive(bytes: &[u8], options: &RedactOptions) -> Result<Redaction, RedactError> {
    use crate::container;
    let members = container::unzip(bytes, container::MAX_GZIP_EXPANSION).map_err(RedactError::Zip)?;
    if let Some((name, _)) = members.iter().find(|(name, _)| !(name.ends_with(".json") || name.ends_with(".jsonl"))) {
        return Err(RedactError::NotJsonMember(name.clone()));
    }
    let detectors = detectors(options).map_err(RedactError::Pattern)?;
    let mut masker = Masker::new(&detectors);
    let mut report = RedactReport::default();
    let mut out = Vec::with_capacity(members.len());
    for (name, data) in members {
        let masked = masker.redact_text(&data, &mut report);
        out.push((name, masked));
    }
    let bytes = container::write_stored(&out).map_err(RedactError::TooLargeForZip)?;
    Ok(masker.finish(bytes, report))
}

/// Masks the secrets in the JSON (or JSON Lines) text `bytes`.
pub fn redact_json(bytes: &[u8], options: &RedactOptions) -> Result<Redaction, BadPattern> {
    let detectors = detectors(options)?;
    let mut masker = Masker::new(&detectors);
    let mut report = RedactReport::default();
    let out = masker.redact_text(bytes, &mut report);
    Ok(masker.finish(out, report))
}

struct Masker<'d> {
    detectors: &'d [Detector],
    seen: HashMap<String, String>,
    order: Vec<(String, String)>,
    counts: HashMap<String, KindCount>,
}

impl<'d> Masker<'d> {
    fn new(detectors: &'d [Detector]) -> Masker<'d> {
        Masker { detectors, seen: HashMap::new(), order: Vec::new(), counts: HashMap::new() }
    }

    /// The JSON (or JSON Lines) text `bytes` with the secrets of its string
    /// values masked; `report` counts the strings changed and unread.
    fn redact_text(&mut self, bytes: &[u8], report: &mut RedactReport) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len());
        let mut copied = 0;
        for (quoted, terminated) in string_values(bytes) {
            let decoded = if terminated { crate::json::scan::decode_string(bytes, quoted.clone()) } else { None };
            let replacement = match decoded {
                // A String always serialises.
                Some(text) => self.mask(&text).map(|masked| serde_json::to_string(&masked).unwrap_or_default()),
                // A literal that does not decode (an unterminated string, a bad
                // escape): searched as it is written, the placeholders put in
                // its raw text, every other byte kept.
                None => match bytes.get(quoted.clone()).map(std::str::from_utf8) {
                    Some(Ok(raw)) => self.mask(raw),
                    _ => {
                        report.strings_unread += 1;
                        None
                    }
                },
            };
            let Some(replacement) = replacement else { continue };
            out.extend_from_slice(bytes.get(copied..quoted.start).unwrap_or_default());
            out.extend_from_slice(replacement.as_bytes());
            copied = quoted.end;
            report.strings_changed += 1;
        }
        out.extend_from_slice(bytes.get(copied..).unwrap_or_default());
        out
    }

    /// The redaction of `bytes`: the report completed with the counts per kind.
    fn finish(self, bytes: Vec<u8>, mut report: RedactReport) -> Redaction {
        let mut kinds: Vec<KindCount> = self.counts.into_values().collect();
        kinds.sort_by(|a, b| b.occurrences.cmp(&a.occurrences).then_with(|| a.kind.cmp(&b.kind)));
        report.kinds = kinds;
        Redaction { bytes, report, placeholders: self.order }
    }

    /// `text` with its secrets replaced, or None when it holds none.
    fn mask(&mut self, text: &str) -> Option<String> {
        let mut spans: Vec<(Range<usize>, usize)> = Vec::new();
        for (d, detector) in self.detectors.iter().enumerate() {
            if !detector.may_match(text) {
                continue;
            }
            for r in detector.find(text) {
                // The first kind to claim a span keeps it (the list is most specific first).
                if !spans.iter().any(|(s, _)| s.start < r.end && r.start < s.end) {
                    spans.push((r, d));
                }
            }
        }
        if spans.is_empty() {
            return None;
        }
        spans.sort_by_key(|(r, _)| r.start);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (r, d) in spans {
            let (Some(before), Some(secret), Some(kind)) = (text.get(at..r.start), text.get(r.clone()), self.detectors.get(d).map(|d| d.kind.clone())) else {
                continue;
            };
            out.push_str(before);
            out.push_str(&self.placeholder(&kind, secret));
            at = r.end;
        }
        out.push_str(text.get(at..).unwrap_or_default());
        Some(out)
    }

    fn placeholder(&mut self, kind: &str, secret: &str) -> String {
        let count = self.counts.entry(kind.to_string()).or_insert_with(|| KindCount { kind: kind.to_string(), ..KindCount::default() });
        count.occurrences += 1;
        if let Some(p) = self.seen.get(secret) {
            return p.clone();
        }
        count.distinct += 1;
        let p = format!("[REDACTED:{kind}:{}]", count.distinct);
        self.seen.insert(secret.to_string(), p.clone());
        self.order.push((secret.to_string(), p.clone()));
        p
    }
}

/// The quoted ranges of the string values of a JSON or JSON Lines text, in
/// order, each with whether it has its closing quote: every string literal
/// that is not an object key. A lexer, not a parser, so a broken document
/// still has its strings found.
fn string_values(b: &[u8]) -> Vec<(Range<usize>, bool)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = b.get(i..).and_then(|rest| memchr::memchr(b'"', rest)) {
        let start = i + off;
        // A string ends at its closing quote, or (unterminated: JSON strings
        // hold no raw newline) at the end of its line.
        let line_end = b.get(start + 1..).and_then(|rest| memchr::memchr(b'\n', rest)).map_or(b.len(), |n| start + 1 + n);
        let (end, terminated) = match crate::json::string::scan_string(b, start) {
            Ok(end) if end <= line_end => (end, true),
            _ => (line_end, false),
        };
        let after = crate::json::scan::skip_ws(b, end);
        if b.get(after) != Some(&b':') {
            out.push((start..end, terminated));
        }
        i = end.max(start + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redact(text: &str) -> (String, RedactReport) {
        let r = redact_json(text.as_bytes(), &RedactOptions::default()).unwrap();
        (String::from_utf8(r.bytes).unwrap(), r.report)
    }

    #[test]
    fn values_are_masked_keys_and_the_rest_kept_byte_for_byte() {
        let text = "{\"sk-proj-aaaaaaaaaaaaaaaaaaaaaaaa\": 1,  \"v\" : \"use sk-proj-aaaaaaaaaaaaaaaaaaaaaaaa now\", \"n\": [1, 2.50, \"x\\u00e9\"]}\n";
        let (out, report) = redact(text);
        assert_eq!(out, "{\"sk-proj-aaaaaaaaaaaaaaaaaaaaaaaa\": 1,  \"v\" : \"use [REDACTED:openai-key:1] now\", \"n\": [1, 2.50, \"x\\u00e9\"]}\n");
        assert_eq!(report.strings_changed, 1);
        assert_eq!(report.kinds, [KindCount { kind: "openai-key".to_string(), occurrences: 1, distinct: 1 }]);
    }

    #[test]
    fn the_same_secret_is_the_same_placeholder() {
        let a = "sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaa";
        let b = "sk-ant-api03-bbbbbbbbbbbbbbbbbbbbbbbb";
        let text = format!("[\"{a}\", \"{b} and {a}\", {{\"k\": \"{b}\"}}]");
        let (out, report) = redact(&text);
        assert_eq!(out, "[\"[REDACTED:anthropic-key:1]\", \"[REDACTED:anthropic-key:2] and [REDACTED:anthropic-key:1]\", {\"k\": \"[REDACTED:anthropic-key:2]\"}]");
        assert_eq!(report.kinds, [KindCount { kind: "anthropic-key".to_string(), occurrences: 4, distinct: 2 }]);
    }

    #[test]
    fn escaped_text_is_searched_decoded_and_json_inside_strings_too() {
        // A private key with \n escapes, inside tool arguments that are themselves a JSON string.
        let inner = serde_json::json!({"key": "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----", "to": "a@b.io"}).to_string();
        let text = serde_json::json!({"arguments": inner}).to_string();
        let (out, report) = redact(&text);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let args: serde_json::Value = serde_json::from_str(v["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args["key"], "[REDACTED:private-key:1]");
        assert_eq!(args["to"], "[REDACTED:email:1]");
        assert_eq!(report.strings_changed, 1);
    }

    #[test]
    fn broken_json_still_has_its_strings_masked() {
        let (out, _) = redact("{\"a\": \"me@example.com\", \"b\": \"unterminated me@example.com\n{\"c\": tru\n");
        assert_eq!(out.matches("[REDACTED:email:1]").count(), 2, "{out}");
        assert!(!out.contains("@example.com"));
    }

    #[test]
    fn user_patterns_and_literals() {
        let options = RedactOptions { no_builtin: true, patterns: vec![r"ticket-(\d+)".to_string()], literals: vec!["Acme".to_string()] };
        let r = redact_json(br#"{"t": "Acme ticket-42, me@x.io"}"#, &options).unwrap();
        assert_eq!(String::from_utf8(r.bytes).unwrap(), r#"{"t": "[REDACTED:literal:1] ticket-[REDACTED:custom:1], me@x.io"}"#);
        assert!(redact_json(b"{}", &RedactOptions { patterns: vec!["(".to_string()], ..RedactOptions::default() }).is_err());
    }
}
