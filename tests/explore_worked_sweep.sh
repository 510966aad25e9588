#!/usr/bin/env bash
# The worked sweep of docs/guide/explore-evaluator.md (tests/explore/
# worked_sweep.toml: 1,536 points over eight axes against the LLaMA-2-7B
# prefill suite): the fast sweep with its plots, and two points of each
# Pareto front (its ends: --front-sample 2) plus the sample spanning its
# axes validated by the full flow (built, run, mapped bottom-up): exit 0
# only if every validated figure is within its tolerance; the figures the
# docs page shows are the ones this run writes (WORK_DIR/out: explore.csv,
# validation.csv, validation_axes.csv, the PNG plots). Every front point
# would take the full flow most of a day on two cores; the sample takes
# hours, the router at 16 words its longest mapping.
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
"$tcu" explore "$sweep" --out "$work/out" --plots --validate 0 --front-sample 2 --jobs 2 --build-jobs 1
python3 - "$work/out" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/explore.csv")))
assert len(rows) == 1536, len(rows)
validated = {r["point"] for r in csv.DictReader(open(f"{out}/validation.csv"))}
ends = set()
for flag, key in (("pareto", "area_mm2"), ("pareto_energy", "tops")):
    front = sorted((float(r[key]), int(r["point"])) for r in rows if r[flag] == "1")
    assert front, flag
    ends |= {str(min(p for v, p in front if v == front[0][0])),
             str(min(p for v, p in front if v == front[-1][0]))}
assert ends <= validated, sorted(ends - validated)
print(f"explore_worked_sweep: {len(rows)} points, the fronts' ends {sorted(ends)} among "
      f"{len(validated)} validated, every figure within its tolerance")
PY
