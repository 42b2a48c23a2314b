# Shared by the scripts: paths, one-line failures, and the project's tool folder on PATH.
# Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
export PATH="$TOOLS/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Cargo's probe of rustc ("failed to run `rustc` to learn about target-specific information") was
# seen to fail intermittently on fresh clones here, and cargo caches such a failure in
# target/.rustc_info.json, replaying it forever. Never cache the probe, and retry a cargo command
# that failed for that reason alone (cargo_retry below).
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

# Runs a cargo (or wasm-pack) command; when it failed only because cargo's rustc probe failed,
# runs it again after a growing pause, five tries at most. Any other failure is returned at once.
cargo_retry() {
  local try rc log
  log=$(mktemp)
  for try in 1 2 3 4 5; do
    if "$@" 2>"$log"; then rc=0; else rc=$?; fi
    cat "$log" >&2
    if [ "$rc" -eq 0 ] || [ "$try" -eq 5 ] || ! grep -q "to learn about target-specific information" "$log"; then
      break
    fi
    step "cargo's rustc probe failed (intermittent); trying again in $((try * 5)) s (try $((try + 1)) of 5)"
    sleep $((try * 5))
  done
  rm -f "$log"
  return "$rc"
}
