// tcu_operand_router's scatter alone (its lines verbatim), mapped by tcu_tools.phys.scatter_probe
// at a DWordsPerCycle. FreeBase = 1: the beat's first word an input port (no counter: none of
// its bits constant, so every slot's word index but the first is an addition).
module router_scatter_probe #(
  parameter int unsigned DWordsPerCycle = 4,
  parameter bit          FreeBase       = 0
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            d_valid_i,
  output logic                            d_ready_o,
  input  logic [15:0]                     d_tag_i,
  input  logic [8191:0]                   d_i,
  input  logic [2:0]                      d_family_i,
  input  logic                            d_k32_i,
  input  logic                            d_f16_i,
  input  logic [9:0]                      base_free_i,
  output logic                            wb_valid_o,
  input  logic                            wb_ready_i,
  output logic                            wb_last_o,
  output logic [15:0]                     wb_tag_o,
  output logic [DWordsPerCycle-1:0]       wb_word_valid_o,
  output logic [5*DWordsPerCycle-1:0]     wb_word_lane_o,
  output logic [3*DWordsPerCycle-1:0]     wb_word_reg_o,
  output logic [32*DWordsPerCycle-1:0]    wb_word_data_o
);
  logic          busy_q, wb_fire, take_d;
  logic [9:0]    base_q, d_words, base;
  logic [8191:0] dbuf_q;
  logic [2:0]    dfam_q;
  logic          dk32_q, df16_q;
  logic [15:0]   dtag_q;

  always_comb begin
    unique case (dfam_q)
      tcu_pkg::FAM_F16:         d_words = df16_q ? 10'd128 : 10'd256;
      tcu_pkg::FAM_F64:         d_words = 10'd128;
      tcu_pkg::FAM_INT4_SPARSE: d_words = 10'd128;
      tcu_pkg::FAM_E2M1:        d_words = 10'd128;
      default:                  d_words = dk32_q ? 10'd64 : 10'd128;
    endcase
  end

  assign base       = FreeBase ? base_free_i : base_q;
  assign wb_valid_o = busy_q;
  assign wb_last_o  = base + 10'(DWordsPerCycle) >= d_words;
  assign wb_tag_o   = dtag_q;
  assign wb_fire    = busy_q && wb_ready_i;
  assign d_ready_o  = !busy_q || (wb_fire && wb_last_o);
  assign take_d     = d_valid_i && d_ready_o;

  logic clk_wb;
  tcu_clock_gate u_gate_wb (.clk_i, .en_i(take_d || wb_fire), .clk_o(clk_wb));

  always_ff @(posedge clk_wb or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      base_q <= '0;
    end else if (take_d) begin
      busy_q <= 1'b1;
      base_q <= '0;
    end else if (wb_fire) begin
      busy_q <= !wb_last_o;
      base_q <= base_q + 10'(DWordsPerCycle);
    end
  end

  always_ff @(posedge clk_wb) begin
    if (take_d) begin
      dbuf_q <= d_i;
      dfam_q <= d_family_i;
      dk32_q <= d_k32_i;
      df16_q <= d_f16_i;
      dtag_q <= d_tag_i;
    end
  end

  tcu_router_scatter_synth #(.DWordsPerCycle(DWordsPerCycle)) u_scatter (
    .busy_i   (busy_q),
    .base_i   (base),
    .d_words_i(d_words),
    .family_i (dfam_q),
    .k32_i    (dk32_q),
    .f16_i    (df16_q),
    .d_i      (dbuf_q),
    .wb_word_valid_o,
    .wb_word_lane_o,
    .wb_word_reg_o,
    .wb_word_data_o
  );
endmodule
