//! The split's test of whether an object may repeat a key: the objects it
//! lists are checked key by key by `dupkeys`; the others are not walked again.

/// One key of an open object, as the scanner met it: its quoted range, and
/// whether it holds an escape (which the string scan knows already, so the
/// test below does not look for a backslash again).
#[derive(Clone, Copy)]
pub(super) struct Key {
    pub start: usize,
    pub end: usize,
    pub escaped: bool,
}

impl Key {
    /// The key's text between its quotes.
    fn text<'b>(&self, b: &'b [u8]) -> &'b [u8] {
        b.get(self.start + 1..self.end.saturating_sub(1)).unwrap_or(&[])
    }
}

/// True when the keys of one object may hold one key twice: two are the
/// same bytes, or one holds an escape (two different spellings can decode
/// alike). Up to 16 keys, each key is compared with the earlier ones only
/// when its fingerprint ([`fingerprint`]) is one an earlier key had: a
/// Claude Code record's 15 keys were 105 comparisons and a `memchr` each,
/// 5% of its parse. More than 16 are sorted and compared with their
/// neighbours ([`many_may_repeat`]). Keys holding invalid UTF-8 also compare
/// decoded, but the split's list is not used for such inputs.
#[inline(always)]
pub(super) fn may_repeat_a_key(b: &[u8], keys: &[Key]) -> bool {
    if keys.iter().any(|k| k.escaped) {
        return true;
    }
    if keys.len() > 16 {
        return many_may_repeat(keys.iter().map(|k| k.text(b)));
    }
    let mut seen = 0u64;
    for (n, key) in keys.iter().enumerate() {
        let text = key.text(b);
        let bit = 1u64 << fingerprint(text);
        if seen & bit != 0 && keys.get(..n).unwrap_or(&[]).iter().any(|k| k.text(b) == text) {
            return true;
        }
        seen |= bit;
    }
    false
}

/// Six bits of a key (its length, first and last bytes, mixed): equal keys
/// have equal fingerprints, so a key whose fingerprint no earlier key had
/// repeats none of them.
#[inline(always)]
fn fingerprint(text: &[u8]) -> u32 {
    let first = u32::from(text.first().copied().unwrap_or(0));
    let last = u32::from(text.last().copied().unwrap_or(0));
    let len = text.len() as u32;
    (len ^ (first << 8) ^ (last << 16)).wrapping_mul(0x9E37_79B9) >> 26
}

/// [`may_repeat_a_key`] for more than 16 keys, none escaped: sorted on the
/// stack and compared with their neighbours (an OpenHands action has 17
/// keys: listing every such object for `dupkeys` to walk again was a tenth
/// of its parse). More than 64 keys are listed unsorted.
#[inline(never)]
fn many_may_repeat<'b>(keys: impl ExactSizeIterator<Item = &'b [u8]>) -> bool {
    const MAX: usize = 64;
    if keys.len() > MAX {
        return true;
    }
    let mut sorted: [&[u8]; MAX] = [&[]; MAX];
    let mut n = 0;
    for (slot, key) in sorted.iter_mut().zip(keys) {
        *slot = key;
        n += 1;
    }
    let Some(sorted) = sorted.get_mut(..n) else { return true };
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w.first() == w.last())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of the object `text` (keys found by their quotes: the test
    /// objects hold no other strings).
    fn keys_of(text: &str) -> Vec<Key> {
        let b = text.as_bytes();
        let mut keys = Vec::new();
        let mut i = 0;
        while let Some(open) = b.get(i..).and_then(|r| r.iter().position(|c| *c == b'"')).map(|p| p + i) {
            let end = crate::json::scan::scan_string(b, open).unwrap_or(b.len());
            keys.push(Key { start: open, end, escaped: b.get(open..end).is_some_and(|s| s.contains(&b'\\')) });
            i = end + 1; // past the `:` and the value
        }
        keys
    }

    #[test]
    fn repeats_are_found_among_few_and_many_keys() {
        for (text, repeats) in [
            (r#"{"a":1,"b":2}"#, false),
            (r#"{"a":1,"a":2}"#, true),
            (r#"{"ab":1,"cb":2,"ab":3}"#, true),
            (r#"{"a\u0062":1,"c":2}"#, true),
            (r#"{"":1,"":2}"#, true),
            (r#"{"":1,"x":2}"#, false),
        ] {
            let keys = keys_of(text);
            assert_eq!(may_repeat_a_key(text.as_bytes(), &keys), repeats, "{text}");
        }
        let distinct: Vec<String> = (0..40).map(|n| format!("\"key{n}\":{n}")).collect();
        let many = format!("{{{}}}", distinct.join(","));
        assert!(!may_repeat_a_key(many.as_bytes(), &keys_of(&many)));
        let twice = format!("{{{},\"key7\":0}}", distinct.join(","));
        assert!(may_repeat_a_key(twice.as_bytes(), &keys_of(&twice)));
        // Sixteen keys, the last a repeat of the first: the fingerprint path.
        let sixteen: Vec<String> = (0..15).map(|n| format!("\"k{n}\":{n}")).collect();
        let last_repeats = format!("{{{},\"k0\":0}}", sixteen.join(","));
        assert!(may_repeat_a_key(last_repeats.as_bytes(), &keys_of(&last_repeats)));
    }

    #[test]
    fn every_pair_of_keys_with_the_same_fingerprint_is_compared() {
        // Keys of one length whose first and last bytes vary: many share a
        // fingerprint; a repeat of any of them is found, a distinct set is not.
        let names: Vec<String> = (b'a'..=b'p').map(|c| format!("{}x{}", c as char, (b'a' + ((u32::from(c) * 7) % 26) as u8) as char)).collect();
        let distinct = format!("{{{}}}", names.iter().map(|n| format!("\"{n}\":0")).collect::<Vec<_>>().join(","));
        assert!(!may_repeat_a_key(distinct.as_bytes(), &keys_of(&distinct)));
        for repeat in 0..names.len() - 1 {
            let mut with: Vec<&String> = names.iter().take(15).collect();
            with.push(&names[repeat.min(14)]);
            let text = format!("{{{}}}", with.iter().map(|n| format!("\"{n}\":0")).collect::<Vec<_>>().join(","));
            assert!(may_repeat_a_key(text.as_bytes(), &keys_of(&text)), "{text}");
        }
    }
}
