// One D element of m8n8k4 .f16, in the order sm_90's fp32 emulation uses
// (golden f16_dot_f32 / f16_dot_f16; tests/data/VECTORS.md). Every f16 input,
// C included, is widened exactly to f32; every step is an f32 fused
// multiply-add rounded to nearest even, subnormals kept, with canonical NaNs
// (tcu_fma, FP32, CanonicalNan = 1).
//
//   f32 D (d_f16_i = 0):  acc = fma(a0,b0,+0); acc = fma(ak,bk,acc), k = 1..3;
//                         d = c + acc                     (= fma(c, 1, acc))
//   f16 D (d_f16_i = 1):  p01 = fma(a1,b1, a0*b0); p23 = fma(a3,b3, a2*b2);
//                         s = (c + p01) + p23; d = s rounded to f16 (RNE,
//                         subnormals kept, overflow to Inf, NaN to 0x7fff)
// An exact product a*b is fma(a, b, -0), which keeps the sign of a zero
// product.
//
// Both orders run on one chain of five FMA levels plus one FMA beside the
// first level:
//   level   f32 D                 f16 D
//   1  U1   fma(a0, b0, +0)       fma(a0, b0, -0)      = a0*b0
//      X1   -                     fma(a2, b2, -0)      = a2*b2
//   2  U2   fma(a1, b1, U1)       fma(a1, b1, U1)      = p01
//   3  U3   fma(a2, b2, U2)       fma(a3, b3, X1)      = p23
//   4  U4   fma(a3, b3, U3)       fma(c, 1, p01)       = c + p01
//   5  U5   fma(c, 1, U4)         fma(U4, 1, p23)      = s
// so both D types take exactly 5 * FmaStages cycles (unit_latency(kF16) in
// model/src/timing.cpp). Operands that later levels need ride along in each
// FMA's aux bits.
//
// Operands are flat: a_k = a_i[k*16 +: 16], b_k likewise. C is an f16 code in
// c_i[15:0] when c_f16_i, else f32. An f16 D takes an f16 C (.f16 D with .f32
// C is not a legal m8n8k4 form). An f16 D is returned in d_o[15:0], upper
// bits zero. en_i low holds every register.
//
// tcu_f16_dot's synthesis implementation (SynthImpl = 1): what Yosys maps.
// The data inputs are public_flat_rd and the unit uses no functions, so all
// instances share one copy of the Verilated code (see tcu_fma).
module tcu_f16_dot_synth #(
  parameter int unsigned  FmaStages = tcu_pkg::FmaStages,
  localparam int unsigned DotK      = 4,  // k of m8n8k4
  localparam int unsigned HalfWidth = tcu_pkg::fp_width(tcu_pkg::FP16),
  localparam int unsigned Width     = tcu_pkg::fp_width(tcu_pkg::FP32)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      en_i,
  input  logic                      valid_i /* verilator public_flat_rd */,
  input  logic [DotK*HalfWidth-1:0] a_i /* verilator public_flat_rd */,
  input  logic [DotK*HalfWidth-1:0] b_i /* verilator public_flat_rd */,
  input  logic [Width-1:0]          c_i /* verilator public_flat_rd */,
  input  logic                      c_f16_i /* verilator public_flat_rd */,
  input  logic                      d_f16_i /* verilator public_flat_rd */,
  output logic                      valid_o,
  output logic [Width-1:0]          d_o
);

  // The waveform shows the ports (what tcu_tools.phys.workload reads) and no
  // internal signal: the units' internals were most of a trace, and of
  // the Verilated code to compile.
  /* verilator tracing_off */

  localparam int unsigned HExp  = tcu_pkg::exp_bits(tcu_pkg::FP16);
  localparam int unsigned HMan  = tcu_pkg::man_bits(tcu_pkg::FP16);
  localparam int unsigned HBias = tcu_pkg::bias(tcu_pkg::FP16);
  localparam int unsigned SExp  = tcu_pkg::exp_bits(tcu_pkg::FP32);
  localparam int unsigned SMan  = tcu_pkg::man_bits(tcu_pkg::FP32);
  localparam int unsigned SBias = tcu_pkg::bias(tcu_pkg::FP32);
  localparam int unsigned HLzW  = $clog2(HMan + 1);
  // f32 -> f16: bits of the f32 significand dropped for a normal f16, and
  // the most ever dropped (below that, nothing is left, not even a guard).
  localparam int unsigned DropNorm = SMan - HMan;
  localparam int unsigned DropMax  = SMan + 3;
  localparam int unsigned DropW    = $clog2(DropMax + 1);
  // Smallest f32 biased exponent whose values are normal in f16.
  localparam int unsigned MinNormExp = SBias - HBias + 1;
  localparam int unsigned ExtW     = 2 * SMan + 4 - DropNorm;
  // Narrowed code before the overflow check: room for any f32 exponent.
  localparam int unsigned CodeW = SExp + HMan + 1;

  // Depth (FO4) of the f16 -> f32 widening in front of an FMA level (a
  // 10-bit leading-zero count, a shift and an 8-bit subtract; an estimate
  // from the library's adder and shifter depths, docs/guide/physical.md):
  // tcu_fma's register rule takes it as a step of its own, in front of the
  // level's first, and at deep settings puts a register between them (at
  // the FMA's inputs).
  localparam int unsigned WidenFo4 = 20;

  localparam logic [Width-1:0] POS_ZERO = '0;
  localparam logic [Width-1:0] NEG_ZERO = {1'b1, {(Width - 1){1'b0}}};
  localparam logic [Width-1:0] ONE      = {1'b0, SExp'(SBias), {SMan{1'b0}}};
  localparam logic [CodeW-1:0] HALF_INF_CODE = CodeW'({{HExp{1'b1}}, {HMan{1'b0}}});

  // Exact f16 -> f32 conversions (golden f16_to_f32), one per use, in
  // generate blocks rather than a function (a function's inlined temporaries
  // would give every instance its own copy of the simulation code):
  // widen_out[w] = f32(widen_in[w]).
  localparam int unsigned W_C = 0, W_A0 = 1, W_B0 = 2, W_A2 = 3, W_B2 = 4, W_L2A = 5,
                          W_L2B = 6, W_L3A = 7, W_L3B = 8, W_L4A = 9, W_L4B = 10;
  localparam int unsigned NumWiden = 11;
  // (split_var: the simulator keeps each use's slice a signal of its own,
  // else a level's input would seem to depend on the level after it.)
  logic [NumWiden*HalfWidth-1:0] widen_in  /* verilator split_var */;
  logic [NumWiden*Width-1:0]     widen_out /* verilator split_var */;

  for (genvar w = 0; w < NumWiden; w++) begin : g_widen
    logic            sign;
    logic [HExp-1:0] exp;
    logic [HMan-1:0] man;
    logic [15:0]     probe;
    logic [HLzW-1:0] lz;
    assign {sign, exp, man} = widen_in[w*HalfWidth +: HalfWidth];
    // Leading zeros of a subnormal's fraction, a four-step binary search
    // (ones below it, so a zero fraction counts HMan).
    always_comb begin
      probe = {man, {(16 - HMan){1'b1}}};
      lz[3] = probe[15:8] == '0;
      probe = lz[3] ? probe << 8 : probe;
      lz[2] = probe[15:12] == '0;
      probe = lz[2] ? probe << 4 : probe;
      lz[1] = probe[15:14] == '0;
      probe = lz[1] ? probe << 2 : probe;
      lz[0] = !probe[15];
    end
    always_comb begin
      if (&exp) begin
        widen_out[w*Width +: Width] = {sign, {SExp{1'b1}}, man, {(SMan - HMan){1'b0}}};
      end else if (exp != '0) begin
        widen_out[w*Width +: Width] = {sign, SExp'(exp) + SExp'(SBias - HBias), man,
                                       {(SMan - HMan){1'b0}}};
      end else if (man == '0) begin
        widen_out[w*Width +: Width] = {sign, {(Width - 1){1'b0}}};
      end else begin
        // Subnormal: normalise, the leading one becomes the hidden bit.
        widen_out[w*Width +: Width] = {sign, SExp'(SBias - HBias) - SExp'(lz),
                                       man << (lz + 1'b1), {(SMan - HMan){1'b0}}};
      end
    end
  end

  logic [Width-1:0] c32;
  assign widen_in[W_C*HalfWidth +: HalfWidth] = c_i[HalfWidth-1:0];
  assign c32 = c_f16_i ? widen_out[W_C*Width +: Width] : c_i;

  // ---- level 1: U1 = a0*b0 (+-0), X1 = a2*b2 (f16 D only) ------------------
  assign widen_in[W_A0*HalfWidth +: HalfWidth] = a_i[0 +: HalfWidth];
  assign widen_in[W_B0*HalfWidth +: HalfWidth] = b_i[0 +: HalfWidth];
  assign widen_in[W_A2*HalfWidth +: HalfWidth] = a_i[2*HalfWidth +: HalfWidth];
  assign widen_in[W_B2*HalfWidth +: HalfWidth] = b_i[2*HalfWidth +: HalfWidth];
  localparam int unsigned Aux1W = 1 + Width + 6 * HalfWidth;
  logic             u1_valid;
  logic [Width-1:0] u1_result, x1_result;
  logic [Aux1W-1:0] aux1;
  logic             unused_x1_valid, unused_x1_aux;

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (FmaStages),
    .CanonicalNan(1'b1),
    .InFo4       (WidenFo4),
    .AuxWidth    (Aux1W)
  ) u_fma_u1 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (valid_i),
    .a_i     (widen_out[W_A0*Width +: Width]),
    .b_i     (widen_out[W_B0*Width +: Width]),
    .c_i     (d_f16_i ? NEG_ZERO : POS_ZERO),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   ({d_f16_i, c32, a_i[DotK*HalfWidth-1:HalfWidth], b_i[DotK*HalfWidth-1:HalfWidth]}),
    .valid_o (u1_valid),
    .result_o(u1_result),
    .aux_o   (aux1)
  );

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (FmaStages),
    .CanonicalNan(1'b1),
    .InFo4       (WidenFo4),
    .AuxWidth    (1)
  ) u_fma_x1 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (valid_i && d_f16_i),
    .a_i     (widen_out[W_A2*Width +: Width]),
    .b_i     (widen_out[W_B2*Width +: Width]),
    .c_i     (NEG_ZERO),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   (1'b0),
    .valid_o (unused_x1_valid),
    .result_o(x1_result),
    .aux_o   (unused_x1_aux)
  );

  // ---- level 2: U2 = fma(a1, b1, U1) ----------------------------------------
  logic                 l2_d16;
  logic [Width-1:0]     l2_c;
  logic [HalfWidth-1:0] l2_a1, l2_a2, l2_a3, l2_b1, l2_b2, l2_b3;
  assign {l2_d16, l2_c, l2_a3, l2_a2, l2_a1, l2_b3, l2_b2, l2_b1} = aux1;
  assign widen_in[W_L2A*HalfWidth +: HalfWidth] = l2_a1;
  assign widen_in[W_L2B*HalfWidth +: HalfWidth] = l2_b1;

  localparam int unsigned Aux2W = 1 + Width + 4 * HalfWidth + Width;
  logic             u2_valid;
  logic [Width-1:0] u2_result;
  logic [Aux2W-1:0] aux2;

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (FmaStages),
    .CanonicalNan(1'b1),
    .InFo4       (WidenFo4),
    .AuxWidth    (Aux2W)
  ) u_fma_u2 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (u1_valid),
    .a_i     (widen_out[W_L2A*Width +: Width]),
    .b_i     (widen_out[W_L2B*Width +: Width]),
    .c_i     (u1_result),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   ({l2_d16, l2_c, l2_a2, l2_a3, l2_b2, l2_b3, x1_result}),
    .valid_o (u2_valid),
    .result_o(u2_result),
    .aux_o   (aux2)
  );

  // ---- level 3: f32 fma(a2, b2, U2); f16 p23 = fma(a3, b3, X1) -------------
  logic                 l3_d16;
  logic [Width-1:0]     l3_c, l3_q2;
  logic [HalfWidth-1:0] l3_a2, l3_a3, l3_b2, l3_b3;
  assign {l3_d16, l3_c, l3_a2, l3_a3, l3_b2, l3_b3, l3_q2} = aux2;
  assign widen_in[W_L3A*HalfWidth +: HalfWidth] = l3_d16 ? l3_a3 : l3_a2;
  assign widen_in[W_L3B*HalfWidth +: HalfWidth] = l3_d16 ? l3_b3 : l3_b2;

  localparam int unsigned Aux3W = 1 + Width + 2 * HalfWidth + Width;
  logic             u3_valid;
  logic [Width-1:0] u3_result;
  logic [Aux3W-1:0] aux3;

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (FmaStages),
    .CanonicalNan(1'b1),
    .InFo4       (WidenFo4),
    .AuxWidth    (Aux3W)
  ) u_fma_u3 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (u2_valid),
    .a_i     (widen_out[W_L3A*Width +: Width]),
    .b_i     (widen_out[W_L3B*Width +: Width]),
    .c_i     (l3_d16 ? l3_q2 : u2_result),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   ({l3_d16, l3_c, l3_a3, l3_b3, u2_result}),  // U2 is p01 for f16 D
    .valid_o (u3_valid),
    .result_o(u3_result),
    .aux_o   (aux3)
  );

  // ---- level 4: f32 fma(a3, b3, U3); f16 fma(c, 1, p01) ---------------------
  logic                 l4_d16;
  logic [Width-1:0]     l4_c, l4_p01;
  logic [HalfWidth-1:0] l4_a3, l4_b3;
  assign {l4_d16, l4_c, l4_a3, l4_b3, l4_p01} = aux3;
  assign widen_in[W_L4A*HalfWidth +: HalfWidth] = l4_a3;
  assign widen_in[W_L4B*HalfWidth +: HalfWidth] = l4_b3;

  localparam int unsigned Aux4W = 1 + Width + Width;
  logic             u4_valid;
  logic [Width-1:0] u4_result;
  logic [Aux4W-1:0] aux4;

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (FmaStages),
    .CanonicalNan(1'b1),
    .InFo4       (WidenFo4),
    .AuxWidth    (Aux4W)
  ) u_fma_u4 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (u3_valid),
    .a_i     (l4_d16 ? l4_c : widen_out[W_L4A*Width +: Width]),
    .b_i     (l4_d16 ? ONE : widen_out[W_L4B*Width +: Width]),
    .c_i     (l4_d16 ? l4_p01 : u3_result),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   ({l4_d16, l4_c, u3_result}),  // U3 is p23 for f16 D
    .valid_o (u4_valid),
    .result_o(u4_result),
    .aux_o   (aux4)
  );

  // ---- level 5: f32 fma(c, 1, U4); f16 fma(U4, 1, p23) ----------------------
  logic             l5_d16;
  logic [Width-1:0] l5_c, l5_p23;
  assign {l5_d16, l5_c, l5_p23} = aux4;

  logic             d16;
  logic [Width-1:0] u5_result;

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (FmaStages),
    .CanonicalNan(1'b1),
    .AuxWidth    (1)
  ) u_fma_u5 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (u4_valid),
    .a_i     (l5_d16 ? u4_result : l5_c),
    .b_i     (ONE),
    .c_i     (l5_d16 ? l5_p23 : u4_result),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   (l5_d16),
    .valid_o (valid_o),
    .result_o(u5_result),
    .aux_o   (d16)
  );

  // f32 -> f16, round to nearest even, subnormals kept, overflow to Inf, NaN
  // to the canonical NaN (golden f32_to_f16_rn, plus its NaN rule).
  logic [HalfWidth-1:0] d_half;
  always_comb begin : p_narrow
    logic             sign, is_norm, guard, sticky;
    logic [SExp-1:0]  exp, exp1;
    logic [SMan-1:0]  man;
    logic [DropW-1:0] drop;
    logic [ExtW-1:0]  ext;
    logic [HMan:0]    kept;
    logic [CodeW-1:0] code;
    {sign, exp, man} = u5_result;
    exp1    = (exp == '0) ? SExp'(1) : exp;
    is_norm = exp1 >= SExp'(MinNormExp);
    if (is_norm) begin
      drop = DropW'(DropNorm);
    end else if (exp1 <= SExp'(MinNormExp + DropNorm - DropMax)) begin
      drop = DropW'(DropMax);
    end else begin
      drop = DropW'(SExp'(MinNormExp + DropNorm) - exp1);
    end
    // drop >= DropNorm: the top DropNorm bits of the shift are always zero.
    ext    = ExtW'({exp != '0, man, {(SMan + 3){1'b0}}} >> drop);
    kept   = ext[ExtW-1 -: HMan+1];
    guard  = ext[SMan+2];
    sticky = |ext[SMan+1:0];
    code   = (is_norm ? CodeW'({exp1 - SExp'(MinNormExp), {HMan{1'b0}}}) : '0) + CodeW'(kept) +
             CodeW'(guard && (sticky || kept[0]));
    if (&exp) begin
      d_half = (man != '0) ? tcu_pkg::F16_CANONICAL_NAN : {sign, {HExp{1'b1}}, {HMan{1'b0}}};
    end else if (code >= HALF_INF_CODE) begin
      d_half = {sign, {HExp{1'b1}}, {HMan{1'b0}}};
    end else begin
      d_half = {sign, code[HalfWidth-2:0]};
    end
  end

  assign d_o = d16 ? {{(Width - HalfWidth){1'b0}}, d_half} : u5_result;

endmodule
