#!/usr/bin/env bash
# calib_fma32 (phys/calib), mapped by tcu_tools.phys's flow, against C's
# fmaf on 4096 random vectors (fma32_vectors.c), simulated at gate level
# with the library's cell models (fma32_tb.v); then the proof that the
# check can fail: one expected result with its last bit flipped must be
# counted as one error.
#   tests/phys/calib/fma32_check.sh PYTHON WORKDIR
set -uo pipefail
python=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mkdir -p "$work" || exit 1
netlist=$(nice -n 10 "$python" - "$work" <<'PY'
import sys
from pathlib import Path
from tcu_tools.phys import calib, library, mapping
work = Path(sys.argv[1])
m = mapping.map_unit("calib_fma32", {}, work / "calib_fma32",
                     sources=calib.DESIGNS["calib_fma32"][1])
print(m.netlist, library.cell_models(work))
PY
) || { echo "fma32_check: mapping calib_fma32 failed" >&2; exit 1; }
set -- $netlist
cc -O2 -o "$work/fma32_vectors" "$here/fma32_vectors.c" -lm || exit 1
"$work/fma32_vectors" 4096 0x5eed >"$work/vectors.txt" || exit 1
iverilog -g2005 -o "$work/fma32.vvp" -s fma32_tb "$2" "$1" "$here/fma32_tb.v" || exit 1
vvp -n "$work/fma32.vvp" "+vectors=$work/vectors.txt" | tee "$work/run.out"
grep -q "^errors 0 of 4096$" "$work/run.out" || { echo "fma32_check: FAIL" >&2; exit 1; }
# the plant: vector 100's expected result, last bit flipped
"$python" - "$work/vectors.txt" "$work/planted.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
a, b, c, r = lines[100].split()
lines[100] = f"{a} {b} {c} {int(r, 16) ^ 1:08x}"
open(sys.argv[2], "w").write("\n".join(lines))
PY
vvp -n "$work/fma32.vvp" "+vectors=$work/planted.txt" >"$work/planted.out"
grep -q "^errors 1 of 4096$" "$work/planted.out" || {
  echo "fma32_check: the planted wrong result was not caught:" >&2
  cat "$work/planted.out" >&2
  exit 1
}
echo "fma32_check: 4096 vectors agree with fmaf; the planted one was caught"
