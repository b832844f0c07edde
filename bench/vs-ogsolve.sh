#!/usr/bin/env bash
# Side-by-side speed of `grundy seq` and Beling's ogsolve (crates.io) on the
# octal games 0.6, 0.16, 0.1777 and 0.007, with every value compared, not a
# sample.
#
#   bench/vs-ogsolve.sh            # the full set (several minutes per path)
#   bench/vs-ogsolve.sh quick      # small sizes only
#   GRUNDY_SIMD=avx2 bench/vs-ogsolve.sh   # one instruction path only
#   CASES="0.007:1000000" bench/vs-ogsolve.sh   # some cases only (GAME:N)
#   THREADS=2 bench/vs-ogsolve.sh  # grundy on every core (ogsolve has one)
#
# Like for like by default: both programs run one thread on the same core
# (`taskset`, and GRUNDY_THREADS=1 for grundy), and both write every value
# to a file, as one list of the same size: ogsolve's `-p` line of
# nimbers, grundy's `--json` (a b-file of `n value` lines, `--out F.txt`,
# is about four times as large and costs 0.1777 to 10^7 a fifth more time). With THREADS=2 grundy runs
# unpinned with its default threads (a helper thread marks ahead on the
# games with many rare heaps); ogsolve's octal solver has one thread either
# way.
#
# Runs every case on every instruction path the processor supports
# (avx512, avx2, portable: see GRUNDY_SIMD in the README), or only on the
# one GRUNDY_SIMD names. Prints the processor, then one line per case and
# path: game, n, path, our seconds, ogsolve's (the faster of -m rc and
# -m rc2, measured once per case), their/ours ratio, and whether all values
# agree. A run under 2 seconds is repeated, three runs in all, and its best
# time kept, for both programs alike: a tenth of a second is within the
# noise of a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
peer=$root/target/peer
work=$root/target/bench
mkdir -p "$work"

if [ ! -x "$peer/bin/ogsolve" ]; then
  echo "installing ogsolve into $peer ..." >&2
  cargo install ogsolve --root "$peer" --quiet >&2
fi
cargo build --release -p grundy-cli --quiet
grundy=$root/target/release/grundy

if [ -n "${CASES:-}" ]; then
  cases=$CASES   # e.g. CASES="0.007:1000000 0.6:10000000"
elif [ "${1:-}" = quick ]; then
  cases="0.6:100000 0.16:1000000 0.1777:1000000 0.007:30000"
else
  cases="0.6:1000000 0.6:10000000 0.16:1000000 0.16:10000000 0.1777:1000000 0.1777:10000000 0.007:100000 0.007:1000000"
fi

now() { date +%s.%N; }

# The paths to run: the one asked for, else each that this processor runs
# (the binary itself says which: it refuses the others).
if [ -n "${GRUNDY_SIMD:-}" ]; then
  paths=$GRUNDY_SIMD
else
  paths=""
  for p in avx512 avx2 portable; do
    if GRUNDY_SIMD=$p "$grundy" value nim 1 > /dev/null 2>&1; then paths="$paths $p"; fi
  done
fi
# The processor, so that a figure is never taken for another's: its name,
# family and model numbers, and the vector extensions it really has (a
# path forced with GRUNDY_SIMD on a bigger processor is not that processor).
cpu_field() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -1; }
echo "processor: $(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field model), stepping $(cpu_field stepping))"
echo "vector flags: $(cpu_field flags | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512vl|avx512vbmi|avx512_vbmi2)$' | tr '\n' ' ')"
echo "paths:$paths"
threads=${THREADS:-1}
if [ "$threads" = 1 ]; then
  core=$(( $(nproc) - 1 ))
  pin=(taskset -c "$core")
  export GRUNDY_THREADS=1
  echo "threads: grundy 1, ogsolve 1, both on core $core"
else
  pin=()
  echo "threads: grundy $(nproc) (unpinned), ogsolve 1"
fi

printf '%-8s %10s %-9s %10s %10s %8s  %s\n' game n path ours ogsolve ratio values
for case in $cases; do
  game=${case%%:*}
  n=${case##*:}
  # ogsolve: best of its two rare/common methods.
  best=""
  for method in rc rc2; do
   for run in 1 2 3; do
    # Old outputs are removed first: truncating a large file inside the
    # timed run would bill the file system's cleanup to it.
    rm -f "$work/og-$method.txt"
    start=$(now)
    "${pin[@]}" "$peer/bin/ogsolve" -m "$method" -n "$n" -p "$game" > "$work/og-$method.txt"
    secs=$(echo "$(now) - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$secs < $best" | bc)" = 1 ]; then
      best=$secs
      cp "$work/og-$method.txt" "$work/og.txt"
    fi
    if [ "$(echo "$secs >= 2" | bc)" = 1 ]; then break; fi
   done
  done
  # ogsolve prints the values on one line after "nimbers:".
  grep -m1 'nimbers:' "$work/og.txt" | sed 's/.*nimbers://' | tr -s ' ' '\n' | sed '/^$/d' > "$work/og-values.txt"
  for path in $paths; do
    ours=""
    for run in 1 2 3; do
      rm -f "$work/ours.json"
      start=$(now)
      GRUNDY_SIMD=$path "${pin[@]}" "$grundy" seq "$game" --to "$n" --json --quiet --max-states 2000000000 > "$work/ours.json"
      secs=$(echo "$(now) - $start" | bc)
      if [ -z "$ours" ] || [ "$(echo "$secs < $ours" | bc)" = 1 ]; then ours=$secs; fi
      if [ "$(echo "$secs >= 2" | bc)" = 1 ]; then break; fi
    done
    # {"from":0,"to":N,"values":[v,v,...]}: the values, one a line.
    sed 's/.*"values":\[//; s/\].*//' "$work/ours.json" | tr ',' '\n' > "$work/our-values.txt"
    if cmp -s "$work/og-values.txt" "$work/our-values.txt"; then same=identical; else same=DIFFERENT; fi
    ratio=$(echo "scale=2; $best / $ours" | bc)
    printf '%-8s %10s %-9s %10.2f %10.2f %7sx  %s\n' "$game" "$n" "$path" "$ours" "$best" "$ratio" "$same"
  done
done
