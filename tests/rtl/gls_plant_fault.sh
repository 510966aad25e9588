#!/usr/bin/env bash
# gls_plant_fault.sh NETLIST COPY [xor|mux] [N]: writes COPY, NETLIST (a Yosys
# write_verilog netlist) with one gate, the Nth of its kind in the file
# (default the first), made faulty while the environment variable
# TCU_GLS_PLANT is set when the model runs (read once, by inline C++ of
# Verilator's $c), and as it is otherwise:
#   xor (default)  a two-input XOR, "assign _N_ = x ^ y;", an XNOR then;
#   mux            a two-input multiplexer, "assign _N_ = s ? a : b;", its
#                  inputs swapped then (for netlists without XORs).
# One model serves the gate-level test and its planted-fault twin (the same
# executable with TCU_GLS_PLANT=1). Exit 1 unless exactly one line differs.
set -euo pipefail
[ $# -ge 2 ] && [ $# -le 4 ] || { echo "usage: gls_plant_fault.sh NETLIST COPY [xor|mux] [N]" >&2; exit 2; }
nth=${4:-1}
[[ $nth =~ ^[1-9][0-9]*$ ]] || { echo "gls_plant_fault.sh: N must be a positive integer, got '$nth'" >&2; exit 2; }
# The switch: 1 while TCU_GLS_PLANT is set (awk -v reads \\" as ").
plant='$c1("([]{ static const bool on = std::getenv(\\"TCU_GLS_PLANT\\") != nullptr; return on; }())")'
case ${3:-xor} in
  xor) awk -v nth="$nth" -v plant="$plant" '
         /^  assign _[0-9]+_ = [^ ~()]+ \^ [^ ~()]+;$/ && ++n == nth {
           split($0, p, " = "); sub(/;$/, "", p[2]); print p[1] " = " p[2] " ^ " plant ";"; next }
         { print }' "$1" >"$2" ;;
  mux) awk -v nth="$nth" -v plant="$plant" '
         /^  assign _[0-9]+_ = [^ ~()?]+ \? [^ ~()]+ : [^ ~()]+;$/ && ++n == nth {
           split($0, p, " = "); sub(/;$/, "", p[2]); split(p[2], q, " ");
           print p[1] " = " plant " ? (" q[1] " ? " q[5] " : " q[3] ") : (" p[2] ");"; next }
         { print }' "$1" >"$2" ;;
  *) echo "gls_plant_fault.sh: unknown gate kind $3" >&2; exit 2 ;;
esac
planted=$(diff "$1" "$2" | sed -n 's/^> *//p' || true)
if [ "$(printf '%s' "$planted" | grep -c .)" != 1 ]; then
  echo "gls_plant_fault.sh: expected one gate changed in $2, found: ${planted:-none}" >&2
  exit 1
fi
echo "planted: $planted"
