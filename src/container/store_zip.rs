//! Writing a zip back: the redaction of an Inspect `.eval` keeps it a zip of
//! the same members under the same names. Members are stored, not
//! compressed (no deflate encoder in the .wasm for one feature; Inspect's
//! own reader, Python's `zipfile`, and ours read stored members), names
//! flagged UTF-8, every CRC-32 written. No zip64: the inputs this writes
//! back are capped at 1 GiB expanded, so sizes and offsets fit in 32 bits;
//! a larger archive is an error, not a broken file.

use super::{crc32, ZipMember};

/// Why an archive could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLargeForZip;

impl std::fmt::Display for TooLargeForZip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the archive would need zip64 (over 4 GiB or 65,535 files), which is not written")
    }
}

impl std::error::Error for TooLargeForZip {}

/// 1980-01-01 00:00, the earliest date a zip holds (Python refuses earlier).
const DOS_DATE: u16 = (1 << 5) | 1;
/// Bit 11: names are UTF-8.
const UTF8_NAMES: u16 = 1 << 11;

/// The members as a zip archive, stored, in the order given.
pub fn write_stored(members: &[ZipMember]) -> Result<Vec<u8>, TooLargeForZip> {
    let count = u16::try_from(members.len()).map_err(|_| TooLargeForZip)?;
    let size: usize = members.iter().map(|(name, data)| 30 + 46 + 2 * name.len() + data.len()).sum::<usize>() + 22;
    u32::try_from(size).map_err(|_| TooLargeForZip)?;
    let mut out = Vec::with_capacity(size);
    let mut central = Vec::new();
    for (name, data) in members {
        let (offset, crc) = (out.len() as u32, crc32(data));
        let (len, name_len) = (u32::try_from(data.len()).map_err(|_| TooLargeForZip)?, u16::try_from(name.len()).map_err(|_| TooLargeForZip)?);
        // Local header: signature, version needed (1.0: stored), flags,
        // method 0, time, date, CRC, sizes, name length, no extra field.
        put32(&mut out, 0x0403_4b50);
        for v in [10, UTF8_NAMES, 0, 0, DOS_DATE] {
            put16(&mut out, v);
        }
        for v in [crc, len, len] {
            put32(&mut out, v);
        }
        put16(&mut out, name_len);
        put16(&mut out, 0);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        // Its central directory entry: the same facts, and where the header is.
        put32(&mut central, 0x0201_4b50);
        for v in [20, 10, UTF8_NAMES, 0, 0, DOS_DATE] {
            put16(&mut central, v);
        }
        for v in [crc, len, len] {
            put32(&mut central, v);
        }
        for v in [name_len, 0, 0, 0, 0] {
            put16(&mut central, v);
        }
        put32(&mut central, 0);
        put32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let (at, central_len) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    put32(&mut out, 0x0605_4b50);
    for v in [0, 0, count, count] {
        put16(&mut out, v);
    }
    put32(&mut out, central_len);
    put32(&mut out, at);
    put16(&mut out, 0);
    Ok(out)
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::{unzip, MAX_GZIP_EXPANSION};

    #[test]
    fn what_it_writes_reads_back_with_the_zip_crate() {
        let members: Vec<ZipMember> = vec![
            ("header.json".to_string(), br#"{"status":"success"}"#.to_vec()),
            ("samples/1_epoch_1.json".to_string(), "{\"text\":\"é ✓\"}".as_bytes().to_vec()),
            ("_journal/empty.json".to_string(), Vec::new()),
            ("dossier/naïve.json".to_string(), b"[]".to_vec()),
        ];
        let zip = write_stored(&members).unwrap();
        assert_eq!(unzip(&zip, MAX_GZIP_EXPANSION).unwrap(), members);
        assert!(crate::container::is_zip(&zip));
    }

    #[test]
    fn a_corrupted_member_does_not_read_back() {
        let zip = write_stored(&[("a.json".to_string(), b"{\"k\":1}".to_vec())]).unwrap();
        let mut bad = zip.clone();
        // The member's data starts after the 30-byte header and the 6-byte name.
        bad[36] ^= 1;
        assert!(unzip(&bad, MAX_GZIP_EXPANSION).is_err());
    }
}
