#!/usr/bin/env bash
# Installs what is missing, builds, and passes every test: the main build
# (golden model, RTL units, SystemC front-end, co-verification runs at the
# configurations default and small, every vector file and a mix under
# back-pressure on the synthesis configuration synth, the Python module's
# pytest suite) and a clang build with AddressSanitizer + UBSan that also
# runs the fuzzers. The tiers, what runs in which and why:
# docs/guide/test-tiers.md.
#
#   scripts/test.sh          the default tier (CI), its budget 10 minutes on
#                            two cores from a fresh clone
#   scripts/test.sh --full   also the second tier: long co-verification runs,
#                            tcu explore's sweep, the slow equivalence checks,
#                            the mutation sample and the whole campaign
#                            (configuration 'mutant'), the a100 and deep
#                            configurations (ctest label "full"), hours
#
# With TCU_TEST_TIMES=FILE each phase appends a line to FILE: its name, the
# CPU times of its process tree and its start and end (python -m
# tcu_tools.costs.phases FILE records them in docs/data/costs.toml).
set -euo pipefail
[ -z "${TCU_TEST_TIMES:-}" ] || TCU_TEST_TIMES=$(realpath -m "$TCU_TEST_TIMES")
cd "$(dirname "$0")/.."

# phase NAME COMMAND...: runs COMMAND; with TCU_TEST_TIMES set, in a subshell
# whose `times` (its children's user and system time: the command's whole
# process tree) it appends to that file as "NAME USER SYS START END".
phase() {
  local name=$1
  shift
  if [ -z "${TCU_TEST_TIMES:-}" ]; then
    "$@"
    return
  fi
  (
    start=$EPOCHREALTIME
    status=0
    "$@" || status=$?
    usage=$(mktemp)
    times >"$usage"  # in this shell: a substitution's would be its own
    echo "$name $(tail -n 1 "$usage") $start $EPOCHREALTIME" >>"$TCU_TEST_TIMES"
    rm -f "$usage"
    exit "$status"
  )
}
tier=(-LE full)
setup_args=()
# The a100 preset (timing calibrated to the A100) has its own RTL
# parameters: Verilated for the second tier only.
configs="default;small;synth"
# The mutation campaign's model (configuration 'mutant', every mutant
# compiled in): the second tier only.
mutation=OFF
# The second tier's own test models (the router's synthesis forms).
full=OFF
# The synthesis configuration's per-cycle code: -O0 for the default tier's
# short runs on it (its 35 batches compile in about a third of -O1's CPU
# time, the runs take about three times as long: less CPU time in all, its
# figures in docs/data/costs.toml, synth-O0-total and synth-O1-total), -O1
# for the second tier's long ones (docs/guide/test-tiers.md).
synth_opt=-O0
# The golden model's unit tests: the sanitizer build's in the default tier,
# both builds' in the second (tests/CMakeLists.txt, TCU_GOLDEN_UNIT_TESTS).
golden_unit_tests=OFF
if [ "${1:-}" = --full ]; then
  tier=()
  setup_args=(--full)
  configs="default;small;a100;deep;synth"
  mutation=ON
  full=ON
  synth_opt=-O1
  golden_unit_tests=ON
elif [ $# -gt 0 ]; then
  echo "usage: scripts/test.sh [--full]" >&2
  exit 2
fi
# The Debian packages first: the sanitizer build (no Verilated model, no
# .venv) starts then and runs beside everything else, its tests as soon as
# it is built (one job each: the setup of .venv and the main configure's
# Verilator runs keep one core busy, and the main build and tests take the
# two cores with it as a third job, so that no core idles in their serial
# steps); its output goes to build-asan/build.log, shown if it fails.
phase setup-packages ./scripts/setup.sh --packages "${setup_args[@]}"
jobs=$(nproc)
mkdir -p build-asan
sanitizer_build() {
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DTCU_BUILD_RTL=OFF -DTCU_SANITIZE=ON -DTCU_FUZZ=ON \
    -DTCU_BUILD_PYTHON=OFF &&
    cmake --build build-asan -j 1
}
(
  phase sanitizer-configure-build sanitizer_build
  echo "test.sh: the sanitizer build passed"
  phase sanitizer-tests ctest --test-dir build-asan --output-on-failure -j 1 "${tier[@]}"
) >build-asan/build.log 2>&1 &
asan=$!
trap 'kill "$asan" 2>/dev/null || true' EXIT
phase setup ./scripts/setup.sh "${setup_args[@]}"

# The main build by clang++ (scripts/setup.sh installs it): it compiles the
# project's C++, the Verilated models above all, in about three quarters of
# g++'s CPU time (docs/guide/test-tiers.md).
phase main-configure cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DTCU_CONFIGS="$configs" -DTCU_BUILD_PYTHON=ON -DTCU_MUTATION=$mutation -DTCU_FULL_TIER=$full \
  -DTCU_VERILATED_OPT_FAST_SYNTH=$synth_opt -DTCU_GOLDEN_UNIT_TESTS=$golden_unit_tests \
  -DTCU_BYO_RTL=examples/byo/byo_int4_serial.sv -DTCU_BYO_TOP=byo_int4_serial \
  -DPython_EXECUTABLE="$PWD/.venv/bin/python"
phase main-build cmake --build build -j "$jobs"
phase main-tests ctest --test-dir build --output-on-failure -j "$jobs" "${tier[@]}"
if ! wait "$asan"; then
  tail -n 80 build-asan/build.log
  echo "test.sh: the sanitizer build or its tests failed (build-asan/build.log)" >&2
  exit 1
fi
echo "test.sh: the sanitizer build and its tests passed (build-asan/build.log)"
echo "test.sh: all tests passed"
