#!/usr/bin/env bash
# The worked sweep of docs/guide/explore-evaluator.md (tests/explore/
# worked_sweep.toml: 1,536 points over eight axes against the LLaMA-2-7B
# prefill suite): the fast sweep with its plots, and every point of its
# Pareto fronts plus the sample spanning its axes validated by the full
# flow (built, run, mapped bottom-up): exit 0 only if every validated
# figure is within its tolerance; the figures the docs page shows are the
# ones this run writes (WORK_DIR/out: explore.csv, validation.csv,
# validation_axes.csv, the PNG plots).
#   tests/explore_worked_sweep.sh TCU WORK_DIR
set -euo pipefail
tcu=$1
if ! compgen -G "$(dirname "$tcu")/python/tcu*.so" >/dev/null; then
  echo "$(basename "$0"): no tcu Python module in $(dirname "$tcu")/python: skipped" >&2
  exit 77
fi
work=$2
rm -rf "$work/out"
mkdir -p "$work"
export TCU_EXPLORE_CACHE=$work/cache
sweep=$(cd "$(dirname "$0")" && pwd)/explore/worked_sweep.toml
"$tcu" explore "$sweep" --out "$work/out" --plots --validate 0 --jobs 2 --build-jobs 1
python3 - "$work/out" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/explore.csv")))
assert len(rows) == 1536, len(rows)
fronts = {r["point"] for r in rows if r["pareto"] == "1" or r["pareto_energy"] == "1"}
validated = {r["point"] for r in csv.DictReader(open(f"{out}/validation.csv"))}
assert fronts <= validated, sorted(fronts - validated)
print(f"explore_worked_sweep: {len(rows)} points, {len(fronts)} on the fronts, "
      f"{len(validated)} validated, every figure within its tolerance")
PY
