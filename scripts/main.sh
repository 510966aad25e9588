#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job: a co-verification
# run of every instruction variant through the SystemC front-end and the
# Verilated datapath, each result checked against the golden model and the
# timing formula, with an FST waveform written to build/tcu-run.fst.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
build/tcu run --count "${TCU_COUNT:-200}" --seed "${TCU_SEED:-1}"
# A short traced run of every variant (an FST of a long run grows large).
build/tcu run --count 4 --seed "${TCU_SEED:-1}" --trace build/tcu-run.fst
echo "waveform: build/tcu-run.fst (open with: gtkwave build/tcu-run.fst tb/gtkwave/<family>.gtkw)"
