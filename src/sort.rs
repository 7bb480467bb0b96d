//! Sorting through one copy of the standard library's sort.
//!
//! Each `sort`, `sort_by_key` or `sort_unstable` call on another element type
//! or with another key closure is another copy of std's driftsort or ipnsort:
//! 3–9 KB of wasm each at opt-level 3. Nineteen of them were ~118 KB of the
//! .wasm's code (~44 KB gzipped). Sorts off the parse's hot paths go through
//! here instead: one non-generic function orders indices through a `dyn`
//! comparator (std's stable sort, compiled once), and a small generic loop
//! moves the elements into that order.
//!
//! Results are exactly those of `slice::sort_by` / `sort_by_key` (stable).
//! Where an unstable sort is replaced, the elements compared equal are
//! indistinguishable (integers, tuples with a unique index), so the result
//! is the same too.

use std::cmp::Ordering;

/// `v.sort_by_key(key)`: stable.
pub fn by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort_by(compare)`: stable.
pub fn by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order = {
        let v: &[T] = v;
        order(v.len(), &mut |a, b| match (v.get(a), v.get(b)) {
            (Some(a), Some(b)) => compare(a, b),
            _ => Ordering::Equal,
        })
    };
    apply(v, &mut order);
}

/// [`by`] for slices that are usually short, on a hot path: up to 20
/// elements an insertion sort in place (what std's stable sort itself does
/// at that length), without the index vector's allocation.
pub fn short_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if v.len() > 20 {
        return by(v, compare);
    }
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (v.get(j - 1), v.get(j)) else { break };
            if compare(b, a) != Ordering::Less {
                break;
            }
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The indices `0..n` in the stable order `compare` gives their elements.
#[inline(never)]
fn order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|a, b| compare(*a, *b));
    order
}

/// Permutes `v` in place so that `v[i]` is the old `v[order[i]]`
/// (`slice::sort_by_cached_key`'s loop).
fn apply<T>(v: &mut [T], order: &mut [usize]) {
    for i in 0..order.len().min(v.len()) {
        let Some(mut j) = order.get(i).copied() else { break };
        // Elements before `i` are already placed: the one that was at `j`
        // was swapped to where `order[j]` says.
        while j < i {
            j = order.get(j).copied().unwrap_or(i);
        }
        if let Some(o) = order.get_mut(i) {
            *o = j;
        }
        if j < v.len() {
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_std_stable_sort() {
        let mut seed = 0x2545_f491_u32;
        for n in [0, 1, 2, 3, 7, 20, 33, 100, 1000] {
            let v: Vec<(u8, u32)> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    ((seed % 7) as u8, i)
                })
                .collect();
            let mut a = v.clone();
            let mut b = v.clone();
            a.sort_by_key(|x| x.0);
            by_key(&mut b, |x| x.0);
            assert_eq!(a, b, "{n} elements");
            let mut a = v.clone();
            let mut b = v.clone();
            let mut c = v;
            a.sort_by(|x, y| y.0.cmp(&x.0));
            by(&mut b, |x, y| y.0.cmp(&x.0));
            assert_eq!(a, b, "{n} elements, descending");
            short_by(&mut c, |x, y| y.0.cmp(&x.0));
            assert_eq!(a, c, "{n} elements, short_by");
        }
    }
}
