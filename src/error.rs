//! Why an input could not be read as a trace at all. Everything short of
//! that is a [`crate::diagnostic::Diagnostic`] on the trace.

use std::fmt;

pub use crate::container::{GzipError, ZipError};
use crate::limits::{group_digits, MAX_EVENTS, MAX_INPUT_BYTES};

/// An input that is no trace. `Display` gives the sentence the page, the
/// package and the CLI show.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// No bytes, or only whitespace (and a byte order mark).
    Empty { whitespace: bool },
    /// Several files that hold no JSON value between them.
    EmptyFiles,
    /// Past [`MAX_INPUT_BYTES`]; `what` names the input ("the input", "the files together").
    TooLarge { bytes: usize, what: &'static str },
    /// Past [`MAX_EVENTS`] records.
    TooManyEvents,
    /// Gzip magic bytes, but the stream does not decompress or expands too far.
    Gzip(GzipError),
    /// Zip magic bytes, but the archive does not open, expands too far or holds no file.
    Zip(ZipError),
    /// The document is not JSON: where, what, and the text near it.
    NotJson { line: u32, column: u32, message: String, near: String },
    /// The caller forced a format id the registry does not have.
    UnknownFormatId { id: String, supported: Vec<&'static str> },
    /// Valid JSON that no format claims; what it looks like.
    UnknownFormat { looks_like: String, supported: String },
    /// A trace of a format the core knows of but does not read yet.
    Unsupported { looks_like: String, supported: String },
}


impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty { whitespace } => {
                let what = if *whitespace { "the input holds only whitespace" } else { "the input is empty" };
                write!(f, "{what}: expected a JSON document or JSON Lines with a trace")
            }
            ParseError::EmptyFiles => f.write_str("the files are empty: expected JSON documents or JSON Lines with a trace"),
            ParseError::TooLarge { bytes, what } => {
                write!(f, "too large: {what} is {} MiB; the viewer reads at most {} MiB", bytes.div_ceil(1 << 20), MAX_INPUT_BYTES >> 20)
            }
            ParseError::TooManyEvents => write!(
                f,
                "too large: the input holds more than {} records; the viewer reads at most that many (split the file)",
                group_digits(MAX_EVENTS)
            ),
            ParseError::Gzip(e) => write!(f, "{e}"),
            ParseError::Zip(e) => write!(f, "{e}"),
            ParseError::NotJson { line, column, message, near } => write!(f, "not valid JSON at line {line}, column {column}: {message} — near: {near}"),
            ParseError::UnknownFormatId { id, supported } => write!(f, "unknown format {id:?}; supported formats: {}", supported.join(", ")),
            ParseError::UnknownFormat { looks_like, supported } => write!(f, "not a supported trace format: {looks_like}. Supported: {supported}"),
            ParseError::Unsupported { looks_like, supported } => write!(f, "not supported yet: this looks like {looks_like}. Supported: {supported}"),
        }
    }
}

impl std::error::Error for ParseError {}


impl ParseError {
    /// A short stable name of the variant, for programs (the CLI's JSON, the
    /// package's `error.code`).
    pub fn code(&self) -> &'static str {
        match self {
            ParseError::Empty { .. } | ParseError::EmptyFiles => "empty",
            ParseError::TooLarge { .. } | ParseError::TooManyEvents | ParseError::Gzip(GzipError::TooLarge { .. }) => "too-large",
            ParseError::Gzip(GzipError::Corrupt(_)) => "gzip",
            ParseError::Zip(ZipError::TooLarge { .. }) => "too-large",
            ParseError::Zip(_) => "archive",
            ParseError::NotJson { .. } => "not-json",
            ParseError::UnknownFormatId { .. } => "unknown-format-id",
            ParseError::UnknownFormat { .. } => "unknown-format",
            ParseError::Unsupported { .. } => "unsupported",
        }
    }
}
