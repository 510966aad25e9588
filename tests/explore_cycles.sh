#!/usr/bin/env bash
# The fast evaluator's cycles held to the RTL on a sample spanning every
# parameter that changes a GEMM's cycles: tests/explore/cycles_sweep.toml
# (every engine's units and stages, FmaStages 0 and 19 among them, the
# operand router's widths and gather bypass, the register file's banks and
# read ports, the warps) validated by the full flow without Yosys
# (--no-synth: each datapath Verilated, one small GEMM of every variant of
# tests/explore/cycles_workload.toml run through the SystemC front-end, D
# checked), once at the sweep's two extremes and once at middle values
# (FmaStages 2 and 4: the three-stage form and the step form's first
# setting; unit counts of two to five). Every point's cycles must be the
# RTL's exactly (the timing model claims exactness for a one-variant GEMM
# without back-pressure) and its energy within validate.py's tolerance;
# tcu explore must exit 0. With --record, the results go into
# docs/data/explore_validation.toml (python -m tcu_tools.explore.record),
# with the gate-level datapath energy of docs/data/gate_level_int4_64.json
# priced by this build's estimate and the physical data file's mapped
# datapaths ([[whole]]) against the composition, then checked (record
# --check: every figure within its tolerance): the record's one
# regenerating command.
#   tests/explore_cycles.sh TCU WORK_DIR [--record]
set -euo pipefail
tcu=$1
work=$(mkdir -p "$2" && cd "$2" && pwd)
record=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
if ! compgen -G "$(dirname "$tcu")/python/tcu*.so" >/dev/null; then
  echo "$(basename "$0"): no tcu Python module in $(dirname "$tcu")/python: skipped" >&2
  exit 77
fi
export TCU_EXPLORE_CACHE=$work/cache
# tcu explore runs the package's tcu-explore from PATH: the checkout's .venv
export PATH="$here/../.venv/bin:$PATH"
sweep=$here/explore/cycles_sweep.toml
common=(--validate 0 --no-fronts --no-synth --jobs 2 --build-jobs 1)
middle=(--axis Int4MacsPerCycle=64,256 --axis IntStages=1,3 --axis E2m1MacsPerCycle=128,320
        --axis E2m1Stages=2,3 --axis F16FmasPerCycle=8,20 --axis F64FmasPerCycle=8,20
        --axis FmaStages=2,4 --axis WordsPerCycle=4,8 --axis DWordsPerCycle=2,4
        --axis GatherBypass=1,0 --axis rf_banks=4,8 --axis rf_read_ports=2,1 --axis warps=2,4)
status=0
for run in extremes middle; do
  rm -rf "$work/$run"
  args=("${common[@]}")
  [ "$run" = middle ] && args+=("${middle[@]}")
  set +e
  "$tcu" explore "$sweep" --out "$work/$run" "${args[@]}" 2>"$work/$run.stderr"
  code=$?
  set -e
  cat "$work/$run.stderr" >&2
  python3 - "$work/$run" "$code" <<'PY' || status=1
import csv, sys
out, code = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(f"{out}/validation.csv")))
points = sorted({r["point"] for r in rows}, key=int)
bad = [r for r in rows if r["status"] != "ok"]
for r in rows:
    print(f"validation: point {r['point']} {r['figure']}: fast {r['fast']}, full {r['full']}, "
          f"{r['error']} (tolerance {r['tolerance']}): {r['status']}")
assert len(points) == 2, f"{out}: expected the two spanning points, found {points}"
assert {r["figure"] for r in rows} == {"cycles", "energy_pj"}, rows
cycles = [r for r in rows if r["figure"] == "cycles"]
assert all(r["error"] == "+0.000%" for r in cycles), \
    f"{out}: fast cycles differ from the RTL's: {[(r['point'], r['fast'], r['full']) for r in cycles if r['error'] != '+0.000%']}"
assert not bad, f"{out}: over tolerance: {bad}"
assert code == 0, f"{out}: tcu explore exited {code}"
PY
done
if [ "$status" = 0 ] && [ "$record" = --record ]; then
  # the gate-level datapath energy kept in docs/data priced by this build's
  # estimate (the tcu module beside $tcu)
  (cd "$here/.." && TCU_MODULE_DIR=$(cd "$(dirname "$tcu")" && pwd)/python \
    .venv/bin/python -m tcu_tools.explore.record --write \
    --run cycles_extremes="$work/extremes" --run cycles_middle="$work/middle" \
    --gate-level gate_level_int4_64=docs/data/gate_level_int4_64.json) || status=1
  # every figure of the record within its tolerance (the mapped datapaths'
  # area and clock among them), the points over one named
  (cd "$here/.." && TCU_MODULE_DIR=$(cd "$(dirname "$tcu")" && pwd)/python \
    .venv/bin/python -m tcu_tools.explore.record --check) || status=1
fi
exit "$status"
