`timescale 1ns/1ns
// calib_fma32's mapped netlist against C's fmaf: reads up to 4096 "A B C R"
// lines (+vectors=FILE), applies one vector a cycle and checks each result
// one edge after the operands' (the operand register loads at edge k, the
// result register at edge k + 1); an expected NaN accepts any NaN
// (calib_fma32 gives the canonical 0x7fffffff). Prints "errors E of N".
module fma32_tb;
  reg clk_i = 0;
  reg [31:0] a_i = 0, b_i = 0, c_i = 0;
  wire [31:0] result_o;
  calib_fma32 dut (.clk_i(clk_i), .a_i(a_i), .b_i(b_i), .c_i(c_i), .result_o(result_o));
  reg [8*4096-1:0] name;
  reg [31:0] va [0:4095], vb [0:4095], vc [0:4095], vr [0:4095];
  reg [31:0] want;
  integer fd, got, n, k, errors;
  initial begin
    if (!$value$plusargs("vectors=%s", name)) begin
      $display("usage: vvp SIM +vectors=FILE");
      $finish;
    end
    fd = $fopen(name, "r");
    n = 0;
    got = 4;
    while (got == 4 && n < 4096) begin
      got = $fscanf(fd, "%h %h %h %h\n", va[n], vb[n], vc[n], vr[n]);
      if (got == 4) n = n + 1;
    end
    errors = 0;
    for (k = 0; k <= n; k = k + 1) begin
      if (k < n) begin a_i = va[k]; b_i = vb[k]; c_i = vc[k]; end
      #1 clk_i = 1;
      #1 clk_i = 0;
      if (k >= 1) begin
        want = vr[k - 1];
        if (!(result_o === want || (want[30:23] == 8'hff && want[22:0] != 0 &&
                                    result_o[30:23] == 8'hff && result_o[22:0] != 0))) begin
          errors = errors + 1;
          if (errors < 6)
            $display("vector %0d: %h * %h + %h: got %h want %h", k - 1, va[k - 1], vb[k - 1],
                     vc[k - 1], result_o, want);
        end
      end
    end
    $display("errors %0d of %0d", errors, n);
    $finish;
  end
endmodule
