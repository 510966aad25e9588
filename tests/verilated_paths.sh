#!/usr/bin/env bash
# No path of the checkout in what a Verilated model prints or holds:
#   - the operand router's unit test fires one of the router's assertions
#     (two words of one beat with the same tag): its messages (the $error
#     text, Verilator's "%Error: FILE:LINE: Verilog $stop") must name the
#     RTL file relative to the repository, never ROOT/...;
#   - the tcu binary (every Verilated configuration linked in) holds no
#     ROOT/ string.
# With --plant each check runs on a copy with ROOT/ planted (a message line,
# the binary's bytes) and must fail.
# Usage: verilated_paths.sh ROOT ROUTER_TEST TCU [--plant]
set -uo pipefail
root=$1 router_test=$2 tcu=$3 plant=${4:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The router test's output: the assertion's messages, with no ROOT/ path.
check_messages() {  # FILE
  if ! grep -q 'Verilog \$stop' "$1"; then
    echo "verilated_paths: no Verilog \$stop message in the router test's output" >&2
    return 1
  fi
  if grep -F "$root/" "$1"; then
    echo "verilated_paths: the lines above name files by the checkout's path ($root)" >&2
    return 1
  fi
  if ! grep -q ' rtl/tcu_operand_router\.sv:[0-9]*: Verilog \$stop' "$1"; then
    echo "verilated_paths: the \$stop message does not name rtl/tcu_operand_router.sv" >&2
    return 1
  fi
}

check_binary() {  # FILE
  local n
  n=$(grep -a -o -F "$root/" "$1" | wc -l)
  if [ "$n" -ne 0 ]; then
    echo "verilated_paths: $1 holds the checkout's path ($root/) $n times" >&2
    return 1
  fi
}

"$router_test" "tcu_operand_router flags two words of one beat with the same tag" \
  >"$dir/out" 2>&1
if [ -z "$plant" ]; then
  failed=0
  check_messages "$dir/out" || failed=1
  check_binary "$tcu" || failed=1
  [ "$failed" -eq 0 ] && echo "verilated_paths: no path of $root in the messages or in $tcu"
  exit "$failed"
fi

# --plant: each check must find a planted path.
sed "s#%Error: \([^ ]*\.sv\)#%Error: $root/\1#" "$dir/out" >"$dir/planted_out"
head -c 65536 "$tcu" >"$dir/planted_bin"
printf '%s/rtl/tcu_operand_router.sv\0' "$root" >>"$dir/planted_bin"
missed=0
if check_messages "$dir/planted_out" >/dev/null 2>&1; then
  echo "verilated_paths --plant: a message naming $root/... was not found" >&2
  missed=1
fi
if check_binary "$dir/planted_bin" >/dev/null 2>&1; then
  echo "verilated_paths --plant: a binary holding $root/ was not found" >&2
  missed=1
fi
[ "$missed" -eq 0 ] && echo "verilated_paths --plant: both planted paths found"
exit "$missed"
