#!/usr/bin/env bash
# Formal equivalence of each unit's two implementations (Yosys 0.23 SAT, ABC):
# the synthesis implementation (what scripts/synth.sh maps, SynthImpl=1)
# against the fast simulation one (SynthImpl=0), at the parameter sets the
# configurations and the unit tests use. One line per pair and parameter
# set (proven, FAILED, or open: not proven, with the reason), then a line
# naming the open ones and "N proven, M failed"; exit 0 only when nothing
# failed.
#
#   scripts/equiv.sh [--plant] [--tier default|full|all] [--list] [filter]
#
# Each check is a miter (a module instantiating both implementations with
# shared inputs, trigger high when their outputs differ), proven:
#   comb  combinational pairs: trigger is 0 for every input (sat -prove).
#   aig   the same, proven by ABC's dprove on the miter as an AIG: SAT
#         sweeping merges equal internal signals first, so a sum over equal
#         parts is decided in seconds where one SAT call does not finish.
#   seq   pipelines: from reset (rst_ni low in the first step), trigger is 0
#         in every cycle (sat -tempinduct: a base case from reset and an
#         induction step of up to Stages + 2 cycles from any state). en_i is
#         held high: en_i low holds every register of both implementations
#         (their registers all load under en_i), so a stalled cycle repeats
#         the outputs of the one before in both. Data outputs are compared
#         only where their valid bit is high (they are meaningful only then;
#         the data registers are not reset).
# A check marked open is one SAT has not decided in reasonable time: it is
# not run (its line says why) and is not counted as proven.
# --plant copies each fast implementation into a temporary directory with a
# one-bit difference planted (sed; the checked-in RTL is untouched) and runs
# the same checks on it, the open ones included (a counterexample is found
# quickly even where a proof is not): every check must then fail, so the
# line "0 proven, M failed" shows each proof can fail. Checks too large to
# build, or that Yosys cannot read (the router's gather), stay open under
# --plant too. --tier
# picks the checks: default (the test command's), full (the slow ones,
# CTest label full) or all (both; the default). A filter keeps the checks
# whose line contains it.
# Yosys logs go to $EQUIV_DIR (default build/equiv); each check is stopped
# after $EQUIV_TIMEOUT seconds (default 900) and then counts as failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${EQUIV_DIR:-build/equiv}
case $out in /*) ;; *) out=$root/$out ;; esac
plant=0
tier=all
list=0
filter=""
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --plant) plant=1 ;;
    --list) list=1 ;;
    --tier)
      [ $# -ge 2 ] || { echo "equiv.sh: --tier needs default, full or all" >&2; exit 2; }
      tier=$2
      shift
      ;;
    --tier=*) tier=${1#--tier=} ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "equiv.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) filter=$1 ;;
  esac
  shift
done
case $tier in default | full | all) ;; *) echo "equiv.sh: bad tier '$tier'" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---------------------------------------------------------------------------
# The checks: tier|state|pair|kind|miter|parameters (Name=Value, blank-
# separated); state "prove"; "open" (SAT has not decided it: run only with
# --plant, where a counterexample comes quickly); or "unrun" (open, and not
# run with --plant either: too large, or not readable by Yosys; see
# open_reason); kind comb or seq.
# ---------------------------------------------------------------------------
# int4 dot: Stages 0..7 (the configurations' IntStages: default 2, small 1;
# the unit tests' 2 and 7; 0 is the smoke test's).
# e2m1 group dots: no parameters (tcu_e2m1_dot's Stages do not reach them).
# word mux: the bit function does not depend on Width beyond replication
# (Width 1 and 32 checked); Words as the datapath and the scatter use them:
# powers of two up to 512 and counts that are not (partial unit groups).
# Router scatter: DWordsPerCycle of the configurations (default 64, small
# 32) and the router unit tests (8, 64, 1, 5).
# Router gather: WordsPerCycle of the configurations (64) and the unit
# tests (3), with and without the bypass.
# The test command's tier (default) takes about 4 CPU minutes (plus about
# as much for --plant), the e2m1 group dots (ABC, 50 s) among them; the
# wider scatters go in the second tier (full).
checks=()
checks+=("default|open|int4_dot tree=planes|seq|int4_dot|Stages=2")
for s in 0 1 3 4 5 6 7; do checks+=("full|open|int4_dot tree=planes|seq|int4_dot|Stages=$s"); done
checks+=("default|prove|e2m1_group_dots formula=table|aig|e2m1_group_dots|")
for words in 1 2 3 5 6 16 20 32 64 256 512; do
  checks+=("default|prove|word_mux tree=index|comb|word_mux|Width=1 Words=$words")
done
for words in 3 16 256; do
  checks+=("default|prove|word_mux tree=index|comb|word_mux|Width=32 Words=$words")
done
checks+=("default|prove|router_scatter mux=index|comb|scatter|DWordsPerCycle=1")
checks+=("full|prove|router_scatter mux=index|comb|scatter|DWordsPerCycle=5")
# From 8 words SAT does not finish and the miter takes Yosys minutes and
# gigabytes to build; ABC proves 8 words (7 CPU minutes); 32 and 64 are not
# run, with --plant either (the same plant fails at 1 and 5 words).
checks+=("full|prove|router_scatter mux=index|aig|scatter|DWordsPerCycle=8")
for dw in 32 64; do checks+=("full|unrun|router_scatter mux=index|comb|scatter|DWordsPerCycle=$dw"); done
for w in 3 64; do
  for bypass in 0 1; do
    checks+=("default|unrun|router_gather andor=table|comb|gather|WordsPerCycle=$w GatherBypass=$bypass")
  done
done

# Why an open check is open (measured on the shared 2-core machine).
open_reason() {
  case $1 in
    int4_dot) echo "SAT undecided: the two sum the 128 partial products in different orders;" \
                   "Yosys sat past 2 CPU minutes, ABC &cec past 100 CPU s even at Stages=0;" \
                   "a lane-by-lane split (form(a) - form(a, lane k zeroed) = a_k*b_k):" \
                   "ABC dprove 8 CPU s a lane for the tree, undecided past 155 CPU s for the planes" ;;
    scatter) echo "not run: SAT past 15 minutes from 8 words; ABC proves 8 words in 7 CPU" \
                  "minutes, the miters of 32 and 64 words are 4 and 8 times larger" ;;
    gather) echo "not checked: Yosys 0.23 does not finish reading tcu_router_gather_table" \
                 "(its 16,384-entry table filled by frag_place at time 0; 25 min; with the" \
                 "fill replaced by frag_place itself, proc stalls on its indexed writes into" \
                 "the 4-8 kbit buffers: W=3 past 5 CPU min), and its bypass latch is equal" \
                 "only under the driver discipline" ;;
  esac
}

# ---------------------------------------------------------------------------
# Miters: GOLD/GATE are replaced by the implementations' module names.
# ---------------------------------------------------------------------------
miter_int4_dot() {
  cat <<'EOF'
module eq_miter #(parameter int unsigned Stages = 2) (
  input  logic         clk_i, rst_ni, en_i, valid_i, a_signed_i, b_signed_i,
  input  logic [127:0] a_i, b_i,
  output logic         trigger
);
  logic gv, fv;
  logic [13:0] gs, fs;
  GOLD #(.Stages(Stages)) u_gold (.clk_i, .rst_ni, .en_i, .valid_i, .a_signed_i, .b_signed_i,
                                  .a_i, .b_i, .valid_o(gv), .sum_o(gs));
  GATE #(.Stages(Stages)) u_gate (.clk_i, .rst_ni, .en_i, .valid_i, .a_signed_i, .b_signed_i,
                                  .a_i, .b_i, .valid_o(fv), .sum_o(fs));
  // sum_o is meaningful with valid_o only.
  assign trigger = gv != fv || (gv && gs != fs);
endmodule
EOF
}
miter_e2m1_group_dots() {
  cat <<'EOF'
module eq_miter (
  input  logic [255:0] a_i, b_i,
  output logic         trigger
);
  logic [4*13-1:0] g, f;
  GOLD u_gold (.a_i, .b_i, .dots_o(g));
  GATE u_gate (.a_i, .b_i, .dots_o(f));
  assign trigger = g != f;
endmodule
EOF
}
miter_word_mux() {
  cat <<'EOF'
module eq_miter #(
  parameter int unsigned  Width = 1,
  parameter int unsigned  Words = 2,
  localparam int unsigned SelW  = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic                   trigger
);
  logic [Width-1:0] g, f;
  GOLD #(.Width(Width), .Words(Words)) u_gold (.data_i, .sel_i, .data_o(g));
  GATE #(.Width(Width), .Words(Words)) u_gate (.data_i, .sel_i, .data_o(f));
  assign trigger = g != f;
endmodule
EOF
}
miter_scatter() {
  cat <<'EOF'
module eq_miter #(parameter int unsigned DWordsPerCycle = 32) (
  input  logic          busy_i,
  input  logic [9:0]    base_i, d_words_i,
  input  logic [2:0]    family_i,
  input  logic          k32_i, f16_i,
  input  logic [8191:0] d_i,
  output logic          trigger
);
  localparam int unsigned W = DWordsPerCycle;
  logic [W-1:0]    gv, fv, data_differs;
  logic [5*W-1:0]  gl, fl;
  logic [3*W-1:0]  gr, fr;
  logic [32*W-1:0] gd, fd;
  GOLD #(.DWordsPerCycle(W)) u_gold (.busy_i, .base_i, .d_words_i, .family_i, .k32_i, .f16_i,
    .d_i, .wb_word_valid_o(gv), .wb_word_lane_o(gl), .wb_word_reg_o(gr), .wb_word_data_o(gd));
  GATE #(.DWordsPerCycle(W)) u_gate (.busy_i, .base_i, .d_words_i, .family_i, .k32_i, .f16_i,
    .d_i, .wb_word_valid_o(fv), .wb_word_lane_o(fl), .wb_word_reg_o(fr), .wb_word_data_o(fd));
  // A word's data is meaningful with its valid bit only.
  for (genvar s = 0; s < W; s++) begin : g_slot
    assign data_differs[s] = gv[s] && gd[32*s +: 32] != fd[32*s +: 32];
  end
  assign trigger = gv != fv || gl != fl || gr != fr || |data_differs;
endmodule
EOF
}

# ---------------------------------------------------------------------------
# Per miter: gold and gate modules, the files Yosys reads (after tcu_pkg.sv),
# the fast implementation's file and the plant (a sed expression on it).
# ---------------------------------------------------------------------------
pair_modules() {  # miter -> "gold gate"
  case $1 in
    int4_dot) echo "tcu_int4_dot_tree tcu_int4_dot_planes" ;;
    e2m1_group_dots) echo "tcu_e2m1_group_dots_formula tcu_e2m1_group_dots_table" ;;
    word_mux) echo "tcu_word_mux_tree tcu_word_mux_index" ;;
    scatter) echo "tcu_router_scatter_mux tcu_router_scatter_index" ;;
  esac
}
pair_sources() {  # miter -> files besides the two implementations
  case $1 in
    int4_dot) echo "rtl/tcu_pipe_reg.sv" ;;
    scatter) echo "rtl/tcu_frag_layout.sv rtl/tcu_word_mux.sv rtl/tcu_word_mux_tree.sv" \
                  "rtl/tcu_word_mux_index.sv" ;;
  esac
}
# One bit of the fast implementation's result flipped for some inputs.
pair_plant() {
  case $1 in
    int4_dot) echo "s/dot_planes = SumW'(sum);/dot_planes = SumW'(sum) ^ SumW'(a[0] \& b[0]);/" ;;
    e2m1_group_dots) echo "s/+ QW'(neg);/+ QW'(neg) ^ QW'(i == 37);/" ;;
    word_mux) echo "s/assign data_o = \(.*\);/assign data_o = (\1) ^ Width'(sel_i == '1);/" ;;
    scatter) echo "s/= d_i\[{cd\[7:0\], 5'h00} +: 32\];/= d_i[{cd[7:0], 5'h00} +: 32] ^ 32'(s == 0);/" ;;
  esac
}

proven=0
failed=0
errors=0
run_check() {
  local pair=$1 kind=$2 miter=$3 params=$4
  local gold gate
  read -r gold gate <<<"$(pair_modules "$miter")"
  local name="$miter${params:+.$(echo "$params" | tr ' =' '_-')}"
  local dir="$tmp/$name"
  mkdir -p "$dir"
  local gate_file="rtl/$gate.sv"
  if [ $plant = 1 ]; then
    sed "$(pair_plant "$miter")" "rtl/$gate.sv" >"$dir/$gate.sv"
    if cmp -s "rtl/$gate.sv" "$dir/$gate.sv"; then
      printf '%-36s %-26s ERROR (the plant did not apply)\n' "$pair" "${params:-no parameters}"
      errors=$((errors + 1))
      failed=$((failed + 1))
      return
    fi
    gate_file="$dir/$gate.sv"
  fi
  "miter_$miter" | sed "s/GOLD/$gold/; s/GATE/$gate/" >"$dir/miter.sv"
  local chparam="" p
  for p in $params; do chparam+=" -set ${p%%=*} ${p#*=}"; done
  [ -n "$chparam" ] && chparam="chparam$chparam eq_miter;"
  local sat
  if [ "$kind" = comb ]; then
    sat="sat -verify -prove trigger 0 -show-inputs"
  elif [ "$kind" = aig ]; then
    # The miter as an AIG for ABC (below), which proves it by SAT sweeping:
    # equal internal signals are found and merged, where one SAT call on the
    # whole miter (sat -prove) does not finish for sums over equal parts.
    # An undefined bit becomes a free input (it must not matter).
    sat="techmap; setundef -anyseq; aigmap; write_aiger -zinit $dir/miter.aig"
  else
    local stages=${params#*Stages=}
    stages=${stages%% *}
    sat="sat -verify -tempinduct -prove trigger 0 -set en_i 1 -set-at 1 rst_ni 0
         -maxsteps $((stages + 2)) -show-inputs"
  fi
  local log="$out/$name.log"
  [ $plant = 1 ] && log="$out/$name.plant.log"
  local start=$SECONDS result
  # shellcheck disable=SC2046
  timeout "${EQUIV_TIMEOUT:-900}" yosys -q -l "$log" -p "
    read_verilog -sv rtl/tcu_pkg.sv $(pair_sources "$miter") rtl/$gold.sv $gate_file $dir/miter.sv;
    $chparam hierarchy -check -top eq_miter; proc; flatten; opt; wreduce; memory; opt;
    async2sync; opt_clean; $sat" >/dev/null 2>&1
  local status=$?
  if [ $status = 0 ] && [ "$kind" = aig ]; then
    # dprove: UNSATISFIABLE when trigger can never be 1 (proven),
    # SATISFIABLE with a counterexample.
    timeout "${EQUIV_TIMEOUT:-900}" yosys-abc -c "read_aiger $dir/miter.aig; strash; dprove" \
      >>"$log" 2>&1
    status=$?
    if [ $status = 0 ] && grep -q "^SATISFIABLE" "$log"; then
      echo "failed: Found a counterexample (ABC dprove)" >>"$log"
      status=1
    elif [ $status = 0 ] && ! grep -q "^UNSATISFIABLE" "$log"; then
      status=2  # undecided
    fi
  fi
  if [ $status = 0 ]; then
    result=proven
    proven=$((proven + 1))
  elif grep -q "SAT proof finished - model found\|SAT temporal induction proof finished - model found\|failed: Found a counter" "$log" 2>/dev/null ||
       grep -q "Assertion failed\|model found: FAIL" "$log" 2>/dev/null; then
    result="FAILED (counterexample in $log)"
    failed=$((failed + 1))
  else
    [ $status = 124 ] && result="ERROR (timed out; $log)" ||
      result="ERROR (Yosys failed; $log)"
    failed=$((failed + 1))
    errors=$((errors + 1))
  fi
  printf '%-36s %-26s %-9s %4ss\n' "$pair" "${params:-no parameters}" "$result" \
    "$((SECONDS - start))"
}

open_checks=()
for check in "${checks[@]}"; do
  IFS='|' read -r check_tier state pair kind miter params <<<"$check"
  [ "$tier" = "$check_tier" ] || [ "$tier" = all ] || continue
  [ -z "$filter" ] || [[ "$pair $params" == *"$filter"* ]] || continue
  if [ $list = 1 ]; then
    printf '%-8s %-5s %-36s %s\n' "$check_tier" "$state" "$pair" "${params:-no parameters}"
    continue
  fi
  if [ "$state" = unrun ] || { [ "$state" = open ] && [ $plant = 0 ]; }; then
    printf '%-36s %-26s open (%s)\n' "$pair" "${params:-no parameters}" "$(open_reason "$miter")"
    open_checks+=("$pair ${params:-}")
    continue
  fi
  run_check "$pair" "$kind" "$miter" "$params"
done
[ $list = 1 ] && exit 0
if [ ${#open_checks[@]} -gt 0 ]; then
  printf '%d open (not proven): ' "${#open_checks[@]}"
  printf '%s; ' "${open_checks[@]}" | sed 's/; $//'
  echo
fi
if [ $errors -gt 0 ]; then
  echo "$proven proven, $failed failed ($errors of them errors, not counterexamples)"
else
  echo "$proven proven, $failed failed"
fi
[ $failed = 0 ]
