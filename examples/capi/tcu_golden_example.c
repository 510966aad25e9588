/* An example of the tcu golden model's C API (tcu_golden.h), in plain C:
 * an int4 m16n8k64 and an f64 m8n8k4, each run both on matrices and on the
 * 32 lanes' registers, checked against a computation by hand; then a bad
 * spelling and bad metadata, which must give clear errors.
 *
 * Build against an installed copy:
 *   cc tcu_golden_example.c $(pkg-config --cflags --libs tcu-golden)
 * or with CMake: find_package(tcu-golden), target_link_libraries(... tcu::golden).
 * Exit status 0 when every check passes. */
#include <stdio.h>
#include <string.h>

#include "tcu_golden.h"

static int failures = 0;

#define CHECK_OK(call)                                                                 \
  do {                                                                                 \
    tcu_status status_ = (call);                                                       \
    if (status_ != TCU_OK) {                                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, tcu_status_name(status_), \
              tcu_last_error());                                                       \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

/* A small pseudo-random generator, so the example needs nothing else. */
static uint32_t rng_state = 12345u;
static uint32_t next_random(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}

static int s4_value(uint64_t code) { return (int)(code & 7) - (int)(code & 8); }

/* int4 m16n8k64 .s4.s4, s32: D = A x B + C, by hand and by the library. */
static int int4_example(void) {
  enum { M = 16, N = 8, K = 64 };
  static uint64_t a[M * K], b[K * N], c[M * N], d[M * N], d_regs_matrix[M * N];
  static uint64_t a_regs[32 * 4], b_regs[32 * 2], c_regs[32 * 4], d_regs[32 * 4];
  tcu_instr* instr = NULL;
  tcu_operand_info info;
  tcu_matrices matrices;
  tcu_warp_regs regs;
  int row, col, k, mismatches = 0;

  CHECK_OK(tcu_instr_parse("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", &instr));
  CHECK_OK(tcu_operand_get_info(instr, TCU_OPERAND_A, &info));
  printf("%s: A is %dx%d, %d registers a lane\n", tcu_instr_ptx(instr), info.rows, info.cols,
         info.regs_per_lane);
  for (k = 0; k < M * K; ++k) a[k] = next_random() & 0xf;
  for (k = 0; k < K * N; ++k) b[k] = next_random() & 0xf;
  for (k = 0; k < M * N; ++k) c[k] = (uint32_t)(next_random() % 2001) - 1000u;

  memset(&matrices, 0, sizeof matrices);
  matrices.a = a;
  matrices.b = b;
  matrices.c = c;
  CHECK_OK(tcu_mma(instr, &matrices, d, M * N));

  /* The same through the lanes' registers. */
  CHECK_OK(tcu_matrix_to_regs(instr, TCU_OPERAND_A, NULL, a, M * K, a_regs, 32 * 4));
  CHECK_OK(tcu_matrix_to_regs(instr, TCU_OPERAND_B, NULL, b, K * N, b_regs, 32 * 2));
  CHECK_OK(tcu_matrix_to_regs(instr, TCU_OPERAND_C, NULL, c, M * N, c_regs, 32 * 4));
  memset(&regs, 0, sizeof regs);
  regs.a = a_regs;
  regs.b = b_regs;
  regs.c = c_regs;
  CHECK_OK(tcu_execute(instr, &regs, d_regs, 32 * 4));
  CHECK_OK(tcu_regs_to_matrix(instr, TCU_OPERAND_D, NULL, d_regs, 32 * 4, d_regs_matrix, M * N));

  for (row = 0; row < M; ++row)
    for (col = 0; col < N; ++col) {
      int32_t sum = (int32_t)(uint32_t)c[row * N + col];
      for (k = 0; k < K; ++k) sum += s4_value(a[row * K + k]) * s4_value(b[k * N + col]);
      if ((uint32_t)sum != d[row * N + col] || d[row * N + col] != d_regs_matrix[row * N + col]) {
        if (mismatches++ < 5)
          fprintf(stderr, "int4 D[%d][%d]: by hand %d, tcu_mma %d, tcu_execute %d\n", row, col,
                  (int)sum, (int)(int32_t)d[row * N + col],
                  (int)(int32_t)d_regs_matrix[row * N + col]);
      }
    }
  printf("  D row 0: ");
  for (col = 0; col < N; ++col) printf("%d ", (int)(int32_t)d[col]);
  printf("\n  int4: %s (%d elements checked)\n", mismatches ? "FAIL" : "pass", M * N);
  tcu_instr_free(instr);
  failures += mismatches != 0;
  return 0;
}

static uint64_t f64_bits(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}

static double f64_value(uint64_t bits) {
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

/* f64 m8n8k4 with small integers (every sum exact): D = A x B + C. */
static int f64_example(void) {
  enum { M = 8, N = 8, K = 4 };
  uint64_t a[M * K], b[K * N], c[M * N], d[M * N];
  tcu_instr* instr = NULL;
  tcu_matrices matrices;
  int row, col, k, mismatches = 0;

  CHECK_OK(tcu_instr_parse("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", &instr));
  for (k = 0; k < M * K; ++k) a[k] = f64_bits((double)((int)(next_random() % 17) - 8));
  for (k = 0; k < K * N; ++k) b[k] = f64_bits((double)((int)(next_random() % 17) - 8) / 4);
  for (k = 0; k < M * N; ++k) c[k] = f64_bits((double)((int)(next_random() % 201) - 100));
  memset(&matrices, 0, sizeof matrices);
  matrices.a = a;
  matrices.b = b;
  matrices.c = c;
  CHECK_OK(tcu_mma(instr, &matrices, d, M * N));
  printf("%s:\n", tcu_instr_ptx(instr));
  for (row = 0; row < M; ++row) {
    printf("  D[%d] =", row);
    for (col = 0; col < N; ++col) {
      double sum = f64_value(c[row * N + col]);
      for (k = 0; k < K; ++k) sum += f64_value(a[row * K + k]) * f64_value(b[k * N + col]);
      printf(" %7.2f", f64_value(d[row * N + col]));
      if (f64_bits(sum) != d[row * N + col] && mismatches++ < 5)
        fprintf(stderr, "f64 D[%d][%d]: by hand %g, tcu_mma %g\n", row, col, sum,
                f64_value(d[row * N + col]));
    }
    printf("\n");
  }
  printf("  f64: %s (%d elements checked)\n", mismatches ? "FAIL" : "pass", M * N);
  tcu_instr_free(instr);
  failures += mismatches != 0;
  return 0;
}

/* Bad input gives a status and a message, never a crash. */
static int error_example(void) {
  tcu_instr* instr = NULL;
  tcu_warp* warp = NULL;
  tcu_status status = tcu_instr_parse("mma.sync.aligned.m16n8k64.row.col.s32.s4.s8.s32", &instr);
  printf("bad spelling: %s: %s\n", tcu_status_name(status), tcu_last_error());
  if (status != TCU_ERROR_INSTR || instr != NULL) ++failures;

  CHECK_OK(tcu_instr_parse("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
                           &instr));
  CHECK_OK(tcu_warp_create(instr, &warp));
  /* Metadata nibble 0x0 selects one element pair twice. */
  status = tcu_warp_execute(warp);
  printf("bad metadata: %s: %s\n", tcu_status_name(status), tcu_last_error());
  if (status != TCU_ERROR_OPERAND) ++failures;
  status = tcu_warp_set_reg(warp, TCU_OPERAND_A, 32, 0, 0);
  printf("bad lane: %s: %s\n", tcu_status_name(status), tcu_last_error());
  if (status != TCU_ERROR_ARGUMENT) ++failures;
  tcu_warp_free(warp);
  tcu_instr_free(instr);
  return 0;
}

int main(void) {
  printf("tcu golden model %s (header %s), %d variants\n", tcu_golden_version(),
         TCU_GOLDEN_VERSION_STRING, tcu_variant_count());
  if (strcmp(tcu_golden_version(), TCU_GOLDEN_VERSION_STRING) != 0) ++failures;
  if (int4_example() || f64_example() || error_example()) return 1;
  printf("%s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
