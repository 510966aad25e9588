// A datapath of one's own, written against the tcu_datapath contract
// (docs/guide/co-verify.md, "Bring your own datapath"): one int4 dot-product unit, used once
// per D element, so an instruction takes one cycle per element of D
// (m16n8k64: 128, m8n8k32: 64) plus one; one instruction at a time. It runs
// the int4 dense family only (.s4/.u4, .satfinite; m16n8k64 and m8n8k32):
// its build declares Int4Enable=1 and every other engine 0, so tcu refuses
// the other families before they reach it.
//
// Deliberately unlike rtl/tcu_datapath.sv: another latency, no pipelining,
// no output skid register (D sits in d_q until the consumer takes it).
// Co-verify it with `tcu run --config byo` (the scoreboard then checks
// results only, at any latency).
//
// Planted bugs, for the proof that the checks fail it (plusargs, given as
// TCU_PLUSARGS="+byo_planted_bug"): +byo_planted_bug takes B's sign from A's
// (.s4.u4 and .u4.s4 compute wrongly); +byo_planted_hold_bug changes out_d_o
// while out_ready_i holds it (a protocol violation, whatever the result).
module byo_int4_serial (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [2:0]    in_family_i,
  input  logic          in_a_signed_i,
  input  logic          in_b_signed_i,
  input  logic          in_satfinite_i,
  input  logic          in_k32_i,
  input  logic [1:0]    in_rnd_i,
  input  logic          in_c_f16_i,
  input  logic          in_d_f16_i,
  input  logic          in_scale_4x_i,
  input  logic [15:0]   in_tag_i,
  input  logic [4095:0] in_a_i,
  input  logic [2047:0] in_b_i,
  input  logic [8191:0] in_c_i,
  input  logic [511:0]  in_meta_i,
  input  logic [511:0]  in_scale_a_i,
  input  logic [255:0]  in_scale_b_i,
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [15:0]   out_tag_o,
  output logic [8191:0] out_d_o
);

  localparam int unsigned K = 64;  // products of one dot (m8n8k32 uses 32)

  typedef enum logic [1:0] {IDLE, BUSY, DONE} state_e;
  state_e        state_q;
  logic [6:0]    elem_q;      // the D element being computed (row * 8 + col)
  logic [6:0]    last_elem_q;
  logic          a_signed_q, b_signed_q, sat_q, k32_q;
  logic [15:0]   tag_q;
  logic [4095:0] a_q;
  logic [2047:0] b_q;
  logic [8191:0] c_q, d_q;
  logic          plant_bug, plant_hold_bug;
  logic          held_q;  // out_valid_o was high and out_ready_i low at the last edge

  initial begin
    plant_bug      = $test$plusargs("byo_planted_bug");
    plant_hold_bug = $test$plusargs("byo_planted_hold_bug");
  end

  // ---- the dot unit: row `row` of A times column `col` of B, plus C ------
  logic [3:0]  row;
  logic [2:0]  col;
  logic signed [31:0] dot;
  logic signed [33:0] exact;
  logic [31:0] d_elem;

  assign row = elem_q[6:3];
  assign col = elem_q[2:0];

  always_comb begin
    logic signed [4:0] a_e, b_e;
    logic signed [9:0] product;
    logic [3:0] a_code, b_code;
    logic b_sign;
    dot = '0;
    b_sign = plant_bug ? a_signed_q : b_signed_q;
    for (int k = 0; k < K; k++) begin
      // A row-major (16x64, or 8x32 for m8n8k32); B column-major, stride 64.
      a_code = k32_q ? a_q[(int'(row) * 32 + (k % 32)) * 4 +: 4] : a_q[(int'(row) * 64 + k) * 4 +: 4];
      b_code = b_q[(int'(col) * 64 + k) * 4 +: 4];
      a_e = a_signed_q ? {a_code[3], a_code} : {1'b0, a_code};
      b_e = b_sign ? {b_code[3], b_code} : {1'b0, b_code};
      product = a_e * b_e;
      if (!k32_q || k < 32) dot += 32'(product);
    end
    exact = 34'(signed'(c_q[int'(elem_q) * 32 +: 32])) + 34'(dot);
    if (sat_q && exact > 34'sh0_7fff_ffff) d_elem = 32'h7fff_ffff;
    else if (sat_q && exact < -34'sh0_8000_0000) d_elem = 32'h8000_0000;
    else d_elem = exact[31:0];
  end

  // ---- one instruction at a time -----------------------------------------
  assign in_ready_o  = state_q == IDLE;
  assign out_valid_o = state_q == DONE;
  assign out_tag_o   = tag_q;
  assign out_d_o     = plant_hold_bug && held_q ? d_q ^ 8192'(1) : d_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= IDLE;
      held_q  <= 1'b0;
    end else begin
      held_q <= out_valid_o && !out_ready_i;
      unique case (state_q)
        IDLE: if (in_valid_i) state_q <= BUSY;
        BUSY: if (elem_q == last_elem_q) state_q <= DONE;
        DONE: if (out_ready_i) state_q <= IDLE;
        default: state_q <= IDLE;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == IDLE && in_valid_i) begin
      a_signed_q  <= in_a_signed_i;
      b_signed_q  <= in_b_signed_i;
      sat_q       <= in_satfinite_i;
      k32_q       <= in_k32_i;
      tag_q       <= in_tag_i;
      a_q         <= in_a_i;
      b_q         <= in_b_i;
      c_q         <= in_c_i;
      d_q         <= '0;  // the bits above D stay zero
      elem_q      <= '0;
      last_elem_q <= in_k32_i ? 7'd63 : 7'd127;
    end else if (state_q == BUSY) begin
      d_q[int'(elem_q) * 32 +: 32] <= d_elem;
      elem_q <= elem_q + 7'd1;
    end
  end

  // Ports of the contract this datapath does not use.
  logic unused;
  assign unused = ^{in_family_i, in_rnd_i, in_c_f16_i, in_d_f16_i, in_scale_4x_i, in_meta_i,
                    in_scale_a_i, in_scale_b_i};

endmodule
