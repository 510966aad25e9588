// A chain of Depth pipeline registers carrying a valid bit and Width data
// bits; Depth = 0 is a wire. valid_o and data_o follow valid_i and data_i
// exactly Depth cycles later, counting only cycles with en_i high: en_i low
// holds every register (the datapath's stall). The valid bits reset to 0;
// the data registers have no reset and load only when their input is valid.
module tcu_pipe_reg #(
  parameter int unsigned Width = 1,
  parameter int unsigned Depth = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic             valid_i,
  input  logic [Width-1:0] data_i,
  output logic             valid_o,
  output logic [Width-1:0] data_o
);

  if (Depth == 0) begin : g_wire
    assign valid_o = valid_i;
    assign data_o  = data_i;

    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, rst_ni, en_i};
  end else begin : g_regs
    // Register s holds entry s of valid_q/data_q; register 0 reads the input.
    logic [Depth-1:0]       valid_q;
    logic [Depth*Width-1:0] data_q;

    for (genvar s = 0; s < Depth; s++) begin : g_stage
      logic             valid_d;
      logic [Width-1:0] data_d;
      if (s == 0) begin : g_first
        assign valid_d = valid_i;
        assign data_d  = data_i;
      end else begin : g_next
        assign valid_d = valid_q[s-1];
        assign data_d  = data_q[(s-1)*Width +: Width];
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q[s] <= 1'b0;
        end else if (en_i) begin
          valid_q[s] <= valid_d;
        end
      end

      always_ff @(posedge clk_i) begin
        if (en_i && valid_d) begin
          data_q[s*Width +: Width] <= data_d;
        end
      end
    end

    assign valid_o = valid_q[Depth-1];
    assign data_o  = data_q[(Depth-1)*Width +: Width];
  end

endmodule
