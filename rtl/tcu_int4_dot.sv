// An exact dot product of INT4_DOT_LANES (32) pairs of 4-bit codes, each
// operand .s4 or .u4 by its own signedness bit (golden int4_dot):
//   sum_o = sum_k value(a_k, a_signed_i) * value(b_k, b_signed_i)
// with a_k = a_i[4k +: 4], b_k = b_i[4k +: 4]. The sum lies in
// [-3840, 7200] and is returned exactly, INT4_DOT_WIDTH (14) signed bits.
//
// 32 multipliers (5-bit signed operands: the code with its sign or a zero
// above it) feed a binary adder tree, one bit wider per level. The Stages
// pipeline registers are spread evenly over the six layers (products, five
// adder levels): layer l is followed by floor((l+1)S/6) - floor(lS/6)
// registers, so for Stages >= 1 the output is registered and Stages > 6 puts
// several registers behind a layer. valid_o and sum_o follow valid_i exactly
// Stages cycles later, counting only cycles with en_i high; en_i low holds
// every register.
module tcu_int4_dot #(
  parameter int unsigned  Stages = 2,
  localparam int unsigned Lanes  = tcu_pkg::INT4_DOT_LANES,
  localparam int unsigned Bits   = tcu_pkg::INT4_BITS,
  localparam int unsigned SumW   = tcu_pkg::INT4_DOT_WIDTH
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   en_i,
  input  logic                   valid_i,
  input  logic                   a_signed_i,
  input  logic                   b_signed_i,
  input  logic [Lanes*Bits-1:0]  a_i,
  input  logic [Lanes*Bits-1:0]  b_i,
  output logic                   valid_o,
  output logic signed [SumW-1:0] sum_o
);

  localparam int unsigned ProdW  = tcu_pkg::INT4_PROD_WIDTH;
  localparam int unsigned Levels = $clog2(Lanes);  // adder levels
  localparam int unsigned Layers = Levels + 1;     // and the products

  // Layer l has Lanes >> l terms of ProdW + l signed bits: comb is its logic,
  // q the same after its registers. Terms are unpacked arrays of narrow
  // values (in simulation each is a native integer, not a slice of a wide
  // vector), and each term has its own chain of registers.
  for (genvar l = 0; l < Layers; l++) begin : g_layer
    localparam int unsigned Terms = Lanes >> l;
    localparam int unsigned W     = ProdW + l;
    localparam int unsigned Regs  = ((l + 1) * Stages) / Layers - (l * Stages) / Layers;

    logic signed [W-1:0] comb [Terms];
    logic signed [W-1:0] q    [Terms];
    logic                valid_comb, valid_q;

    if (l == 0) begin : g_mul
      // The products: 5-bit signed operands (the code with its sign or a
      // zero above it).
      for (genvar k = 0; k < Lanes; k++) begin : g_lane
        logic signed [Bits:0] a_ext, b_ext;
        assign a_ext   = {a_signed_i & a_i[k*Bits+Bits-1], a_i[k*Bits +: Bits]};
        assign b_ext   = {b_signed_i & b_i[k*Bits+Bits-1], b_i[k*Bits +: Bits]};
        assign comb[k] = W'(a_ext) * W'(b_ext);
      end
      assign valid_comb = valid_i;
    end else begin : g_add
      for (genvar t = 0; t < Terms; t++) begin : g_term
        assign comb[t] = W'(g_layer[l-1].q[2*t]) + W'(g_layer[l-1].q[2*t+1]);
      end
      assign valid_comb = g_layer[l-1].valid_q;
    end

    if (Regs == 0) begin : g_wire
      for (genvar t = 0; t < Terms; t++) begin : g_term
        assign q[t] = comb[t];
      end
      assign valid_q = valid_comb;
    end else begin : g_regs
      // Register s of the layer loads when its input is valid; en_i low
      // holds them all.
      logic [Regs-1:0] valid_r;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_r <= '0;
        end else if (en_i) begin
          valid_r <= Regs'({valid_r, valid_comb});
        end
      end
      for (genvar t = 0; t < Terms; t++) begin : g_term
        logic [Regs*W-1:0] chain_q;
        always_ff @(posedge clk_i) begin
          if (en_i && valid_comb) begin
            chain_q[0 +: W] <= comb[t];
          end
          for (int unsigned s = 1; s < Regs; s++) begin
            if (en_i && valid_r[s-1]) begin
              chain_q[s*W +: W] <= chain_q[(s-1)*W +: W];
            end
          end
        end
        assign q[t] = chain_q[(Regs-1)*W +: W];
      end
      assign valid_q = valid_r[Regs-1];
    end
  end

  assign valid_o = g_layer[Layers-1].valid_q;
  assign sum_o   = g_layer[Layers-1].q[0];

  if (Stages == 0) begin : g_comb
    // No registers: the clock, reset and enable go unused.
    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, rst_ni, en_i};
  end

endmodule
