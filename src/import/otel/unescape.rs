//! A JSON string literal's contents decoded exactly as
//! `json::string::unescape_into` decodes them, a 64-byte window at a time.
//! The texts an otel parse decodes (each chat span's new input items, a
//! tool's result re-sent in them, the output messages) hold an escape every
//! dozen bytes or so (`\"`, `\n`, `\\`, and twice as many in a string
//! holding JSON): finding each with its own `memchr` call cost more than the
//! search, ~90 instructions an escape. Here one window's backslashes are
//! found at once and its escapes decoded from the bit mask.

use std::borrow::Cow;

use crate::json::string::{lossy, unicode_escape};
use crate::text::{RawText, Text};

/// A point where decoding is in step: the raw bytes before `raw` decode
/// to the text before `text` (an offset in the output string).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checkpoint {
    pub raw: usize,
    pub text: usize,
}

/// Appends `raw[from..]` decoded to `out` exactly as `unescape_into`
/// decodes it, handing `note` a [`Checkpoint`] at the start of each
/// 64-byte window (the first at `from`), in order. `None` when those bytes
/// are not UTF-8 (`unescape_into` would replace some; the callers then
/// decode as it does) or hold a backslash before a non-ASCII byte (no JSON
/// escape: dropping it could join two halves of a broken character).
///
/// The text is written into a byte buffer, each run between two escapes
/// copied as one fixed 32-byte block where it fits (the bytes past the run
/// are overwritten next), then checked as UTF-8 once: pushing each run
/// onto the `String` was a `memcpy` call and two boundary checks per
/// escape, and the texts hold one every dozen bytes or so. A checkpoint
/// per window, not a note per escape: the callers map a few offsets back.
pub fn unescape_noting(raw: &[u8], from: usize, out: &mut String, mut note: impl FnMut(Checkpoint)) -> Option<()> {
    raw.get(from..)?;
    let base = out.len();
    SCRATCH.with(|cell| {
        let mut bytes = cell.take();
        let decoded = decode_into(raw, from, base, &mut bytes, &mut note).and_then(|len| simdutf8::basic::from_utf8(bytes.get(..len)?).ok());
        if let Some(text) = decoded {
            out.push_str(text);
        }
        let ok = decoded.is_some();
        // A scratch grown for one long text is not kept.
        if bytes.len() <= MAX_KEPT {
            cell.set(bytes);
        }
        ok.then_some(())
    })
}

