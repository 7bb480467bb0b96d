#!/usr/bin/env bash
# The benchmark kit in one command: set up, build the wasm package, generate
# the synthetic traces (1 MB, 10 MB, 100 MB per format; cached in
# target/bench-data), and measure the wasm package in Node, the native core
# and the viewer in headless Chromium. Arguments go to scripts/bench/run.mjs:
#
#   bash scripts/bench.sh --write            # and rewrite BENCHMARKS.md
#   bash scripts/bench.sh --gb               # also load a 1 GB trace in Chromium
#   bash scripts/bench.sh --sizes 10MB --formats openai --no-browser
#
# ATV_BENCH_NO_BUILD=1 skips setup and build (measure what pkg/ holds).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ATV_BENCH_NO_BUILD:-}" ]; then
  bash scripts/setup.sh
  bash scripts/build.sh
fi
. scripts/env.sh
log "benchmarks (medians; see BENCHMARKS.md for what each figure means)"
node scripts/bench/run.mjs "$@"
