#!/usr/bin/env bash
# Installs what is missing, builds, and passes every test: the main build
# (golden model, RTL units, SystemC front-end, co-verification runs, the
# Python module's pytest suite, a sample of the RTL's mutants: label
# mutation) and a
# clang build with AddressSanitizer + UBSan that also runs the fuzzers.
#
#   scripts/test.sh          the default tier (CI)
#   scripts/test.sh --full   also the second tier: long co-verification runs,
#                            tcu explore's sweep, the slow equivalence checks,
#                            the whole mutation campaign
#                            (ctest label "full") and the synthesis
#                            configuration 'synth' (built only here: its
#                            Verilated C++ is four times the default's), an
#                            hour or more
set -euo pipefail
cd "$(dirname "$0")/.."
tier=(-LE full)
setup_args=()
# The a100 preset (timing calibrated to the A100) has its own RTL
# parameters, the synth configuration the synthesis implementations:
# Verilated for the second tier only.
configs="default;small"
if [ "${1:-}" = --full ]; then
  tier=()
  setup_args=(--full)
  configs="default;small;a100;synth"
elif [ $# -gt 0 ]; then
  echo "usage: scripts/test.sh [--full]" >&2
  exit 2
fi
./scripts/setup.sh "${setup_args[@]}"
jobs=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON \
  -DTCU_CONFIGS="$configs" -DTCU_BUILD_PYTHON=ON -DTCU_MUTATION=ON \
  -DTCU_BYO_RTL=examples/byo/byo_int4_serial.sv -DTCU_BYO_TOP=byo_int4_serial \
  -DPython_EXECUTABLE="$PWD/.venv/bin/python"
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs" "${tier[@]}"

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DTCU_BUILD_RTL=OFF -DTCU_SANITIZE=ON -DTCU_FUZZ=ON \
  -DTCU_BUILD_PYTHON=OFF
cmake --build build-asan -j "$jobs"
ctest --test-dir build-asan --output-on-failure -j "$jobs" "${tier[@]}"
echo "test.sh: all tests passed"
