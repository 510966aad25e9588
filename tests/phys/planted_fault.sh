#!/usr/bin/env bash
# Proof that phys_energy_method can fail: a copy of tools/tcu_phys whose
# power step ignores the simulated activities (one global activity for every
# net) must fail test_energy_rises_with_toggle_rate.
#   tests/phys/planted_fault.sh PYTHON
set -euo pipefail
python=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$repo/tools" "$repo/tests" "$repo/rtl" "$work/"
sta="$work/tools/tcu_phys/sta.py"
grep -q 'for net, (activity, duty) in sorted(activities.items()):' "$sta"
sed -i 's/for net, (activity, duty) in sorted(activities.items()):/script += "set_power_activity -global -activity 0.1 -duty 0.5\\n"\n        for net, (activity, duty) in []:/' "$sta"
if "$python" -m pytest -q -p no:cacheprovider "$work/tests/phys" -k rises; then
  echo "planted_fault: the energy test passed with the activities ignored" >&2
  exit 1
fi
echo "planted_fault: the energy test failed with the activities ignored, as it must"
