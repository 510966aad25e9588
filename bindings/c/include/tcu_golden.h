/* tcu_golden.h: the tcu golden model (bit-exact PTX mma semantics and the
 * PTX fragment layouts) as a C library with a stable C API.
 *
 * Plain C (C99, or C89 with <stdint.h>), usable from C, C++ and, through
 * `import "DPI-C"`, SystemVerilog (tb/dpi/tcu_golden_dpi_pkg.sv). Every
 * handle is opaque; no C++ type or exception crosses this boundary. Every
 * function that can fail returns a tcu_status; on failure the calling
 * thread's last error (tcu_last_error()) says why, naming the argument.
 *
 * Registers: an operand's 32 lanes' registers are held as
 *   regs[lane * regs_per_lane + reg], 32-bit registers zero-extended to 64
 * bits (f64 registers use all 64). Matrices (matrix order):
 *   elems[(batch * rows + row) * cols + col], each element's bit pattern in
 * its low elem_bits bits. tcu_operand_info gives regs_per_lane, rows, ...
 *
 * Link: pkg-config --cflags --libs tcu-golden, or in CMake
 *   find_package(tcu-golden REQUIRED)  target_link_libraries(x tcu::golden)
 */
#ifndef TCU_GOLDEN_H
#define TCU_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ------------------------------------------------------------ */
/* The library's version (the project's VERSION file). The API is stable
 * within a major version: functions are only added, and the shared library's
 * SOVERSION is TCU_GOLDEN_VERSION_MAJOR. */
#define TCU_GOLDEN_VERSION_MAJOR 0
#define TCU_GOLDEN_VERSION_MINOR 1
#define TCU_GOLDEN_VERSION_PATCH 0
#define TCU_GOLDEN_VERSION_STRING "0.1.0"
/* The version of the library actually linked, e.g. "0.1.0". */
const char* tcu_golden_version(void);
/* Its major * 10000 + minor * 100 + patch. */
int tcu_golden_version_number(void);

/* ---- errors ------------------------------------------------------------- */
typedef enum tcu_status {
  TCU_OK = 0,
  TCU_ERROR_ARGUMENT = 1, /* a null pointer, an index or size out of range */
  TCU_ERROR_INSTR = 2,    /* a PTX spelling that is not an instruction in scope */
  TCU_ERROR_OPERAND = 3,  /* invalid sparse metadata, a selector out of range */
  TCU_ERROR_FP_ENV = 4,   /* flush-to-zero / denormals-are-zero is on (f16, f64) */
  TCU_ERROR_INTERNAL = 5  /* anything else (out of memory, ...) */
} tcu_status;

/* The calling thread's last error message ("" after a success). Valid until
 * the thread's next call into the library. */
const char* tcu_last_error(void);
/* A constant name for a status, e.g. "TCU_ERROR_INSTR". */
const char* tcu_status_name(int status);

/* ---- enumerations (values fixed for the API's major version) ----------- */
typedef enum tcu_operand {
  TCU_OPERAND_A = 0,
  TCU_OPERAND_B = 1,
  TCU_OPERAND_C = 2,
  TCU_OPERAND_D = 3,
  TCU_OPERAND_META = 4,    /* mma.sp metadata (one register per lane) */
  TCU_OPERAND_SCALE_A = 5, /* block scales (one register per lane) */
  TCU_OPERAND_SCALE_B = 6
} tcu_operand;

typedef enum tcu_family {
  TCU_FAMILY_INT4_DENSE = 0,  /* mma.m16n8k64 / m8n8k32 .s4/.u4 */
  TCU_FAMILY_INT4_SPARSE = 1, /* mma.sp[::ordered_metadata].m16n8k64 */
  TCU_FAMILY_F16 = 2,         /* mma.m8n8k4 .f16 (four quad-pair computations) */
  TCU_FAMILY_F64 = 3,         /* mma.m8n8k4 .f64 */
  TCU_FAMILY_E2M1 = 4         /* mma.m16n8k64 .kind::mxf4[nvf4] block-scaled */
} tcu_family;

typedef enum tcu_elem_type {
  TCU_TYPE_S4 = 0,
  TCU_TYPE_U4 = 1,
  TCU_TYPE_E2M1 = 2,
  TCU_TYPE_F16 = 3,
  TCU_TYPE_F32 = 4,
  TCU_TYPE_F64 = 5,
  TCU_TYPE_S32 = 6,
  TCU_TYPE_UE8M0 = 7,
  TCU_TYPE_UE4M3 = 8
} tcu_elem_type;

