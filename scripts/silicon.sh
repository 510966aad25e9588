#!/usr/bin/env bash
# Build and run the silicon harness (silicon/mma_harness.cu) on the local NVIDIA GPU,
# gzip the vectors it records, and, when build/tcu exists, replay them through the
# golden model and the RTL.
#
# usage: scripts/silicon.sh [OUT.jsonl.gz] [CASES=256] [SEED=1]
#   OUT defaults to out/silicon-<gpu>-harness.jsonl.gz (e.g. out/silicon-h100-harness.jsonl.gz).
#   ARCH=sm_XY overrides the detected architecture; NVCC overrides the compiler;
#   SILICON_BUILD (default build-silicon) is where the harness is built.
#
# Needs nvcc and a GPU; it is never part of the default build or of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

nvcc=${NVCC:-$(command -v nvcc || true)}
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then
  echo "silicon.sh: nvcc not found; the silicon harness needs the CUDA toolkit and a GPU" >&2
  exit 1
fi
if ! command -v nvidia-smi >/dev/null; then
  echo "silicon.sh: nvidia-smi not found; no NVIDIA GPU to record on" >&2
  exit 1
fi

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d ' ')
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n1)
if [[ -z "${ARCH:-}" ]]; then
  num=${cap/./}
  case "$num" in
    90 | 100 | 101 | 103 | 110 | 120 | 121) ARCH="sm_${num}a" ;;  # arch-specific features
    *) ARCH="sm_${num}" ;;
  esac
fi
# short device tag for the default file name: "NVIDIA H100 80GB HBM3" -> h100
tag=$(echo "$gpu_name" | grep -oiE '\b[A-Z]{0,3}[0-9]{2,4}[A-Z]?\b' | head -n1 | tr 'A-Z' 'a-z')
tag=${tag:-gpu}

out=${1:-out/silicon-${tag}-harness.jsonl.gz}
cases=${2:-256}
seed=${3:-1}
[[ "$out" == *.gz ]] || out="$out.gz"
mkdir -p "$(dirname "$out")"

build=${SILICON_BUILD:-build-silicon}
mkdir -p "$build"
echo "== device: $gpu_name (compute capability $cap, driver $driver); building for $ARCH"
"$nvcc" --version | tail -n1
"$nvcc" -O2 -std=c++17 -arch="$ARCH" -o "$build/mma_harness" silicon/mma_harness.cu

plain=${out%.gz}
echo "== running: $build/mma_harness $plain $cases $seed"
"$build/mma_harness" "$plain" "$cases" "$seed"
gzip -n -9 -f "$plain"
echo "== wrote $out ($(wc -c <"$out") bytes, $(zcat "$out" | wc -l) cases)"

if [[ -x build/tcu ]]; then
  for engine in golden rtl; do
    echo "== build/tcu replay --engine $engine $out"
    # the summary ends with "N passed, M failed"; a mismatch exits non-zero
    if build/tcu replay --engine "$engine" "$out" >"$build/replay-$engine.log" 2>&1; then rc=0; else rc=$?; fi
    grep -E '^  (pass|FAIL) ' "$build/replay-$engine.log" || true
    echo "$engine: $(tail -n1 "$build/replay-$engine.log") (exit $rc; log $build/replay-$engine.log)"
  done
else
  echo "note: build/tcu not found; build the project (cmake) and run"
  echo "      build/tcu replay --engine golden $out"
  echo "      build/tcu replay --engine rtl $out"
fi
