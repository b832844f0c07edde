#!/usr/bin/env bash
# Side-by-side nimbers of big single games: `grundy value` (nimber only:
# --max-moves 0) against Beling's igsolve (its default method and table),
# one case after another on the same machine, nimbers compared.
#
#   IGS=/path/to/igsolve bench/vs-igsolve.sh   # Cram 5x8, 4x11, 6x7; Chomp 12x12, 13x13
#   bench/vs-igsolve.sh quick      # small boards only
#   LIMIT=600 bench/vs-igsolve.sh  # seconds allowed per run (default 2400)
#   CASES="cram:5x8 chomp:12x12" bench/vs-igsolve.sh   # chosen cases
#   THREADS="1 2" bench/vs-igsolve.sh  # grundy with 1 and with 2 threads
#                                      # (default 1, like igsolve)
#
# IGS is the igsolve to compare with. Without it, igsolve from crates.io is
# installed into target/peer. igs HEAD (newer, faster) is built from its
# repository (github.com/beling/impartial-games):
#   cargo update -p ph@0.11.0 --precise 0.10.0 && cargo build --release -p igsolve
#
# Prints one line per case: game, board, our seconds and peak memory,
# igsolve's, their/ours time ratio, and whether the nimbers agree. A case
# both programs finish within 10 s is run three times each, in turn, and
# the best times count. A run that does not finish within LIMIT prints
# `>LIMIT` and no ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
peer=$root/target/peer
work=$root/target/bench
limit=${LIMIT:-2400}
mkdir -p "$work"

igs=${IGS:-$peer/bin/igsolve}
if [ -z "${IGS:-}" ] && [ ! -x "$igs" ]; then
  echo "installing igsolve into $peer (set IGS= for another build) ..." >&2
  cargo install igsolve --root "$peer" --quiet >&2
fi
if [ ! -x "$igs" ]; then
  echo "IGS=$igs is not an executable igsolve" >&2
  exit 2
fi
# igs HEAD takes Cram's rows and columns as arguments; crates.io's as -r, -c.
if "$igs" cram --help 2>/dev/null | grep -q '<ROWS>'; then cram_args=positional; else cram_args=flags; fi
cargo build --release -p grundy-cli --quiet
grundy=$root/target/release/grundy

if [ -n "${CASES:-}" ]; then
  cases=$CASES
elif [ "${1:-}" = quick ]; then
  cases="cram:4x8 cram:5x6 cram:4x9 chomp:10x10 chomp:11x11"
else
  cases="cram:5x8 cram:4x11 cram:6x7 chomp:12x12 chomp:13x13"
fi

# Runs a command with the time limit; prints "seconds peak_kib status".
measure() {
  local out=$1
  shift
  local start end status=0
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/rss" timeout "$limit" "$@" > "$out" 2>&1 || status=$?
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc) $(tail -1 "$work/rss" | tr -dc 0-9) $status"
}

threads_list=${THREADS:-1}
cpu_field() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -1; }
echo "processor: $(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field model)), $(nproc) cores; grundy threads: $threads_list; igsolve ($igs): 1 thread"
printf '%-6s %6s %7s %10s %9s %10s %9s %8s  %s\n' game board threads ours ours_mem igsolve ig_mem ratio nimbers
for case in $cases; do
  game=${case%%:*}
  board=${case##*:}
  rows=${board%%x*}
  cols=${board##*x}
  if [ "$game" = cram ] && [ "$cram_args" = positional ]; then
    ig_args=("$game" "$rows" "$cols")
  else
    ig_args=("$game" -r "$rows" -c "$cols")
  fi
  read -r ig_s ig_kib ig_status <<< "$(measure "$work/ig.txt" "$igs" "${ig_args[@]}")"
  for threads in $threads_list; do
  read -r our_s our_kib our_status <<< "$(GRUNDY_THREADS=$threads measure "$work/ours.txt" "$grundy" value "$game" "$board" --max-moves 0 --quiet)"
  # A case both programs finish within 10 s: the best of three runs of
  # each, taken in turn (a run of a few seconds varies by 10% on a shared
  # machine).
  if [ "$ig_status" = 0 ] && [ "$our_status" = 0 ] && [ "$(echo "$ig_s < 10 && $our_s < 10" | bc)" = 1 ]; then
    for _ in 1 2; do
      read -r s _ st <<< "$(measure "$work/again.txt" "$igs" "${ig_args[@]}")"
      if [ "$st" = 0 ]; then ig_s=$(echo "if ($s < $ig_s) $s else $ig_s" | bc); fi
      read -r s _ st <<< "$(GRUNDY_THREADS=$threads measure "$work/again.txt" "$grundy" value "$game" "$board" --max-moves 0 --quiet)"
      if [ "$st" = 0 ]; then our_s=$(echo "if ($s < $our_s) $s else $our_s" | bc); fi
    done
  fi
  ig_nim=$(grep -o 'Nimber of initial position: [0-9]*' "$work/ig.txt" | grep -o '[0-9]*$' || true)
  our_nim=$(grep -o 'grundy [0-9]*' "$work/ours.txt" | head -1 | grep -o '[0-9]*$' || true)
  show() { if [ "$2" = 0 ]; then printf '%.2f' "$1"; else printf '>%s' "$limit"; fi; }
  ours=$(show "$our_s" "$our_status")
  theirs=$(show "$ig_s" "$ig_status")
  if [ "$our_status" = 0 ] && [ "$ig_status" = 0 ]; then
    ratio="$(echo "scale=2; $ig_s / $our_s" | bc)x"
    if [ "$ig_nim" = "$our_nim" ]; then same="identical ($our_nim)"; else same="DIFFERENT ($our_nim vs $ig_nim)"; fi
  else
    ratio="-"
    same="ours ${our_nim:-?}, igsolve ${ig_nim:-?}"
  fi
  printf '%-6s %6s %7s %10s %8sM %10s %8sM %8s  %s\n' "$game" "$board" "$threads" "$ours" "$((our_kib / 1024))" \
    "$theirs" "$((ig_kib / 1024))" "$ratio" "$same"
  done
done
