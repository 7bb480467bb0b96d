//! Tables keyed by ids from the source (uuids, `message.id`s, tool call
//! ids) that do not read a key's bytes again once it is in.
//!
//! A key borrowed from the source lies where its record was. A `HashMap`
//! of such keys hashes every key again each time it grows, and a late pass
//! (the run's `parentUuid` tree) looked them all up again: by then their
//! records were long out of the cache, and each key read was a miss to
//! memory. In V8's profile of a 100 MB session that hashing was an eighth
//! of the parse; natively, with the same instructions, a hundredth.
//! Here a key is hashed once, while its record is read, and the table
//! keeps the hashes: it grows without touching the keys, and a key's bytes
//! are compared only when its hash matches (mostly the same id, met a
//! record or two before). Equal ids are found by their bytes, never by
//! their hashes alone.

use std::hash::BuildHasher;

use super::look::Id;
use super::Lookup;

/// An id's hash, computed while its bytes are at hand: 32 bits (all the
/// wasm build's FxHash has), which keeps the table's buckets small.
pub fn hash_of(id: &[u8]) -> u32 {
    let h = rustc_hash::FxBuildHasher.hash_one(id);
    (h ^ (h >> 32)) as u32
}

/// No entry.
const NONE: u32 = u32::MAX;

/// Keys (each with its value) by their hashes, given by the caller; each
/// key's entry has a number, its place in the order keys came in.
pub struct Hashed<K, V> {
    /// The last entry of each hash.
    last: Lookup<u32, u32>,
    entries: Vec<Entry<K, V>>,
}

struct Entry<K, V> {
    key: K,
    value: V,
    /// The entry before it with the same hash ([`NONE`]: none).
    before: u32,
}

impl<K, V> Default for Hashed<K, V> {
    fn default() -> Self {
        Hashed { last: Lookup::default(), entries: Vec::new() }
    }
}

impl<K, V> Hashed<K, V> {
    /// The number of the entry whose key has `hash` and is the one `is` looks for.
    pub fn find(&self, hash: u32, is: impl Fn(&K) -> bool) -> Option<u32> {
        find_from(&self.entries, *self.last.get(&hash)?, is)
    }

    /// The number of the entry `is` looks for (`hash` its key's hash),
    /// added from `make` when there is none, in one look at the table
    /// (`None` only past `u32::MAX` entries, which no input within the caps has).
    pub fn find_or_insert(&mut self, hash: u32, is: impl Fn(&K) -> bool, make: impl FnOnce() -> (K, V)) -> Option<u32> {
        let n = u32::try_from(self.entries.len()).ok().filter(|n| *n != NONE)?;
        let before = match self.last.entry(hash) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(n);
                NONE
            }
            std::collections::hash_map::Entry::Occupied(mut o) => {
                let latest = *o.get();
                if let Some(found) = find_from(&self.entries, latest, is) {
                    return Some(found);
                }
                o.insert(n);
                latest
            }
        };
        let (key, value) = make();
        self.entries.push(Entry { key, value, before });
        Some(n)
    }

    pub fn get(&self, hash: u32, is: impl Fn(&K) -> bool) -> Option<&V> {
        self.value(self.find(hash, is)?)
    }

    /// Entry `n`'s key.
    pub fn key(&self, n: u32) -> Option<&K> {
        self.entries.get(n as usize).map(|e| &e.key)
    }

    fn value(&self, n: u32) -> Option<&V> {
        self.entries.get(n as usize).map(|e| &e.value)
    }

    fn value_mut(&mut self, n: u32) -> Option<&mut V> {
        self.entries.get_mut(n as usize).map(|e| &mut e.value)
    }

    /// Adds `key` (whose hash is `hash`), which the table does not hold;
    /// its number (`None` only past `u32::MAX` entries, which no input
    /// within the caps has).
    pub fn insert_new(&mut self, hash: u32, key: K, value: V) -> Option<u32> {
        let n = u32::try_from(self.entries.len()).ok().filter(|n| *n != NONE)?;
        let before = self.last.insert(hash, n).unwrap_or(NONE);
        self.entries.push(Entry { key, value, before });
        Some(n)
    }

    /// How many keys the table holds: every entry's number is below it.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Room for `more` keys (growing, the table moved every hash it held).
    pub fn reserve(&mut self, more: usize) {
        self.last.reserve(more);
        self.entries.reserve(more);
    }
}

