#!/usr/bin/env bash
# The RTL's line waivers (spec/coverage_waivers.txt's "rtl/FILE.sv:LINES |
# REASON" lines) on a hand-made coverage part: a Verilator coverage file of
# one module with lines 10 (hit), 12 and 14 (never hit) and a golden run's
# functional.json. Waiving 12 leaves 14 reported as not waived; a waiver
# naming a line the data does not count, or a malformed one, is refused
# with the waiver file's name and line.
#   tests/coverage/line_waivers.sh TCU WORKDIR
set -uo pipefail
tcu=$1
work=$2
rm -rf "$work"
mkdir -p "$work/part"
fail() { echo "FAIL: $*"; cat "$work/out.txt" 2>/dev/null; exit 1; }
"$tcu" run --engine golden --count 1 --ptx mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 \
  --coverage "$work/part" >/dev/null 2>&1 || fail "the golden run with --coverage failed"
mkdir -p "$work/rtl"  # genhtml reads the source
for i in $(seq 1 16); do echo "// line $i"; done >"$work/rtl/tcu_demo.sv"
point() {  # line, hits: one line point of module tcu_demo
  printf "C '\001f\002$work/rtl/tcu_demo.sv\001l\002%s\001n\0023\001page\002v_line/tcu_demo\001o\002block\001S\002%s\001h\002TOP.tcu_demo' %s\n" \
    "$1" "$1" "$2"
}
{ echo "# SystemC::Coverage-3"; point 10 5; point 12 0; point 14 0; } >"$work/part/rtl.dat"
merge() {  # waiver file contents -> exit status, output in out.txt
  printf '%s\n' "$1" >"$work/waivers.txt"
  rm -rf "$work/report"
  "$tcu" coverage merge --out "$work/report" --coverage-waivers "$work/waivers.txt" \
    "$work/part" >"$work/out.txt" 2>&1
}
merge "rtl/tcu_demo.sv:11-12 | a reason" || fail "a valid line waiver was refused"
grep -q "rtl lines      1 / 3 (33.3%); uncovered: 1 waived, 1 not waived" "$work/out.txt" ||
  fail "the summary does not count line 12 waived and 14 not waived"
grep -q "not waived: rtl/tcu_demo.sv:14" "$work/out.txt" || fail "line 14 is not listed"
grep -q "rtl/tcu_demo.sv:12</td><td>a reason" "$work/report/html/index.html" ||
  fail "the HTML report does not show line 12's waiver"
merge "rtl/tcu_demo.sv:12 | a reason
rtl/tcu_demo.sv:14 | another" || fail "two waivers were refused"
grep -q "uncovered: 2 waived, 0 not waived" "$work/out.txt" || fail "both lines should be waived"
merge "# comment

rtl/tcu_demo.sv:20-30 | no such line" && fail "a waiver of lines the data does not count was accepted"
grep -q "waivers.txt:3: rtl/tcu_demo.sv:20-30: no line the coverage build counts" "$work/out.txt" ||
  fail "the stale waiver's error does not name the file, line and lines"
merge "rtl/tcu_demo.sv:1x | typo" && fail "a malformed line waiver was accepted"
grep -q "waivers.txt:1: expected 'rtl/FILE.sv:LINE\[-LINE\] | REASON'" "$work/out.txt" ||
  fail "the malformed waiver's error does not name the file and line"
merge "rtl/tcu_demo.sv:14-12 | backwards" && fail "a backwards range was accepted"
# Verilator run at the source root names its files relative to it
# ("rtl/x.sv", the project's own builds): the same lines counted and waived.
cp -r "$work/part" "$work/part-rel"
sed "s|$work/rtl/|rtl/|g" "$work/part/rtl.dat" >"$work/part-rel/rtl.dat"
printf '%s\n' "rtl/tcu_demo.sv:12 | a reason" >"$work/waivers.txt"
(cd "$work" && "$tcu" coverage merge --out report-rel --coverage-waivers waivers.txt part-rel) \
  >"$work/out.txt" 2>&1 || fail "a waiver on a report with source-root paths was refused"
grep -q "rtl lines      1 / 3 (33.3%); uncovered: 1 waived, 1 not waived" "$work/out.txt" ||
  fail "a report with source-root paths does not count its lines"
echo "ok: line waivers counted, listed, and bad ones refused with file and line"
