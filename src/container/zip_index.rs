//! A zip archive read member by member, from byte ranges its caller reads:
//! the central directory from the file's tail, then one member's bytes when
//! it is wanted. What lets the viewer open a 500 MB Inspect `.eval` without
//! reading (or inflating) the samples nobody looked at: the page reads a
//! `File`'s slices, never the whole file.
//!
//! The records are APPNOTE 6.3's (end of central directory, its ZIP64
//! locator and record, central and local file headers, the ZIP64 extra
//! field); members are stored, deflated (the miniz_oxide inflater gzip
//! inputs use) or Zstandard (method 93, `ruzstd`), their CRC-32 checked and
//! their expansion capped as [`super::unzip`] caps it.

use super::ZipError;

/// One member of the archive, as its central directory entry describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ZipEntry {
    pub name: String,
    /// Compression method (0 stored, 8 deflate, 93 zstd).
    pub method: u16,
    pub crc: u32,
    /// Bytes of its compressed data.
    pub compressed: u64,
    /// Bytes once inflated, as the directory says.
    pub size: u64,
    /// Where its local header starts in the file.
    pub local_offset: u64,
    flags: u16,
}

impl ZipEntry {
    /// The bytes of the file to read for this member, local header
    /// included: the local header's name and extra field are assumed as
    /// long as the central directory's name plus `slack`, which
    /// [`ZipEntry::data_range`] then checks.
    pub fn read_range(&self, file_len: u64, slack: u64) -> std::ops::Range<u64> {
        let end = self.local_offset.saturating_add(LOCAL_LEN as u64).saturating_add(self.name.len() as u64).saturating_add(slack).saturating_add(self.compressed);
        self.local_offset..end.min(file_len)
    }

    /// Where the member's compressed data is in the file, read from its
    /// local header (`head`: the file's bytes from `local_offset` on, at
    /// least 30 of them).
    pub fn data_range(&self, head: &[u8]) -> Result<std::ops::Range<u64>, ZipError> {
        let corrupt = |why: &str| ZipError::Corrupt(format!("{}: {why}", self.name));
        if le32(head, 0) != Some(LOCAL_SIG) {
            return Err(corrupt("no local file header where the central directory says it starts"));
        }
        let (Some(name_len), Some(extra_len)) = (le16(head, 26), le16(head, 28)) else {
            return Err(corrupt("its local file header is cut short"));
        };
        let start = self.local_offset.saturating_add(LOCAL_LEN as u64 + u64::from(name_len) + u64::from(extra_len));
        Ok(start..start.saturating_add(self.compressed))
    }

    /// The member's bytes from its compressed `data` (the bytes of
    /// [`ZipEntry::data_range`]), at most `cap` of them.
    pub fn inflate(&self, data: &[u8], cap: u64) -> Result<Vec<u8>, ZipError> {
        let corrupt = |why: String| ZipError::Corrupt(format!("{}: {why}", self.name));
        if self.flags & 1 != 0 {
            return Err(corrupt("it is encrypted".to_string()));
        }
        if (data.len() as u64) < self.compressed {
            return Err(corrupt("its data is cut short".to_string()));
        }
        let data = data.get(..usize::try_from(self.compressed).unwrap_or(usize::MAX)).unwrap_or(data);
        let limit = usize::try_from(cap.saturating_add(1)).unwrap_or(usize::MAX);
        let out = match self.method {
            0 => data.get(..data.len().min(limit)).unwrap_or(data).to_vec(),
            8 => {
                let mut out = Vec::with_capacity(usize::try_from(self.size).unwrap_or(0).min(limit).min(64 << 20));
                super::inflate_member(data, &mut out, limit).map_err(|e| corrupt(e.to_string()))?;
                out
            }
            93 => super::unzip::unzstd(data, cap).map_err(corrupt)?,
            m => return Err(corrupt(format!("compression method {m} is not supported (stored, deflate and zstd are)"))),
        };
        if out.len() as u64 > cap {
            return Err(ZipError::TooLarge { cap });
        }
        if super::crc32(&out) != self.crc {
            return Err(corrupt("the checksum of its decompressed bytes does not match".to_string()));
        }
        Ok(out)
    }
}

/// The archive's members (folders left out; a name stored twice keeps its
/// last entry, in the place of its first, as [`super::unzip`] reads it).
#[derive(Debug, Clone, PartialEq)]
pub struct ZipIndex {
    pub file_len: u64,
    pub entries: Vec<ZipEntry>,
}

/// What the tail of a file gave: the index, or how many bytes from the end
/// of the file the central directory needs (read that many and ask again).
#[derive(Debug, Clone, PartialEq)]
pub enum TailRead {
    Index(ZipIndex),
    NeedTail(u64),
}

