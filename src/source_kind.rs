//! [`SourceKind`]: the format's own name for a record's kind, shared.
//!
//! Every event names its record kind (`Message`, `response_item`, `span`),
//! and a trace has a handful of distinct kinds over tens of thousands of
//! events. As a `String` each, that was an allocation and a copy per event
//! (~2% of a Codex or Claude Code parse); the builder now keeps one
//! [`SourceKind`] per distinct name ([`KindTable`]) and every event holds a
//! shared reference to it.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A record kind's name: reads as a `str`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceKind(Arc<str>);

impl SourceKind {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for SourceKind {
    fn default() -> SourceKind {
        SourceKind(Arc::from(""))
    }
}

impl From<&str> for SourceKind {
    fn from(name: &str) -> SourceKind {
        SourceKind(Arc::from(name))
    }
}

impl Deref for SourceKind {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SourceKind {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for SourceKind {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for SourceKind {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for SourceKind {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl fmt::Debug for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl serde::Serialize for SourceKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// The distinct kinds a builder has handed out. A linear search: a trace
/// has a few dozen kinds at most, most lookups end at the first entries,
/// and names of another length are passed over without a byte compared.
/// Past [`KindTable::MAX`] distinct names (a hostile input inventing a
/// kind per record) new names are no longer kept, so the search stays
/// short; each such event then holds its own copy.
#[derive(Default)]
pub struct KindTable {
    kinds: Vec<SourceKind>,
}

impl KindTable {
    const MAX: usize = 64;

    /// The shared kind named `name`.
    pub fn get(&mut self, name: &str) -> SourceKind {
        if let Some(kind) = self.kinds.iter().find(|k| k.0.len() == name.len() && *k.0 == *name) {
            return kind.clone();
        }
        let kind = SourceKind::from(name);
        if self.kinds.len() < Self::MAX {
            self.kinds.push(kind.clone());
        }
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_name_is_one_shared_kind() {
        let mut table = KindTable::default();
        let a = table.get("Message");
        let b = table.get("Message");
        let c = table.get("ToolCall");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert!(!Arc::ptr_eq(&a.0, &c.0));
        assert_eq!(a, "Message");
        assert_eq!(c.as_str(), "ToolCall");
        // Same length, other bytes: not the same kind.
        assert_eq!(table.get("Massage"), "Massage");
        assert_eq!(table.get(""), "");
    }

    #[test]
    fn names_past_the_table_are_still_right() {
        let mut table = KindTable::default();
        let names: Vec<String> = (0..200).map(|i| format!("kind-{i}")).collect();
        for name in &names {
            assert_eq!(table.get(name), *name);
        }
        for name in names.iter().rev() {
            assert_eq!(table.get(name).as_str(), name);
        }
        assert_eq!(table.kinds.len(), KindTable::MAX);
    }

    #[test]
    fn reads_and_writes_as_its_name() {
        let kind = SourceKind::from("span event");
        assert_eq!(format!("{kind}|{kind:?}"), "span event|\"span event\"");
        assert_eq!(serde_json::to_string(&kind).unwrap(), "\"span event\"");
        assert!(kind.starts_with("span"));
    }
}
