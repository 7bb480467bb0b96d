//! Containers around the JSON: gzip and zip, recognised by their magic bytes.
//!
//! Decompression is capped so that a gzip or zip bomb ends in a clear "too
//! large" error instead of exhausting memory.

mod store_zip;
mod unzip;
mod zip_index;
pub use store_zip::{write_stored, TooLargeForZip};
pub use unzip::{unzip, ZipError, ZipMember};
pub use zip_index::{index_of, read_index, read_member, TailRead, ZipEntry, ZipIndex, TAIL_FIRST_READ};

/// Largest decompressed size accepted from a gzip input: the input cap
/// ([`crate::limits::MAX_INPUT_BYTES`], 1 GiB).
pub const MAX_GZIP_EXPANSION: u64 = crate::limits::MAX_INPUT_BYTES as u64;

pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Decompresses a gzip input (all members), refusing to grow past `cap` bytes.
///
/// What `flate2::read::MultiGzDecoder` read through `take(cap + 1)` did, with
/// its error messages (and the same inflater, miniz_oxide, driven the way
/// flate2 drives it), but without flate2's generic reader layers and without
/// crc32fast, whose 16 KB CRC table was ~4% of the gzipped .wasm: the table
/// is computed here when a gzip input arrives ([`Crc32`]).
pub fn gunzip(bytes: &[u8], cap: u64) -> Result<Vec<u8>, GzipError> {
    let limit = usize::try_from(cap.saturating_add(1)).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(64 << 20).min(limit));
    let crc = Crc32::new();
    let mut rest = bytes;
    let fail = |e: &str| GzipError::Corrupt(e.to_string());
    loop {
        let body = gzip_header(rest, &crc).map_err(fail)?;
        let start = out.len();
        let Some(used) = inflate_member(body, &mut out, limit).map_err(fail)? else { break };
        let trailer = body.get(used..).unwrap_or(&[]);
        let (Some(sum), Some(size)) = (le_u32(trailer, 0), le_u32(trailer, 4)) else {
            return Err(fail(UNEXPECTED_EOF));
        };
        let member = out.get(start..).unwrap_or(&[]);
        if sum != crc.checksum(member) || size != member.len() as u32 {
            return Err(fail(BAD_CHECKSUM));
        }
        rest = trailer.get(8..).unwrap_or(&[]);
        if rest.is_empty() {
            break;
        }
    }
    if out.len() as u64 > cap {
        return Err(GzipError::TooLarge { cap });
    }
    Ok(out)
}

/// Why a gzip input was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum GzipError {
    /// The stream does not decompress (flate2's words for why).
    Corrupt(String),
    /// It expands past `cap` bytes.
    TooLarge { cap: u64 },
}

impl std::fmt::Display for GzipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GzipError::Corrupt(why) => write!(f, "the input starts like gzip (bytes 1f 8b) but does not decompress: {why}"),
            GzipError::TooLarge { cap } => {
                write!(f, "too large: the gzip input expands beyond {} MiB, the cap for compressed inputs (a gzip bomb?)", cap >> 20)
            }
        }
    }
}

// flate2's messages (std's for an early end of input).
const UNEXPECTED_EOF: &str = "unexpected end of file";
const BAD_HEADER: &str = "invalid gzip header";
const BAD_CHECKSUM: &str = "corrupt gzip stream does not have a matching checksum";

const FHCRC: u8 = 1 << 1;
const FEXTRA: u8 = 1 << 2;
const FNAME: u8 = 1 << 3;
const FCOMMENT: u8 = 1 << 4;
const FRESERVED: u8 = 0xE0;
/// Longest file name or comment flate2 accepts in a header.
const MAX_HEADER_FIELD: usize = 65535;

fn le_u32(b: &[u8], at: usize) -> Option<u32> {
    let x = b.get(at..at + 4)?;
    Some(u32::from_le_bytes([*x.first()?, *x.get(1)?, *x.get(2)?, *x.get(3)?]))
}

