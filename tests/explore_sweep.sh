#!/usr/bin/env bash
# tcu explore end to end on a two-point sweep (tests/explore/ci_sweep.toml):
# both points' models are built on demand, run and synthesized; explore.csv
# has both rows with every figure, and the plots exist. A second run of the
# same sweep builds and synthesizes nothing. Two shards of it, merged, give
# the same rows as the whole sweep.
#   tests/explore_sweep.sh TCU WORK_DIR
set -euo pipefail
tcu=$1
work=$2
sweep=$(dirname "$0")/explore/ci_sweep.toml
rm -rf "$work/out" "$work/again" "$work/shard0" "$work/shard1" "$work/merged"
mkdir -p "$work"
export TCU_EXPLORE_CACHE=$work/cache

fail() {
  echo "explore_sweep: FAIL: $*" >&2
  exit 1
}

"$tcu" explore --fidelity full "$sweep" --out "$work/out" --jobs 2 --build-jobs 1
rows=$(tail -n +2 "$work/out/explore.csv" | wc -l)
[ "$rows" -eq 2 ] || fail "expected 2 rows in explore.csv, found $rows"
# Every point: ok, and cycles, utilization, cells, transistors and depth are numbers.
python3 - "$work/out/explore.csv" <<'PY' || fail "explore.csv lacks figures"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    assert r["status"] == "ok", r
    for c in ("cycles", "macs", "mac_utilization", "cells", "flip_flops", "transistors",
              "logic_depth"):
        assert float(r[c]) > 0, (c, r)
    assert 0 < float(r["mac_utilization"]) <= 1, r
# The two points differ in their RTL: they must not share a model or an area.
assert rows[0]["cells"] != rows[1]["cells"], rows
# MACs from the report: int4 dense issues its dense count; 32x16x128.
for r in rows:
    assert int(r["macs"]) == int(r["issued_macs"]) == 32 * 16 * 128, r
# The decision columns are there; filled where their sources are.
for c in ("area_um2", "fmax_mhz", "tops", "tops_per_mm2", "energy_pj_per_mac", "tops_per_w",
          "pareto", "pareto_energy"):
    assert c in rows[0], c
PY
# With the cell-library flow (synth.sh --liberty, the OSU library, sta): µm²,
# MHz and TOPS are numbers; with the report's energy, pJ/MAC and TOPS/W.
python3 - "$work/out/explore.csv" "$work/out/points/0000/report.json" \
  "$(dirname "$0")/../scripts/synth.sh" <<'PY' || fail "explore.csv lacks physical figures"
import csv, json, os, shutil, sys
rows = list(csv.DictReader(open(sys.argv[1])))
report = json.load(open(sys.argv[2]))
synth = open(sys.argv[3]).read().split("\nset -", 1)[0]
liberty = ("--liberty" in synth and shutil.which("sta") and
           os.path.exists("/usr/share/qflow/tech/osu018/osu018_stdcells.lib"))
for r in rows:
    if liberty:
        for c in ("area_um2", "fmax_mhz", "tops", "tops_per_mm2"):
            assert float(r[c]) > 0, (c, r[c])
        assert abs(float(r["tops"]) - 2 * float(r["macs_per_cycle"]) * float(r["fmax_mhz"]) / 1e6) \
            <= 1e-3 * float(r["tops"]), r
    if "energy" in report:
        assert float(r["energy_pj_per_mac"]) > 0 and float(r["tops_per_w"]) > 0, r
print(f"explore_sweep: physical columns {'checked' if liberty else 'empty (no --liberty flow)'}; "
      f"energy {'checked' if 'energy' in report else 'empty (no energy in the reports)'}")
PY
for png in throughput_vs_area.png energy_vs_throughput.png utilization_vs_rf.png; do
  [ -s "$work/out/$png" ] || fail "$png not written"
done

# Cached: the second run builds and synthesizes nothing.
"$tcu" explore --fidelity full "$sweep" --out "$work/again" --jobs 2 2>"$work/again.log"
cat "$work/again.log" >&2
[ "$(grep -c 'model .*: cached' "$work/again.log")" -eq 2 ] || fail "models were rebuilt"
[ "$(grep -c 'synthesis .*: cached' "$work/again.log")" -eq 2 ] || fail "synthesis re-ran"

# Shards and merge.
"$tcu" explore --fidelity full "$sweep" --out "$work/shard0" --shard 0/2
"$tcu" explore --fidelity full "$sweep" --out "$work/shard1" --shard 1/2
"$tcu" explore merge "$work/shard1" "$work/shard0" --out "$work/merged"
strip() { cut -d, -f1-"$(head -1 "$1" | tr , '\n' | grep -n '^build_s$' | cut -d: -f1)" "$1" |
  sed 's/,[^,]*$//'; }
diff <(strip "$work/out/explore.csv") <(strip "$work/merged/explore.csv") ||
  fail "merged shards differ from the whole sweep"
echo "explore_sweep: passed"
