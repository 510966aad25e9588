// tcu_fma's three-stage form, which rtl/tcu_fma.sv instantiates for
// Stages < tcu_pkg::FMA_STEPS_FROM (rtl/tcu_fma_steps.sv from there on).
//
// tcu_fma's function, NaN rules and timing (rtl/tcu_fma.sv), at its
// parameters and ports.
//
// Datapath: the fixed-point window of rtl/tcu_fma_arith.svh (its widths,
// alignment and sticky bit), in three stages (P = precision = ManBits + 1):
//   stage 1: classify, P x P multiply, align;
//   stage 2: add or subtract, absolute value, leading-zero count, the
//            normalisation shift (capped so subnormal results stay on the
//            2^(1-bias) grid);
//   stage 3: shift, round, overflow, specials.
// Registers sit after stage 1 (Stages >= 2), after stage 2 (Stages >= 3) and
// at the output (the rest, at least one for Stages >= 1); registers beyond
// three are at the output, for retiming (tcu_fma chooses tcu_fma_steps
// there).
//
// Simulation speed (the RTL describes the same logic and registers as with
// continuous assignments; synthesis sees no difference):
//   - Every register loads the stages in front of it inside its own
//     always_ff, under its load enable (en_i and its valid input). A
//     register that does not load evaluates nothing, so a cycle-based
//     simulator skips the datapath of an idle or stalled unit.
//   - Each stage is a task without arguments or locals over the module's
//     stage variables (s1_*, c1_*, s2_*, c2_*, s3_*): tasks with arguments or
//     locals get per-instance temporaries in the Verilated code, and with
//     them per-instance code. The shared steps a stage calls
//     (rtl/tcu_fma_arith.svh) are inlined into it, their arguments and
//     locals C++ locals of the function that runs it. The data inputs are marked public_flat_rd, so
//     the simulator reads them from the instance instead of substituting the
//     driving expression into the unit's code. Together these let every
//     instance of one parameter set share one copy of the code (hundreds of
//     FMAs run from the instruction cache). en_i is not marked: the units
//     of an engine share one enable, so substituting it keeps the code
//     shared and saves copying it into every FMA at every evaluation.
//   - Every window value of FP32 fits a 64-bit word, and the leading-zero
//     count is a binary search over 64-bit words (no loops).
//
// The steps both forms take alike are rtl/tcu_fma_arith.svh's; the
// leading-zero search and the rounding decision are tcu_pkg's (fma_word_lz,
// fma_round_up, fma_to_inf).
module tcu_fma_three #(
  parameter tcu_pkg::fp_format_e Format       = tcu_pkg::FP64,
  parameter int unsigned         Stages       = 2,
  parameter bit                  CanonicalNan = 1'b0,
  parameter int unsigned         AuxWidth     = 1,
  localparam int unsigned        Width        = tcu_pkg::fp_width(Format)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic                valid_i  /* verilator public_flat_rd */,
  input  logic [Width-1:0]    a_i      /* verilator public_flat_rd */,
  input  logic [Width-1:0]    b_i      /* verilator public_flat_rd */,
  input  logic [Width-1:0]    c_i      /* verilator public_flat_rd */,
  input  tcu_pkg::roundmode_e rnd_i    /* verilator public_flat_rd */,
  input  logic [AuxWidth-1:0] aux_i    /* verilator public_flat_rd */,
  output logic                valid_o,
  output logic [Width-1:0]    result_o,
  output logic [AuxWidth-1:0] aux_o
);

  // The widths, the constants and the steps both forms take alike
  // (rtl/tcu_fma_arith.svh).
  `include "tcu_fma_arith.svh"

  localparam int unsigned Cut1Regs = (Stages >= 2) ? 1 : 0;
  localparam int unsigned Cut2Regs = (Stages >= 3) ? 1 : 0;
  localparam int unsigned OutRegs  = Stages - Cut1Regs - Cut2Regs;

  // The stage variables are combinational temporaries: each is written with
  // blocking assignments by the one block that runs its stage (the always_ff
  // of the register after the stage, or the always_comb for Stages = 0) and
  // read only within that block, after it is written.
  /* verilator lint_off BLKSEQ */

  // ===========================================================================
  // Stage 1: classify, multiply, align (a_i, b_i, c_i -> s1_*)
  // ===========================================================================
  logic               s1_sign_a, s1_sign_b, s1_sign_c;
  logic               s1_a_zero, s1_b_zero, s1_a_inf, s1_b_inf, s1_c_inf;
  logic               s1_a_nan, s1_b_nan, s1_c_nan;
  // (C's zero test goes unread: only a zero product moves the frame.)
  /* verilator lint_off UNUSEDSIGNAL */
  logic               s1_c_zero;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [Prec-1:0]    s1_sig_a, s1_sig_b, s1_sig_c;
  logic [ExpW-1:0]    s1_ea, s1_eb, s1_ec, s1_ep;
  logic [ProdW-1:0]   s1_prod;
  logic [PshW-1:0]    s1_pshamt;
  logic [ShamtW-1:0]  s1_shamt;
  // Results: the aligned product (window bits [PAlW-1:0]) and addend
  // ([AddW:0]), each with its sticky bit at bit 0.
  logic [PAlW-1:0]    s1_prod_al;
  logic [AddW:0]      s1_add_al;
  logic               s1_eff_sub, s1_sign_p, s1_special;
  logic [ExpW-1:0]    s1_frame_exp;
  logic [Width-1:0]   s1_special_result;

  task automatic stage1();
    fma_unpack(a_i, s1_sign_a, s1_a_zero, s1_a_inf, s1_a_nan, s1_sig_a, s1_ea);
    fma_unpack(b_i, s1_sign_b, s1_b_zero, s1_b_inf, s1_b_nan, s1_sig_b, s1_eb);
    fma_unpack(c_i, s1_sign_c, s1_c_zero, s1_c_inf, s1_c_nan, s1_sig_c, s1_ec);
    s1_sign_p  = s1_sign_a ^ s1_sign_b;
    s1_eff_sub = s1_sign_p ^ s1_sign_c;
    s1_prod    = ProdW'(s1_sig_a) * ProdW'(s1_sig_b);
    s1_ep      = fma_prod_exp(s1_a_zero, s1_b_zero, s1_ea, s1_eb);
    fma_align(s1_ec, s1_ep, s1_shamt, s1_pshamt, s1_frame_exp);
    s1_prod_al = fma_prod_align(s1_prod, s1_pshamt);
    s1_add_al  = fma_add_align(s1_sig_c, s1_shamt);
    fma_specials(a_i, b_i, c_i, s1_a_zero, s1_b_zero, s1_a_inf, s1_b_inf, s1_c_inf, s1_a_nan,
                 s1_b_nan, s1_c_nan, s1_eff_sub, s1_sign_p, s1_sign_c, s1_special,
                 s1_special_result);
  endtask

  // Cut 1 (stage 2's inputs): registers for Stages >= 2, else the block that
  // runs stage 2 copies them from s1_* (through_cut1).
  logic [PAlW-1:0]     c1_prod_al;
  logic [AddW:0]       c1_add_al;
  logic                c1_eff_sub, c1_sign_p, c1_special;
  logic [ExpW-1:0]     c1_frame_exp;
  logic [Width-1:0]    c1_special_result;
  logic [RndW-1:0]     c1_rnd;
  logic [AuxWidth-1:0] c1_aux;

  task automatic through_cut1();
    {c1_prod_al, c1_add_al, c1_eff_sub, c1_sign_p, c1_frame_exp, c1_special, c1_special_result,
     c1_rnd, c1_aux} = {s1_prod_al, s1_add_al, s1_eff_sub, s1_sign_p, s1_frame_exp, s1_special,
                        s1_special_result, rnd_i, aux_i};
  endtask

  // ===========================================================================
  // Stage 2: add, absolute value, leading zeros, normalisation shift
  // (c1_* -> s2_*)
  // ===========================================================================
  logic [SumW-1:0]    s2_sum;
  logic [LzcW-1:0]    s2_lz;
  logic [MagW-1:0]    s2_mag;
  logic [LzcW-1:0]    s2_norm_shamt;
  logic [ExpW-1:0]    s2_exp_pre;
  logic               s2_res_sign;

  task automatic stage2();
    s2_sum = c1_eff_sub ? SumW'(c1_prod_al) - SumW'(c1_add_al)
                        : SumW'(c1_prod_al) + SumW'(c1_add_al);
    s2_mag = s2_sum[SumW-1] ? MagW'(-s2_sum) : s2_sum[MagW-1:0];
    s2_res_sign = fma_res_sign(s2_mag, s2_sum[SumW-1], c1_eff_sub, c1_sign_p, c1_rnd);
    s2_lz       = fma_lz(s2_mag);
    fma_norm_shift(s2_lz, c1_frame_exp, s2_norm_shamt, s2_exp_pre);
  endtask

  // Cut 2 (stage 3's inputs): registers for Stages >= 3, else the block that
  // runs stage 3 copies them (through_cut2).
  logic [MagW-1:0]     c2_mag;
  logic [LzcW-1:0]     c2_shamt;
  logic [ExpW-1:0]     c2_exp_pre;
  logic                c2_sign, c2_special;
  logic [Width-1:0]    c2_special_result;
  logic [RndW-1:0]     c2_rnd;
  logic [AuxWidth-1:0] c2_aux;

  task automatic through_cut2();
    {c2_mag, c2_shamt, c2_exp_pre, c2_sign, c2_special, c2_special_result, c2_rnd,
     c2_aux} = {s2_mag, s2_norm_shamt, s2_exp_pre, s2_res_sign, c1_special, c1_special_result,
                c1_rnd, c1_aux};
  endtask

  // ===========================================================================
  // Stage 3: normalise, round, pack (c2_* -> s3_result)
  // ===========================================================================
  logic [MagW-1:0]    s3_norm;
  logic               s3_guard, s3_sticky, s3_round_up, s3_to_inf;
  logic [ManBits-1:0] s3_frac;
  logic [ExpW-1:0]    s3_exp_field;
  logic [IncW-1:0]    s3_rounded;
  logic [Width-1:0]   s3_result;

  task automatic stage3();
    s3_norm = c2_mag << c2_shamt;
    fma_round_bits(s3_norm, s3_frac, s3_guard, s3_sticky);
    s3_round_up = tcu_pkg::fma_round_up(c2_rnd, c2_sign, s3_frac[0], s3_guard, s3_sticky);
    s3_to_inf   = tcu_pkg::fma_to_inf(c2_rnd, c2_sign);
    // Rounding adds one at the last fraction bit; a carry renormalises into
    // the exponent (subnormal to the smallest normal included).
    s3_exp_field = s3_norm[MagW-1] ? c2_exp_pre : '0;
    s3_rounded   = {s3_exp_field, s3_frac} + IncW'(s3_round_up);
    s3_result    = fma_pack(s3_rounded, c2_sign, s3_to_inf, c2_special, c2_special_result);
  endtask

  // Stages 2 and 3 in one block (no register at cut 2: Stages <= 2).
  task automatic stages_2_3();
    stage2();
    through_cut2();
    stage3();
  endtask

  // ===========================================================================
  // Registers, and the blocks that run the stages
  // ===========================================================================
  if (Stages == 0) begin : g_comb
    always_comb begin
      stage1();
      through_cut1();
      stages_2_3();
    end
    assign valid_o  = valid_i;
    assign result_o = s3_result;
    assign aux_o    = c2_aux;

    // No registers: the clock, reset and enable go unused.
    logic unused_clk;
    assign unused_clk = ^{clk_i, rst_ni, en_i};
  end else begin : g_pipe
    // valid_q[k]: the valid bit of register k (0 the first after the input);
    // register k loads when en_i and its input's valid bit are high.
    logic [Stages-1:0] valid_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else if (en_i) begin
        valid_q[0] <= valid_i;
        for (int i = 1; i < Stages; i++) begin
          valid_q[i] <= valid_q[i-1];
        end
      end
    end

    // The first output register, with aux.
    localparam int unsigned OutFirst = Cut1Regs + Cut2Regs;
    logic [Width-1:0]    res_q;
    logic [AuxWidth-1:0] res_aux_q;

    if (Stages == 1) begin : g_s1
      always_ff @(posedge clk_i) begin
        if (en_i && valid_i) begin
          stage1();
          through_cut1();
          stages_2_3();
          res_q     <= s3_result;
          res_aux_q <= c2_aux;
        end
      end
    end else begin : g_cut1
      // ---- register cut 1 ---------------------------------------------------
      always_ff @(posedge clk_i) begin
        if (en_i && valid_i) begin
          stage1();
          c1_prod_al        <= s1_prod_al;
          c1_add_al         <= s1_add_al;
          c1_eff_sub        <= s1_eff_sub;
          c1_sign_p         <= s1_sign_p;
          c1_frame_exp      <= s1_frame_exp;
          c1_special        <= s1_special;
          c1_special_result <= s1_special_result;
          c1_rnd            <= rnd_i;
          c1_aux            <= aux_i;
        end
      end

      if (Stages == 2) begin : g_s2
        always_ff @(posedge clk_i) begin
          if (en_i && valid_q[0]) begin
            stages_2_3();
            res_q     <= s3_result;
            res_aux_q <= c2_aux;
          end
        end
      end else begin : g_cut2
        // ---- register cut 2 -------------------------------------------------
        always_ff @(posedge clk_i) begin
          if (en_i && valid_q[0]) begin
            stage2();
            c2_mag            <= s2_mag;
            c2_shamt          <= s2_norm_shamt;
            c2_exp_pre        <= s2_exp_pre;
            c2_sign           <= s2_res_sign;
            c2_special        <= c1_special;
            c2_special_result <= c1_special_result;
            c2_rnd            <= c1_rnd;
            c2_aux            <= c1_aux;
          end
        end
        always_ff @(posedge clk_i) begin
          if (en_i && valid_q[1]) begin
            stage3();
            res_q     <= s3_result;
            res_aux_q <= c2_aux;
          end
        end
      end
    end

    // ---- further output registers (retiming) --------------------------------
    if (OutRegs == 1) begin : g_out1
      assign result_o = res_q;
      assign aux_o    = res_aux_q;
    end else begin : g_out
      localparam int unsigned OutW = Width + AuxWidth;
      logic [(OutRegs-1)*OutW-1:0] data_q;
      always_ff @(posedge clk_i) begin
        if (en_i) begin
          if (valid_q[OutFirst]) begin
            data_q[0 +: OutW] <= {res_q, res_aux_q};
          end
          for (int i = 1; i < OutRegs - 1; i++) begin
            if (valid_q[OutFirst+i]) begin
              data_q[i*OutW +: OutW] <= data_q[(i-1)*OutW +: OutW];
            end
          end
        end
      end
      assign {result_o, aux_o} = data_q[(OutRegs-2)*OutW +: OutW];
    end
    assign valid_o = valid_q[Stages-1];
  end
  /* verilator lint_on BLKSEQ */

endmodule
