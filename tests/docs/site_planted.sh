#!/usr/bin/env bash
# The docs build's link check can fail: a copy of docs/ with a link to a
# page that does not exist and a /src/ link to a file that does not exist
# must fail `mkdocs build --strict`, naming both.
#   site_planted.sh SOURCE_DIR PYTHON TCU WORK_DIR
set -uo pipefail
src=$1 python=$2 tcu=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
cp -r "$src/docs" "$src/mkdocs.yml" "$work/" || exit 1
printf '\n[planted](no-such-page.md), [planted source](/src/rtl/no_such_unit.sv)\n' \
  >>"$work/docs/guide/get-started.md"
out=$(cd "$work" && TCU_DOCS_REPO="$src" TCU_BIN="$tcu" \
  "$python" -m mkdocs build --strict -f mkdocs.yml -d "$work/site" 2>&1)
status=$?
if [ $status -eq 0 ]; then
  echo "site_planted: the build passed with the planted broken links"
  exit 1
fi
for planted in no-such-page.md no_such_unit.sv; do
  if ! grep -q "$planted" <<<"$out"; then
    echo "$out" | tail -20
    echo "site_planted: the build failed, but not naming the planted link $planted"
    exit 1
  fi
done
echo "site_planted: the build failed (exit $status) naming both planted links"
