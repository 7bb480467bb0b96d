//! The members of an event record (and of its `tool_call` object) that the
//! checks and the placing look at, found once: by key in the parsed record
//! (the exact path), or by the fast path from the bytes, with only those
//! members built. Looked up by index, not hashed.

pub(super) use crate::json::fields::Members;

pub(super) const EVENT_ID: usize = 0;
pub(super) const SESSION_ID: usize = 1;
pub(super) const EVENT_TYPE: usize = 2;
pub(super) const TIMESTAMP: usize = 3;
pub(super) const INPUT_DATA: usize = 4;
pub(super) const OUTPUT_DATA: usize = 5;
pub(super) const MODEL: usize = 6;
pub(super) const TOKENS_IN: usize = 7;
pub(super) const TOKENS_OUT: usize = 8;
pub(super) const DURATION_MS: usize = 9;
pub(super) const TOOL_CALL: usize = 10;
pub(super) const DECISION_TRACE: usize = 11;
/// An event's members read, by the indices above.
pub(super) const EVENT_MEMBERS: [&str; 12] = [
    "event_id",
    "session_id",
    "event_type",
    "timestamp",
    "input_data",
    "output_data",
    "model",
    "tokens_in",
    "tokens_out",
    "duration_ms",
    "tool_call",
    "decision_trace",
];

pub(super) const TOOL_CALL_ID: usize = 0;
pub(super) const TOOL_NAME: usize = 1;
pub(super) const TOOL_INPUT: usize = 2;
pub(super) const TOOL_OUTPUT: usize = 3;
pub(super) const CALL_TIMESTAMP: usize = 4;
pub(super) const CALL_DURATION_MS: usize = 5;
/// A `tool_call` object's members read, by the indices above.
pub(super) const CALL_MEMBERS: [&str; 6] = ["tool_call_id", "tool_name", "tool_input", "tool_output", "timestamp", "duration_ms"];

/// An event record's members.
pub(super) type Event<'v> = Members<'v, 12>;
/// A `tool_call` object's members.
pub(super) type Call<'v> = Members<'v, 6>;

