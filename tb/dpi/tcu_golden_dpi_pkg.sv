// The golden model's C API (bindings/c/include/tcu_golden.h) imported into
// SystemVerilog over DPI-C: chandle for the opaque handles, string for
// spellings and messages, longint unsigned for registers. Link the
// simulation with libtcu_golden (pkg-config --libs tcu-golden).
//
// The constants mirror the header's enums (fixed within its major version).
package tcu_golden_dpi_pkg;

  // ---- tcu_status -----------------------------------------------------------
  localparam int TCU_OK             = 0;
  localparam int TCU_ERROR_ARGUMENT = 1;
  localparam int TCU_ERROR_INSTR    = 2;
  localparam int TCU_ERROR_OPERAND  = 3;
  localparam int TCU_ERROR_FP_ENV   = 4;
  localparam int TCU_ERROR_INTERNAL = 5;

  // ---- tcu_operand (also the router's in_word_op_i code) --------------------
  localparam int TCU_OPERAND_A       = 0;
  localparam int TCU_OPERAND_B       = 1;
  localparam int TCU_OPERAND_C       = 2;
  localparam int TCU_OPERAND_D       = 3;
  localparam int TCU_OPERAND_META    = 4;
  localparam int TCU_OPERAND_SCALE_A = 5;
  localparam int TCU_OPERAND_SCALE_B = 6;

  // ---- tcu_family (rtl/tcu_pkg.sv family_e has the same order) --------------
  localparam int TCU_FAMILY_INT4_DENSE  = 0;
  localparam int TCU_FAMILY_INT4_SPARSE = 1;
  localparam int TCU_FAMILY_F16         = 2;
  localparam int TCU_FAMILY_F64         = 3;
  localparam int TCU_FAMILY_E2M1        = 4;

  // ---- tcu_elem_type --------------------------------------------------------
  localparam int TCU_TYPE_S4 = 0;
  localparam int TCU_TYPE_U4 = 1;
  localparam int TCU_TYPE_F16 = 3;
  localparam int TCU_TYPE_F32 = 4;
  localparam int TCU_TYPE_F64 = 5;

  // ---- tcu_field (tcu_instr_field) ------------------------------------------
  localparam int TCU_FIELD_FAMILY           = 0;
  localparam int TCU_FIELD_M                = 1;
  localparam int TCU_FIELD_N                = 2;
  localparam int TCU_FIELD_K                = 3;
  localparam int TCU_FIELD_BATCHES          = 4;
  localparam int TCU_FIELD_A_TYPE           = 5;
  localparam int TCU_FIELD_B_TYPE           = 6;
  localparam int TCU_FIELD_C_TYPE           = 7;
  localparam int TCU_FIELD_D_TYPE           = 8;
  localparam int TCU_FIELD_A_ROW            = 9;
  localparam int TCU_FIELD_B_ROW            = 10;
  localparam int TCU_FIELD_SATFINITE        = 11;
  localparam int TCU_FIELD_ROUNDING         = 12;
  localparam int TCU_FIELD_ORDERED_METADATA = 13;
  localparam int TCU_FIELD_SCALE_VEC        = 14;
  localparam int TCU_FIELD_SCALE_TYPE       = 15;
  localparam int TCU_FIELD_MXF4NVF4         = 16;

  // ---- version and errors ---------------------------------------------------
  import "DPI-C" function string tcu_golden_version();
  import "DPI-C" function int tcu_golden_version_number();
  import "DPI-C" function string tcu_last_error();
  import "DPI-C" function string tcu_status_name(input int status);

  // ---- instructions ---------------------------------------------------------
  import "DPI-C" function int tcu_instr_parse(input string ptx, output chandle instr);
  import "DPI-C" function void tcu_instr_free(input chandle instr);
  import "DPI-C" function string tcu_instr_ptx(input chandle instr);
  import "DPI-C" function int tcu_variant_count();
  import "DPI-C" function string tcu_variant_ptx(input int index);
  import "DPI-C" function int tcu_instr_field(input chandle instr, input int field);
  import "DPI-C" function int tcu_operand_regs(input chandle instr, input int operand);
  import "DPI-C" function int tcu_operand_reg_bits(input chandle instr, input int operand);
  import "DPI-C" function int tcu_sparse_nibble_legal(input int unsigned nibble, input int ordered);

  // ---- a warp: source registers in, D out -----------------------------------
  import "DPI-C" function int tcu_warp_create(input chandle instr, output chandle warp);
  import "DPI-C" function void tcu_warp_free(input chandle warp);
  import "DPI-C" function int tcu_warp_clear(input chandle warp);
  import "DPI-C" function int tcu_warp_set_reg(input chandle warp, input int operand,
                                               input int lane, input int register_index,
                                               input longint unsigned value);
  import "DPI-C" function int tcu_warp_set_selectors(input chandle warp, input int sparsity,
                                                     input int byte_id_a, input int thread_id_a,
                                                     input int byte_id_b, input int thread_id_b);
  import "DPI-C" function int tcu_warp_execute(input chandle warp);
  import "DPI-C" function int tcu_warp_get_d(input chandle warp, input int lane,
                                             input int register_index,
                                             output longint unsigned value);

  // A status that is not TCU_OK stops the simulation with the library's
  // message.
  function automatic void tcu_check(input int status, input string what);
    if (status != TCU_OK)
      $fatal(1, "%s: %s: %s", what, tcu_status_name(status), tcu_last_error());
  endfunction

endpackage
