//! [`ContainerEnds`]: where the split found the long containers and strings
//! of the input's values to end, so that readers jump over them.

use super::scan::Grammar;

/// Where the containers near the top of the input's values end, recorded by
/// the one scan that validates them (the split), so that the format readers'
/// `array_items` / `object_members` jump over a record instead of scanning it
/// again. Without it, a JSON document was scanned once by the split, once
/// more for its list of traces, once more for each trace's events — before
/// serde_json read each event a fourth time (BENCHMARKS.md).
///
/// Only containers at depth `0..=DEPTH` of a top-level value and at least
/// `MIN_BYTES` long are kept (a short one costs little to scan again), so the
/// table stays small whatever the input: at most `DEPTH + 1` entries per
/// `MIN_BYTES` of input, and in practice a few per event.
/// Entries are sorted by start.
///
/// The table also holds where the long string values end (at least
/// `MIN_STRING_BYTES`, quotes included), and whether each holds an escape:
/// a message's content is most of a trace's bytes, and a reader that leaves
/// it in the source only needs its end to go on.
///
/// The table also says which grammar the scan that made it read, so that
/// the readers jumping with it scan what it did not record the same way.
#[derive(Debug, Clone, Default)]
pub struct ContainerEnds {
    entries: Vec<(usize, usize)>,
    /// `(start, end)` of long strings, by start; bit 31 of `end` says the
    /// string holds an escape (strings past 2 GiB are not recorded).
    strings: Vec<(u32, u32)>,
    grammar: Grammar,
}

/// The empty table: every container and string is scanned (strictly).
pub static NO_ENDS: ContainerEnds = ContainerEnds::empty(Grammar::Strict);

const ESCAPED_BIT: u32 = 1 << 31;

/// A container's end in the table before it closes.
const OPEN: usize = 0;

impl ContainerEnds {
    /// An empty table for a scan in `grammar`.
    pub const fn empty(grammar: Grammar) -> ContainerEnds {
        ContainerEnds { entries: Vec::new(), strings: Vec::new(), grammar }
    }

    /// The grammar of the scan that made the table.
    pub fn grammar(&self) -> Grammar {
        self.grammar
    }

    /// The deepest level recorded: the document (0), its traces (1), their
    /// events (2), the events' members (3), down to a tool call's function
    /// and its arguments (6). Readers that leave content in place read these
    /// small containers too; recording them (not only records) took 7% off a
    /// parse (callgrind, 10 MB openai).
    pub const DEPTH: usize = 6;
    /// The shortest container recorded, in bytes.
    pub const MIN_BYTES: usize = 128;

    /// The shortest string value recorded, quotes included.
    pub const MIN_STRING_BYTES: usize = 64;

