// The sparse operand mux of mma.sp m16n8k64 .s4/.u4 (golden sparse_expand).
// One row of the compressed A holds Lanes (32) stored elements for 2*Lanes
// (64) logical columns, in chunks of eight logical columns (four stored
// elements each). The row's metadata nibble for chunk c, meta_i[4c +: 4],
// holds two pair indices: bits [1:0] the first, [3:2] the second; pair j of
// chunk c is logical columns 8c+2j and 8c+2j+1. Stored elements 4c, 4c+1 are
// the first pair, 4c+2, 4c+3 the second.
//
// Rather than expanding A, the mux routes to each stored A element the B
// element it multiplies: given B's column (b_i[4k +: 4] = B[k][col] for the
// 64 logical k), b_o[4i +: 4] is B's element at stored element i's logical
// column, so the dense 32-wide tcu_int4_dot of (compressed A row, b_o) is
// the row's dot product over the 64 logical columns. Combinational. It
// routes whatever metadata it is given: the front-end rejects invalid
// nibbles (golden sparse_meta_error) before issue.
module tcu_sparse_mux #(
  localparam int unsigned Lanes = tcu_pkg::INT4_DOT_LANES,  // stored elements
  localparam int unsigned Bits  = tcu_pkg::INT4_BITS,
  localparam int unsigned Kept  = 4,                        // stored per chunk
  localparam int unsigned Chunk = 8,                        // logical per chunk
  localparam int unsigned Chunks = Lanes / Kept,
  localparam int unsigned MetaW = 4                         // nibble per chunk
) (
  input  logic [Chunks*MetaW-1:0]      meta_i,
  input  logic [Chunks*Chunk*Bits-1:0] b_i,
  output logic [Lanes*Bits-1:0]        b_o
);

  for (genvar c = 0; c < Chunks; c++) begin : g_chunk
    logic [Chunk*Bits-1:0] b_chunk;  // B at logical columns 8c .. 8c+7
    assign b_chunk = b_i[c*Chunk*Bits +: Chunk*Bits];
    for (genvar slot = 0; slot < 2; slot++) begin : g_slot
      logic [1:0]      pair;
      logic [2*Bits-1:0] b_pair;  // B at columns 8c+2*pair, 8c+2*pair+1
      assign pair = meta_i[c*MetaW + 2*slot +: 2];
      // A shift of the chunk by whole pairs: a 4:1 multiplexer of pairs in
      // gates, one shift of a native word in the Verilated model.
      assign b_pair = (2*Bits)'(b_chunk >> (pair * 2 * Bits));
      assign b_o[(c*Kept + 2*slot)*Bits +: 2*Bits] = b_pair;
    end
  end

endmodule
