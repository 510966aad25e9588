#!/usr/bin/env bash
# `tcu run --trace` writes an FST whose hierarchy holds every signal that the
# GTKWave save files in tb/gtkwave/ name, and the ports that tcu_tools.phys.workload
# reads of each engine's first dot unit.
# Usage: check_trace.sh TCU GTKW_DIR PYTHON
set -euo pipefail
tcu=$1 gtkw_dir=$2 python=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tcu" run --engine rtl --count 2 --ptx mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 \
  --trace "$dir/t.fst" >/dev/null
[ -s "$dir/t.fst" ] || { echo "no FST written"; exit 1; }
# Full names of every traced signal, without bit ranges.
fst2vcd "$dir/t.fst" 2>/dev/null | awk '
  /^\$scope/ { path[++depth] = $3 }
  /^\$upscope/ { depth-- }
  /^\$var/ { name = ""; for (i = 1; i <= depth; i++) name = name path[i] "."; print name $5 }' \
  | sort -u >"$dir/names"
missing=0
for f in "$gtkw_dir"/*.gtkw; do
  while read -r sig; do
    base=${sig%%[*}
    # g_lane[0] scopes keep their index; strip only a trailing bit range.
    base=$(sed -E 's/(\[[0-9]+:[0-9]+\])+$//' <<<"$sig")
    if ! grep -qxF "$base" "$dir/names"; then
      echo "$(basename "$f"): $sig is not in the trace"
      missing=1
    fi
  done < <(grep -E '^TOP\.tcu_sim_top\.' "$f")
done
# tcu_tools.phys.workload finds the first unit of each engine by its own scope
# patterns and reads its ports (the units' internals are not traced): read
# each unit's clock, valid and some operand ports from this trace as it does.
if ! "$python" - "$dir/t.fst" <<'PY'; then
import sys
from pathlib import Path
from tcu_tools.phys import workload
ports = {"tcu_int4_dot": ["a_i", "b_i"], "tcu_e2m1_dot": ["a_i", "scale_a_i"],
         "tcu_f16_dot": ["a_i", "c_i", "en_i"], "tcu_f64_dot": ["a_i", "c_i"]}
failed = False
for unit, instance in workload.DEFAULT_INSTANCE.items():
    try:
        workload.read_slices(Path(sys.argv[1]), instance, ports[unit])
    except workload.WorkloadError as e:
        print(f"tcu_tools.phys.workload cannot read {unit}: {e}")
        failed = True
sys.exit(failed)
PY
  missing=1
fi
[ $missing -eq 0 ] && echo "trace holds every save-file signal and the dot units' ports ($(wc -l <"$dir/names") signals)"
exit $missing
