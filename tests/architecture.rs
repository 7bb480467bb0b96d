//! The shape of the code, checked: a format is one folder under
//! `src/import/` and one registry line, so nothing else may name a format
//! id; every format has the parts docs/adding-a-format.md lists; and no
//! source file grows past what a reader can hold.

use std::path::{Path, PathBuf};

use agent_trace_viewer::format_ids;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Source files below `dir` with one of `exts`; built or third-party folders
/// (node_modules, target, pkg, dist, vendor: the markdown bundle build.sh writes)
/// and data (corpus, artifacts) are not ours to hold to these rules.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                if !matches!(name, "node_modules" | "target" | "pkg" | "dist" | "corpus" | "artifacts" | "vendor") {
                    stack.push(p);
                }
            } else if exts.iter().any(|x| name.ends_with(x)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// String literals that are a format id: `"id"` in Rust; `"id"`, `'id'` or
/// `` `id` `` in JavaScript (`quotes`).
fn id_literals(text: &str, quotes: &[char]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for id in format_ids() {
        for &q in quotes {
            let needle = format!("{q}{id}{q}");
            for (i, line) in text.lines().enumerate() {
                if line.contains(&needle) {
                    found.push((i + 1, needle.clone()));
                }
            }
        }
    }
    found
}

#[test]
fn no_format_id_literal_outside_the_format_folders() {
    let import = root().join("src/import");
    let mut offenders = Vec::new();
    for f in files(&root().join("src"), &[".rs"]) {
        if f.starts_with(&import) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, lit) in id_literals(&text, &['"']) {
            offenders.push(format!("{}:{line}: {lit}", rel(&f)));
        }
    }
    // The page: its code, markup and styles (the sample traces are data).
    let samples = root().join("www/samples");
    for f in files(&root().join("www"), &[".js", ".mjs", ".html", ".css", ".ts"]) {
        if f.starts_with(&samples) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, lit) in id_literals(&text, &['"', '\'', '`']) {
            offenders.push(format!("{}:{line}: {lit}", rel(&f)));
        }
    }
    assert!(offenders.is_empty(), "format ids belong to src/import/ (ask the registry instead):\n{}", offenders.join("\n"));
}

#[test]
fn every_format_has_its_parts() {
    let mut missing = Vec::new();
    for id in format_ids() {
        let folder = id.replace('-', "_");
        let module = root().join(format!("src/import/{folder}"));
        if !module.is_dir() {
            missing.push(format!("src/import/{folder}/ (the format's folder)"));
        }
        for part in [format!("tests/fixtures/{id}"), format!("scripts/oracle/{id}")] {
            if !root().join(&part).is_dir() {
                missing.push(format!("{part}/"));
            }
        }
        for file in [format!("docs/formats/{id}.md"), format!("tests/fixtures/{id}/xss/builder.mjs"), format!("scripts/bench/formats/{id}.mjs")] {
            if !root().join(&file).is_file() {
                missing.push(file);
            }
        }
    }
    assert!(root().join("docs/adding-a-format.md").is_file(), "docs/adding-a-format.md is the recipe");
    assert!(missing.is_empty(), "docs/adding-a-format.md lists what a format needs; missing:\n{}", missing.join("\n"));
}

#[test]
fn no_source_file_over_700_lines() {
    let mut long = Vec::new();
    let code = [".rs", ".js", ".mjs", ".ts", ".css", ".html", ".py", ".sh"];
    for dir in ["src", "www", "scripts", "tests", "benches", "examples", "fuzz/src", "fuzz/fuzz_targets", "tokenizer/src"] {
        for f in files(&root().join(dir), &code) {
            // Generated tables and test data are not read as code.
            if rel(&f).starts_with("tests/fixtures") || rel(&f).starts_with("tests/golden") {
                continue;
            }
            let lines = std::fs::read_to_string(&f).map(|t| t.lines().count()).unwrap_or(0);
            if lines > 700 {
                long.push(format!("{}: {lines} lines", rel(&f)));
            }
        }
    }
    assert!(long.is_empty(), "split these along their seams (≤ 700 lines each):\n{}", long.join("\n"));
}
