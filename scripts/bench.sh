#!/usr/bin/env bash
# Throughput benchmarks: instructions/s of the golden model and of the full
# SystemC + RTL stack (both datapath configurations), per variant, plus the
# modelled cycles per instruction, on one core (--jobs 1). Prints figures;
# asserts nothing.
# Usage: scripts/bench.sh [COUNT]   (after a build; COUNT cases per variant)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-500}
tcu=build/tcu
[ -x "$tcu" ] || { echo "bench: build first (scripts/test.sh or cmake --build build)"; exit 2; }
out=build/bench
mkdir -p "$out"
echo "== golden model, $count cases per variant"
"$tcu" run --engine golden --count "$count" --seed 7 --jobs 1 | tee "$out/golden.txt" | tail -2
for config in default small; do
  echo "== RTL engine ($config), $count cases per variant"
  "$tcu" run --engine rtl --config "$config" --count "$count" --seed 7 --jobs 1 | tee "$out/rtl-$config.txt" | tail -2
done
python3 scripts/plot_bench.py "$out" "$out/bench.svg"
echo "plot: $out/bench.svg"
