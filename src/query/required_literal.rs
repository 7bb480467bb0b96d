//! Runs of ASCII text, one of which every match of a `/regex/` query
//! contains, lower-cased: a prefilter for the regex.
//!
//! `regex-lite` (chosen for the .wasm's size) has no literal optimisations of
//! its own, so `/line \d+, in/` ran its NFA over every byte of every event:
//! ~1.8 s on 100 MB. Events whose text (the as-is text index, searched
//! ASCII case-insensitively with SIMD, `super::ci_find`) lacks `line ` cannot
//! match, and are skipped.
//!
//! Soundness rests on three facts. Only ASCII is taken, and `regex-lite`'s
//! case-insensitivity is ASCII-only, so any match of the literal is the same
//! bytes in some ASCII case. The walk is conservative: anything
//! it does not recognise as a plain character ends the current run, so two
//! pieces of text are only joined when the pattern places them side by side.
//! A top-level `|` splits the pattern into branches, each walked alone: a
//! match holds one branch's literal. A pattern with a branch without one, or
//! with verbose mode (`x`, where spaces and `#` are not literal) anywhere, gets
//! no prefilter at all.

/// Literals shorter than this are not worth a second search.
const MIN_LEN: usize = 2;

/// Lower-cased ASCII literals (each at least two bytes), one per top-level
/// branch, such that every match of `pattern` contains one of them; `None`
/// when some branch has no such literal or the pattern is beyond this simple
/// walk. `pattern` must be one `regex-lite` accepts (the caller compiles it).
pub(crate) fn required_literals(pattern: &str) -> Option<Vec<String>> {
    let chars = pattern.as_bytes();
    if has_verbose_flag(chars) {
        return None;
    }
    let mut literals: Vec<String> = Vec::new();
    for branch in branches(chars) {
        let literal = branch_literal(branch)?;
        if !literals.contains(&literal) {
            literals.push(literal);
        }
    }
    Some(literals)
}

/// The pattern split at its top-level `|`s (not those in groups or classes,
/// nor escaped ones).
pub(super) fn branches(chars: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while let Some(&c) = chars.get(i) {
        i = match c {
            b'\\' => i + 2,
            b'(' => skip_group(chars, i),
            b'[' => skip_class(chars, i),
            b'|' => {
                out.push(chars.get(start..i).unwrap_or_default());
                start = i + 1;
                i + 1
            }
            _ => i + 1,
        };
    }
    out.push(chars.get(start..).unwrap_or_default());
    out
}

/// The longest literal every match of one branch (no top-level `|`) contains.
fn branch_literal(chars: &[u8]) -> Option<String> {
    let mut best = String::new();
    let mut run = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        // The atom at i: Some(byte) for a literal ASCII character, None for anything
        // else (a byte of a non-ASCII character included: the walk is over bytes).
        let (atom, next) = match c {
            b'(' => {
                let end = skip_group(chars, i);
                if is_flag_group(chars, i) && matches!(chars.get(end), Some(b'*' | b'+' | b'?' | b'{')) {
                    // `(?i)` is no atom: a quantifier after it repeats the atom before
                    // it (`a+(?i)?` is `(a+)?`), which may be in `best` already.
                    return None;
                }
                (None, end)
            }
            b'[' => (None, skip_class(chars, i)),
            b'\\' => escape(chars, i),
            b'.' | b'^' | b'$' => (None, i + 1),
            // A quantifier with nothing literal before it (after a group, a class, …):
            // the run already ended there.
            b'*' | b'+' | b'?' | b'{' => (None, skip_quantifier(chars, i)),
            c => (Some(c), i + 1),
        };
        i = next;
        // What follows an atom may repeat it, zero times included; quantifiers
        // stack (`a+{0,1}` is `(a+)?`), so all of them count.
        let (mut optional, mut repeated) = (false, false);
        while let Some(&q) = chars.get(i) {
            match q {
                b'*' | b'?' | b'{' => optional = true,
                b'+' => repeated = true,
                _ => break,
            }
            i = skip_quantifier(chars, i);
        }
        match atom {
            Some(c) if c.is_ascii() && !optional => {
                run.push(char::from(c.to_ascii_lowercase()));
                if repeated {
                    // `a+b`: the match holds "ab", but keep it simple: the run ends.
                    take_longer(&mut best, &mut run);
                }
            }
            _ => take_longer(&mut best, &mut run),
        }
    }
    take_longer(&mut best, &mut run);
    (best.len() >= MIN_LEN).then_some(best)
}

fn take_longer(best: &mut String, run: &mut String) {
    if run.len() > best.len() {
        std::mem::swap(best, run);
    }
    run.clear();
}

