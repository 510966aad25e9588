#!/usr/bin/env bash
# Generic Yosys 0.23 synthesis (synth -flatten) of RTL units, one run per unit
# and parameter setting, and a table of what each costs:
#   cells        gate-level cells after synthesis (stat)
#   flip-flops   the $_DFF*/$_SDFF*/$_ALDFF* cells among them
#   transistors  stat -tech cmos's estimate; it counts gates only (a "+"
#                means cells without a CMOS cost, flip-flops, were left out)
#   depth        logic depth: gates on the longest combinational path
#                between ports and flip-flops (ltp -noff)
# and with --liberty, the same unit mapped to a real cell library, the OSU
# 0.18 um standard cells (Debian qflow-tech-osu018, typical corner; Yosys
# dfflibmap/abc -liberty, OpenSTA; python/tcu_tools/phys/area.py):
#   um2          area in um^2 (every cell), ff-um2 the flip-flops' share
#   MHz          the clock the critical path allows, path its start -> end
#
#   scripts/synth.sh [--params "Name=Value ..."]... [--csv FILE] [--json FILE]
#                    [--liberty] [--netlist] [unit...]
#
# Units with a SynthImpl parameter are synthesized with SynthImpl=1 (their
# synthesis implementations; the fast ones are not read). Units default to
# every rtl/tcu_*.sv but tcu_pkg and the fast implementations. Without
# --params each unit runs at its defaults, tcu_datapath at one dot unit per
# engine (the default instantiates hundreds of FMAs), and tcu_core (operand
# router and datapath) at one dot unit per engine and one word a cycle each
# way; each --params
# gives one run of every unit at those parameters (repeat it for a sweep).
# tcu_core is followed by a run of tcu_operand_router alone at the core's
# router parameters (row "tcu_core.router"), its share of the core, e.g.
#   scripts/synth.sh --params "Int4MacsPerCycle=64 E2m1MacsPerCycle=64 F16FmasPerCycle=4 F64FmasPerCycle=4" tcu_datapath
#   scripts/synth.sh --params Stages=1 --params Stages=2 --params Stages=3 tcu_int4_dot
# --csv FILE writes the table as CSV as well (the --liberty columns area_um2,
# flip_flop_area_um2, fmax_mhz, critical_path_ns, path_start, path_end
# empty without it); --json FILE as a JSON list of rows with the same keys
# (and "library"). --netlist writes each run's
# gate-level netlist as well (write_verilog -noattr after the figures:
# Yosys's generic cells as Verilog expressions and always blocks, the top's
# ports as in the RTL, internal vectors split into bits), the
# design the figures count, for gate-level simulation (tests/rtl/
# gls_units.cmake). Logs, statistics and netlists go to $SYNTH_DIR (default
# build/synth), named after the unit and its parameters (tcu_int4_dot.log,
# tcu_int4_dot.Stages-1.v). Exit 1 if a run fails or a figure is missing from
# Yosys's output, 2 for a bad command line.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${SYNTH_DIR:-build/synth}

# The top at one dot unit per engine, default pipeline depths: the spec's
# configurations synth_datapath and synth_core (spec/config.toml).
DATAPATH_PARAMS=$(.venv/bin/python -m tcu_tools.spec params synth_datapath) || exit 1
CORE_PARAMS=$(.venv/bin/python -m tcu_tools.spec params synth_core) || exit 1

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
fail_usage() {
  echo "synth.sh: $1 (see scripts/synth.sh --help)" >&2
  exit 2
}

param_sets=()
csv=""
json=""
liberty=0
netlist=0
tops=()
while [ $# -gt 0 ]; do
  case $1 in
    --params)
      [ $# -ge 2 ] || fail_usage "--params needs a value"
      param_sets+=("$2")
      shift 2
      ;;
    --params=*)
      param_sets+=("${1#--params=}")
      shift
      ;;
    --csv)
      [ $# -ge 2 ] || fail_usage "--csv needs a file"
      csv=$2
      shift 2
      ;;
    --csv=*)
      csv=${1#--csv=}
      shift
      ;;
    --json)
      [ $# -ge 2 ] || fail_usage "--json needs a file"
      json=$2
      shift 2
      ;;
    --json=*)
      json=${1#--json=}
      shift
      ;;
    --liberty)
      liberty=1
      shift
      ;;
    --netlist)
      netlist=1
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*) fail_usage "unknown option $1" ;;
    *)
      tops+=("$1")
      shift
      ;;
  esac
