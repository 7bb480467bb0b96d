//! What counts as a secret: the built-in kinds (API keys and tokens of the
//! providers trace content leaks most, JWTs, bearer headers, private keys,
//! e-mail addresses) and the user's own patterns and literal strings.
//!
//! Each kind has a cheap trigger (a substring every match contains) so that
//! the regexes run only on the few strings that could hold one: a 100 MB
//! trace is mostly text with no secret in it.

use regex_lite::Regex;

/// One kind of secret: its name in the placeholder, a substring every match
/// holds (ASCII, compared case-insensitively when `fold`), and the pattern.
pub struct Detector {
    pub kind: String,
    trigger: Option<(String, bool)>,
    pattern: Matcher,
}

enum Matcher {
    Regex(Regex),
    Literal(String),
}

/// The built-in kinds, most specific first (an Anthropic key also looks
/// like an OpenAI one; the first kind to claim a span keeps it).
const BUILTIN: &[(&str, &str, bool, &str)] = &[
    ("private-key", "PRIVATE KEY", false, r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[^-]|-[^-])*?-----END [A-Z0-9 ]*PRIVATE KEY-----"),
    ("anthropic-key", "sk-ant-", false, r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    ("openai-key", "sk-", false, r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
    ("aws-access-key", "", false, r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    ("aws-secret-key", "aws", true, r#"(?i)aws.{0,20}?(?:secret|sk).{0,20}?['"=: ]+([A-Za-z0-9/+]{40})\b"#),
    ("github-token", "", false, r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    ("google-api-key", "AIza", false, r"AIza[0-9A-Za-z_\-]{35}"),
    ("slack-token", "xox", false, r"xox[abposr]-[A-Za-z0-9\-]{10,}"),
    ("jwt", "eyJ", false, r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}"),
    ("bearer-token", "bearer", true, r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{16,}=*)"),
    ("email", "@", false, r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}"),
];

/// Triggers of the kinds whose own trigger is empty: any of these makes the
/// string worth a look.
const PREFIXES: &[(&str, &[&str])] = &[("aws-access-key", &["AKIA", "ASIA", "ABIA", "ACCA"]), ("github-token", &["gh", "github_pat_"])];

/// A user pattern that is not a valid regex (regex-lite's syntax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPattern {
    pub pattern: String,
    pub message: String,
}

impl std::fmt::Display for BadPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--redact-regex {:?} is not a valid regex: {}", self.pattern, self.message)
    }
}

impl std::error::Error for BadPattern {}

impl Detector {
    /// The built-in kinds.
    pub fn builtin() -> Vec<Detector> {
        BUILTIN
            .iter()
            .filter_map(|(kind, trigger, fold, pattern)| {
                // The patterns are constants checked by a test; a failure here is a bug, skipped rather than a panic.
                let re = Regex::new(pattern).ok()?;
                let trigger = (!trigger.is_empty()).then(|| (trigger.to_string(), *fold));
                Some(Detector { kind: kind.to_string(), trigger, pattern: Matcher::Regex(re) })
            })
            .collect()
    }

    /// A user regex: its matches are secrets of kind `custom` (the whole
    /// match, or its first group when it has one).
    pub fn regex(pattern: &str) -> Result<Detector, BadPattern> {
        let re = Regex::new(pattern).map_err(|e| BadPattern { pattern: pattern.to_string(), message: e.to_string() })?;
        Ok(Detector { kind: "custom".to_string(), trigger: None, pattern: Matcher::Regex(re) })
    }

    /// A literal string: every occurrence is a secret of kind `literal`.
    pub fn literal(text: &str) -> Option<Detector> {
        (!text.is_empty()).then(|| Detector { kind: "literal".to_string(), trigger: Some((text.to_string(), false)), pattern: Matcher::Literal(text.to_string()) })
    }

    /// Whether `s` could hold a match (cheap): the trigger is in it.
    pub fn may_match(&self, s: &str) -> bool {
        match &self.trigger {
            Some((t, false)) => s.contains(t.as_str()),
            Some((t, true)) => contains_ignore_ascii_case(s, t),
            None => match PREFIXES.iter().find(|(k, _)| *k == self.kind) {
                Some((_, prefixes)) => prefixes.iter().any(|p| s.contains(p)),
                None => true,
            },
        }
    }

    /// The byte ranges of the secrets in `s`, in order.
    pub fn find(&self, s: &str) -> Vec<std::ops::Range<usize>> {
        match &self.pattern {
            Matcher::Literal(t) => s.match_indices(t.as_str()).map(|(i, m)| i..i + m.len()).collect(),
            Matcher::Regex(re) => re
                .captures_iter(s)
                .filter_map(|c| c.get(1).or_else(|| c.get(0)))
                .filter(|m| !m.as_str().is_empty())
                .map(|m| m.range())
                .collect(),
        }
    }
}

fn contains_ignore_ascii_case(haystack: &str, needle: &str) -> bool {
    let n = needle.as_bytes();
    !n.is_empty() && haystack.as_bytes().windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_in(s: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for d in Detector::builtin() {
            if d.may_match(s) {
                for r in d.find(s) {
                    out.push((d.kind.clone(), s[r].to_string()));
                }
            }
        }
        out
    }

    #[test]
    fn every_builtin_pattern_compiles() {
        assert_eq!(Detector::builtin().len(), BUILTIN.len());
    }

    #[test]
    fn each_kind_is_found() {
        let cases = [
            ("openai-key", "key sk-proj-abcdefghijklmnopqrstuvwx1234 end"),
            ("anthropic-key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"),
            ("aws-access-key", "AKIAIOSFODNN7EXAMPLE"),
            ("aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            ("github-token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            ("github-token", "github_pat_11ABCDEFG0123456789_abcdefghijk"),
            ("google-api-key", "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234"),
            ("slack-token", "xoxb-1234567890-abcdefghij"),
            ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
            ("bearer-token", "Authorization: Bearer abcdef0123456789abcdef"),
            ("email", "write to jane.doe@example.co.uk please"),
            ("private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"),
        ];
        for (kind, text) in cases {
            let found = kinds_in(text);
            assert!(found.iter().any(|(k, _)| k == kind), "{kind} not found in {text:?}: {found:?}");
        }
        // The secret of a bearer header is the token, not the word.
        assert!(kinds_in("Bearer abcdef0123456789abcdef").iter().any(|(k, s)| k == "bearer-token" && s == "abcdef0123456789abcdef"));
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        for text in ["the task-list is done", "skip this", "AKIA", "user@localhost", "Bearer of bad news", "eyJ alone"] {
            assert_eq!(kinds_in(text), Vec::<(String, String)>::new(), "{text}");
        }
    }

    #[test]
    fn user_patterns() {
        assert!(Detector::regex("(").is_err());
        let d = Detector::regex(r"ticket-(\d+)").unwrap();
        assert_eq!(d.find("see ticket-42 and ticket-7"), [11..13, 25..26]);
        let l = Detector::literal("Acme Corp").unwrap();
        assert_eq!(l.find("Acme Corp and Acme Corp"), [0..9, 14..23]);
        assert!(Detector::literal("").is_none());
    }
}
