//! Zip inputs: the files of an archive (an Inspect AI `.eval` log is a zip
//! of JSON files), read with the `zip` crate, deflate through flate2's
//! pure-Rust backend (the miniz_oxide inflater gzip inputs use too).
//!
//! Expansion is capped like gzip's: a zip bomb ends in a "too large" error.

use std::io::Read;

/// One file of an archive: its name inside the archive and its bytes.
pub type ZipMember = (String, Vec<u8>);

/// Why a zip input was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum ZipError {
    /// The archive (or one of its files) does not read: the zip crate's words.
    Corrupt(String),
    /// Its files together expand past `cap` bytes.
    TooLarge { cap: u64 },
    /// It holds no file (only folders, or nothing).
    NoFiles,
}

impl std::fmt::Display for ZipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ZipError::Corrupt(why) => write!(f, "the input starts like a zip archive (bytes PK 03 04) but does not open: {why}"),
            ZipError::TooLarge { cap } => {
                write!(f, "too large: the zip archive's files expand beyond {} MiB, the cap for compressed inputs (a zip bomb?)", cap >> 20)
            }
            ZipError::NoFiles => f.write_str("the zip archive holds no files"),
        }
    }
}

/// The files of the archive in its central directory's order (folders left
/// out). A name stored twice (a re-written member) keeps its last entry, as
/// Python's `ZipFile.open(name)` reads it.
pub fn unzip(bytes: &[u8], cap: u64) -> Result<Vec<ZipMember>, ZipError> {
    let corrupt = |e: zip::result::ZipError| ZipError::Corrupt(e.to_string());
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(corrupt)?;
    let mut members: Vec<ZipMember> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let (name, is_dir, method, crc) = {
            let raw = archive.by_index_raw(i).map_err(corrupt)?;
            (raw.name().to_string(), raw.is_dir(), raw.compression(), raw.crc32())
        };
        if is_dir {
            continue;
        }
        let left = cap.saturating_sub(total);
        let read_err = |e: std::io::Error| ZipError::Corrupt(format!("{name}: {e}"));
        // Without its `zstd` feature the crate has no constant for method 93.
        #[allow(deprecated)]
        let zstd = method == zip::CompressionMethod::Unsupported(93);
        let data = if zstd {
            let raw = archive.by_index_raw(i).map_err(corrupt)?;
            let data = unzstd(raw, left).map_err(|e| ZipError::Corrupt(format!("{name}: {e}")))?;
            if data.len() as u64 <= left && crate::container::crc32(&data) != crc {
                return Err(ZipError::Corrupt(format!("{name}: the checksum of its decompressed bytes does not match")));
            }
            data
        } else {
            let mut file = archive.by_index(i).map_err(corrupt)?;
            let mut data = Vec::with_capacity(usize::try_from(file.size().min(left).min(64 << 20)).unwrap_or(0));
            (&mut file).take(left.saturating_add(1)).read_to_end(&mut data).map_err(read_err)?;
            data
        };
        total = total.saturating_add(data.len() as u64);
        if total > cap {
            return Err(ZipError::TooLarge { cap });
        }
        match index.get(&name) {
            Some(&at) => {
                if let Some(slot) = members.get_mut(at) {
                    slot.1 = data;
                }
            }
            None => {
                index.insert(name.clone(), members.len());
                members.push((name, data));
            }
        }
    }
    if members.is_empty() {
        return Err(ZipError::NoFiles);
    }
    Ok(members)
}

/// A Zstandard member (zip method 93, as inspect_ai writes `.eval` files):
/// its frames one after another, at most `left + 1` bytes (then the caller
/// sees it is too large).
pub(super) fn unzstd(mut raw: impl Read, left: u64) -> Result<Vec<u8>, String> {
    let mut input = Vec::new();
    raw.read_to_end(&mut input).map_err(|e| e.to_string())?;
    let limit = left.saturating_add(1);
    let mut out = Vec::new();
    let mut rest: &[u8] = &input;
    while !rest.is_empty() && (out.len() as u64) < limit {
        let mut decoder = ruzstd::StreamingDecoder::new(&mut rest).map_err(|e| format!("zstd: {e}"))?;
        let room = limit - out.len() as u64;
        (&mut decoder).take(room).read_to_end(&mut out).map_err(|e| format!("zstd: {e}"))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn archive(files: &[(&str, &[u8])], method: zip::CompressionMethod) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, data) in files {
            w.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn reads_stored_and_deflated_members_in_order() {
        for method in [zip::CompressionMethod::Stored, zip::CompressionMethod::Deflated] {
            let z = archive(&[("header.json", b"{\"a\":1}"), ("samples/1_epoch_1.json", b"{\"id\":1}")], method);
            assert!(crate::container::is_zip(&z));
            let files = unzip(&z, 1 << 20).unwrap();
            assert_eq!(files, vec![("header.json".to_string(), b"{\"a\":1}".to_vec()), ("samples/1_epoch_1.json".to_string(), b"{\"id\":1}".to_vec())]);
        }
    }

    #[test]
    fn caps_expansion_and_refuses_broken_archives() {
        let big = vec![b' '; 10_000];
        let z = archive(&[("a.json", &big), ("b.json", &big)], zip::CompressionMethod::Deflated);
        assert_eq!(unzip(&z, 15_000), Err(ZipError::TooLarge { cap: 15_000 }));
        assert!(unzip(&z, 20_000).is_ok());
        let cut = z.get(..z.len() / 2).unwrap();
        assert!(matches!(unzip(cut, 1 << 20), Err(ZipError::Corrupt(_))));
        assert!(matches!(unzip(b"PK\x03\x04garbage", 1 << 20), Err(ZipError::Corrupt(_))));
    }
}
