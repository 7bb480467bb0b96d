//! Corpus files of formats we do not read yet load without a panic and get
//! the clear "not supported yet: this looks like X" error.

mod common;

use common::corpus_files;

#[allow(dead_code)] // for the next folder of a format not read yet
fn expect_unsupported(folder: &str, looks_like: &str) {
    for path in corpus_files(folder) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        match agent_trace_viewer::parse_trace(bytes, &Default::default()) {
            Ok(t) => panic!("{folder}/{name}: unexpectedly read as {}", t.format),
            Err(e) => {
                assert!(e.to_string().starts_with("not supported yet: this"), "{name}: {}", e.to_string());
                assert!(e.to_string().contains(looks_like), "{name}: {}", e.to_string());
                assert!(e.to_string().contains("openai"), "{name}: names what is supported: {}", e.to_string());
            }
        }
    }
}

#[test]
fn inspect() {
    // JSON logs and zip `.eval` files.
    for path in corpus_files("inspect") {
        let bytes = std::fs::read(&path).unwrap();
        let e = agent_trace_viewer::parse_trace(bytes, &Default::default()).expect_err("not supported");
        assert!(e.to_string().contains("Inspect AI"), "{}: {}", path.display(), e.to_string());
    }
}

#[test]
fn gzip_input_is_read() {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(br#"[{"role": "user", "content": "zipped"}]"#).unwrap();
    let t = common::parse(&enc.finish().unwrap());
    assert_eq!(t.events.len(), 1);
    // The expansion cap itself is tested in src/container.rs with a small cap.
}
