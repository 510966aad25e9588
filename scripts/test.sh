#!/usr/bin/env bash
# Installs what is missing, builds, and passes every test: the main build
# (golden model, RTL units, SystemC front-end, co-verification runs at the
# configurations default and small, every vector file and a mix under
# back-pressure on the synthesis configuration synth, the Python module's
# pytest suite, a sample of the RTL's mutants: label mutation) and a clang
# build with AddressSanitizer + UBSan that also runs the fuzzers.
#
#   scripts/test.sh          the default tier (CI)
#   scripts/test.sh --full   also the second tier: long co-verification runs,
#                            tcu explore's sweep, the slow equivalence checks,
#                            the whole mutation campaign (ctest label "full"),
#                            the a100 configuration, hours
set -euo pipefail
cd "$(dirname "$0")/.."
tier=(-LE full)
setup_args=()
# The a100 preset (timing calibrated to the A100) has its own RTL
# parameters: Verilated for the second tier only.
configs="default;small;synth"
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

# The sanitizer build (no Verilated model) is configured and built beside
# the main configure, whose Verilator runs (one a configuration) keep one
# core busy and the other idle; its output goes to build-asan/build.log,
# shown if it fails.
mkdir -p build-asan
(
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DTCU_BUILD_RTL=OFF -DTCU_SANITIZE=ON -DTCU_FUZZ=ON \
    -DTCU_BUILD_PYTHON=OFF
  cmake --build build-asan -j 1
) >build-asan/build.log 2>&1 &
asan_build=$!
trap 'kill "$asan_build" 2>/dev/null || true' EXIT

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON \
  -DTCU_CONFIGS="$configs" -DTCU_BUILD_PYTHON=ON -DTCU_MUTATION=ON \
  -DTCU_BYO_RTL=examples/byo/byo_int4_serial.sv -DTCU_BYO_TOP=byo_int4_serial \
  -DPython_EXECUTABLE="$PWD/.venv/bin/python"
cmake --build build -j "$jobs"
if ! wait "$asan_build"; then
  tail -n 60 build-asan/build.log
  echo "test.sh: the sanitizer build failed (build-asan/build.log)" >&2
  exit 1
fi
echo "test.sh: the sanitizer build passed (its log: build-asan/build.log)"
ctest --test-dir build --output-on-failure -j "$jobs" "${tier[@]}"
ctest --test-dir build-asan --output-on-failure -j "$jobs" "${tier[@]}"
echo "test.sh: all tests passed"
