//! A span object's members found in one walk with its attribute list's
//! items. `read::members` found the end of a span's `attributes` list by
//! walking it bracket by bracket (too deep for the split's table of ends),
//! and `read::items` walked each attribute again to find its end, before
//! the fast reader matched it as the compact `{"key":…,"value":
//! {"stringValue":…}}` it nearly always is: three walks of every
//! attribute. Here the compact attribute is matched where it starts, which
//! gives its end; any other item's end is found as `read::items` finds it.
//! The span's own members are walked by `read::members_claiming`, which
//! hands the `attributes` list here.

use std::ops::Range;

use crate::json::ends::EndsCursor;
use crate::json::read::{self, Claimed, Kind, Member};
use crate::json::scan::skip_ws;
use crate::json::ContainerEnds;

/// An attribute's value: a `stringValue`'s contents (and whether they hold
/// an escape), or any other value object's bytes.
pub enum AttrValue {
    Text(Range<usize>, bool),
    Other(Range<usize>),
}

/// An item of a span's attribute list: its bytes, and, when it is written
/// compactly, its key's contents and its value.
pub type AttrItem = (Range<usize>, Option<(Range<usize>, AttrValue)>);

/// The members of the span object whose `{` is at `open`, as
/// `read::members` finds them, into `out`; the items of its (last) plain
/// `attributes` list into `items` (both cleared first). Returns the offset
/// past the object's `}`.
pub fn span_members(b: &[u8], open: usize, ends: &ContainerEnds, out: &mut Vec<Member>, items: &mut Vec<AttrItem>) -> Option<usize> {
    items.clear();
    read::members_claiming(b, open, ends, out, |member, start, at| {
        let attributes = !member.key_escaped && b.get(member.key.clone()) == Some(b"attributes".as_slice());
        if !attributes || member.kind != Kind::Array {
            return Claimed::Not;
        }
        match attribute_items(b, start, ends, at, items) {
            Some(end) => Claimed::End(end),
            None => Claimed::Broken,
        }
    })
}

/// The items of the attribute list whose `[` is at `open` into `out`
/// (cleared first); the offset past its `]`.
fn attribute_items(b: &[u8], open: usize, ends: &ContainerEnds, at: &mut EndsCursor, out: &mut Vec<AttrItem>) -> Option<usize> {
    out.clear();
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b']') {
        return Some(i + 1);
    }
    loop {
        let (end, compact) = match compact_attribute(b, i, at) {
            Some((end, key, value)) => (end, Some((key, value))),
            None => (read::value_end(b, i, ends)?, None),
        };
        out.push((i..end, compact));
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The attribute `{"key":"…","value":{"stringValue":"…"}}` written compactly
/// (as exporters write it) at `start`, matched byte for byte: the offset
/// past it, its key's contents and its value. `None` for any other spelling
/// (an escaped key too: its bytes are not its name).
fn compact_attribute(b: &[u8], start: usize, at: &mut EndsCursor) -> Option<(usize, Range<usize>, AttrValue)> {
    const HEAD: &[u8] = br#"{"key":""#;
    const MID: &[u8] = br#","value":{"stringValue":"#;
    if !b.get(start..)?.starts_with(HEAD) {
        return None;
    }
    let key_open = start + HEAD.len() - 1;
    let (key_end, key_escaped) = at.string_at(key_open).or_else(|| read::string_end(b, key_open))?;
    let open = key_end + MID.len();
    if key_escaped || b.get(key_end..open)? != MID || b.get(open) != Some(&b'"') {
        return None;
    }
    let (end, escaped) = at.string_at(open).or_else(|| read::string_end(b, open))?;
    if b.get(end..end + 2)? != b"}}" {
        return None;
    }
    Some((end + 2, key_open + 1..key_end - 1, AttrValue::Text(open + 1..end - 1, escaped)))
}
