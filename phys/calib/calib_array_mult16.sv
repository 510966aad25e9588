// A 16 x 16 unsigned array multiplier of the classic structure (the
// function of ISCAS-85 c6288): 256 AND partial products, a carry-save array
// of 15 rows of 16 adders (half adders in the first row, full adders
// after), and a ripple-carry adder for the upper half of the product. A
// calibration design of tcu_tools.phys (docs/guide/energy.md, "Calibration"):
// not part of the tensor-core unit.
module calib_array_mult16 (
  input  logic [15:0] a_i,
  input  logic [15:0] b_i,
  output logic [31:0] p_o
);
  logic [15:0] pp [16];
  logic [16:0] sum_q [16];  // row r's sums (bit 16: the row's incoming partial product top)
  logic [15:0] cry [16];    // row r's carries

  always_comb begin
    for (int r = 0; r < 16; r++) begin
      for (int c = 0; c < 16; c++) begin
        pp[r][c] = a_i[c] & b_i[r];
      end
    end
    // Row 0: the first partial product, no carries.
    for (int c = 0; c < 16; c++) begin
      sum_q[0][c] = pp[0][c];
      cry[0][c]   = 1'b0;
    end
    sum_q[0][16] = 1'b0;
    p_o[0] = sum_q[0][0];
    // Rows 1..15: cell c adds partial product r, the sum of cell c + 1 of
    // the row above (its weight) and the carry of cell c of the row above.
    for (int r = 1; r < 16; r++) begin
      for (int c = 0; c < 16; c++) begin
        {cry[r][c], sum_q[r][c]} = pp[r][c] + sum_q[r-1][c+1] + cry[r-1][c];
      end
      sum_q[r][16] = 1'b0;
      p_o[r] = sum_q[r][0];
    end
    // The last row's sums and carries, added by a ripple-carry adder.
    begin
      logic carry;
      carry = 1'b0;
      for (int c = 0; c < 16; c++) begin
        {carry, p_o[16 + c]} = sum_q[15][c+1] + cry[15][c] + carry;
      end
    end
  end
endmodule
