//! A tiny full-match pattern engine for the few regular expressions whose
//! exact behaviour decides the rendered bytes: PyYAML's implicit resolvers
//! (is `"1:20"` an int? then it must be quoted) and `fnmatch` globs in
//! Docent's context configs. It simulates all paths at once over a set of
//! positions, so it runs in O(pattern × text) with no backtracking blow-up,
//! and keeps the regex crate out of the wasm module.

/// A pattern over chars.
pub enum P {
    Class(fn(char) -> bool),
    /// A char range set, optionally negated (fnmatch `[...]`).
    Set(Vec<(char, char)>, bool),
    Lit(&'static str),
    Seq(Vec<P>),
    Alt(Vec<P>),
    Opt(Box<P>),
    Star(Box<P>),
    Plus(Box<P>),
}

pub fn seq(ps: Vec<P>) -> P {
    P::Seq(ps)
}
pub fn alt(ps: Vec<P>) -> P {
    P::Alt(ps)
}
pub fn opt(p: P) -> P {
    P::Opt(Box::new(p))
}
pub fn star(p: P) -> P {
    P::Star(Box::new(p))
}
pub fn plus(p: P) -> P {
    P::Plus(Box::new(p))
}
pub fn class(f: fn(char) -> bool) -> P {
    P::Class(f)
}
pub fn lit(s: &'static str) -> P {
    P::Lit(s)
}

impl P {
    /// Positions reachable after matching `self` from any position in `from`.
    fn step(&self, text: &[char], from: &[bool]) -> Vec<bool> {
        let n = text.len();
        let mut to = vec![false; n + 1];
        match self {
            P::Class(_) | P::Set(..) => {
                for (i, c) in text.iter().enumerate() {
                    if from.get(i).copied().unwrap_or(false) && self.accepts(*c) {
                        if let Some(slot) = to.get_mut(i + 1) {
                            *slot = true;
                        }
                    }
                }
            }
            P::Lit(s) => {
                let lit: Vec<char> = s.chars().collect();
                for i in 0..=n {
                    if from.get(i).copied().unwrap_or(false) && text.get(i..i + lit.len()) == Some(&lit[..]) {
                        if let Some(slot) = to.get_mut(i + lit.len()) {
                            *slot = true;
                        }
                    }
                }
            }
            P::Seq(ps) => {
                let mut cur = from.to_vec();
                for p in ps {
                    cur = p.step(text, &cur);
                }
                to = cur;
            }
            P::Alt(ps) => {
                for p in ps {
                    for (slot, hit) in to.iter_mut().zip(p.step(text, from)) {
                        *slot |= hit;
                    }
                }
            }
            P::Opt(p) => {
                to = p.step(text, from);
                for (slot, hit) in to.iter_mut().zip(from) {
                    *slot |= *hit;
                }
            }
            P::Star(p) => to = closure(p, text, from.to_vec()),
            P::Plus(p) => {
                let first = p.step(text, from);
                to = closure(p, text, first);
            }
        }
        to
    }

    /// Ends of a match starting at `at`, for patterns without repetition
    /// (so each start has a handful of ends).
    fn ends_from(&self, text: &[char], at: usize, out: &mut Vec<usize>) {
        match self {
            P::Class(_) | P::Set(..) => {
                if text.get(at).is_some_and(|c| self.accepts(*c)) {
                    out.push(at + 1);
                }
            }
            P::Lit(s) => {
                let lit: Vec<char> = s.chars().collect();
                if text.get(at..at + lit.len()) == Some(&lit[..]) {
                    out.push(at + lit.len());
                }
            }
            P::Seq(ps) => {
                let mut cur = vec![at];
                for p in ps {
                    let mut next = Vec::new();
                    for &c in &cur {
                        p.ends_from(text, c, &mut next);
                    }
                    crate::sort::by(&mut next, Ord::cmp);
                    next.dedup();
                    cur = next;
                }
                out.extend(cur);
            }
            P::Alt(ps) => ps.iter().for_each(|p| p.ends_from(text, at, out)),
            P::Opt(p) => {
                out.push(at);
                p.ends_from(text, at, out);
            }
            P::Star(_) | P::Plus(_) => {}
        }
    }

    fn repetition_free(&self) -> bool {
        match self {
            P::Class(_) | P::Set(..) | P::Lit(_) => true,
            P::Seq(ps) | P::Alt(ps) => ps.iter().all(P::repetition_free),
            P::Opt(p) => p.repetition_free(),
            P::Star(_) | P::Plus(_) => false,
        }
    }

    fn accepts(&self, c: char) -> bool {
        match self {
            P::Class(f) => f(c),
            P::Set(ranges, negated) => ranges.iter().any(|(lo, hi)| *lo <= c && c <= *hi) != *negated,
            _ => false,
        }
    }