std::thread_local! {
    /// The buffer [`unescape_noting`] decodes into, kept between calls
    /// (its bytes are overwritten, never read before they are written).
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The largest scratch buffer kept between calls.
const MAX_KEPT: usize = 1 << 20;

/// Decodes `raw[from..]` into `bytes` (grown as needed); the decoded
/// length. `base`: the text offset `from` decodes to, for the checkpoints.
#[inline(always)]
fn decode_into(raw: &[u8], from: usize, base: usize, bytes: &mut Vec<u8>, note: &mut impl FnMut(Checkpoint)) -> Option<usize> {
    let mut buf = Buffer { bytes: std::mem::take(bytes), len: 0 };
    buf.room(raw.len().saturating_sub(from) + SLACK)?;
    // `pending`: where the bytes not yet copied start (all before it are
    // in `buf`); the escapes found in a window before it were decoded.
    let mut pending = from;
    let mut window = from;
    let result = loop {
        if window >= raw.len() {
            break buf.copy_run(raw, pending.min(raw.len()), raw.len()).map(|()| buf.len);
        }
        note(Checkpoint { raw: pending, text: base + buf.len });
        let mut backslashes = backslashes64(raw, window);
        let mut failed = false;
        while backslashes != 0 {
            let at = window + backslashes.trailing_zeros() as usize;
            backslashes &= backslashes - 1;
            if at < pending {
                continue; // a byte of the escape just decoded (`\\`)
            }
            let step = buf.copy_run(raw, pending, at).and_then(|()| buf.decode_escape(raw, at));
            match step {
                Some(next) => pending = next,
                None => {
                    failed = true;
                    break;
                }
            }
        }
        if failed {
            break None;
        }
        window = (window + 64).max(pending);
    };
    *bytes = buf.bytes;
    result
}

/// Room a [`Buffer`] keeps past its text: one block's copy may write a
/// whole block whatever the run's length.
const SLACK: usize = 32;

/// The decoded bytes so far (`bytes[..len]`), with room after them.
struct Buffer {
    bytes: Vec<u8>,
    len: usize,
}

impl Buffer {
    /// Room for `n` more bytes past `len` (an invalid `\u` escape decodes
    /// to more bytes than it takes).
    #[inline(always)]
    fn room(&mut self, n: usize) -> Option<&mut [u8]> {
        if self.bytes.len() < self.len + n {
            let grown = (self.len + n).max(self.bytes.len() + self.bytes.len() / 2);
            self.bytes.resize(grown, 0);
        }
        self.bytes.get_mut(self.len..self.len + n)
    }

    /// Appends `raw[from..to]`, a run without escapes.
    #[inline(always)]
    fn copy_run(&mut self, raw: &[u8], from: usize, to: usize) -> Option<()> {
        let n = to.checked_sub(from)?;
        // One fixed-size block when the raw bytes reach that far; the
        // bytes copied past the run are overwritten (or cut) later.
        if n <= 16 {
            if let Some(src) = raw.get(from..from + 16) {
                self.room(16)?.copy_from_slice(src);
                self.len += n;
                return Some(());
            }
        } else if n <= 32 {
            if let Some(src) = raw.get(from..from + 32) {
                self.room(32)?.copy_from_slice(src);
                self.len += n;
                return Some(());
            }
        }
        self.room(n)?.copy_from_slice(raw.get(from..to)?);
        self.len += n;
        Some(())
    }

    /// Decodes the escape whose backslash is at `at` as `unescape_into`
    /// does; the offset past it. `None` for a backslash before a
    /// non-ASCII byte.
    #[inline(always)]
    fn decode_escape(&mut self, raw: &[u8], at: usize) -> Option<usize> {
        match raw.get(at + 1) {
            Some(b'u') => {
                let (c, used) = unicode_escape(raw, at);
                let n = c.len_utf8();
                c.encode_utf8(self.room(n)?);
                self.len += n;
                Some(at + used)
            }
            Some(&c) if c.is_ascii() => {
                *self.room(1)?.first_mut()? = ESCAPED.get(usize::from(c)).copied()?;
                self.len += 1;
                Some(at + 2)
            }
            Some(_) => None,
            // A last lone backslash is dropped.
            None => Some(at + 1),
        }
    }
}

/// The byte an ASCII byte after a backslash decodes to: `n`, `t`, `r`,
/// `b`, `f` their control characters, any other itself (`\"`, `\\`, `\/`,
/// and the bytes no escape starts with, as `unescape_into` keeps them).
/// Indexing in a constant initializer cannot panic at run time.
#[allow(clippy::indexing_slicing)]
static ESCAPED: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut c = 0;
    while c < 128 {
        t[c] = c as u8;
        c += 1;
    }
    t[b'n' as usize] = b'\n';
    t[b't' as usize] = b'\t';
    t[b'r' as usize] = b'\r';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t
};

/// `raw` decoded as `json::string::decode_literal` decodes it (escaped).
pub fn decoded(raw: &[u8]) -> String {
    let mut out = String::new();
    if unescape_noting(raw, 0, &mut out, |_| {}).is_none() {
        out.clear();
        crate::json::string::unescape_into(raw, &mut out);
    }
    out
}

/// `json::string::decode_literal`, decoding escapes with [`decoded`].
pub fn decode_literal(raw: &[u8], escaped: bool) -> Cow<'_, str> {
    if escaped {
        Cow::Owned(decoded(raw))
    } else {
        lossy(raw)
    }
}

/// [`Text::decoded`], decoding a literal in the source with [`decoded`].
pub fn text_decoded(t: &Text) -> Cow<'_, str> {
    match t.raw() {
        RawText::Source { bytes, escaped } => decode_literal(bytes, escaped),
        _ => t.decoded(),
    }
}