/// Checks a member's header (RFC 1952 2.3) and returns what follows it.
fn gzip_header<'a>(b: &'a [u8], crc: &Crc32) -> Result<&'a [u8], &'static str> {
    let fixed = b.get(..10).ok_or(UNEXPECTED_EOF)?;
    let flags = fixed.get(3).copied().unwrap_or(0);
    if !fixed.starts_with(&[0x1f, 0x8b, 8]) || flags & FRESERVED != 0 {
        return Err(BAD_HEADER);
    }
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let len = b.get(at..at + 2).ok_or(UNEXPECTED_EOF)?;
        let xlen = usize::from(u16::from_le_bytes([len.first().copied().unwrap_or(0), len.get(1).copied().unwrap_or(0)]));
        at += 2;
        b.get(at..at + xlen).ok_or(UNEXPECTED_EOF)?;
        at += xlen;
    }
    for field in [FNAME, FCOMMENT] {
        if flags & field != 0 {
            let text = b.get(at..).unwrap_or(&[]);
            match memchr::memchr(0, text) {
                Some(n) if n <= MAX_HEADER_FIELD => at += n + 1,
                None if text.len() <= MAX_HEADER_FIELD => return Err(UNEXPECTED_EOF),
                _ => return Err("gzip header field too long"),
            }
        }
    }
    if flags & FHCRC != 0 {
        let stored = b.get(at..at + 2).ok_or(UNEXPECTED_EOF)?;
        let header = b.get(..at).unwrap_or(&[]);
        if stored != &crc.checksum(header).to_le_bytes()[..2] {
            return Err(BAD_CHECKSUM);
        }
        at += 2;
    }
    Ok(b.get(at..).unwrap_or(&[]))
}

/// Inflates one member's deflate stream onto `out`, as flate2's reader does
/// (miniz_oxide's streaming inflater, input given whole and then marked
/// finished). Returns the bytes of `input` the stream took, or `None` once
/// `out` holds `limit` bytes (the rest is not read, as `take` would not).
fn inflate_member(input: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<Option<usize>, &'static str> {
    use miniz_oxide::inflate::stream::{inflate, InflateState};
    use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
    let mut state = InflateState::new_boxed(DataFormat::Raw);
    let mut used = 0;
    loop {
        if out.len() >= limit {
            return Ok(None);
        }
        if out.len() == out.capacity() {
            out.reserve(out.len().clamp(32 << 10, 64 << 20));
        }
        let rest = input.get(used..).unwrap_or(&[]);
        let eof = rest.is_empty();
        let start = out.len();
        out.resize(out.capacity().min(limit), 0);
        let r = inflate(&mut state, rest, out.get_mut(start..).unwrap_or(&mut []), if eof { MZFlush::Finish } else { MZFlush::None });
        out.truncate(start + r.bytes_written);
        used += r.bytes_consumed;
        match r.status {
            Ok(MZStatus::StreamEnd) if r.bytes_written == 0 => return Ok(Some(used)),
            Ok(MZStatus::Ok | MZStatus::StreamEnd) => {}
            // A dictionary request: zlib streams only, never raw deflate.
            Ok(_) => return Err("corrupt deflate stream"),
            Err(MZError::Buf) if r.bytes_written == 0 && eof => return Err("incomplete deflate stream"),
            Err(MZError::Buf) => {}
            Err(_) => return Err("corrupt deflate stream"),
        }
    }
}

/// The CRC-32 of `bytes` (gzip's and zip's), its table built for this call.
pub fn crc32(bytes: &[u8]) -> u32 {
    Crc32::new().checksum(bytes)
}

/// CRC-32 (ISO-HDLC, gzip's), sliced by 16 like crc32fast's portable code,
/// with its 16 KB of tables built at run time rather than stored in the .wasm.
struct Crc32 {
    table: Box<[[u32; 256]; 16]>,
}

impl Crc32 {
    fn new() -> Crc32 {
        let first: [u32; 256] = std::array::from_fn(|n| {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            c
        });
        // Row k: the CRC of a byte followed by k zero bytes.
        let mut table = Box::new([[0u32; 256]; 16]);
        let mut row = first;
        for t in table.iter_mut() {
            *t = row;
            row = row.map(|c| (c >> 8) ^ first.get((c & 0xFF) as usize).copied().unwrap_or(0));
        }
        Crc32 { table }
    }

    fn at(&self, k: usize, byte: u32) -> u32 {
        self.table.get(k).and_then(|t| t.get((byte & 0xFF) as usize)).copied().unwrap_or(0)
    }