typedef enum tcu_rounding {
  TCU_ROUND_RN = 0,
  TCU_ROUND_RZ = 1,
  TCU_ROUND_RM = 2,
  TCU_ROUND_RP = 3
} tcu_rounding;

/* ---- instructions --------------------------------------------------------- */
typedef struct tcu_instr tcu_instr; /* opaque: a parsed instruction */

/* Parses a PTX spelling (what `tcu list` prints, with or without a trailing
 * ';'), e.g. "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64". On success
 * *out is a new handle (free it with tcu_instr_free); on failure *out is
 * NULL and tcu_last_error() names the offending part. */
tcu_status tcu_instr_parse(const char* ptx, tcu_instr** out);
void tcu_instr_free(tcu_instr* instr);
/* The canonical spelling; owned by the handle. */
const char* tcu_instr_ptx(const tcu_instr* instr);

/* Every legal instruction in scope, each once, in a fixed order. */
int tcu_variant_count(void);
/* Spelling of variant `index` (static storage), or NULL out of range. */
const char* tcu_variant_ptx(int index);

typedef struct tcu_instr_info {
  int family; /* tcu_family */
  int m, n, k;
  int batches;                        /* independent m x n x k computations (4 for m8n8k4 .f16) */
  int a_type, b_type, c_type, d_type; /* tcu_elem_type */
  int a_row, b_row;                   /* 1: .row, 0: .col */
  int satfinite;
  int rounding; /* tcu_rounding */
  int ordered_metadata;
  int scale_vec;  /* 0 (none), 2 (2X) or 4 (4X) */
  int scale_type; /* tcu_elem_type (e2m1 only) */
  int mxf4nvf4;   /* .kind::mxf4nvf4 */
} tcu_instr_info;
tcu_status tcu_instr_get_info(const tcu_instr* instr, tcu_instr_info* out);

/* One field of tcu_instr_info by number (for DPI-C, which passes no
 * structs); -1 for an unknown field or a NULL instr. */
typedef enum tcu_field {
  TCU_FIELD_FAMILY = 0,
  TCU_FIELD_M = 1,
  TCU_FIELD_N = 2,
  TCU_FIELD_K = 3,
  TCU_FIELD_BATCHES = 4,
  TCU_FIELD_A_TYPE = 5,
  TCU_FIELD_B_TYPE = 6,
  TCU_FIELD_C_TYPE = 7,
  TCU_FIELD_D_TYPE = 8,
  TCU_FIELD_A_ROW = 9,
  TCU_FIELD_B_ROW = 10,
  TCU_FIELD_SATFINITE = 11,
  TCU_FIELD_ROUNDING = 12,
  TCU_FIELD_ORDERED_METADATA = 13,
  TCU_FIELD_SCALE_VEC = 14,
  TCU_FIELD_SCALE_TYPE = 15,
  TCU_FIELD_MXF4NVF4 = 16
} tcu_field;
int tcu_instr_field(const tcu_instr* instr, int field);

/* The shape of one operand of an instruction. An operand the instruction
 * does not have (metadata of a dense instruction, scales outside e2m1) has
 * present = 0 and every other field 0. */
typedef struct tcu_operand_info {
  int present;
  int regs_per_lane; /* registers of each lane */
  int reg_bits;      /* 32 or 64 */
  int elems_per_reg;
  int elem_bits;
  int batches, rows, cols; /* the operand as a matrix */
} tcu_operand_info;
tcu_status tcu_operand_get_info(const tcu_instr* instr, int operand, tcu_operand_info* out);
/* Registers per lane of an operand (0 if the instruction has none). */
int tcu_operand_regs(const tcu_instr* instr, int operand);
/* Register width in bits (32 or 64; 0 if absent). */
int tcu_operand_reg_bits(const tcu_instr* instr, int operand);

/* ---- selectors (the instruction's immediates) ------------------------------ */
typedef struct tcu_selectors {
  int sparsity;               /* mma.sp sparsity selector: 0 or 1 */
  int byte_id_a, thread_id_a; /* e2m1 {byte-id, thread-id} of scale A */
  int byte_id_b, thread_id_b; /* of scale B */
} tcu_selectors;

