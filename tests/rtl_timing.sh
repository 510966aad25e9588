#!/usr/bin/env bash
# The RTL keeps the cycles `tcu timing` reports: for every family of
# `tcu timing --config MODEL --json` (MODEL defaults to CONFIG), GEMMs through
# the RTL engine at CONFIG measure
#   latency:  one output tile, S k-steps, each k-step's D the next one's C: the
#             cycles are S dependent issues, so cycles / S;
#   interval: one k-step of 2T instructions minus one of T: T more
#             back-to-back independent issues, so the difference / T;
# and each must equal tcu timing's figure. At the a100 preset, the figures it
# claims (latency within a cycle of NAK's, interval the A100's) are checked
# again from the RTL's own measurements. A co-verification run (--mix: every variant, engine switches,
# each isolated instruction's latency and every accept checked by the
# scoreboard) closes it.
# Usage: rtl_timing.sh path/to/tcu CONFIG [MODEL]
# Planted failure: MODEL other than CONFIG must fail ("differs from").
set -u
tcu=$1
config=$2
model=${3:-$2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$tcu" timing --config "$model" --json >"$dir/timing.json" || exit 1

# gemm_cycles PTX M N K: the RTL's measured cycles of one GEMM (D checked too).
gemm_cycles() {
  "$tcu" gemm --engine rtl --config "$config" --ptx "$1" --m "$2" --n "$3" --k "$4" \
    --report "$dir/gemm.json" >"$dir/gemm.out" 2>&1 || {
    echo "FAIL: tcu gemm --config $config --ptx $1 --m $2 --n $3 --k $4" >&2
    cat "$dir/gemm.out" >&2
    return 1
  }
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gemm"]["cycles"])' \
    "$dir/gemm.json"
}

failures=0
steps=16 slots=8
while IFS='|' read -r family ptx m n k batches latency interval claims; do
  chain=$(gemm_cycles "$ptx" "$m" "$n" $((k * steps))) || { failures=$((failures + 1)); continue; }
  one=$(gemm_cycles "$ptx" $((m * batches * slots)) "$n" "$k") || { failures=$((failures + 1)); continue; }
  two=$(gemm_cycles "$ptx" $((m * batches * slots * 2)) "$n" "$k") || { failures=$((failures + 1)); continue; }
  rtl_latency=$((chain / steps)) rtl_interval=$(((two - one) / slots))
  echo "$family: RTL latency $rtl_latency (tcu timing $latency), interval $rtl_interval" \
    "(tcu timing $interval)"
  if ((chain % steps || rtl_latency != latency || (two - one) % slots || rtl_interval != interval)); then
    echo "FAIL: $family: the RTL at $config differs from tcu timing --config $model"
    failures=$((failures + 1))
  fi
  [[ $model == a100 ]] || continue
  for claim in $claims; do
    read -r what low high <<<"${claim//:/ }"
    value=$rtl_latency
    [[ $what == interval ]] && value=$rtl_interval
    if ((value < low || value > high)); then
      echo "FAIL: $family: RTL $what $value outside the claimed $low..$high"
      failures=$((failures + 1))
    fi
  done
done < <(python3 - "$dir/timing.json" <<'EOF'
import json, re, sys
for f in json.load(open(sys.argv[1]))["families"]:
    m, n, k = (int(x) for x in re.search(r"\.m(\d+)n(\d+)k(\d+)\.", f["ptx"]).groups())
    batches = 4 if ".f16" in f["ptx"] and "m8n8k4" in f["ptx"] else 1  # quad pairs
    ref, claims = f["reference"], []
    if ref["latency_claimed"]:
        low = max(ref["nak_alu_latency"], ref["nak_mma_latency"]) - 1
        high = min(ref["nak_alu_latency"], ref["nak_mma_latency"]) + 1
        claims.append(f"latency:{low}:{high}")
    if ref["interval_claimed"]:
        claims.append(f"interval:{ref['a100_interval']}:{ref['a100_interval']}")
    print("|".join(str(x) for x in (f["family"], f["ptx"], m, n, k, batches, f["latency"],
                                     f["interval"], " ".join(claims))))
EOF
)

if ! "$tcu" run --engine rtl --config "$config" --mix --count 500 --seed 23 --jobs 1 \
  >"$dir/run.out" 2>&1; then
  echo "FAIL: tcu run --engine rtl --config $config --mix"
  tail -5 "$dir/run.out"
  failures=$((failures + 1))
fi
if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "the RTL at $config keeps every latency and interval tcu timing --config $model reports"