/// The entry `is` looks for among entry `at` and those before it of the same hash.
fn find_from<K, V>(entries: &[Entry<K, V>], mut at: u32, is: impl Fn(&K) -> bool) -> Option<u32> {
    while let Some(e) = entries.get(at as usize) {
        if is(&e.key) {
            return Some(at);
        }
        at = e.before;
    }
    None
}

/// Values by an id's bytes (a `HashMap<Id, V>` that does not read its keys again).
pub struct IdMap<'b, V> {
    table: Hashed<Id<'b>, V>,
}

impl<V> Default for IdMap<'_, V> {
    fn default() -> Self {
        IdMap { table: Hashed::default() }
    }
}

impl<'b, V> IdMap<'b, V> {
    pub fn get(&self, id: &[u8]) -> Option<&V> {
        self.table.get(hash_of(id), |k| **k == *id)
    }

    /// Sets `id`'s value, as `HashMap::insert` does (the key kept is the
    /// first one: the same bytes).
    pub fn insert(&mut self, id: Id<'b>, value: V) {
        let hash = hash_of(&id);
        match self.table.find(hash, |k| **k == *id) {
            Some(n) => {
                if let Some(v) = self.table.value_mut(n) {
                    *v = value;
                }
            }
            None => {
                self.table.insert_new(hash, id, value);
            }
        }
    }
}

/// A number for each id: equal bytes, equal numbers (the run's
/// `parentUuid` tree then compares and indexes numbers, not ids).
#[derive(Default)]
pub struct Symbols<'b> {
    table: Hashed<Id<'b>, ()>,
}

impl<'b> Symbols<'b> {
    /// `id`'s number (`None` only past `u32::MAX` ids, which no input
    /// within the caps has).
    pub fn of(&mut self, id: Id<'b>) -> Option<u32> {
        let hash = hash_of(&id);
        self.table.find_or_insert(hash, |k| **k == *id, || (id.clone(), ()))
    }

    /// Number `n` is `id`'s (a check of a likely number before [`Symbols::of`]).
    pub fn is(&self, n: u32, id: &[u8]) -> bool {
        self.table.key(n).is_some_and(|k| **k == *id)
    }

    /// How many ids have numbers: every number is below it.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Room for `more` ids.
    pub fn reserve(&mut self, more: usize) {
        self.table.reserve(more);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of one hash stay apart (found by their bytes), a key found
    /// again keeps its number, and `IdMap::insert` replaces a value as
    /// `HashMap::insert` does.
    #[test]
    fn keys_of_one_hash_are_told_apart_by_their_bytes() {
        let mut table: Hashed<Id<'_>, u32> = Hashed::default();
        let ids: [&[u8]; 4] = [b"a", b"b", b"ab", b""];
        for (i, id) in ids.iter().enumerate() {
            let same = |k: &Id<'_>| **k == **id;
            assert_eq!(table.find(7, same), None, "{id:?}");
            let n = table.find_or_insert(7, same, || (Id::Borrowed(*id), i as u32));
            assert_eq!(n, Some(i as u32));
        }
        for (i, id) in ids.iter().enumerate() {
            let same = |k: &Id<'_>| **k == **id;
            assert_eq!(table.get(7, same), Some(&(i as u32)), "{id:?}");
            assert_eq!(table.find_or_insert(7, same, || (Id::Borrowed(b"x"), 9)), Some(i as u32));
            assert_eq!(table.find(8, same), None);
        }
        assert_eq!(table.len(), ids.len());

        let mut map = IdMap::default();
        map.insert(Id::Borrowed(b"call_1"), 1);
        map.insert(Id::Owned(b"call_2".to_vec()), 2);
        map.insert(Id::Owned(b"call_1".to_vec()), 3);
        assert_eq!((map.get(b"call_1"), map.get(b"call_2"), map.get(b"call_3")), (Some(&3), Some(&2), None));

        let mut symbols = Symbols::default();
        let [a, b, a2] = [b"u-1", b"u-2", b"u-1"].map(|id| symbols.of(Id::Borrowed(id)));
        assert_eq!((a, a2), (Some(0), Some(0)));
        assert_eq!(b, Some(1));
        assert!(symbols.is(0, b"u-1") && !symbols.is(0, b"u-2") && !symbols.is(5, b"u-1"));
        assert_eq!(symbols.len(), 2);
    }
}