/* ---- execution on the lanes' registers ----------------------------------- */
/* Source registers of all 32 lanes, each array as described at the top
 * (32 * regs_per_lane entries). e, scale_a and scale_b are read only by the
 * families that have them (32 entries each; NULL otherwise). */
typedef struct tcu_warp_regs {
  const uint64_t* a;
  const uint64_t* b;
  const uint64_t* c;
  const uint64_t* e;
  const uint64_t* scale_a;
  const uint64_t* scale_b;
  tcu_selectors selectors;
} tcu_warp_regs;

/* D's registers (32 * regs_per_lane of TCU_OPERAND_D entries; d_count must
 * be at least that). TCU_ERROR_OPERAND for invalid metadata or selectors. */
tcu_status tcu_execute(const tcu_instr* instr, const tcu_warp_regs* regs, uint64_t* d,
                       size_t d_count);
/* Checks selectors and sparse metadata only. */
tcu_status tcu_validate(const tcu_instr* instr, const tcu_warp_regs* regs);

/* ---- execution on matrices -------------------------------------------------- */
/* Matrix-order operands (tcu_operand_info gives each one's batches, rows,
 * cols; with selectors irrelevant for these shapes). meta holds one 4-bit
 * nibble per element (rows x k/8 chunks), scale_a/scale_b one scale byte per
 * element; NULL where the family has no such operand. */
typedef struct tcu_matrices {
  const uint64_t* a;
  const uint64_t* b;
  const uint64_t* c;
  const uint64_t* meta;
  const uint64_t* scale_a;
  const uint64_t* scale_b;
} tcu_matrices;
/* D in matrix order (batches * m * n elements at least). */
tcu_status tcu_mma(const tcu_instr* instr, const tcu_matrices* matrices, uint64_t* d,
                   size_t d_count);

/* ---- layouts ------------------------------------------------------------------ */
/* `selectors` may be NULL (all zero); they place metadata and scales. */
/* Lane registers (32 * regs_per_lane) -> matrix (batches * rows * cols). */
tcu_status tcu_regs_to_matrix(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                              const uint64_t* regs, size_t reg_count, uint64_t* elems,
                              size_t elem_count);
/* Matrix -> lane registers; registers no element lands in are 0. */
tcu_status tcu_matrix_to_regs(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                              const uint64_t* elems, size_t elem_count, uint64_t* regs,
                              size_t reg_count);
/* Where matrix element (batch, row, col) lives: lane, register, element. */
tcu_status tcu_layout_slot(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                           int batch, int row, int col, int* lane, int* reg, int* elem);
/* Which matrix element a slot holds; *holds = 0 for a slot that holds none
 * (then batch, row, col are -1). */
tcu_status tcu_layout_coord(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                            int lane, int reg, int elem, int* holds, int* batch, int* row,
                            int* col);

/* ---- a handle-held warp (for DPI-C and other callers without arrays) ------ */
/* Source and destination registers of one instruction, set and read one
 * register at a time. */
typedef struct tcu_warp tcu_warp;
tcu_status tcu_warp_create(const tcu_instr* instr, tcu_warp** out);
void tcu_warp_free(tcu_warp* warp);
/* Clears every register and selector. */
tcu_status tcu_warp_clear(tcu_warp* warp);
/* A source register (A, B, C, META, SCALE_A, SCALE_B). */
tcu_status tcu_warp_set_reg(tcu_warp* warp, int operand, int lane, int reg, uint64_t value);
tcu_status tcu_warp_set_selectors(tcu_warp* warp, int sparsity, int byte_id_a, int thread_id_a,
                                  int byte_id_b, int thread_id_b);
/* Runs the instruction on the registers set; the result stays in the warp. */
tcu_status tcu_warp_execute(tcu_warp* warp);
/* A D register of the last tcu_warp_execute. */
tcu_status tcu_warp_get_d(const tcu_warp* warp, int lane, int reg, uint64_t* value);

/* ---- small helpers ----------------------------------------------------------- */
/* 1 if a 4-bit sparse metadata nibble is legal (ordered: ::ordered_metadata). */
int tcu_sparse_nibble_legal(unsigned nibble, int ordered);

#ifdef __cplusplus
}
#endif

#endif /* TCU_GOLDEN_H */
