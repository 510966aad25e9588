#!/usr/bin/env bash
# Passes only if COMMAND exits non-zero and its output matches REGEX (grep
# -E): the planted-fault tests, which prove that a check can fail. (A
# Verilated $fatal ends in abort(), so a signal counts as failing; the REGEX,
# a line only the check prints, tells a check's failure from a crash.)
#
#   expect_failure.sh REGEX COMMAND [ARGS...]
set -uo pipefail
regex=$1
shift
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -eq 0 ]; then
  echo "expect_failure: '$*' passed; the planted fault must make it fail" >&2
  exit 1
fi
if ! grep -Eq -- "$regex" <<<"$output"; then
  echo "expect_failure: exit status $status, but no line matches '$regex'" >&2
  exit 1
fi
echo "expect_failure: failed as it must (exit status $status, '$regex' found)"
