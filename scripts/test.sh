#!/usr/bin/env bash
# Sets up, builds, and runs every test suite: Rust (cargo test: unit, format
# and corpus tests), Node (the npm package) and the browser (the viewer in
# headless Chromium). Exits non-zero on the first failing suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
. scripts/env.sh

log "clippy: library code may not unwrap, index or panic (native and wasm32)"
cargo clippy --lib
cargo clippy --lib --target wasm32-unknown-unknown
cargo clippy -p agent-trace-viewer-tokenizer --lib --target wasm32-unknown-unknown

# The fuzz targets (built for real by scripts/fuzz.sh with nightly and cargo-fuzz) are
# type-checked here so that they cannot rot unseen: they did, for several sessions.
log "cargo check: the fuzz targets compile against the library"
cargo check --manifest-path fuzz/Cargo.toml --bins
# The benches and examples too: the native parse bench named a phase that was gone for
# two sessions before anyone ran it.
log "cargo check: the benches and examples compile"
cargo check --benches --examples

log "cargo test"
cargo test

# The hostile inputs that are large (a 100 MB string, a gzip bomb, a million events, the
# byte and event caps) are #[ignore]d in the debug run above and run here, in release,
# where they take seconds: none of them may be skipped. The linear-time check of every
# format (tests/scaling.rs) is timed here too: in debug it took nine minutes.
log "cargo test --release: the large adversarial inputs and the linear-time check"
cargo test --release --test adversarial --test scaling -- --include-ignored

log "tsc: the package's TypeScript types, used as a user would"
node_modules/.bin/tsc -p tests/types

log "node --test: npm package (Node) and viewer (Chromium)"
# One file at a time: the browser suites each start Chromium, and the machine may have 2 cores.
node --test --test-concurrency=1 tests/node/*.test.mjs tests/browser/*.test.mjs
