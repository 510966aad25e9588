// The int4 accumulate step (golden int4_accumulate): d_o = C + dot, wrapping
// modulo 2^32, or with satfinite_i clamped once to [INT32_MIN, INT32_MAX].
// dot_i is the exact dot product of one D element (the sum of two
// tcu_int4_dot halves for k = 64). Combinational.
module tcu_int4_accumulate #(
  parameter int unsigned  DotWidth = tcu_pkg::INT4_DOT_WIDTH + 1,
  localparam int unsigned Width    = tcu_pkg::INT32_BITS
) (
  input  logic                       satfinite_i,
  input  logic [Width-1:0]           c_i,
  input  logic signed [DotWidth-1:0] dot_i,
  output logic [Width-1:0]           d_o
);

  localparam logic [Width-1:0] INT_MAX = {1'b0, {(Width - 1){1'b1}}};
  localparam logic [Width-1:0] INT_MIN = {1'b1, {(Width - 1){1'b0}}};

  // One bit above the int32 range: exact for any DotWidth <= Width.
  logic signed [Width:0] exact;
  assign exact = $signed({c_i[Width-1], c_i}) + (Width + 1)'(dot_i);

  always_comb begin
    if (satfinite_i && exact[Width] != exact[Width-1]) begin
      d_o = exact[Width] ? INT_MIN : INT_MAX;
    end else begin
      d_o = exact[Width-1:0];
    end
  end

endmodule
