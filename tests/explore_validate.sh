#!/usr/bin/env bash
# tcu explore --validate: the full flow on the fronts and random points,
# its errors against the fast evaluator in validation.csv and report.html.
#   quick: three points of the default configuration (a register-file axis:
#          this build's own model runs them, nothing built), two validated
#          without Yosys: cycles exact, energy within its tolerance, exit 0.
#   full:  two small int4 datapaths (two units, one and two stages: built,
#          run and synthesized; composed, not measured whole in the data
#          file), both validated: cycles exact, energy within its
#          tolerance; area and clock compared, and the exit status 1
#          exactly when a figure is over its tolerance, naming those points.
#   tests/explore_validate.sh TCU WORK_DIR quick|full
set -euo pipefail
tcu=$1
if ! compgen -G "$(dirname "$tcu")/python/tcu*.so" >/dev/null; then
  echo "$(basename "$0"): no tcu Python module in $(dirname "$tcu")/python: skipped" >&2
  exit 77
fi
work=$2
mode=$3
rm -rf "$work/out"
mkdir -p "$work"
export TCU_EXPLORE_CACHE=$work/cache
sweep=$work/sweep.toml
if [ "$mode" = quick ]; then
  printf '[workload]\nsuite = "resnet50_224"\n[axes]\nrf_bandwidth = [16, 32, 64]\n' >"$sweep"
  args=(--validate 1 --no-synth)
else
  cat >"$sweep" <<'TOML'
[workload]
kind = "gemm"
ptx = "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32"
m = 32
n = 16
k = 128
[fixed]
Int4MacsPerCycle = 64
SparseEnable = 1
E2m1Enable = 0
F16Enable = 0
F64Enable = 0
WordsPerCycle = 4
DWordsPerCycle = 4
[axes]
IntStages = [1, 2]
TOML
  args=(--validate 1 --jobs 2 --build-jobs 1)
fi
set +e
"$tcu" explore "$sweep" --out "$work/out" "${args[@]}" 2>"$work/stderr.txt"
status=$?
set -e
cat "$work/stderr.txt" >&2
python3 - "$work/out" "$mode" "$status" "$work/stderr.txt" <<'PY'
import csv, sys
out, mode, status, stderr = sys.argv[1], sys.argv[2], int(sys.argv[3]), open(sys.argv[4]).read()
rows = list(csv.DictReader(open(f"{out}/validation.csv")))
points = sorted({r["point"] for r in rows})
assert len(points) == 2, points
figures = {"cycles", "energy_pj"} | ({"area_um2", "fmax_mhz"} if mode == "full" else set())
for p in points:
    got = {r["figure"]: r for r in rows if r["point"] == p}
    assert set(got) == figures, (p, got)
    assert got["cycles"]["error"] == "+0.000%" and got["cycles"]["status"] == "ok", got
    assert got["energy_pj"]["status"] == "ok", got
    for r in got.values():
        err = abs(float(r["error"].rstrip("%"))) / 100
        tol = float(r["tolerance"].rstrip("%")) / 100
        assert (r["status"] == "ok") == (err <= tol + 1e-12), r
bad = sorted({r["point"] for r in rows if r["status"] != "ok"}, key=int)
assert status == (1 if bad else 0), (status, bad)
if bad:
    assert f"validation failed at point(s) {', '.join(bad)}" in stderr, stderr
html = open(f"{out}/report.html").read()
assert '<table id="validation">' in html
for r in rows:
    print(f"validation: point {r['point']} {r['figure']}: fast {r['fast']}, full {r['full']}, "
          f"{r['error']} (tolerance {r['tolerance']}): {r['status']}")
PY
