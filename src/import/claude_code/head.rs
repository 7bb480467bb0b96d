//! The session an older sub-agent file belongs to, read from its first
//! bytes: `agent-<id>.jsonl` beside `<sessionId>.jsonl` names no session in
//! its path, but each of its records carries the parent's `sessionId`.
//!
//! Grouping reads only a file's head (8 KB, [`crate::import::GROUP_HEAD_BYTES`]),
//! and a sub-agent's first record is its prompt, which can be longer than
//! that: so the record's top-level members are walked in order and the walk
//! stops at `sessionId` (Claude Code writes it before `message`), without
//! needing the record to end inside the head.

use crate::json::ends::NO_ENDS;
use crate::json::read::{string_end, value_end};
use crate::json::scan::skip_ws;

/// The `sessionId` of the first record in `head` (JSON Lines, the last
/// line possibly cut) that has one among its top-level members before the
/// head ends; `None` for bytes that are not such records.
pub(super) fn session_id(head: &[u8]) -> Option<String> {
    let mut at = crate::json::bom_len(head);
    loop {
        at = skip_ws(head, at);
        if head.get(at) != Some(&b'{') {
            return None;
        }
        match record_session_id(head, at)? {
            Found::Id(id) => return Some(id),
            Found::NoneUntil(end) => at = end,
        }
    }
}

/// What a walk of one record's members found.
enum Found {
    /// The record's `sessionId`.
    Id(String),
    /// The record has none; it ends at this offset.
    NoneUntil(usize),
}

/// Walks the members of the object at `open`; `None` when the bytes stop
/// being an object (cut by the head's end, or not JSON) before an answer.
fn record_session_id(b: &[u8], open: usize) -> Option<Found> {
    let mut at = skip_ws(b, open + 1);
    if b.get(at) == Some(&b'}') {
        return Some(Found::NoneUntil(at + 1));
    }
    loop {
        if b.get(at) != Some(&b'"') {
            return None;
        }
        let (key_end, _) = string_end(b, at)?;
        let key: String = serde_json::from_slice(b.get(at..key_end)?).ok()?;
        at = skip_ws(b, key_end);
        if b.get(at) != Some(&b':') {
            return None;
        }
        at = skip_ws(b, at + 1);
        let value_end = value_end(b, at, &NO_ENDS)?;
        if key == "sessionId" {
            return match serde_json::from_slice::<serde_json::Value>(b.get(at..value_end)?).ok()? {
                serde_json::Value::String(id) => Some(Found::Id(id)),
                _ => None,
            };
        }
        at = skip_ws(b, value_end);
        match b.get(at)? {
            b',' => at = skip_ws(b, at + 1),
            b'}' => return Some(Found::NoneUntil(at + 1)),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::session_id;

    #[test]
    fn the_first_record_with_a_session_id_names_it_even_when_cut() {
        let id = |s: &str| session_id(s.as_bytes());
        let long = "x".repeat(20_000);
        let record = format!(r#"{{"parentUuid":null,"isSidechain":true,"sessionId":"s-1","agentId":"a","message":{{"content":"{long}"}}}}"#);
        // Cut inside the prompt, as an 8 KB head cuts a long first record.
        assert_eq!(id(&record[..8192]), Some("s-1".into()));
        assert_eq!(id(&format!("\u{feff}{record}\n")), Some("s-1".into()));
        // A record without one before it; escapes in keys and values decode.
        assert_eq!(id("{\"type\":\"summary\",\"n\":[1,{\"sessionId\":\"no\"}]}\n{\"session\\u0049d\":\"s\\u002d2\"}"), Some("s-2".into()));
        for none in [
            "",
            "garbage",
            "\u{0}\u{1}\u{2}",
            r#"{"parentUuid":null,"isSidech"#,
            r#"{"sessionId":12}"#,
            r#"{"sessionId":"cut"#,
            r#"["sessionId","s"]"#,
            r#"{"a":1}{"a":2}"#,
            "{\"a\" 1, \"sessionId\":\"s\"}",
        ] {
            assert_eq!(id(none), None, "{none}");
        }
    }
}
