// tcu_f16_fast_chain's operands: Count elements, each widened exactly to
// f32 where it is an f16 (golden f16_to_f32, in tcu_f16_dot_synth's
// expressions) and classified as tcu_fma's first step classifies an FMA
// operand, into an operand record of OpW bits:
//   [23:0]  the significand, the hidden bit included (exp != 0);
//   [31:24] the exponent field, 1 for a zero or subnormal (tcu_fma's ea);
//   [32]    the sign; [33] zero; [34] infinity; [35] NaN; [63:36] zero.
// Element e is the f16 word_i[e*16 +: 16] where InW is 16 or f16_i is high,
// else the f32 word_i[e*32 +: 32] (the f16 engine's C layouts).
//
// Registered = 0: combinational (tcu_f16_dot_fast's own operands). 1: the
// records are registers loaded where load_i is high (the f16 engine's A, B
// and C, classified once an instruction: every A row and B column feeds a
// row or column of dots), one process per element, so that the Verilated
// model writes each record in place under one test of load_i.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_f16_fast_operands #(
  parameter int unsigned  Count      = 1,
  parameter int unsigned  InW        = 16,  // 16: f16 elements; 32: f32, or f16 (f16_i)
  parameter bit           Registered = 1'b0,
  localparam int unsigned OpW        = 64
) (
  input  logic                 clk_i,
  input  logic                 load_i,
  input  logic                 f16_i,
  input  logic [Count*InW-1:0] word_i,
  output logic [Count*OpW-1:0] op_o
);

  localparam int unsigned HalfWidth = tcu_pkg::fp_width(tcu_pkg::FP16);
  localparam int unsigned Width     = tcu_pkg::fp_width(tcu_pkg::FP32);
  localparam int unsigned HExp      = tcu_pkg::exp_bits(tcu_pkg::FP16);
  localparam int unsigned HMan      = tcu_pkg::man_bits(tcu_pkg::FP16);
  localparam int unsigned HBias     = tcu_pkg::bias(tcu_pkg::FP16);
  localparam int unsigned SExp      = tcu_pkg::exp_bits(tcu_pkg::FP32);
  localparam int unsigned SMan      = tcu_pkg::man_bits(tcu_pkg::FP32);
  localparam int unsigned SBias     = tcu_pkg::bias(tcu_pkg::FP32);
  localparam int unsigned HLzW      = $clog2(HMan + 1);

  // Element e's record from its word (InW bits at e * InW, its f16 the low
  // half of it or the whole word); a function, so that a registered record
  // is computed inside its register's enable, only where load_i is high.
  // (Assignments to the function name rather than return: Yosys 0.23.)
  function automatic logic [OpW-1:0] operand(logic [InW-1:0] word, logic [HalfWidth-1:0] half,
                                             logic is_f16);
    logic [Width-1:0] f;
    logic             h_sign;
    logic [HExp-1:0]  h_exp;
    logic [HMan-1:0]  h_man;
    logic [15:0]      probe;
    logic [HLzW-1:0]  lz;
    logic             sign;
    logic [SExp-1:0]  exp;
    logic [SMan-1:0]  man;
    {h_sign, h_exp, h_man} = half;
    {probe, lz} = '0;
    if (is_f16) begin
      if (&h_exp) begin
        f = {h_sign, {SExp{1'b1}}, h_man, {(SMan - HMan){1'b0}}};
      end else if (h_exp != '0) begin
        f = {h_sign, SExp'(h_exp) + SExp'(SBias - HBias), h_man, {(SMan - HMan){1'b0}}};
      end else if (h_man == '0) begin
        f = {h_sign, {(Width - 1){1'b0}}};
      end else begin
        // A subnormal: the leading zeros of its fraction (the synthesis
        // form's search), only here.
        probe = {h_man, {(16 - HMan){1'b1}}};
        lz[3] = probe[15:8] == '0;
        probe = lz[3] ? probe << 8 : probe;
        lz[2] = probe[15:12] == '0;
        probe = lz[2] ? probe << 4 : probe;
        lz[1] = probe[15:14] == '0;
        probe = lz[1] ? probe << 2 : probe;
        lz[0] = !probe[15];
        f = {h_sign, SExp'(SBias - HBias) - SExp'(lz), h_man << (lz + 1'b1),
             {(SMan - HMan){1'b0}}};
      end
    end else begin
      f = Width'(word);
    end
    // tcu_fma's classification of an operand.
    {sign, exp, man} = f;
    operand = {{(OpW - 36){1'b0}}, (&exp) && (man != '0), (&exp) && (man == '0),
               (exp == '0) && (man == '0), sign, (exp == '0) ? SExp'(1) : exp, exp != '0, man};
  endfunction

  for (genvar e = 0; e < Count; e++) begin : g_op
    if (Registered) begin : g_reg
      always_ff @(posedge clk_i) begin
        if (load_i) begin
          op_o[e*OpW +: OpW] <= operand(word_i[e*InW +: InW], word_i[e*HalfWidth +: HalfWidth],
                                        InW == HalfWidth || f16_i);
        end
      end
    end else begin : g_comb
      assign op_o[e*OpW +: OpW] = operand(word_i[e*InW +: InW],
                                          word_i[e*HalfWidth +: HalfWidth],
                                          InW == HalfWidth || f16_i);
    end
  end

  if (!Registered) begin : g_no_reg
    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, load_i};
  end

endmodule
