#!/usr/bin/env bash
# The register file's bins (group regfile) at the main job's three register
# files, short: the defaults (the collector's and the write-back's bandwidth,
# back-pressure), one bank (a bank conflict that stalls collection and
# write-back) and two banks (a conflict the bandwidth hides), each a mixed
# RTL stream with back-pressure; merged, every regfile bin must be hit. The
# check bites: the same report with the one-bank run left out fails it.
#   tests/coverage/regfile_floor.sh TCU PYTHON WORKDIR
set -uo pipefail
tcu=$1
python=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
for banks in 16 1 2; do
  "$tcu" run --engine rtl --mix --backpressure 0.2 --rf-banks $banks --count 400 --seed 1 \
    --jobs 1 --coverage "$work/banks$banks" >"$work/banks$banks.log" 2>&1 ||
    { cat "$work/banks$banks.log"; exit 1; }
done
"$tcu" coverage merge --out "$work/merged" "$work/banks16" "$work/banks1" "$work/banks2" \
  >"$work/merge.log" 2>&1 || { cat "$work/merge.log"; exit 1; }
grep regfile "$work/merge.log"
"$python" "$here/floor.py" "$work/merged" regfile=1.0 || exit 1
# The planted twin: without the one-bank run no bank conflict stalls.
"$tcu" coverage merge --out "$work/planted" "$work/banks16" "$work/banks2" >/dev/null 2>&1 ||
  exit 1
if "$python" "$here/floor.py" "$work/planted" regfile=1.0 >/dev/null; then
  echo "FAIL: the regfile floor held without a run that has bank stalls"
  exit 1
fi
echo "ok: every regfile bin hit at the three register files; without one bank, not"
