// Shared types of the tensor-core datapath. Number formats are described
// once, as data (FP_FORMATS), and every unit derives its widths from it.
package tcu_pkg;

  // ---------------------------------------------------------------------------
  // Number formats
  // ---------------------------------------------------------------------------
  typedef struct packed {
    int unsigned exp_bits;
    int unsigned man_bits;  // stored fraction bits
    int unsigned bias;
    logic        has_sign;
    logic        has_special;  // exponent all-ones encodes Inf/NaN
  } fp_encoding_t;

  typedef enum logic [2:0] {
    FP32  = 3'd0,
    FP64  = 3'd1,
    FP16  = 3'd2,
    E2M1  = 3'd3,
    UE8M0 = 3'd4,
    UE4M3 = 3'd5
  } fp_format_e;

  localparam int unsigned NUM_FP_FORMATS = 6;

  // Indexed by fp_format_e (packed, so listed from the highest index).
  // UE4M3 has NaN at 0x7f only (no Inf); UE8M0 has NaN at 0xff and no
  // significand; both are handled where they are decoded.
  localparam fp_encoding_t [NUM_FP_FORMATS-1:0] FP_FORMATS = '{
    '{exp_bits: 4,  man_bits: 3,  bias: 7,    has_sign: 1'b0, has_special: 1'b1},  // UE4M3
    '{exp_bits: 8,  man_bits: 0,  bias: 127,  has_sign: 1'b0, has_special: 1'b1},  // UE8M0
    '{exp_bits: 2,  man_bits: 1,  bias: 1,    has_sign: 1'b1, has_special: 1'b0},  // E2M1
    '{exp_bits: 5,  man_bits: 10, bias: 15,   has_sign: 1'b1, has_special: 1'b1},  // FP16
    '{exp_bits: 11, man_bits: 52, bias: 1023, has_sign: 1'b1, has_special: 1'b1},  // FP64
    '{exp_bits: 8,  man_bits: 23, bias: 127,  has_sign: 1'b1, has_special: 1'b1}  // FP32
  };

  function automatic int unsigned fp_width(fp_format_e fmt);
    return FP_FORMATS[int'(fmt)].exp_bits + FP_FORMATS[int'(fmt)].man_bits +
           (FP_FORMATS[int'(fmt)].has_sign ? 1 : 0);
  endfunction

  function automatic int unsigned exp_bits(fp_format_e fmt);
    return FP_FORMATS[int'(fmt)].exp_bits;
  endfunction

  function automatic int unsigned man_bits(fp_format_e fmt);
    return FP_FORMATS[int'(fmt)].man_bits;
  endfunction

  function automatic int unsigned bias(fp_format_e fmt);
    return FP_FORMATS[int'(fmt)].bias;
  endfunction

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

  // NaN encodings the silicon produces.
  localparam logic [31:0] F32_CANONICAL_NAN = 32'h7fff_ffff;
  localparam logic [15:0] F16_CANONICAL_NAN = 16'h7fff;
  localparam logic [63:0] F64_DEFAULT_NAN   = 64'hfff8_0000_0000_0000;

endpackage
