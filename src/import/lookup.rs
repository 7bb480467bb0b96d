//! The hash tables the readers key by what the input names: ids, uuids,
//! message texts.
//!
//! FxHash (`rustc-hash`), not foldhash: in the wasm build, foldhash 0.2's
//! hash of a key over 16 bytes (every uuid and tool call id) was 12% of a
//! Claude Code parse in V8's profile, though 1% of the native one; with
//! rustc-hash the parse took 0.90 of the time (BENCHMARKS.md, session 17).
//! Nothing iterates these tables, so their order never shows. Like the
//! foldhash fixed seed before it, the hasher is unkeyed (and its state is a
//! `usize`: 32 bits in the wasm build): keys crafted to collide make the
//! lookups slow, never wrong, since equal hashes still compare the keys.

/// A table keyed by ids or texts from the input.
pub type Lookup<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;

/// A set of ids or texts from the input.
pub type LookupSet<T> = std::collections::HashSet<T, rustc_hash::FxBuildHasher>;
