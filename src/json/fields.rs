//! What a fast path needs before it reads a record member by member: the
//! members it looks at, found by key, and the assurance that serde_json (the
//! exact path) would read the record as the scanner did.
//!
//! Shared by the formats' fast paths (`src/import/*/fast.rs`), which each
//! read their common records straight from the bytes and leave the rest to
//! their exact path.

use std::ops::Range;

use serde_json::{Map, Value};

use super::ends::ContainerEnds;
use super::read::{Kind, Member};

/// The members of one object that a reader looks at, found by key; `None`
/// (not read fast) when one of them appears twice or any key is escaped:
/// serde_json keeps the last of repeated keys and decodes escaped ones, which
/// a byte-level reader would get wrong.
pub struct Fields<const N: usize> {
    found: [Option<usize>; N],
}

impl<const N: usize> Fields<N> {
    pub fn find(b: &[u8], members: &[Member], names: [&[u8]; N]) -> Option<Fields<N>> {
        let mut found = [None; N];
        for (i, m) in members.iter().enumerate() {
            if m.key_escaped {
                return None;
            }
            let key = b.get(m.key.clone())?;
            if let Some(k) = names.iter().position(|n| *n == key) {
                let slot = found.get_mut(k)?;
                if slot.is_some() {
                    return None;
                }
                *slot = Some(i);
            }
        }
        Some(Fields { found })
    }

    /// The member named `names[k]`, if the object has it.
    pub fn get<'m>(&self, members: &'m [Member], k: usize) -> Option<&'m Member> {
        members.get((*self.found.get(k)?)?)
    }
}

/// The members of one parsed object that a reader looks at, by index in
/// its list of names: what an exact path hands its checks, where the fast
/// path hands the members it built from the bytes (found by [`Fields`]), so
/// that only the reading differs. Looked up by index, not hashed.
pub struct Members<'v, const N: usize>(pub [Option<&'v Value>; N]);

impl<'v, const N: usize> Members<'v, N> {
    /// Those of the parsed object `o` named in `names`.
    pub fn of(o: &'v Map<String, Value>, names: &[&str; N]) -> Members<'v, N> {
        Members(names.map(|k| o.get(k)))
    }

    pub fn get(&self, k: usize) -> Option<&'v Value> {
        self.0.get(k).copied().flatten()
    }
}

/// True when serde_json would read the record at `r` as the scanner did: it
/// is valid UTF-8 (`utf8_valid`: the whole input is) and holds none of the
/// split's `hazards` (a lone surrogate escape, nesting past serde_json's
/// limit, its private number key; sorted offsets).
pub fn plain_record(b: &[u8], r: &Range<usize>, hazards: &[usize], utf8_valid: bool) -> bool {
    let Some(bytes) = b.get(r.clone()) else { return false };
    let first_hazard = hazards.partition_point(|h| *h < r.start);
    let hazard_inside = hazards.get(first_hazard).is_some_and(|h| *h < r.end);
    !hazard_inside && (utf8_valid || std::str::from_utf8(bytes).is_ok())
}

/// The object whose members are `members` (read by the caller from a
/// [`plain_record`]) as serde_json builds it, but without those named in
/// `skip`, which are not built at all (a member a reader leaves in the
/// source, such as a step's copy of the whole prompt). `None` for an escaped
/// key or a value the builder declines: the caller then parses it whole.
pub fn object_without(b: &[u8], members: &[Member], skip: &[&[u8]]) -> Option<Map<String, Value>> {
    build_object(b, members.iter().filter(|m| !b.get(m.key.clone()).is_some_and(|k| skip.contains(&k))), |_, _| None)
}

/// The object whose members are `members`, as serde_json builds it, but
/// with the values `replace` gives for the members it names (a reader takes
/// those from the bytes itself and leaves a placeholder, so that the keys
/// and their order stay serde_json's). `None` for an escaped key or a value
/// the builder declines.
pub fn build_object<'m>(b: &[u8], members: impl IntoIterator<Item = &'m Member>, mut replace: impl FnMut(&[u8], &Member) -> Option<Value>) -> Option<Map<String, Value>> {
    // Sized up front: grown from empty, the map's table and entries were
    // reallocated and rehashed as members came (~1.3M instructions of a
    // 10 MB Langfuse or LangSmith file).
    let members = members.into_iter();
    let mut out = Map::with_capacity(members.size_hint().0);
    for m in members {
        if m.key_escaped {
            return None;
        }
        let key = b.get(m.key.clone())?;
        let value = match replace(key, m) {
            Some(v) => v,
            None => super::build::value(b.get(m.value.clone())?)?,
        };
        // As serde_json: a repeated key keeps its first place and its last value.
        out.insert(std::str::from_utf8(key).ok()?.to_string(), value);
    }
    Some(out)
}

