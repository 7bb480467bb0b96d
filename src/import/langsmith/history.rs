//! An `llm` run's `inputs.messages`, left in the source.
//!
//! Every model call re-sends the whole conversation, so on a long agent run
//! the input messages are most of the file, and each is shown once (the
//! first call that sends it). Built as values with their run and held until
//! the runs are walked, they were the bulk of the parse and of its memory.
//! Here the reader leaves the list in the source ([`read_run`]); the walk
//! compares its items byte for byte with the previous call's
//! ([`Conversation::input`]) and reads only those after the common prefix,
//! whose messages are known shown. What is shown is the same: the prefix's
//! chain of message hashes is the one [`chat::already_shown`] learnt from
//! that call (tests/fast_paths.rs compares with the exact path).

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::chat::{self, Msg};
use crate::import::{Builder, Input};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind};
use crate::json::scan;

/// Where a run's input messages are, when the reader left them out of its
/// fields.
#[derive(Debug, Clone)]
pub struct InputsInSource {
    /// The whole `inputs` object (for the exact reading, when the list turns
    /// out to be no conversation).
    pub inputs: Range<usize>,
    /// Its `messages` list.
    pub messages: Range<usize>,
}

/// An `llm` run record read with its `inputs.messages` left in the source,
/// or `None` (the record is then parsed whole). Only a record serde_json
/// reads as it is, whose `inputs` has a `messages` list and nothing that
/// makes the object a message itself or its prompts (`role`, `type`,
/// `prompts`): then the list, if it is a conversation, is the input.
pub fn read_run(out: &Builder, input: &Input, r: &Range<usize>) -> Option<(Map<String, Value>, InputsInSource)> {
    if !out.reads_fast(r) {
        return None;
    }
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
    let f = Fields::find(b, &members, [b"run_type", b"inputs"])?;
    f.get(&members, 0).filter(|m| m.kind == Kind::String && !m.escaped && b.get(m.inner()) == Some(b"llm"))?;
    let inputs = f.get(&members, 1).filter(|m| m.kind == Kind::Object)?;
    let mut inner = Vec::new();
    read::members(b, inputs.value.start, ends, &mut inner)?;
    let g = Fields::find(b, &inner, [b"messages", b"role", b"type", b"prompts"])?;
    let messages = g.get(&inner, 0).filter(|m| m.kind == Kind::Array)?;
    if (1..4).any(|k| g.get(&inner, k).is_some()) {
        return None;
    }
    let mut without = Some(Value::Object(fields::object_without(b, &inner, &[b"messages"])?));
    let o = fields::build_object(b, &members, |_, m| if m.value == inputs.value { without.take() } else { None })?;
    Some((o, InputsInSource { inputs: inputs.value.clone(), messages: messages.value.clone() }))
}

/// The value at `range` of a record serde_json reads as it is.
pub fn value_at(b: &[u8], range: &Range<usize>) -> Value {
    let slice = b.get(range.clone()).unwrap_or(&[]);
    crate::json::build::value(slice).or_else(|| serde_json::from_slice(slice).ok()).unwrap_or(Value::Null)
}

/// The input messages of a call, as the walk shows them.
pub struct Sent {
    /// Leading messages known shown, and the chain of hashes after them.
    pub prefix: (usize, u64),
    /// The messages after those.
    pub rest: Vec<Msg>,
    /// Of a list read from the source, what [`Conversation::remember`] keeps.
    list: Option<ListRead>,
}

struct ListRead {
    seed: u64,
    items: Vec<Range<usize>>,
    /// Items shared with the previous call (not read).
    shared: usize,
    /// System messages at the head of `rest` (none when items were shared).
    system: usize,
}

impl Sent {
    /// Messages read whole (no prefix skipped).
    pub fn whole(msgs: Vec<Msg>) -> Sent {
        Sent { prefix: (0, 0), rest: msgs, list: None }
    }
}

/// The last call whose input list was read from the source, in a trace's
/// walk: its system messages' chain, its items, and the chain after each.
#[derive(Default)]
pub struct Conversation {
    seed: u64,
    items: Vec<Range<usize>>,
    chains: Vec<u64>,
}

impl Conversation {
    /// The input of a call whose `inputs` (without `messages`) is `inputs`
    /// and whose list is at `at`: the items it shares with the previous
    /// call, byte for byte, are not read; `None` when the list is no
    /// conversation (the caller reads `inputs` whole).
    pub fn input(&self, b: &[u8], ends: &crate::json::ContainerEnds, inputs: &Map<String, Value>, at: &InputsInSource) -> Option<Sent> {
        let items = list_items(b, ends, at.messages.start)?;
        let mut system = chat::system_messages(inputs);
        let seed = system.iter().fold(0, |h, m| chat::chain(h, m));
        let shared = if seed == self.seed { self.items.iter().zip(&items).take_while(|(x, y)| b.get((*x).clone()) == b.get((*y).clone())).count() } else { 0 };
        let read = |rs: &[Range<usize>]| rs.iter().map(|r| value_at(b, r).as_object().and_then(chat::message)).collect::<Option<Vec<Msg>>>();
        let rest = read(items.get(shared..)?)?;
        let sent = match self.chains.get(shared.wrapping_sub(1)) {
            Some(&h) if shared > 0 => Sent { prefix: (system.len() + shared, h), rest, list: None },
            _ => {
                let n = system.len();
                system.extend(rest);
                return Some(Sent { prefix: (0, 0), rest: system, list: Some(ListRead { seed, items, shared: 0, system: n }) });
            }
        };
        Some(Sent { list: Some(ListRead { seed, items, shared, system: 0 }), ..sent })
    }

    /// Remembers `sent` (when its list was read from the source), given the
    /// chains [`chat::already_shown_after`] gave after each of its `rest`.
    pub fn remember(&mut self, sent: &mut Sent, chains: Vec<u64>) {
        let Some(list) = sent.list.take() else { return };
        let mut all: Vec<u64> = self.chains.get(..list.shared).unwrap_or_default().to_vec();
        all.extend(chains.into_iter().skip(list.system));
        *self = Conversation { seed: list.seed, items: list.items, chains: all };
    }
}

/// The items of the list at `open`, or of its only item when that is a
/// list (LangChain's batch form); `None` when empty (no conversation).
fn list_items(b: &[u8], ends: &crate::json::ContainerEnds, open: usize) -> Option<Vec<Range<usize>>> {
    let mut items = Vec::new();
    read::items(b, open, ends, &mut items)?;
    if let [only] = items.as_slice() {
        if b.get(only.start) == Some(&b'[') {
            let inner = only.start;
            items.clear();
            read::items(b, inner, ends, &mut items)?;
        }
    }
    (!items.is_empty()).then_some(items)
}
