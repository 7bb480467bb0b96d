//! Paths into JSON values: the JSONPath diagnostics name (`$[3].tool_calls[0]`)
//! and the offset of the value a path leads to.

use std::ops::Range;

use super::ends::ContainerEnds;
use super::scan::{array_items_in, object_members_in, skip_ws, Grammar};

/// No recorded ends, and the wider grammar: a path is only looked up in a
/// value the split accepted, in whichever grammar it read.
static ANY_GRAMMAR: ContainerEnds = ContainerEnds::empty(Grammar::NonFinite);

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl Seg {
    pub fn key(k: &str) -> Seg {
        Seg::Key(k.to_string())
    }
}

/// `{path}[{i}]`, the JSON path of a list's item, written without
/// `format!`, whose machinery cost more than reading a small event.
pub fn item_path(path: &str, i: usize) -> String {
    let mut s = String::with_capacity(path.len() + 8);
    s.push_str(path);
    s.push('[');
    let digits = s.len();
    let mut n = i;
    loop {
        s.insert(digits, char::from(b'0' + u8::try_from(n % 10).unwrap_or(0)));
        n /= 10;
        if n == 0 {
            break;
        }
    }
    s.push(']');
    s
}

/// Renders a JSONPath such as `$[3].tool_calls[0].function.name`.
pub fn render_path(base: &str, segs: &[Seg]) -> String {
    let mut out = String::from(base);
    for seg in segs {
        match seg {
            Seg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            Seg::Key(k) => {
                let plain = !k.is_empty()
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !k.starts_with(|c: char| c.is_ascii_digit());
                if plain {
                    out.push('.');
                    out.push_str(k);
                } else {
                    out.push('[');
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push(']');
                }
            }
        }
    }
    out
}

/// The offset of the value at `path` inside the value starting at `start`,
/// or of the deepest container on the way when a step is missing. The value
/// may hold `NaN` and the infinities ([`Grammar::NonFinite`]).
pub fn find_path(b: &[u8], start: usize, path: &[Seg]) -> usize {
    find_path_in(b, start, path, &ANY_GRAMMAR)
}

/// [`find_path`], jumping over the containers `ends` holds the ends of
/// (the split's): a value after a long one is found without scanning it.
/// Where the table's grammar refuses a step (a `NaN` in a strict table),
/// the step is scanned again in the wider grammar, as [`find_path`] does.
pub fn find_path_in(b: &[u8], start: usize, path: &[Seg], ends: &ContainerEnds) -> usize {
    let mut at = skip_ws(b, start);
    for seg in path {
        let next = match (seg, b.get(at)) {
            (Seg::Key(k), Some(b'{')) => object_members_in(b, at, ends)
                .or_else(|_| object_members_in(b, at, &ANY_GRAMMAR))
                .ok()
                .and_then(|m| m.into_iter().find(|(key, _)| key == k).map(|(_, r)| r.start)),
            (Seg::Index(n), Some(b'[')) => {
                let (items, end) = array_items_in(b, at, ends);
                let items = if end.is_ok() { items } else { array_items_in(b, at, &ANY_GRAMMAR).0 };
                items.get(*n).map(|r| r.start)
            }
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => return at,
        }
    }
    at
}

/// Where each item of the list at `path` (inside the value starting at
/// `start`) starts: one scan for all of them, for reporting on many items
/// (a [`find_path`] per item scans the value once per item).
pub fn item_starts(b: &[u8], start: usize, path: &[Seg], ends: &ContainerEnds) -> Vec<usize> {
    let list = find_path_in(b, start, path, ends);
    array_items_in(b, list, ends).0.into_iter().map(|r| r.start).collect()
}

/// [`item_starts`] for the members of the object at `path`: each key (as
/// decoded) and where its value starts, in order.
pub fn member_starts(b: &[u8], start: usize, path: &[Seg], ends: &ContainerEnds) -> Vec<(String, usize)> {
    let object = find_path_in(b, start, path, ends);
    object_members_in(b, object, ends).map(|m| m.into_iter().map(|(k, r)| (k, r.start)).collect()).unwrap_or_default()
}

/// The value range of member `key` of the object at `at` (the last one when
/// the key repeats, as serde_json keeps it); None when there is no object or
/// no such member.
pub fn member_range(b: &[u8], at: usize, ends: &ContainerEnds, key: &str) -> Option<Range<usize>> {
    let members = object_members_in(b, skip_ws(b, at), ends).ok()?;
    members.into_iter().rev().find(|(k, _)| k == key).map(|(_, r)| r)
}

/// The item ranges of the list at `range` (none when it is not a list).
pub fn list_items(b: &[u8], range: &Range<usize>, ends: &ContainerEnds) -> Vec<Range<usize>> {
    let at = skip_ws(b, range.start);
    if b.get(at) != Some(&b'[') {
        return Vec::new();
    }
    array_items_in(b, at, ends).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_paths_read_as_format_writes_them() {
        for i in [0, 7, 10, 99, 1234, usize::MAX] {
            assert_eq!(super::item_path("$.samples[0].events", i), format!("$.samples[0].events[{i}]"));
        }
    }

    #[test]
    fn paths_render_like_jsonpath() {
        let p = render_path("$", &[Seg::Index(3), Seg::key("tool_calls"), Seg::Index(0), Seg::key("function"), Seg::key("name")]);
        assert_eq!(p, "$[3].tool_calls[0].function.name");
        assert_eq!(render_path("$", &[Seg::key("a b")]), "$[\"a b\"]");
    }

    #[test]
    fn many_values_located_at_once_as_one_by_one() {
        let b = br#"{"x": {"l": [1, "two", {"t": NaN}], "m": {"a": 1, "b\u0041": [2]}}}"#;
        let wide = ContainerEnds::empty(Grammar::NonFinite);
        let l = [Seg::key("x"), Seg::key("l")];
        let starts = item_starts(b, 0, &l, &wide);
        assert_eq!(starts.len(), 3);
        for (i, at) in starts.iter().enumerate() {
            assert_eq!(*at, find_path(b, 0, &[l[0].clone(), l[1].clone(), Seg::Index(i)]));
        }
        let m = member_starts(b, 0, &[Seg::key("x"), Seg::key("m")], &wide);
        assert_eq!(m.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["a", "bA"]);
        assert_eq!(m[1].1, find_path(b, 0, &[Seg::key("x"), Seg::key("m"), Seg::key("bA")]));
        // A path through a `NaN` is found whatever the table's grammar.
        assert_eq!(b[find_path(b, 0, &[l[0].clone(), l[1].clone(), Seg::Index(2), Seg::key("t")])], b'N');
    }
}
