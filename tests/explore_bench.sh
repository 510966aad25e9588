#!/usr/bin/env bash
# The fast evaluator's benchmark: `tcu explore SWEEP --bench` must evaluate
# at least MIN points a minute (the figure it prints).
#   tests/explore_bench.sh TCU SWEEP MIN
set -euo pipefail
tcu=$1
if ! compgen -G "$(dirname "$tcu")/python/tcu*.so" >/dev/null; then
  echo "$(basename "$0"): no tcu Python module in $(dirname "$tcu")/python: skipped" >&2
  exit 77
fi
sweep=$2
min=$3
out=$("$tcu" explore "$sweep" --bench)
echo "$out"
rate=$(sed -n 's/.*: \([0-9,]*\) points\/minute$/\1/p' <<<"$out" | tr -d ,)
[ -n "$rate" ] || { echo "explore_bench: FAIL: no points/minute in the output" >&2; exit 1; }
if [ "$rate" -lt "$min" ]; then
  echo "explore_bench: FAIL: $rate points/minute, below $min" >&2
  exit 1
fi
echo "explore_bench: $rate points/minute (at least $min)"
