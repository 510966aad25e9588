#!/usr/bin/env bash
# Installs what is missing, builds what the main job runs (the tcu tool
# only), and runs it: a co-verification run of every instruction variant
# through the SystemC front-end and the Verilated datapath on every core,
# each result checked against the golden model and the timing formula (then
# once more under heavy back-pressure), then a short traced run with an FST
# waveform written to build/tcu-run.fst.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# clang++, as scripts/test.sh builds the same folder: one compiler for build/
# (a change of compiler makes CMake start the folder afresh), and its
# Verilated models simulate faster than g++'s (docs/guide/simulation-speed.md).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DCMAKE_CXX_COMPILER=clang++ -DTCU_BUILD_PYTHON=OFF -DTCU_CONFIGS=default
cmake --build build -j "$(nproc)" --target tcu
build/tcu run --count "${TCU_COUNT:-1000}" --seed "${TCU_SEED:-1}"
# Every variant again, interleaved in one stream with random back-pressure.
build/tcu run --mix --backpressure 0.2 --count "${TCU_MIX_COUNT:-20000}" --seed "${TCU_SEED:-1}"
# A shorter stream under heavy back-pressure: the e2m1 and f64 engines meet
# a full skid register and held pipelines only when write-back is slow
# (the datapath checker's cover points, scripts/coverage.sh).
build/tcu run --mix --backpressure 0.9 --count "${TCU_STRESS_COUNT:-3000}" --seed "${TCU_SEED:-1}"
# The register file with fewer banks than the default 16, whose ports every
# instruction fits: one bank (bank conflicts stall collection and write-back)
# and two (a conflict the bandwidth hides), a shorter mixed stream each (the
# coverage model's regfile bins, scripts/coverage.sh).
for banks in 1 2; do
  build/tcu run --mix --backpressure 0.2 --rf-banks $banks --count "${TCU_RF_COUNT:-2000}" \
    --seed "${TCU_SEED:-1}"
done
# A short traced run of every variant (an FST of a long run grows large).
build/tcu run --count 4 --seed "${TCU_SEED:-1}" --trace build/tcu-run.fst --jobs 1
echo "waveform: build/tcu-run.fst (open with: gtkwave build/tcu-run.fst tb/gtkwave/<family>.gtkw)"
