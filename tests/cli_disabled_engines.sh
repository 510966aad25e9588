#!/usr/bin/env bash
# A configuration built without some engines (TCU_CONFIG_<name> with
# ...Enable=0) refuses their instructions in every subcommand, before
# anything reaches the RTL: exit 2 and a message naming the configuration,
# the variant and the parameter. The variants it has still run and pass.
# Usage: cli_disabled_engines.sh path/to/tcu CONFIG VECTOR_DIR
set -u
tcu=$1
config=$2
data=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  head -20 "$dir/out"
  failures=$((failures + 1))
}
refused=""
for ptx in mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 \
  mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 \
  mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0 \
  mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 \
  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64; do
  "$tcu" run --engine rtl --config "$config" --ptx "$ptx" --count 2 --jobs 1 >"$dir/out" 2>&1
  code=$?
  if [[ $code -eq 2 ]]; then
    grep -qE "error: --ptx: configuration '$config' is built without .* \([A-Za-z0-9]+Enable=0\): it cannot run $ptx" \
      "$dir/out" || fail "run $ptx: exit 2 without the message"
    refused=$ptx
  elif [[ $code -ne 0 ]]; then
    fail "run $ptx: exit $code"
  fi
done
[[ -n $refused ]] || fail "configuration $config refused no family"
if [[ -n $refused ]]; then
  echo "ok: run refuses $refused"
  "$tcu" gemm --engine rtl --config "$config" --ptx "$refused" --m 16 --n 8 --k 64 >"$dir/out" 2>&1
  code=$?
  [[ $code -eq 2 ]] && grep -q "is built without" "$dir/out" || fail "gemm $refused: exit $code"
  "$tcu" replay --engine rtl --config "$config" "$data"/*.jsonl.gz >"$dir/out" 2>&1
  code=$?
  [[ $code -eq 2 ]] && grep -qE "^error: .*\.jsonl\.gz:[0-9]+: case .* is built without" "$dir/out" ||
    fail "replay of every vector file: exit $code, want 2 naming the file and line"
  "$tcu" bench --config "$config" --seconds 0.01 --json >"$dir/out" 2>&1 || fail "bench: exit $?"
  grep -q '"rtl_skipped": "configuration' "$dir/out" || fail "bench does not name the skipped family"
fi
"$tcu" run --engine rtl --config "$config" --count 3 --jobs 1 >"$dir/out" 2>&1 ||
  fail "run of the variants it has: exit $?"
grep -q "^note: configuration '$config' leaves out " "$dir/out" || fail "run without --ptx: no note"
[[ $failures -eq 0 ]] && echo "ok: configuration $config refuses the engines it leaves out"
exit $((failures > 0))
