// Leading-zero count: count_o = the number of zeros above the highest one of
// data_i, or Width when data_i is zero.
//
// Two levels, no run-time loop over a wide vector in Verilated code: a
// priority search for the highest non-zero 64-bit chunk of data_i, padded
// below with ones to whole chunks (at least one bit of padding, so that a
// zero data_i counts Width), then tcu_pkg::lzc64's six-step binary search
// inside that chunk. Up to 63 bits wide the count is one 64-bit word's.
// Combinational.
module tcu_lzc #(
  parameter int unsigned  Width = 64,
  localparam int unsigned CntW  = $clog2(Width + 1)
) (
  input  logic [Width-1:0] data_i /* verilator public_flat_rd */,
  output logic [CntW-1:0]  count_o
);

  localparam int unsigned Chunks = (Width + 64) / 64;
  localparam int unsigned PadW   = Chunks * 64;

  logic [PadW-1:0] padded;
  assign padded = {data_i, {(PadW - Width){1'b1}}};

  always_comb begin
    logic        found;
    logic [63:0] chunk;
    found   = 1'b0;
    count_o = '0;
    for (int unsigned c = 0; c < Chunks; c++) begin
      chunk = padded[PadW-1-64*c -: 64];
      if (!found && chunk != '0) begin
        found   = 1'b1;
        count_o = CntW'(64 * c) + CntW'(tcu_pkg::lzc64(chunk));
      end
    end
  end

endmodule
