#!/usr/bin/env bash
# An injected fault must fail the run (exit 1) with a line naming the case,
# and the re-run command printed for that case must fail again.
# Usage: cli_faults.sh path/to/tcu d-bit|late|lane-swap|meta
set -u
tcu=$1
fault=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sparse=mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32
dense=mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32
fail() {
  echo "FAIL: $*"
  head -30 "$dir/out"
  exit 1
}

# A mixed stream of a dense and a sparse variant (meta goes into the first
# sparse instruction, the other faults into the first one).
"$tcu" run --engine rtl --mix --ptx "$sparse" --ptx "$dense" --count 16 --seed 3 \
  --inject-fault "$fault" --jobs 1 >"$dir/out" 2>&1
code=$?
[[ $code -eq 1 ]] || fail "--inject-fault $fault: exit $code, want 1"
grep -qE "(mismatch|cosim): [^ ]+ case [0-9]+ " "$dir/out" ||
  fail "--inject-fault $fault: no line names the case"
rerun=$(grep -oE -m1 "re-run[^:]*: [^;)]+--count 1" "$dir/out" | sed "s/^re-run[^:]*: //")
[[ -n $rerun ]] || fail "--inject-fault $fault: no re-run command"
[[ $rerun == *"--inject-fault $fault"* && $rerun == *--mix* && $rerun == *"--seed 3"* ]] ||
  fail "--inject-fault $fault: the re-run command lacks options of the run: $rerun"
# The metadata fault is caught where it enters: the handover check (run
# after the edge that takes the operands) names the misplaced operand.
if [[ $fault == meta ]]; then
  grep -qF "the router placed operand meta wrongly" "$dir/out" ||
    fail "--inject-fault meta: the handover check did not name the misplaced metadata"
fi
echo "ok: --inject-fault $fault fails the run and names the case"
eval "$rerun" >"$dir/out" 2>&1
code=$?
[[ $code -eq 1 ]] || fail "re-run of the case: exit $code, want 1: $rerun"
echo "ok: the re-run command fails again: $rerun"

if [[ $fault == meta ]]; then
  "$tcu" run --engine rtl --ptx "$dense" --count 4 --inject-fault meta --jobs 1 >"$dir/out" 2>&1
  code=$?
  [[ $code -eq 2 ]] && grep -qF "no instruction of this run could take it" "$dir/out" ||
    fail "meta without a sparse variant: exit $code, want 2 and a message"
  echo "ok: meta without a sparse variant is a usage error"
fi
exit 0
