//! What a preview of a redaction may show of the secrets it found: each
//! kind's first placeholders next to the secret *masked* — its first few
//! characters at most and its length — so that a user can tell which key
//! is which without the preview showing (or a screenshot leaking) one.

use serde::Serialize;

/// One placeholder and its secret masked (`RedactExample` in types.d.ts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    pub placeholder: String,
    pub masked: String,
}

/// The first `per_kind` placeholders of each kind of `placeholders`
/// (`Redaction::placeholders`: secret and `[REDACTED:<kind>:<n>]`, in order
/// of first appearance), each with its secret [`masked`].
pub fn examples(placeholders: &[(String, String)], per_kind: usize) -> Vec<Example> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (secret, placeholder) in placeholders {
        let kind = placeholder.rsplit_once(':').map_or(placeholder.as_str(), |(k, _)| k);
        let n = seen.entry(kind).or_default();
        *n += 1;
        if *n <= per_kind {
            out.push(Example { placeholder: placeholder.clone(), masked: masked(secret) });
        }
    }
    out
}

/// A secret as a preview may show it: its first characters (at most 4, at
/// most a quarter of it), then `…` and its length in characters.
pub fn masked(secret: &str) -> String {
    let chars = secret.chars().count();
    let shown: String = secret.chars().take((chars / 4).min(4)).collect();
    format!("{shown}… ({chars} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masked_secret_shows_at_most_a_quarter_of_it_and_four_characters() {
        assert_eq!(masked("sk-proj-abcdefghijklmnopqrstuvwxyz"), "sk-p… (34 characters)");
        assert_eq!(masked("abc"), "… (3 characters)");
        assert_eq!(masked("a@b.io"), "a… (6 characters)");
        assert_eq!(masked("ключ-секрет"), "кл… (11 characters)");
    }

    #[test]
    fn examples_are_the_first_few_of_each_kind() {
        let p: Vec<(String, String)> = (1..=5).map(|n| (format!("secret-{n}"), format!("[REDACTED:jwt:{n}]"))).chain([("x@y.org".to_string(), "[REDACTED:email:1]".to_string())]).collect();
        let shown: Vec<String> = examples(&p, 3).into_iter().map(|e| e.placeholder).collect();
        assert_eq!(shown, ["[REDACTED:jwt:1]", "[REDACTED:jwt:2]", "[REDACTED:jwt:3]", "[REDACTED:email:1]"]);
    }
}
