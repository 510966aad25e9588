#!/usr/bin/env bash
# tcu explore as a user runs it: the package tcu_tools installed from its
# wheel (a regular install, not editable) into a virtual environment of its
# own whose bin/ is on PATH, and a two-point fast sweep run from a directory
# outside the checkout. tcu finds the package's command tcu-explore on PATH
# and its own build's `tcu` module beside itself; the package reads the
# spec and the characterization from its package data.
#   tests/explore_installed.sh TCU VENV_PYTHON SOURCE_DIR [--plant-no-data]
# --plant-no-data builds the wheel without the package data (tcu_tools/data):
# the sweep must then fail.
set -euo pipefail
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }  # links kept (a venv's python)
tcu=$(abs "$1") python=$(abs "$2") src=$(cd "$3" && pwd) plant=${4:-}
if ! compgen -G "$(dirname "$tcu")/python/tcu*.so" >/dev/null; then
  echo "$(basename "$0"): no tcu Python module in $(dirname "$tcu")/python: skipped" >&2
  exit 77
fi
fail() { echo "explore_installed: FAIL: $*" >&2; exit 1; }
# Outside the checkout (and outside the build, which may lie in it).
work=$(mktemp -d "${TMPDIR:-/tmp}/explore_installed.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/elsewhere"
# The package's sources with their links resolved, as an sdist holds them
# (the wheel is built there: nothing is written into the checkout).
cp -rL "$src/python" "$work/src"
rm -rf "$work/src/build" "$work/src"/*.egg-info
[ "$plant" = --plant-no-data ] && rm -r "$work/src/tcu_tools/data"
"$python" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation \
  -w "$work/wheel" "$work/src"
"$python" -m venv --without-pip "$work/venv"
"$python" -m pip --python "$work/venv/bin/python" install -q --disable-pip-version-check \
  --no-deps "$work"/wheel/tcu_tools-*.whl
# Its dependencies (numpy, matplotlib, plotly, onnx): those installed in the
# project's .venv, after the venv's own packages.
"$python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))' \
  >"$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/deps.pth"
where=$(cd "$work/elsewhere" && "$work/venv/bin/python" -c 'import tcu_tools; print(tcu_tools.__file__)')
(cd "$work/elsewhere" && "$work/venv/bin/python" -c 'import tcu_tools; tcu_tools.source_dir()' \
  2>/dev/null) && fail "$work/elsewhere is inside a checkout"
case $where in
  "$work/venv/"*) ;;
  *) fail "tcu_tools imported from $where, not the venv's regular install" ;;
esac
cd "$work/elsewhere"
sweep=(--axis IntStages=1,2 --ptx mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32
       --m 64 --n 64 --k 256)
# As tcu runs it: its build the base (the characterization checked against
# that build's checkout); then with no base (TCU_EXPLORE_BASE empty): the
# characterization from the package data, unchecked, as stderr says.
for base in build none; do
  status=0
  if [ $base = build ]; then
    PATH="$work/venv/bin:$PATH" "$tcu" explore "${sweep[@]}" --out "$work/elsewhere/$base" \
      >"$work/$base.log" 2>&1 || status=$?
  else
    PATH="$work/venv/bin:$PATH" TCU_EXPLORE_BASE= "$tcu" explore "${sweep[@]}" \
      --out "$work/elsewhere/$base" >"$work/$base.log" 2>&1 || status=$?
  fi
  cat "$work/$base.log"
  [ "$status" = 0 ] || fail "tcu explore exited $status"
  rows=$(($(wc -l <"$work/elsewhere/$base/explore.csv") - 1))
  [ "$rows" = 2 ] || fail "explore.csv has $rows points, not 2"
done
grep -qF "stamps are not checked" "$work/none.log" ||
  fail "without a base and a checkout, stderr does not say the characterization is unchecked"
cmp -s <(cut -d, -f1-40 "$work/elsewhere/build/explore.csv") \
  <(cut -d, -f1-40 "$work/elsewhere/none/explore.csv") ||
  fail "the package's characterization gives other figures than the checkout's"
echo "explore_installed: 2 points twice from $where, run in $work/elsewhere"
