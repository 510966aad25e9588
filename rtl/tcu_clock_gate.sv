// Latch-based clock gate (the usual ICG cell): the enable is captured while
// the clock is low, so the gated clock never glitches. The datapath stops
// the clock of every engine with no work, which saves dynamic power in
// silicon and evaluation time in Verilator, which skips logic whose clock
// does not tick.
module tcu_clock_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);

  logic en_latch;

  always_latch begin
    if (!clk_i) begin
      en_latch = en_i;
    end
  end

  assign clk_o = clk_i & en_latch;

endmodule
