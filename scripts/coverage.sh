#!/usr/bin/env bash
# Code and functional coverage of the default regression (the main job's
# counts, scripts/main.sh): a coverage build of the default configuration
# (build-coverage, -DTCU_COVERAGE=ON: Verilator --coverage), the per-variant
# run, the mixed run with back-pressure and the heavy back-pressure run,
# the two runs with fewer register-file banks,
# each with --coverage, merged
# into $COVERAGE_DIR (default coverage/): functional.json, rtl.info and
# html/index.html. The terminal summary ends the output.
# Toggle coverage (per module) costs the runs tens of times their time:
# COVERAGE_TOGGLE=1 adds it (-DTCU_COVERAGE_TOGGLE=ON).
#   scripts/coverage.sh            (TCU_COUNT, TCU_MIX_COUNT, TCU_SEED as main.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B "${COVERAGE_BUILD:-build-coverage}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DTCU_BUILD_PYTHON=OFF -DTCU_CONFIGS=default -DTCU_COVERAGE=ON \
  -DTCU_COVERAGE_TOGGLE="$([ "${COVERAGE_TOGGLE:-0}" = 1 ] && echo ON || echo OFF)"
cmake --build "${COVERAGE_BUILD:-build-coverage}" -j "$(nproc)" --target tcu
out=${COVERAGE_DIR:-coverage}
rm -rf "$out"
"${COVERAGE_BUILD:-build-coverage}"/tcu run --count "${TCU_COUNT:-1000}" --seed "${TCU_SEED:-1}" \
  --coverage "$out/runs/variants"
"${COVERAGE_BUILD:-build-coverage}"/tcu run --mix --backpressure 0.2 --count "${TCU_MIX_COUNT:-20000}" \
  --seed "${TCU_SEED:-1}" --coverage "$out/runs/mix"
"${COVERAGE_BUILD:-build-coverage}"/tcu run --mix --backpressure 0.9 --count "${TCU_STRESS_COUNT:-3000}" \
  --seed "${TCU_SEED:-1}" --coverage "$out/runs/stress"
for banks in 1 2; do
  "${COVERAGE_BUILD:-build-coverage}"/tcu run --mix --backpressure 0.2 --rf-banks $banks \
    --count "${TCU_RF_COUNT:-2000}" --seed "${TCU_SEED:-1}" --coverage "$out/runs/banks$banks"
done
"${COVERAGE_BUILD:-build-coverage}"/tcu coverage merge --out "$out" "$out/runs/variants" \
  "$out/runs/mix" "$out/runs/stress" "$out/runs/banks1" "$out/runs/banks2"
