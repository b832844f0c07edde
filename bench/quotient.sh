#!/usr/bin/env bash
# Misère quotients: the time and peak memory of building a quotient
# (`grundy quotient`), and of answering a misère sum of 1,000 heaps with
# every winning move through it (`grundy value --misere`, which builds the
# quotient first: the answer's own cost is the difference).
#
#   bench/quotient.sh                        # the cases below (about a minute)
#   CASES="0.77:25 0.07:24" bench/quotient.sh
#   MISERESOLVER="java -cp CLASSES grundybench.QuotientDriver" bench/quotient.sh
#
# MISERESOLVER, when set, is a command taking a code and a largest heap:
# A. Siegel's MisereSolver, compiled from the CGSuite sources (not kept
# here) together with bench/miseresolver/QuotientDriver.java, which builds
# the quotient heap by heap with MisereSolver's own construction. It runs
# on the same cases and the ratio of times (its time over ours) is printed.
# grundy runs with a named memory budget (MAX_MEMORY, 4G unless set).
# The quotient is plain Rust on one core: no instruction path applies.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cargo build --release -p grundy-cli --quiet
grundy=$root/target/release/grundy
gnutime=/usr/bin/time
if ! "$gnutime" -f %M true > /dev/null 2>&1; then
  echo "GNU time is needed for peak memory (apt-get install time)" >&2
  exit 2
fi
cpu_field() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -1; }
echo "processor: $(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field model), stepping $(cpu_field stepping)), $(nproc) cores"
cases=${CASES:-"0.75:23 0.77:12 0.77:24 0.77:30 0.07:14 0.07:24 0.07:30 0.14:20 0.36:20 0.45:20 0.104:20 0.314:20 4.7:20"}
budget=${MAX_MEMORY:-4G}
measure() { # prints "seconds kilobytes" of the command
  local out
  out=$("$gnutime" -f "%e %M" "$@" 2>&1 > /dev/null | tail -1)
  echo "$out"
}
printf '%-8s %5s %7s %4s %10s %10s' game heaps order P build-s build-MB
[ -n "${MISERESOLVER:-}" ] && printf ' %12s %6s' miseresolver-s ratio
printf '\n'
for c in $cases; do
  game=${c%%:*}; n=${c##*:}
  read -r secs kb < <(measure "$grundy" quotient "$game" --max-heap "$n" --max-memory "$budget" -q)
  line=$("$grundy" quotient "$game" --max-heap "$n" --max-memory "$budget" -q | head -1)
  order=$(sed -n 's/.*order \([0-9]*\),.*/\1/p' <<< "$line")
  p=$(sed -n 's/.*P-portion \([0-9]*\).*/\1/p' <<< "$line")
  printf '%-8s %5s %7s %4s %10s %10s' "$game" "$n" "$order" "$p" "$secs" "$((kb / 1024))"
  if [ -n "${MISERESOLVER:-}" ]; then
    read -r peer _ < <(measure $MISERESOLVER "$game" "$n")
    printf ' %12s %6s' "$peer" "$(python3 -c "print(f'{$peer / max($secs, 0.01):.1f}x')")"
  fi
  printf '\n'
done
echo
echo "1,000 heaps, misère, every winning move (heaps cycle through 1..20):"
heaps=$(for i in $(seq 0 999); do echo $((i % 20 + 1)); done | tr '\n' ' ')
for game in kayles dawson; do
  read -r build _ < <(measure "$grundy" quotient "$game" --max-heap 20 -q)
  read -r total kb < <(measure "$grundy" value "$game" $heaps --misere --json)
  method=$("$grundy" value "$game" $heaps --misere --json | python3 -c "import json,sys; print(json.load(sys.stdin)['method'])")
  printf '%-7s quotient %5.2f s; value of 1,000 heaps %5.2f s in all (%s), %d MB: the answer itself %5.2f s\n' \
    "$game" "$build" "$total" "$method" "$((kb / 1024))" "$(python3 -c "print(max($total - $build, 0))")"
done