/// Bit `j` set when `raw[at + j]` is a backslash, for the 64 bytes from `at`.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub(super) fn backslashes64(raw: &[u8], at: usize) -> u64 {
    // (Padded past the end with bytes that are no backslash.)
    crate::json::simd::string_block64(raw, at, false).backslash
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
pub(super) fn backslashes64(raw: &[u8], at: usize) -> u64 {
    raw.get(at..).unwrap_or(&[]).iter().take(64).enumerate().fold(0, |m, (j, &c)| if c == b'\\' { m | 1 << j } else { m })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the bytes, the text is `unescape_into`'s and the noted
    /// escapes cover exactly the bytes it decoded as escapes.
    #[test]
    fn decodes_as_unescape_into() {
        let pieces: [&str; 14] = [r#"\""#, r#"\\"#, r#"\n"#, r#"\u00e9"#, r#"\ud83d\ude00"#, r#"\ud800"#, r#"\u12"#, r#"\x"#, r#"\é"#, "é", "😀", "a", "bc", r#"\/"#];
        let mut cases: Vec<String> = vec![String::new(), "\\".into(), "plain".into(), "a\\".into(), r#"\u"#.into(), r#"\ud83d\u"#.into()];
        // Every piece at every offset around the window's edges.
        for fill in [0, 1, 30, 55, 58, 60, 61, 62, 63, 64, 65, 120, 126, 127, 128] {
            for p in pieces {
                for q in pieces {
                    cases.push(format!("{}{p}{q}{}", "x".repeat(fill), "y".repeat(fill % 7)));
                }
            }
        }
        cases.push(r#"\\"#.repeat(100));
        cases.push(format!("{}\\", "é".repeat(40)));
        // Invalid `\u` escapes decode longer than they are written: the buffer grows.
        cases.push(r#"\u"#.repeat(100));
        cases.push(format!("{}{}", "x".repeat(70), r#"\u1"#.repeat(40)));
        // Runs of every length around the block sizes, between escapes and at the end.
        for run in 0..=70 {
            let plain = "ab".repeat(run).get(..run).unwrap_or_default().to_string();
            cases.push(format!(r#"{plain}\n{plain}\"{plain}"#));
            cases.push(format!(r#"\t{plain}"#));
            cases.push(format!("é{plain}\\u00e9{plain}😀"));
        }
        for s in &cases {
            let raw = s.as_bytes();
            let mut expected = String::new();
            crate::json::string::unescape_into(raw, &mut expected);
            assert_eq!(decoded(raw), expected, "{s}");
            let (mut got, mut checkpoints) = (String::from("head"), Vec::new());
            let noted = unescape_noting(raw, 0, &mut got, |c| checkpoints.push(c));
            assert_eq!(noted.is_none(), drops_a_backslash(raw), "{s}");
            if noted.is_none() {
                continue;
            }
            assert_eq!(got.strip_prefix("head"), Some(expected.as_str()), "{s}");
            // Each checkpoint is in step: the bytes before it decode to the text before it.
            assert_eq!(checkpoints.first(), (!raw.is_empty()).then_some(&Checkpoint { raw: 0, text: 4 }), "{s}");
            for c in &checkpoints {
                let mut before = String::new();
                crate::json::string::unescape_into(raw.get(..c.raw).unwrap(), &mut before);
                assert_eq!(got.get(4..c.text), Some(before.as_str()), "{s} at {c:?}");
            }
            // From an offset on: the same text as decoding that rest.
            if let Some(cut) = (1..raw.len()).find(|&c| raw.get(c) == Some(&b'x') && raw.get(c - 1) != Some(&b'\\')) {
                let mut tail = String::new();
                let rest_raw = raw.get(cut..).unwrap();
                let noted = unescape_noting(raw, cut, &mut tail, |_| {});
                assert_eq!(noted.is_none(), drops_a_backslash(rest_raw), "{s} from {cut}");
                let mut rest = String::new();
                crate::json::string::unescape_into(rest_raw, &mut rest);
                if noted.is_some() {
                    assert_eq!(tail, rest, "{s} from {cut}");
                }
            }
        }
        // Dropping the backslash would join the halves of a broken `é`:
        // decoded as `unescape_into` decodes it (each half replaced).
        assert_eq!(unescape_noting(b"\xc3\\\xa9", 0, &mut String::new(), |_| {}), None);
        assert_eq!(decoded(b"\xc3\\\xa9"), "\u{fffd}\u{fffd}");
        assert_eq!(unescape_noting(b"a\xffb", 0, &mut String::new(), |_| {}), None);
        assert_eq!(decoded(b"\\n\xff"), "\n\u{fffd}");
    }

    /// Whether decoding `raw` meets a backslash before a non-ASCII byte.
    fn drops_a_backslash(raw: &[u8]) -> bool {
        let mut i = 0;
        while let Some(&c) = raw.get(i) {
            i += match (c, raw.get(i + 1)) {
                (b'\\', Some(b'u')) => unicode_escape(raw, i).1,
                (b'\\', Some(n)) if !n.is_ascii() => return true,
                (b'\\', _) => 2,
                _ => 1,
            };
        }
        false
    }
}
