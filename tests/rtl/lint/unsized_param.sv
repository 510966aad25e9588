// The constructs scripts/lint_constructs.py must refuse (test
// rtl_lint_constructs_planted): four unbased unsized literals in parameter
// values, and beside them the forms it must accept.
module unsized_param #(
  parameter logic [7:0] P = '1,                 // refused: a parameter port
  parameter int unsigned W = 8
) (
  input  logic [7:0] x_i,
  output logic [7:0] y_o,
  output logic       z_o
);
  localparam logic [7:0] ONES = '1;              // refused: a localparam
  localparam logic [7:0]
    SPLIT = 'x;                                  // refused: over two lines
  localparam logic [7:0] FINE_0 = '0;            // accepted: '0 reads the same
  localparam logic [7:0] FINE_R = {8{1'b1}};     // accepted: a replication
  localparam logic [7:0] FINE_S = 8'hff;         // accepted: sized
  localparam logic [7:0] FINE_C = W'(1);         // accepted: a cast
  // localparam logic [7:0] IN_COMMENT = '1;     accepted: a comment
  assign z_o = x_i == '1;                         // accepted: not a parameter
  unsized_param_leaf #(.Q('1)) u_leaf (.x_i, .y_o);  // refused: an override
endmodule

module unsized_param_leaf #(
  parameter logic [7:0] Q = 8'd0
) (
  input  logic [7:0] x_i,
  output logic [7:0] y_o
);
  assign y_o = x_i ^ Q ^ unsized_param.ONES ^ unsized_param.SPLIT ^ unsized_param.FINE_0;
endmodule
