#!/usr/bin/env bash
# A good traced run (the main job's `tcu run --trace`, scripts/main.sh's
# last command: every variant, 4 cases each, seed 1) prints nothing from
# Verilator or SystemC: no "%Warning" (e.g. "previous dump at t=..., dump
# call ignored", a waveform dump asked twice for one time), no "%Error", no
# SystemC "Warning:".
# Usage: trace_no_warning.sh TCU
set -euo pipefail
tcu=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! "$tcu" run --count 4 --seed 1 --jobs 1 --trace "$dir/t.fst" >"$dir/out" 2>&1; then
  cat "$dir/out"
  echo "trace_no_warning: the traced run failed"
  exit 1
fi
if grep -E '%Warning|%Error|Warning:|Error:' "$dir/out"; then
  echo "trace_no_warning: the traced run printed the lines above"
  exit 1
fi
echo "trace_no_warning: traced run of $(grep -c '^  pass' "$dir/out") variants, no warning"
