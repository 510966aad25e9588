// Leading-zero count: count_o = the number of zeros above the highest one of
// data_i, or Width when data_i is zero.
//
// Two levels, each a loop short enough for Verilator to unroll (no run-time
// loop over a wide vector): a priority search for the highest non-zero
// 32-bit chunk (data_i padded with zeros below to whole chunks), then a
// five-step binary search for the leading one inside that chunk.
// Combinational.
module tcu_lzc #(
  parameter int unsigned  Width = 64,
  localparam int unsigned CntW  = $clog2(Width + 1)
) (
  input  logic [Width-1:0] data_i,
  output logic [CntW-1:0]  count_o
);

  localparam int unsigned Chunk  = 32;
  localparam int unsigned Chunks = (Width + Chunk - 1) / Chunk;
  localparam int unsigned PadW   = Chunks * Chunk;

  logic [PadW-1:0] padded;
  assign padded = PadW'(data_i) << (PadW - Width);

  logic             found;
  logic [CntW-1:0]  base;
  logic [Chunk-1:0] word, probe;
  logic [4:0]       in_word;

  always_comb begin
    found = 1'b0;
    base  = '0;
    word  = '0;
    for (int unsigned c = 0; c < Chunks; c++) begin
      if (!found && padded[(Chunks-1-c)*Chunk +: Chunk] != '0) begin
        found = 1'b1;
        base  = CntW'(c * Chunk);
        word  = padded[(Chunks-1-c)*Chunk +: Chunk];
      end
    end
    // Leading zeros of a non-zero word: halve the window five times.
    probe   = word;
    in_word = '0;
    if (probe[31:16] == '0) begin
      in_word[4] = 1'b1;
      probe      = probe << 16;
    end
    if (probe[31:24] == '0) begin
      in_word[3] = 1'b1;
      probe      = probe << 8;
    end
    if (probe[31:28] == '0) begin
      in_word[2] = 1'b1;
      probe      = probe << 4;
    end
    if (probe[31:30] == '0) begin
      in_word[1] = 1'b1;
      probe      = probe << 2;
    end
    in_word[0] = !probe[31];
    count_o = found ? base + CntW'(in_word) : CntW'(Width);
  end

endmodule
