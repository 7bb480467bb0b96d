//! [`EventMetadata`]: an event's metadata, built when first read.
//!
//! Formats keep the fields of a record that the model has no place for as
//! the event's metadata, an ordered `serde_json` map. Built for every record
//! of a Claude Code session, those maps were the largest cost left in its
//! reading (an allocation per key and per value, SipHash per key; a third of
//! the instructions) and most of its memory, while the viewer shows the
//! metadata of the one event a user opens. So a fast path may leave them in
//! the source: the record's range, and a [`Shape`], a `fn` that turns the
//! parsed record into the metadata as the exact path does (the same
//! removals in the same order, since serde_json's `remove` moves the last
//! key into the hole; the exact path calls the same `fn` where it can), so
//! that the two agree by construction; `tests/fast_paths.rs` compares them.

use std::fmt;
use std::ops::{Deref, DerefMut, Range};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::model::Metadata;
use crate::text::Source;

/// An event's metadata: a map, or a record of the source turned into one
/// when first read. Reads see a [`Metadata`] through `Deref`; a write builds
/// it first.
#[derive(Clone, Default)]
pub struct EventMetadata {
    map: Metadata,
    deferred: Option<Box<Deferred>>,
}

/// Turns a parsed record and the entries the reading added (`extra`) into
/// an event's metadata.
pub type Shape = fn(Metadata, &Metadata) -> Metadata;

#[derive(Clone)]
struct Deferred {
    source: Source,
    start: u32,
    end: u32,
    shape: Shape,
    /// Entries the reading added (or context the record lacks), for
    /// `shape`; none for most records. Boxed, as is the map once built: a
    /// trace holds one `Deferred` per event, and inline maps made it 176
    /// bytes instead of 48 (Inspect's messages and events: 0.8 MB of a
    /// 10 MB log's 6 MB of events).
    extra: Option<Box<Metadata>>,
    built: OnceLock<Box<Metadata>>,
}

impl EventMetadata {
    /// The JSON object at `range` of `source`, which the split validated,
    /// turned into the metadata by `shape` with `extra`. Should the range
    /// not hold an object after all, `shape` is given an empty one rather
    /// than an error.
    pub fn in_source(source: &Source, range: Range<usize>, shape: Shape, extra: Metadata) -> EventMetadata {
        match (u32::try_from(range.start), u32::try_from(range.end)) {
            (Ok(start), Ok(end)) if start <= end && range.end <= source.len() => {
                let extra = (!extra.is_empty()).then(|| Box::new(extra));
                let deferred = Deferred { source: Arc::clone(source), start, end, shape, extra, built: OnceLock::new() };
                EventMetadata { map: Metadata::new(), deferred: Some(Box::new(deferred)) }
            }
            _ => EventMetadata { map: shape(Metadata::new(), &extra), deferred: None },
        }
    }

    /// True while the metadata is still only a range of the source.
    pub fn is_deferred(&self) -> bool {
        self.deferred.as_ref().is_some_and(|d| d.built.get().is_none())
    }

    /// The map, built now if it was not yet.
    pub fn into_map(mut self) -> Metadata {
        std::mem::take(&mut *self)
    }
}

impl Deferred {
    fn build(&self) -> Metadata {
        let bytes = self.source.get(self.start as usize..self.end as usize).unwrap_or(&[]);
        let map = match crate::json::build::from_slice(bytes) {
            Ok(Value::Object(map)) => map,
            _ => Metadata::new(),
        };
        match &self.extra {
            Some(extra) => (self.shape)(map, extra),
            None => (self.shape)(map, &Metadata::new()),
        }
    }
}

impl From<Metadata> for EventMetadata {
    fn from(map: Metadata) -> EventMetadata {
        EventMetadata { map, deferred: None }
    }
}

impl Deref for EventMetadata {
    type Target = Metadata;

    fn deref(&self) -> &Metadata {
        match &self.deferred {
            None => &self.map,
            Some(d) => d.built.get_or_init(|| Box::new(d.build())),
        }
    }
}

impl DerefMut for EventMetadata {
    fn deref_mut(&mut self) -> &mut Metadata {
        if let Some(d) = self.deferred.take() {
            let d = *d;
            self.map = match d.built.get() {
                Some(_) => d.built.into_inner().map(|m| *m).unwrap_or_default(),
                None => d.build(),
            };
        }
        &mut self.map
    }
}

impl PartialEq for EventMetadata {
    fn eq(&self, other: &EventMetadata) -> bool {
        **self == **other
    }
}

impl fmt::Debug for EventMetadata {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drop_b(mut m: Metadata, extra: &Metadata) -> Metadata {
        m.remove("b");
        m.extend(extra.clone());
        m
    }

    fn as_is(m: Metadata, extra: &Metadata) -> Metadata {
        let mut m = m;
        m.extend(extra.clone());
        m
    }

    fn source(s: &str) -> Source {
        Arc::new(s.as_bytes().to_vec())
    }

    #[test]
    fn a_deferred_record_reads_as_the_shaped_map_with_extras_last() {
        let src = source(r#"xx{"a": 1, "b": 2, "c": 3, "d": 4}yy"#);
        let mut extra = Metadata::new();
        extra.insert("e".into(), Value::from(5));
        extra.insert("a".into(), Value::from(0));
        let m = EventMetadata::in_source(&src, 2..src.len() - 2, drop_b, extra);
        assert!(m.is_deferred());
        // serde_json's `remove` is `swap_remove`: `d` takes `b`'s place.
        let keys: Vec<_> = m.keys().cloned().collect();
        assert_eq!(keys, ["a", "d", "c", "e"]);
        assert_eq!(m["a"], Value::from(0));
        assert!(!m.is_deferred());
    }

    #[test]
    fn a_deferred_record_stays_small() {
        // One per event: the maps are boxed (see `Deferred`).
        assert!(std::mem::size_of::<Deferred>() <= 56, "{}", std::mem::size_of::<Deferred>());
    }

    #[test]
    fn a_write_builds_it_first() {
        let src = source(r#"{"a": 1}"#);
        let mut m = EventMetadata::in_source(&src, 0..src.len(), as_is, Metadata::new());
        m.insert("z".into(), Value::Null);
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "z"]);
        assert_eq!(m.clone().into_map().len(), 2);
    }

    #[test]
    fn a_range_that_is_not_an_object_is_empty_and_out_of_bounds_keeps_extras() {
        let src = source("[1, 2]");
        assert!(EventMetadata::in_source(&src, 0..6, as_is, Metadata::new()).is_empty());
        let mut extra = Metadata::new();
        extra.insert("k".into(), Value::from(1));
        assert_eq!(EventMetadata::in_source(&src, 0..99, as_is, extra).len(), 1);
    }
}