    fn checksum(&self, bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        let mut blocks = bytes.chunks_exact(16);
        for b in &mut blocks {
            let mut w = [0u32; 4];
            for (i, x) in w.iter_mut().enumerate() {
                *x = u32::from_le_bytes(b.get(4 * i..4 * i + 4).and_then(|s| s.try_into().ok()).unwrap_or([0; 4]));
            }
            let w0 = w[0] ^ crc;
            crc = self.at(15, w0) ^ self.at(14, w0 >> 8) ^ self.at(13, w0 >> 16) ^ self.at(12, w0 >> 24)
                ^ self.at(11, w[1]) ^ self.at(10, w[1] >> 8) ^ self.at(9, w[1] >> 16) ^ self.at(8, w[1] >> 24)
                ^ self.at(7, w[2]) ^ self.at(6, w[2] >> 8) ^ self.at(5, w[2] >> 16) ^ self.at(4, w[2] >> 24)
                ^ self.at(3, w[3]) ^ self.at(2, w[3] >> 8) ^ self.at(1, w[3] >> 16) ^ self.at(0, w[3] >> 24);
        }
        for &b in blocks.remainder() {
            crc = self.at(0, crc ^ u32::from(b)) ^ (crc >> 8);
        }
        !crc
    }
}

/// The UTF-16 variant of a byte-order-marked or NUL-interleaved input.
pub fn utf16_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xFE]) {
        return Some("UTF-16LE");
    }
    if bytes.starts_with(&[0xFE, 0xFF]) {
        return Some("UTF-16BE");
    }
    // JSON starts with ASCII; as UTF-16 every other byte of it is zero.
    match bytes {
        [a, 0, b, 0, ..] if a.is_ascii() && b.is_ascii() && *a != 0 => Some("UTF-16LE"),
        [0, a, 0, b, ..] if a.is_ascii() && b.is_ascii() && *a != 0 => Some("UTF-16BE"),
        _ => None,
    }
}

