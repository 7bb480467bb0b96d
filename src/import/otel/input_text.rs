//! `gen_ai.input.messages` read item by item from its JSON text (see
//! [`crate::import::history`]): a chat span's input is the whole
//! conversation so far, as one string; the walk reads only the items after
//! those the previous such span of the trace sent, byte for byte.

use super::genai_schema::{check_item, item_failure, Kind};
use super::messages::{genai_message, Msg};
use crate::import::history::{value_of, Conversation, Sent};
use crate::json::{read, scan};

/// The last span whose input text was read item by item.
#[derive(Default)]
pub struct LastInput<'s> {
    conversation: Conversation,
    text: &'s str,
    /// Its first item that breaks the schema, and why.
    failure: Option<(usize, String)>,
}

/// A span's input read item by item.
pub struct InputRead<'s> {
    pub sent: Sent<Msg>,
    text: &'s str,
    failure: Option<(usize, String)>,
}

impl InputRead<'_> {
    /// What [`super::genai_schema::check`] says of the whole list.
    pub fn failure(&self) -> Option<String> {
        self.failure.as_ref().map(|(i, why)| item_failure(*i, why))
    }
}

impl<'s> LastInput<'s> {
    /// The input messages of a span whose `gen_ai.input.messages` is the
    /// string `text`, after its `system` message: `None` when the text is
    /// not a non-empty JSON list serde_json reads as the scanner does (the
    /// caller reads it whole).
    pub fn read(&self, text: &'s str, system: Option<Msg>) -> Option<InputRead<'s>> {
        let b = text.as_bytes();
        let open = scan::skip_ws(b, 0);
        let mut hazards = Vec::new();
        let end = scan::scan_value_hazards(b, open, &mut hazards).ok()?;
        if !hazards.is_empty() || scan::skip_ws(b, end) != b.len() {
            return None;
        }
        let mut items = Vec::new();
        read::items(b, open, &scan::NO_ENDS, &mut items)?;
        if items.is_empty() {
            return None;
        }
        let mut failure = None;
        let sent = self.conversation.input_items(self.text.as_bytes(), b, items, system.into_iter().collect(), |i, item| {
            let v = value_of(item);
            if failure.is_none() {
                failure = check_item(Kind::Input, &v).map(|why| (i, why));
            }
            Some(genai_message(v, "user"))
        })?;
        // The shared items were checked with the last span's, which they are.
        let failure = match &self.failure {
            Some((i, why)) if *i < sent.shared_items() => Some((*i, why.clone())),
            _ => failure,
        };
        Some(InputRead { sent, text, failure })
    }

    /// Remembers `read`, given the chains its `sent.rest` got.
    pub fn remember(&mut self, read: &mut InputRead<'s>, chains: Vec<u64>) {
        if self.conversation.remember(&mut read.sent, chains) {
            self.text = read.text;
            self.failure = read.failure.take();
        }
    }
}
