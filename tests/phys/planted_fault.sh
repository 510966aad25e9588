#!/usr/bin/env bash
# Proof that phys_energy_method can fail: copies of tcu_tools.phys with one
# fault each must fail the test named with it:
#   activities  the power step ignores the simulated activities (one global
#               activity for every net): the "rises" tests must fail;
#   zero        zero activity is not zero (a global activity of 0.1): the
#               "zero" tests must fail;
#   clock       zero activity keeps the clock defined (its pins then keep the
#               clock's activity): the clocked unit's "zero" test must fail;
# and test_workload.py's:
#   stream      the workload's operands replaced by made-up ones: the zero
#               workload and the reproduced random figure must fail;
#   valid       slices read whatever valid_i: the slices read back must fail;
#   slews       gated clocks keep OpenSTA's unbuffered slew: the gated
#               flip-flops' test must fail;
# and test_energy_hand.py's (tcu_phys/energy.py, the energy method):
#   pin_rise    an input pin charged its rise table at every transition:
#               the flip-flop cases must fail;
#   arc_rise    an output charged its rise table at every transition: the
#               inverter chain, full adder and multiplexer must fail;
#   attribution the arc of the input that moved not found (every arc's
#               mean): the full adder or the multiplexer must fail.
#   tests/phys/planted_fault.sh PYTHON
set -uo pipefail
python=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
failures=0
plant() {  # plant NAME PYTHON-REPLACEMENT PYTEST-K [MODULE [TEST-FILE]]
  local name=$1 edit=$2 select=$3 module=${4:-sta} tests=${5:-test_energy} work
  work=$(mktemp -d)
  cp -r "$repo/python" "$repo/spec" "$repo/tests" "$repo/rtl" "$work/"
  if ! "$python" - "$work/python/tcu_tools/phys/$module.py" "$edit" <<'PY'; then
import sys
path, edit = sys.argv[1], sys.argv[2]
old, new = edit.split("|||")
text = open(path).read()
if old not in text:
    sys.exit(f"planted_fault: '{old}' not in {path}")
open(path, "w").write(text.replace(old, new))
PY
    failures=$((failures + 1))
  # Run from the copy's python/: `-m` imports its tcu_tools (the copy) first.
  elif (cd "$work/python" && "$python" -m pytest -q -p no:cacheprovider \
    "$work/tests/phys/$tests.py" -k "$select") >"$work/out" 2>&1; then
    echo "planted_fault: the tests '$select' passed with the fault '$name'" >&2
    failures=$((failures + 1))
  elif ! grep -q "failed" "$work/out"; then
    echo "planted_fault: '$select' with the fault '$name' did not fail a test:" >&2
    tail -5 "$work/out" >&2
    failures=$((failures + 1))
  else
    echo "planted_fault: '$select' failed with the fault '$name', as it must"
  fi
  rm -rf "$work"
}
plant activities \
  'for net, (activity, duty) in sorted(activities.items()):|||script += "set_power_activity -global -activity 0.1 -duty 0.5\n"
        for net, (activity, duty) in []:' \
  rises
plant zero \
  'script += "set_power_activity -global -activity 0 -duty 0\n"|||script += "set_power_activity -global -activity 0.1 -duty 0.5\n"' \
  zero
plant clock \
  'script = _preamble(netlist, top, None, period_ns)|||script = _preamble(netlist, top, clock_port, period_ns)' \
  "clocked_unit_zero"
plant stream \
  'row.append(s[name] & ((1 << width) - 1))|||row.append((cycle * 0x9E3779B97F4A7C15 >> 5) & ((1 << width) - 1))' \
  "zero_operands or reproduces" workload test_workload
plant valid \
  'before["valid_i"] and|||True and' \
  accepted_operands workload test_workload
plant slews \
  'script += sta.ideal_clock_slews(netlist, clock_port)|||pass' \
  gated energy test_workload
plant pin_rise \
  't = rise_t if rising else fall_t|||t = rise_t' \
  "dff and method" energy test_energy_hand
plant arc_rise \
  'table = a.rise if rising else a.fall|||table = a.rise' \
  "(inverter_chain or full_adder or multiplexer) and method" energy test_energy_hand
plant attribution \
  'if a.related in conns and model.canon(conns[a.related]) in step]|||if False]' \
  "(full_adder or multiplexer) and method" energy test_energy_hand
exit $((failures > 0))
