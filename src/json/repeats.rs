//! The split's test of whether an object may repeat a key: the objects it
//! lists are checked key by key by `dupkeys`; the others are not walked again.

/// True when the keys of one object (quoted ranges) may hold one key twice:
/// two are the same bytes, or one holds an escape (two different spellings
/// can decode alike). More than 16 are sorted and compared with their
/// neighbours ([`many_may_repeat`]). Keys holding invalid UTF-8 also compare
/// decoded, but the split's list is not used for such inputs.
#[inline(always)]
pub(super) fn may_repeat_a_key(b: &[u8], keys: &[(usize, usize)]) -> bool {
    let raw = |k: &(usize, usize)| b.get(k.0 + 1..k.1.saturating_sub(1)).unwrap_or(&[]);
    if keys.len() > 16 {
        return many_may_repeat(keys.iter().map(raw));
    }
    for (n, key) in keys.iter().enumerate() {
        let text = raw(key);
        if text.contains(&b'\\') || keys.get(..n).unwrap_or(&[]).iter().any(|k| raw(k) == text) {
            return true;
        }
    }
    false
}

/// [`may_repeat_a_key`] for more than 16 keys: sorted on the stack and
/// compared with their neighbours (an OpenHands action has 17 keys: listing
/// every such object for `dupkeys` to walk again was a tenth of its parse).
/// More than 64 keys are listed unsorted.
#[inline(never)]
fn many_may_repeat<'b>(keys: impl ExactSizeIterator<Item = &'b [u8]>) -> bool {
    const MAX: usize = 64;
    if keys.len() > MAX {
        return true;
    }
    let mut sorted: [&[u8]; MAX] = [&[]; MAX];
    let mut n = 0;
    for (slot, key) in sorted.iter_mut().zip(keys) {
        if key.contains(&b'\\') {
            return true;
        }
        *slot = key;
        n += 1;
    }
    let Some(sorted) = sorted.get_mut(..n) else { return true };
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w.first() == w.last())
}
