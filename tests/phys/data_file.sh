#!/usr/bin/env bash
# The data file (spec/phys_osu018.toml) against a fresh measurement.
#   tests/phys/data_file.sh PYTHON WORKDIR check
#     measures tcu_sparse_mux (the cheapest point: seconds) into
#     WORKDIR/fresh.json and requires the data file to agree (tcu_tools.phys
#     --check);
#   tests/phys/data_file.sh PYTHON WORKDIR check-int4
#     the same for tcu_int4_dot at the small configuration's Stages=1 (a
#     synthesis of a minute or more: second tier);
#   tests/phys/data_file.sh PYTHON WORKDIR check-f16
#     the same for tcu_f16_dot at both its points (FmaStages=2, default;
#     FmaStages=1, small), energy included (minutes: second
#     tier; tcu_fma, which it shares with the f64 dot, changed after the
#     file was written once and only the f64 check saw it);
#   tests/phys/data_file.sh PYTHON WORKDIR check-f64
#     the same for tcu_f64_dot at the default FmaStages=2, its energy from
#     its own gate-level simulation (the longest: second tier; each
#     check's CPU seconds in docs/data/costs.toml);
#   tests/phys/data_file.sh PYTHON WORKDIR planted
#     the proof that the check can fail: for each figure --check compares,
#     a copy of the data file with that figure of the tcu_sparse_mux point
#     changed by 1% (or 1, or added where the point has none) must be
#     refused against the same fresh.json, naming the figure (the point
#     given fresh.json's sources, so the exact tolerance applies); so must
#     a copy with another library, one whose point was mapped with the
#     plain (unbuffered) flow (tcu-phys --plain), one from other sources
#     of the same logic with its area 5 % off (past
#     tcu_tools.phys.datafile.REORDERED, the mapping order's tolerance)
#     and one measured from other logic (rtl_design).
set -uo pipefail
python=$1
work=$2
mode=$3
repo=$(cd "$(dirname "$0")/../.." && pwd)
data=$repo/spec/phys_osu018.toml
mkdir -p "$work" || exit 1
case $mode in
  check)
    nice -n 10 "$python" -m tcu_tools.phys --unit tcu_sparse_mux --workdir "$work" \
      --json "$work/fresh.json" --check "$data" || exit 1
    ;;
  check-int4)
    nice -n 10 "$python" -m tcu_tools.phys --unit tcu_int4_dot --params Stages=1 --workdir "$work" \
      --json "$work/fresh_int4.json" --check "$data" || exit 1
    ;;
  check-f16)
    for stages in 2 1; do
      nice -n 10 "$python" -m tcu_tools.phys --unit tcu_f16_dot --params FmaStages=$stages \
        --workdir "$work" --json "$work/fresh_f16_$stages.json" --check "$data" || exit 1
    done
    ;;
  check-f64)
    nice -n 10 "$python" -m tcu_tools.phys --unit tcu_f64_dot --params FmaStages=2 --workdir "$work" \
      --json "$work/fresh_f64.json" --check "$data" || exit 1
    ;;
  planted)
    [ -s "$work/fresh.json" ] || { echo "planted: no $work/fresh.json (run check first)" >&2; exit 1; }
    fields=$("$python" -c 'from tcu_tools.phys import datafile; print(" ".join(datafile.CHECKED))')
    failures=0
    declare -A want=([reordered]=": area_um2 file" [rtl_design]="rtl_design file")
    for field in $fields library mapping reordered rtl_design; do
      "$python" - "$data" "$work/tampered.toml" "$field" "$work/fresh.json" <<'PY' || exit 1
import json, re, sys
text = open(sys.argv[1]).read()
field = sys.argv[3]
fresh = json.load(open(sys.argv[4]))["units"][0]
# the [[point]] of tcu_sparse_mux
start = text.index('unit = "tcu_sparse_mux"\n')
end = text.find("[[", start)
block = text[start:end]


def put(block, name, value):
    m = re.search(rf"^{name} = (.*)$", block, re.M)
    if m:
        return block[:m.start(1)] + value + block[m.end(1):]
    return block + f"{name} = {value}\n"


def scaled(block, name, factor):
    m = re.search(rf"^{name} = (.*)$", block, re.M)
    if not m:
        return put(block, name, "1.0")
    v = float(m.group(1))
    return put(block, name, repr(int(v) + 1) if re.fullmatch(r"-?\d+", m.group(1))
               else repr(v * factor or 1.0))


if field == "library":
    text = text.replace('library = "OSU 0.18 µm, typical corner"', 'library = "other"', 1)
    block = None
elif field == "mapping":
    from tcu_tools.phys import figures
    assert figures.MAPPING_BUFFERED in block, "the sparse mux point is not buffered"
    block = block.replace(figures.MAPPING_BUFFERED, figures.MAPPING_PLAIN)
elif field == "reordered":
    # other sources of the same logic: the area off by 5 %, past the mapping
    # order's tolerance (datafile.REORDERED)
    block = put(block, "rtl_files", '"0000000000000000"')
    block = scaled(block, "area_um2", 1.05)
elif field == "rtl_design":
    block = put(block, "rtl_design", '"0000000000000000"')
else:
    # the same sources as the fresh point, so the exact tolerance applies
    block = put(block, "rtl_files", f'"{fresh["rtl_files"]}"')
    block = scaled(block, field, 1.01)
if block is not None:
    text = text[:start] + block + text[end:]
open(sys.argv[2], "w").write(text)
PY
      if "$python" -m tcu_tools.phys --from-json "$work/fresh.json" --check "$work/tampered.toml" \
        >"$work/planted.out" 2>&1; then
        echo "FAIL: --check accepted a data file with $field changed"
        failures=$((failures + 1))
      elif [ "$field" != library ] && ! grep -q "${want[$field]:-: $field file}" "$work/planted.out"; then
        echo "FAIL: --check refused the changed $field without naming it:"
        cat "$work/planted.out"
        failures=$((failures + 1))
      fi
    done
    [ $failures -eq 0 ] || exit 1
    echo "planted: every figure changed, the library, the mapping, a figure past the mapping order's tolerance and other logic were refused"
    ;;
  *)
    echo "usage: data_file.sh PYTHON WORKDIR check|check-int4|check-f16|check-f64|planted" >&2
    exit 2
    ;;
esac
