//! A model call's re-sent history, read only past what the previous call
//! sent.
//!
//! Every model call re-sends the whole conversation, so on a long agent run
//! the input messages are most of the file, and each is shown once (the
//! first call that sends it). Built as values with their record and held
//! until the calls are walked, they were the bulk of a parse and of its
//! memory. A format's reader leaves such a list in the source
//! ([`messages_in_source`]); the walk compares its items byte for byte with
//! the previous call's ([`Conversation::input`]) and reads only those after
//! the common prefix, whose messages are known shown: the prefix's chain of
//! message hashes is the one [`chat::already_shown`] learnt from that call,
//! so what is shown is what the exact path shows (tests/fast_paths.rs
//! compares both ways). Used by `langsmith` and `langfuse`.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::chat::{self, Msg};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::ContainerEnds;

/// Where a call's input messages are, when the reader left them out of the
/// record's value.
#[derive(Debug, Clone)]
pub struct MessagesInSource {
    /// The whole input value (read whole when the list turns out to be no
    /// conversation).
    pub value: Range<usize>,
    /// The list of messages: the value, or its `messages`.
    pub list: Range<usize>,
}

/// The input value `m` of a plain record (`Builder::reads_fast`), when it
/// holds a list of messages that [`chat::messages`] would read first: an
/// object with a `messages` list and nothing that makes it a message itself
/// (`role`, `type`) or a completion's `prompts`; or, with `lists`, a list.
/// Gives what stands in the record's value in its place (the object without
/// `messages`, or `null` for a list) and where the list is.
pub fn messages_in_source(b: &[u8], ends: &ContainerEnds, m: &Member, lists: bool) -> Option<(Value, MessagesInSource)> {
    if m.kind == Kind::Array && lists {
        return Some((Value::Null, MessagesInSource { value: m.value.clone(), list: m.value.clone() }));
    }
    if m.kind != Kind::Object {
        return None;
    }
    let mut inner = Vec::new();
    read::members(b, m.value.start, ends, &mut inner)?;
    let g = Fields::find(b, &inner, [b"messages", b"role", b"type", b"prompts"])?;
    let messages = g.get(&inner, 0).filter(|m| m.kind == Kind::Array)?;
    if (1..4).any(|k| g.get(&inner, k).is_some()) {
        return None;
    }
    let without = fields::object_without(b, &inner, &[b"messages"])?;
    Some((Value::Object(without), MessagesInSource { value: m.value.clone(), list: messages.value.clone() }))
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
    /// The input of a call whose list is at `at` (and the rest of whose
    /// input object, without the list, is `object`): the items it shares
    /// with the previous call, byte for byte, are not read; `None` when the
    /// list is no conversation (the caller reads the input whole).
    pub fn input(&self, b: &[u8], ends: &ContainerEnds, object: Option<&Map<String, Value>>, at: &MessagesInSource) -> Option<Sent> {
        let items = list_items(b, ends, at.list.start)?;
        let mut system = object.map(chat::system_messages).unwrap_or_default();
        let seed = system.iter().fold(0, chat::chain);
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
fn list_items(b: &[u8], ends: &ContainerEnds, open: usize) -> Option<Vec<Range<usize>>> {
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
