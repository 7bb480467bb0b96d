//! The first pass: every record of the session file classified the way
//! `loadConversationRecord` (gemini-cli-core 0.61.0,
//! `services/chatRecordingService.js`) classifies it, and the loader's
//! message map replayed, so that each message record knows its fate — in
//! the loaded conversation, replaced by a later record with its id, or cut
//! by a `$rewindTo` or a `$set.messages` checkpoint — before any event is
//! written.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::{top_records, Input};
use crate::json::fields::Fields;
use crate::json::read::{self, Kind, Member};
use super::slots::{decoded, slots_of, CallSlots, RecordSlots, CALL_FIELDS, ID, RECORD_FIELDS, RECORD_ID, REWIND, SLOTS_FROM, TOOL_CALLS};
use crate::json::{render_path, scan, Seg};

/// A message record, where it sits, and what the loader makes of it.
pub struct Msg {
    pub range: Range<usize>,
    pub path: String,
    /// Its string `id`.
    pub id: String,
    pub record: Record,
    pub fate: Fate,
}

/// A message record as the plan read it.
pub enum Record {
    /// Parsed (the exact path, or a record in a list).
    Parsed(Map<String, Value>),
    /// A top-level record read from the bytes: where its members stand (a
    /// replaced message's event reads its `type` and `timestamp` there; the
    /// fast path reads the rest). It is parsed when its event is written if
    /// the fast path does not read it (the file's records are never held
    /// parsed all at once).
    InBytes(RecordSlots),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// In the conversation the loader returns.
    Loaded,
    /// A later record with the same `id` replaced it (message `index`).
    Replaced(usize),
    /// Removed by the `$rewindTo` record at item `index`.
    Rewound(usize),
    /// Dropped by the `$set.messages` checkpoint at item `index`.
    Checkpointed(usize),
}

/// One top-level record, classified in the loader's order of tests.
pub enum Item {
    /// Bytes that are not JSON: kept as an unparsed event in the session.
    Broken { range: Range<usize>, path: String },
    /// `{"$rewindTo": id}`.
    Rewind { range: Range<usize>, path: String, target: String, value: Map<String, Value> },
    /// A message record (a string `id`): index into [`Plan::msgs`].
    Message(usize),
    /// `{"$set": {...}}`, with the messages of a checkpoint (`$set.messages`).
    Set { range: Range<usize>, path: String, value: Map<String, Value>, msgs: Vec<usize>, others: Vec<Nested> },
    /// `{"$set": {"lastUpdated": "…"}}` read from the bytes: the range of
    /// the `$set` object and the decoded `lastUpdated`.
    Touch { range: Range<usize>, path: String, set: Range<usize>, time: String },
    /// The metadata line (string `sessionId` and `projectHash`), or a whole
    /// older session on one line, with its messages.
    Meta { range: Range<usize>, path: String, value: Map<String, Value>, msgs: Vec<usize>, others: Vec<Nested> },
    /// Any other JSON value: the loader skips it; it is kept.
    Other { range: Range<usize>, path: String, value: Value },
}

impl Plan {
    /// Where the session's first record starts.
    pub fn start(&self) -> Option<usize> {
        Some(match self.items.first()? {
            Item::Broken { range, .. } | Item::Rewind { range, .. } | Item::Set { range, .. } | Item::Touch { range, .. } | Item::Meta { range, .. } | Item::Other { range, .. } => range.start,
            Item::Message(m) => self.msgs.get(*m)?.range.start,
        })
    }
}

/// An item of a `messages` list that is not a message record (no string
/// `id`): the loader skips it.
pub struct Nested {
    pub range: Range<usize>,
    pub path: String,
    pub value: Value,
}

pub struct Plan {
    pub items: Vec<Item>,
    pub msgs: Vec<Msg>,
    /// The session's metadata after every metadata line and `$set`, as the
    /// loader merges them (without `messages`).
    pub metadata: Map<String, Value>,
    /// The `id`s of every tool call recorded in the file.
    pub call_ids: std::collections::HashSet<String>,
    /// The tool calls of the messages read from the bytes ([`RecordSlots::calls`]).
    pub calls: Vec<CallSlots>,
    /// The file is one JSON document (the older `.json` form).
    pub document: bool,
    /// The last `Touch` item whose `lastUpdated` the metadata does not hold
    /// yet: written once before the metadata is next read or changed, not
    /// once a line (a Gemini CLI session has one after every message).
    touched: Option<usize>,
}

