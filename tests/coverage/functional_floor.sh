#!/usr/bin/env bash
# The functional coverage of a short golden regression (every variant, then
# a mixed stream) keeps its floors (tests/coverage/floor.py): every bin hit
# or waived (spec/coverage_waivers.txt), the generator's directed cases
# included; and the check bites: the same directory with its hits zeroed
# must fail it.
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
echo "ok: the functional coverage keeps its floors; a run that hits nothing does not"
