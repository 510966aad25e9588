// Yosys techmap: a positive-enable D latch as the OSU 0.18 um library's LATCH
// cell (D, CLK, Q; transparent while CLK is high). dfflibmap maps only
// flip-flops; the clock gate's latch (rtl/tcu_clock_gate.sv, made
// positive-enable by dfflegalize) comes here (python/tcu_tools/phys/mapping.py).
module \$_DLATCH_P_ (input E, input D, output Q);
  LATCH _TECHMAP_REPLACE_ (.CLK(E), .D(D), .Q(Q));
endmodule
