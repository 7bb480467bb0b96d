//! A model event's output message, retold from the sample's `messages`.
//!
//! inspect_ai appends each model call's output message to the sample's
//! messages, so every assistant turn is written twice: in `messages`, and
//! as its model event's `output.choices[0].message`, byte for byte. Reading
//! the second copy member by member (its tool calls nested three levels
//! deeper than the split records container ends, so walked again at each
//! level) was a third of the events' reading. Where the copy's bytes equal
//! those of an assistant message read in place before, its content and
//! calls are that message's, their texts and arguments moved to the copy's
//! bytes: the same bytes read the same way give the same model, and the
//! event's texts still point into its own raw JSON.

use std::ops::Range;

use super::super::Builder;
use crate::lazy_value::LazyValue;
use crate::model::{Arguments, Content, ContentPart, EventBody, ToolCall};
use crate::text::{RawText, Source, Text};

/// How far past the last match a copy is looked for: a model event whose
/// message is not in `messages` (a scorer's call) skips none; messages
/// without a model event (a solver's own) skip a few.
const LOOK_AHEAD: usize = 4;

/// The assistant messages read in place, in order: where each is and the
/// event it became.
#[derive(Default)]
pub(super) struct Said {
    messages: Vec<(Range<usize>, u32)>,
    next: usize,
}

impl Said {
    /// Notes the assistant message at `range`, read in place as `event`.
    pub fn note(&mut self, range: Range<usize>, event: u32) {
        self.messages.push((range, event));
    }

    /// Where the search for the next copy starts, to go back to.
    pub fn mark(&self) -> usize {
        self.next
    }

    pub fn rewind(&mut self, mark: usize) {
        self.next = mark;
    }

    /// The content and calls of the message at `r`, when an assistant
    /// message noted after the last one found has the same bytes.
    pub fn retell(&mut self, out: &Builder, r: &Range<usize>) -> Option<(Content, Vec<ToolCall>)> {
        self.retell_at(out, r.start, Some(r.end)).map(|(content, calls, _)| (content, calls))
    }

    /// The content and calls of the value starting at `start` (and ending
    /// at `end`, if known), when the bytes from there are those of an
    /// assistant message noted after the last one found; and where the
    /// value ends. The message is a whole JSON value the split validated,
    /// so a copy of its bytes is a whole value too, ending where they do:
    /// the copy's end need not be found by walking it.
    pub fn retell_at(&mut self, out: &Builder, start: usize, end: Option<usize>) -> Option<(Content, Vec<ToolCall>, usize)> {
        let b = out.bytes();
        let last = self.messages.len().min(self.next.saturating_add(LOOK_AHEAD));
        let same = |said: &Range<usize>| {
            let copy_end = start.checked_add(said.len());
            end.is_none_or(|e| Some(e) == copy_end) && copy_end.and_then(|e| b.get(start..e)).is_some_and(|copy| b.get(said.clone()) == Some(copy))
        };
        let k = (self.next..last).find(|&k| self.messages.get(k).is_some_and(|(said, _)| same(said)))?;
        let (said, event) = self.messages.get(k)?;
        let EventBody::Message(m) = &out.events().get(*event as usize)?.body else { return None };
        let mv = Move { source: out.source(), from: said.start, to: start };
        let content = mv.content(&m.content)?;
        let calls = m.tool_calls.iter().map(|c| mv.call(c)).collect::<Option<Vec<_>>>()?;
        self.next = k + 1;
        Some((content, calls, start + said.len()))
    }
}

/// Moves what points into one copy of some bytes to the same place in another.
struct Move<'s> {
    source: &'s Source,
    from: usize,
    to: usize,
}

impl Move<'_> {
    fn at(&self, x: usize) -> Option<usize> {
        x.checked_sub(self.from)?.checked_add(self.to)
    }

    fn range(&self, r: Range<usize>) -> Option<Range<usize>> {
        Some(self.at(r.start)?..self.at(r.end)?)
    }

    fn text(&self, t: &Text) -> Option<Text> {
        match (t.source_range(), t.raw()) {
            (None, _) => Some(t.clone()),
            (Some(r), RawText::Source { escaped, .. }) => Some(Text::in_source(self.source, self.range(r)?, escaped)),
            // The inspect readers make no twice-escaped texts.
            (Some(_), _) => None,
        }
    }

    fn json(&self, v: &LazyValue) -> Option<LazyValue> {
        match v.source_range() {
            Some(r) => Some(LazyValue::in_source(self.source, self.range(r)?)),
            None => Some(v.clone()),
        }
    }

    fn content(&self, c: &Content) -> Option<Content> {
        Some(match c {
            Content::None => Content::None,
            Content::Text(t) => Content::Text(self.text(t)?),
            Content::Json(v) => Content::Json(self.json(v)?),
            Content::Parts(parts) => Content::Parts(
                parts
                    .iter()
                    .map(|p| {
                        Some(match p {
                            ContentPart::Text(t) => ContentPart::Text(self.text(t)?),
                            ContentPart::Reasoning(t) => ContentPart::Reasoning(self.text(t)?),
                            ContentPart::Image { url } => ContentPart::Image { url: self.text(url)? },
                            ContentPart::Other(v) => ContentPart::Other(v.clone()),
                        })
                    })
                    .collect::<Option<_>>()?,
            ),
        })
    }

    /// A call as read, not yet answered.
    fn call(&self, c: &ToolCall) -> Option<ToolCall> {
        let value = match &c.arguments.value {
            Some(v) => Some(self.json(v)?),
            None => None,
        };
        let text = match &c.arguments.text {
            Some(t) => Some(self.text(t)?),
            None => None,
        };
        Some(ToolCall { id: c.id.clone(), function: c.function.clone(), arguments: Arguments { value, text }, result: None })
    }
}
