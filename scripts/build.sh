#!/usr/bin/env bash
# Builds the wasm package: pkg/web (ES module for browsers and bundlers),
# pkg/node (CommonJS for Node, reads the .wasm from disk), copies pkg/web
# into www/pkg so that www/ is a complete static site, and packages the
# viewer itself into pkg/viewer for embedding.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
[ "$ATV_TOOLCHAIN" != none ] || die "run scripts/setup.sh first (no wasm32 toolchain)"

# Profile wasm-release: release at opt-level 2 (Cargo.toml says why).
log "cargo build --profile wasm-release --target wasm32-unknown-unknown"
cargo build --profile wasm-release --target wasm32-unknown-unknown --lib
wasm=target/wasm32-unknown-unknown/wasm-release/agent_trace_viewer.wasm

rm -rf pkg/web pkg/node
wasm-bindgen --target web --out-dir pkg/web "$wasm"
wasm-bindgen --target nodejs --out-dir pkg/node "$wasm"
echo '{ "type": "commonjs" }' > pkg/node/package.json

# The cl100k_base tokenizer: its own module (the ranks table alone is 1.7 MB),
# loaded only when a token count or limit is asked for.
log "cargo build --release --target wasm32-unknown-unknown -p agent-trace-viewer-tokenizer"
cargo build --release --target wasm32-unknown-unknown -p agent-trace-viewer-tokenizer
tokenizer=target/wasm32-unknown-unknown/release/atv_tokenizer.wasm
rm -rf pkg/tokenizer-web pkg/tokenizer-node
wasm-bindgen --target web --out-dir pkg/tokenizer-web "$tokenizer"
wasm-bindgen --target nodejs --out-dir pkg/tokenizer-node "$tokenizer"
echo '{ "type": "commonjs" }' > pkg/tokenizer-node/package.json

# Binaryen from npm (Debian's is too old for the features Rust emits).
# --strip-producers / --strip-target-features: the `producers` and
# `target_features` custom sections (tool versions, feature list) are read by
# no engine; ~270 bytes gzipped.
# --low-memory-unused: the low 1 KB of memory holds no data (rust-lld puts the
# 1 MB stack first and data above it, so only a stack within 1 KB of overflowing
# reaches it; scripts/check-low-memory.mjs checks), which lets wasm-opt fold
# constant offsets into loads and stores: 2.3 KB gzipped off the main module.
# Emscripten passes it by default.
log "wasm-opt -O3"
node scripts/check-low-memory.mjs pkg/web/agent_trace_viewer_bg.wasm
node scripts/check-low-memory.mjs pkg/tokenizer-web/atv_tokenizer_bg.wasm
for f in pkg/web/agent_trace_viewer_bg.wasm pkg/node/agent_trace_viewer_bg.wasm pkg/tokenizer-web/atv_tokenizer_bg.wasm; do
  node_modules/.bin/wasm-opt -O3 --low-memory-unused --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals \
    --strip-producers --strip-target-features \
    "$f" -o "$f"
done
# wasm-bindgen writes the same tokenizer .wasm for both targets; optimizing it
# (the slow part of the build) once is enough.
cp pkg/tokenizer-web/atv_tokenizer_bg.wasm pkg/tokenizer-node/atv_tokenizer_bg.wasm

rm -rf www/pkg
mkdir -p www/pkg
cp pkg/web/agent_trace_viewer.js pkg/web/agent_trace_viewer_bg.wasm www/pkg/
cp pkg/tokenizer-web/atv_tokenizer.js pkg/tokenizer-web/atv_tokenizer_bg.wasm www/pkg/
# pkg/viewer: the embeddable viewer (mountViewer, <agent-trace-viewer>) for the
# npm package: www's modules with the worker's ./pkg/ imports pointed at
# pkg/web and pkg/tokenizer-web (fails on any import it cannot place).
# The transcript view's markdown parser (npm packages pinned in package.json),
# bundled into one module the worker imports: www/ is served unbundled.
log "www/vendor/markdown.js (the markdown parser bundle)"
node scripts/bundle-markdown.mjs
log "pkg/viewer (the embeddable viewer)"
node scripts/package-viewer.mjs
# files.json: the viewer's file list, which the page's Bundle button packs.
node scripts/site-manifest.mjs www
# dist/: the static site, ready for any host (all URLs in it are relative,
# so it also works from a sub-path).
rm -rf dist
cp -r www dist
log "dist/ written ($(find dist -type f | wc -l) files)"

for f in pkg/web/agent_trace_viewer_bg.wasm pkg/tokenizer-web/atv_tokenizer_bg.wasm; do
  log "built: $f $(wc -c < "$f") bytes ($(gzip -9c "$f" | wc -c) gzipped)"
done