    /// Records the string value from `start` (its quote) to `end`.
    #[inline(always)]
    pub(super) fn record_string(&mut self, start: usize, end: usize, escaped: bool) {
        if end - start >= Self::MIN_STRING_BYTES {
            if let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(end)) {
                if end < ESCAPED_BIT {
                    self.strings.push((start, if escaped { end | ESCAPED_BIT } else { end }));
                }
            }
        }
    }

    /// The end of the string whose quote is at `start` and whether it holds
    /// an escape, if recorded.
    #[inline(always)]
    pub fn string_at(&self, start: usize) -> Option<(usize, bool)> {
        let start = u32::try_from(start).ok()?;
        let i = self.strings.partition_point(|e| e.0 < start);
        let (s, end) = *self.strings.get(i)?;
        (s == start).then_some(((end & !ESCAPED_BIT) as usize, end & ESCAPED_BIT != 0))
    }

    /// The recorded strings from offset `from` on, as (quote, end), in order.
    pub fn strings_from(&self, from: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let from = u32::try_from(from).unwrap_or(u32::MAX);
        let i = self.strings.partition_point(|e| e.0 < from);
        self.strings.get(i..).unwrap_or_default().iter().map(|&(s, end)| (s as usize, (end & !ESCAPED_BIT) as usize))
    }

    /// The end of the container whose `[` or `{` is at `start`, if recorded.
    pub fn end_of(&self, start: usize) -> Option<usize> {
        let i = self.entries.binary_search_by_key(&start, |e| e.0).ok()?;
        self.entries.get(i).map(|e| e.1)
    }

    /// Appends another table whose entries all start after this one's (the
    /// next file of a multi-file input).
    pub fn extend(&mut self, other: ContainerEnds) {
        self.entries.extend(other.entries);
        self.strings.extend(other.strings);
    }

    /// The number of container entries: where the next slot goes.
    pub(super) fn slots(&self) -> usize {
        self.entries.len()
    }

    /// Takes a slot for the container whose `[` or `{` is at `open`; its end
    /// is filled in when it closes ([`ContainerEnds::close_slot`]). Slots are
    /// taken as containers open, so the table comes out in start order.
    #[inline(always)]
    pub(super) fn open_slot(&mut self, open: usize) -> usize {
        self.entries.push((open, OPEN));
        self.entries.len() - 1
    }

    /// The container of `slot`, opened at `open`, ends just before `end`: kept
    /// when it is long enough, else its slot is given back (it is the last
    /// one: its own containers, shorter still, gave theirs back already).
    #[inline(always)]
    pub(super) fn close_slot(&mut self, slot: usize, open: usize, end: usize) {
        if end - open >= Self::MIN_BYTES {
            if let Some(e) = self.entries.get_mut(slot) {
                e.1 = end;
            }
        } else {
            self.entries.truncate(slot);
        }
    }

    /// Drops the slots from `from` on that never closed (a syntax error left
    /// their containers open).
    pub(super) fn drop_open_slots(&mut self, from: usize) {
        let mut i = from;
        while let Some(e) = self.entries.get(i) {
            if e.1 == OPEN {
                self.entries.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// How much is recorded: a mark to go back to ([`ContainerEnds::rollback`]).
    pub(super) fn mark(&self) -> (usize, usize) {
        (self.entries.len(), self.strings.len())
    }

    /// Forgets what was recorded after `mark` (a JSON Lines value scanned
    /// again, alone on its line).
    pub(super) fn rollback(&mut self, mark: (usize, usize)) {
        self.entries.truncate(mark.0);
        self.strings.truncate(mark.1);
    }

    /// `(start, end)` of every recorded container, by start.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.entries.iter().copied()
    }
}

/// The table read forward from one offset: a walk over one container's
/// values, in order, asks for each value's end here. The next entry is
/// compared first and the rest searched only when the walk passed it, so a
/// value costs a comparison, not a binary search over the whole table (that
/// search, once per string value, was a third of `json::read::members` on
/// Claude Code records).
#[derive(Clone)]
pub struct EndsCursor<'a> {
    strings: &'a [(u32, u32)],
    entries: &'a [(usize, usize)],
}

impl ContainerEnds {
    /// A cursor over the entries from offset `from` on.
    #[inline(always)]
    pub fn cursor_from(&self, from: usize) -> EndsCursor<'_> {
        let from32 = u32::try_from(from).unwrap_or(u32::MAX);
        let strings = self.strings.get(self.strings.partition_point(|e| e.0 < from32)..).unwrap_or_default();
        let entries = self.entries.get(self.entries.partition_point(|e| e.0 < from)..).unwrap_or_default();
        EndsCursor { strings, entries }
    }
}

