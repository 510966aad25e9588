#!/usr/bin/env bash
# rtl/CMakeLists.txt refuses an invalid datapath configuration when a build
# is configured, naming the configuration, the parameter and the value.
# Usage: cmake_config_refused.sh SOURCE_DIR SCRATCH_BUILD_DIR [PYTHON]
# PYTHON: the interpreter each configure is given (Python3_EXECUTABLE)
# rather than one it searches for.
set -u
src=$1
bin=$2
python_arg=()
[ $# -ge 3 ] && python_arg=("-DPython3_EXECUTABLE=$3")
failures=0
refused() {  # refused PARAMS EXPECTED-MESSAGE-REGEX
  rm -rf "$bin"
  out=$(cmake -S "$src" -B "$bin" -G Ninja -DBUILD_TESTING=OFF -DTCU_BUILD_PYTHON=OFF \
          "${python_arg[@]}" -DTCU_CONFIGS=bad "-DTCU_CONFIG_bad=$1" 2>&1)
  code=$?
  # CMake wraps its messages: compare with the lines joined.
  if [[ $code -ne 0 ]] && tr -s ' \n' ' ' <<<"$out" | grep -qE "$2"; then
    echo "ok: refused $1"
  else
    echo "FAIL: $1: exit $code, want a refusal matching: $2"
    tail -15 <<<"$out"
    failures=$((failures + 1))
  fi
}
where="configuration 'bad' \(TCU_CONFIG_bad\)"
refused "Int4MacsPerCycle=96" "$where: Int4MacsPerCycle=96 gives 3 int4 units: an odd count above 1 is refused"
refused "F64FmasPerCycle=6;IntStages=1" "$where: F64FmasPerCycle=6: must be a positive multiple of 4"
refused "E2m1MacsPerCycle=32" "$where: E2m1MacsPerCycle=32: must be a positive multiple of 64"
refused "Int4Enable=0;E2m1Enable=0;F16Enable=0;F64Enable=0" "$where: Int4Enable, E2m1Enable, F16Enable and F64Enable are all 0"
refused "SparseEnable=2" "$where: SparseEnable=2: a bit parameter is 0 or 1"
refused "Int4MacPerCycle=64" "$where: unknown parameter 'Int4MacPerCycle'"
refused "FmaStages=two" "$where: FmaStages=two: not a non-negative integer"
rm -rf "$bin"
exit $((failures > 0))
