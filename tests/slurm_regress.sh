#!/usr/bin/env bash
# Regressions on a real SLURM cluster (second tier; CTest labels slurm, full):
# a one-node cluster (munged, slurmctld, slurmd) started on localhost in a
# temporary directory; scripts/slurm_regress.sh submits a golden `tcu run` as
# a 4-task job array, one task is killed (scancel of one array index while it
# runs), `tcu run merge` names that shard missing, the script run again
# submits only that shard, and the merged report equals a single-process
# run case for case (and a tampered shard does not); an RTL run as a 2-task
# array the same way; a two-point `tcu explore --shard` array merged with
# `tcu explore merge` (a shard left out is named) equals one process's sweep.
# The daemons are stopped at the end, failure or not. Exit 77 (skipped)
# when slurm-wlm or munge is not installed (scripts/setup.sh --full).
#   tests/slurm_regress.sh TCU SOURCE_DIR WORK_DIR
set -euo pipefail
tcu=$1
src=$2
work=$3
export PATH=$PATH:/usr/sbin
for tool in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol; do
  if ! command -v "$tool" >/dev/null; then
    echo "slurm_regress: SKIP: $tool not found: slurm-wlm and munge are not installed" \
      "(scripts/setup.sh --full installs them)"
    exit 77
  fi
done
fail() {
  echo "slurm_regress: FAIL: $*" >&2
  exit 1
}
[ "$(id -u)" = 0 ] || fail "needs root (slurmd runs the jobs as their owner, munged and slurmd as root)"

# Everything of an earlier run but the explore model cache (keyed by the RTL
# sources: a model built for these sources is the one a rebuild would give).
mkdir -p "$work"
find "$work" -mindepth 1 -maxdepth 1 ! -name explore-cache -exec rm -rf {} +
# A short path: munge's socket lives in it.
cluster=$(mktemp -d /tmp/tcu-slurm.XXXXXX)
stop_cluster() {
  "$src/scripts/slurm/local_cluster.sh" stop "$cluster" || true
  if [ -n "${keep_logs:-}" ]; then cp -r "$cluster/log" "$work/cluster-log" 2>/dev/null || true; fi
  rm -rf "$cluster"
}
keep_logs=1
trap stop_cluster EXIT
"$src/scripts/slurm/local_cluster.sh" start "$cluster"
export SLURM_CONF=$cluster/slurm.conf
regress=$src/scripts/slurm_regress.sh

until_true() {  # until_true SECONDS WHAT COMMAND...: poll every 0.1 s
  local seconds=$1 what=$2 i
  shift 2
  for i in $(seq $((seconds * 10))); do
    "$@" && return 0
    sleep 0.1
  done
  fail "timed out after $seconds s waiting for $what"
}
task_state() { squeue -h -j "$1" -o %t 2>/dev/null | head -1; }
running() { [ "$(task_state "$1")" = R ]; }
submitted() { grep -q "submitted job" "$1"; }

# ---- golden: 4 shards, task 1 killed while it runs -----------------------------
# Task 1 sleeps before its tcu run (--prelude), so that it is surely running
# when it is cancelled.
args=(--engine golden --count 100 --seed 21)
"$regress" --tasks 4 --out "$work/golden" --retries 0 --poll 0.2 --tcu "$tcu" \
  --prelude '[ "$SLURM_ARRAY_TASK_ID" != 1 ] || sleep 600' -- "${args[@]}" \
  >"$work/first.log" 2>&1 &
script=$!
until_true 60 "the array's submission" submitted "$work/first.log"
job=$(sed -n 's/^slurm_regress: submitted job \([0-9]*\):.*/\1/p' "$work/first.log")
until_true 60 "task ${job}_1 to run" running "${job}_1"
echo "slurm_regress: array job $job: cancelling task 1 while it runs"
scancel "${job}_1"
code=0
wait "$script" || code=$?
cat "$work/first.log"
[ "$code" = 1 ] || fail "slurm_regress.sh with a killed task exited $code, expected 1"
grep -qF "1 of 4 shard(s) missing or incomplete: 1" "$work/first.log" ||
  fail "the script's merge did not name shard 1 missing"
[ ! -e "$work/golden/shards/shard-1.json" ] || fail "the killed task left a report"
code=0
"$tcu" run merge "$work/golden/shards" >"$work/merge-missing.log" 2>&1 || code=$?
cat "$work/merge-missing.log"
[ "$code" = 1 ] && grep -qF "missing or incomplete: 1" "$work/merge-missing.log" ||
  fail "tcu run merge did not report shard 1 missing (exit $code)"
kept=$(stat -c %Y.%i "$work/golden/shards/shard-0.json")

# Resumed: only shard 1 is submitted.
"$regress" --tasks 4 --out "$work/golden" --poll 0.2 --tcu "$tcu" -- "${args[@]}" \
  >"$work/second.log" 2>&1 || { cat "$work/second.log"; fail "the resumed run failed"; }
