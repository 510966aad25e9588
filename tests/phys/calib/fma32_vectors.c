/* Random binary32 FMA vectors with C's fmaf (round to nearest even): one
 * line "A B C R" in hex per vector. Operands: mostly finite values with
 * exponents near 1.0 (so products and addends overlap and cancel), some
 * over the whole range, zeros, subnormals, infinities and NaNs.
 * usage: fma32_vectors N SEED */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;
static uint32_t next(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(state >> 32);
}

static uint32_t operand(void) {
  uint32_t r = next(), kind = next() % 16;
  if (kind < 10) return (r & 0x807fffffu) | ((uint32_t)(127 - 12 + next() % 24) << 23);
  if (kind < 13) return r;                                   /* any pattern */
  if (kind == 13) return r & 0x807fffffu;                    /* zero or subnormal */
  if (kind == 14) return (r & 0x80000000u) | 0x7f800000u;    /* infinity */
  return r & 0x8000ffffu ? (r | 0x7f800000u) : 0x7f800000u; /* mostly NaN */
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s N SEED\n", argv[0]);
    return 2;
  }
  long n = atol(argv[1]);
  state = strtoull(argv[2], NULL, 0);
  for (long i = 0; i < n; i++) {
    uint32_t a = operand(), b = operand(), c = operand(), r;
    float fa, fb, fc, fr;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    memcpy(&fc, &c, 4);
    fr = fmaf(fa, fb, fc);
    memcpy(&r, &fr, 4);
    printf("%08x %08x %08x %08x\n", a, b, c, r);
  }
  return 0;
}
