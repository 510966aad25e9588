#!/usr/bin/env bash
# Everyday behaviour of the tcu tool: --version, list, defaults in --help,
# --report/--junit, run --jobs (merged results equal the in-process run's,
# explicit --shard splits further), the progress line only on a terminal.
# Usage: cli_usage.sh path/to/tcu
set -u
tcu=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
check() {  # check DESCRIPTION -- command... (passes if the command exits 0)
  local what=$1
  shift 2
  if "$@" >"$dir/check.out" 2>&1; then
    echo "ok: $what"
  else
    echo "FAIL: $what"
    head -20 "$dir/check.out"
    failures=$((failures + 1))
  fi
}
has() { grep -qF -- "$1" "$2"; }

"$tcu" --version >"$dir/version" 2>&1
check "--version names the version and the git hash" -- grep -qE '^tcu [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]+|unknown)\)' "$dir/version"
if grep -q "engines: golden, rtl" "$dir/version"; then
  check "--version names Verilator, SystemC and the configurations" -- \
    bash -c "grep -q '^Verilator [0-9]' '$dir/version' && grep -q '^SystemC [0-9]' '$dir/version' && grep -q '^RTL configurations: default: ' '$dir/version'"
  "$tcu" run --engine rtl --count 2 --jobs 1 --ptx mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 \
    >"$dir/rtl.out" 2>&1
  check "no SystemC banner without --banner" -- bash -c "! grep -qi copyright '$dir/rtl.out'"
fi

