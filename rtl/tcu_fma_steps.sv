// tcu_fma's step-list form, which rtl/tcu_fma.sv instantiates for
// Stages >= tcu_pkg::FMA_STEPS_FROM (rtl/tcu_fma_three.sv below).
//
// tcu_fma's function, NaN rules and timing (rtl/tcu_fma.sv), at its
// parameters and ports.
//
// Datapath: the fixed-point window of rtl/tcu_fma_arith.svh (its widths,
// alignment and sticky bit), whose steps both forms take alike.
//
// The work is an ordered list of tcu_pkg::FMA_STEPS steps (tcu_pkg::FS_*):
//   SUBP    the significands cut into MulW-bit digits, every digit product
//           (a small multiplier each); unpack, classify, the product's
//           exponent;
//   DIGIT   the product as two rows: each product digit position's sum of
//           the digit products' halves, its low MulW bits in one row, its
//           carries in the other; exponent difference, shift amounts,
//           special results;
//   PCPA    the two rows added, in FMA_CHUNKS chunks, one a step, the carry
//           handed on (PCPA's first step also shifts the addend);
//   PALIGN  the product shifted;
//   SUM     add or subtract, in chunks;
//   ABS     the absolute value (a conditional negation), in chunks;
//   LZC     leading-zero count, the result's sign;
//   NSH     the normalisation shift (capped so subnormal results stay on
//           the 2^(1-bias) grid) and exponent;
//   NORM    the normalisation shift;
//   RND     rounding, its increment in FMA_RND_CHUNKS chunks, overflow,
//           specials, the packed result.
// Each chunk is a carry-select adder (its high half added for both carries
// in parallel with its low half), so no step holds a carry chain longer
// than half a chunk and every step's depth is bounded; tcu_pkg lists each
// step's depth (FO4) for FP32 and FP64. The steps as in tcu_fma_three are
// rtl/tcu_fma_arith.svh's; the leading-zero search and the rounding
// decision are tcu_pkg's (fma_word_lz, fma_round_up, fma_to_inf).
//
// Registers: one rule (tcu_pkg::fma_cuts, fma_in_cut) gives each step
// boundary zero or one register from the steps' depths (InFo4 and OutFo4:
// logic of the enclosing unit in the first and last cycle; InFo4 > 0 is an
// input step of its own, whose boundary with step 0 is a register at
// a_i, b_i, c_i, rnd_i and aux_i), so the Stages registers cut the depth
// into near-equal parts; every boundary between steps takes one from
// tcu_pkg::FMA_STEPS registers on, the input step's from FMA_STEPS + 1 on;
// the output has the rest (at least one for Stages >= 1). The state handed
// across a boundary is every step variable (the w_* list); synthesis keeps
// only the bits a later step reads.
//
// Simulation speed (the RTL describes the same logic and registers as with
// continuous assignments; synthesis sees no difference):
//   - Every register loads the steps in front of it inside its own
//     always_ff, under its load enable (en_i and its valid input). A
//     register that does not load evaluates nothing, so a cycle-based
//     simulator skips the datapath of an idle or stalled unit.
//   - The steps are one task without arguments or locals over the step
//     variables of that register's generate block; each step is under a
//     condition on parameters only (folded at elaboration), so the block
//     runs exactly its own steps. Tasks with arguments or locals get
//     per-instance temporaries in the Verilated code, and with them
//     per-instance code; the shared steps a step calls
//     (rtl/tcu_fma_arith.svh) are inlined into it, their arguments and
//     locals C++ locals of the function that runs it. The data inputs are marked public_flat_rd, so the
//     simulator reads them from the instance instead of substituting the
//     driving expression into the unit's code. Together these let every
//     instance of one parameter set share one copy of the code. en_i is
//     not marked: the units of an engine share one enable, so substituting
//     it keeps the code shared and saves copying it into every FMA at every
//     evaluation.
//   - The digit products and every chunk fit a 64-bit word, and the
//     leading-zero count is a binary search over 64-bit words (no loops).
module tcu_fma_steps #(
  parameter tcu_pkg::fp_format_e Format       = tcu_pkg::FP64,
  parameter int unsigned         Stages       = 2,
  parameter bit                  CanonicalNan = 1'b0,
  parameter int unsigned         AuxWidth     = 1,
  // Depth (FO4) of the enclosing unit's logic in front of a_i/b_i/c_i (a
  // step of its own for the register rule) and behind result_o (counted
  // with the last step), in the same cycles.
  parameter int unsigned         InFo4        = 0,
  parameter int unsigned         OutFo4       = 0,
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

  // The multiplier: significands of Nd digits of MulW bits; a digit product
  // has 2 MulW bits; product digit position d sums the low halves of the
  // digit products i, j with i + j = d and the high halves of those with
  // i + j = d - 1 (at most 2 Nd terms: DigW bits).
  localparam int unsigned MulW    = (Format == tcu_pkg::FP64) ? 11 : 12;
  localparam int unsigned Nd      = (Prec + MulW - 1) / MulW;
  localparam int unsigned NumDig  = 2 * Nd;
  localparam int unsigned RowW    = NumDig * MulW;
  localparam int unsigned DigW    = MulW + $clog2(NumDig);
  localparam int unsigned SubpW   = Nd * Nd * 2 * MulW;
  // Chunks: product rows (PcW bits), sum and absolute value (SmW), the
  // rounding increment (RcW).
  localparam int unsigned Chunks  = tcu_pkg::FMA_CHUNKS;
  localparam int unsigned PcW     = (RowW + Chunks - 1) / Chunks;
  localparam int unsigned SmW     = (SumW + Chunks - 1) / Chunks;
  localparam int unsigned RChunks = tcu_pkg::FMA_RND_CHUNKS;
  localparam int unsigned RcW     = (IncW + RChunks - 1) / RChunks;
  // Each chunk is a carry-select adder: its low half (the *L bits) ripples
  // from the chunk's carry-in, its high half (*H) is added for both carries
  // at once and the low half's carry picks one, so a chunk's carry chain is
  // half its width.
  localparam int unsigned PcL     = (PcW + 1) / 2;
  localparam int unsigned PcH     = PcW - PcL;
  localparam int unsigned SmL     = (SmW + 1) / 2;
  localparam int unsigned SmH     = SmW - SmL;
  localparam int unsigned RcL     = (RcW + 1) / 2;
  localparam int unsigned RcH     = RcW - RcL;

  // ---------------------------------------------------------------------------
  // The register rule (tcu_pkg::fma_cuts) at this unit's parameters
  // ---------------------------------------------------------------------------
  localparam int unsigned NumSteps = tcu_pkg::FMA_STEPS;

  // Bit k: a register after step k (the last step's is the output's).
  localparam logic [31:0] RegMask =
      tcu_pkg::fma_cuts(Format == tcu_pkg::FP64, Stages, InFo4, OutFo4) |
      ((Stages >= 1) ? (32'd1 << (NumSteps - 1)) : 32'd0);

  // A register at the inputs (between the enclosing unit's logic in front
  // and step 0), at the boundaries between steps, and at the output.
  localparam bit          InReg   = tcu_pkg::fma_in_cut(Format == tcu_pkg::FP64, Stages, InFo4,
                                                        OutFo4);
  localparam int unsigned NumCuts = tcu_pkg::fma_slot(RegMask, NumSteps - 1);
  localparam int unsigned OutRegs = Stages - NumCuts - 32'(InReg);

  // The state handed across a boundary: the w_* step variables, packed.
  localparam int unsigned StW = 3 * Width + RndW + AuxWidth + 11 + Prec + 2 * ExpW + SubpW +
                                ShamtW + PshW + ExpW + 1 + Width + 2 * RowW + AddW + 1 + 1 +
                                Chunks * PcW + PAlW + Chunks * SmW + 1 + Chunks * SmW + 1 +
                                LzcW + LzcW + ExpW + MagW + 2 + 2 * RChunks * RcW + Width;

  // Each registered boundary's state (slot k at [k*StW +: StW]) and valid
  // bit; slot NumCuts is the output register's valid bit.
  logic [(NumCuts+1)*StW-1:0] bnd;
  logic [NumCuts:0]           bnd_v;
  logic [Width-1:0]           res_q;
  logic [AuxWidth-1:0]        res_aux_q;

  // The inputs step 0 reads: the ports, or the input register.
  logic                in_v;
  logic [Width-1:0]    in_a, in_b, in_c;
  logic [RndW-1:0]     in_rnd;
  logic [AuxWidth-1:0] in_aux;
  if (InReg) begin : g_in_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) in_v <= 1'b0;
      else if (en_i) in_v <= valid_i;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && valid_i) begin
        in_a   <= a_i;
        in_b   <= b_i;
        in_c   <= c_i;
        in_rnd <= rnd_i;
        in_aux <= aux_i;
      end
    end
  end else begin : g_in_ports
    assign in_v   = valid_i;
    assign in_a   = a_i;
    assign in_b   = b_i;
    assign in_c   = c_i;
    assign in_rnd = rnd_i;
    assign in_aux = aux_i;
  end

  // The step variables are combinational temporaries: each is written with
  // blocking assignments by the one block that runs its step (the always_ff
  // of the register after it, or the always_comb for Stages = 0) and read
  // only within that block, after it is written.
  /* verilator lint_off BLKSEQ */

  for (genvar gs = 0; gs < NumSteps; gs++) begin : g_step
    if (RegMask[gs] || (Stages == 0 && gs == NumSteps - 1)) begin : g_reg
      // The steps this block runs (First..Last), the slot of its register,
      // and that of the register it reads (for First > 0).
      localparam int unsigned First  = tcu_pkg::fma_first(RegMask, gs);
      localparam int unsigned Last   = gs;
      localparam int unsigned Slot   = tcu_pkg::fma_slot(RegMask, gs);
      localparam int unsigned InSlot = (First == 0) ? 0 : Slot - 1;
      // Bit k: this block runs step k.
      localparam logic [31:0] Runs = ((32'd1 << (Last + 1)) - 32'd1) & ~((32'd1 << First) - 32'd1);

      // ---- the state (w_*) ----------------------------------------------
      // A block reads and writes only the variables of its own steps, and
      // the chunked ones (w_prod, w_sum, w_mag, w_inc) are padded to whole
      // chunks: not every bit is used in every block.
      /* verilator lint_off UNUSEDSIGNAL */
      logic [Width-1:0]    w_a, w_b, w_c;
      logic [RndW-1:0]     w_rnd;
      logic [AuxWidth-1:0] w_aux;
      logic                w_sign_p, w_sign_c, w_eff_sub;
      logic                w_a_zero, w_b_zero, w_a_inf, w_b_inf, w_c_inf;
      logic                w_a_nan, w_b_nan, w_c_nan;
      logic [Prec-1:0]     w_sig_c;
      logic [ExpW-1:0]     w_ec, w_ep;
      logic [SubpW-1:0]    w_subp;
      logic [ShamtW-1:0]   w_shamt;
      logic [PshW-1:0]     w_pshamt;
      logic [ExpW-1:0]     w_frame_exp;
      logic                w_special;
      logic [Width-1:0]    w_special_result;
      logic [RowW-1:0]     w_row_s, w_row_c;
      logic [AddW:0]       w_add_al;
      logic                w_cy;
      logic [Chunks*PcW-1:0] w_prod;
      logic [PAlW-1:0]     w_prod_al;
      logic [Chunks*SmW-1:0] w_sum;
      logic                w_neg;
      logic [Chunks*SmW-1:0] w_mag;
      logic                w_res_sign;
      logic [LzcW-1:0]     w_lz, w_norm_shamt;
      logic [ExpW-1:0]     w_exp_pre;
      logic [MagW-1:0]     w_norm;
      logic                w_round_up, w_to_inf;
      logic [RChunks*RcW-1:0] w_inc_in, w_inc;
      logic [Width-1:0]    w_result;
      /* verilator lint_on UNUSEDSIGNAL */

      // ---- temporaries of single steps (t_*) ----------------------------
      logic [StW-1:0]     t_state;
      logic               t_sign_a, t_sign_b;
      // (C's zero test goes unread: only a zero product moves the frame.)
      /* verilator lint_off UNUSEDSIGNAL */
      logic               t_sign_c, t_c_zero;
      logic [Width-2:0]   t_c_rest;
      /* verilator lint_on UNUSEDSIGNAL */
      logic [Prec-1:0]    t_sig_a, t_sig_b;
      logic [Nd*MulW-1:0] t_ma, t_mb;
      logic [ExpW-1:0]    t_ea, t_eb;
      logic [DigW-1:0]    t_dig;
      logic [Chunks*PcW-1:0] t_rs, t_rc;
      logic [Chunks*SmW-1:0] t_x, t_y;
      logic [PcL:0]       t_plo;
      logic [PcH:0]       t_phi0, t_phi1;
      logic [SmL:0]       t_slo;
      logic [SmH:0]       t_shi0, t_shi1;
      logic [SmW-1:0]     t_sx;
      logic [RcL:0]       t_rlo;
      logic [RcH:0]       t_rhi0, t_rhi1;
      logic [MagW-1:0]    t_mag;
      logic               t_guard, t_sticky;
      logic [ManBits-1:0] t_frac;

      task automatic load_state();
        if (First == 0) begin
          // (Each variable on its own: a concatenation on the left of one
          // wide shifted value is re-evaluated per variable by Verilator.)
          w_a   = in_a;
          w_b   = in_b;
          w_c   = in_c;
          w_rnd = in_rnd;
          w_aux = in_aux;
          {w_sign_p, w_sign_c, w_eff_sub, w_a_zero, w_b_zero, w_a_inf, w_b_inf, w_c_inf, w_a_nan,
           w_b_nan, w_c_nan, w_sig_c, w_ec, w_ep, w_subp, w_shamt, w_pshamt, w_frame_exp,
           w_special, w_special_result, w_row_s, w_row_c, w_add_al, w_cy, w_prod, w_prod_al, w_sum,
           w_neg, w_mag, w_res_sign, w_lz, w_norm_shamt, w_exp_pre, w_norm, w_round_up, w_to_inf,
           w_inc_in, w_inc, w_result} = '0;
        end else begin
          // (Through t_state: a part-select on the right of a concatenation
          // is widened once per variable by Verilator.)
          t_state = bnd[InSlot*StW +: StW];
          {w_a, w_b, w_c, w_rnd, w_aux, w_sign_p, w_sign_c, w_eff_sub, w_a_zero, w_b_zero,
           w_a_inf, w_b_inf, w_c_inf, w_a_nan, w_b_nan, w_c_nan, w_sig_c, w_ec, w_ep, w_subp,
           w_shamt, w_pshamt, w_frame_exp, w_special, w_special_result, w_row_s, w_row_c,
           w_add_al, w_cy, w_prod, w_prod_al, w_sum, w_neg, w_mag, w_res_sign, w_lz,
           w_norm_shamt, w_exp_pre, w_norm, w_round_up, w_to_inf, w_inc_in, w_inc,
           w_result} = t_state;
        end
      endtask

      // The steps First..Last, each under a condition on parameters only.
      task automatic run_steps();
        // ---- SUBP: unpack, classify, exponents; digit products ----------
        if (Runs[tcu_pkg::FS_SUBP]) begin
          fma_unpack(w_a, t_sign_a, w_a_zero, w_a_inf, w_a_nan, t_sig_a, t_ea);
          fma_unpack(w_b, t_sign_b, w_b_zero, w_b_inf, w_b_nan, t_sig_b, t_eb);
          fma_unpack(w_c, t_sign_c, t_c_zero, w_c_inf, w_c_nan, w_sig_c, w_ec);
          // (C's sign, which later steps read, is assigned with C's whole
          // word: synthesis then loads it as part of that word.)
          {w_sign_c, t_c_rest} = w_c;
          t_ma      = (Nd * MulW)'(t_sig_a);
          t_mb      = (Nd * MulW)'(t_sig_b);
          w_sign_p  = t_sign_a ^ t_sign_b;
          w_eff_sub = w_sign_p ^ w_sign_c;
          w_ep      = fma_prod_exp(w_a_zero, w_b_zero, t_ea, t_eb);
          for (int i = 0; i < Nd; i++) begin
            for (int j = 0; j < Nd; j++) begin
              w_subp[(i*Nd+j)*2*MulW +: 2*MulW] =
                  (2 * MulW)'(t_ma[i*MulW +: MulW]) * (2 * MulW)'(t_mb[j*MulW +: MulW]);
            end
          end
        end

        // ---- DIGIT: the product's two rows; shifts, specials ---------------
        if (Runs[tcu_pkg::FS_DIGIT]) begin
          w_row_c[0 +: MulW] = '0;
          for (int d = 0; d < NumDig; d++) begin
            t_dig = '0;
            for (int i = 0; i < Nd; i++) begin
              for (int j = 0; j < Nd; j++) begin
                if (i + j == d) t_dig = t_dig + DigW'(w_subp[(i*Nd+j)*2*MulW +: MulW]);
                if (i + j + 1 == d) t_dig = t_dig + DigW'(w_subp[(i*Nd+j)*2*MulW+MulW +: MulW]);
              end
            end
            w_row_s[d*MulW +: MulW] = t_dig[MulW-1:0];
            // The top position's carry is zero: the product has 2 Prec <= RowW bits.
            if (d + 1 < NumDig) w_row_c[(d+1)*MulW +: MulW] = MulW'(t_dig[DigW-1:MulW]);
          end
          fma_align(w_ec, w_ep, w_shamt, w_pshamt, w_frame_exp);
          fma_specials(w_a, w_b, w_c, w_a_zero, w_b_zero, w_a_inf, w_b_inf, w_c_inf, w_a_nan,
                       w_b_nan, w_c_nan, w_eff_sub, w_sign_p, w_sign_c, w_special,
                       w_special_result);
        end

        // ---- PCPA: the rows added, chunk by chunk; the addend's shift -------
        for (int r = 0; r < Chunks; r++) begin
          if (Runs[tcu_pkg::FS_PCPA + r]) begin
            if (r == 0) begin
              w_cy     = 1'b0;
              w_add_al = fma_add_align(w_sig_c, w_shamt);
            end
            t_rs = (Chunks * PcW)'(w_row_s);
            t_rc = (Chunks * PcW)'(w_row_c);
            t_plo  = (PcL + 1)'(t_rs[r*PcW +: PcL]) + (PcL + 1)'(t_rc[r*PcW +: PcL]) +
                     (PcL + 1)'(w_cy);
            t_phi0 = (PcH + 1)'(t_rs[r*PcW+PcL +: PcH]) + (PcH + 1)'(t_rc[r*PcW+PcL +: PcH]);
            t_phi1 = (PcH + 1)'(t_rs[r*PcW+PcL +: PcH]) + (PcH + 1)'(t_rc[r*PcW+PcL +: PcH]) +
                     (PcH + 1)'(1'b1);
            {w_cy, w_prod[r*PcW +: PcW]} = {t_plo[PcL] ? t_phi1 : t_phi0, t_plo[PcL-1:0]};
          end
        end

        // ---- PALIGN: the product shifted -----------------------------------
        if (Runs[tcu_pkg::FS_PALIGN]) begin
          w_prod_al = fma_prod_align(w_prod[ProdW-1:0], w_pshamt);
        end

        // ---- SUM: add or subtract (sum = prod + add, or prod + ~add + 1) ----
        for (int r = 0; r < Chunks; r++) begin
          if (Runs[tcu_pkg::FS_SUM + r]) begin
            if (r == 0) w_cy = w_eff_sub;
            t_x = (Chunks * SmW)'(w_prod_al);
            t_y = (Chunks * SmW)'(w_add_al) ^ {(Chunks * SmW){w_eff_sub}};
            t_slo  = (SmL + 1)'(t_x[r*SmW +: SmL]) + (SmL + 1)'(t_y[r*SmW +: SmL]) +
                     (SmL + 1)'(w_cy);
            t_shi0 = (SmH + 1)'(t_x[r*SmW+SmL +: SmH]) + (SmH + 1)'(t_y[r*SmW+SmL +: SmH]);
            t_shi1 = (SmH + 1)'(t_x[r*SmW+SmL +: SmH]) + (SmH + 1)'(t_y[r*SmW+SmL +: SmH]) +
                     (SmH + 1)'(1'b1);
            {w_cy, w_sum[r*SmW +: SmW]} = {t_slo[SmL] ? t_shi1 : t_shi0, t_slo[SmL-1:0]};
          end
        end

        // ---- ABS: the magnitude (~sum + 1 when negative) -------------------
        for (int r = 0; r < Chunks; r++) begin
          if (Runs[tcu_pkg::FS_ABS + r]) begin
            if (r == 0) begin
              w_neg = w_sum[SumW-1];
              w_cy  = w_neg;
            end
            t_sx   = w_sum[r*SmW +: SmW] ^ {SmW{w_neg}};
            t_slo  = (SmL + 1)'(t_sx[SmL-1:0]) + (SmL + 1)'(w_cy);
            t_shi0 = (SmH + 1)'(t_sx[SmW-1:SmL]);
            t_shi1 = (SmH + 1)'(t_sx[SmW-1:SmL]) + (SmH + 1)'(1'b1);
            {w_cy, w_mag[r*SmW +: SmW]} = {t_slo[SmL] ? t_shi1 : t_shi0, t_slo[SmL-1:0]};
          end
        end

        // ---- LZC: leading zeros, the result's sign -------------------------
        if (Runs[tcu_pkg::FS_LZC]) begin
          t_mag      = w_mag[MagW-1:0];
          w_res_sign = fma_res_sign(t_mag, w_neg, w_eff_sub, w_sign_p, w_rnd);
          w_lz       = fma_lz(t_mag);
        end

        // ---- NSH: the normalisation shift and exponent ---------------------
        if (Runs[tcu_pkg::FS_NSH]) begin
          fma_norm_shift(w_lz, w_frame_exp, w_norm_shamt, w_exp_pre);
        end

        // ---- NORM: the normalisation shift ---------------------------------
        if (Runs[tcu_pkg::FS_NORM]) begin
          w_norm = w_mag[MagW-1:0] << w_norm_shamt;
        end

        // ---- RND: round (the increment in chunks), overflow, pack ----------
        for (int r = 0; r < RChunks; r++) begin
          if (Runs[tcu_pkg::FS_RND + r]) begin
            if (r == 0) begin
              fma_round_bits(w_norm, t_frac, t_guard, t_sticky);
              w_round_up = tcu_pkg::fma_round_up(w_rnd, w_res_sign, t_frac[0], t_guard, t_sticky);
              w_to_inf   = tcu_pkg::fma_to_inf(w_rnd, w_res_sign);
              // Rounding adds one at the last fraction bit; a carry
              // renormalises into the exponent (subnormal to the smallest
              // normal included).
              w_inc_in = (RChunks * RcW)'({w_norm[MagW-1] ? w_exp_pre : ExpW'(0), t_frac});
              w_cy     = w_round_up;
            end
            t_rlo  = (RcL + 1)'(w_inc_in[r*RcW +: RcL]) + (RcL + 1)'(w_cy);
            t_rhi0 = (RcH + 1)'(w_inc_in[r*RcW+RcL +: RcH]);
            t_rhi1 = (RcH + 1)'(w_inc_in[r*RcW+RcL +: RcH]) + (RcH + 1)'(1'b1);
            {w_cy, w_inc[r*RcW +: RcW]} = {t_rlo[RcL] ? t_rhi1 : t_rhi0, t_rlo[RcL-1:0]};
            if (r == RChunks - 1) begin
              w_result = fma_pack(w_inc[IncW-1:0], w_res_sign, w_to_inf, w_special,
                                  w_special_result);
            end
          end
        end
      endtask

      if (Stages == 0) begin : g_comb
        always_comb begin
          load_state();
          run_steps();
        end
        assign result_o = w_result;
        assign aux_o    = w_aux;
        assign valid_o  = in_v;

        // No registers: the clock, reset and enable go unused.
        logic unused_ctrl;
        assign unused_ctrl = ^{clk_i, rst_ni, en_i, bnd, bnd_v, res_q, res_aux_q};
        assign bnd       = '0;
        assign bnd_v     = '0;
        assign res_q     = '0;
        assign res_aux_q = '0;
      end else begin : g_ff
        // The register loads when en_i and its input's valid bit are high.
        logic in_valid, v_q;
        assign in_valid = (First == 0) ? in_v : bnd_v[InSlot];
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) v_q <= 1'b0;
          else if (en_i) v_q <= in_valid;
        end
        assign bnd_v[Slot] = v_q;

        if (Last == NumSteps - 1) begin : g_out
          always_ff @(posedge clk_i) begin
            if (en_i && in_valid) begin
              load_state();
              run_steps();
              res_q     <= w_result;
              res_aux_q <= w_aux;
            end
          end
        end else begin : g_cut
          logic [StW-1:0] q;
          always_ff @(posedge clk_i) begin
            if (en_i && in_valid) begin
              load_state();
              run_steps();
              q <= {w_a, w_b, w_c, w_rnd, w_aux, w_sign_p, w_sign_c, w_eff_sub, w_a_zero,
                    w_b_zero, w_a_inf, w_b_inf, w_c_inf, w_a_nan, w_b_nan, w_c_nan, w_sig_c, w_ec,
                    w_ep, w_subp, w_shamt, w_pshamt, w_frame_exp, w_special, w_special_result,
                    w_row_s, w_row_c, w_add_al, w_cy, w_prod, w_prod_al, w_sum, w_neg, w_mag,
                    w_res_sign, w_lz, w_norm_shamt, w_exp_pre, w_norm, w_round_up, w_to_inf,
                    w_inc_in, w_inc, w_result};
            end
          end
          assign bnd[Slot*StW +: StW] = q;
        end
      end
    end
  end

  // ---- further output registers (for retiming) ------------------------------
  if (Stages >= 1) begin : g_more
    // The output slot has no state word.
    assign bnd[NumCuts*StW +: StW] = '0;
    logic unused_out_slot;
    assign unused_out_slot = ^bnd[NumCuts*StW +: StW];

    if (OutRegs == 1) begin : g_out1
      assign valid_o  = bnd_v[NumCuts];
      assign result_o = res_q;
      assign aux_o    = res_aux_q;
    end else begin : g_outn
      // Register k of the chain holds entry k of more_v/more_q.
      localparam int unsigned OutW = Width + AuxWidth;
      logic [OutRegs-2:0]          more_v;
      logic [(OutRegs-1)*OutW-1:0] more_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          more_v <= '0;
        end else if (en_i) begin
          more_v <= (OutRegs - 1)'({more_v, bnd_v[NumCuts]});
        end
      end
      always_ff @(posedge clk_i) begin
        if (en_i) begin
          if (bnd_v[NumCuts]) more_q[0 +: OutW] <= {res_q, res_aux_q};
          for (int k = 1; k < OutRegs - 1; k++) begin
            if (more_v[k-1]) more_q[k*OutW +: OutW] <= more_q[(k-1)*OutW +: OutW];
          end
        end
      end
      assign valid_o             = more_v[OutRegs-2];
      assign {result_o, aux_o} = more_q[(OutRegs-2)*OutW +: OutW];
    end
  end
  /* verilator lint_on BLKSEQ */

endmodule
