# Sourced by the other scripts: picks the Rust toolchain that can build wasm32.
#
# Prefer rustup's toolchain when it has the wasm32 target; otherwise use
# Debian's rustc-web with the std that scripts/setup.sh built into its sysroot
# (see docs/architecture.md, "Toolchain"). Also puts ~/.cargo/bin (wasm-bindgen) on PATH.

export PATH="$HOME/.cargo/bin:$PATH"
ATV_TOOLCHAIN=none
if [ "${ATV_FORCE_DEBIAN_TOOLCHAIN:-0}" != 1 ] && command -v rustup >/dev/null 2>&1 \
   && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  ATV_TOOLCHAIN=rustup
elif ls /usr/lib/rustlib/wasm32-unknown-unknown/lib/libstd-*.rlib >/dev/null 2>&1 && [ -x /usr/bin/cargo ]; then
  ATV_TOOLCHAIN=debian
  export PATH="/usr/bin:$PATH"
  export RUSTC=/usr/bin/rustc
fi
export ATV_TOOLCHAIN

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
