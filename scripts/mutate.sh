#!/usr/bin/env bash
# Mutation testing of the RTL (docs/architecture.md, "Mutation
# testing"): builds the tcu tool with configuration 'mutant' (the small
# configuration's parameters, every mutant of tcu_tools.mutate compiled in and
# chosen at run time) in build-mutate/ (cached: rebuilt only when the RTL or
# the tool changes), runs each mutant through the regression (quick runs,
# then the main job's runs and the vector files; each run within a time
# limit) and prints a table per unit, the survivors, the equivalent mutants
# (spec/mutation_equivalent.txt) apart, and last `killed K of N`.
#
#   scripts/mutate.sh [--sample N] [--seed S] [--jobs J] [--only K,...]
#                     [--quick] [--report FILE] [-v]
#
# Exit 0 when at least 95 % of the non-equivalent mutants are killed.
# `.venv/bin/python -m tcu_tools.mutate list|show K` names and
# shows the mutants (--mutants build-mutate/rtl/mutant/mutants.json).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TCU_MUTATE_BUILD:-build-mutate}
[ -x .venv/bin/python ] || ./scripts/setup.sh
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DTCU_CONFIGS=small -DTCU_MUTATION=ON -DTCU_BUILD_PYTHON=OFF >/dev/null
fi
cmake --build "$build" --target tcu -j "$(nproc)" >/dev/null
exec .venv/bin/python -m tcu_tools.mutate run --tcu "$build/tcu" \
  --mutants "$build/rtl/mutant/mutants.json" --jobs "$(nproc)" "$@"
