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

use crate::import::chat::{self, Fingerprint, Msg};
use crate::import::{chat_bytes, Builder};
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
    value_of(b.get(range.clone()).unwrap_or(&[]))
}

/// The value of `text`, valid JSON that serde_json reads as it is
/// ([`crate::json::build::from_slice`]).
pub fn value_of(text: &[u8]) -> Value {
    crate::json::build::from_slice(text).unwrap_or(Value::Null)
}

/// The input messages of a call, as the walk shows them.
pub struct Sent<M = Msg> {
    /// Leading messages known shown, and the chain of hashes after them.
    pub prefix: (usize, u64),
    /// The messages after those.
    pub rest: Vec<M>,
    /// Of a list read item by item, what [`Conversation::remember`] keeps.
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

impl<M> Sent<M> {
    /// Messages read whole (no prefix skipped).
    pub fn whole(msgs: Vec<M>) -> Sent<M> {
        Sent { prefix: (0, 0), rest: msgs, list: None }
    }

    /// How many items of its list were the previous call's (not read).
    pub fn shared_items(&self) -> usize {
        self.list.as_ref().map_or(0, |l| l.shared)
    }
}

/// The last call whose input list was read item by item, in a trace's
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
    /// The messages it reads are read from the bytes where they have the
    /// common shape ([`crate::import::chat_bytes`]), else built and read.
    pub fn input(&self, out: &Builder, ends: &ContainerEnds, object: Option<&Map<String, Value>>, at: &MessagesInSource) -> Option<Sent> {
        let b = out.bytes();
        let items = list_items(b, ends, at.list.start)?;
        let system = object.map(chat::system_messages).unwrap_or_default();
        // Each item read from its place (`input_items` gives its bytes).
        let ranges = items.clone();
        self.input_items(b, b, items, system, |k, item| {
            ranges.get(k).and_then(|r| chat_bytes::message(out, ends, r)).or_else(|| value_of(item).as_object().and_then(chat::message))
        })
    }

    /// The input of a call whose list's `items` are ranges of `text` (the
    /// previous call's, of `previous`), after its `system` messages: the
    /// items it shares with the previous call, byte for byte, are not read;
    /// the others are read by `read` (given each one's index), and `None`
    /// from it means the list is no conversation.
    pub fn input_items<M: Fingerprint>(&self, previous: &[u8], text: &[u8], items: Vec<Range<usize>>, system: Vec<M>, read: impl FnMut(usize, &[u8]) -> Option<M>) -> Option<Sent<M>> {
        let same = |(x, y): &(&Range<usize>, &Range<usize>)| previous.get((*x).clone()).is_some_and(|p| text.get((*y).clone()) == Some(p));
        let shared = self.items.iter().zip(&items).take_while(same).count();
        self.input_after_shared(shared, text, items, system, read)
    }

    /// [`Conversation::input_items`] when the caller knows that the first
    /// `shared` items are the previous call's, byte for byte (it compared
    /// their raw bytes, and keeps one text for both: they are not compared
    /// again); the items after them are read.
    pub fn input_after_shared<M: Fingerprint>(&self, shared: usize, text: &[u8], items: Vec<Range<usize>>, mut system: Vec<M>, mut read: impl FnMut(usize, &[u8]) -> Option<M>) -> Option<Sent<M>> {
        let seed = system.iter().fold(0, chat::chain);
        let shared = if seed == self.seed { shared.min(self.items.len()).min(items.len()) } else { 0 };
        let rest = items.get(shared..)?.iter().enumerate().map(|(k, r)| read(shared + k, text.get(r.clone())?)).collect::<Option<Vec<M>>>()?;
        match self.chains.get(shared.wrapping_sub(1)) {
            Some(&h) if shared > 0 => Some(Sent { prefix: (system.len() + shared, h), rest, list: Some(ListRead { seed, items, shared, system: 0 }) }),
            _ => {
                let n = system.len();
                system.extend(rest);
                Some(Sent { prefix: (0, 0), rest: system, list: Some(ListRead { seed, items, shared: 0, system: n }) })
            }
        }
    }

    /// Remembers `sent` (when its list was read item by item), given the
    /// chains [`chat::already_shown_after`] gave after each of its `rest`;
    /// true when it did.
    pub fn remember<M>(&mut self, sent: &mut Sent<M>, chains: Vec<u64>) -> bool {
        let Some(list) = sent.list.take() else { return false };
        let mut all: Vec<u64> = self.chains.get(..list.shared).unwrap_or_default().to_vec();
        all.extend(chains.into_iter().skip(list.system));
        *self = Conversation { seed: list.seed, items: list.items, chains: all };
        true
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
