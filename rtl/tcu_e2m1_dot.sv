// One D element of block-scaled e2m1 mma.m16n8k64 (.kind::mxf4 with
// .scale_vec::2X ue8m0 scales, .kind::mxf4nvf4 with .scale_vec::4X ue4m3),
// bit-exact to the golden e2m1_dot (model/src/e2m1.cpp, MMA-Sim's
// "RTX Blackwell" mma_block_scale):
//
//   - NaN C, or a NaN scale (ue8m0 0xff, ue4m3 0x7f/0xff) among the blocks
//     used, gives 0x7fffffff; an infinite C is returned unchanged.
//   - Each group of 16 consecutive k is an exact e2m1 dot product, in
//     quarters, multiplied by both scale significands (ue8m0 1, ue4m3 read
//     through abs() in eighths), at the sum of the scales' exponents (ue8m0
//     0x00 = 2^-127, a zero ue4m3 at -126); terms are not renormalised.
//   - The four group terms and C (subnormal or zero C at exponent -126) are
//     aligned to the largest of the five exponents, each truncated toward
//     zero to 35 fractional bits below it, and added exactly.
//   - The sum is truncated to f32: subnormals kept, 2^128 and above is Inf,
//     exact zero and anything that truncates to zero is +0.
//
// Operands: a_k = a_i[4k +: 4] (A's row), b_k = b_i[4k +: 4] (B's column),
// k = 0..63; scale byte j (K block j: 16j..16j+15 for 4X, 32j..32j+31 for
// 2X) at scale_a_i[8j +: 8] and scale_b_i[8j +: 8]; 2X uses bytes 0 and 1
// only. c_i and d_o are f32.
//
// Four layers: (0) group dot products, scale decode and C unpack; (1) group
// terms and the alignment exponent; (2) alignment and the exact sum;
// (3) truncation to f32. Below FineParts (11) registers, the Stages
// pipeline registers are spread evenly over them as in tcu_int4_dot (layer
// l is followed by floor((l+1)S/4) - floor(lS/4)). From FineParts on, the
// fine form: the layers cut into eleven parts (0; 1a, 1b; 2a, 2s, 2l, 2h;
// 3h, 3i, 3z, 3b below), part p followed by floor((p+1)S/11) - floor(pS/11)
// >= 1 registers. Its sum (2s, 2l, 2h: carry-save, then two chunks) and
// magnitude (3h, 3i: two chunks) are other logic of the same value as
// layer2b's and layer3a's, so no part holds a carry chain of the full
// width; the other parts are the layers' own code, cut. valid_o and d_o
// follow valid_i exactly Stages cycles later, counting only cycles with
// en_i high; en_i low holds every register.
//
// Layer 0's group dots (each group's exact sum of products of two codes)
// come from one of two implementations with one port list, chosen by
// SynthImpl: tcu_e2m1_group_dots_synth (1: the products as logic, what
// Yosys maps) or tcu_e2m1_group_dots_fast (0: each product read from a
// 256-entry table, fast in Verilator). tcu-formal proves them equal
// (Yosys); both are tested against the golden model
// (tests/rtl/test_rtl_e2m1_dot.cpp).
//
// Simulation speed (as in tcu_fma; synthesis sees the same logic): each
// layer is a task without arguments or locals over module-level variables,
// run inside the always_ff of the first register after it, under that
// register's load enable, so an idle or stalled unit evaluates nothing (the
// fine form, the deepest settings only, runs each part in an always_comb
// ahead of a tcu_pipe_reg); the
// data inputs are public_flat_rd, so all instances share one copy of the
// Verilated code.
module tcu_e2m1_dot #(
  parameter int unsigned  Stages    = tcu_pkg::E2m1Stages,
  parameter bit           SynthImpl = tcu_pkg::SynthImpl,  // 1: the products as logic; 0: a table
  localparam int unsigned K      = tcu_pkg::E2M1_DOT_LANES,
  localparam int unsigned Blocks = tcu_pkg::E2M1_MAX_BLOCKS,
  localparam int unsigned CodeW  = tcu_pkg::fp_width(tcu_pkg::E2M1),
  localparam int unsigned ScaleW = tcu_pkg::fp_width(tcu_pkg::UE8M0),
  localparam int unsigned Width  = tcu_pkg::fp_width(tcu_pkg::FP32)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     en_i,
  input  logic                     valid_i /* verilator public_flat_rd */,
  input  logic                     scale_4x_i /* verilator public_flat_rd */,
  input  logic [K*CodeW-1:0]       a_i /* verilator public_flat_rd */,
  input  logic [K*CodeW-1:0]       b_i /* verilator public_flat_rd */,
  input  logic [Blocks*ScaleW-1:0] scale_a_i /* verilator public_flat_rd */,
  input  logic [Blocks*ScaleW-1:0] scale_b_i /* verilator public_flat_rd */,
  input  logic [Width-1:0]         c_i /* verilator public_flat_rd */,
  output logic                     valid_o,
  output logic [Width-1:0]         d_o
);

  // The waveform shows the ports (what tcu_tools.phys.workload reads) and no
  // internal signal: the units' internals were most of a trace, and of
  // the Verilated code to compile.
  /* verilator tracing_off */

  // ---------------------------------------------------------------------------
  // Widths
  // ---------------------------------------------------------------------------
  localparam int unsigned Man      = tcu_pkg::man_bits(tcu_pkg::FP32);  // 23
  localparam int unsigned ExpF     = tcu_pkg::exp_bits(tcu_pkg::FP32);  // 8
  localparam int unsigned Bias     = tcu_pkg::bias(tcu_pkg::FP32);      // 127
  localparam int unsigned Group    = tcu_pkg::E2M1_GROUP;  // k summed exactly per term
  localparam int unsigned Groups   = K / Group;         // 4 terms
  localparam int unsigned WinFrac  = 35;                // bits kept below the max exponent
  localparam int unsigned TermFrac = 8;                 // quarters times two eighths
  // A group's dot in quarters: |q| <= 16 * 144 = 2304.
  localparam int unsigned QW       = tcu_pkg::E2M1_GROUP_DOT_WIDTH;
  // Product of two scale significands in eighths: <= 15 * 15.
  localparam int unsigned SprodW   = 8;
  // Signed exponents: scale sums lie in [-254, 254], the result's in
  // [-161, 267]; also the (non-negative) alignment distances, <= 508.
  localparam int unsigned ExpW     = 10;
  // A term's magnitude, |q| * sprod < 2^20, and C's significand.
  localparam int unsigned TermW    = 20;
  localparam int unsigned CSigW    = Man + 1;
  // Aligned magnitudes: a term's at 35 - 8 = 27 bits left, C's 35 - 23 = 12.
  localparam int unsigned TermAlW  = TermW + WinFrac - TermFrac;
  localparam int unsigned CAlW     = CSigW + WinFrac - Man;
  // The exact sum of four aligned terms and C.
  localparam int unsigned SumW     = TermAlW + 4;
  localparam int unsigned MagW     = SumW - 1;

  localparam logic signed [ExpW-1:0] ZERO_EXP  = ExpW'(-126);  // MMA-Sim's zero
  localparam logic signed [ExpW-1:0] SUB_EXP   = ExpW'(-6);    // ue4m3 subnormal
  localparam logic signed [ExpW-1:0] EXP_MAX   = ExpW'(Bias);      // f32 normal range
  localparam logic signed [ExpW-1:0] EXP_MIN   = ExpW'(1) - ExpW'(Bias);
  // All ones written as a replication, not '1: Yosys 0.23 reads an unbased
  // unsized literal as a parameter's value as 1 (8'h01), Verilator as all
  // ones (docs/architecture.md, "Simulation and synthesis read one text";
  // scripts/lint_constructs.py refuses the construct).
  localparam logic [ScaleW-1:0]      E8M0_NAN  = {ScaleW{1'b1}};
  localparam logic [ScaleW-2:0]      E4M3_NAN  = {(ScaleW - 1){1'b1}};
  localparam logic [Width-1:0]       POS_INF   = {1'b0, {ExpF{1'b1}}, {Man{1'b0}}};


  // Each group's exact dot product in quarters (QW bits each), from one of
  // two implementations (SynthImpl): the products as logic, or read from a
  // table of the 256 products (fast in Verilator).
  logic [Groups*QW-1:0] group_dots;
  if (SynthImpl) begin : g_synth
    tcu_e2m1_group_dots_synth u_group_dots (.a_i, .b_i, .dots_o(group_dots));
  end else begin : g_fast
    tcu_e2m1_group_dots_fast u_group_dots (.a_i, .b_i, .dots_o(group_dots));
  end

  // Each layer's packed output, and its input (the previous layer's output,
  // registered or not).
  localparam int unsigned L0W = Groups * (QW + SprodW + ExpW) + 1 + CSigW + ExpW + 2;
  localparam int unsigned L1W = Groups * (1 + TermW + ExpW) + 1 + CSigW + ExpW + ExpW + 2;
  localparam int unsigned L2W = SumW + ExpW + 1 + 2;
  logic [L0W-1:0]   l0_out, l1_in;
  logic [L1W-1:0]   l1_out, l2_in;
  logic [L2W-1:0]   l2_out, l3_in;
  logic [Width-1:0] l3_out;

  // The layer variables are combinational temporaries: each is written with
  // blocking assignments by the one block that runs its layer (the always_ff
  // of the first register after it, or the always_comb for Stages = 0).
  /* verilator lint_off BLKSEQ */

  // ---------------------------------------------------------------------------
  // Layer 0: group dot products, scale decode, C unpack (inputs -> l0_out)
  // ---------------------------------------------------------------------------
  logic [Groups*QW-1:0]     l0_q;
  logic [Groups*SprodW-1:0] l0_sprod;
  logic [Groups*ExpW-1:0]   l0_texp;
  logic                     l0_nan;
  logic [ScaleW-1:0]        l0_raw;
  logic [1:0]               l0_snan;
  logic [7:0]               l0_eighths;
  logic [2*ExpW-1:0]        l0_sexp;
  logic                     l0_c_nan, l0_c_inf;
  logic [CSigW-1:0]         l0_c_mag;
  logic signed [ExpW-1:0]   l0_c_exp;

  task automatic layer0();
    l0_nan = 1'b0;
    for (int unsigned g = 0; g < Groups; g++) begin
      l0_q[g*QW +: QW] = group_dots[g*QW +: QW];
      // The scale bytes of A (s = 0) and B (s = 1): 2X: group g is in block
      // g/2; 4X: block g. Decoded to {nan, significand in eighths, exponent}.
      for (int unsigned sc = 0; sc < 2; sc++) begin
        l0_raw = (sc == 0) ? (scale_4x_i ? scale_a_i[g*ScaleW +: ScaleW]
                                         : scale_a_i[(g/2)*ScaleW +: ScaleW])
                           : (scale_4x_i ? scale_b_i[g*ScaleW +: ScaleW]
                                         : scale_b_i[(g/2)*ScaleW +: ScaleW]);
        if (!scale_4x_i) begin
          l0_snan[sc]              = l0_raw == E8M0_NAN;
          l0_eighths[4*sc +: 4]    = 4'd8;
          l0_sexp[ExpW*sc +: ExpW] = ExpW'(l0_raw) - ExpW'(Bias);
        end else begin
          // ue4m3 through abs(): bit 7 ignored; exponent bias 7, 3 fraction bits.
          l0_snan[sc] = l0_raw[ScaleW-2:0] == E4M3_NAN;
          if (l0_raw[6:3] != 4'd0) begin
            l0_eighths[4*sc +: 4]    = {1'b1, l0_raw[2:0]};
            l0_sexp[ExpW*sc +: ExpW] = ExpW'(l0_raw[6:3]) - ExpW'(7);
          end else if (l0_raw[2:0] != 3'd0) begin
            l0_eighths[4*sc +: 4]    = {1'b0, l0_raw[2:0]};
            l0_sexp[ExpW*sc +: ExpW] = SUB_EXP;
          end else begin
            l0_eighths[4*sc +: 4]    = 4'd0;
            l0_sexp[ExpW*sc +: ExpW] = ZERO_EXP;
          end
        end
      end
      l0_sprod[g*SprodW +: SprodW] = l0_eighths[3:0] * l0_eighths[7:4];
      l0_texp[g*ExpW +: ExpW]      = l0_sexp[ExpW-1:0] + l0_sexp[2*ExpW-1:ExpW];
      // Every block in use is some group's (2X: 0 and 1; 4X: 0..3), so the
      // groups' scales are the NaN check.
      l0_nan = l0_nan | (|l0_snan);
    end

    // C: sign, significand (hidden bit for normals), exponent (-126 for
    // subnormals and zero).
    l0_c_inf = c_i[Width-2:Man] == '1 && c_i[Man-1:0] == '0;
    l0_c_nan = c_i[Width-2:Man] == '1 && c_i[Man-1:0] != '0;
    l0_c_mag = {c_i[Width-2:Man] != '0, c_i[Man-1:0]};
    l0_c_exp = c_i[Width-2:Man] == '0 ? ZERO_EXP : ExpW'(c_i[Width-2:Man]) - ExpW'(Bias);

    l0_out = {l0_q, l0_sprod, l0_texp, c_i[Width-1], l0_c_mag, l0_c_exp, l0_c_nan | l0_nan,
              l0_c_inf};
  endtask

  // ---------------------------------------------------------------------------
  // Layer 1: group terms, the alignment exponent and distances (l1_in ->
  // l1_out), in two parts: (1a) the terms and the largest exponent
  // (l1_in -> l1a_out), (1b) the distances (l1b_in -> l1_out).
  // ---------------------------------------------------------------------------
  localparam int unsigned L1aW = Groups * (1 + TermW + ExpW) + 1 + CSigW + ExpW + ExpW + 2;
  logic [L1aW-1:0] l1a_out, l1b_in;

  logic [Groups*QW-1:0]     l1_q;
  logic [Groups*SprodW-1:0] l1_sprod;
  logic [Groups*ExpW-1:0]   l1_texp;
  logic                     l1_c_sign, l1_nan, l1_inf;
  logic [CSigW-1:0]         l1_c_mag;
  logic signed [ExpW-1:0]   l1_c_exp, l1_max_exp;
  logic signed [QW-1:0]     l1_qg;
  logic [QW-2:0]            l1_qmag;
  logic [Groups-1:0]        l1_term_sign;
  logic [Groups*TermW-1:0]  l1_term_mag;

  task automatic layer1a();
    {l1_q, l1_sprod, l1_texp, l1_c_sign, l1_c_mag, l1_c_exp, l1_nan, l1_inf} = l1_in;
    l1_max_exp = l1_c_exp;
    // A select, not an if: Verilator 5.006 counts an if in this loop
    // against the final running maximum only.
    for (int unsigned g = 0; g < Groups; g++) begin
      l1_max_exp = ($signed(l1_texp[g*ExpW +: ExpW]) > l1_max_exp) ? l1_texp[g*ExpW +: ExpW]
                                                                  : l1_max_exp;
    end
    for (int unsigned g = 0; g < Groups; g++) begin
      l1_qg                         = l1_q[g*QW +: QW];
      l1_qmag                       = l1_qg[QW-1] ? (QW-1)'(-l1_qg) : l1_qg[QW-2:0];
      l1_term_sign[g]               = l1_qg[QW-1];
      l1_term_mag[g*TermW +: TermW] = TermW'(l1_qmag) * TermW'(l1_sprod[g*SprodW +: SprodW]);
    end
    l1a_out = {l1_term_sign, l1_term_mag, l1_texp, l1_c_sign, l1_c_mag, l1_c_exp, l1_max_exp,
               l1_nan, l1_inf};
  endtask

  logic [Groups-1:0]        l1b_term_sign;
  logic [Groups*TermW-1:0]  l1b_term_mag;
  logic [Groups*ExpW-1:0]   l1b_texp, l1b_term_dist;
  logic                     l1b_c_sign, l1b_nan, l1b_inf;
  logic [CSigW-1:0]         l1b_c_mag;
  logic signed [ExpW-1:0]   l1b_c_exp, l1b_max_exp;

  task automatic layer1b();
    {l1b_term_sign, l1b_term_mag, l1b_texp, l1b_c_sign, l1b_c_mag, l1b_c_exp, l1b_max_exp,
     l1b_nan, l1b_inf} = l1b_in;
    for (int unsigned g = 0; g < Groups; g++) begin
      l1b_term_dist[g*ExpW +: ExpW] = l1b_max_exp - l1b_texp[g*ExpW +: ExpW];
    end
    l1_out = {l1b_term_sign, l1b_term_mag, l1b_term_dist, l1b_c_sign, l1b_c_mag,
              ExpW'(l1b_max_exp - l1b_c_exp), l1b_max_exp, l1b_nan, l1b_inf};
  endtask

  task automatic layer1();
    layer1a();
    l1b_in = l1a_out;
    layer1b();
  endtask

  // ---------------------------------------------------------------------------
  // Layer 2: alignment (truncating toward zero) and the exact sum (l2_in ->
  // l2_out), in two parts: (2a) the aligned terms and C, C signed
  // (l2_in -> l2a_out), (2b) the sum (l2b_in -> l2_out).
  // ---------------------------------------------------------------------------
  localparam int unsigned L2aW = SumW + Groups * (1 + TermAlW) + ExpW + 1 + 2;
  logic [L2aW-1:0] l2a_out, l2b_in;

  logic [Groups-1:0]         l2_term_sign;
  logic [Groups*TermW-1:0]   l2_term_mag;
  logic [Groups*ExpW-1:0]    l2_term_dist;
  logic                      l2_c_sign, l2_nan, l2_inf;
  logic [CSigW-1:0]          l2_c_mag;
  logic [ExpW-1:0]           l2_c_dist;
  logic [ExpW-1:0]           l2_max_exp;
  logic [CAlW-1:0]           l2_c_al;
  logic [Groups*TermAlW-1:0] l2_t_al;
  logic signed [SumW-1:0]    l2_c_term;

  task automatic layer2a();
    {l2_term_sign, l2_term_mag, l2_term_dist, l2_c_sign, l2_c_mag, l2_c_dist, l2_max_exp, l2_nan,
     l2_inf} = l2_in;
    l2_c_al   = {l2_c_mag, {(CAlW - CSigW){1'b0}}} >> l2_c_dist;
    l2_c_term = l2_c_sign ? -(SumW'(l2_c_al)) : SumW'(l2_c_al);
    for (int unsigned g = 0; g < Groups; g++) begin
      l2_t_al[g*TermAlW +: TermAlW] = {l2_term_mag[g*TermW +: TermW],
                                       {(TermAlW - TermW){1'b0}}} >> l2_term_dist[g*ExpW +: ExpW];
    end
    l2a_out = {l2_c_term, l2_term_sign, l2_t_al, l2_max_exp, l2_c_sign, l2_nan, l2_inf};
  endtask

  logic signed [SumW-1:0]    l2b_sum;
  logic [Groups-1:0]         l2b_term_sign;
  logic [Groups*TermAlW-1:0] l2b_t_al;
  logic [ExpW-1:0]           l2b_max_exp;
  logic                      l2b_c_sign, l2b_nan, l2b_inf;

  task automatic layer2b();
    {l2b_sum, l2b_term_sign, l2b_t_al, l2b_max_exp, l2b_c_sign, l2b_nan, l2b_inf} = l2b_in;
    for (int unsigned g = 0; g < Groups; g++) begin
      l2b_sum = l2b_sum + ((SumW'(l2b_t_al[g*TermAlW +: TermAlW]) ^ {SumW{l2b_term_sign[g]}}) +
                           SumW'(l2b_term_sign[g]));
    end
    l2_out = {l2b_sum, l2b_max_exp, l2b_c_sign, l2b_nan, l2b_inf};
  endtask

  task automatic layer2();
    layer2a();
    l2b_in = l2a_out;
    layer2b();
  endtask

  // The fine form's sum (Stages >= FineParts), the same value as layer2b's
  // in three parts: (2s) the six addends (C, the four terms inverted when
  // negative, the count of negative terms) reduced to two by three levels
  // of carry-save adders (l2b_in -> l2s_out); (2l) their low LoS bits added
  // (l2l_in -> l2l_out); (2h) their high bits added with its carry
  // (l2h_in -> l2_out). Every sum is modulo 2^SumW, where the exact sum
  // fits.
  localparam int unsigned LoS  = SumW / 2;
  localparam int unsigned L2sW = 2 * SumW + ExpW + 3;
  localparam int unsigned L2lW = 2 * (SumW - LoS) + (LoS + 1) + ExpW + 3;
  logic [L2sW-1:0]    l2s_out, l2l_in;
  logic [L2lW-1:0]    l2l_out, l2h_in;
  logic [6*SumW-1:0]  l2s_op;
  logic [SumW-1:0]    l2s_s1, l2s_c1, l2s_s2, l2s_c2, l2s_s3, l2s_c3, l2s_x, l2s_y;

  task automatic layer2s();
    {l2b_sum, l2b_term_sign, l2b_t_al, l2b_max_exp, l2b_c_sign, l2b_nan, l2b_inf} = l2b_in;
    l2s_op[0 +: SumW] = l2b_sum;
    for (int unsigned g = 0; g < Groups; g++) begin
      l2s_op[(g+1)*SumW +: SumW] = SumW'(l2b_t_al[g*TermAlW +: TermAlW]) ^
                                   {SumW{l2b_term_sign[g]}};
    end
    l2s_op[5*SumW +: SumW] = SumW'(l2b_term_sign[0]) + SumW'(l2b_term_sign[1]) +
                             SumW'(l2b_term_sign[2]) + SumW'(l2b_term_sign[3]);
    // 6 -> 4 -> 3 -> 2 addends: a + b + c = (a ^ b ^ c) + 2 maj(a, b, c).
    l2s_s1 = l2s_op[0 +: SumW] ^ l2s_op[SumW +: SumW] ^ l2s_op[2*SumW +: SumW];
    l2s_c1 = (((l2s_op[0 +: SumW] & l2s_op[SumW +: SumW]) |
               (l2s_op[0 +: SumW] & l2s_op[2*SumW +: SumW]) |
               (l2s_op[SumW +: SumW] & l2s_op[2*SumW +: SumW]))) << 1;
    l2s_s2 = l2s_op[3*SumW +: SumW] ^ l2s_op[4*SumW +: SumW] ^ l2s_op[5*SumW +: SumW];
    l2s_c2 = (((l2s_op[3*SumW +: SumW] & l2s_op[4*SumW +: SumW]) |
               (l2s_op[3*SumW +: SumW] & l2s_op[5*SumW +: SumW]) |
               (l2s_op[4*SumW +: SumW] & l2s_op[5*SumW +: SumW]))) << 1;
    l2s_s3 = l2s_s1 ^ l2s_c1 ^ l2s_s2;
    l2s_c3 = ((l2s_s1 & l2s_c1) | (l2s_s1 & l2s_s2) | (l2s_c1 & l2s_s2)) << 1;
    l2s_x  = l2s_s3 ^ l2s_c3 ^ l2s_c2;
    l2s_y  = ((l2s_s3 & l2s_c3) | (l2s_s3 & l2s_c2) | (l2s_c3 & l2s_c2)) << 1;
    l2s_out = {l2s_x, l2s_y, l2b_max_exp, l2b_c_sign, l2b_nan, l2b_inf};
  endtask

  logic [SumW-1:0] l2l_x, l2l_y;
  logic [ExpW-1:0] l2l_max_exp;
  logic            l2l_c_sign, l2l_nan, l2l_inf;
  logic [LoS:0]    l2l_lo;

  task automatic layer2l();
    {l2l_x, l2l_y, l2l_max_exp, l2l_c_sign, l2l_nan, l2l_inf} = l2l_in;
    l2l_lo  = {1'b0, l2l_x[LoS-1:0]} + {1'b0, l2l_y[LoS-1:0]};
    l2l_out = {l2l_x[SumW-1:LoS], l2l_y[SumW-1:LoS], l2l_lo, l2l_max_exp, l2l_c_sign, l2l_nan,
               l2l_inf};
  endtask

  logic [SumW-LoS-1:0] l2h_x, l2h_y;
  logic [LoS:0]        l2h_lo;
  logic [ExpW-1:0]     l2h_max_exp;
  logic                l2h_c_sign, l2h_nan, l2h_inf;

  task automatic layer2h();
    {l2h_x, l2h_y, l2h_lo, l2h_max_exp, l2h_c_sign, l2h_nan, l2h_inf} = l2h_in;
    l2_out = {l2h_x + l2h_y + (SumW - LoS)'(l2h_lo[LoS]), l2h_lo[LoS-1:0], l2h_max_exp, l2h_c_sign,
              l2h_nan, l2h_inf};
  endtask

  // ---------------------------------------------------------------------------
  // Layer 3: truncation to f32 (golden fixed_to_f32_rz), in two parts:
  // (3a) the magnitude and its leading zeros (l3_in -> l3a_out), (3b) the
  // exponent, the normalised or subnormal fraction and the packing
  // (l3b_in -> l3_out). layer3 runs both.
  // ---------------------------------------------------------------------------
  localparam int unsigned L3mW = 1 + MagW + ExpW + 3;
  localparam int unsigned L3aW = 1 + MagW + 6 + ExpW + 3;
  logic [L3mW-1:0] l3m_out, l3z_in;
  logic [L3aW-1:0] l3a_out, l3b_in;

  logic signed [SumW-1:0] l3_sum;
  logic signed [ExpW-1:0] l3_max_exp;
  logic                   l3_c_sign, l3_nan, l3_inf, l3_sign;
  logic [MagW-1:0]        l3_mag;
  logic [63:0]            l3_probe;
  logic [5:0]             l3_lz;

  task automatic layer3a();
    {l3_sum, l3_max_exp, l3_c_sign, l3_nan, l3_inf} = l3_in;
    l3_sign = l3_sum[SumW-1];
    l3_mag  = l3_sign ? MagW'(-l3_sum) : l3_sum[MagW-1:0];
    l3m_out = {l3_sign, l3_mag, l3_max_exp, l3_c_sign, l3_nan, l3_inf};
  endtask

  // The fine form's magnitude (Stages >= FineParts), the same value as
  // layer3a's in two parts: (3h) the bits inverted for a negative sum and
  // the low LoW bits' increment (l3_in -> l3h_out), (3i) the high bits'
  // increment by the low bits' carry (l3i_in -> l3m_out).
  localparam int unsigned LoW  = MagW / 2;
  localparam int unsigned L3hW = 1 + (MagW - LoW) + (LoW + 1) + ExpW + 3;
  logic [L3hW-1:0]      l3h_out, l3i_in;
  logic [MagW-1:0]      l3h_inv;
  logic [LoW:0]         l3h_lo;

  task automatic layer3h();
    {l3_sum, l3_max_exp, l3_c_sign, l3_nan, l3_inf} = l3_in;
    l3_sign = l3_sum[SumW-1];
    l3h_inv = l3_sum[MagW-1:0] ^ {MagW{l3_sign}};
    l3h_lo  = {1'b0, l3h_inv[LoW-1:0]} + (LoW + 1)'(l3_sign);
    l3h_out = {l3_sign, l3h_inv[MagW-1:LoW], l3h_lo, l3_max_exp, l3_c_sign, l3_nan, l3_inf};
  endtask

  logic                   l3i_sign, l3i_c_sign, l3i_nan, l3i_inf;
  logic [MagW-LoW-1:0]    l3i_hi;
  logic [LoW:0]           l3i_lo;
  logic signed [ExpW-1:0] l3i_max_exp;

  task automatic layer3i();
    {l3i_sign, l3i_hi, l3i_lo, l3i_max_exp, l3i_c_sign, l3i_nan, l3i_inf} = l3i_in;
    l3m_out = {l3i_sign, l3i_hi + (MagW - LoW)'(l3i_lo[LoW]), l3i_lo[LoW-1:0], l3i_max_exp,
               l3i_c_sign, l3i_nan, l3i_inf};
  endtask

  logic                   l3z_sign, l3z_c_sign, l3z_nan, l3z_inf;
  logic [MagW-1:0]        l3z_mag;
  logic signed [ExpW-1:0] l3z_max_exp;

  task automatic layer3z();
    {l3z_sign, l3z_mag, l3z_max_exp, l3z_c_sign, l3z_nan, l3z_inf} = l3z_in;
    // Leading zeros of the magnitude (MagW when zero: ones below it), a
    // six-step binary search.
    l3_probe = {l3z_mag, {(64 - MagW){1'b1}}};
    l3_lz[5] = l3_probe[63:32] == '0;
    l3_probe = l3_lz[5] ? l3_probe << 32 : l3_probe;
    l3_lz[4] = l3_probe[63:48] == '0;
    l3_probe = l3_lz[4] ? l3_probe << 16 : l3_probe;
    l3_lz[3] = l3_probe[63:56] == '0;
    l3_probe = l3_lz[3] ? l3_probe << 8 : l3_probe;
    l3_lz[2] = l3_probe[63:60] == '0;
    l3_probe = l3_lz[2] ? l3_probe << 4 : l3_probe;
    l3_lz[1] = l3_probe[63:62] == '0;
    l3_probe = l3_lz[1] ? l3_probe << 2 : l3_probe;
    l3_lz[0] = !l3_probe[63];

    l3a_out = {l3z_sign, l3z_mag, l3_lz, l3z_max_exp, l3z_c_sign, l3z_nan, l3z_inf};
  endtask

  logic signed [ExpW-1:0] l3b_max_exp, l3b_res_exp, l3b_sub_shift;
  logic                   l3b_c_sign, l3b_nan, l3b_inf, l3b_sign;
  logic [MagW-1:0]        l3b_mag;
  logic [5:0]             l3b_lz;
  logic [Man-1:0]         l3b_frac;
  logic [Man-1:0]         l3b_sub_units;

  task automatic layer3b();
    {l3b_sign, l3b_mag, l3b_lz, l3b_max_exp, l3b_c_sign, l3b_nan, l3b_inf} = l3b_in;

    // The value is mag * 2^(max_exp - 35); its leading one is at exponent
    // e = max_exp - 35 + (MagW - 1 - lz). Normalised: the leading one at the
    // top, the f32 fraction below it.
    l3b_res_exp = l3b_max_exp - ExpW'(WinFrac) + ExpW'(MagW - 1) - ExpW'(l3b_lz);
    l3b_frac    = Man'((l3b_mag << l3b_lz) >> (MagW - 1 - Man));

    // Subnormal: mag in units of 2^-149 is mag * 2^(max_exp - 35 + 149).
    l3b_sub_shift = l3b_max_exp - ExpW'(WinFrac) + ExpW'(Bias - 1 + Man);
    l3b_sub_units = l3b_sub_shift[ExpW-1] ? Man'(l3b_mag >> (-l3b_sub_shift))
                                          : Man'(l3b_mag << l3b_sub_shift);

    if (l3b_nan) begin
      l3_out = tcu_pkg::F32_CANONICAL_NAN;
    end else if (l3b_inf) begin
      l3_out = {l3b_c_sign, POS_INF[Width-2:0]};
    end else if (l3b_mag == '0) begin
      l3_out = '0;
    end else if (l3b_res_exp > EXP_MAX) begin
      l3_out = {l3b_sign, POS_INF[Width-2:0]};
    end else if (l3b_res_exp >= EXP_MIN) begin
      l3_out = {l3b_sign, ExpF'(l3b_res_exp + EXP_MAX), l3b_frac};
    end else if (l3b_sub_units == '0) begin
      l3_out = '0;
    end else begin
      l3_out = {l3b_sign, {ExpF{1'b0}}, l3b_sub_units};
    end
  endtask

  task automatic layer3();
    layer3a();
    l3z_in = l3m_out;
    layer3z();
    l3b_in = l3a_out;
    layer3b();
  endtask

  // ---------------------------------------------------------------------------
  // Registers, and the blocks that run the layers
  // ---------------------------------------------------------------------------
  // Registers after layer l (D<l>), and the first layer the block of that
  // boundary's first register runs (F<l>: the one after the last registered
  // boundary before it).
  // Below FineParts (11) registers they go after the four layers (D<l>);
  // from there on (Fine) after the eleven parts of them (g_fine).
  localparam int unsigned FineParts = 11;
  localparam bit          Fine      = Stages >= FineParts;
  localparam int unsigned D0 = (1 * Stages) / 4;
  localparam int unsigned D1 = (2 * Stages) / 4 - (1 * Stages) / 4;
  localparam int unsigned D2 = (3 * Stages) / 4 - (2 * Stages) / 4;
  localparam int unsigned D3 = Stages - (3 * Stages) / 4;
  localparam int unsigned F1 = (D0 > 0) ? 1 : 0;
  localparam int unsigned F2 = (D1 > 0) ? 2 : F1;
  localparam int unsigned F3 = (D2 > 0) ? 3 : F2;
  // With D<l> as above, a boundary 2 with registers (Stages >= 3) always
  // follows a registered boundary 1 (F2 = 2), and F3 is 0 (Stages = 1), 2
  // (Stages = 2) or 3: the blocks below are written for those cases only.
  if (!Fine && ((D2 > 0 && F2 != 2) || (Stages > 0 && F3 == 1))) begin : g_bad_boundaries
    $fatal(1, "tcu_e2m1_dot: a register boundary the blocks do not cover");
  end

  // Boundary l's output (the registered value, or unused) and valid bit
  // (the input valid when the boundary has no register).
  logic [L0W-1:0]   bnd0;
  logic [L1W-1:0]   bnd1;
  logic [L2W-1:0]   bnd2;
  logic             bv0, bv1, bv2;

  if (Stages == 0) begin : g_comb
    always_comb begin
      layer0();
      l1_in = l0_out;
      layer1();
      l2_in = l1_out;
      layer2();
      l3_in = l2_out;
      layer3();
    end
    assign {bnd0, bnd1, bnd2} = '0;
    assign {bv0, bv1, bv2}    = '0;
    assign valid_o = valid_i;
    assign d_o     = l3_out;

    // No registers: the clock, reset and enable go unused.
    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, rst_ni, en_i, bnd0, bnd1, bnd2, bv0, bv1, bv2};
  end else if (Fine) begin : g_fine
    // Part p (of FineParts) is followed by floor((p+1)S/FineParts) -
    // floor(pS/FineParts) >= 1 registers (a tcu_pipe_reg); each part runs in
    // an always_comb from the registers before it.
    logic [L0W-1:0] p0_d;
    logic [L0W-1:0] p0_q;
    logic p0_v;
    logic [L1aW-1:0] p1_d;
    logic [L1aW-1:0] p1_q;
    logic p1_v;
    logic [L1W-1:0] p2_d;
    logic [L1W-1:0] p2_q;
    logic p2_v;
    logic [L2aW-1:0] p3_d;
    logic [L2aW-1:0] p3_q;
    logic p3_v;
    logic [L2sW-1:0] p4_d;
    logic [L2sW-1:0] p4_q;
    logic p4_v;
    logic [L2lW-1:0] p5_d;
    logic [L2lW-1:0] p5_q;
    logic p5_v;
    logic [L2W-1:0] p6_d;
    logic [L2W-1:0] p6_q;
    logic p6_v;
    logic [L3hW-1:0] p7_d;
    logic [L3hW-1:0] p7_q;
    logic p7_v;
    logic [L3mW-1:0] p8_d;
    logic [L3mW-1:0] p8_q;
    logic p8_v;
    logic [L3aW-1:0] p9_d;
    logic [L3aW-1:0] p9_q;
    logic p9_v;
    logic [Width-1:0] p10_d;
    always_comb begin
      layer0();
      p0_d = l0_out;
    end
    tcu_pipe_reg #(.Width(L0W), .Depth((1 * Stages) / FineParts - (0 * Stages) / FineParts)) u_r0 (
      .clk_i, .rst_ni, .en_i, .valid_i(valid_i), .data_i(p0_d), .valid_o(p0_v), .data_o(p0_q));
    always_comb begin
      l1_in = p0_q;
      layer1a();
      p1_d = l1a_out;
    end
    tcu_pipe_reg #(.Width(L1aW), .Depth((2 * Stages) / FineParts - (1 * Stages) / FineParts)) u_r1 (
      .clk_i, .rst_ni, .en_i, .valid_i(p0_v), .data_i(p1_d), .valid_o(p1_v), .data_o(p1_q));
    always_comb begin
      l1b_in = p1_q;
      layer1b();
      p2_d = l1_out;
    end
    tcu_pipe_reg #(.Width(L1W), .Depth((3 * Stages) / FineParts - (2 * Stages) / FineParts)) u_r2 (
      .clk_i, .rst_ni, .en_i, .valid_i(p1_v), .data_i(p2_d), .valid_o(p2_v), .data_o(p2_q));
    always_comb begin
      l2_in = p2_q;
      layer2a();
      p3_d = l2a_out;
    end
    tcu_pipe_reg #(.Width(L2aW), .Depth((4 * Stages) / FineParts - (3 * Stages) / FineParts)) u_r3 (
      .clk_i, .rst_ni, .en_i, .valid_i(p2_v), .data_i(p3_d), .valid_o(p3_v), .data_o(p3_q));
    always_comb begin
      l2b_in = p3_q;
      layer2s();
      p4_d = l2s_out;
    end
    tcu_pipe_reg #(.Width(L2sW), .Depth((5 * Stages) / FineParts - (4 * Stages) / FineParts)) u_r4 (
      .clk_i, .rst_ni, .en_i, .valid_i(p3_v), .data_i(p4_d), .valid_o(p4_v), .data_o(p4_q));
    always_comb begin
      l2l_in = p4_q;
      layer2l();
      p5_d = l2l_out;
    end
    tcu_pipe_reg #(.Width(L2lW), .Depth((6 * Stages) / FineParts - (5 * Stages) / FineParts)) u_r5 (
      .clk_i, .rst_ni, .en_i, .valid_i(p4_v), .data_i(p5_d), .valid_o(p5_v), .data_o(p5_q));
    always_comb begin
      l2h_in = p5_q;
      layer2h();
      p6_d = l2_out;
    end
    tcu_pipe_reg #(.Width(L2W), .Depth((7 * Stages) / FineParts - (6 * Stages) / FineParts)) u_r6 (
      .clk_i, .rst_ni, .en_i, .valid_i(p5_v), .data_i(p6_d), .valid_o(p6_v), .data_o(p6_q));
    always_comb begin
      l3_in = p6_q;
      layer3h();
      p7_d = l3h_out;
    end
    tcu_pipe_reg #(.Width(L3hW), .Depth((8 * Stages) / FineParts - (7 * Stages) / FineParts)) u_r7 (
      .clk_i, .rst_ni, .en_i, .valid_i(p6_v), .data_i(p7_d), .valid_o(p7_v), .data_o(p7_q));
    always_comb begin
      l3i_in = p7_q;
      layer3i();
      p8_d = l3m_out;
    end
    tcu_pipe_reg #(.Width(L3mW), .Depth((9 * Stages) / FineParts - (8 * Stages) / FineParts)) u_r8 (
      .clk_i, .rst_ni, .en_i, .valid_i(p7_v), .data_i(p8_d), .valid_o(p8_v), .data_o(p8_q));
    always_comb begin
      l3z_in = p8_q;
      layer3z();
      p9_d = l3a_out;
    end
    tcu_pipe_reg #(.Width(L3aW), .Depth((10 * Stages) / FineParts - (9 * Stages) / FineParts)) u_r9 (
      .clk_i, .rst_ni, .en_i, .valid_i(p8_v), .data_i(p9_d), .valid_o(p9_v), .data_o(p9_q));
    always_comb begin
      l3b_in = p9_q;
      layer3b();
      p10_d = l3_out;
    end
    tcu_pipe_reg #(.Width(Width), .Depth(Stages - (10 * Stages) / FineParts)) u_r10 (
      .clk_i, .rst_ni, .en_i, .valid_i(p9_v), .data_i(p10_d), .valid_o, .data_o(d_o));

    assign {bnd0, bnd1, bnd2} = '0;
    assign {bv0, bv1, bv2}    = '0;
    logic unused_bnd;
    assign unused_bnd = ^{bnd0, bnd1, bnd2, bv0, bv1, bv2};
  end else begin : g_pipe
    // A boundary without registers, or one the next block does not read
    // (boundary 0 when boundary 1 computes layer 0 itself), is unused.
    logic unused_bnd;
    assign unused_bnd = ^{bnd0, bnd1, bnd2};

    // ---- boundary 0 ---------------------------------------------------------
    if (D0 > 0) begin : g_b0
      logic           v_q;
      logic [L0W-1:0] d_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) v_q <= 1'b0;
        else if (en_i) v_q <= valid_i;
      end
      always_ff @(posedge clk_i) begin
        if (en_i && valid_i) begin
          layer0();
          d_q <= l0_out;
        end
      end
      tcu_pipe_reg #(.Width(L0W), .Depth(D0 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(d_q), .valid_o(bv0), .data_o(bnd0));
    end else begin : g_b0_none
      assign bv0  = valid_i;
      assign bnd0 = '0;
    end

    // ---- boundary 1 ---------------------------------------------------------
    if (D1 > 0) begin : g_b1
      logic           v_q;
      logic [L1W-1:0] d_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) v_q <= 1'b0;
        else if (en_i) v_q <= bv0;
      end
      // The layers from F1: each block's choice made at elaboration (a
      // run-time if on a parameter would be a branch no run can cover).
      if (F1 == 0) begin : g_from0
        always_ff @(posedge clk_i) begin
          if (en_i && bv0) begin
            layer0();
            l1_in = l0_out;
            layer1();
            d_q <= l1_out;
          end
        end
      end else begin : g_from1
        always_ff @(posedge clk_i) begin
          if (en_i && bv0) begin
            l1_in = bnd0;
            layer1();
            d_q <= l1_out;
          end
        end
      end
      tcu_pipe_reg #(.Width(L1W), .Depth(D1 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(d_q), .valid_o(bv1), .data_o(bnd1));
    end else begin : g_b1_none
      assign bv1  = bv0;
      assign bnd1 = '0;
    end

    // ---- boundary 2 ---------------------------------------------------------
    if (D2 > 0) begin : g_b2
      logic           v_q;
      logic [L2W-1:0] d_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) v_q <= 1'b0;
        else if (en_i) v_q <= bv1;
      end
      always_ff @(posedge clk_i) begin
        if (en_i && bv1) begin
          l2_in = bnd1;  // F2 = 2: boundary 1 has registers
          layer2();
          d_q <= l2_out;
        end
      end
      tcu_pipe_reg #(.Width(L2W), .Depth(D2 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(d_q), .valid_o(bv2), .data_o(bnd2));
    end else begin : g_b2_none
      assign bv2  = bv1;
      assign bnd2 = '0;
    end

    // ---- boundary 3: the output (D3 >= 1 for Stages >= 1) -------------------
    logic             v3_q;
    logic [Width-1:0] d3_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v3_q <= 1'b0;
      else if (en_i) v3_q <= bv2;
    end
    if (F3 == 0) begin : g_from0
      always_ff @(posedge clk_i) begin
        if (en_i && bv2) begin
          layer0();
          l1_in = l0_out;
          layer1();
          l2_in = l1_out;
          layer2();
          l3_in = l2_out;
          layer3();
          d3_q <= l3_out;
        end
      end
    end else if (F3 == 2) begin : g_from2
      always_ff @(posedge clk_i) begin
        if (en_i && bv2) begin
          l2_in = bnd1;
          layer2();
          l3_in = l2_out;
          layer3();
          d3_q <= l3_out;
        end
      end
    end else begin : g_from3
      always_ff @(posedge clk_i) begin
        if (en_i && bv2) begin
          l3_in = bnd2;
          layer3();
          d3_q <= l3_out;
        end
      end
    end
    tcu_pipe_reg #(.Width(Width), .Depth(D3 - 1)) u_more3 (
      .clk_i, .rst_ni, .en_i, .valid_i(v3_q), .data_i(d3_q), .valid_o(valid_o), .data_o(d_o));
  end
  /* verilator lint_on BLKSEQ */

  // The fine form's hand-offs between its sum and magnitude parts, which
  // the four-layer form does not use.
  if (!Fine) begin : g_fine_unused
    assign {l2l_in, l2h_in, l3i_in} = '0;
    logic unused_fine;
    assign unused_fine = ^{l2s_out, l2l_out, l3h_out};
  end

endmodule
