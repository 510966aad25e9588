#!/usr/bin/env bash
# Co-verification from a random power-up state. Configuration 'small' is
# Verilated with --x-initial unique (rtl/CMakeLists.txt): under
# +verilator+rand+reset+2 every register starts from a random value (a
# Verilator seed each run). The core's reset must bring it to a state from
# which every check passes, and nothing may clock the core or read its
# outputs before that reset (the front-end's clock starts after it).
# First, that the power-up state is random at all: the router's descriptor
# register (u_router.desc_q, no reset; it changes only when a start is
# taken) holds a nonzero value in the waveform's first sample under the
# plusargs, and zero without them.
# Usage: random_power_up.sh TCU
set -u
tcu=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
random="+verilator+rand+reset+2 +verilator+seed+"
failures=0

# The value of TOP.tcu_sim_top.u_core.u_router.desc_q in the waveform's
# first sample, as a binary string.
first_desc() {
  fst2vcd "$1" 2>/dev/null | python3 -c '
import sys
scope, ident, value = [], None, None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "$scope":
        scope.append(words[2])
    elif words[0] == "$upscope":
        scope.pop()
    elif words[0] == "$var" and scope[-3:] == ["tcu_sim_top", "u_core", "u_router"] \
            and words[4] == "desc_q":
        ident = words[3]
    elif ident and words[0][0] in "bB" and len(words) == 2 and words[1] == ident:
        value = words[0][1:]
        break
if value is None:
    sys.exit("desc_q not found in the waveform")
print(value)'
}
# A traced run (one instruction) with and without the plusargs.
traced() {
  local name=$1
  shift
  if ! env "$@" "$tcu" run --config small --count 1 --jobs 1 \
      --ptx mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 --trace "$dir/$name.fst" \
      >"$dir/out" 2>&1; then
    grep -v "^  pass" "$dir/out" | head -20
    echo "FAIL: the traced run ($name power-up state) failed"
    failures=$((failures + 1))
  fi
}
traced random TCU_PLUSARGS="${random}1"
traced zero TCU_PLUSARGS=
random_desc=$(first_desc "$dir/random.fst") || exit 1
zero_desc=$(first_desc "$dir/zero.fst") || exit 1
if [ -z "${random_desc//0/}" ]; then
  echo "FAIL: under '${random}1' desc_q starts at zero ($random_desc): the power-up state is not" \
    "random (or desc_q has a reset: watch another register without one)"
  failures=$((failures + 1))
fi
if [ -n "${zero_desc//0/}" ]; then
  echo "FAIL: without plusargs desc_q starts at $zero_desc, not zero"
  failures=$((failures + 1))
fi

# Every variant interleaved, from four random power-up states.
for seed in 1 2 3 4; do
  if ! TCU_PLUSARGS="${random}${seed}" "$tcu" run --config small --mix --count 60 --seed "$seed" \
      --jobs 1 >"$dir/out" 2>&1; then
    grep -v "^  pass" "$dir/out" | head -20
    echo "FAIL: Verilator seed $seed: the run from a random power-up state failed"
    failures=$((failures + 1))
  fi
done
[ $failures -eq 0 ] && echo "every run from a random power-up state passed (desc_q started at $random_desc)"
exit $((failures != 0))
