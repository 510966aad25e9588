#!/usr/bin/env bash
# tcu run merge: the shards of a run (golden engine, --record-cases) merged
# equal one process's run case for case; a missing or incomplete shard, a
# duplicated one, one of another run, an unreadable report are each named
# and refused; --compare fails on a tampered case digest, a flipped result
# and a dropped case (the planted faults that show the check can fail).
# Usage: cli_merge.sh path/to/tcu
set -u
tcu=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
check() {  # check DESCRIPTION EXPECTED_EXIT -- command... (output in $dir/out)
  local what=$1 want=$2 code
  shift 3
  "$@" >"$dir/out" 2>&1
  code=$?
  if [ "$code" = "$want" ]; then
    echo "ok: $what"
  else
    echo "FAIL: $what (exit $code, expected $want)"
    head -20 "$dir/out"
    failures=$((failures + 1))
  fi
}
says() {  # says DESCRIPTION TEXT: the last check's output holds TEXT
  if grep -qF -- "$2" "$dir/out"; then
    echo "ok: $1"
  else
    echo "FAIL: $1 (no '$2' in:)"
    head -20 "$dir/out"
    failures=$((failures + 1))
  fi
}

args=(--engine golden --count 23 --first 2 --seed 9)
"$tcu" run "${args[@]}" --jobs 1 --record-cases --report "$dir/single.json" >"$dir/single.out"
mkdir "$dir/shards"
for i in 0 1 2; do
  # Shard 2 split further by --jobs: its children's case records are joined.
  jobs=1
  [ $i = 2 ] && jobs=2
  "$tcu" run "${args[@]}" --shard $i/3 --jobs $jobs --record-cases \
    --report "$dir/shards/shard-$i.json" >/dev/null
done

check "three shards merge and equal the single run case for case" 0 -- \
  "$tcu" run merge "$dir/shards" --report "$dir/merged.json" --junit "$dir/merged.xml" \
  --compare "$dir/single.json"
cp "$dir/out" "$dir/merged.out"
says "merge prints the single run's summary line" "$(tail -1 "$dir/single.out")"
says "--compare counts every case" "case for case ("
check "and the single run's per-variant lines (result, count, variant)" 0 -- bash -c "
  diff <(awk '/^  pass/ { print \$1, \$2, \$NF }' '$dir/single.out') \
    <(awk '/^  pass/ { print \$1, \$2, \$NF }' '$dir/merged.out')"
check "the merged report's counts and cases equal the single run's" 0 -- python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
single, merged = (json.load(open(f"{d}/{n}.json")) for n in ("single", "merged"))
key = lambda r: [(v["ptx"], v["passed"], v["failed"], v["cases"]) for v in r["variants"]]
assert key(single) == key(merged)
assert merged["options"]["shard"] == "0/1" and merged["merged_shards"] == 3
assert sum(len(v["cases"]) for v in merged["variants"]) == 23 * len(merged["variants"])
PY
check "--print-missing: none" 0 -- "$tcu" run merge --print-missing "$dir/shards"
check "--print-missing printed an empty line" 0 -- test "$(cat "$dir/out")" = ""

# A missing shard: named, with the command that re-runs it.
mkdir "$dir/two"
cp "$dir/shards/shard-0.json" "$dir/shards/shard-2.json" "$dir/two/"
check "a missing shard fails the merge" 1 -- "$tcu" run merge "$dir/two"
says "the missing shard is named" "1 of 3 shard(s) missing or incomplete: 1"
says "with the command that re-runs it" "--shard 1/3"
check "--print-missing names it" 0 -- "$tcu" run merge --print-missing "$dir/two"
says "--print-missing prints 1" "1"
check "--shards 5 with reports of 3 is refused" 2 -- "$tcu" run merge --shards 5 "$dir/two"
mkdir "$dir/empty"
check "an empty directory with --shards 4: all missing" 0 -- \
  "$tcu" run merge --print-missing --shards 4 "$dir/empty"
says "0,1,2,3 missing" "0,1,2,3"

# An incomplete shard (a case dropped from its counts and records): missing.
python3 - "$dir/shards/shard-1.json" "$dir/two/shard-1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
v = r["variants"][3]
v["cases"].pop()
v["passed"] -= 1
json.dump(r, open(sys.argv[2], "w"))
PY
check "an incomplete shard fails the merge" 1 -- "$tcu" run merge "$dir/two"
says "and is named incomplete" "shard 1 ($dir/two/shard-1.json) is incomplete"

