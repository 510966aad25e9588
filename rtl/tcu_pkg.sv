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
  // Leading-zero count of a 64-bit word (64 when zero): a six-step binary
  // search, each step a compare and a conditional shift. Shared by tcu_lzc and
  // the units that count leading zeros inside a pipeline stage's function.
  // ---------------------------------------------------------------------------
  function automatic logic [6:0] lzc64(logic [63:0] x);
    logic [63:0] v;
    logic [5:0]  n;
    v    = x;
    n[5] = v[63:32] == '0;
    v    = n[5] ? v << 32 : v;
    n[4] = v[63:48] == '0;
    v    = n[4] ? v << 16 : v;
    n[3] = v[63:56] == '0;
    v    = n[3] ? v << 8 : v;
    n[2] = v[63:60] == '0;
    v    = n[2] ? v << 4 : v;
    n[1] = v[63:62] == '0;
    v    = n[1] ? v << 2 : v;
    n[0] = !v[63];
    lzc64 = (x == '0) ? 7'd64 : {1'b0, n};
  endfunction

  // NaN encodings the silicon produces.
  localparam logic [31:0] F32_CANONICAL_NAN = 32'h7fff_ffff;
  localparam logic [15:0] F16_CANONICAL_NAN = 16'h7fff;
  localparam logic [63:0] F64_DEFAULT_NAN   = 64'hfff8_0000_0000_0000;

endpackage
