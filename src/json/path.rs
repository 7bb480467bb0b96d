//! Paths into JSON values: the JSONPath diagnostics name (`$[3].tool_calls[0]`)
//! and the offset of the value a path leads to.

use super::scan::{array_items, object_members, skip_ws};

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
/// or of the deepest container on the way when a step is missing.
pub fn find_path(b: &[u8], start: usize, path: &[Seg]) -> usize {
    let mut at = skip_ws(b, start);
    for seg in path {
        let next = match (seg, b.get(at)) {
            (Seg::Key(k), Some(b'{')) => object_members(b, at)
                .ok()
                .and_then(|m| m.into_iter().find(|(key, _)| key == k).map(|(_, r)| r.start)),
            (Seg::Index(n), Some(b'[')) => array_items(b, at).0.get(*n).map(|r| r.start),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => return at,
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_jsonpath() {
        let p = render_path("$", &[Seg::Index(3), Seg::key("tool_calls"), Seg::Index(0), Seg::key("function"), Seg::key("name")]);
        assert_eq!(p, "$[3].tool_calls[0].function.name");
        assert_eq!(render_path("$", &[Seg::key("a b")]), "$[\"a b\"]");
    }
}
