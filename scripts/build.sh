#!/usr/bin/env bash
# Builds the wasm package: pkg/web (ES module for browsers and bundlers),
# pkg/node (CommonJS for Node, reads the .wasm from disk), and copies pkg/web
# into www/pkg so that www/ is a complete static site.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
[ "$ATV_TOOLCHAIN" != none ] || die "run scripts/setup.sh first (no wasm32 toolchain)"

log "cargo build --release --target wasm32-unknown-unknown"
cargo build --release --target wasm32-unknown-unknown --lib
wasm=target/wasm32-unknown-unknown/release/agent_trace_viewer.wasm

rm -rf pkg/web pkg/node
wasm-bindgen --target web --out-dir pkg/web "$wasm"
wasm-bindgen --target nodejs --out-dir pkg/node "$wasm"
echo '{ "type": "commonjs" }' > pkg/node/package.json

# Binaryen from npm (Debian's is too old for the features Rust emits).
log "wasm-opt -O3"
for dir in pkg/web pkg/node; do
  node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals \
    "$dir/agent_trace_viewer_bg.wasm" -o "$dir/agent_trace_viewer_bg.wasm"
done

rm -rf www/pkg
mkdir -p www/pkg
cp pkg/web/agent_trace_viewer.js pkg/web/agent_trace_viewer_bg.wasm www/pkg/
# dist/: the static site, ready for any host (all URLs in it are relative,
# so it also works from a sub-path).
rm -rf dist
cp -r www dist
log "dist/ written ($(find dist -type f | wc -l) files)"

size=$(wc -c < pkg/web/agent_trace_viewer_bg.wasm)
gz=$(gzip -9c pkg/web/agent_trace_viewer_bg.wasm | wc -c)
log "built: .wasm $size bytes ($gz gzipped)"
