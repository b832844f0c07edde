#!/usr/bin/env bash
# What a certificate costs: for each record period, the time and peak memory
# of proving it (`grundy period`), of proving it and writing the certificate
# (`--certificate`), and of re-checking the certificate with grundy-verify,
# with the ratio verify / prove.
#
#   bench/certificates.sh                  # 0.16, 0.354 and 0.1777 (about 10 minutes)
#   CASES="0.104 0.1077" bench/certificates.sh
#   GRUNDY_SIMD=avx2 bench/certificates.sh # one instruction path only
#
# grundy runs on every instruction path the processor supports (avx512,
# avx2, portable), or on the one GRUNDY_SIMD names; the certificates of all
# paths must be identical, byte for byte. grundy-verify is plain portable
# Rust and runs once per certificate, on every core (GRUNDY_THREADS does not
# apply to it). Peak memory is the maximum resident set size from GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/bench/certificates
mkdir -p "$work"
cargo build --release -p grundy-cli -p grundy-verify --quiet
grundy=$root/target/release/grundy
verify=$root/target/release/grundy-verify
gnutime=/usr/bin/time
if ! "$gnutime" -f %M true > /dev/null 2>&1; then
  echo "GNU time is needed for peak memory (apt-get install time)" >&2
  exit 2
fi
cases=${CASES:-"0.16 0.354 0.1777"}

if [ -n "${GRUNDY_SIMD:-}" ]; then
  paths=$GRUNDY_SIMD
else
  paths=""
  for p in avx512 avx2 portable; do
    if GRUNDY_SIMD=$p "$grundy" value nim 1 > /dev/null 2>&1; then paths="$paths $p"; fi
  done
fi
cpu_field() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -1; }
echo "processor: $(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field model), stepping $(cpu_field stepping)), $(nproc) cores"
echo "vector flags: $(cpu_field flags | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512vl|avx512vbmi|avx512_vbmi2)$' | tr '\n' ' ')"
echo "paths:$paths"

# Runs a command; prints "seconds peak-MB" (the command's output is discarded).
measure() {
  local start end
  start=$(date +%s.%N)
  "$gnutime" -f %M -o "$work/mem" "$@" > /dev/null 2> "$work/err" || {
    cat "$work/err" >&2
    exit 1
  }
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc -l) $(($(tail -1 "$work/mem") / 1024))"
}

printf '%-8s %-9s %10s %8s %12s %8s %11s %10s %8s %8s\n' game path "prove s" "MB" "+write s" "MB" "cert MB" "verify s" "MB" "v/prove"
for game in $cases; do
  reference=""
  for path in $paths; do
    read -r prove_s prove_mb < <(GRUNDY_SIMD=$path measure "$grundy" period "$game" --max 450000000 -q)
    cert=$work/$game.$path.cert
    read -r write_s write_mb < <(GRUNDY_SIMD=$path measure "$grundy" period "$game" --max 450000000 -q --certificate "$cert")
    if [ -z "$reference" ]; then
      reference=$cert
      read -r verify_s verify_mb < <(measure "$verify" "$cert")
    elif ! cmp -s "$reference" "$cert"; then
      echo "$game: the $path certificate differs from $reference" >&2
      exit 1
    fi
    size=$(($(stat -c %s "$cert") / 1000000))
    printf '%-8s %-9s %10.2f %8d %12.2f %8d %11d %10.2f %8d %7.2fx\n' \
      "$game" "$path" "$prove_s" "$prove_mb" "$write_s" "$write_mb" "$size" "$verify_s" "$verify_mb" \
      "$(echo "$verify_s / $prove_s" | bc -l)"
    [ "$cert" = "$reference" ] || rm -f "$cert"
  done
  rm -f "$reference"
done
