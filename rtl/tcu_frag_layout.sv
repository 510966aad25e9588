// The PTX fragment layouts in RTL: where one 32-bit register word of a
// warp's mma operand lands on the datapath's matrix-order ports
// (docs/ARCHITECTURE.md, "Datapath interface"; "Operand routing network").
// Combinational. The formulas are the PTX ISA's (sections named below),
// written from lane and register to port position, and checked against the
// golden model's layouts (model/src/layout.cpp) by
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
  input  logic [2:0]  family_i,       // tcu_pkg::family_e
  input  logic        k32_i,          // int4 dense: m8n8k32
  input  logic        a_row_i,        // f16: A is .row (else .col)
  input  logic        b_row_i,        // f16: B is .row (else .col)
  input  logic        acc_f16_i,      // f16: C (OP_C) or D (OP_D) is .f16
  input  logic        scale_4x_i,     // e2m1: .scale_vec::4X (4 blocks, else 2)
  input  logic        sparsity_i,     // mma.sp sparsity selector
  input  logic [1:0]  byte_id_a_i,    // e2m1 scale selectors
  input  logic        thread_id_a_i,
  input  logic [1:0]  byte_id_b_i,
  input  logic [1:0]  thread_id_b_i,
  input  logic [2:0]  op_i,           // OP_* below
  input  logic [4:0]  lane_i,
  input  logic [2:0]  reg_i,
  input  logic [31:0] word_i,
  output logic        hit_o,
  output logic [8:0]  lo_pos_o,
  output logic [8:0]  hi_pos_o,
  output logic        split_o,        // hi_pos_o = lo_pos_o + 4 (else + 1)
  output logic [31:0] word_o
);

  // Operand codes: the order of tcu::Operand (model/include/tcu/layout.h).
  localparam logic [2:0] OP_A       = 3'd0;
  localparam logic [2:0] OP_B       = 3'd1;
  localparam logic [2:0] OP_C       = 3'd2;
  localparam logic [2:0] OP_D       = 3'd3;
  localparam logic [2:0] OP_META    = 3'd4;
  localparam logic [2:0] OP_SCALE_A = 3'd5;
  localparam logic [2:0] OP_SCALE_B = 3'd6;

  // The lane's coordinates in the PTX formulas: groupID, threadID_in_group;
  // for m8n8k4 .f16 the quad pair (the batch) and the high half-warp.
  logic [2:0] g;
  logic [1:0] t, q;
  logic       hg;
  assign g  = lane_i[4:2];
  assign t  = lane_i[1:0];
  assign q  = lane_i[3:2];
  assign hg = lane_i[4];

  // Families, with codes outside family_e as FAM_INT4.
  logic fam_sparse, fam_f16, fam_f64, fam_e2m1, fam_k32;
  always_comb begin
    fam_sparse = 1'b0;
    fam_f16    = 1'b0;
    fam_f64    = 1'b0;
    fam_e2m1   = 1'b0;
    fam_k32    = 1'b0;
    unique case (family_i)
      tcu_pkg::FAM_INT4_SPARSE: fam_sparse = 1'b1;
      tcu_pkg::FAM_F16:         fam_f16    = 1'b1;
      tcu_pkg::FAM_F64:         fam_f64    = 1'b1;
      tcu_pkg::FAM_E2M1:        fam_e2m1   = 1'b1;
      default:                  fam_k32    = k32_i;  // FAM_INT4
    endcase
  end

  // Scales: the register shifted down by the byte selector, masked to the
  // instruction's blocks (2X: two bytes, 4X: four). A four-way choice
  // rather than a shifter (Yosys's share pass stalls on many shifters).
  logic [31:0] blocks_mask, scale_word;
  logic [1:0]  scale_byte_id;
  logic [31:0] scale_shifted;
  assign blocks_mask   = scale_4x_i ? 32'hffff_ffff : 32'h0000_ffff;
  assign scale_byte_id = op_i == OP_SCALE_A ? byte_id_a_i : byte_id_b_i;
  always_comb begin
    unique case (scale_byte_id)
      2'd0:    scale_shifted = word_i;
      2'd1:    scale_shifted = {8'h00, word_i[31:8]};
      2'd2:    scale_shifted = {16'h0000, word_i[31:16]};
      default: scale_shifted = {24'h00_0000, word_i[31:24]};
    endcase
  end
  assign scale_word    = scale_shifted & blocks_mask;

  // Positions in 32-bit words (aligned cases) or 16-bit halves (f16 halves).
  logic [7:0] word_pos;   // 32-bit word index on the port
  logic [7:0] half_pos;   // f16: half-word index of the low half
  logic       halves;     // place by half_pos (else word_pos)
  logic       split;      // f16: hi half = lo + 4 (else lo + 1)
  logic [3:0] regs;       // 32-bit words per lane of this operand

  always_comb begin
    word_pos = '0;
    half_pos = '0;
    halves   = 1'b0;
    split    = 1'b0;
    regs     = '0;
    word_o   = word_i;
    unique case (op_i)
      // --- A ------------------------------------------------------------------
      // m16n8k64 (9.7.14.5.11): a_i, i = 8*reg + elem, row g + 8*(reg odd),
      // column 8t + elem + 32*(reg >= 2): row r, word 8r + 4*reg[1] + t.
      // m8n8k32 (9.7.14.5.4): row g, columns 8t..8t+7. sparse m16n8k64
      // (9.7.14.6.2.7, compressed 16x32 A): row g + 8*reg, columns 8t...
      // m8n8k4 .f16 (9.7.14.5.1), batch q (16-bit units, (q*8+row)*4+col):
      // .row: row t + 4hg, columns 2reg, 2reg+1; .col: rows 2reg + 4hg and
      // the next, column t. m8n8k4 .f64 (9.7.14.5.2): element (g, t).
      OP_A: begin
        if (fam_f16) begin
          regs   = 4'd2;
          halves = 1'b1;
          split  = !a_row_i;
          half_pos = a_row_i ? {1'b0, q, hg, t, reg_i[0], 1'b0}
                             : {1'b0, q, hg, reg_i[0], 1'b0, t};
        end else if (fam_f64) begin
          regs     = 4'd2;
          word_pos = {2'b00, g, t, reg_i[0]};
        end else if (fam_sparse) begin
          regs     = 4'd2;
          word_pos = {2'b00, reg_i[0], g, t};
        end else if (fam_k32) begin
          regs     = 4'd1;
          word_pos = {3'b000, g, t};
        end else begin
          regs     = 4'd4;
          word_pos = {1'b0, reg_i[0], g, reg_i[1], t};
        end
      end
      // --- B (column-major) -------------------------------------------------
      // m16n8k64 (dense, sparse, e2m1): b_i, k = 8t + elem + 32*reg, column
      // g; a column is 64 codes: word 8g + 4reg + t. m8n8k32: k = 8t + elem,
      // the first 32 codes of column g. m8n8k4 .f16, column stride 4
      // (16-bit units, (q*8+col)*4+k): .row: k = t, columns 2reg + 4hg and
      // the next; .col: k = 2reg, 2reg+1, column t + 4hg. .f64: (k t, col g).
      OP_B: begin
        if (fam_f16) begin
          regs   = 4'd2;
          halves = 1'b1;
          split  = b_row_i;
          half_pos = b_row_i ? {1'b0, q, hg, reg_i[0], 1'b0, t}
                             : {1'b0, q, hg, t, reg_i[0], 1'b0};
        end else if (fam_f64) begin
          regs     = 4'd2;
          word_pos = {2'b00, g, t, reg_i[0]};
        end else if (fam_k32) begin
          regs     = 4'd1;
          word_pos = {2'b00, g, 1'b0, t};
        end else begin
          regs     = 4'd2;
          word_pos = {2'b00, g, reg_i[0], t};
        end
      end
      // --- C and D ------------------------------------------------------------
      // m16n8 (k64 families): c_i, row g + 8*(i >= 2), column 2t + i%2.
      // m8n8 (m8n8k32; m8n8k4 .f64 with 64-bit elements, two words each):
      // row g, column 2t + reg. m8n8k4 .f16 accumulators, batch q: .f16:
      // row t + 4hg, columns 2reg, 2reg+1 (16-bit units, (q*8+row)*8+col);
      // .f32: row (lane&1) + (reg&2) + 4hg, column (reg&4) + (lane&2) + reg%2.
      OP_C, OP_D: begin
        if (fam_f16) begin
          if (acc_f16_i) begin
            regs     = 4'd4;
            word_pos = {1'b0, q, hg, t, reg_i[1:0]};
          end else begin
            regs     = 4'd8;
            word_pos = {q, hg, reg_i[1], lane_i[0], reg_i[2], lane_i[1], reg_i[0]};
          end
        end else if (fam_f64) begin
          regs     = 4'd4;
          word_pos = {1'b0, g, t, reg_i[1:0]};
        end else if (fam_k32) begin
          regs     = 4'd2;
          word_pos = {2'b00, g, t, reg_i[0]};
        end else begin
          regs     = 4'd4;
          word_pos = {1'b0, reg_i[1], g, t, reg_i[0]};
        end
      end
      // --- sparse metadata (9.7.14.6.2.7) ------------------------------------
      // Lane 4g + 2*sparsity + h holds row g + 8h; nibble c is chunk c: row r
      // is word r of the port.
      OP_META: begin
        if (fam_sparse && t[1] == sparsity_i) begin
          regs     = 4'd1;
          word_pos = {4'b0000, t[0], g};
        end
      end
      // --- block scales (e2m1) ------------------------------------------------
      // scale_a: row m in lane 4*(m%8) + 2*thread_id_a + m/8, block j in byte
      // byte_id_a + j; rows of four bytes. scale_b: column n in lane
      // 4n + thread_id_b, block j in byte byte_id_b + j; columns of four.
      OP_SCALE_A: begin
        if (fam_e2m1 && t[1] == thread_id_a_i) begin
          regs     = 4'd1;
          word_pos = {4'b0000, t[0], g};
          word_o   = scale_word;
        end
      end
      OP_SCALE_B: begin
        if (fam_e2m1 && t == thread_id_b_i) begin
          regs     = 4'd1;
          word_pos = {5'b00000, g};
          word_o   = scale_word;
        end
      end
      default: ;
    endcase
  end

  assign hit_o    = {1'b0, reg_i} < regs;
  assign split_o  = split;
  assign lo_pos_o = halves ? {1'b0, half_pos} : {word_pos, 1'b0};
  assign hi_pos_o = halves ? {1'b0, half_pos + (split ? 8'd4 : 8'd1)} : {word_pos, 1'b1};

endmodule
