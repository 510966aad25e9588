#!/usr/bin/env bash
# Each class of bad command-line input gets its own exit code and a message
# naming what was wrong. Usage: cli_bad_input.sh path/to/tcu
set -u
tcu=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# expect CODE PATTERN -- command...
source "$(dirname "$0")/lib/expect.sh"

lanes() {  # lanes N_REGS VALUE
  local s="[" l r
  for ((l = 0; l < 32; l++)); do
    ((l)) && s+=","
    s+="["
    for ((r = 0; r < $1; r++)); do ((r)) && s+=","; s+="\"$2\""; done
    s+="]"
  done
  echo "$s]"
}
words() {
  local s="[" l
  for ((l = 0; l < 32; l++)); do ((l)) && s+=","; s+="\"$1\""; done
  echo "$s]"
}
good="{\"id\":\"g\",\"ptx\":\"mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32\",\"a\":$(lanes 1 0x00000000),\"b\":$(lanes 1 0x00000000),\"c\":$(lanes 2 0x00000005),\"d\":$(lanes 2 0x00000005)}"
echo "$good" >"$dir/good.jsonl"
echo "${good/0x00000005\"\]\]\}/0x00000006\"]]\}}" >"$dir/wrong.jsonl"
echo "${good/row.col/col.row}" >"$dir/badptx.jsonl"
echo "${good:0:100}" >"$dir/truncated.jsonl"
: >"$dir/empty.jsonl"
sparse="{\"id\":\"s\",\"ptx\":\"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32\",\"a\":$(lanes 2 0x00000000),\"b\":$(lanes 2 0x00000000),\"c\":$(lanes 4 0x00000000),\"d\":$(lanes 4 0x00000000),\"e\":$(words 0x44444414),\"sel\":0}"
echo "$sparse" >"$dir/badmeta.jsonl"
echo "${sparse/\"sel\":0/\"sel\":2}" >"$dir/badsel.jsonl"