"$tcu" list --plain >"$dir/list"
check "list: every spelling is accepted by run --ptx" -- bash -c "
  args=(); while read -r ptx; do args+=(--ptx \"\$ptx\"); done <'$dir/list'
  '$tcu' run --engine golden --count 1 --jobs 1 \"\${args[@]}\" >'$dir/list.run' &&
  [ \$(grep -c '^  pass 1/1' '$dir/list.run') -eq \$(wc -l <'$dir/list') ]"
"$tcu" list >"$dir/list.grouped"
check "list groups by family" -- bash -c "grep -q '^int4_sparse:' '$dir/list.grouped' && grep -q '^e2m1:' '$dir/list.grouped'"
"$tcu" run --help >"$dir/help"
check "run --help shows defaults" -- bash -c "grep -q 'count.*=1000' '$dir/help' && grep -q 'seed.*=1' '$dir/help'"

# --jobs: the children's merged results equal one process's, per variant.
"$tcu" run --engine golden --count 37 --seed 5 --jobs 1 --report "$dir/one.json" >"$dir/one.out"
"$tcu" run --engine golden --count 37 --seed 5 --jobs 3 --report "$dir/three.json" \
  --junit "$dir/three.xml" >"$dir/three.out"
check "--jobs 3 ends with the same summary line as --jobs 1" -- \
  bash -c "[ \"\$(tail -1 '$dir/one.out')\" = \"\$(tail -1 '$dir/three.out')\" ] && grep -q '^3 jobs' '$dir/three.out'"
check "golden run says it is a self-check" -- has "not a verification pass" "$dir/one.out"
check "reports: header first, per-variant counts equal across --jobs" -- python3 - "$dir" <<'PY'
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
one, three = (json.load(open(f"{d}/{n}.json")) for n in ("one", "three"))
assert list(one)[:5] == ["tcu_report", "seed", "configuration", "options", "version"], list(one)
assert one["seed"] == 5 and three["options"]["jobs"] == 3 and one["options"]["jobs"] == 1
counts = lambda r: [(v["ptx"], v["passed"], v["failed"]) for v in r["variants"]]
assert counts(one) == counts(three), "merged per-variant counts differ"
assert all(p == 37 and f == 0 for _, p, f in counts(one))
suites = ET.parse(f"{d}/three.xml").getroot()
cases = suites.findall("./testsuite/testcase")
assert [c.get("name") for c in cases] == [v["ptx"] for v in three["variants"]]
assert not suites.findall(".//failure")
PY

# An explicit shard split further by --jobs covers exactly that shard.
"$tcu" run --engine golden --count 41 --first 3 --shard 1/3 --jobs 1 --report "$dir/s1.json" \
  --ptx mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 >/dev/null
"$tcu" run --engine golden --count 41 --first 3 --shard 1/3 --jobs 4 --report "$dir/s4.json" \
  --ptx mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 >/dev/null
check "--shard 1/3 --jobs 4 runs the cases of --shard 1/3" -- python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
want = len([i for i in range(3, 44) if i % 3 == 1])
for name in ("s1", "s4"):
    v = json.load(open(f"{d}/{name}.json"))["variants"]
    assert [(x["passed"], x["failed"]) for x in v] == [(want, 0)], (name, v)
PY

# --mix: one stream of the variants; a case's variant follows from
# (seed, index), so a case alone (--first I --count 1) is the same variant,
# and --jobs splits the stream without changing any case.
"$tcu" run --engine golden --mix --count 40 --seed 7 --jobs 1 --report "$dir/mix1.json" >/dev/null
"$tcu" run --engine golden --mix --count 40 --seed 7 --jobs 3 --report "$dir/mix3.json" >/dev/null
for i in $(seq 0 39); do
  "$tcu" run --engine golden --mix --seed 7 --first "$i" --count 1 --report "$dir/mix-$i.json" \
    >/dev/null
done
check "--mix: per-variant counts equal across --jobs and over single cases" -- python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
counts = lambda r: [(v["ptx"], v["passed"], v["failed"]) for v in r["variants"]]
one, three = (json.load(open(f"{d}/{n}.json")) for n in ("mix1", "mix3"))
assert one["options"]["mix"] is True
assert counts(one) == counts(three), "--jobs 3 changed the mix"
assert sum(p for _, p, _ in counts(one)) == 40 and len([1 for _, p, _ in counts(one) if p]) > 10
single = [0] * len(one["variants"])
for i in range(40):
    for k, v in enumerate(json.load(open(f"{d}/mix-{i}.json"))["variants"]):
        single[k] += v["passed"]
assert single == [p for _, p, _ in counts(one)], "a case alone is another variant"
PY

"$tcu" replay --report "$dir/replay.json" --junit "$dir/replay.xml" \
  "$(dirname "$0")/data/silicon-h200-f64-rounding-public.jsonl.gz" >/dev/null
check "replay reports name the file of each variant" -- python3 - "$dir" <<'PY'
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
r = json.load(open(f"{d}/replay.json"))
assert r["seed"] is None and r["command"] == "replay" and len(r["variants"]) == 5
assert all(v["file"].endswith("f64-rounding-public.jsonl.gz") and v["passed"] == 32 for v in r["variants"])
assert len(ET.parse(f"{d}/replay.xml").getroot().findall("./testsuite/testcase")) == 5
PY

# Progress: nothing on stderr when it is not a terminal; a line on one.
ptx=mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3
"$tcu" run --engine golden --count 3 --jobs 2 --ptx "$ptx" >/dev/null 2>"$dir/err"
check "no progress output when stderr is not a terminal" -- test ! -s "$dir/err"
if command -v script >/dev/null; then
  # A run far too long to finish, stopped (jobs included: timeout signals
  # its process group) once the line has had time to appear.
  script -qec "timeout -s INT 5 '$tcu' run --engine golden --count 100000000 --jobs 2 \
    --ptx '$ptx'" /dev/null >"$dir/tty" 2>&1
  check "progress line on a terminal (cases, rate, time left)" -- bash -c "
    grep -qE '[1-9][0-9]*/100000000 cases \([0-9]+%\)  [0-9]+/s  [0-9:]+ left' '$dir/tty' ||
    { tr '\r' '\n' <'$dir/tty' | tail -5; false; }"
fi
exit $((failures > 0))
