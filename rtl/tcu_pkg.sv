// Shared types of the tensor-core datapath. Number formats are described
// once, as data (the FP_* format table), and every unit derives its widths
// from it.
package tcu_pkg;

  // ---------------------------------------------------------------------------
  // Number formats
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {
    FP32  = 3'd0,
    FP64  = 3'd1,
    FP16  = 3'd2,
    E2M1  = 3'd3,
    UE8M0 = 3'd4,
    UE4M3 = 3'd5
  } fp_format_e;

  localparam int unsigned NUM_FP_FORMATS = 6;

  // The format table, indexed by fp_format_e: one packed vector per field,
  // with one entry per format, listed from the highest index. (Yosys 0.23,
  // which scripts/synth.sh runs, reads neither packed arrays of structs nor
  // assignment patterns, hence columns rather than an array of records.)
  // UE4M3 has NaN at 0x7f only (no Inf); UE8M0 has NaN at 0xff and no
  // significand; both are handled where they are decoded.
  //                                                      UE4M3  UE8M0    E2M1   FP16    FP64      FP32
  localparam logic [NUM_FP_FORMATS*32-1:0] FP_EXP_BITS = {32'd4, 32'd8,   32'd2, 32'd5,  32'd11,   32'd8};
  localparam logic [NUM_FP_FORMATS*32-1:0] FP_MAN_BITS = {32'd3, 32'd0,   32'd1, 32'd10, 32'd52,   32'd23};
  localparam logic [NUM_FP_FORMATS*32-1:0] FP_BIAS     = {32'd7, 32'd127, 32'd1, 32'd15, 32'd1023, 32'd127};
  localparam logic [NUM_FP_FORMATS-1:0] FP_HAS_SIGN    = {1'b0,  1'b0,    1'b1,  1'b1,   1'b1,     1'b1};
  // Exponent all-ones encodes Inf/NaN.
  localparam logic [NUM_FP_FORMATS-1:0] FP_HAS_SPECIAL = {1'b1,  1'b1,    1'b0,  1'b1,   1'b1,     1'b1};

  // Stored exponent and fraction bits, bias, sign bit and Inf/NaN encoding.
  // (Assignments to the function name rather than return: Yosys 0.23.)
  function automatic int unsigned exp_bits(fp_format_e fmt);
    exp_bits = FP_EXP_BITS[32*fmt +: 32];
  endfunction

  function automatic int unsigned man_bits(fp_format_e fmt);
    man_bits = FP_MAN_BITS[32*fmt +: 32];
  endfunction

  function automatic int unsigned bias(fp_format_e fmt);
    bias = FP_BIAS[32*fmt +: 32];
  endfunction

  function automatic bit has_sign(fp_format_e fmt);
    has_sign = FP_HAS_SIGN[fmt];
  endfunction

  function automatic bit has_special(fp_format_e fmt);
    has_special = FP_HAS_SPECIAL[fmt];
  endfunction

  function automatic int unsigned fp_width(fp_format_e fmt);
    fp_width = FP_EXP_BITS[32*fmt +: 32] + FP_MAN_BITS[32*fmt +: 32] +
               {31'd0, FP_HAS_SIGN[fmt]};
  endfunction

  // ---------------------------------------------------------------------------
  // Integer formats and the int4 dot unit (rtl/tcu_int4_dot.sv)
  // ---------------------------------------------------------------------------
  localparam int unsigned INT4_BITS  = 4;   // .s4 / .u4 element
  localparam int unsigned INT32_BITS = 32;  // .s32 accumulator
  localparam int unsigned INT4_DOT_LANES = 32;
  // A product of two 4-bit codes lies in [-120, 225] (s4*u4 .. u4*u4): nine
  // signed bits; the exact sum of INT4_DOT_LANES of them needs log2 more.
  localparam int unsigned INT4_PROD_WIDTH = 9;
  localparam int unsigned INT4_DOT_WIDTH  = INT4_PROD_WIDTH + $clog2(INT4_DOT_LANES);

  // ---------------------------------------------------------------------------
  // The block-scaled e2m1 dot unit (rtl/tcu_e2m1_dot.sv)
  // ---------------------------------------------------------------------------
  localparam int unsigned E2M1_DOT_LANES  = 64;  // k of m16n8k64
  localparam int unsigned E2M1_MAX_BLOCKS = 4;   // scale blocks per row (4X)
  // k summed exactly into one group term, and that sum in quarters (signed:
  // |q| <= 16 * 6 * 6 * 4 = 2304).
  localparam int unsigned E2M1_GROUP           = 16;
  localparam int unsigned E2M1_GROUP_DOT_WIDTH = 13;
  // e2m1 magnitude in halves (0, 0.5, 1, 1.5, 2, 3, 4, 6 for codes 0..7), one
  // nibble per code: a constant indexed by the code (a shift in simulation,
  // no branches; a 3-input lookup in gates).
  localparam logic [31:0] E2M1_HALVES = {4'd12, 4'd8, 4'd6, 4'd4, 4'd3, 4'd2, 4'd1, 4'd0};

  // ---------------------------------------------------------------------------
  // Rounding modes (PTX .rn/.rz/.rm/.rp; same order as tcu::Rounding)
  // ---------------------------------------------------------------------------
  typedef enum logic [1:0] {
    RNE = 2'd0,
    RTZ = 2'd1,
    RDN = 2'd2,
    RUP = 2'd3
  } roundmode_e;

  // ---------------------------------------------------------------------------
  // Instruction families (same order as tcu::Family)
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {
    FAM_INT4        = 3'd0,
    FAM_INT4_SPARSE = 3'd1,
    FAM_F16         = 3'd2,
    FAM_F64         = 3'd3,
    FAM_E2M1        = 3'd4
  } family_e;

  // ---------------------------------------------------------------------------
  // Warp operands (same order as tcu::Operand) and the PTX fragment layouts
  // ---------------------------------------------------------------------------
  localparam logic [2:0] OP_A       = 3'd0;
  localparam logic [2:0] OP_B       = 3'd1;
  localparam logic [2:0] OP_C       = 3'd2;
  localparam logic [2:0] OP_D       = 3'd3;
  localparam logic [2:0] OP_META    = 3'd4;
  localparam logic [2:0] OP_SCALE_A = 3'd5;
  localparam logic [2:0] OP_SCALE_B = 3'd6;

  // Where one 32-bit register word of a warp's mma operand lands on the
  // datapath's matrix-order ports: frag_place's result, packed as
  // {hit, lo_pos, hi_pos, split, word} (tcu_frag_layout.sv describes each
  // field). A function rather than only a module so that the router's
  // simulation path evaluates it where a word is written (at the clock edge)
  // instead of at every input change.
  localparam int unsigned FRAG_POS_W   = 9;
  localparam int unsigned FRAG_PLACE_W = 1 + 2 * FRAG_POS_W + 1 + 32;

  // The descriptor fields a placement depends on, packed as frag_place's
  // desc argument: {family, k32, a_row, b_row, acc_f16, scale_4x, sparsity,
  // byte_id_a, thread_id_a, byte_id_b, thread_id_b}.
  localparam int unsigned FRAG_DESC_W = 3 + 6 + 2 + 1 + 2 + 2;

  // Layout classes: the descriptor fields the A, B and C placements depend
  // on (scripts/equiv.sh proves frag_place's hit and positions for A, B and
  // C equal at a descriptor and at its class's), so that the router's
  // simulation path can read them from a table indexed by class. 8..15:
  // m8n8k4 .f16 {a_row, b_row, acc_f16}; 5: m8n8k32; else the family code
  // (family codes outside family_e place as FAM_INT4, as frag_place does).
  localparam logic [3:0] FRAG_CLASS_K32 = 4'd5;
  // Its argument: the descriptor's first seven bits, {family, k32, a_row,
  // b_row, acc_f16} (the fields a class is made of).
  function automatic logic [3:0] frag_layout_class(logic [6:0] layout_fields);
    logic [2:0] family;
    logic       k32, a_row, b_row, acc_f16;
    {family, k32, a_row, b_row, acc_f16} = layout_fields;
    unique case (family)
      tcu_pkg::FAM_F16:         frag_layout_class = {1'b1, a_row, b_row, acc_f16};
      tcu_pkg::FAM_INT4_SPARSE,
      tcu_pkg::FAM_F64,
      tcu_pkg::FAM_E2M1:        frag_layout_class = {1'b0, family};
      default:                  frag_layout_class = k32 ? tcu_pkg::FRAG_CLASS_K32
                                                        : {1'b0, tcu_pkg::FAM_INT4};
    endcase
  endfunction
  // A descriptor of layout class cls (every field the class leaves out 0).
  function automatic logic [FRAG_DESC_W-1:0] frag_class_desc(logic [3:0] cls);
    logic [2:0] family;
    family          = cls[3] ? tcu_pkg::FAM_F16
                    : cls == tcu_pkg::FRAG_CLASS_K32 ? tcu_pkg::FAM_INT4 : cls[2:0];
    frag_class_desc = {family, cls == tcu_pkg::FRAG_CLASS_K32, cls[3] & cls[2], cls[3] & cls[1],
                       cls[3] & cls[0], 9'd0};
  endfunction

  // C and D (the accumulator fragments): {regs, word_pos}, the operand's
  // 32-bit words per lane and the word's index on the 8192-bit C/D port.
  // Its own function because the router's scatter needs only this case:
  //   m16n8 (k64 families): c_i, row g + 8*(i >= 2), column 2t + i%2.
  //   m8n8 (m8n8k32; m8n8k4 .f64 with 64-bit elements, two words each):
  //   row g, column 2t + reg. m8n8k4 .f16 accumulators, batch q: .f16:
  //   row t + 4hg, columns 2reg, 2reg+1 (16-bit units, (q*8+row)*8+col);
  //   .f32: row (lane&1) + (reg&2) + 4hg, column (reg&4) + (lane&2) + reg%2.
  function automatic logic [11:0] frag_cd_place(logic [2:0] family, logic k32, logic acc_f16,
                                                logic [4:0] lane, logic [2:0] reg_idx);
    logic [2:0] g;
    logic [1:0] t, q;
    logic       hg;
    g  = lane[4:2];
    t  = lane[1:0];
    q  = lane[3:2];
    hg = lane[4];
    unique case (family)
      tcu_pkg::FAM_F16:
        frag_cd_place = acc_f16 ? {4'd4, 1'b0, q, hg, t, reg_idx[1:0]}
                                : {4'd8, q, hg, reg_idx[1], lane[0], reg_idx[2], lane[1],
                                   reg_idx[0]};
      tcu_pkg::FAM_F64:         frag_cd_place = {4'd4, 1'b0, g, t, reg_idx[1:0]};
      tcu_pkg::FAM_INT4_SPARSE,
      tcu_pkg::FAM_E2M1:        frag_cd_place = {4'd4, 1'b0, reg_idx[1], g, t, reg_idx[0]};
      default:                  frag_cd_place = k32 ? {4'd2, 2'b00, g, t, reg_idx[0]}
                                                    : {4'd4, 1'b0, reg_idx[1], g, t, reg_idx[0]};
    endcase
  endfunction

  // The formulas are the PTX ISA's (sections named below), written from lane
  // and register to port position. Family codes outside family_e are
  // treated as FAM_INT4, as tcu_datapath does. (Assignments to the function
  // name rather than return, no structs, and the package's own names
  // qualified: Yosys 0.23.)
  function automatic logic [FRAG_PLACE_W-1:0] frag_place(logic [FRAG_DESC_W-1:0] desc,
                                                         logic [2:0] op, logic [4:0] lane,
                                                         logic [2:0] reg_idx, logic [31:0] word);
    logic [2:0]  family;
    logic        k32, a_row, b_row, acc_f16, scale_4x, sparsity, thread_id_a;
    logic [1:0]  byte_id_a, byte_id_b, thread_id_b;
    logic [2:0]  g;
    logic [1:0]  t, q;
    logic        hg;
    logic        fam_sparse, fam_f16, fam_f64, fam_e2m1, fam_k32;
    logic [31:0] scale_shifted, scale_word, word_out;
    logic [1:0]  scale_byte_id;
    logic [7:0]  word_pos;   // 32-bit word index on the port
    logic [7:0]  half_pos;   // f16: half-word index of the low half
    logic        halves;     // place by half_pos (else word_pos)
    logic        split;      // f16: hi half = lo + 4 (else lo + 1)
    logic [3:0]  regs;       // 32-bit words per lane of this operand
    logic [FRAG_POS_W-1:0] lo_pos, hi_pos;

    {family, k32, a_row, b_row, acc_f16, scale_4x, sparsity, byte_id_a, thread_id_a, byte_id_b,
     thread_id_b} = desc;

    // The lane's coordinates in the PTX formulas: groupID, threadID_in_group;
    // for m8n8k4 .f16 the quad pair (the batch) and the high half-warp.
    g  = lane[4:2];
    t  = lane[1:0];
    q  = lane[3:2];
    hg = lane[4];

    fam_sparse = 1'b0;
    fam_f16    = 1'b0;
    fam_f64    = 1'b0;
    fam_e2m1   = 1'b0;
    fam_k32    = 1'b0;
    unique case (family)
      tcu_pkg::FAM_INT4_SPARSE: fam_sparse = 1'b1;
      tcu_pkg::FAM_F16:         fam_f16    = 1'b1;
      tcu_pkg::FAM_F64:         fam_f64    = 1'b1;
      tcu_pkg::FAM_E2M1:        fam_e2m1   = 1'b1;
      default:         fam_k32    = k32;  // FAM_INT4
    endcase

    // Scales: the register shifted down by the byte selector, masked to the
    // instruction's blocks (2X: two bytes, 4X: four). A four-way choice
    // rather than a shifter (Yosys's share pass stalls on many shifters).
    scale_byte_id = op == tcu_pkg::OP_SCALE_A ? byte_id_a : byte_id_b;
    unique case (scale_byte_id)
      2'd0:    scale_shifted = word;
      2'd1:    scale_shifted = {8'h00, word[31:8]};
      2'd2:    scale_shifted = {16'h0000, word[31:16]};
      default: scale_shifted = {24'h00_0000, word[31:24]};
    endcase
    scale_word = scale_shifted & (scale_4x ? 32'hffff_ffff : 32'h0000_ffff);

    word_pos = '0;
    half_pos = '0;
    halves   = 1'b0;
    split    = 1'b0;
    regs     = '0;
    word_out = word;
    unique case (op)
      // --- A ------------------------------------------------------------------
      // m16n8k64 (9.7.14.5.11): a_i, i = 8*reg + elem, row g + 8*(reg odd),
      // column 8t + elem + 32*(reg >= 2): row r, word 8r + 4*reg[1] + t.
      // m8n8k32 (9.7.14.5.4): row g, columns 8t..8t+7. sparse m16n8k64
      // (9.7.14.6.2.7, compressed 16x32 A): row g + 8*reg, columns 8t...
      // m8n8k4 .f16 (9.7.14.5.1), batch q (16-bit units, (q*8+row)*4+col):
      // .row: row t + 4hg, columns 2reg, 2reg+1; .col: rows 2reg + 4hg and
      // the next, column t. m8n8k4 .f64 (9.7.14.5.2): element (g, t).
      tcu_pkg::OP_A: begin
        if (fam_f16) begin
          regs     = 4'd2;
          halves   = 1'b1;
          split    = !a_row;
          half_pos = a_row ? {1'b0, q, hg, t, reg_idx[0], 1'b0}
                           : {1'b0, q, hg, reg_idx[0], 1'b0, t};
        end else if (fam_f64) begin
          regs     = 4'd2;
          word_pos = {2'b00, g, t, reg_idx[0]};
        end else if (fam_sparse) begin
          regs     = 4'd2;
          word_pos = {2'b00, reg_idx[0], g, t};
        end else if (fam_k32) begin
          regs     = 4'd1;
          word_pos = {3'b000, g, t};
        end else begin
          regs     = 4'd4;
          word_pos = {1'b0, reg_idx[0], g, reg_idx[1], t};
        end
      end
      // --- B (column-major) -------------------------------------------------
      // m16n8k64 (dense, sparse, e2m1): b_i, k = 8t + elem + 32*reg, column
      // g; a column is 64 codes: word 8g + 4reg + t. m8n8k32: k = 8t + elem,
      // the first 32 codes of column g. m8n8k4 .f16, column stride 4
      // (16-bit units, (q*8+col)*4+k): .row: k = t, columns 2reg + 4hg and
      // the next; .col: k = 2reg, 2reg+1, column t + 4hg. .f64: (k t, col g).
      tcu_pkg::OP_B: begin
        if (fam_f16) begin
          regs     = 4'd2;
          halves   = 1'b1;
          split    = b_row;
          half_pos = b_row ? {1'b0, q, hg, reg_idx[0], 1'b0, t}
                           : {1'b0, q, hg, t, reg_idx[0], 1'b0};
        end else if (fam_f64) begin
          regs     = 4'd2;
          word_pos = {2'b00, g, t, reg_idx[0]};
        end else if (fam_k32) begin
          regs     = 4'd1;
          word_pos = {2'b00, g, 1'b0, t};
        end else begin
          regs     = 4'd2;
          word_pos = {2'b00, g, reg_idx[0], t};
        end
      end
      // --- C and D: frag_cd_place -----------------------------------------------
      tcu_pkg::OP_C, tcu_pkg::OP_D: begin
        {regs, word_pos} = tcu_pkg::frag_cd_place(family, k32, acc_f16, lane, reg_idx);
      end
      // --- sparse metadata (9.7.14.6.2.7) ------------------------------------
      // Lane 4g + 2*sparsity + h holds row g + 8h; nibble c is chunk c: row r
      // is word r of the port.
      tcu_pkg::OP_META: begin
        if (fam_sparse && t[1] == sparsity) begin
          regs     = 4'd1;
          word_pos = {4'b0000, t[0], g};
        end
      end
      // --- block scales (e2m1) ------------------------------------------------
      // scale_a: row m in lane 4*(m%8) + 2*thread_id_a + m/8, block j in byte
      // byte_id_a + j; rows of four bytes. scale_b: column n in lane
      // 4n + thread_id_b, block j in byte byte_id_b + j; columns of four.
      tcu_pkg::OP_SCALE_A: begin
        if (fam_e2m1 && t[1] == thread_id_a) begin
          regs     = 4'd1;
          word_pos = {4'b0000, t[0], g};
          word_out = scale_word;
        end
      end
      tcu_pkg::OP_SCALE_B: begin
        if (fam_e2m1 && t == thread_id_b) begin
          regs     = 4'd1;
          word_pos = {5'b00000, g};
          word_out = scale_word;
        end
      end
      default: ;
    endcase

    lo_pos     = halves ? {1'b0, half_pos} : {word_pos, 1'b0};
    hi_pos     = halves ? {1'b0, half_pos + (split ? 8'd4 : 8'd1)} : {word_pos, 1'b1};
    frag_place = {{1'b0, reg_idx} < regs, lo_pos, hi_pos, split, word_out};
  endfunction

  // ---------------------------------------------------------------------------
  // The datapath's engines (rtl/tcu_datapath.sv)
  // ---------------------------------------------------------------------------
  // Engine numbers: the order of the per-engine vectors inside tcu_datapath.
  localparam int unsigned NUM_ENGINES = 4;
  localparam int unsigned ENGINE_INT4 = 0;  // int4 dense and sparse
  localparam int unsigned ENGINE_F16  = 1;
  localparam int unsigned ENGINE_F64  = 2;
  localparam int unsigned ENGINE_E2M1 = 3;

  // Unit slices of one instruction (timing.cpp unit_slices): an int4 dense
  // m16n8k64 element is two 32-wide halves, every other element one slice;
  // an f16 m8n8k4 has four quad pairs of 8x8 elements.
  localparam int unsigned INT4_K64_SLICES    = 2 * 16 * 8;
  localparam int unsigned INT4_K32_SLICES    = 8 * 8;
  localparam int unsigned INT4_SPARSE_SLICES = 16 * 8;
  localparam int unsigned E2M1_SLICES        = 16 * 8;
  localparam int unsigned F16_SLICES         = 4 * 8 * 8;
  localparam int unsigned F64_SLICES         = 8 * 8;
  // The k of m8n8k4: the FMAs of one f16 or f64 unit slice.
  localparam int unsigned FMA_DOT_K = 4;

  localparam int unsigned TAG_BITS  = 16;  // an instruction's tag
  localparam int unsigned MACS_BITS = 16;  // MACs issued in one cycle (at most 8192)

  // The instruction descriptor, one bundle: tcu_datapath packs its
  // descriptor ports into it once, and every engine reads its fields.
  localparam int unsigned DESC_TAG       = 0;   // TAG_BITS bits
  localparam int unsigned DESC_FAMILY    = 16;  // 3 bits, family_e
  localparam int unsigned DESC_A_SIGNED  = 19;  // int4 .s4 A
  localparam int unsigned DESC_B_SIGNED  = 20;  // int4 .s4 B
  localparam int unsigned DESC_SATFINITE = 21;  // int4 .satfinite
  localparam int unsigned DESC_K32       = 22;  // int4 dense m8n8k32
  localparam int unsigned DESC_RND       = 23;  // 2 bits, f64 roundmode_e
  localparam int unsigned DESC_C_F16     = 25;  // f16 family: C .f16
  localparam int unsigned DESC_D_F16     = 26;  // f16 family: D .f16
  localparam int unsigned DESC_SCALE_4X  = 27;  // e2m1 .scale_vec::4X
  localparam int unsigned DESC_BITS      = 28;

  // What every engine shows the datapath's control, one bundle: its
  // sequencer's state, the group whose results arrive this cycle, its
  // ownership of the pipelines' D and the MACs it issues this cycle.
  localparam int unsigned STATUS_SEQ_BUSY    = 0;   // a group is issued (when the pipes run)
  localparam int unsigned STATUS_SEQ_DONE    = 1;   // the last group is issued this cycle
  localparam int unsigned STATUS_ARRIVE      = 2;   // a group's results arrive
  localparam int unsigned STATUS_ARRIVE_LAST = 3;   // ... and it is the instruction's last
  localparam int unsigned STATUS_OWN         = 4;   // the engine's D buffer is the pipelines' D
  localparam int unsigned STATUS_TAG         = 5;   // TAG_BITS: the arriving group's tag
  localparam int unsigned STATUS_MACS        = 21;  // MACS_BITS: MACs issued this cycle
  localparam int unsigned STATUS_BITS        = 37;

  // NaN encodings the silicon produces.
  localparam logic [31:0] F32_CANONICAL_NAN = 32'h7fff_ffff;
  localparam logic [15:0] F16_CANONICAL_NAN = 16'h7fff;
  localparam logic [63:0] F64_DEFAULT_NAN   = 64'hfff8_0000_0000_0000;

endpackage
