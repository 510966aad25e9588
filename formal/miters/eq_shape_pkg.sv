// The shape of a placed word (tcu_frag_layout's outputs lo, hi, split and
// word for a word data of operand op that hits) that the two gather forms'
// writes rely on: A and B's two halves at lo and lo + 1 (lo even) or, split,
// lo + 4 (lo[2] = 0), inside the operand's port; C, metadata and scale words
// at an even lo inside theirs; A, B and C words as they came.
package eq_shape_pkg;
  function automatic logic shape_ok(logic [2:0] op, logic [8:0] lo, logic [8:0] hi, logic split,
                                    logic [31:0] word, logic [31:0] data);
    logic pair;
    pair = split ? !lo[2] && hi == lo + 9'd4 : !lo[0] && hi == lo + 9'd1;
    case (op)
      tcu_pkg::OP_A:                         shape_ok = !lo[8] && pair && word == data;
      tcu_pkg::OP_B:                         shape_ok = lo[8:7] == 2'b0 && pair && word == data;
      tcu_pkg::OP_C:                         shape_ok = !lo[0] && word == data;
      tcu_pkg::OP_META, tcu_pkg::OP_SCALE_A: shape_ok = lo[8:5] == 4'b0 && !lo[0];
      tcu_pkg::OP_SCALE_B:                   shape_ok = lo[8:4] == 5'b0 && !lo[0];
      default:                               shape_ok = 1'b1;
    endcase
  endfunction
endpackage
