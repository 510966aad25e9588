#!/usr/bin/env bash
# Records a short waveform of one instruction family and takes a screenshot
# of GTKWave showing it with the family's save file, headlessly (Xvfb).
# Usage: scripts/waveform_screenshot.sh [FAMILY] [OUT.png]
#   FAMILY: int4 (default), int4_sparse, f16, f64, e2m1
set -euo pipefail
cd "$(dirname "$0")/.."
family=${1:-int4}
png=${2:-docs/waveform-$family.png}
case $family in
  int4) ptx=mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 ;;
  int4_sparse) ptx=mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 ;;
  f16) ptx=mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 ;;
  f64) ptx=mma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64 ;;
  e2m1) ptx=mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0 ;;
  *) echo "unknown family '$family'" >&2; exit 2 ;;
esac
fst=build/wave-$family.fst
build/tcu run --ptx "$ptx" --count 3 --trace "$fst" >/dev/null

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1600x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $gtkwave $xvfb 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$display gtkwave "$fst" "tb/gtkwave/$family.gtkw" >/dev/null 2>&1 &
gtkwave=$!
# Wait for the main window (after the splash screen and the FST load).
for _ in $(seq 60); do
  win=$(DISPLAY=$display xdotool search --name 'GTKWave - ' 2>/dev/null | head -1) || true
  [ -n "$win" ] && break
  sleep 1
done
[ -n "$win" ] || { echo "GTKWave did not open a window" >&2; exit 1; }
DISPLAY=$display xdotool windowmove "$win" 0 0 windowsize "$win" 1600 900 >/dev/null 2>&1 || true
sleep 3
DISPLAY=$display import -window root "$png"
echo "screenshot: $png"