expect 0 "1 passed, 0 failed" -- "$tcu" replay "$dir/good.jsonl"
expect 1 "0 passed, 1 failed" -- "$tcu" replay "$dir/wrong.jsonl"
expect 1 "lane 31 d[1]: expected 0x00000006, got 0x00000005" -- "$tcu" replay "$dir/wrong.jsonl"
expect 2 "subcommand" -- "$tcu"
expect 2 "files is required" -- "$tcu" replay
expect 2 "--engine" -- "$tcu" replay --engine quantum "$dir/good.jsonl"
expect 2 "--details" -- "$tcu" replay --details -3 "$dir/good.jsonl"
# --stride N: a variant's first case, its 1 + N-th, ...; a wrong second
# case is left out at 2, a wrong first one is not; 0 is refused.
cat "$dir/good.jsonl" "$dir/wrong.jsonl" "$dir/good.jsonl" >"$dir/good_wrong_good.jsonl"
cat "$dir/wrong.jsonl" "$dir/good.jsonl" >"$dir/wrong_good.jsonl"
expect 0 "2 passed, 0 failed" -- "$tcu" replay --stride 2 "$dir/good_wrong_good.jsonl"
expect 1 "2 passed, 1 failed" -- "$tcu" replay "$dir/good_wrong_good.jsonl"
expect 1 "0 passed, 1 failed" -- "$tcu" replay --stride 2 "$dir/wrong_good.jsonl"
expect 2 "--stride" -- "$tcu" replay --stride 0 "$dir/good.jsonl"
expect 3 "$dir/nothere.jsonl: cannot open" -- "$tcu" replay "$dir/nothere.jsonl"
expect 3 "$dir/empty.jsonl: the file holds no cases" -- "$tcu" replay "$dir/empty.jsonl"
expect 3 "$dir/truncated.jsonl:1: invalid JSON" -- "$tcu" replay "$dir/truncated.jsonl"
expect 4 "$dir/badptx.jsonl:1: invalid instruction" -- "$tcu" replay "$dir/badptx.jsonl"
expect 5 "invalid sparse metadata for row 0, chunk 1" -- "$tcu" replay "$dir/badmeta.jsonl"
expect 5 "$dir/badsel.jsonl:1: sparsity selector 2" -- "$tcu" replay "$dir/badsel.jsonl"
if "$tcu" run --help >/dev/null 2>&1; then
  expect 4 "invalid instruction 'mma.sync.aligned.m16n8k64.col.row.s32.s4.s4.s32'" -- \
    "$tcu" run --engine golden --ptx mma.sync.aligned.m16n8k64.col.row.s32.s4.s4.s32 --count 1
  expect 2 "--count" -- "$tcu" run --engine golden --count -5
  expect 2 "--shard" -- "$tcu" run --engine golden --count 4 --shard 3/2
  expect 2 "--shard" -- "$tcu" run --engine golden --count 4 --shard x
  # Options of the RTL engine are refused with the golden one.
  expect 2 "--trace applies to --engine rtl only" -- \
    "$tcu" run --engine golden --count 1 --trace "$dir/t.fst"
  expect 2 "--config applies to --engine rtl only" -- \
    "$tcu" run --engine golden --count 1 --config small
  expect 2 "--rf-bandwidth applies to --engine rtl only" -- \
    "$tcu" run --engine golden --count 1 --rf-bandwidth 8
  expect 2 "--jobs" -- "$tcu" run --engine golden --count 1 --jobs 0
  # The register file's options: ranges and numbers, in every subcommand.
  expect 2 "--rf-banks applies to --engine rtl only" -- \
    "$tcu" run --engine golden --count 1 --rf-banks 2
  expect 2 "--rf-banks: Value 0 not in range 1 to 1024" -- "$tcu" run --count 1 --rf-banks 0
  expect 2 "--rf-banks: Value 1025 not in range 1 to 1024" -- "$tcu" run --count 1 --rf-banks 1025
  expect 2 "--rf-read-ports: Value -1 not in range 1 to 64" -- \
    "$tcu" run --count 1 --rf-read-ports=-1
  expect 2 "--rf-write-ports: Value two not in range 1 to 64" -- \
    "$tcu" run --count 1 --rf-write-ports two
  expect 2 "--rf-bandwidth: Value 0 not in range 1 to 4096" -- "$tcu" run --count 1 --rf-bandwidth 0
  expect 2 "--rf-banks: Value 0 not in range" -- \
    "$tcu" gemm --ptx mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 --m 8 --n 8 --k 32 --rf-banks 0
  expect 2 "--rf-read-ports: Value x not in range" -- "$tcu" bench --golden-only --rf-read-ports x
  expect 2 "--rf-write-ports: Value 0 not in range" -- \
    "$tcu" replay --rf-write-ports 0 "$dir/good.jsonl"
  expect 2 "--special-rate 1.5: expected a probability P with 0 <= P <= 1" -- \
    "$tcu" run --engine golden --count 1 --special-rate 1.5
  expect 2 "--special-rate x: expected a probability" -- "$tcu" run --engine golden --count 1 --special-rate x
  expect 2 "--backpressure 1.5: expected a probability P with 0 <= P < 1" -- \
    "$tcu" run --count 1 --backpressure 1.5
  expect 2 "--backpressure -0.1: expected a probability" -- "$tcu" run --count 1 --backpressure=-0.1
  expect 2 "--backpressure x: expected a probability" -- "$tcu" run --count 1 --backpressure x
  expect 2 "--inject-fault: bogus not in" -- "$tcu" run --count 1 --inject-fault bogus
  expect 2 "--backpressure applies to --engine rtl only" -- \
    "$tcu" run --engine golden --count 1 --backpressure 0.5
  expect 2 "--inject-fault applies to --engine rtl only" -- \
    "$tcu" run --engine golden --count 1 --inject-fault d-bit
  expect 2 "--report $dir/no/such/dir/r.json: cannot write" -- \
    "$tcu" run --engine golden --count 1 --report "$dir/no/such/dir/r.json"
  if "$tcu" --version | grep -q "engines: golden, rtl"; then
    expect 2 "use --jobs 1" -- "$tcu" run --engine rtl --count 4 --trace "$dir/t.fst" --jobs 2
    expect 2 "--inject-fault runs in one process: use --jobs 1" -- \
      "$tcu" run --engine rtl --count 4 --inject-fault d-bit --jobs 2
  else
    expect 2 "--engine rtl: not built into this tcu" -- "$tcu" run --engine rtl --count 1
  fi
fi
expect 2 "--config applies to --engine rtl only" -- \
  "$tcu" replay --engine golden --config small "$dir/good.jsonl"
expect 2 "--junit $dir/no/such/dir/r.xml: cannot write" -- \
  "$tcu" replay --junit "$dir/no/such/dir/r.xml" "$dir/good.jsonl"
expect 2 "--bogus" -- "$tcu" list --bogus
exit $((failures > 0))
