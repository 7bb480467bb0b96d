//! An archive opened lazily: its runs table first, each run's body when it
//! is shown or searched. What lets a 500 MB Inspect `.eval` show its samples
//! at once: only the central directory, the header and the summaries are
//! read and inflated at open (the format says which members are run bodies
//! and which summaries, [`crate::import::Format::lazy_member`]); the caller
//! reads the bytes ([`LazyArchive::read_range`]: a page reads a `File`'s
//! slices) and the core inflates and parses them.
//!
//! - [`LazyArchive::runs_trace`]: the other members read with
//!   [`crate::ParseOptions::pending_bodies`]: one run per summary, in the
//!   order and with the ids the full read gives, `pending_body` naming its
//!   member, plus the bodies given (those runs then read exactly as the
//!   full read reads them).
//! - [`LazyArchive::body_trace`]: one body alone with the members it needs
//!   (not the summaries): its one run as the full read reads it, for a
//!   search that goes through every body one at a time.

use crate::container::{self, ZipEntry, ZipError, ZipIndex};
use crate::import::{LazyMember, FORMATS};
use crate::model::Trace;
use crate::{ParseError, ParseOptions};

/// Why a lazy opening or read failed.
#[derive(Debug, Clone, PartialEq)]
pub enum LazyError {
    /// The archive does not open, or a member does not inflate.
    Zip(ZipError),
    /// The bytes given for a member end before its data does: read the file
    /// from the member's `local_offset` to `end` and ask again.
    Short { end: u64 },
    /// No format reads any member of this archive lazily: read it whole.
    NotLazy,
    /// No member of that name, or no run of that index.
    NoMember(String),
    /// The members do not read as a trace.
    Parse(ParseError),
}

impl std::fmt::Display for LazyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LazyError::Zip(e) => write!(f, "{e}"),
            LazyError::Short { end } => write!(f, "the bytes given end before the member's data: read up to byte {end}"),
            LazyError::NotLazy => f.write_str("no format reads this archive's members lazily: read it whole"),
            LazyError::NoMember(what) => write!(f, "no {what} in the archive"),
            LazyError::Parse(e) => write!(f, "{e}"),
        }
    }
}

/// A member as `LazyArchive.entries()` lists it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ArchiveEntryView<'a> {
    pub name: &'a str,
    pub compressed: u64,
    pub size: u64,
    /// `body`, `summaries` or `head`.
    pub role: &'static str,
}

/// See the module's documentation.
#[derive(Debug, Clone)]
pub struct LazyArchive {
    index: ZipIndex,
    /// Per entry of the index: what it is to a lazy opening.
    roles: Vec<Option<LazyMember>>,
    /// Members read at open (every one but the bodies), by entry index.
    heads: Vec<(usize, Vec<u8>)>,
    /// Bytes the heads inflated to (capped like a whole archive's).
    head_bytes: u64,
    /// The format that named the bodies: a body searched alone is read as
    /// it, with no detection and one join of its files.
    format: &'static str,
}

/// Slack read after a member's name for its local extra field (Python's
/// zipfile writes none, or a ZIP64 one of 20 bytes).
const LOCAL_SLACK: u64 = 1024;