/// The `text` members of the list at `open` when every item is a
/// `{"type": "text", "text": "…"}` part (`type` written plainly; other
/// members ignored), else `None`.
pub fn text_parts(b: &[u8], ends: &ContainerEnds, open: usize) -> Option<Vec<Member>> {
    let (mut items, mut part) = (Vec::new(), Vec::new());
    super::read::items(b, open, ends, &mut items)?;
    let mut texts = Vec::with_capacity(items.len());
    for item in items {
        super::read::members(b, item.start, ends, &mut part)?;
        let f = Fields::find(b, &part, [b"type", b"text"])?;
        f.get(&part, 0).filter(|t| t.kind == Kind::String && !t.escaped && b.get(t.inner()) == Some(b"text"))?;
        texts.push(f.get(&part, 1).filter(|t| t.kind == Kind::String)?.clone());
    }
    Some(texts)
}

/// True when `s` is one JSON object by the validating scanner, with none of
/// the hazards that make serde_json refuse or misread it: what a fast path
/// checks before it leaves a JSON-encoded string (tool-call arguments) to be
/// parsed when first read. Some strings Python's `json.loads` reads that this
/// refuses (NaN, lone surrogates): those take the exact path.
pub fn encodes_an_object(s: &str) -> bool {
    let b = s.as_bytes();
    let start = super::scan::skip_ws(b, 0);
    let mut hazards = Vec::new();
    b.get(start) == Some(&b'{')
        && super::scan::scan_value_hazards(b, start, &mut hazards).is_ok_and(|end| super::scan::skip_ws(b, end) == b.len())
        && hazards.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::read::members;
    use crate::json::scan::NO_ENDS;

    fn fields(src: &[u8]) -> Option<(Option<usize>, Option<usize>)> {
        let mut m = Vec::new();
        members(src, 0, &NO_ENDS, &mut m)?;
        let f = Fields::find(src, &m, [b"a", b"b"])?;
        Some((f.get(&m, 0).map(|m| m.value.start), f.get(&m, 1).map(|m| m.value.start)))
    }

    #[test]
    fn finds_members_and_refuses_repeats_and_escapes() {
        assert_eq!(fields(br#"{"a":1,"c":2}"#), Some((Some(5), None)));
        assert_eq!(fields(br#"{"c":1,"c":2,"b":3}"#), Some((None, Some(17))));
        assert_eq!(fields(br#"{"a":1,"a":2}"#), None);
        assert_eq!(fields(br#"{"\u0061":1}"#), None);
    }

    #[test]
    fn objects_without_skipped_members_are_what_serde_json_reads_less_those() {
        let without = |src: &[u8], skip: &[&[u8]]| {
            let mut m = Vec::new();
            members(src, crate::json::scan::skip_ws(src, 0), &NO_ENDS, &mut m)?;
            object_without(src, &m, skip)
        };
        let src = br#" {"a": [1, {"b": "x\u00e9"}], "query": [{"big": 1}], "c": 1, "a": 2.50} "#;
        let got = without(src, &[b"query"]).unwrap();
        let mut want: Map<String, Value> = serde_json::from_slice(src).unwrap();
        want.remove("query");
        assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&want).unwrap());
        assert!(without(br#"{"\u0061": 1}"#, &[]).is_none());
        assert!(without(b"[1]", &[]).is_none());
    }

    #[test]
    fn text_parts_are_plain_text_items_only() {
        let texts = |s: &[u8]| text_parts(s, &NO_ENDS, 0).map(|m| m.iter().map(|m| m.inner()).collect::<Vec<_>>());
        assert_eq!(texts(br#"[{"type": "text", "text": "a", "x": 1}, {"text": "b", "type": "text"}]"#), Some(vec![27..28, 50..51]));
        assert_eq!(texts(b"[]"), Some(vec![]));
        assert_eq!(texts(br#"[{"type": "t\u0065xt", "text": "a"}]"#), None);
        assert_eq!(texts(br#"[{"type": "image", "text": "a"}]"#), None);
        assert_eq!(texts(br#"[{"type": "text", "text": 1}]"#), None);
        assert_eq!(texts(br#"["text"]"#), None);
    }

    #[test]
    fn encoded_objects() {
        assert!(encodes_an_object(r#" {"a": [1, "x"]} "#));
        assert!(!encodes_an_object(r#"{"a": 1} x"#));
        assert!(!encodes_an_object("[1]"));
        assert!(!encodes_an_object(r#"{"a": NaN}"#));
        assert!(!encodes_an_object(r#"{"a": "\ud800"}"#));
    }

    #[test]
    fn plain_records_have_no_hazard_and_valid_utf8() {
        let b = b"{\"a\":1} {\"b\":\xff}";
        assert!(plain_record(b, &(0..7), &[], false));
        assert!(!plain_record(b, &(8..b.len()), &[], false));
        assert!(plain_record(b, &(8..b.len()), &[], true));
        assert!(!plain_record(b, &(0..7), &[3], true));
        assert!(plain_record(b, &(0..7), &[7], true));
    }
}
