#!/usr/bin/env bash
# gls_plant_fault.sh NETLIST COPY: writes COPY, NETLIST (a Yosys
# write_verilog netlist) with one gate changed: the first two-input XOR,
# "assign _N_ = x ^ y;", made an XNOR. Exit 1 unless exactly one line differs.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: gls_plant_fault.sh NETLIST COPY" >&2; exit 2; }
sed -E '0,/^  assign (_[0-9]+_) = ([^ ~()]+) \^ ([^ ~()]+);$/s//  assign \1 = ~(\2 ^ \3);/' \
  "$1" >"$2"
planted=$(diff "$1" "$2" | sed -n 's/^> *//p' || true)
if [ "$(printf '%s' "$planted" | grep -c .)" != 1 ]; then
  echo "gls_plant_fault.sh: expected one gate changed in $2, found: ${planted:-none}" >&2
  exit 1
fi
echo "planted: $planted"
