#!/usr/bin/env bash
# Sets up, builds, and serves the viewer (www/) on localhost; prints the URL.
#   PORT=8080 scripts/serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --no-browser
bash scripts/build.sh
exec node scripts/serve.mjs www
