#!/usr/bin/env bash
# verilator --lint-only -Wall over every unit in rtl/, each as its own top
# (tcu_datapath and the engines at their defaults inside tcu_core: the same
# parameters).
# Waivers live in rtl/lint.vlt, each with its reason. Any warning fails.
# Constructs Verilator accepts but Yosys reads otherwise: scripts/
# lint_constructs.py (a test of its own).
#
#   scripts/lint.sh [simulation|synthesis] [units|datapaths|defaults]
#
# Both descriptions and every part (every unit as its top; tcu_datapath at
# further parameter sets; tcu_core with SYNTHESIS at its default widths and
# unit counts) by default; a description or a part alone with its name.
# CTest runs such slices as separate tests, so that they share the machine's
# cores (the part defaults in the second tier: rtl_lint_synthesis_defaults,
# its CPU seconds in docs/data/costs.toml).
set -uo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/lint.sh [simulation|synthesis] [units|datapaths|defaults]" >&2; exit 2; }
defines=("" "+define+SYNTHESIS")
parts=(units datapaths defaults)
for arg in "$@"; do
  case "$arg" in
    simulation) defines=("") ;;
    synthesis)  defines=("+define+SYNTHESIS") ;;
    units | datapaths | defaults) parts=("$arg") ;;
    *) usage ;;
  esac
done
want() { [[ " ${parts[*]} " == *" $1 "* ]]; }
status=0
waivers=()
[ -f rtl/lint.vlt ] && waivers=(rtl/lint.vlt)
# tcu_pkg.sv is read first (once); every other file is a unit.
units=()
for unit in rtl/tcu_*.sv; do
  [ "$unit" = rtl/tcu_pkg.sv ] || units+=("$unit")
done
# Twice: as simulated, and as Yosys reads it: SYNTHESIS defined (no
# verification aids) and SynthImpl=1 where a unit has it (the synthesis
# implementations, e.g. tcu_word_mux's mux tree).
want units && for define in "${defines[@]}"; do
  for unit in "${units[@]}"; do
    top=$(basename "$unit" .sv)
    # A checker (assertions bound into a unit) is simulation only: with
    # SYNTHESIS its file is empty.
    [ -n "$define" ] && [[ $top == *_checker ]] && continue
    # tcu_datapath and its four engines at their defaults are the instances
    # inside tcu_core (the same parameters: the engines' default Units are
    # the default datapath's unit counts; SynthImpl passed through), linted
    # with it (with SYNTHESIS: in the part "defaults"); the datapath's other
    # parameter sets are the "datapaths" part below. (About 60 s of CPU
    # saved.)
    case $top in
      tcu_datapath | tcu_int4_engine | tcu_e2m1_engine | tcu_f16_engine | tcu_f64_engine) continue ;;
    esac
    # The router's synthesis forms (no SYNTHESIS text of their own and no
    # SynthImpl: the same code in both passes) are linted as their own tops
    # in the SYNTHESIS pass only (docs/data/costs.toml, figures lint-units-gather-8
    # and lint-units-scatter). The router itself with
    # SYNTHESIS is the instance inside tcu_core (4 words a cycle, SynthImpl
    # passed through: its synthesis forms within); as its own top it is
    # linted in the simulation pass (figure lint-router-own-top-saved: at 16 words a cycle its
    # own top elaborated the same code as tcu_core's instance); so is its write-back
    # (tcu_router_writeback: with SYNTHESIS inside tcu_core's router, its scatter's synthesis
    # form at the default width the own top tcu_router_scatter_synth).
    case $top in
      tcu_router_gather_synth | tcu_router_scatter_synth) [ -n "$define" ] || continue ;;
      tcu_operand_router | tcu_router_writeback) [ -z "$define" ] || continue ;;
    esac
    # tcu_core with SYNTHESIS at 4 words a cycle each way, 4 f16 FMAs and 64
    # e2m1 MACs: the hierarchy and its SynthImpl pass-through; at the
    # default widths and unit counts the synthesis implementations'
    # per-position networks and unit arrays take more than twice as long
    # (test rtl_lint_synthesis_defaults against figure lint-units-tcu-core), and the
    # datapath and each unit are linted as their own tops in the same pass.
    # The AND-OR gather as its own top at 8 words a cycle (at the default
    # 64 its per-position networks took 33 s of the test command; the code
    # is the same at any width, and the default width is synthesized by the
    # gate-level and explore flows).
    params=()
    [ "$top" = tcu_core ] && [ -n "$define" ] &&
      params=(-GWordsPerCycle=4 -GDWordsPerCycle=4 -GF16FmasPerCycle=4 -GE2m1MacsPerCycle=64)
    [ "$top" = tcu_router_gather_synth ] && params=(-GWordsPerCycle=8)
    # The synthesis implementations (SynthImpl=1) where a unit has both.
    [ -n "$define" ] && grep -q "parameter bit *SynthImpl" "$unit" && params+=("-GSynthImpl=1'b1")
    if out=$(verilator --lint-only -Wall -Irtl $define "${waivers[@]}" rtl/tcu_pkg.sv "${units[@]}" \
               --top-module "$top" "${params[@]}" 2>&1) && [ -z "$out" ]; then
      echo "lint clean: $top ${params[*]} ${define:-(simulation)}"
    else
      echo "lint FAILED: $top ${define:-(simulation)}"
      echo "$out"
      status=1
    fi
  done
done
# tcu_datapath again at settings that elaborate other code: engines left
# out (their inputs unused), and unit counts that are not powers of two (the
# spec's configurations lint_*, spec/config.toml).
datapath_params=()
for config in lint_no_int4_f16 lint_no_sparse_e2m1_f64; do
  datapath_params+=("$(.venv/bin/python -m tcu_tools.spec params $config --form verilator)") || exit 1
done
want datapaths && for define in "${defines[@]}"; do
  for params in "${datapath_params[@]}"; do
    # shellcheck disable=SC2086
    [ -n "$define" ] && params+=" -GSynthImpl=1'b1"
    if out=$(verilator --lint-only -Wall -Irtl $define "${waivers[@]}" rtl/tcu_pkg.sv "${units[@]}" \
               --top-module tcu_datapath $params 2>&1) && [ -z "$out" ]; then
      echo "lint clean: tcu_datapath $params ${define:-(simulation)}"
    else
      echo "lint FAILED: tcu_datapath $params ${define:-(simulation)}"
      echo "$out"
      status=1
    fi
  done
done
# tcu_core with SYNTHESIS at its defaults (the units part lints it at
# smaller widths and unit counts).
want defaults && for define in "${defines[@]}"; do
  [ -n "$define" ] || continue
  if out=$(verilator --lint-only -Wall -Irtl $define "${waivers[@]}" rtl/tcu_pkg.sv "${units[@]}" \
             --top-module tcu_core "-GSynthImpl=1'b1" 2>&1) && [ -z "$out" ]; then
    echo "lint clean: tcu_core SynthImpl=1 (defaults) $define"
  else
    echo "lint FAILED: tcu_core SynthImpl=1 (defaults) $define"
    echo "$out"
    status=1
  fi
done
exit $status
