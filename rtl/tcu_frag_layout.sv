// The PTX fragment layouts in RTL: where one 32-bit register word of a
// warp's mma operand lands on the datapath's matrix-order ports
// (docs/architecture.md, "Datapath interface"; "Operand routing network").
// Combinational: tcu_pkg::frag_place, whose formulas are the PTX ISA's
// (sections named there), written from lane and register to port position,
// and checked against the golden model's layouts (model/src/layout.cpp) by
// tests/rtl/test_operand_router.cpp; nothing here is generated from them.
//
// A word is tagged with its operand (op_i, the order of tcu::Operand), its
// lane and its register index reg_i within that lane's fragment, counted in
// 32-bit words (an f64 register r is words 2r, low half, and 2r+1). Its two
// 16-bit halves land at half-word positions lo_pos_o and hi_pos_o of the
// operand's port (16-bit units: hi = lo + 1 except f16 A .col and B .row,
// whose two f16 go to different rows of A / columns of B, hi = lo + 4);
// word_o is the word as it lands ({hi half, lo half}): word_i itself except
// for the scales, which are shifted by their byte selector and masked to
// their blocks. hit_o is low for a word that holds no element: a register
// index past the fragment, an operand the family does not have, metadata
// and scale lanes that the selectors skip.
//
// OP_D is laid out as C with acc_f16_i the D type (the write-back side);
// acc_f16_i is C's type for OP_C. Family codes outside tcu_pkg::family_e
// are treated as FAM_INT4, as tcu_datapath does.
module tcu_frag_layout (
  input  logic [tcu_pkg::FAMILY_BITS-1:0]            family_i,    // tcu_pkg::family_e
  input  logic                                       k32_i,       // int4 dense: m8n8k32
  input  logic                                       a_row_i,     // f16: A is .row (else .col)
  input  logic                                       b_row_i,     // f16: B is .row (else .col)
  input  logic                                       acc_f16_i,   // f16: C (OP_C) or D (OP_D) is .f16
  input  logic                                       scale_4x_i,  // e2m1: .scale_vec::4X (4 blocks, else 2)
  input  logic                                       sparsity_i,  // mma.sp sparsity selector
  input  logic [tcu_pkg::SCALE_BYTE_ID_BITS-1:0]     byte_id_a_i, // e2m1 scale selectors
  input  logic                                       thread_id_a_i,
  input  logic [tcu_pkg::SCALE_BYTE_ID_BITS-1:0]     byte_id_b_i,
  input  logic [tcu_pkg::SCALE_THREAD_ID_B_BITS-1:0] thread_id_b_i,
  input  logic [tcu_pkg::OPERAND_BITS-1:0]           op_i,        // OP_* below
  input  logic [tcu_pkg::LANE_BITS-1:0]              lane_i,
  input  logic [tcu_pkg::REG_BITS-1:0]               reg_i,
  input  logic [tcu_pkg::WORD_BITS-1:0]              word_i,
  output logic                                       hit_o,
  output logic [tcu_pkg::FRAG_POS_W-1:0]             lo_pos_o,
  output logic [tcu_pkg::FRAG_POS_W-1:0]             hi_pos_o,
  output logic                                       split_o,     // hi_pos_o = lo_pos_o + 4 (else + 1)
  output logic [tcu_pkg::WORD_BITS-1:0]              word_o
);

  assign {hit_o, lo_pos_o, hi_pos_o, split_o, word_o} = tcu_pkg::frag_place(
      {family_i, k32_i, a_row_i, b_row_i, acc_f16_i, scale_4x_i, sparsity_i, byte_id_a_i,
       thread_id_a_i, byte_id_b_i, thread_id_b_i},
      op_i, lane_i, reg_i, word_i);

endmodule