tail -3 "$work/second.log"
grep -qE "^slurm_regress: submitted job [0-9]+: shards 1 of 4$" "$work/second.log" ||
  fail "the resumed run did not submit shard 1 alone"
[ "$(grep -c "submitted job" "$work/second.log")" = 1 ] || fail "the resumed run submitted twice"
[ "$(stat -c %Y.%i "$work/golden/shards/shard-0.json")" = "$kept" ] || fail "shard 0 was re-run"

"$tcu" run "${args[@]}" --jobs 1 --record-cases --report "$work/golden-single.json" >/dev/null
"$tcu" run merge "$work/golden/shards" --compare "$work/golden-single.json" | tail -2 ||
  fail "the merged shards differ from the single-process run"
python3 - "$work/golden/report.json" "$work/golden-single.json" <<'PY' ||
import json, sys
merged, single = (json.load(open(p)) for p in sys.argv[1:])
key = lambda r: [(v["ptx"], v["passed"], v["failed"], v["cases"]) for v in r["variants"]]
assert key(merged) == key(single), "OUT/report.json differs from the single run"
assert merged["passed"] == 100 * len(merged["variants"]), merged["passed"]
PY
  fail "the script's merged report differs from the single-process run"

# Planted fault: a tampered case in one shard must fail the comparison.
cp -r "$work/golden/shards" "$work/tampered"
python3 - "$work/tampered/shard-2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
case = r["variants"][7]["cases"][10]
case["d"] = format(int(case["d"], 16) ^ 1, "016x")
json.dump(r, open(sys.argv[1], "w"))
PY
code=0
"$tcu" run merge "$work/tampered" --compare "$work/golden-single.json" >"$work/tampered.log" 2>&1 ||
  code=$?
tail -3 "$work/tampered.log"
[ "$code" = 1 ] && grep -q "FAIL: compare: 1 difference" "$work/tampered.log" ||
  fail "a tampered shard passed the comparison (exit $code)"

# ---- RTL: 2 shards under back-pressure ---------------------------------------------
rtl_args=(--engine rtl --count 6 --seed 5 --backpressure 0.2)
"$regress" --tasks 2 --out "$work/rtl" --poll 0.2 --tcu "$tcu" -- "${rtl_args[@]}" \
  >"$work/rtl.log" 2>&1 || { cat "$work/rtl.log"; fail "the RTL array failed"; }
tail -3 "$work/rtl.log"
"$tcu" run "${rtl_args[@]}" --jobs 1 --record-cases --report "$work/rtl-single.json" >/dev/null
"$tcu" run merge "$work/rtl/shards" --compare "$work/rtl-single.json" | tail -2 ||
  fail "the merged RTL shards differ from the single-process run"

# ---- tcu explore --shard as a 2-task array ---------------------------------------
export TCU_EXPLORE_CACHE=$work/explore-cache
explore_args=(--fidelity full --axis backpressure=0,0.3 --mix 24 --seed 3 --no-synth --jobs 1)
mkdir -p "$work/explore"
# Each task brings the base build (tcu's) up to date first; bring it up to
# date once here, so that the two tasks do not build it at once.
cmake --build "$(dirname "$tcu")" --target tcu >"$work/base-build.log" 2>&1 ||
  { tail -20 "$work/base-build.log"; fail "the base build failed"; }
job=$(sbatch --parsable --array=0-1 --job-name=tcu-explore --output="$work/explore/task-%a.out" \
  --chdir="$work/explore" --wrap "$(printf '%q ' "$tcu" explore "${explore_args[@]}") \
--shard \$SLURM_ARRAY_TASK_ID/2 --out shard-\$SLURM_ARRAY_TASK_ID")
job=${job%%;*}
echo "slurm_regress: explore array job $job"
gone() { [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
until_true 1200 "the explore array" gone "$job"
cat "$work/explore"/task-*.out
code=0
"$tcu" explore merge "$work/explore/shard-0" --out "$work/explore/part" \
  >"$work/explore-missing.log" 2>&1 || code=$?
cat "$work/explore-missing.log"
[ "$code" = 1 ] && grep -qF "shards missing: 1 of 2" "$work/explore-missing.log" ||
  fail "tcu explore merge did not name shard 1 missing (exit $code)"
"$tcu" explore merge "$work/explore/shard-0" "$work/explore/shard-1" --out "$work/explore/merged" ||
  fail "tcu explore merge of both shards failed"
"$tcu" explore "${explore_args[@]}" --out "$work/explore/single" ||
  fail "the single-process sweep failed"
python3 - "$work/explore/merged/explore.csv" "$work/explore/single/explore.csv" <<'PY' ||
import csv, sys
merged, single = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
# Every column but the times (build_s, run_s, ...).
strip = lambda rows: [{k: v for k, v in r.items() if not k.endswith("_s")} for r in rows]
assert len(merged) == 2 and all(r["status"] == "ok" for r in merged), merged
assert strip(merged) == strip(single), (strip(merged), strip(single))
PY
  fail "the merged explore shards differ from the single-process sweep"

keep_logs=
echo "slurm_regress: passed"