impl Plan {
    /// Writes the last `Touch`'s time into the metadata.
    fn settle_touch(&mut self) {
        let Some(i) = self.touched.take() else { return };
        if let Some(Item::Touch { time, .. }) = self.items.get(i) {
            self.metadata.insert("lastUpdated".to_string(), Value::String(time.clone()));
        }
    }
}

fn str_field<'v>(o: &'v Map<String, Value>, k: &str) -> Option<&'v str> {
    o.get(k).and_then(Value::as_str)
}

/// The loader's message map: its messages in insertion order, each id's
/// place among them; removals are always a suffix (a rewind) or everything.
/// Ids are read from the messages, copied only into `at`.
#[derive(Default)]
struct Live {
    order: Vec<usize>,
    at: HashMap<String, usize>,
}

impl Live {
    /// `messagesMap.set(id, msg)` for message `msg`: a known id keeps its place.
    fn set(&mut self, msg: usize, msgs: &mut [Msg]) {
        let Some(id) = msgs.get(msg).map(|m| m.id.as_str()) else { return };
        // The recorder writes a message again right after itself: the last
        // place then holds its id, found without hashing it.
        let last = self.order.len().checked_sub(1).filter(|&p| self.order.get(p).and_then(|&o| msgs.get(o)).is_some_and(|o| o.id == id));
        match last.or_else(|| self.at.get(id).copied()) {
            Some(p) => {
                let old = self.order.get_mut(p).map(|slot| std::mem::replace(slot, msg));
                if let Some(old) = old.and_then(|o| msgs.get_mut(o)) {
                    old.fate = Fate::Replaced(msg);
                }
            }
            None => {
                self.at.insert(id.to_string(), self.order.len());
                self.order.push(msg);
            }
        }
    }

    /// Removes the messages from position `from` on, each with `fate`.
    fn cut(&mut self, from: usize, fate: Fate, msgs: &mut [Msg]) {
        for m in self.order.drain(from.min(self.order.len())..) {
            if let Some(m) = msgs.get_mut(m) {
                self.at.remove(&m.id);
                m.fate = fate;
            }
        }
    }
}

/// Reads and classifies every record: one plan per session (several
/// session files read together start a session at each metadata line).
pub fn plan(input: &Input, out: &mut crate::import::Builder) -> Vec<Plan> {
    let b = input.bytes;
    let ends = &input.split.ends;
    let document = matches!(input.split.layout, crate::json::Layout::Json);
    let fresh = || Plan { items: Vec::new(), msgs: Vec::new(), metadata: Map::new(), call_ids: Default::default(), calls: Vec::new(), document, touched: None };
    let mut sessions: Vec<(Plan, Live, bool)> = vec![(fresh(), Live::default(), false)];
    let mut scratch = Scratch::default();
    for r in top_records(input) {
        if !r.broken {
            match in_bytes(out, b, ends, &r.range, &mut scratch) {
                Some(InBytes::Message { id, mut slots }) => {
                    let Some((p, live, _)) = sessions.last_mut() else { break };
                    let first = u32::try_from(p.calls.len()).ok();
                    for call in scratch.calls.drain(..) {
                        let id = call.fields.get(ID).copied().flatten().and_then(|s| s.string());
                        p.call_ids.extend(id.map(|(inner, escaped)| decoded(b, inner, escaped)));
                        if slots.calls.is_some() {
                            p.calls.push(call);
                        }
                    }
                    if slots.calls.is_some() {
                        slots.calls = first.zip(u32::try_from(p.calls.len()).ok()).map(|(first, end)| first..end);
                    }
                    p.msgs.push(Msg { range: r.range, path: r.path, id, record: Record::InBytes(slots), fate: Fate::Loaded });
                    let m = p.msgs.len() - 1;
                    set_live(live, m, &mut p.msgs);
                    p.items.push(Item::Message(m));
                    continue;
                }
                Some(InBytes::Touch { set, time }) => {
                    let Some((p, _, _)) = sessions.last_mut() else { break };
                    p.touched = Some(p.items.len());
                    p.items.push(Item::Touch { range: r.range, path: r.path, set, time });
                    continue;
                }
                None => {}
            }
        }
        if let Some((p, _, _)) = sessions.last_mut() {
            p.settle_touch();
        }
        let v = if r.broken { None } else { out.parse_record(&r.range, &r.path).ok() };
        let meta = v.as_ref().and_then(Value::as_object).is_some_and(|o| {
            o.get("$rewindTo").is_none_or(|t| !t.is_string()) && o.get("id").is_none_or(|i| !i.is_string()) && !o.get("$set").is_some_and(Value::is_object) && is_metadata(o, document)
        });
        if meta && sessions.last().is_some_and(|s| s.2) {
            sessions.push((fresh(), Live::default(), false));
        }
        let Some((p, live, has_meta)) = sessions.last_mut() else { break };
        *has_meta |= meta;
        record(p, live, b, ends, r.range, r.path, v);
    }
    for (p, _, _) in &mut sessions {
        p.settle_touch();
    }
    sessions.into_iter().map(|(p, _, _)| p).filter(|p| !p.items.is_empty()).collect()
}