done
for params in "${param_sets[@]+"${param_sets[@]}"}"; do
  for p in $params; do
    [[ $p =~ ^[A-Za-z_][A-Za-z0-9_]*=[-+0-9A-Za-z_\']+$ ]] ||
      fail_usage "--params \"$params\": expected Name=Value words, found '$p'"
  done
done
units=()
for unit in rtl/tcu_*.sv; do
  [ "$unit" = rtl/tcu_pkg.sv ] || grep -q "^// Simulation flow only:" "$unit" || units+=("$unit")
done
if [ ${#tops[@]} -eq 0 ]; then
  for unit in "${units[@]}"; do tops+=("$(basename "$unit" .sv)"); done
fi
for top in "${tops[@]}"; do
  [ -f "rtl/$top.sv" ] || fail_usage "no unit $top (rtl/$top.sv)"
done
if [ $liberty = 1 ]; then
  [ -f /usr/share/qflow/tech/osu018/osu018_stdcells.lib ] ||
    fail_usage "--liberty: no OSU 0.18 um library (/usr/share/qflow/tech/osu018; the Debian package qflow-tech-osu018, scripts/setup.sh installs it)"
  command -v sta >/dev/null || fail_usage "--liberty: no OpenSTA (sta; the Debian package opensta)"
fi
mkdir -p "$out" || exit 2
LIBERTY_KEYS="area_um2 flip_flop_area_um2 fmax_mhz critical_path_ns path_start path_end"
if [ -n "$csv" ]; then
  echo "unit,parameters,cells,flip_flops,transistors,logic_depth,seconds,status,${LIBERTY_KEYS// /,}" \
    >"$csv" || fail_usage "--csv $csv: cannot write"
fi
if [ -n "$json" ]; then
  : >"$json.rows" || fail_usage "--json $json: cannot write"
fi

# The files a top needs: itself and every rtl/tcu_*.sv it names, transitively
# (a name in a comment only adds a file), so that a unit does not depend on
# whether unrelated files parse; but not the fast simulation implementations
# (marked "Simulation flow only"; SynthImpl=1 never instantiates them, and
# Yosys would spend minutes filling tcu_router_gather_fast's table).
sources_of() {
  local -a todo=("$1") seen=()
  local name word
  while [ ${#todo[@]} -gt 0 ]; do
    name=${todo[0]}
    todo=("${todo[@]:1}")
    [[ " ${seen[*]-} " == *" $name "* ]] && continue
    seen+=("$name")
    for word in $(grep -oE '\btcu_[a-z0-9_]+\b' "rtl/$name.sv" | sort -u); do
      [ "$word" != tcu_pkg ] && [ -f "rtl/$word.sv" ] &&
        ! grep -q "^// Simulation flow only:" "rtl/$word.sv" && todo+=("$word")
    done
  done
  for name in "${seen[@]}"; do printf 'rtl/%s.sv ' "$name"; done
}

status=0
header_liberty=""
[ $liberty = 1 ] && header_liberty=$(printf ' %11s %9s %8s' um2 ff-um2 MHz)
printf '%-22s %10s %10s %12s %6s%s %8s  %s\n' unit cells flip-flops transistors depth \
  "$header_liberty" seconds parameters
run() {
  local top=$1 params=$2 label=${3:-$1} chparam="" p name
  for p in $params; do chparam+=" -chparam ${p%%=*} ${p#*=}"; done
  # The synthesis implementations (SynthImpl=1; the fast simulation ones are
  # proven equal to them by tcu-formal), unless --params says otherwise.
  if grep -q "parameter bit *SynthImpl" "rtl/$top.sv" && [[ " $params" != *" SynthImpl="* ]]; then
    chparam+=" -chparam SynthImpl 1"
  fi
  name=$top
  [ -n "$params" ] && name+=".$(echo "$params" | tr ' =' '_-')"
  local log="$out/$name.log" stat="$out/$name.stat" ltp="$out/$name.ltp"
  local write_netlist=""
  rm -f "$stat" "$ltp" "$out/$name.v"
  # splitnets: each internal wire bit a net of its own (the netlist's
  # vectors mix bits of different logic levels, which a simulator such as
  # Verilator would otherwise evaluate as a combinational loop).
  [ $netlist = 1 ] && write_netlist="splitnets; write_verilog -noattr $out/$name.v"
  local start cells="" ffs="" transistors="" depth="" result=ok lib_json="$out/$name.osu018.json"
  local -a lib=("" "" "" "" "" "")
  start=$(date +%s)
  # read_verilog -defer: no module is elaborated at its default parameters,
  # only from the top down at the top's (hierarchy -chparam); read at their
  # defaults, the units would instantiate the fast implementations
  # (SynthImpl = 0), which the synthesis flows do not read. (Without -defer,
  # Yosys 0.23's hierarchy -chparam tripped an internal assertion, a derived
  # module added twice, on tcu_datapath.)
  if yosys -q -l "$log" -p "read_verilog -sv -defer rtl/tcu_pkg.sv $(sources_of "$top");
        hierarchy -check -top $top$chparam; synth -flatten -top $top -run coarse:;
        tee -q -o $stat stat -tech cmos; tee -q -o $ltp ltp -noff; $write_netlist" \
    >/dev/null 2>&1; then
    cells=$(awk '/Number of cells:/ {n = $4} END {print n}' "$stat")
    ffs=$(awk '/\$_(S|AL)?DFF/ {n += $2} END {print n + 0}' "$stat")
    transistors=$(awk '/Estimated number of transistors:/ {n = $5} END {print n}' "$stat")
    depth=$(sed -n 's/^Longest topological path .*(length=\([0-9]*\)).*/\1/p' "$ltp" | tail -1)
    if [ -z "$cells" ] || [ -z "$transistors" ] || [ -z "$depth" ]; then
      result="missing figures (see $stat, $ltp)"
    elif [ $netlist = 1 ] && [ ! -s "$out/$name.v" ]; then
      result="no netlist $out/$name.v (see $log)"
    fi
  else
    result="failed (see $log)"
  fi
  # The same top mapped to the OSU 0.18 um cells: area and clock.
  if [ "$result" = ok ] && [ $liberty = 1 ]; then
    rm -f "$lib_json"
    if .venv/bin/python -m tcu_tools.phys.area "$top" --params "$params" --json "$lib_json" \
      --workdir "$out/osu018/$name" >>"$log" 2>&1; then
      mapfile -t lib < <(python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
for k in sys.argv[2:]: print(f[k])' "$lib_json" $LIBERTY_KEYS)
    else
      result="liberty mapping failed (see $log)"
    fi
  fi
  local seconds=$(($(date +%s) - start))
  if [ "$result" = ok ]; then
    local row_liberty=""
    [ $liberty = 1 ] && row_liberty=$(printf ' %11.0f %9.0f %8.1f' "${lib[0]}" "${lib[1]}" "${lib[2]}")
    printf '%-22s %10s %10s %12s %6s%s %8s  %s\n' "$label" "$cells" "$ffs" "$transistors" "$depth" \
      "$row_liberty" "$seconds" "${params:-defaults}"
    [ $liberty = 1 ] && printf '%-22s critical path %s ns: %s -> %s\n' "" "${lib[3]}" "${lib[4]}" \
      "${lib[5]}"
  else
    printf '%-22s %10s  %s  %s\n' "$label" FAILED "$result" "${params:-defaults}"
    status=1
  fi
  if [ -n "$csv" ]; then
    printf '%s,"%s",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"%s","%s"\n' "$label" "${params:-defaults}" \
      "$cells" "$ffs" "$transistors" "$depth" "$seconds" "${result%% (*}" "${lib[@]}" >>"$csv"
  fi
  if [ -n "$json" ]; then
    python3 -c 'import json, sys
keys = ["unit", "parameters", "cells", "flip_flops", "transistors", "logic_depth", "seconds",
        "status", "area_um2", "flip_flop_area_um2", "fmax_mhz", "critical_path_ns", "path_start",
        "path_end"]
row = dict(zip(keys, sys.argv[1:]))
for k in ("cells", "flip_flops", "logic_depth", "seconds"):
    row[k] = int(row[k]) if row[k] else None
for k in ("area_um2", "flip_flop_area_um2", "fmax_mhz", "critical_path_ns"):
    row[k] = float(row[k]) if row[k] else None
row["library"] = "OSU 0.18 µm, typical corner" if row["area_um2"] is not None else None
print(json.dumps(row))' "$label" "${params:-defaults}" "$cells" "$ffs" "$transistors" "$depth" \
      "$seconds" "${result%% (*}" "${lib[@]}" >>"$json.rows"
  fi
}

# tcu_core's router parameters, for its separate router run.
router_params() {
  local p out=""
  for p in $1; do
    case ${p%%=*} in WordsPerCycle | DWordsPerCycle | GatherBypass) out+=" $p" ;; esac
  done
  echo "${out# }"
}
run_top() {
  run "$1" "$2"
  [ "$1" = tcu_core ] && run tcu_operand_router "$(router_params "$2")" tcu_core.router
  return 0
}
for top in "${tops[@]}"; do
  if [ ${#param_sets[@]} -eq 0 ]; then
    params=""
    [ "$top" = tcu_datapath ] && params=$DATAPATH_PARAMS
    [ "$top" = tcu_core ] && params=$CORE_PARAMS
    run_top "$top" "$params"
  else
    for params in "${param_sets[@]}"; do run_top "$top" "$params"; done
  fi
done
if [ -n "$json" ]; then
  python3 -c 'import json, sys
print(json.dumps([json.loads(l) for l in open(sys.argv[1])], indent=2))' "$json.rows" >"$json"
  rm -f "$json.rows"
fi
exit $status
