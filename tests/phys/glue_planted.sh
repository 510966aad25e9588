#!/usr/bin/env bash
# The proof that tests/phys/test_glue_hand.py and test_engine_regs_hand.py
# can fail: copies of the data file with one figure wrong (the control's
# idle figure 5% high; the skid's flip-flops one short; the counters' idle
# figure at their clock alone; the int4 engine's registers at four units
# and two stages 10 flip-flops over; the skid's idle figure, which the
# engines' registers take a flip-flop, 3% high with its flip-flops kept,
# checked by the engines' test alone) must each be refused.
#   tests/phys/glue_planted.sh PYTHON
set -euo pipefail
python=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for fault in ctrl skid counters regs regs_idle; do
  "$python" - "$here/../../spec/phys_osu018.toml" "$work/$fault.toml" "$fault" <<'PY'
import re, sys, tomllib
src, dst, fault = sys.argv[1:]
text = open(src).read()
head, sep, glue = text.partition("\n[[glue]]\n")  # the first table (the head's comment names it too)
assert sep, f"{src}: no [[glue]] table"
tables = ("[[glue]]\n" + glue).split("\n\n")
unit = {"ctrl": "tcu_datapath_ctrl", "skid": "tcu_output_skid", "counters": "tcu_activity",
        "regs": 'top = "tcu_int4_engine"\nparams = { Units = 4, SparseEnable = 1, Stages = 2 }',
        "regs_idle": "tcu_output_skid"}[fault]
for i, t in enumerate(tables):
    if (f'unit = "{unit}"' if fault != "regs" else unit) not in t:
        continue
    g = tomllib.loads(t.replace("[[glue]]", "").replace("[[engine_regs]]", ""))
    if fault == "regs":
        t = re.sub(r"\nflip_flops = \d+", f"\nflip_flops = {g['flip_flops'] + 10}", t)
    elif fault == "regs_idle":
        t = re.sub(r"idle_pj_per_cycle = \S+", f"idle_pj_per_cycle = {g['idle_pj_per_cycle'] * 1.03!r}", t)
    elif fault == "ctrl":
        t = re.sub(r"idle_pj_per_cycle = \S+", f"idle_pj_per_cycle = {g['idle_pj_per_cycle'] * 1.05!r}", t)
    elif fault == "skid":
        t = re.sub(r"flip_flops = \d+", f"flip_flops = {g['flip_flops'] - 1}", t)
    else:
        t = re.sub(r"idle_pj_per_cycle = \S+", "idle_pj_per_cycle = 45.84792", t)
    tables[i] = t
open(dst, "w").write(head + "\n" + "\n\n".join(tables))
PY
  tests="$here/test_glue_hand.py $here/test_engine_regs_hand.py"
  [ "$fault" = regs_idle ] && tests="$here/test_engine_regs_hand.py"
  # shellcheck disable=SC2086
  if TCU_GLUE_DATAFILE="$work/$fault.toml" "$python" -m pytest -q -p no:cacheprovider \
      $tests >"$work/$fault.log" 2>&1; then
    echo "glue_planted: the $fault fault passed test_glue_hand.py" >&2
    status=1
  else
    echo "glue_planted: the $fault fault is refused: $(grep -m1 -E '^FAILED' "$work/$fault.log")"
  fi
done
exit "$status"