# Duplicated and inconsistent shards, unreadable reports: exit 2, named.
cp "$dir/shards/shard-0.json" "$dir/dup.json"
check "a shard given twice is refused" 2 -- "$tcu" run merge "$dir/shards" "$dir/dup.json"
says "naming both files" "shard 0/3: $dir/shards/shard-0.json and $dir/dup.json"
"$tcu" run --engine golden --count 23 --first 2 --seed 10 --shard 1/3 --jobs 1 --record-cases \
  --report "$dir/seed10.json" >/dev/null
check "a shard of another seed is refused" 2 -- \
  "$tcu" run merge "$dir/shards/shard-0.json" "$dir/seed10.json" "$dir/shards/shard-2.json"
says "naming the seed" "(seed 9 vs 10)"
"$tcu" run --engine golden --count 23 --first 2 --seed 9 --shard 1/4 --jobs 1 \
  --report "$dir/of4.json" >/dev/null
check "a shard of another shard count is refused" 2 -- \
  "$tcu" run merge "$dir/shards/shard-0.json" "$dir/of4.json"
echo '{"tcu_report": 1, "command": "run"' >"$dir/broken.json"
check "a truncated report is refused" 2 -- "$tcu" run merge "$dir/shards" "$dir/broken.json"
says "naming it" "$dir/broken.json: not a JSON report"
check "a file that is not there is refused" 2 -- "$tcu" run merge "$dir/nothing.json"

# Planted faults: --compare must see a tampered digest, a flipped result, a
# dropped case.
tamper() {  # tamper NAME PYTHON: a copy of the shards with shard 1 changed
  rm -rf "$dir/$1"
  cp -r "$dir/shards" "$dir/$1"
  python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
v = r['variants'][5]
$2
json.dump(r, open(sys.argv[1], 'w'))" "$dir/$1/shard-1.json"
}
tamper digest "v['cases'][2]['d'] = '0' * 16"
check "--compare fails on a tampered D digest" 1 -- \
  "$tcu" run merge "$dir/digest" --compare "$dir/single.json"
says "naming the case" "FAIL: compare: 1 difference(s)"
tamper flipped "v['cases'][0]['ok'] = False; v['passed'] -= 1; v['failed'] += 1"
check "--compare fails on a flipped result" 1 -- \
  "$tcu" run merge "$dir/flipped" --compare "$dir/single.json"
says "the counts differ" "differs: "
tamper reindexed "v['cases'][1]['case'] += 3"
check "--compare fails on a case of another index" 1 -- \
  "$tcu" run merge "$dir/reindexed" --compare "$dir/single.json"
"$tcu" run "${args[@]}" --jobs 1 --report "$dir/no-cases.json" >/dev/null
check "--compare needs case records" 2 -- "$tcu" run merge "$dir/shards" --compare "$dir/no-cases.json"
says "and says so" "run with --record-cases"
check "--compare takes a whole run, not a shard" 2 -- \
  "$tcu" run merge "$dir/shards" --compare "$dir/shards/shard-1.json"
"$tcu" run --engine golden --count 23 --first 2 --seed 10 --jobs 1 --record-cases \
  --report "$dir/other-run.json" >/dev/null
check "--compare refuses another run" 2 -- \
  "$tcu" run merge "$dir/shards" --compare "$dir/other-run.json"

# --mix: shards of one stream merge into it.
mkdir "$dir/mix"
"$tcu" run --engine golden --mix --count 50 --seed 4 --jobs 1 --record-cases \
  --report "$dir/mix-single.json" >/dev/null
for i in 0 1; do
  "$tcu" run --engine golden --mix --count 50 --seed 4 --shard $i/2 --jobs 1 --record-cases \
    --report "$dir/mix/shard-$i.json" >/dev/null
done
check "--mix shards equal the single stream case for case" 0 -- \
  "$tcu" run merge "$dir/mix" --compare "$dir/mix-single.json"
rm "$dir/mix/shard-0.json"
check "--mix: a missing shard is named" 1 -- "$tcu" run merge "$dir/mix"
says "shard 0" "missing or incomplete: 0"

if [ "$failures" -ne 0 ]; then
  echo "cli_merge: $failures check(s) failed"
  exit 1
fi
echo "cli_merge: all checks passed"
