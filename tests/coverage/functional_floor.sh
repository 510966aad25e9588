#!/usr/bin/env bash
# The functional coverage of a short golden regression (every variant, then
# a mixed stream) keeps its floors (tests/coverage/floor.py): every bin hit
# or waived (spec/coverage_waivers.txt), the generator's directed cases
# included; and the check bites: the same directory with its hits zeroed
# must fail it, and so must the same runs with no encoding classes drawn
# (--special-rate 0), naming the ue4m3 scales' ignored bit among the bins
# they miss, unless those bins are waived.
#   tests/coverage/functional_floor.sh TCU PYTHON WORKDIR
set -uo pipefail
tcu=$1
python=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
"$tcu" run --engine golden --count 400 --seed 1 --jobs 2 --coverage "$work/variants" >"$work/variants.log" 2>&1 ||
  { cat "$work/variants.log"; exit 1; }
"$tcu" run --engine golden --mix --count 4000 --seed 1 --jobs 2 --coverage "$work/mix" >"$work/mix.log" 2>&1 ||
  { cat "$work/mix.log"; exit 1; }
"$tcu" coverage merge --out "$work/merged" "$work/variants" "$work/mix" >"$work/merge.log" 2>&1 ||
  { cat "$work/merge.log"; exit 1; }
cat "$work/merge.log"
floors=(metadata=1.0 scale=1.0 stream=1.0 operand=FLOOR_OPERAND result=FLOOR_RESULT)
floors=("${floors[@]/FLOOR_OPERAND/${FLOOR_OPERAND:-1.0}}")
floors=("${floors[@]/FLOOR_RESULT/${FLOOR_RESULT:-1.0}}")
"$python" "$here/floor.py" "$work/merged" "${floors[@]}" || exit 1
# The planted twin: every hit zeroed.
mkdir -p "$work/planted"
"$python" - "$work/merged/functional.json" "$work/planted/functional.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for b in doc["bins"]:
    b["hits"] = 0
json.dump(doc, open(sys.argv[2], "w"))
PY
if "$python" "$here/floor.py" "$work/planted" "${floors[@]}" >/dev/null; then
  echo "FAIL: the floors accepted a run that hit nothing"
  exit 1
fi
# The planted miss: the same runs without the special draws.
for run in "--count 400" "--mix --count 4000"; do
  name=plain$(echo "$run" | tr -dc a-z)
  # shellcheck disable=SC2086
  "$tcu" run --engine golden $run --seed 1 --jobs 2 --special-rate 0 --coverage "$work/$name" \
    >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
done
"$tcu" coverage merge --out "$work/plain" "$work/plaincount" "$work/plainmixcount" \
  >"$work/plain-merge.log" 2>&1 || { cat "$work/plain-merge.log"; exit 1; }
if "$python" "$here/floor.py" "$work/plain" "${floors[@]}" >"$work/plain-floor.log"; then
  echo "FAIL: the floors accepted a run that drew no encoding classes"
  exit 1
fi
ue4m3=mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3
grep -qF "missed: $ue4m3 | scale_a.ignored_bits" "$work/plain-floor.log" ||
  { cat "$work/plain-floor.log"; echo "FAIL: the floors did not name ue4m3's ignored bit"; exit 1; }
# ... and holds them once those bins are waived with a reason.
{
  cat "$here/../../spec/coverage_waivers.txt"
  grep '^missed:' "$work/plain-floor.log" | sed 's/^missed: \(.*\)$/\1 | planted: not drawn/'
} >"$work/plain-waivers.txt"
"$tcu" coverage merge --out "$work/plain-waived" --coverage-waivers "$work/plain-waivers.txt" \
  "$work/plaincount" "$work/plainmixcount" >"$work/plain-waived.log" 2>&1 ||
  { cat "$work/plain-waived.log"; exit 1; }
"$python" "$here/floor.py" "$work/plain-waived" "${floors[@]}" >"$work/plain-waived-floor.log" ||
  { cat "$work/plain-waived-floor.log"; echo "FAIL: the waived bins still fail the floors"; exit 1; }
echo "without --special-rate: $(grep -c '^missed:' "$work/plain-floor.log") bins missed, e.g.:"
grep '^missed:' "$work/plain-floor.log" | head -n 5
echo "ok: the functional coverage keeps its floors; a run that hits nothing, or draws no encoding classes, does not (unless its misses are waived)"