const EOCD_SIG: u32 = 0x0605_4b50;
const EOCD64_SIG: u32 = 0x0606_4b50;
const LOCATOR_SIG: u32 = 0x0706_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const LOCAL_SIG: u32 = 0x0403_4b50;
const EOCD_LEN: usize = 22;
const LOCAL_LEN: usize = 30;
const CENTRAL_LEN: usize = 46;
/// The end record, its longest comment, and the ZIP64 locator before it.
pub const TAIL_FIRST_READ: u64 = (EOCD_LEN + 65535 + 20) as u64;

fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at.checked_add(2)?)?.try_into().ok()?))
}
fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}
fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

/// Reads the central directory from `tail`, the last bytes of a file of
/// `file_len` bytes (start with [`TAIL_FIRST_READ`] of them, or the whole
/// file).
pub fn read_index(tail: &[u8], file_len: u64) -> Result<TailRead, ZipError> {
    let corrupt = |why: &str| ZipError::Corrupt(why.to_string());
    if (tail.len() as u64) > file_len {
        return Err(corrupt("more tail bytes than the file holds"));
    }
    let base = file_len - tail.len() as u64;
    // The end record: the last signature whose comment reaches the end.
    let eocd = (0..=tail.len().saturating_sub(EOCD_LEN))
        .rev()
        .take(65535 + 1)
        .find(|&i| le32(tail, i) == Some(EOCD_SIG) && le16(tail, i + 20).is_some_and(|c| i + EOCD_LEN + usize::from(c) == tail.len()))
        .ok_or_else(|| corrupt("no end of central directory record"))?;
    let field16 = |at: usize| le16(tail, eocd + at).map(u64::from).unwrap_or(0);
    let field32 = |at: usize| le32(tail, eocd + at).map(u64::from).unwrap_or(0);
    let (mut entries, mut cd_size, mut cd_offset) = (field16(10), field32(12), field32(16));
    if entries == 0xFFFF || cd_size == 0xFFFF_FFFF || cd_offset == 0xFFFF_FFFF {
        let locator = eocd.checked_sub(20).filter(|&l| le32(tail, l) == Some(LOCATOR_SIG));
        let Some(locator) = locator else {
            if eocd < 20 && base > 0 {
                return Ok(TailRead::NeedTail(tail.len() as u64 + 20));
            }
            return Err(corrupt("a ZIP64 archive without its ZIP64 end locator"));
        };
        let record = le64(tail, locator + 8).ok_or_else(|| corrupt("a cut ZIP64 locator"))?;
        if record < base {
            return Ok(TailRead::NeedTail(file_len.saturating_sub(record)));
        }
        let r = usize::try_from(record - base).map_err(|_| corrupt("a ZIP64 record out of reach"))?;
        if le32(tail, r) != Some(EOCD64_SIG) {
            return Err(corrupt("no ZIP64 end of central directory record where its locator says"));
        }
        let (Some(n), Some(size), Some(offset)) = (le64(tail, r + 32), le64(tail, r + 40), le64(tail, r + 48)) else {
            return Err(corrupt("a cut ZIP64 end of central directory record"));
        };
        (entries, cd_size, cd_offset) = (n, size, offset);
    }
    let cd_end = cd_offset.checked_add(cd_size).filter(|&e| e <= file_len).ok_or_else(|| corrupt("the central directory reaches past the end of the file"))?;
    if cd_offset < base {
        return Ok(TailRead::NeedTail(file_len - cd_offset));
    }
    let from = usize::try_from(cd_offset - base).map_err(|_| corrupt("the central directory is out of reach"))?;
    let to = usize::try_from(cd_end - base).map_err(|_| corrupt("the central directory is out of reach"))?;
    let cd = tail.get(from..to).ok_or_else(|| corrupt("the central directory is cut short"))?;
    let mut out: Vec<ZipEntry> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut at = 0usize;
    for _ in 0..entries {
        let entry = central_entry(cd, &mut at)?;
        if entry.name.ends_with('/') {
            continue;
        }
        match seen.get(&entry.name) {
            Some(&i) => {
                if let Some(slot) = out.get_mut(i) {
                    *slot = entry;
                }
            }
            None => {
                seen.insert(entry.name.clone(), out.len());
                out.push(entry);
            }
        }
    }
    if out.is_empty() {
        return Err(ZipError::NoFiles);
    }
    Ok(TailRead::Index(ZipIndex { file_len, entries: out }))
}