/// `(?flags)` at `i`: flags for the rest of the group, no sub-pattern.
pub(super) fn is_flag_group(chars: &[u8], i: usize) -> bool {
    if chars.get(i + 1) != Some(&b'?') {
        return false;
    }
    let mut j = i + 2;
    while chars.get(j).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'-') {
        j += 1;
    }
    chars.get(j) == Some(&b')')
}

/// Any `(?flags)` or `(?flags:…)` that mentions `x`: verbose mode ignores
/// whitespace and starts comments at `#`, so text is no longer what it seems.
pub(super) fn has_verbose_flag(chars: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            b'\\' => i += 2,
            b'(' if chars.get(i + 1) == Some(&b'?') => {
                let mut j = i + 2;
                while let Some(&f) = chars.get(j) {
                    match f {
                        b'x' => return true,
                        b':' | b')' | b'<' | b'P' => break,
                        _ => j += 1,
                    }
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    false
}

/// An escape at `i` (`\`): a literal for escaped ASCII punctuation, else
/// nothing (classes like `\d`, assertions like `\b` and `\<`, and characters
/// written as `\x41` or `\n`, which the walk does not decode), skipping any
/// braces or hex digits that belong to it.
fn escape(chars: &[u8], i: usize) -> (Option<u8>, usize) {
    let Some(&c) = chars.get(i + 1) else { return (None, i + 1) };
    if c.is_ascii_punctuation() && c != b'<' && c != b'>' {
        return (Some(c), i + 2);
    }
    let mut j = i + 2;
    if chars.get(j) == Some(&b'{') {
        // \b{start}, \x{10FFFF}, \p{…}
        j = skip_to(chars, j, b'}');
    } else if matches!(c, b'x' | b'u' | b'U') {
        while chars.get(j).is_some_and(|c| c.is_ascii_hexdigit()) {
            j += 1;
        }
    }
    (None, j)
}

/// Where the escape at `i` ends.
pub(super) fn escape_end(chars: &[u8], i: usize) -> usize {
    escape(chars, i).1
}

/// Past a quantifier at `i` (`*`, `+`, `?`, `{n,m}`) and its lazy `?`.
pub(super) fn skip_quantifier(chars: &[u8], i: usize) -> usize {
    let mut j = match chars.get(i) {
        Some(b'{') => skip_to(chars, i, b'}'),
        Some(b'*' | b'+' | b'?') => i + 1,
        _ => return i,
    };
    if chars.get(j) == Some(&b'?') {
        j += 1;
    }
    j
}

/// Past the first `close` from `i` on (or to the end).
fn skip_to(chars: &[u8], i: usize, close: u8) -> usize {
    let mut j = i;
    while let Some(&c) = chars.get(j) {
        j += 1;
        if c == close {
            break;
        }
    }
    j
}

/// Past the group opened at `i`, nested groups, classes and escapes included.
pub(super) fn skip_group(chars: &[u8], i: usize) -> usize {
    let mut depth = 0usize;
    let mut j = i;
    while let Some(&c) = chars.get(j) {
        match c {
            b'\\' => j += 2,
            b'[' => j = skip_class(chars, j),
            b'(' => {
                depth += 1;
                j += 1;
            }
            b')' => {
                j += 1;
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j;
                }
            }
            _ => j += 1,
        }
    }
    j
}

/// Past the class opened at `i`: `]` first (or after `^`) is a member, classes
/// nest (`[a[^b]]`, `[[:alpha:]]`), escapes are skipped whole.
pub(super) fn skip_class(chars: &[u8], i: usize) -> usize {
    let mut depth = 0usize;
    let mut j = i;
    while let Some(&c) = chars.get(j) {
        match c {
            b'\\' => j += 2,
            b'[' => {
                depth += 1;
                j += 1;
                if chars.get(j) == Some(&b'^') {
                    j += 1;
                }
                if chars.get(j) == Some(&b']') {
                    j += 1;
                }
            }
            b']' => {
                j += 1;
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j;
                }
            }
            _ => j += 1,
        }
    }
    j
}

#[cfg(test)]
mod tests {
    use super::required_literals;

