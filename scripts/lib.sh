# Shared by the scripts: paths, one-line failures, and the project's tool folder on PATH.
# Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
export PATH="$TOOLS/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Cargo caches rustc's answers about the target in target/.rustc_info.json, failures included: one
# transient failure of that probe (seen once on a fresh clone, during the build) made every later
# `cargo test` fail with it. Probing afresh costs a few milliseconds a command.
export CARGO_CACHE_RUSTC_INFO=0
# Never let Debian's binaryen (108) near the build: it produces broken modules for wasm-bindgen
# output. wasm-opt always comes from npm's binaryen, called by its full path.
WASM_OPT="$ROOT/node_modules/.bin/wasm-opt"

die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}

step() {
  printf '==> %s\n' "$*" >&2
}

need() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is missing: $2"
}

# The wasm-bindgen version Cargo.lock pins: wasm-bindgen-cli must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}
