#!/usr/bin/env bash
# tcu explore --validate: the full flow on a sample spanning every axis,
# its errors against the fast evaluator in validation.csv and report.html.
#   quick: the default configuration with the register file's bandwidth
#          and banks and the warps as axes (this build's own model runs
#          them, nothing built): the two points spanning them validated
#          without Yosys: cycles exact, energy within its tolerance, exit 0.
#   full:  tests/explore/span_sweep.toml: the two points spanning the int4,
#          e2m1 and f16 engines' units and stages, the sparse mux, the
#          register file and the warps (built, run, and mapped bottom-up),
#          validated: cycles exact, energy within its tolerance; area and
#          clock compared, and the exit status 1 exactly when a figure is
#          over its tolerance, naming those points.
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
  printf '[workload]\nsuite = "resnet50_224"\n[axes]\nrf_bandwidth = [16, 64]\nrf_banks = [4, 16]\nwarps = [1, 2]\n' >"$sweep"
  args=(--validate 0 --no-fronts --no-synth)
else
  sweep=$(cd "$(dirname "$0")" && pwd)/explore/span_sweep.toml
  args=(--validate 0 --no-fronts --jobs 2 --build-jobs 1)
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
