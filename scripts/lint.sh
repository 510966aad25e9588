#!/usr/bin/env bash
# verilator --lint-only -Wall over every unit in rtl/, each as its own top.
# Waivers live in rtl/lint.vlt, each with its reason. Any warning fails.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
waivers=()
[ -f rtl/lint.vlt ] && waivers=(rtl/lint.vlt)
# tcu_pkg.sv is read first (once); every other file is a unit.
units=()
for unit in rtl/tcu_*.sv; do
  [ "$unit" = rtl/tcu_pkg.sv ] || units+=("$unit")
done
# Twice: as simulated, and with SYNTHESIS defined (the code Yosys reads, e.g.
# tcu_word_mux's mux tree).
for define in "" "+define+SYNTHESIS"; do
  for unit in "${units[@]}"; do
    top=$(basename "$unit" .sv)
    if out=$(verilator --lint-only -Wall $define "${waivers[@]}" rtl/tcu_pkg.sv "${units[@]}" \
               --top-module "$top" 2>&1) && [ -z "$out" ]; then
      echo "lint clean: $top ${define:-(simulation)}"
    else
      echo "lint FAILED: $top ${define:-(simulation)}"
      echo "$out"
      status=1
    fi
  done
done
exit $status