/// The central directory entry at `*at`, moving `*at` past it.
fn central_entry(cd: &[u8], at: &mut usize) -> Result<ZipEntry, ZipError> {
    let corrupt = |why: &str| ZipError::Corrupt(why.to_string());
    let h = *at;
    if le32(cd, h) != Some(CENTRAL_SIG) {
        return Err(corrupt("a central directory entry has no signature"));
    }
    let n16 = |o: usize| le16(cd, h + o).ok_or_else(|| corrupt("a cut central directory entry"));
    let n32 = |o: usize| le32(cd, h + o).ok_or_else(|| corrupt("a cut central directory entry"));
    let (flags, method, crc) = (n16(8)?, n16(10)?, n32(16)?);
    let (mut compressed, mut size, mut local_offset) = (u64::from(n32(20)?), u64::from(n32(24)?), u64::from(n32(42)?));
    let (name_len, extra_len, comment_len) = (usize::from(n16(28)?), usize::from(n16(30)?), usize::from(n16(32)?));
    let name_at = h + CENTRAL_LEN;
    let name = cd.get(name_at..name_at + name_len).ok_or_else(|| corrupt("a cut central directory entry"))?;
    let extra = cd.get(name_at + name_len..name_at + name_len + extra_len).ok_or_else(|| corrupt("a cut central directory entry"))?;
    // The ZIP64 extra field: the 64-bit values of the fields set to all ones, in order.
    let mut x = 0usize;
    while let (Some(id), Some(len)) = (le16(extra, x), le16(extra, x + 2)) {
        let body = extra.get(x + 4..x + 4 + usize::from(len)).unwrap_or(&[]);
        if id == 1 {
            let mut k = 0;
            for field in [&mut size, &mut compressed, &mut local_offset] {
                if *field == 0xFFFF_FFFF {
                    *field = le64(body, k).ok_or_else(|| corrupt("a cut ZIP64 extra field"))?;
                    k += 8;
                }
            }
        }
        x += 4 + usize::from(len);
    }
    *at = name_at + name_len + extra_len + comment_len;
    Ok(ZipEntry { name: String::from_utf8_lossy(name).into_owned(), method, crc, compressed, size, local_offset, flags })
}

/// The archive's members read from its whole bytes, through the index: what
/// [`super::unzip`] gives, for tests and callers holding the file.
pub fn index_of(bytes: &[u8]) -> Result<ZipIndex, ZipError> {
    match read_index(bytes, bytes.len() as u64)? {
        TailRead::Index(index) => Ok(index),
        TailRead::NeedTail(_) => Err(ZipError::Corrupt("the central directory is not in the file".to_string())),
    }
}

/// One member's bytes, given the whole file.
pub fn read_member(bytes: &[u8], entry: &ZipEntry, cap: u64) -> Result<Vec<u8>, ZipError> {
    let at = |r: std::ops::Range<u64>| bytes.get(usize::try_from(r.start).unwrap_or(usize::MAX)..usize::try_from(r.end).unwrap_or(usize::MAX).min(bytes.len()));
    let head = at(entry.local_offset..entry.local_offset.saturating_add(LOCAL_LEN as u64)).unwrap_or(&[]);
    let data = entry.data_range(head)?;
    entry.inflate(at(data).unwrap_or(&[]), cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn archive(files: &[(&str, &[u8])], method: zip::CompressionMethod, large: bool) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, data) in files {
            w.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(method).large_file(large)).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn reads_what_unzip_reads_member_by_member() {
        let big: Vec<u8> = (0..50_000u32).flat_map(|i| format!("{{\"i\":{i}}}\n").into_bytes()).collect();
        for method in [zip::CompressionMethod::Stored, zip::CompressionMethod::Deflated] {
            for large in [false, true] {
                let z = archive(&[("header.json", b"{\"a\":1}"), ("samples/1_epoch_1.json", &big)], method, large);
                let index = index_of(&z).unwrap();
                let members: Vec<(String, Vec<u8>)> = index.entries.iter().map(|e| (e.name.clone(), read_member(&z, e, 1 << 30).unwrap())).collect();
                assert_eq!(members, super::super::unzip(&z, 1 << 30).unwrap(), "{method:?} large {large}");
                // From a short tail: asked for more, then read.
                let tail = &z[z.len() - 100..];
                let TailRead::NeedTail(n) = read_index(tail, z.len() as u64).unwrap() else { panic!("a 100-byte tail holds no directory") };
                let TailRead::Index(again) = read_index(&z[z.len() - n as usize..], z.len() as u64).unwrap() else { panic!("not read") };
                assert_eq!(again, index);
                // Through read_range and data_range, as the page reads it.
                let e = &index.entries[1];
                let r = e.read_range(z.len() as u64, 1024);
                let got = &z[r.start as usize..r.end as usize];
                let d = e.data_range(got).unwrap();
                assert_eq!(e.inflate(&z[d.start as usize..d.end as usize], 1 << 30).unwrap(), big);
                assert!(matches!(e.inflate(&z[d.start as usize..d.end as usize], 1000), Err(ZipError::TooLarge { .. })));
            }
        }
    }

    #[test]
    fn refuses_broken_archives_without_panicking() {
        let z = archive(&[("a.json", b"{\"a\":1}"), ("b.json", &[b' '; 3000])], zip::CompressionMethod::Deflated, false);
        assert!(index_of(b"PK\x03\x04garbage").is_err());
        for n in 0..z.len() {
            let _ = read_index(&z[n..], z.len() as u64);
            for x in [0x01, 0x80] {
                let mut bad = z.clone();
                bad[n] ^= x;
                if let Ok(index) = index_of(&bad) {
                    for e in &index.entries {
                        let _ = read_member(&bad, e, 1 << 20);
                    }
                }
            }
        }
    }
}
