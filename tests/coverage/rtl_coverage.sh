#!/usr/bin/env bash
# scripts/coverage.sh end to end at short counts (second tier: it builds the
# coverage configuration): rtl.info (lcov) with the RTL's lines, the HTML
# reports, the datapath checker's cover points as bins of group rtl; the
# line and functional floors hold (tests/coverage/floor.py) and a copy of
# the report with every line's hits zeroed fails them.
#   tests/coverage/rtl_coverage.sh PYTHON WORKDIR
set -uo pipefail
python=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rm -rf "$work"
mkdir -p "$work"
COVERAGE_DIR=$work/report TCU_COUNT=${TCU_COUNT:-100} TCU_MIX_COUNT=${TCU_MIX_COUNT:-3000} \
  "$repo/scripts/coverage.sh" >"$work/coverage.log" 2>&1 || { tail -40 "$work/coverage.log"; exit 1; }
tail -8 "$work/coverage.log"
for f in rtl.info rtl.dat functional.json html/index.html html/rtl/index.html; do
  [ -s "$work/report/$f" ] || { echo "FAIL: no $f"; exit 1; }
done
grep -q '"group": "rtl"' "$work/report/functional.json" ||
  { echo "FAIL: no cover points (group rtl) in functional.json"; exit 1; }
floors=(lines=${FLOOR_LINES:-0.90} metadata=1.0 stream=1.0 regfile=1.0)
"$python" "$here/floor.py" "$work/report" "${floors[@]}" || exit 1
mkdir -p "$work/planted"
cp "$work/report/functional.json" "$work/planted/"
sed 's/^\(DA:[0-9]*\),[0-9]*/\1,0/' "$work/report/rtl.info" >"$work/planted/rtl.info"
if "$python" "$here/floor.py" "$work/planted" "${floors[@]}" >/dev/null; then
  echo "FAIL: the floors accepted a report whose lines were never hit"
  exit 1
fi
# tcu replay --coverage in the same build writes the RTL's code coverage too.
build=$repo/${COVERAGE_BUILD:-build-coverage}
"$build/tcu" replay --engine rtl "$repo/tests/data/silicon-h200-f64-rounding-public.jsonl.gz" \
  --coverage "$work/replay" >"$work/replay.log" 2>&1 || { tail -20 "$work/replay.log"; exit 1; }
for f in rtl.info rtl.dat functional.json html/index.html html/rtl/index.html; do
  [ -s "$work/replay/$f" ] || { echo "FAIL: tcu replay --coverage wrote no $f"; exit 1; }
done
echo "ok: RTL code coverage written and kept above its floors; a report with no line hit fails"
