#!/usr/bin/env bash
# `tcu run --trace` writes an FST whose hierarchy holds every signal that the
# GTKWave save files in tb/gtkwave/ name. Usage: check_trace.sh TCU GTKW_DIR
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
[ $missing -eq 0 ] && echo "trace holds every save-file signal ($(wc -l <"$dir/names") signals)"
exit $missing