/// Transcodes UTF-16 to UTF-8 (dropping the byte order mark); unpaired
/// surrogates become U+FFFD.
pub fn utf16_to_utf8(bytes: &[u8], kind: &str) -> Vec<u8> {
    let body = if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        bytes.get(2..).unwrap_or(&[])
    } else {
        bytes
    };
    let units = body.chunks_exact(2).map(|c| match (kind, c) {
        ("UTF-16BE", [hi, lo]) => u16::from_be_bytes([*hi, *lo]),
        (_, [lo, hi]) => u16::from_le_bytes([*lo, *hi]),
        _ => 0xFFFD,
    });
    char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect::<String>()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// What `gunzip` replaced: flate2's multi-member reader, capped by `take`.
    fn flate2_gunzip(bytes: &[u8], cap: u64) -> Result<Vec<u8>, String> {
        use std::io::Read;
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .take(cap.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| format!("the input starts like gzip (bytes 1f 8b) but does not decompress: {e}"))?;
        if out.len() as u64 > cap {
            return Err(format!(
                "too large: the gzip input expands beyond {} MiB, the cap for compressed inputs (a gzip bomb?)",
                cap >> 20
            ));
        }
        Ok(out)
    }

    /// A member with the given header flags and fields, written by hand
    /// (flate2's builder never sets FHCRC).
    fn member(data: &[u8], extra: Option<&[u8]>, name: Option<&[u8]>, comment: Option<&[u8]>, hcrc: bool) -> Vec<u8> {
        let mut flags = 0;
        if hcrc {
            flags |= FHCRC;
        }
        let mut h = vec![0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 0, 3];
        if let Some(x) = extra {
            flags |= FEXTRA;
            h.extend_from_slice(&(x.len() as u16).to_le_bytes());
            h.extend_from_slice(x);
        }
        for (flag, field) in [(FNAME, name), (FCOMMENT, comment)] {
            if let Some(f) = field {
                flags |= flag;
                h.extend_from_slice(f);
                h.push(0);
            }
        }
        h[3] = flags;
        if hcrc {
            let mut c = flate2::Crc::new();
            c.update(&h);
            h.extend_from_slice(&(c.sum() as u16).to_le_bytes());
        }
        let mut d = flate2::write::DeflateEncoder::new(h, flate2::Compression::default());
        d.write_all(data).unwrap();
        let mut out = d.finish().unwrap();
        let mut c = flate2::Crc::new();
        c.update(data);
        out.extend_from_slice(&c.sum().to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out
    }

    fn same(input: &[u8], cap: u64) {
        assert_eq!(gunzip(input, cap).map_err(|e| e.to_string()), flate2_gunzip(input, cap), "input {:02x?}… ({} bytes), cap {cap}", &input[..input.len().min(24)], input.len());
    }

    #[test]
    fn crc32_matches_flate2() {
        let crc = Crc32::new();
        let data: Vec<u8> = (0..1000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for n in [0, 1, 15, 16, 17, 31, 32, 33, 100, 1000] {
            let mut c = flate2::Crc::new();
            c.update(&data[..n]);
            assert_eq!(crc.checksum(&data[..n]), c.sum(), "{n} bytes");
        }
    }

    #[test]
    fn gunzip_matches_flate2_on_valid_and_broken_inputs() {
        let text: Vec<u8> = (0..20_000u32).flat_map(|i| format!("{{\"i\": {i}, \"t\": \"{}\"}}\n", i % 97).into_bytes()).collect();
        let noise: Vec<u8> = (0..3000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
        let long_name = vec![b'n'; MAX_HEADER_FIELD];
        let longer_name = vec![b'n'; MAX_HEADER_FIELD + 1];
        let small = b"[{\"role\": \"user\", \"content\": \"hi\"}]";
        let inputs: Vec<Vec<u8>> = vec![
            gz(b""),
            gz(small),
            gz(&text),
            gz(&noise),
            member(small, Some(b"xx"), Some(b"trace.json"), Some(b"a comment"), true),
            member(small, Some(b""), None, None, true),
            member(&noise, None, Some(b"n"), None, false),
            member(small, None, Some(&long_name), None, false),
            member(small, None, None, Some(&longer_name), false),
            [gz(small), gz(&noise), member(b"", None, None, None, true)].concat(),
            [gz(small), vec![0]].concat(),
            [gz(small), vec![0x1f, 0x8b]].concat(),
            [gz(small), vec![0; 20]].concat(),
        ];
        for input in &inputs {
            for cap in [0, 1, 40, 3000, 1 << 30] {
                same(input, cap);
            }
            // Every truncation and every single-byte change of the small ones.
            if input.len() < 400 {
                for n in 0..input.len() {
                    same(&input[..n], 1 << 20);
                    for x in [0x01, 0x80, 0xff] {
                        let mut bad = input.clone();
                        bad[n] ^= x;
                        if is_gzip(&bad) {
                            same(&bad, 1 << 20);
                        }
                    }
                }
            }
        }
        // Truncations and damage in the middle and the tail of a large stream.
        let big = gz(&text);
        for n in (0..big.len()).step_by(big.len() / 30).chain(big.len() - 12..big.len()) {
            same(&big[..n], 1 << 30);
            let mut bad = big.clone();
            bad[n] ^= 0x55;
            same(&bad, 1 << 30);
        }
    }

    #[test]
    fn utf16_is_recognised_and_transcoded() {
        let text = "[{\"role\": \"user\", \"content\": \"h\u{e9}\u{1F600}\"}]";
        let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(utf16_kind(&le), Some("UTF-16LE"));
        assert_eq!(utf16_kind(&be), Some("UTF-16BE"));
        assert_eq!(utf16_kind(text.as_bytes()), None);
        assert_eq!(utf16_to_utf8(&le, "UTF-16LE"), text.as_bytes());
        assert_eq!(utf16_to_utf8(&be, "UTF-16BE"), text.as_bytes());
    }

    #[test]
    fn round_trip_and_cap() {
        let data = b"[{\"role\": \"user\", \"content\": \"hi\"}]";
        let z = gz(data);
        assert!(is_gzip(&z));
        assert_eq!(gunzip(&z, 1 << 20).unwrap(), data);
        // 10 MB of zeros compresses to ~10 KB; a 1 MB cap refuses it.
        let bomb = gz(&vec![0u8; 10 << 20]);
        assert!(bomb.len() < 100_000);
        let e = gunzip(&bomb, 1 << 20).unwrap_err().to_string();
        assert!(e.starts_with("too large"), "{e}");
        let e = gunzip(&[0x1f, 0x8b, 0, 0], 1 << 20).unwrap_err().to_string();
        assert!(e.contains("does not decompress"), "{e}");
    }
}
