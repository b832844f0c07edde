#!/usr/bin/env bash
# Builds grundy's static site: the guide (mdBook), the playground and
# grundy compiled to WebAssembly, in one folder that any static host serves
# (`python3 -m http.server -d target/site`). No grundy process runs behind
# it: the playground and the guide's examples compute in the page.
#
#   bash site/build.sh [FOLDER]      (default: target/site)
#
# Needs Debian's WebAssembly toolchain (rustup cannot fetch wasm32's
# standard library here, so it is built from source):
#   apt-get install -y rustc-web cargo-web rust-web-src lld-22
# and mdbook (cargo install mdbook --locked --version 0.5.4); as root, this
# script installs whichever is missing.
set -euo pipefail
# The folder, from where the command was given (relative paths too).
asked="${1:-}"
if [ -n "$asked" ]; then
  mkdir -p "$asked"
  asked="$(cd "$asked" && pwd)"
fi
cd "$(dirname "$0")/.."
root="$PWD"
out="${asked:-${CARGO_TARGET_DIR:-$root/target}/site}"
# The folder is replaced: the default one in the build directory, or a
# folder named here that is empty or that this script made before.
case "$root/" in "$out"/*) echo "error: $out holds the repository: name a folder of its own" >&2; exit 2 ;; esac
if [ -n "$asked" ] && [ -n "$(ls -A "$out")" ] && [ ! -f "$out/.grundy-site" ]; then
  echo "error: $out is not empty and was not built by site/build.sh: name a new or empty folder" >&2
  exit 2
fi

# Debian's WebAssembly toolchain and mdbook: installed when missing (as
# root), skipped when present.
if [ ! -e /usr/lib/rustlib/src/rust/library/Cargo.lock ] || [ ! -x /usr/bin/cargo ] \
  || [ ! -x /usr/bin/rust-lld ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: the WebAssembly toolchain is missing: apt-get install -y rustc-web cargo-web rust-web-src lld-22 (as root)" >&2
    exit 2
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web cargo-web rust-web-src lld-22 >/dev/null
fi
if ! command -v mdbook >/dev/null 2>&1; then
  cargo install mdbook --locked --version 0.5.4 --quiet
fi

# grundy for the page: Debian's rustc builds std for wasm32 from source.
# rustup's cargo comes first in PATH, so /usr/bin is named; the stack holds
# the deepest searches (64 MiB, the module's memory grows past it as needed).
wasm_target="${CARGO_TARGET_DIR:-$root/target}/wasm"
RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$wasm_target" \
  RUSTFLAGS="-C link-arg=-zstack-size=67108864" \
  /usr/bin/cargo build --quiet -Zbuild-std=std,panic_abort \
  --target wasm32-unknown-unknown --profile wasm -p grundy-wasm
wasm="$wasm_target/wasm32-unknown-unknown/wasm/grundy_wasm.wasm"

rm -rf "$out"
mkdir -p "$out"
# The guide, at the site's root (mdbook empties the folder first).
mdbook build docs --dest-dir "$out" >/dev/null
echo "built by grundy's site/build.sh; the next build replaces this folder" > "$out/.grundy-site"
# The playground: the page grundy serve embeds, with the engine in the page.
cp -r crates/grundy-web/web "$out/playground"
echo "export const transport = 'wasm';" > "$out/playground/transport.js"
cp "$wasm" "$out/playground/grundy.wasm"
# The guide's examples get their Run buttons.
cp site/examples.js site/examples.css "$out/"
# The files the examples read (script:examples/....rhai).
cp -r examples "$out/examples"
python3 site/inject.py "$out"
echo "built $out: $(du -sh "$out" | cut -f1); the module is $(du -h "$out/playground/grundy.wasm" | cut -f1)"
echo "serve it with: python3 -m http.server -d $out 8080   (then open http://127.0.0.1:8080/)"
