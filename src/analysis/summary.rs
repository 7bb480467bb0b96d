//! The one line that says what an event is: list rows, the search text of
//! records without content of their own, and importers' labels use it.

use crate::model::{Content, ContentPart, Event, EventBody, Trace};

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
    let head = match s.char_indices().nth(max.saturating_mul(8)) {
        Some((i, _)) => s.get(..i).unwrap_or(s),
        None => s,
    };
    let collapsed: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
    truncate(&collapsed, max)
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
        EventBody::KeyValue(kv) => format!("{} = {}", kv.key, one_line(&kv.value.to_string(), 100)),
        EventBody::Unparsed(why) => why.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