/// A top-level record read from the bytes.
enum InBytes {
    /// A message record (a string `id`, no `$rewindTo`): its `id` and
    /// where its members stand (its calls' in the scratch's `calls`; a
    /// message whose `toolCalls` is no list of objects keeps none).
    Message { id: String, slots: RecordSlots },
    /// Only `{"$set": {"lastUpdated": "…"}}`: the range of the `$set`
    /// object and the decoded time.
    Touch { set: Range<usize>, time: String },
}

/// Buffers reused from record to record.
#[derive(Default)]
struct Scratch {
    members: Vec<Member>,
    items: Vec<Range<usize>>,
    inner: Vec<Member>,
    /// The last message's tool calls.
    calls: Vec<CallSlots>,
}

/// A top-level message record or a bare `lastUpdated` update read from the
/// bytes, its members walked once; `None` when the bytes do not say it
/// plainly (another record, an escaped or repeated key, a hazard): then it
/// is parsed.
fn in_bytes(out: &crate::import::Builder, b: &[u8], ends: &scan::ContainerEnds, r: &Range<usize>, scratch: &mut Scratch) -> Option<InBytes> {
    if !out.reads_fast(r) {
        return None;
    }
    if let Some(touch) = touch_as_written(b, r) {
        return Some(touch);
    }
    read::members(b, scan::skip_ws(b, r.start), ends, &mut scratch.members)?;
    let f = Fields::find(b, &scratch.members, RECORD_FIELDS)?;
    if f.get(&scratch.members, REWIND).is_none() && f.get(&scratch.members, RECORD_ID).is_some_and(|m| m.kind == Kind::String) {
        return message_in_bytes(b, ends, &f, scratch);
    }
    touch_in_bytes(b, ends, scratch)
}

/// The message record whose members `f` found (a string `id`, no
/// `$rewindTo`): its `id` and where its members and its calls' stand;
/// `None` when a call's key is escaped or one it reads repeats.
fn message_in_bytes(b: &[u8], ends: &scan::ContainerEnds, f: &Fields<9>, scratch: &mut Scratch) -> Option<InBytes> {
    let Scratch { members, items, inner, calls } = scratch;
    let id = f.get(members, RECORD_ID).map(|m| decoded(b, m.inner(), m.escaped))?;
    let mut slots = RecordSlots { fields: slots_of(members, f, SLOTS_FROM)?, calls: None };
    calls.clear();
    if let Some(list) = f.get(members, SLOTS_FROM + TOOL_CALLS).filter(|m| m.kind == Kind::Array) {
        read::items(b, list.value.start, ends, items)?;
        let mut objects = true;
        for item in items.iter() {
            if b.get(item.start) != Some(&b'{') {
                // Not read fast; the other calls' ids are still known.
                objects = false;
                continue;
            }
            read::members(b, item.start, ends, inner)?;
            let g = Fields::find(b, inner, CALL_FIELDS)?;
            calls.push(CallSlots { call: item.clone(), fields: slots_of(inner, &g, 0)? });
        }
        slots.calls = objects.then_some(0..0);
    }
    Some(InBytes::Message { id, slots })
}

