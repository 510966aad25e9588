#!/usr/bin/env bash
# The proof that tests/phys/test_glue_hand.py can fail: copies of the data
# file with one [[glue]] figure wrong (the control's idle figure 5% high; the
# skid's flip-flops one short; the counters' idle figure at their clock
# alone) must each be refused.
#   tests/phys/glue_planted.sh PYTHON
set -euo pipefail
python=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for fault in ctrl skid counters; do
  "$python" - "$here/../../spec/phys_osu018.toml" "$work/$fault.toml" "$fault" <<'PY'
import re, sys, tomllib
src, dst, fault = sys.argv[1:]
text = open(src).read()
head, sep, glue = text.partition("[[glue]]")
assert sep, f"{src}: no [[glue]] table"
tables = ("[[glue]]" + glue).split("\n\n")
unit = {"ctrl": "tcu_datapath_ctrl", "skid": "tcu_output_skid", "counters": "tcu_activity"}[fault]
for i, t in enumerate(tables):
    if f'unit = "{unit}"' not in t:
        continue
    g = tomllib.loads(t.replace("[[glue]]", ""))
    if fault == "ctrl":
        t = re.sub(r"idle_pj_per_cycle = \S+", f"idle_pj_per_cycle = {g['idle_pj_per_cycle'] * 1.05!r}", t)
    elif fault == "skid":
        t = re.sub(r"flip_flops = \d+", f"flip_flops = {g['flip_flops'] - 1}", t)
    else:
        t = re.sub(r"idle_pj_per_cycle = \S+", "idle_pj_per_cycle = 45.84792", t)
    tables[i] = t
open(dst, "w").write(head + "\n\n".join(tables))
PY
  if TCU_GLUE_DATAFILE="$work/$fault.toml" "$python" -m pytest -q -p no:cacheprovider \
      "$here/test_glue_hand.py" >"$work/$fault.log" 2>&1; then
    echo "glue_planted: the $fault fault passed test_glue_hand.py" >&2
    status=1
  else
    echo "glue_planted: the $fault fault is refused: $(grep -m1 -E '^FAILED' "$work/$fault.log")"
  fi
done
exit "$status"