impl LazyArchive {
    /// An archive whose central directory is `index` (read with
    /// [`container::read_index`]); [`LazyError::NotLazy`] when no format
    /// names any of its members a run's body.
    pub fn new(index: ZipIndex) -> Result<LazyArchive, LazyError> {
        let role = |name: &str| FORMATS.iter().find_map(|f| f.lazy_member(name).map(|role| (f.id(), role)));
        let claimed: Vec<Option<(&'static str, LazyMember)>> = index.entries.iter().map(|e| role(&e.name)).collect();
        let Some(format) = claimed.iter().flatten().find(|(_, role)| *role == LazyMember::Body).map(|(id, _)| *id) else {
            return Err(LazyError::NotLazy);
        };
        let roles = claimed.into_iter().map(|c| c.map(|(_, role)| role)).collect();
        Ok(LazyArchive { index, roles, heads: Vec::new(), head_bytes: 0, format })
    }

    /// The archive given whole (tests, the CLI): index and heads read from it.
    pub fn from_bytes(bytes: &[u8]) -> Result<LazyArchive, LazyError> {
        let mut archive = LazyArchive::new(container::index_of(bytes).map_err(LazyError::Zip)?)?;
        for i in archive.heads_wanted() {
            let data = archive.slice(bytes, i);
            archive.add_head(i, data)?;
        }
        Ok(archive)
    }

    /// The member's bytes from the whole file (local header on).
    pub fn slice<'b>(&self, bytes: &'b [u8], entry: usize) -> &'b [u8] {
        let r = self.read_range(entry).unwrap_or(0..0);
        let to = |x: u64| usize::try_from(x).unwrap_or(usize::MAX).min(bytes.len());
        bytes.get(to(r.start)..to(r.end).max(to(r.start))).unwrap_or(&[])
    }

    pub fn entries(&self) -> &[ZipEntry] {
        &self.index.entries
    }

    /// The members with what each is to the lazy opening.
    pub fn entry_views(&self) -> Vec<ArchiveEntryView<'_>> {
        self.index
            .entries
            .iter()
            .zip(&self.roles)
            .map(|(e, role)| ArchiveEntryView {
                name: &e.name,
                compressed: e.compressed,
                size: e.size,
                role: match role {
                    Some(LazyMember::Body) => "body",
                    Some(LazyMember::Summaries) => "summaries",
                    None => "head",
                },
            })
            .collect()
    }

    /// The entries to read at open: every member but the bodies.
    pub fn heads_wanted(&self) -> Vec<usize> {
        (0..self.roles.len()).filter(|&i| self.roles.get(i) != Some(&Some(LazyMember::Body))).collect()
    }

    /// The entries holding summaries (read at open, not needed for a body).
    pub fn summaries(&self) -> Vec<usize> {
        (0..self.roles.len()).filter(|&i| self.roles.get(i) == Some(&Some(LazyMember::Summaries))).collect()
    }

    /// The entry named `name`.
    pub fn entry_named(&self, name: &str) -> Option<usize> {
        self.index.entries.iter().position(|e| e.name == name)
    }

    /// The file's bytes to read for entry `i` (from its local header; its
    /// data may need a little more, which [`LazyArchive::inflate`] says).
    pub fn read_range(&self, i: usize) -> Option<std::ops::Range<u64>> {
        self.index.entries.get(i).map(|e| e.read_range(self.index.file_len, LOCAL_SLACK))
    }

    /// Where entry `i`'s data ends in the file, from its local header
    /// (`read`: the file's bytes from the header on, at least 30).
    pub fn data_end(&self, i: usize, read: &[u8]) -> Result<u64, LazyError> {
        let e = self.index.entries.get(i).ok_or_else(|| LazyError::NoMember(format!("member {i}")))?;
        e.data_range(read).map(|r| r.end).map_err(LazyError::Zip)
    }

    /// Entry `i`'s bytes, inflated from `read` (the file's bytes from its
    /// local header on), at most `cap` of them.
    pub fn inflate(&self, i: usize, read: &[u8], cap: u64) -> Result<Vec<u8>, LazyError> {
        let e = self.index.entries.get(i).ok_or_else(|| LazyError::NoMember(format!("member {i}")))?;
        let data = e.data_range(read).map_err(LazyError::Zip)?;
        if data.end.saturating_sub(e.local_offset) > read.len() as u64 {
            return Err(LazyError::Short { end: data.end });
        }
        let from = usize::try_from(data.start - e.local_offset).unwrap_or(usize::MAX);
        e.inflate(read.get(from..).unwrap_or(&[]), cap).map_err(LazyError::Zip)
    }

    /// Keeps head entry `i`, inflated from `read` (see [`LazyArchive::inflate`]).
    pub fn add_head(&mut self, i: usize, read: &[u8]) -> Result<(), LazyError> {
        let left = container::MAX_GZIP_EXPANSION.saturating_sub(self.head_bytes);
        let data = self.inflate(i, read, left).map_err(|e| match e {
            LazyError::Zip(ZipError::TooLarge { .. }) => LazyError::Zip(ZipError::TooLarge { cap: container::MAX_GZIP_EXPANSION }),
            e => e,
        })?;
        self.head_bytes = self.head_bytes.saturating_add(data.len() as u64);
        self.heads.retain(|(j, _)| *j != i);
        self.heads.push((i, data));
        Ok(())
    }

    /// A body's bytes, inflated from `read` (capped at the input cap).
    pub fn read_body(&self, i: usize, read: &[u8]) -> Result<(String, Vec<u8>), LazyError> {
        let name = self.index.entries.get(i).map(|e| e.name.clone()).ok_or_else(|| LazyError::NoMember(format!("member {i}")))?;
        Ok((name, self.inflate(i, read, crate::limits::MAX_INPUT_BYTES as u64)?))
    }

    fn heads(&self, with_summaries: bool) -> Vec<(String, Vec<u8>)> {
        let mut heads: Vec<&(usize, Vec<u8>)> = self.heads.iter().collect();
        heads.sort_by_key(|(i, _)| *i);
        heads
            .into_iter()
            .filter(|(i, _)| with_summaries || self.roles.get(*i) != Some(&Some(LazyMember::Summaries)))
            .filter_map(|(i, data)| Some((self.index.entries.get(*i)?.name.clone(), data.clone())))
            .collect()
    }

    /// The runs table's trace: a run per summary, bodies left unread but
    /// those in `bodies` (name and bytes, from [`LazyArchive::read_body`]).
    pub fn runs_trace(&self, bodies: Vec<(String, Vec<u8>)>, options: &ParseOptions) -> Result<Trace, LazyError> {
        let mut unread: Vec<String> = (0..self.index.entries.len())
            .filter(|&i| self.roles.get(i) == Some(&Some(LazyMember::Body)))
            .filter_map(|i| self.index.entries.get(i).map(|e| e.name.clone()))
            .filter(|name| !bodies.iter().any(|(n, _)| n == name))
            .collect();
        unread.sort();
        let mut files = self.heads(true);
        files.extend(bodies);
        let options = ParseOptions { pending_bodies: Some(unread), ..options.clone() };
        crate::parse_files(files, &options).map_err(LazyError::Parse)
    }

    /// The bodies no run of `trace` (a [`LazyArchive::runs_trace`]) stands
    /// for: neither given nor named by a summary. Read them and make the
    /// runs trace again with them, or the trace would lose their runs.
    pub fn bodies_unlisted(&self, trace: &Trace, given: &[String]) -> Vec<usize> {
        let named: std::collections::HashSet<&str> = trace.runs.iter().filter_map(|r| r.pending_body.as_deref()).collect();
        (0..self.index.entries.len())
            .filter(|&i| self.roles.get(i) == Some(&Some(LazyMember::Body)))
            .filter(|&i| self.index.entries.get(i).is_some_and(|e| !named.contains(e.name.as_str()) && !given.contains(&e.name)))
            .collect()
    }

    /// One body alone with the members it needs (the header, not the
    /// summaries): its run as the full read reads it. The format that named
    /// the bodies reads it (unless `options` names one): a search reads every
    /// body in turn, and detecting each again cost as much as reading it.
    /// The trace's detection says so (`forced`).
    pub fn body_trace(&self, body: (String, Vec<u8>), options: &ParseOptions) -> Result<Trace, LazyError> {
        let mut files = self.heads(false);
        files.push(body);
        let options = ParseOptions { format: Some(options.format.clone().unwrap_or_else(|| self.format.to_string())), ..options.clone() };
        crate::parse_files(files, &options).map_err(LazyError::Parse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_no_format_reads_lazily_is_refused() {
        let zip = container::write_stored(&[("a.json".to_string(), b"[]".to_vec())]).unwrap();
        assert_eq!(LazyArchive::from_bytes(&zip).err(), Some(LazyError::NotLazy));
        assert!(matches!(LazyArchive::from_bytes(b"PK\x03\x04nothing"), Err(LazyError::Zip(_))));
    }
}