/// The record whose members were just walked when it is only
/// `{"$set": {"lastUpdated": "…"}}` (Gemini CLI writes one after every
/// message); `None` for anything else (another key, an escaped or repeated
/// one, a `lastUpdated` that is no string): then it is parsed.
fn touch_in_bytes(b: &[u8], ends: &scan::ContainerEnds, scratch: &mut Scratch) -> Option<InBytes> {
    let Scratch { members, inner, .. } = scratch;
    let [set] = members.as_slice() else { return None };
    let f = Fields::find(b, members, [b"$set"])?;
    f.get(members, 0).filter(|m| m.kind == Kind::Object)?;
    read::members(b, set.value.start, ends, inner)?;
    let [time] = inner.as_slice() else { return None };
    let g = Fields::find(b, inner, [b"lastUpdated"])?;
    g.get(inner, 0).filter(|m| m.kind == Kind::String)?;
    let time = decoded(b, time.inner(), time.escaped);
    Some(InBytes::Touch { set: set.value.clone(), time })
}

/// `{"$set":{"lastUpdated":"` as Gemini CLI writes it, before the time.
const TOUCH_HEAD: &[u8] = br#"{"$set":{"lastUpdated":"#;

/// The record at `r` when its bytes are a bare `lastUpdated` update as
/// Gemini CLI writes it (`{"$set":{"lastUpdated":"…"}}`, no space): told
/// without a walk (one follows every message; its two walks were a fifth
/// of the plan's). Keys as written cannot be escaped or repeated; any
/// other spelling is walked ([`touch_in_bytes`]).
fn touch_as_written(b: &[u8], r: &Range<usize>) -> Option<InBytes> {
    let start = scan::skip_ws(b, r.start);
    if !b.get(start..r.end)?.starts_with(TOUCH_HEAD) {
        return None;
    }
    let quote = start + TOUCH_HEAD.len();
    if b.get(quote) != Some(&b'"') {
        return None;
    }
    let (end, escaped) = read::string_end(b, quote)?;
    if b.get(end..end + 2)? != b"}}" || !b.get(end + 2..r.end)?.iter().all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
        return None;
    }
    // `{"$set":` is 8 bytes: the `$set` object is the rest less the last `}`.
    Some(InBytes::Touch { set: start + 8..end + 1, time: decoded(b, quote + 1..end - 1, escaped) })
}

/// A metadata record: string `sessionId` and `projectHash` (the older
/// document: a `sessionId`).
fn is_metadata(o: &Map<String, Value>, document: bool) -> bool {
    (str_field(o, "sessionId").is_some() && str_field(o, "projectHash").is_some()) || (document && o.contains_key("sessionId"))
}

/// Classifies one record (`None`: not JSON) and replays it on the map.
fn record(p: &mut Plan, live: &mut Live, b: &[u8], ends: &scan::ContainerEnds, range: Range<usize>, path: String, v: Option<Value>) {
    let Some(v) = v else {
        p.items.push(Item::Broken { range, path });
        return;
    };
    let Value::Object(o) = v else {
        p.items.push(Item::Other { range, path, value: v });
        return;
    };
    let index = p.items.len();
    if let Some(target) = str_field(&o, "$rewindTo").map(str::to_string) {
        match live.at.get(&target).copied() {
            Some(from) => live.cut(from, Fate::Rewound(index), &mut p.msgs),
            None => live.cut(0, Fate::Rewound(index), &mut p.msgs),
        }
        p.items.push(Item::Rewind { range, path, target, value: o });
    } else if str_field(&o, "id").is_some() {
        let m = add_msg(p, range, path, o);
        set_live(live, m, &mut p.msgs);
        p.items.push(Item::Message(m));
    } else if o.get("$set").is_some_and(Value::is_object) {
        let checkpoint = o.get("$set").and_then(|s| s.get("messages")).is_some_and(Value::is_array);
        // The checkpoint clears the map; a message it lists again
        // replaces the earlier record of its id.
        let before: HashMap<String, usize> =
            if checkpoint { live.order.iter().filter_map(|&m| Some((p.msgs.get(m)?.id.clone(), m))).collect() } else { HashMap::new() };
        if checkpoint {
            live.cut(0, Fate::Checkpointed(index), &mut p.msgs);
        }
        let at = [Seg::key("$set"), Seg::key("messages")];
        let (msgs, others) = if checkpoint { nested(p, live, b, ends, &range, &path, &o, &at) } else { Default::default() };
        for &m in &msgs {
            let old = p.msgs.get(m).and_then(|x| before.get(&x.id)).copied();
            if let Some(old) = old.and_then(|o| p.msgs.get_mut(o)) {
                old.fate = Fate::Replaced(m);
            }
        }
        if let Some(Value::Object(set)) = o.get("$set") {
            for (k, v) in set.iter().filter(|(k, _)| k.as_str() != "messages") {
                p.metadata.insert(k.clone(), v.clone());
            }
        }
        p.items.push(Item::Set { range, path, value: o, msgs, others });
    } else if is_metadata(&o, p.document) {
        for (k, v) in o.iter().filter(|(k, _)| k.as_str() != "messages") {
            p.metadata.insert(k.clone(), v.clone());
        }
        let (msgs, others) =
            if o.get("messages").is_some_and(Value::is_array) { nested(p, live, b, ends, &range, &path, &o, &[Seg::key("messages")]) } else { Default::default() };
        p.items.push(Item::Meta { range, path, value: o, msgs, others });
    } else {
        p.items.push(Item::Other { range, path, value: Value::Object(o) });
    }
}

