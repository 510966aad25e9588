#!/usr/bin/env bash
# `tcu run --trace` writes an FST whose hierarchy holds every signal that the
# GTKWave save files in tb/gtkwave/ name, and the dot units' ports.
# Usage: check_trace.sh TCU GTKW_DIR
set -euo pipefail
tcu=$1 gtkw_dir=$2
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
# The first unit of each engine keeps its ports in the trace (what
# tools/tcu_phys/workload.py reads) though its internals are not traced.
for engine_port in int4:a_i int4:b_i int4:valid_i e2m1:a_i e2m1:scale_a_i e2m1:valid_i \
  f16:a_i f16:c_i f16:valid_i f16:en_i f64:a_i f64:valid_i; do
  engine=${engine_port%%:*} port=${engine_port#*:}
  if ! grep -qE "\.u_${engine}\..*g_unit\[0\]\.u_dot\.${port}\$" "$dir/names"; then
    echo "the first ${engine} dot's port ${port} is not in the trace"
    missing=1
  fi
done
[ $missing -eq 0 ] && echo "trace holds every save-file signal and the dots' ports ($(wc -l <"$dir/names") signals)"
exit $missing
