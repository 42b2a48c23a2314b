# Shared by the scripts: paths, one-line failures, and the project's tool folder on PATH.
# Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
export PATH="$TOOLS/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
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

# Some sandboxes start with /dev/null as a regular file instead of the null device. Then whatever
# a process "discards" is kept there, and whatever reads it gets that text: build scripts such as
# anyhow's write a failed nightly probe's E0554 error into it, and cargo's next target-info probe
# (`rustc -`, stdin from /dev/null) compiles that text and fails ("failed to run `rustc` to learn
# about target-specific information"), on fresh clones only. Put the real device back when we may
# (root); otherwise empty the file before each cargo command, which is all cargo needs.
ensure_dev_null() {
  [ -c /dev/null ] && return 0
  local spare="/dev/null.secretary.$$"
  if mknod -m 666 "$spare" c 1 3 2>/dev/null && mv -f "$spare" /dev/null 2>/dev/null; then
    step "/dev/null was a regular file; replaced it with the null device"
    return 0
  fi
  rm -f "$spare" 2>/dev/null || true
  step "warning: /dev/null is a regular file and cannot be replaced here; emptying it before each cargo command"
}

# cargo and wasm-pack through here, so that a regular-file /dev/null (above) is empty when cargo
# probes rustc.
cargo_run() {
  if [ ! -c /dev/null ]; then : >/dev/null 2>&1 || true; fi
  "$@"
}

ensure_dev_null
