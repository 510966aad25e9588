#!/usr/bin/env bash
# Measures the speed table again: `tcu bench --cpu-time --json` at the
# default configuration into docs/data/bench.json, then README.md's marked
# section rewritten from it (python -m tcu_tools.bench_table). The
# documentation site renders the same file when it is built.
#
#   scripts/bench_table.sh [TCU]     TCU: the tool (default build/tcu)
set -euo pipefail
cd "$(dirname "$0")/.."
tcu=${1:-build/tcu}
mkdir -p docs/data
"$tcu" bench --cpu-time --json >docs/data/bench.json.new
mv docs/data/bench.json.new docs/data/bench.json
.venv/bin/python -m tcu_tools.bench_table --write README.md
echo "bench_table: docs/data/bench.json and README.md's table rewritten"
