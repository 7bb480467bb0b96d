use super::{find, required_classes, ByteSet, Shifts, DIGITS};

fn show(run: &[ByteSet]) -> String {
    run.iter()
        .map(|s| match *s {
            DIGITS => "d".to_string(),
            s if s.count_ones() <= 2 => (0..128u8).filter(|b| s & (1 << b) != 0).map(|b| char::from(b).to_ascii_lowercase()).take(1).collect(),
            s => format!("[{}]", s.count_ones()),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn runs_of_common_patterns() {
    let cases: &[(&str, Option<&[&str]>)] = &[
        (r"\d{3}-\d{4}", Some(&["d d d - d d d d"])),
        (r"\d\d\d-\d\d\d\d", Some(&["d d d - d d d d"])),
        (r"[0-9]{3}-[0-9]{4}", Some(&["d d d - d d d d"])),
        (r"\b\d{3}-\d{4}\b", Some(&["d d d - d d d d"])),
        (r"\d{3}", None),
        (r"\d{4}-\d{2}-\d{2}", Some(&["d d d d - d d - d d"])),
        (r"\d{2,4}-\d{4}", Some(&["- d d d d"])),
        (r"x\d+y\d{5}", Some(&["y d d d d d"])),
        (r"\d*-\d{6}", Some(&["- d d d d d d"])),
        (r"(\d{3})-\d{6}", Some(&["- d d d d d d"])),
        (r"\d{3}-\d{6}|[a-f0-9]{8}", Some(&["d d d - d d d d d d", "[22] [22] [22] [22] [22] [22] [22] [22]"])),
        (r"\d{3}-\d{6}|\d", None),
        (r"(?x)\d{3} - \d{6}", None),
        (r"\w+@\w+\.com", Some(&[". c o m"])),
        (r"[^0-9]{8}", None),
        (r"[[:digit:]]{8}", None),
        (r"\d{3}.\d{4}", None),
        (r"\d{3}.\d{5}", Some(&["d d d d d"])),
        (r"\D{3}-\d{4}", Some(&["- d d d d"])),
    ];
    for (pattern, want) in cases {
        assert!(regex_lite::Regex::new(pattern).is_ok(), "{pattern} must compile");
        let got = required_classes(pattern).map(|runs| runs.iter().map(|r| show(r)).collect::<Vec<_>>());
        assert_eq!(got.as_ref().map(|v| v.iter().map(String::as_str).collect::<Vec<_>>()).as_deref(), *want, "{pattern}");
    }
}

/// `regex-lite` folds case in ASCII only: a letter's class need not hold
/// the Kelvin sign or the long s.
#[test]
fn case_insensitivity_is_ascii() {
    let re = regex_lite::RegexBuilder::new("k{2}s").case_insensitive(true).build().unwrap();
    assert!(re.is_match("kKS"));
    assert!(!re.is_match("\u{212A}\u{212A}\u{17F}"));
}

/// The invariant, on generated patterns and texts: whenever the regex
/// matches, the text holds one of the runs.
#[test]
fn every_match_holds_one_of_the_runs() {
    const PIECES: &[&str] = &[
        r"\d", r"\d", r"\w", r"\s", "[0-9]", "[a-c]", "[-x]", "[^a]", "-", "a", "B", " ", ".", "{2}", "{3}", "{1,2}", "{2,}", "+", "*", "?", "|", "(", ")", "(?i)", "(?-i)",
        r"\b", "^", "$", r"\-", r"\.", "é", "[[:alpha:]]", "[a-]",
    ];
    const TEXT: &[&str] = &["1", "2", "9", "1", "2", "a", "A", "b", "B", "-", "-", " ", "\n", "é", "K", "_"];
    let mut next = crate::test_rng::xorshift(0x9E37_79B9_7F4A_7C15u64);
    let (mut checked, mut matched) = (0, 0);
    for _ in 0..40_000 {
        let pattern: String = (0..1 + next(10)).map(|_| PIECES[next(PIECES.len())]).collect();
        let Ok(re) = regex_lite::RegexBuilder::new(&pattern).case_insensitive(true).multi_line(true).build() else { continue };
        let Some(runs) = required_classes(&pattern) else { continue };
        let runs: Vec<Shifts> = runs.into_iter().map(Shifts::new).collect();
        checked += 1;
        for _ in 0..100 {
            let text: String = (0..next(32)).map(|_| TEXT[next(TEXT.len())]).collect();
            if re.is_match(&text) {
                assert!(runs.iter().any(|r| find(text.as_bytes(), r, 0).is_some()), "/{pattern}/ matches {text:?} but holds none of its runs");
                matched += 1;
            }
        }
    }
    assert!(checked > 1_000 && matched > 1_000, "checked {checked}, matched {matched}");
}

/// Horspool's scan against a plain one.
#[test]
fn find_agrees_with_a_plain_scan() {
    let mut next = crate::test_rng::xorshift(0x2545_F491_4F6C_DD1Du64);
    let sets: [ByteSet; 4] = [DIGITS, 1 << b'-', (1 << b'a') | (1 << b'A'), DIGITS | (1 << b'-')];
    let alphabet = b"01-aAx\xc3";
    for _ in 0..20_000 {
        let run: Vec<ByteSet> = (0..1 + next(5)).map(|_| sets[next(sets.len())]).collect();
        let hay: Vec<u8> = (0..next(40)).map(|_| alphabet[next(alphabet.len())]).collect();
        let from = next(5);
        let want = (from..hay.len()).find(|&p| hay.get(p..p + run.len()).is_some_and(|w| w.iter().zip(&run).all(|(b, s)| *b < 128 && s & (1 << b) != 0)));
        assert_eq!(find(&hay, &Shifts::new(run.clone()), from), want);
    }
}
