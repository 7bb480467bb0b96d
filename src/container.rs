//! Containers around the JSON: gzip, recognised by its magic bytes.
//!
//! Decompression is capped so that a gzip bomb ends in a clear "too large"
//! error instead of exhausting memory.

use std::io::Read;

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
pub fn gunzip(bytes: &[u8], cap: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(64 << 20));
    let decoder = flate2::read::MultiGzDecoder::new(bytes);
    let mut limited = decoder.take(cap.saturating_add(1));
    limited
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
        let e = gunzip(&bomb, 1 << 20).unwrap_err();
        assert!(e.starts_with("too large"), "{e}");
        let e = gunzip(&[0x1f, 0x8b, 0, 0], 1 << 20).unwrap_err();
        assert!(e.contains("does not decompress"), "{e}");
    }
}
