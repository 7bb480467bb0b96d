#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build, serve and test
# agent-trace-viewer. Idempotent: every step checks before it installs.
#
#   scripts/setup.sh            everything (toolchain, wasm-bindgen, npm packages, chromium)
#   scripts/setup.sh --no-browser   skip chromium (for build-only use)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

want_browser=1
[ "${1:-}" = "--no-browser" ] && want_browser=0

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
apt_updated=0
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} = 0 ] && return 0
  if [ $apt_updated = 0 ]; then
    log "apt-get update"
    $SUDO apt-get update -qq
    apt_updated=1
  fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- Node.js (20+) ---------------------------------------------------------
if ! command -v node >/dev/null 2>&1; then
  apt_install nodejs npm
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node.js 20 or newer is needed (found $(node --version))"

# --- Rust with the wasm32 target ------------------------------------------
debian_wasm_toolchain() {
  # The route of shared/notes/wasm-toolchain.md: Debian's rustc-web, std for
  # wasm32 built from its sources into its sysroot, and lld-22 as rust-lld.
  apt_install rustc-web cargo-web rust-web-src rust-web-clippy lld-22
  if ! ls /usr/lib/rustlib/wasm32-unknown-unknown/lib/libstd-*.rlib >/dev/null 2>&1; then
    log "building std for wasm32 into Debian's sysroot (about a minute)"
    local dir
    dir=$(mktemp -d)
    mkdir -p "$dir/src"
    printf '[package]\nname = "sysroot-build"\nversion = "0.0.0"\nedition = "2021"\n' > "$dir/Cargo.toml"
    echo '#![no_std]' > "$dir/src/lib.rs"
    (cd "$dir" && RUSTFLAGS="-Cembed-bitcode=yes" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build -q --release \
      --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort,panic_unwind,proc_macro)
    $SUDO mkdir -p /usr/lib/rustlib/wasm32-unknown-unknown/lib
    $SUDO cp "$dir"/target/wasm32-unknown-unknown/release/deps/*.rlib /usr/lib/rustlib/wasm32-unknown-unknown/lib/
    $SUDO rm -f /usr/lib/rustlib/wasm32-unknown-unknown/lib/libsysroot_build-*.rlib
    rm -rf "$dir"
    # Objects built against an older sysroot would not link with the new one.
    rm -rf target/wasm32-unknown-unknown
  fi
  if [ ! -e /usr/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld ]; then
    $SUDO mkdir -p /usr/lib/rustlib/x86_64-unknown-linux-gnu/bin
    $SUDO ln -sf /usr/bin/lld-22 /usr/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld
  fi
}

if [ "$ATV_TOOLCHAIN" = none ]; then
  if command -v rustup >/dev/null 2>&1 && [ "${ATV_FORCE_DEBIAN_TOOLCHAIN:-0}" != 1 ]; then
    log "rustup target add wasm32-unknown-unknown"
    # On machines where rustup cannot download, this hangs: bound it.
    timeout 180 rustup target add wasm32-unknown-unknown || log "rustup could not add wasm32; using Debian's toolchain"
  fi
  . scripts/env.sh
  if [ "$ATV_TOOLCHAIN" = none ]; then
    debian_wasm_toolchain
    . scripts/env.sh
  fi
fi
[ "$ATV_TOOLCHAIN" != none ] || die "no Rust toolchain with the wasm32 target"
log "Rust toolchain: $ATV_TOOLCHAIN ($(rustc --version))"

# --- wasm-bindgen CLI at the version pinned in Cargo.lock -------------------
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
[ -n "$wb_version" ] || die "wasm-bindgen not found in Cargo.lock"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $wb_version" ]; then
  log "cargo install wasm-bindgen-cli $wb_version (a few minutes, once)"
  # --locked fails here: one locked dependency is missing from the registry.
  cargo install -q wasm-bindgen-cli --version "$wb_version"
fi

# --- npm packages from the committed lockfile ------------------------------
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.atv-lock-sum 2>/dev/null || true)" != "$lock_sum" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.atv-lock-sum
fi

# --- Chromium for browser tests -------------------------------------------
if [ $want_browser = 1 ] && [ ! -x /usr/bin/chromium ]; then
  apt_install chromium
fi
log "setup done"
