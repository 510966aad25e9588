#!/usr/bin/env bash
# Generic Yosys 0.23 synthesis (synth -flatten) of every RTL unit in rtl/ at
# its default parameters, and of tcu_datapath at a small setting (the default
# instantiates hundreds of FMAs); prints the cell count of each.
#   scripts/synth.sh [unit...]        (default: every rtl/tcu_*.sv but tcu_pkg)
# Logs and netlist statistics go to $SYNTH_DIR (default build/synth).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${SYNTH_DIR:-build/synth}
mkdir -p "$out"

# The top at one dot unit per engine (int4 32 MACs, e2m1 64, f16 and f64 4
# FMAs), default pipeline depths.
DATAPATH_PARAMS="Int4MacsPerCycle=32 E2m1MacsPerCycle=64 F16FmasPerCycle=4 F64FmasPerCycle=4"

units=()
for unit in rtl/tcu_*.sv; do
  [ "$unit" = rtl/tcu_pkg.sv ] || units+=("$unit")
done
tops=("$@")
if [ ${#tops[@]} -eq 0 ]; then
  for unit in "${units[@]}"; do tops+=("$(basename "$unit" .sv)"); done
fi

status=0
printf '%-22s %12s %10s %8s  %s\n' unit cells flip-flops seconds parameters
for top in "${tops[@]}"; do
  params=""
  [ "$top" = tcu_datapath ] && params=$DATAPATH_PARAMS
  # -defer: only what the top instantiates is elaborated, at its parameters.
  chparam=""
  for p in $params; do chparam+=" -chparam ${p%%=*} ${p#*=}"; done
  start=$(date +%s)
  if yosys -q -l "$out/$top.log" -p "read_verilog -defer -sv rtl/tcu_pkg.sv ${units[*]};
        hierarchy -check -top $top$chparam; synth -flatten -top $top -run coarse:; tee -q -o $out/$top.stat stat" >/dev/null 2>&1; then
    cells=$(awk '/Number of cells:/ {n = $4} END {print n}' "$out/$top.stat")
    ffs=$(awk '/\$_S?DFF/ {n += $2} END {print n + 0}' "$out/$top.stat")
    printf '%-22s %12s %10s %8s  %s\n' "$top" "$cells" "$ffs" "$(($(date +%s) - start))" \
      "${params:-defaults}"
  else
    printf '%-22s %12s  (see %s)\n' "$top" FAILED "$out/$top.log"
    status=1
  fi
done
exit $status
