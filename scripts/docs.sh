#!/usr/bin/env bash
# Builds the documentation site (mkdocs.yml, docs/) with warnings as errors:
# every internal link, anchor and /src/ file link is checked, and the
# generated parts (the CLI reference, the PTX variant table, the tables of
# figures; docs/hooks.py) come from a built tcu and the spec files.
#
#   scripts/docs.sh [--tcu TCU] [--out DIR]   (defaults: build/tcu, build/site)
set -euo pipefail
cd "$(dirname "$0")/.."
tcu=build/tcu
out=build/site
while [ $# -gt 0 ]; do
  case $1 in
    --tcu) tcu=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: scripts/docs.sh [--tcu TCU] [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$tcu" ] || { echo "docs: no tcu at $tcu (build it first: cmake --build build --target tcu)" >&2; exit 2; }
python=${TCU_DOCS_PYTHON:-.venv/bin/python}
# `tcu explore --help` runs the package's tcu-explore from PATH: this venv's.
PATH="$(dirname "$python"):$PATH" TCU_BIN=$(realpath "$tcu") \
  exec "$python" -m mkdocs build --strict -f mkdocs.yml -d "$out"