    /// True when the whole text matches.
    pub fn full_match(&self, text: &[char]) -> bool {
        let mut start = vec![false; text.len() + 1];
        if let Some(s) = start.first_mut() {
            *s = true;
        }
        self.step(text, &start).last().copied().unwrap_or(false)
    }

    /// Python `re.match(r'^(?:…)$', text)`: `$` also matches before a final `\n`.
    pub fn python_match(&self, text: &[char]) -> bool {
        if self.full_match(text) {
            return true;
        }
        match text.split_last() {
            Some(('\n', head)) => self.full_match(head),
            _ => false,
        }
    }
}

/// Zero or more repetitions from `start` (which is included), in time linear
/// in the text: a sweep for a character class, a worklist for other
/// repetition-free patterns, frontier iteration otherwise.
fn closure(p: &P, text: &[char], start: Vec<bool>) -> Vec<bool> {
    if matches!(p, P::Class(_) | P::Set(..)) {
        let mut all = start;
        for (i, c) in text.iter().enumerate() {
            if all.get(i).copied().unwrap_or(false) && p.accepts(*c) {
                if let Some(slot) = all.get_mut(i + 1) {
                    *slot = true;
                }
            }
        }
        return all;
    }
    if p.repetition_free() {
        let mut all = start;
        let mut work: Vec<usize> = all.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i).collect();
        while let Some(at) = work.pop() {
            let mut ends = Vec::new();
            p.ends_from(text, at, &mut ends);
            for e in ends {
                if let Some(slot) = all.get_mut(e) {
                    if !*slot {
                        *slot = true;
                        work.push(e);
                    }
                }
            }
        }
        return all;
    }
    let mut all = start.clone();
    let mut frontier = start;
    loop {
        let next = p.step(text, &frontier);
        let mut grew = false;
        for (slot, (seen, hit)) in frontier.iter_mut().zip(all.iter_mut().zip(next)) {
            *slot = hit && !*seen;
            if *slot {
                *seen = true;
                grew = true;
            }
        }
        if !grew {
            return all;
        }
    }
}

/// `fnmatch.fnmatchcase(name, pattern)`: `*`, `?`, `[seq]`, `[!seq]`, the
/// rest literal; `*` and `?` match any character, newlines included.
pub fn fnmatch(name: &str, pattern: &str) -> bool {
    // The default filters' pattern: anything, without building the matcher.
    if pattern == "*" {
        return true;
    }
    let text: Vec<char> = name.chars().collect();
    glob(pattern).full_match(&text)
}

fn glob(pattern: &str) -> P {
    let pat: Vec<char> = pattern.chars().collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while let Some(&c) = pat.get(i) {
        i += 1;
        match c {
            '*' => parts.push(star(class(|_| true))),
            '?' => parts.push(class(|_| true)),
            '[' => match bracket(&pat, i) {
                Some((set, next)) => {
                    parts.push(set);
                    i = next;
                }
                None => parts.push(P::Set(vec![('[', '[')], false)),
            },
            _ => parts.push(P::Set(vec![(c, c)], false)),
        }
    }
    seq(parts)
}

/// A `[...]` set starting after `[` at `i`; None when it never closes (then `[` is literal).
fn bracket(pat: &[char], i: usize) -> Option<(P, usize)> {
    let mut j = i;
    if pat.get(j) == Some(&'!') {
        j += 1;
    }
    if pat.get(j) == Some(&']') {
        j += 1;
    }
    while pat.get(j).is_some_and(|c| *c != ']') {
        j += 1;
    }
    pat.get(j)?;
    let body = pat.get(i..j)?;
    let (negated, body) = match body.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, body),
    };
    if body.is_empty() {
        // `[!]` is any character; `[]` cannot occur (`]` first is literal).
        return Some((class(|_| true), j + 1));
    }
    let mut ranges = Vec::new();
    let mut k = 0;
    while let Some(&c) = body.get(k) {
        match (body.get(k + 1), body.get(k + 2)) {
            (Some('-'), Some(&hi)) => {
                // An empty range (z-a) matches nothing, as Python drops it.
                if c <= hi {
                    ranges.push((c, hi));
                }
                k += 3;
            }
            _ => {
                ranges.push((c, c));
                k += 1;
            }
        }
    }
    Some((P::Set(ranges, negated), j + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(fnmatch("attempt 1", "attempt*"));
        assert!(fnmatch("task", "?ask*"));
        assert!(!fnmatch("Task", "t*"));
        assert!(fnmatch("b1", "b?"));
        assert!(fnmatch("a\nb", "a*"));
        assert!(fnmatch("[x", "[x"));
        assert!(fnmatch("c", "[a-c]"));
        assert!(!fnmatch("c", "[!a-c]"));
        assert!(fnmatch("]", "[]]"));
    }
}
