//! The analysis layer: what the model means, computed once for every reader.
//!
//! Model → analysis → query, views, stats, render. The query language, the
//! wasm API, the CLI and the page all take these answers from here instead of
//! working them out again each their own way:
//!
//! - [`spans`]: the one span-tree builder (the tree, the flat list the page
//!   shows, the span each event is in);
//! - [`time`]: the one place timestamps are read;
//! - [`failures`]: when a tool call failed, from what the trace says;
//! - [`usage`]: token usage totals, per model;
//! - [`runs`]: one row per run, the runs table's columns;
//! - [`span_bars`]: spans as bars on a time axis (the span chart);
//! - [`stats`]: the counts the CLI's `stats`, `trace.stats()`,
//!   `trace.toolStats()` and the page's Stats view all serialise;
//! - [`compare`]: two runs aligned turn by turn, with their deltas;
//! - [`diagnostics`]: repeated diagnostics grouped into one finding;
//! - [`summary`]: the one line that says what an event is;
//! - [`run_source`]: a run's own lines of a JSON Lines file (a run exported alone).

pub mod compare;
pub mod diagnostics;
pub mod failures;
pub mod run_source;
pub mod runs;
pub mod span_bars;
pub mod spans;
pub mod stats;
pub mod summary;
pub mod time;
pub mod usage;
