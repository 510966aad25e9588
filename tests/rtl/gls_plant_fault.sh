#!/usr/bin/env bash
# gls_plant_fault.sh NETLIST COPY [xor|mux]: writes COPY, NETLIST (a Yosys
# write_verilog netlist) with one gate changed:
#   xor (default)  the first two-input XOR, "assign _N_ = x ^ y;", made an XNOR;
#   mux            the first two-input multiplexer, "assign _N_ = s ? a : b;",
#                  with its inputs swapped (for netlists without XORs).
# Exit 1 unless exactly one line differs.
set -euo pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: gls_plant_fault.sh NETLIST COPY [xor|mux]" >&2; exit 2; }
case ${3:-xor} in
  xor) sed -E '0,/^  assign (_[0-9]+_) = ([^ ~()]+) \^ ([^ ~()]+);$/s//  assign \1 = ~(\2 ^ \3);/' \
         "$1" >"$2" ;;
  mux) sed -E '0,/^  assign (_[0-9]+_) = ([^ ~()?]+) \? ([^ ~()]+) : ([^ ~()]+);$/s//  assign \1 = \2 ? \4 : \3;/' \
         "$1" >"$2" ;;
  *) echo "gls_plant_fault.sh: unknown gate kind $3" >&2; exit 2 ;;
esac
planted=$(diff "$1" "$2" | sed -n 's/^> *//p' || true)
if [ "$(printf '%s' "$planted" | grep -c .)" != 1 ]; then
  echo "gls_plant_fault.sh: expected one gate changed in $2, found: ${planted:-none}" >&2
  exit 1
fi
echo "planted: $planted"
