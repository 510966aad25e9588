// Yosys techmap rules for the formal flow (tcu_tools.formal, kind slang): the gather's
// fast form writes each word with an indexed part-select, which Yosys
// 0.70's SystemVerilog frontend lowers to a shift of the word into the
// 4-8 kbit buffer by minus its position times the word's width. Mapped as
// Yosys maps any shift (a barrel shifter, 12-15 stages of muxes over the
// whole buffer), the 3-word miter took 18 GB; as a decoder of the position
// (the shift amount's low bits are constant zeros) and one AND per output
// bit, 4.3 GB. Two rules, applied in this order (each a techmap pass of
// its own, so that the first's constant bits are seen by the second):
//   tcu_equiv_neg_lowzero    -(H * 2**Z) as (-H) * 2**Z, its low zeros constant;
//   tcu_equiv_shift_aligned  a shift by a multiple of 2**Z as a decoder.
// Any other $neg or $shift is left to Yosys's own map (_TECHMAP_FAIL_).
// The check "shift_map aligned=barrel" (formal/checks.toml, kind map)
// proves these rules equal to Yosys's own map on the gather's shapes;
// TCU_FORMAL_PLANT (techmap -D) plants a fault in them for its --plant run.

// A $neg whose operand has constant-zero low bits: -(H * 2**Z) is
// (-H) * 2**Z, so the low bits of the result are the same zeros, made
// visible as constants (what tcu_equiv_shift_aligned needs of a shift amount).
(* techmap_celltype = "$neg" *)
module tcu_equiv_neg_lowzero (A, Y);
  parameter A_SIGNED = 0;
  parameter A_WIDTH = 1;
  parameter Y_WIDTH = 1;
  parameter [A_WIDTH-1:0] _TECHMAP_CONSTMSK_A_ = 0;
  parameter [A_WIDTH-1:0] _TECHMAP_CONSTVAL_A_ = 0;
  input  [A_WIDTH-1:0] A;
  output [Y_WIDTH-1:0] Y;

  // Z: A's constant-zero low bits, the trailing zeros of FREE (bits not
  // constant 0), found as the index of FREE's lowest set bit.
  localparam [A_WIDTH-1:0] FREE = ~_TECHMAP_CONSTMSK_A_ | _TECHMAP_CONSTVAL_A_;
  localparam Z = FREE == 0 ? A_WIDTH : $clog2(FREE & (~FREE + 1'b1));
  wire _TECHMAP_FAIL_ = Z == 0 || Z >= A_WIDTH || Z >= Y_WIDTH;

  generate
    if (Z > 0 && Z < A_WIDTH && Z < Y_WIDTH) begin : g_split
      wire [Y_WIDTH-Z-1:0] high;
      if (A_SIGNED) begin : g_signed
        assign high = -$signed(A[A_WIDTH-1:Z]);
      end else begin : g_unsigned
        assign high = -A[A_WIDTH-1:Z];
      end
      assign Y = {high, {Z{1'b0}}};
    end
  endgenerate
endmodule

// A $shift whose shift amount has constant-zero low bits (a word placed at
// a multiple of 2**Z bits, as an indexed part-select writes it), mapped as
// a decoder of the amount's high bits and an AND-OR per output bit rather
// than a barrel shifter: Y[i] = A[i + B] where 0 <= i + B < A_WIDTH, else 0.
// Any other $shift is left to the default map (_TECHMAP_FAIL_).
(* techmap_celltype = "$shift" *)
module tcu_equiv_shift_aligned (A, B, Y);
  parameter A_SIGNED = 0;
  parameter B_SIGNED = 0;
  parameter A_WIDTH = 1;
  parameter B_WIDTH = 1;
  parameter Y_WIDTH = 1;
  parameter [B_WIDTH-1:0] _TECHMAP_CONSTMSK_B_ = 0;
  parameter [B_WIDTH-1:0] _TECHMAP_CONSTVAL_B_ = 0;

  input  [A_WIDTH-1:0] A;
  input  [B_WIDTH-1:0] B;
  output [Y_WIDTH-1:0] Y;

  // Z: B's constant-zero low bits (as in tcu_equiv_neg_lowzero).
  localparam [B_WIDTH-1:0] FREE = ~_TECHMAP_CONSTMSK_B_ | _TECHMAP_CONSTVAL_B_;
  localparam Z = FREE == 0 ? B_WIDTH : $clog2(FREE & (~FREE + 1'b1));
  localparam S = 1 << Z;
  localparam HW = B_WIDTH - Z;                // the amount's high bits
  localparam NA = (A_WIDTH + S - 1) / S;      // A's words
  localparam NY = (Y_WIDTH + S - 1) / S;      // Y's words
  // Taken only where it pays: signed amounts (negative: a left shift), A
  // unsigned, at least 2 constant zeros.
  wire _TECHMAP_FAIL_ = A_SIGNED || !B_SIGNED || Z < 2 || HW < 1 || HW > 24;

  wire signed [HW-1:0] high = B[B_WIDTH-1:Z];
  // hit[d + NY - 1]: high == d, for d = a - k in -(NY-1) .. NA-1.
  wire [NA+NY-2:0] hit;
  // A in NA words of S bits (zero-padded).
  wire [NA*S-1:0] a_words = A;
  // Y word k is the OR over A's words a of word a where high == a - k.
  wire [NA*NY*S-1:0] terms;
  wire [NY*S-1:0] y_words;
  genvar d, k, a;
  generate
    for (d = 0; d < NA + NY - 1; d = d + 1) begin : g_dec
`ifdef TCU_FORMAL_PLANT
      // The plant of the check's --plant run: one decoded amount off by one.
      localparam integer D = d - (NY - 1) + (d == NY - 1);
`else
      localparam integer D = d - (NY - 1);
`endif
      // D outside high's range never equals it.
      if (D >= -(1 << (HW - 1)) && D < (1 << (HW - 1))) begin : g_in
        assign hit[d] = high == D;
      end else begin : g_out
        assign hit[d] = 1'b0;
      end
    end
    for (a = 0; a < NA; a = a + 1) begin : g_a
      // Word a of A spread to every Y word k, gated by hit[a - k + NY - 1].
      wire [NY*S-1:0] gate_bits;
      for (k = 0; k < NY; k = k + 1) begin : g_k
        assign gate_bits[k*S +: S] = {S{hit[a - k + NY - 1]}};
      end
      assign terms[a*NY*S +: NY*S] = gate_bits & {NY{a_words[a*S +: S]}};
    end
    // OR over A's words, as a chain of word-wide ORs.
    wire [(NA+1)*NY*S-1:0] acc;
    assign acc[0 +: NY*S] = {NY*S{1'b0}};
    for (a = 0; a < NA; a = a + 1) begin : g_or
      assign acc[(a+1)*NY*S +: NY*S] = acc[a*NY*S +: NY*S] | terms[a*NY*S +: NY*S];
    end
    assign y_words = acc[NA*NY*S +: NY*S];
  endgenerate
  assign Y = y_words[Y_WIDTH-1:0];
endmodule
