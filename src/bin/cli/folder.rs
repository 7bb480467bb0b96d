//! The command line's FILE arguments as traces. A folder is read as the page
//! reads a dropped one: every file under it (hidden ones skipped), in path
//! order, grouped by the formats' own rules (`import::group_files`: a Claude
//! Code session with its sub-agent files, an OpenHands events folder, …),
//! every other file a trace of its own. A file, or `-`, is one trace.

use std::io::Read;
use std::path::{Path, PathBuf};

use agent_trace_viewer::import::{group_files, group_heads_wanted, GROUP_HEAD_BYTES};

/// One trace to read: its name in the output and its files' names and bytes.
pub struct TraceInput {
    pub label: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// The file's bytes (`-` is standard input).
pub fn read(file: &str) -> Result<Vec<u8>, String> {
    if file == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("-: cannot read standard input: {e}"))?;
        return Ok(buf);
    }
    std::fs::read(file).map_err(|e| format!("{file}: cannot read: {e}"))
}

/// The traces `arg` names: one for a file, one per group for a folder.
pub fn traces(arg: &str) -> Result<Vec<TraceInput>, String> {
    let dir = Path::new(arg);
    if arg == "-" || !dir.is_dir() {
        return Ok(vec![TraceInput { label: arg.to_string(), files: vec![(arg.to_string(), read(arg)?)] }]);
    }
    let mut paths = Vec::new();
    walk(dir, &mut paths).map_err(|e| format!("{arg}: cannot list: {e}"))?;
    paths.sort();
    if paths.is_empty() {
        return Err(format!("{arg}: no files in this folder"));
    }
    let names: Vec<String> = paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let mut heads: Vec<Option<Vec<u8>>> = vec![None; names.len()];
    for i in group_heads_wanted(&names) {
        if let (Some(slot), Some(path)) = (heads.get_mut(i), paths.get(i)) {
            *slot = head(path);
        }
    }
    let heads: Vec<Option<&[u8]>> = heads.iter().map(Option::as_deref).collect();
    let mut out = Vec::new();
    for group in group_files(&names, &heads) {
        let mut files = Vec::with_capacity(group.files.len());
        for i in &group.files {
            let Some(name) = names.get(*i) else { continue };
            files.push((name.clone(), read(name)?));
        }
        let label = match files.as_slice() {
            [(name, _)] => name.clone(),
            [_, ..] => format!("{arg}: {}", group.name),
            [] => continue,
        };
        out.push(TraceInput { label, files });
    }
    Ok(out)
}

/// Every file under `dir`, hidden entries (a leading `.`) skipped. A link
/// to a file is read; a link to a folder is not followed (it could lead back
/// up the tree).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            out.push(path);
        }
    }
    Ok(())
}

/// The file's first bytes, for grouping by what its records say.
fn head(path: &Path) -> Option<Vec<u8>> {
    let mut buf = Vec::with_capacity(GROUP_HEAD_BYTES);
    std::fs::File::open(path).ok()?.take(GROUP_HEAD_BYTES as u64).read_to_end(&mut buf).ok()?;
    Some(buf)
}
