//! The one line that says what an event is: list rows, the search text of
//! records without content of their own, and importers' labels use it.

use crate::lazy_value::Unparsed;
use crate::model::{Content, ContentPart, Event, EventBody, LazyValue, Trace};

/// Cuts `s` to at most `max` characters on a character boundary.
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or(s)),
        None => s.to_string(),
    }
}

/// `s` on one line (whitespace runs collapsed), cut to `max` characters.
pub fn one_line(s: &str, max: usize) -> String {
    // Only the head can show: a 20 MB tool output costs a row no more than a short one.
    let head = match s.char_indices().nth(line_head_chars(max)) {
        Some((i, _)) => s.get(..i).unwrap_or(s),
        None => s,
    };
    let collapsed: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
    truncate(&collapsed, max)
}

/// How many characters of a key-value event's value its line shows.
pub const KEY_VALUE_SHOWN: usize = 100;

/// The characters of a text that `one_line(_, max)` reads: nothing past
/// them is in the line, nor (for a key-value event's value written as JSON)
/// in the event's search text.
pub const fn line_head_chars(max: usize) -> usize {
    max.saturating_mul(8)
}

/// The head of `v` written as compact JSON, as much of it as
/// `one_line(_, max)` looks at: a key-value event's value can be megabytes
/// (a tool's whole output), written out for a row or a search to keep 100
/// characters of it.
fn json_head(v: &serde_json::Value, max: usize) -> String {
    /// Takes characters up to `room` (bytes up to the next one's first),
    /// then refuses: the writer stops there.
    struct Head {
        out: Vec<u8>,
        room: usize,
    }
    impl std::io::Write for Head {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            let first_of_char = |x: &u8| *x & 0xC0 != 0x80;
            let mut n = b.len();
            for (i, _) in b.iter().enumerate().filter(|(_, x)| first_of_char(x)) {
                if self.room == 0 {
                    n = i;
                    break;
                }
                self.room -= 1;
            }
            if n == 0 && !b.is_empty() {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.out.extend_from_slice(b.get(..n).unwrap_or(b));
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut head = Head { out: Vec::new(), room: line_head_chars(max) };
    let _ = serde_json::to_writer(&mut head, v);
    match String::from_utf8(head.out) {
        Ok(s) => s,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
    }
}

/// `[image]`, `[2 images, reasoning]`: what a content without text holds.
fn media_label(content: &Content) -> String {
    let Content::Parts(parts) = content else { return String::new() };
    let images = parts.iter().filter(|p| matches!(p, ContentPart::Image { .. })).count();
    let mut out = Vec::new();
    match images {
        0 => {}
        1 => out.push("image".to_string()),
        n => out.push(format!("{n} images")),
    }
    if parts.iter().any(|p| matches!(p, ContentPart::Reasoning(_))) {
        out.push("reasoning".to_string());
    }
    if out.is_empty() {
        String::new()
    } else {
        format!("[{}]", out.join(", "))
    }
}

/// A key-value event's value on one line: its bytes when they are what
/// serde_json writes for it (a value left in the source is not parsed for a
/// row or a search), else the head of its JSON, from a parse kept only if
/// one was made before.
fn value_line(v: &LazyValue, max: usize) -> String {
    if v.parsed().is_none() {
        if let Some(text) = v.origin().and_then(|o| match o {
            Unparsed::Json(bytes) => crate::json::compact::as_written(bytes),
            Unparsed::EncodedIn(_) => None,
        }) {
            return one_line(text, max);
        }
    }
    v.read(|v| one_line(&json_head(v, max), max))
}

/// One line that says what the event is, for list rows.
pub fn summary(trace: &Trace, e: &Event) -> String {
    match &e.body {
        EventBody::Message(m) => {
            let text = match one_line(&m.content.text(), 160) {
                t if t.is_empty() => media_label(&m.content),
                t => t,
            };
            let calls: Vec<String> =
                m.tool_calls.iter().map(|c| format!("{}({})", c.function, one_line(&c.arguments.display(), 60))).collect();
            match (text.is_empty(), calls.is_empty()) {
                (_, true) => text,
                (true, false) => format!("→ {}", calls.join(", ")),
                (false, false) => format!("{text} → {}", calls.join(", ")),
            }
        }
        EventBody::ToolCall(c) => format!("{}({})", c.function, one_line(&c.arguments.display(), 100)),
        EventBody::ToolResult(r) => {
            let f = r.call.and_then(|c| trace.call(c)).map(|c| format!("{}: ", c.function)).unwrap_or_default();
            format!("{f}{}", one_line(&r.content.text(), 160))
        }
        EventBody::ToolDefinitions(t) => {
            format!("tools: {}", t.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", "))
        }
        EventBody::Span(s) => format!("{:?} {}", s.phase, s.name.join("/")),
        EventBody::Marker(m) => m.label.clone(),
        EventBody::KeyValue(kv) => format!("{} = {}", kv.key, value_line(&kv.value, KEY_VALUE_SHOWN)),
        EventBody::Unparsed(why) => why.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value left in the source reads on its line as its parse does,
    /// whether its bytes are written as serde_json writes them or not, and
    /// is not kept parsed.
    #[test]
    fn a_value_in_the_source_lines_up_as_its_parse_does() {
        let long = "é😀 x\\n  \\u0041 ".repeat(500);
        let canonical = "é😀 x\\n\\u001b  ".repeat(500);
        for text in [
            format!(r#"{{"out":"{canonical}","n":1}}"#),
            format!(r#"{{"out":"{long}","n":1}}"#),
            format!(r#"{{"out": "{long}"}}"#),
            r#"{"a":"x\u0041\/","a":[1.50,-0,1e5]}"#.to_string(),
            r#"{"a":"b","c":[true,null]}"#.to_string(),
        ] {
            let source: crate::text::Source = std::sync::Arc::new(text.clone().into_bytes());
            let lazy = LazyValue::in_source(&source, 0..text.len());
            let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
            for max in [0, 7, 100] {
                assert_eq!(value_line(&lazy, max), one_line(&json_head(&parsed, max), max), "{text}");
            }
            assert!(lazy.parsed().is_none());
        }
    }

    #[test]
    fn a_json_head_lines_up_as_the_whole_value_does() {
        let long = "é😀 x  ".repeat(5_000);
        for v in [
            serde_json::json!({"out": long, "n": 1}),
            serde_json::json!([long, {"k": "v"}]),
            serde_json::json!({"short": "a\n  b"}),
            serde_json::json!(null),
            serde_json::json!("   "),
        ] {
            for max in [0, 1, 7, 100] {
                assert_eq!(one_line(&json_head(&v, max), max), one_line(&v.to_string(), max), "{max}");
            }
            assert!(json_head(&v, 100).chars().count() <= 800);
        }
    }

    #[test]
    fn one_line_collapses_and_cuts_long_text() {
        assert_eq!(one_line("a\n  b\tc", 10), "a b c");
        let long = format!("{}end", "word ".repeat(1_000_000));
        let line = one_line(&long, 20);
        assert_eq!(line.chars().count(), 21);
        assert!(line.ends_with('…'));
        // Whitespace runs longer than the head still give the start of the text.
        assert_eq!(one_line(&format!("{}x", " ".repeat(10_000)), 5), "");
        assert_eq!(one_line(&format!("x{}y", " ".repeat(10)), 5), "x y");
    }
}