impl EndsCursor<'_> {
    /// [`ContainerEnds::string_at`], for a `start` no earlier than the last one asked.
    #[inline(always)]
    pub fn string_at(&mut self, start: usize) -> Option<(usize, bool)> {
        let start = u32::try_from(start).ok()?;
        if self.strings.first().is_some_and(|e| e.0 < start) {
            self.strings = self.strings.get(first_not_before(self.strings, |e| e.0 < start)..).unwrap_or_default();
        }
        let (s, end) = *self.strings.first()?;
        (s == start).then_some(((end & !ESCAPED_BIT) as usize, end & ESCAPED_BIT != 0))
    }

    /// [`ContainerEnds::end_of`], for a `start` no earlier than the last one asked.
    #[inline(always)]
    pub fn end_of(&mut self, start: usize) -> Option<usize> {
        if self.entries.first().is_some_and(|e| e.0 < start) {
            self.entries = self.entries.get(first_not_before(self.entries, |e| e.0 < start)..).unwrap_or_default();
        }
        let (s, end) = *self.entries.first()?;
        (s == start).then_some(end)
    }
}


/// How many entries a cursor compares one by one before it searches the
/// rest: a walk mostly moves past one or two entries (those inside the
/// value it jumped over), and a binary search over the whole rest of the
/// table cost ~2 log2(n) comparisons and branches each time.
const LINEAR_STEPS: usize = 4;

/// The index of the first entry of `table` (sorted) for which `before` is
/// false: the next [`LINEAR_STEPS`] entries compared in turn, then the rest
/// searched. The same answer as `table.partition_point(before)`.
#[inline(always)]
fn first_not_before<T>(table: &[T], before: impl Fn(&T) -> bool) -> usize {
    let mut i = 0;
    while i < LINEAR_STEPS {
        match table.get(i) {
            Some(e) if before(e) => i += 1,
            _ => return i,
        }
    }
    // Then steps doubling from there, and a search of the last one only: a
    // binary search of the whole rest of the table (a cursor's strings lag
    // behind after a jump over a container) missed the cache at each level.
    let mut step = LINEAR_STEPS;
    loop {
        let probe = i + step;
        match table.get(probe) {
            Some(e) if before(e) => {
                i = probe + 1;
                step = step.saturating_mul(2);
            }
            _ => return i + table.get(i..probe.min(table.len())).map_or(0, |gap| gap.partition_point(&before)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64), for tables and queries.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A table of `n` strings and `n` containers at random increasing starts.
    fn random_table(rng: &mut Rng, n: usize) -> ContainerEnds {
        let mut table = ContainerEnds::default();
        let (mut s, mut c) = (0u32, 0usize);
        for _ in 0..n {
            s += 1 + rng.below(6) as u32;
            let end = s + 1 + rng.below(100) as u32;
            table.strings.push((s, if rng.below(2) == 0 { end } else { end | ESCAPED_BIT }));
            c += 1 + rng.below(6) as usize;
            table.entries.push((c, c + 1 + rng.below(100) as usize));
        }
        table
    }

    /// A cursor read forward answers as the table searched whole does, for
    /// queries that stay put, step to the next entry, or jump past many
    /// (the linear steps and the search behind them), from any offset.
    #[test]
    fn the_cursor_answers_as_the_table() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..400 {
            let table = random_table(&mut rng, round % 40);
            let from = rng.below(20) as usize;
            let mut at = table.cursor_from(from);
            let mut q = from;
            while q < 6 * 40 + 120 {
                assert_eq!(at.string_at(q), table.string_at(q), "string at {q}, round {round}");
                assert_eq!(at.end_of(q), table.end_of(q), "container at {q}, round {round}");
                // Mostly small steps, now and then past a dozen entries or more.
                q += match rng.below(8) {
                    0 => 0,
                    1 => 20 + rng.below(60) as usize,
                    _ => rng.below(5) as usize,
                };
            }
        }
    }

    /// The linear steps and the search find the same first entry not
    /// before a key, at every key and for every table length around them.
    #[test]
    fn first_not_before_is_partition_point() {
        for n in 0..(40 * LINEAR_STEPS) {
            let table: Vec<usize> = (0..n).map(|i| 2 * i + 1).collect();
            for key in 0..=2 * n + 2 {
                assert_eq!(first_not_before(&table, |&e| e < key), table.partition_point(|&e| e < key), "n {n}, key {key}");
            }
        }
    }
}
