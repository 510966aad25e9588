#!/usr/bin/env bash
# scripts/synth.sh --liberty on a small unit (tcu_int4_accumulate): the
# table, the CSV and the JSON carry the OSU 0.18 um figures under the names
# tcu explore reads (area_um2, flip_flop_area_um2, fmax_mhz,
# critical_path_ns, path_start, path_end), equal to tcu_tools.phys's own mapping
# of the unit, and the CSV's generic columns are still there. Then the
# proof that the checks can fail: the same checker must refuse copies of
# the JSON with a key renamed, the area zeroed, and fmax not 1000 / path.
#   tests/phys/synth_liberty.sh PYTHON WORKDIR
set -uo pipefail
python=$1
work=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work" || exit 1
SYNTH_DIR=$work/synth nice -n 10 "$repo/scripts/synth.sh" --liberty --csv "$work/synth.csv" \
  --json "$work/synth.json" tcu_int4_accumulate >"$work/table.txt" 2>&1 || {
  cat "$work/table.txt"
  exit 1
}
cat "$work/table.txt"
grep -q "um2 *ff-um2 *MHz" "$work/table.txt" || { echo "FAIL: no um2/MHz columns"; exit 1; }
grep -q "critical path .* ns: .* -> " "$work/table.txt" || { echo "FAIL: no path line"; exit 1; }

check() {  # check JSON: exit 0 if the figures are right
  "$python" - "$1" "$work/synth.csv" "$work/phys" <<'PY'
import csv, json, sys
from pathlib import Path
from tcu_tools.phys import mapping
rows = json.load(open(sys.argv[1]))
assert len(rows) == 1, rows
row = rows[0]
for key in ("area_um2", "flip_flop_area_um2", "fmax_mhz", "critical_path_ns", "path_start",
            "path_end", "cells", "flip_flops", "transistors", "logic_depth"):
    assert key in row and row[key] not in (None, ""), f"no {key}"
assert row["library"] == "OSU 0.18 µm, typical corner", row["library"]
assert row["area_um2"] > 0 and row["fmax_mhz"] > 0, row
assert abs(row["fmax_mhz"] * row["critical_path_ns"] - 1000) < 1, row
assert "input port" in row["path_start"] and "output port" in row["path_end"], row
own = mapping.map_unit("tcu_int4_accumulate", {}, Path(sys.argv[3]))
assert abs(own.area_um2 - row["area_um2"]) < 1e-3, (own.area_um2, row["area_um2"])
c = next(csv.DictReader(open(sys.argv[2])))
assert float(c["area_um2"]) == row["area_um2"] and c["path_end"] == row["path_end"], c
assert int(c["cells"]) == row["cells"] > 0, c
PY
}
check "$work/synth.json" || { echo "FAIL: synth.sh --liberty's figures"; exit 1; }
failures=0
for fault in rename zero fmax; do
  "$python" - "$work/synth.json" "$work/tampered.json" "$fault" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
fault = sys.argv[3]
if fault == "rename":
    rows[0]["area"] = rows[0].pop("area_um2")
elif fault == "zero":
    rows[0]["area_um2"] = 0.0
else:
    rows[0]["fmax_mhz"] *= 1.01
json.dump(rows, open(sys.argv[2], "w"))
PY
  if check "$work/tampered.json" >/dev/null 2>&1; then
    echo "FAIL: the checker accepted the JSON with the fault '$fault'"
    failures=$((failures + 1))
  fi
done
[ $failures -eq 0 ] || exit 1
echo "ok: synth.sh --liberty; the checker refused every planted fault"
