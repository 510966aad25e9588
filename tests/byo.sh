#!/usr/bin/env bash
# Bring your own datapath (docs/guide/co-verify.md): configuration CONFIG is a datapath of
# one's own (examples/byo/byo_int4_serial.sv: int4 dense only, one dot unit,
# another latency), co-verified by `tcu run` and `tcu replay` unchanged.
# Usage: byo.sh path/to/tcu CONFIG VECTOR_DIR pass|planted-bug|checks
#   pass         the variants it has pass, alone and mixed under
#                back-pressure; the silicon vectors of its family replay
#                on it; the families it lacks are refused cleanly (exit 2).
#   planted-bug  with TCU_PLUSARGS=+byo_planted_bug (B's sign taken from
#                A's) run and replay fail (exit 1), naming a case; with
#                +byo_planted_hold_bug (out_d changes while held) the output
#                protocol check fails the run.
#   checks       its timing is not ours: --check cycles fails it; the D
#                faults are still caught in the results mode, and the timing
#                fault is refused there.
set -u
tcu=$1
config=$2
data=$3
mode=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  head -20 "$dir/out"
  failures=$((failures + 1))
}
# expect CODE DESCRIPTION COMMAND...: the command exits CODE.
expect() {
  local want=$1 what=$2
  shift 2
  "$@" >"$dir/out" 2>&1
  local code=$?
  if [[ $code -ne $want ]]; then
    fail "$what: exit $code, want $want"
    return 1
  fi
  echo "ok: $what (exit $code)"
}
mixed=mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32
# The vectors of the family it runs: int4 dense, from the public H200 file.
zcat "$data/silicon-h200-public.jsonl.gz" |
  grep -E '"ptx":"mma\.sync\.aligned\.m(16n8k64|8n8k32)\.row\.col\.(satfinite\.)?s32\.' |
  gzip >"$dir/int4-dense.jsonl.gz"
cases=$(zcat "$dir/int4-dense.jsonl.gz" | wc -l)
[[ $cases -gt 0 ]] || fail "no int4 dense vectors found in $data"

case $mode in
  pass)
    expect 0 "run of every variant it has" "$tcu" run --engine rtl --config "$config" \
      --count 3 --jobs 1 &&
      { grep -q "^note: configuration '$config' leaves out " "$dir/out" ||
        fail "run: no note of the families left out"; }
    expect 0 "mixed run under back-pressure" "$tcu" run --engine rtl --config "$config" --mix \
      --backpressure 0.3 --count 120 --seed 5 --jobs 1
    expect 0 "replay of its family's $cases silicon vectors" "$tcu" replay --engine rtl \
      --config "$config" "$dir/int4-dense.jsonl.gz" &&
      { grep -q "^$cases passed, 0 failed" "$dir/out" || fail "replay: not $cases passed"; }
    expect 2 "a family it lacks is refused" "$tcu" run --engine rtl --config "$config" \
      --ptx mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 --count 1 --jobs 1 &&
      { grep -q "is built without" "$dir/out" || fail "refusal without a reason"; }
    expect 2 "a replay of every family is refused, naming the case" "$tcu" replay --engine rtl \
      --config "$config" "$data/silicon-h200-public.jsonl.gz" &&
      { grep -qE "^error: .*\.jsonl\.gz:[0-9]+: case .* is built without" "$dir/out" ||
        fail "replay refusal does not name file and line"; }
    ;;
  planted-bug)
    export TCU_PLUSARGS=+byo_planted_bug
    expect 1 "planted bug: run of a mixed-sign variant fails" "$tcu" run --engine rtl \
      --config "$config" --ptx "$mixed" --count 2 --jobs 1 &&
      { grep -qE "mismatch: [^ ]+ case [0-9]+ lane [0-9]+ d\[" "$dir/out" ||
        fail "planted bug: no line names the case and register"; }
    expect 1 "planted bug: replay fails" "$tcu" replay --engine rtl --config "$config" \
      "$dir/int4-dense.jsonl.gz"
    # A protocol bug: out_d_o changes while out_ready_i holds it. The router
    # holds D while its write-back waits, so heavy back-pressure is needed.
    export TCU_PLUSARGS=+byo_planted_hold_bug
    expect 1 "planted hold bug: the output protocol check fails the run" "$tcu" run \
      --engine rtl --config "$config" --ptx "$mixed" --count 40 --backpressure 0.9 --jobs 1 &&
      { grep -qF "out_valid, out_tag or out_d changed while out_ready was low" "$dir/out" ||
        fail "planted hold bug: not named as a protocol violation"; }
    unset TCU_PLUSARGS
    expect 0 "without the plusarg the same run passes" "$tcu" run --engine rtl \
      --config "$config" --ptx "$mixed" --count 2 --jobs 1
    ;;
  checks)
    expect 1 "--check cycles: its latency is not the formula's" "$tcu" run --engine rtl \
      --config "$config" --ptx "$mixed" --count 2 --check cycles --jobs 1 &&
      { grep -qF "datapath latency" "$dir/out" || fail "--check cycles: no latency error"; }
    for fault in d-bit lane-swap; do
      expect 1 "--inject-fault $fault caught in the results mode" "$tcu" run --engine rtl \
        --config "$config" --ptx "$mixed" --count 2 --inject-fault "$fault" --jobs 1
    done
    expect 2 "--inject-fault late refused in the results mode" "$tcu" run --engine rtl \
      --config "$config" --ptx "$mixed" --count 2 --inject-fault late --jobs 1 &&
      { grep -qF "use --check cycles" "$dir/out" || fail "late: no reason given"; }
    ;;
  *)
    echo "usage: byo.sh TCU CONFIG VECTOR_DIR pass|planted-bug|checks" >&2
    exit 2
    ;;
esac
exit $((failures > 0))