    #[test]
    fn literals_of_common_patterns() {
        let cases: &[(&str, Option<&[&str]>)] = &[
            (r"line \d+, in", Some(&["line "])),
            (r"Traceback", Some(&["traceback"])),
            (r"(?-i)Error: \w+", Some(&["error: "])),
            (r"\.json$", Some(&[".json"])),
            (r"^\s*def \w+\(", Some(&["def "])),
            (r"colou?r", Some(&["colo"])),
            (r"ab*cd", Some(&["cd"])),
            (r"ab+cd", Some(&["ab"])),
            (r"abc(?i)?de", None),
            (r"xya+(?i)?z", None),
            (r"xya+(?i)(?s)?z", None),
            (r"ab(?-i)cd", Some(&["ab"])),
            (r"a{2}bc", Some(&["bc"])),
            (r"x{2,}?yz", Some(&["yz"])),
            (r"[abc]def", Some(&["def"])),
            (r"[]x]yz", Some(&["yz"])),
            (r"[^]x]yz", Some(&["yz"])),
            (r"[[:alpha:]]+ok", Some(&["ok"])),
            (r"\<word\>", Some(&["word"])),
            (r"\bword\b", Some(&["word"])),
            (r"\b{start}word", Some(&["word"])),
            (r"\x41BC", None),
            (r"\x{41}bc", Some(&["bc"])),
            (r"\u0041bcd", None),
            (r"a\nbc", Some(&["bc"])),
            (r"(foo|bar)baz", Some(&["baz"])),
            (r"(?:ab)?cd", Some(&["cd"])),
            (r"(a(b)c)de", Some(&["de"])),
            (r"(?i)abc", Some(&["abc"])),
            (r"foo|bar", Some(&["foo", "bar"])),
            (r"(?i)error|Exception|ERROR", Some(&["error", "exception"])),
            (r"ab\|cd", Some(&["ab|cd"])),
            (r"[|]ab|cd", Some(&["ab", "cd"])),
            (r"foo|", None),
            (r"foo|b", None),
            (r"(a|b)c|de", None),
            (r"(?x)foo bar", None),
            (r"ab(?x: c )de", None),
            (r"a.b", None),
            (r"zürich", Some(&["rich"])),
            (r"\\path\\", Some(&["\\path\\"])),
            (r"a\/b", Some(&["a/b"])),
            (r"ab*?c", None),
            (r"", None),
        ];
        for (pattern, want) in cases {
            assert!(regex_lite::Regex::new(pattern).is_ok(), "{pattern} must compile");
            let got = required_literals(pattern);
            assert_eq!(got.as_ref().map(|v| v.iter().map(String::as_str).collect::<Vec<_>>()).as_deref(), *want, "{pattern}");
        }
    }

    /// The invariant, on generated patterns and texts: whenever the regex
    /// matches, the lower-cased text contains one of the literals.
    #[test]
    fn every_match_contains_one_of_the_literals() {
        const PIECES: &[&str] = &[
            "ab", "ba", "a-", "b.", "a+", "(?i)?", "(?s)*", "a", "b", "A", "k", "s", " ", "-", ".", r"\.", r"\-", "*", "+", "?", "??", "{2}", "{0,1}", "{1,}", "|", "(", ")", "(?:", "(?i)",
            "(?-i)", "(?s)", "(?x)", "(?i:", "(?P<n>", "[ab]", "[^a]", "[]a]", "[[:alpha:]]", "[a[^b]]", r"[\]a]", "[a-]", r"\d", r"\w", r"\b", r"\<", r"\>", r"\x41", r"\x{6B}", "^", "$", "ſ", "K", "é", r"\n",
        ];
        const TEXT: &[&str] = &["a", "b", "A", "B", "k", "K", "s", "S", "ſ", "K", " ", "-", ".", "1", "\n", "é", "É"];
        let mut next = crate::test_rng::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let (mut checked, mut matched, mut filtered) = (0, 0, 0);
        for _ in 0..60_000 {
            let pattern: String = (0..1 + next(8)).map(|_| PIECES[next(PIECES.len())]).collect();
            let Ok(re) = regex_lite::RegexBuilder::new(&pattern).case_insensitive(true).multi_line(true).build() else { continue };
            let Some(literals) = required_literals(&pattern) else { continue };
            checked += 1;
            for _ in 0..40 {
                let text: String = (0..next(12)).map(|_| TEXT[next(TEXT.len())]).collect();
                if re.is_match(&text) {
                    // ASCII case only: the prefilter searches the text as it is, case-insensitively.
                    let lower = text.to_ascii_lowercase();
                    assert!(literals.iter().any(|l| lower.contains(l.as_str())), "/{pattern}/ matches {text:?} but none of {literals:?} is in it");
                    matched += 1;
                } else {
                    filtered += 1;
                }
            }
            // And a text built to match, where one exists near the literal.
            for literal in &literals {
                let text = format!("x{}x", literal.to_uppercase());
                if re.is_match(&text) {
                    matched += 1;
                }
            }
        }
        assert!(checked > 2_000, "too few patterns had a literal: {checked}");
        assert!(matched > 1_000 && filtered > 1_000, "matched {matched}, filtered {filtered}");
    }
}