fn add_msg(p: &mut Plan, range: Range<usize>, path: String, value: Map<String, Value>) -> usize {
    if let Some(calls) = value.get("toolCalls").and_then(Value::as_array) {
        p.call_ids.extend(calls.iter().filter_map(|c| c.get("id")?.as_str()).map(str::to_string));
    }
    let id = str_field(&value, "id").unwrap_or_default().to_string();
    p.msgs.push(Msg { range, path, id, record: Record::Parsed(value), fate: Fate::Loaded });
    p.msgs.len() - 1
}

fn set_live(live: &mut Live, m: usize, msgs: &mut [Msg]) {
    live.set(m, msgs);
}

/// The items of the `messages` list at `at` inside the record: message
/// records join the live map (a checkpoint's replace what its ids had),
/// the rest are kept as they are.
#[allow(clippy::too_many_arguments)]
fn nested(
    p: &mut Plan,
    live: &mut Live,
    b: &[u8],
    ends: &scan::ContainerEnds,
    range: &Range<usize>,
    path: &str,
    o: &Map<String, Value>,
    at: &[Seg],
) -> (Vec<usize>, Vec<Nested>) {
    let list: &[Value] = match at {
        [Seg::Key(a), Seg::Key(c)] => o.get(a).and_then(|s| s.get(c)).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]),
        [Seg::Key(c)] => o.get(c).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]),
        _ => &[],
    };
    let ranges = item_ranges(b, ends, range.start, at);
    let mut msgs = Vec::new();
    let mut others = Vec::new();
    for (i, (v, r)) in list.iter().zip(ranges).enumerate() {
        let mut segs = at.to_vec();
        segs.push(Seg::Index(i));
        let item_path = render_path(path, &segs);
        match v {
            Value::Object(m) if str_field(m, "id").is_some() => {
                let n = add_msg(p, r, item_path, m.clone());
                // The older whole-file form is read as written: no ids merged.
                if !p.document {
                    set_live(live, n, &mut p.msgs);
                }
                msgs.push(n);
            }
            other => others.push(Nested { range: r, path: item_path, value: other.clone() }),
        }
    }
    (msgs, others)
}

/// The byte ranges of the items of the list at `at` in the object at `start`.
pub fn item_ranges(b: &[u8], ends: &scan::ContainerEnds, start: usize, at: &[Seg]) -> Vec<Range<usize>> {
    let mut pos = scan::skip_ws(b, start);
    for seg in at {
        let Seg::Key(k) = seg else { return Vec::new() };
        let Ok(members) = scan::object_members_in(b, pos, ends) else { return Vec::new() };
        // The last member of a name is the one JSON.parse keeps.
        let Some((_, r)) = members.into_iter().rev().find(|(name, _)| name == k) else { return Vec::new() };
        pos = scan::skip_ws(b, r.start);
    }
    if b.get(pos) != Some(&b'[') {
        return Vec::new();
    }
    scan::array_items_in(b, pos, ends).0
}
