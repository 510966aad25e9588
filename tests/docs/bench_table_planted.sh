#!/usr/bin/env bash
# The speed-table check can fail: a copy of README.md whose table has one
# figure changed, and a data file without families, must be refused
# (python -m tcu_tools.bench_table --check: exit 1 naming the page; exit 2
# naming the data file).
#   bench_table_planted.sh SOURCE_DIR PYTHON WORK_DIR
set -uo pipefail
src=$1 python=$2 work=$3
rm -rf "$work" && mkdir -p "$work/docs/data" || exit 1
cp "$src/docs/data/bench.json" "$work/docs/data/" || exit 1
# The first figure of the first row inside the section, one digit changed.
sed '/bench-table:begin/,/bench-table:end/{/^| int4/{s/| \([0-9]\)/| 9\1/;};}' \
  "$src/README.md" >"$work/README.md"
if cmp -s "$src/README.md" "$work/README.md"; then
  echo "bench_table_planted: no figure to change in README.md's table"
  exit 1
fi
out=$("$python" -m tcu_tools.bench_table --data "$work/docs/data/bench.json" \
  --check "$work/README.md" 2>&1)
status=$?
if [ $status -ne 1 ] || ! grep -q "README.md: the speed table" <<<"$out"; then
  echo "bench_table_planted: a changed figure was not refused (exit $status): $out"
  exit 1
fi
echo '{"version": "x", "families": []}' >"$work/docs/data/bench.json"
out=$("$python" -m tcu_tools.bench_table --data "$work/docs/data/bench.json" \
  --check "$work/README.md" 2>&1)
status=$?
if [ $status -ne 2 ] || ! grep -q "bench.json: no 'families'" <<<"$out"; then
  echo "bench_table_planted: a data file without families was not refused (exit $status): $out"
  exit 1
fi
echo "bench_table_planted: both refused"
