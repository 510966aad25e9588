#!/usr/bin/env bash
# verilator --lint-only -Wall over every unit in rtl/, each as its own top.
# Waivers live in rtl/lint.vlt, each with its reason. Any warning fails.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
waivers=()
[ -f rtl/lint.vlt ] && waivers=(rtl/lint.vlt)
for unit in rtl/tcu_*.sv; do
  # tcu_pkg.sv is read first; every other file is a unit.
  top=$(basename "$unit" .sv)
  [ "$top" = tcu_pkg ] && continue
  if out=$(verilator --lint-only -Wall "${waivers[@]}" rtl/tcu_pkg.sv rtl/tcu_*.sv \
             --top-module "$top" 2>&1) && [ -z "$out" ]; then
    echo "lint clean: $top"
  else
    echo "lint FAILED: $top"
    echo "$out"
    status=1
  fi
done
exit $status
