//! Containers around the JSON: gzip, recognised by its magic bytes.
//!
//! Decompression is capped so that a gzip bomb ends in a clear "too large"
//! error instead of exhausting memory.

use std::io::Read;

/// Largest decompressed size accepted from a gzip input: 1 GiB.
pub const MAX_GZIP_EXPANSION: u64 = 1 << 30;

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
