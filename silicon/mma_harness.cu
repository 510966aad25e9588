// Silicon harness: records register-level mma test vectors on a real NVIDIA GPU.
//
// Every lane fills its own source registers with generated values, executes one
// PTX mma instruction through inline asm, and stores its destination registers.
// No fragment-layout tables are used anywhere: the hardware alone decides which
// register holds which matrix element. Output is JSON Lines in the format of
// shared/vectors/README.md (keys id, ptx, [sel], a, b, c, [e], d; registers as
// "0x" + 8 or 16 lower-case hex digits, lanes 0..31, registers in PTX operand order).
//
// Build:  nvcc -O2 -std=c++17 -arch=sm_90a -o mma_harness mma_harness.cu
// Run:    ./mma_harness OUT.jsonl [CASES=256] [SEED=1]
//         (or --out OUT.jsonl --cases N --seed S; --list prints the variants)
//
// Variants the device cannot run (compute capability too low, or the block-scaled
// e2m1 variants that need sm_120a) are reported as skipped, never a failure.
//
// Inputs are deterministic from the seed: case c of variant v draws from a PRNG
// seeded with (seed, v, c), so changing the case count keeps earlier cases.

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------
// Kernels. One warp (one block of 32 threads) per case. Each kernel takes
// per-lane register arrays laid out [case][lane][reg].
// ---------------------------------------------------------------------------

typedef void (*kernel_t)(const void *, const void *, const void *, const uint32_t *,
                         const uint32_t *, const uint32_t *, void *);

#define LANE_T (size_t(blockIdx.x) * 32 + threadIdx.x)
#define KSIG                                                                               \
  const void *A_, const void *B_, const void *C_, const uint32_t *E_, const uint32_t *SA_, \
      const uint32_t *SB_, void *D_

// dense int4 m16n8k64: A 4 x b32, B 2 x b32, C/D 4 x s32
#define K_I16864(NAME, PTX, SEL)                                                                \
  __global__ void NAME(KSIG) {                                                                  \
    size_t t = LANE_T;                                                                          \
    const uint32_t *a = (const uint32_t *)A_ + t * 4;                                           \
    const uint32_t *b = (const uint32_t *)B_ + t * 2;                                           \
    const uint32_t *c = (const uint32_t *)C_ + t * 4;                                           \
    uint32_t *d = (uint32_t *)D_ + t * 4;                                                       \
    uint32_t d0, d1, d2, d3;                                                                    \
    asm volatile(PTX                                                                            \
                 " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "                                     \
                 "{%10,%11,%12,%13};\n"                                                         \
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                       \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), \
                   "r"(c[1]), "r"(c[2]), "r"(c[3]));                                            \
    d[0] = d0;                                                                                  \
    d[1] = d1;                                                                                  \
    d[2] = d2;                                                                                  \
    d[3] = d3;                                                                                  \
  }

// dense int4 m8n8k32: A 1 x b32, B 1 x b32, C/D 2 x s32
#define K_I8832(NAME, PTX, SEL)                                 \
  __global__ void NAME(KSIG) {                                  \
    size_t t = LANE_T;                                          \
    const uint32_t *a = (const uint32_t *)A_ + t;               \
    const uint32_t *b = (const uint32_t *)B_ + t;               \
    const uint32_t *c = (const uint32_t *)C_ + t * 2;           \
    uint32_t *d = (uint32_t *)D_ + t * 2;                       \
    uint32_t d0, d1;                                            \
    asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%4,%5};\n"         \
                 : "=r"(d0), "=r"(d1)                           \
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])); \
    d[0] = d0;                                                  \
    d[1] = d1;                                                  \
  }

// sparse int4 m16n8k64: A 2 x b32, B 2 x b32, C/D 4 x s32, metadata 1 x b32,
// sparsity selector as an immediate.
#define K_SP16864(NAME, PTX, SEL)                                                               \
  __global__ void NAME(KSIG) {                                                                  \
    size_t t = LANE_T;                                                                          \
    const uint32_t *a = (const uint32_t *)A_ + t * 2;                                           \
    const uint32_t *b = (const uint32_t *)B_ + t * 2;                                           \
    const uint32_t *c = (const uint32_t *)C_ + t * 4;                                           \
    uint32_t e = E_[t];                                                                         \
    uint32_t *d = (uint32_t *)D_ + t * 4;                                                       \
    uint32_t d0, d1, d2, d3;                                                                    \
    asm volatile(PTX                                                                            \
                 " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, "                          \
                 "%12, " #SEL ";\n"                                                             \
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                       \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), \
                   "r"(c[3]), "r"(e));                                                          \
    d[0] = d0;                                                                                  \
    d[1] = d1;                                                                                  \
    d[2] = d2;                                                                                  \
    d[3] = d3;                                                                                  \
  }

// m8n8k4 f16 inputs: A 2 x f16x2, B 2 x f16x2; C/D f16: 4 x f16x2, f32: 8 x f32
#define K_F16_HH(NAME, PTX, SEL)                                                                \
  __global__ void NAME(KSIG) {                                                                  \
    size_t t = LANE_T;                                                                          \
    const uint32_t *a = (const uint32_t *)A_ + t * 2;                                           \
    const uint32_t *b = (const uint32_t *)B_ + t * 2;                                           \
    const uint32_t *c = (const uint32_t *)C_ + t * 4;                                           \
    uint32_t *d = (uint32_t *)D_ + t * 4;                                                       \
    uint32_t d0, d1, d2, d3;                                                                    \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};\n"                     \
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                       \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), \
                   "r"(c[3]));                                                                  \
    d[0] = d0;                                                                                  \
    d[1] = d1;                                                                                  \
    d[2] = d2;                                                                                  \
    d[3] = d3;                                                                                  \
  }

#define K_F16_FH(NAME, PTX, SEL)                                                                \
  __global__ void NAME(KSIG) {                                                                  \
    size_t t = LANE_T;                                                                          \
    const uint32_t *a = (const uint32_t *)A_ + t * 2;                                           \
    const uint32_t *b = (const uint32_t *)B_ + t * 2;                                           \
    const uint32_t *c = (const uint32_t *)C_ + t * 4;                                           \
    uint32_t *d = (uint32_t *)D_ + t * 8;                                                       \
    float r[8];                                                                                 \
    asm volatile(PTX                                                                            \
                 " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "                             \
                 "{%12,%13,%14,%15};\n"                                                         \
                 : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3]), "=f"(r[4]), "=f"(r[5]),      \
                   "=f"(r[6]), "=f"(r[7])                                                       \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), \
                   "r"(c[3]));                                                                  \
    for (int i = 0; i < 8; ++i) d[i] = __float_as_uint(r[i]);                                   \
  }

#define K_F16_FF(NAME, PTX, SEL)                                                           \
  __global__ void NAME(KSIG) {                                                             \
    size_t t = LANE_T;                                                                     \
    const uint32_t *a = (const uint32_t *)A_ + t * 2;                                      \
    const uint32_t *b = (const uint32_t *)B_ + t * 2;                                      \
    const uint32_t *c = (const uint32_t *)C_ + t * 8;                                      \
    uint32_t *d = (uint32_t *)D_ + t * 8;                                                  \
    float r[8];                                                                            \
    asm volatile(PTX                                                                       \
                 " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "                        \
                 "{%12,%13,%14,%15,%16,%17,%18,%19};\n"                                    \
                 : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3]), "=f"(r[4]), "=f"(r[5]), \
                   "=f"(r[6]), "=f"(r[7])                                                  \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(__uint_as_float(c[0])), \
                   "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])),                 \
                   "f"(__uint_as_float(c[3])), "f"(__uint_as_float(c[4])),                 \
                   "f"(__uint_as_float(c[5])), "f"(__uint_as_float(c[6])),                 \
                   "f"(__uint_as_float(c[7])));                                            \
    for (int i = 0; i < 8; ++i) d[i] = __float_as_uint(r[i]);                              \
  }

// m8n8k4 f64: A 1 x f64, B 1 x f64, C/D 2 x f64 (moved as raw 64-bit patterns)
#define K_F64(NAME, PTX, SEL)                                             \
  __global__ void NAME(KSIG) {                                            \
    size_t t = LANE_T;                                                    \
    const unsigned long long *a = (const unsigned long long *)A_ + t;     \
    const unsigned long long *b = (const unsigned long long *)B_ + t;     \
    const unsigned long long *c = (const unsigned long long *)C_ + t * 2; \
    unsigned long long *d = (unsigned long long *)D_ + t * 2;             \
    unsigned long long d0, d1;                                            \
    asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%4,%5};\n"                   \
                 : "=l"(d0), "=l"(d1)                                     \
                 : "l"(a[0]), "l"(b[0]), "l"(c[0]), "l"(c[1]));           \
    d[0] = d0;                                                            \
    d[1] = d1;                                                            \
  }

// Block-scaled e2m1 m16n8k64 (sm_120a only). A 4 x b32, B 2 x b32, C/D 4 x f32,
// one scale register each for A and B, selectors as immediates. SEL is a
// 4-digit tag: byte_id_a thread_id_a byte_id_b thread_id_b.
#if defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL)
#define HARNESS_E2M1_ASM 1
#endif
template <int BA, int TA, int BB, int TB, int KIND>
__global__ void k_e2m1(KSIG) {
#ifdef HARNESS_E2M1_ASM
  size_t t = LANE_T;
  const uint32_t *a = (const uint32_t *)A_ + t * 4;
  const uint32_t *b = (const uint32_t *)B_ + t * 2;
  const uint32_t *c = (const uint32_t *)C_ + t * 4;
  uint32_t *d = (uint32_t *)D_ + t * 4;
  uint32_t sa = SA_[t], sb = SB_[t];
  float r[4];
  if (KIND == 0) {
    asm volatile(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X"
        ".f32.e2m1.e2m1.f32.ue8m0 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13}, %14, {%16, %17}, %15, {%18, %19};\n"
        : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])),
          "f"(__uint_as_float(c[3])), "r"(sa), "r"(sb), "n"(BA), "n"(TA), "n"(BB), "n"(TB));
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X"
        ".f32.e2m1.e2m1.f32.ue4m3 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13}, %14, {%16, %17}, %15, {%18, %19};\n"
        : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])),
          "f"(__uint_as_float(c[3])), "r"(sa), "r"(sb), "n"(BA), "n"(TA), "n"(BB), "n"(TB));
  }
  for (int i = 0; i < 4; ++i) d[i] = __float_as_uint(r[i]);
#else
  __trap();  // never launched: the host checks for sm_120a first
#endif
}

// ---------------------------------------------------------------------------
// Variant list. X(kernel name, shape macro, sparsity selector, PTX spelling).
// The variant index (position in this list, from 1) is part of each case id and
// of the PRNG seed, so only append to this list.
// ---------------------------------------------------------------------------

enum Shape { I16864, I8832, SP16864, F16_HH, F16_FH, F16_FF, F64, E2M1 };

#define INT_VARIANTS(X, GEOM, SHAPE, PFX)                                                \
  X(PFX##_ss, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.s32.s4.s4.s32")               \
  X(PFX##_uu, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.s32.u4.u4.s32")               \
  X(PFX##_su, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.s32.s4.u4.s32")               \
  X(PFX##_us, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.s32.u4.s4.s32")               \
  X(PFX##_sat_ss, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.satfinite.s32.s4.s4.s32") \
  X(PFX##_sat_uu, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.satfinite.s32.u4.u4.s32") \
  X(PFX##_sat_su, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.satfinite.s32.s4.u4.s32") \
  X(PFX##_sat_us, SHAPE, 0, "mma.sync.aligned." GEOM ".row.col.satfinite.s32.u4.s4.s32")

#define SP_VARIANTS(X, SP, PFX, SEL)                                                         \
  X(PFX##_ss, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")               \
  X(PFX##_uu, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.s32.u4.u4.s32")               \
  X(PFX##_su, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.s32.s4.u4.s32")               \
  X(PFX##_us, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.s32.u4.s4.s32")               \
  X(PFX##_sat_ss, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32") \
  X(PFX##_sat_uu, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32") \
  X(PFX##_sat_su, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.satfinite.s32.s4.u4.s32") \
  X(PFX##_sat_us, SP16864, SEL, SP ".sync.aligned.m16n8k64.row.col.satfinite.s32.u4.s4.s32")

#define F16_LAYOUTS(X, SHAPE, PFX, TYPES)                        \
  X(PFX##_rc, SHAPE, 0, "mma.sync.aligned.m8n8k4.row.col" TYPES) \
  X(PFX##_rr, SHAPE, 0, "mma.sync.aligned.m8n8k4.row.row" TYPES) \
  X(PFX##_cc, SHAPE, 0, "mma.sync.aligned.m8n8k4.col.col" TYPES) \
  X(PFX##_cr, SHAPE, 0, "mma.sync.aligned.m8n8k4.col.row" TYPES)

#define ALL_VARIANTS(X)                                                     \
  INT_VARIANTS(X, "m16n8k64", I16864, k_i16864)                             \
  INT_VARIANTS(X, "m8n8k32", I8832, k_i8832)                                \
  SP_VARIANTS(X, "mma.sp::ordered_metadata", k_spo0, 0)                     \
  SP_VARIANTS(X, "mma.sp::ordered_metadata", k_spo1, 1)                     \
  SP_VARIANTS(X, "mma.sp", k_sp0, 0)                                        \
  SP_VARIANTS(X, "mma.sp", k_sp1, 1)                                        \
  F16_LAYOUTS(X, F16_HH, k_hh, ".f16.f16.f16.f16")                          \
  F16_LAYOUTS(X, F16_FH, k_fh, ".f32.f16.f16.f16")                          \
  F16_LAYOUTS(X, F16_FF, k_ff, ".f32.f16.f16.f32")                          \
  X(k_f64, F64, 0, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")       \
  X(k_f64_rn, F64, 0, "mma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64") \
  X(k_f64_rz, F64, 0, "mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64") \
  X(k_f64_rm, F64, 0, "mma.sync.aligned.m8n8k4.row.col.rm.f64.f64.f64.f64") \
  X(k_f64_rp, F64, 0, "mma.sync.aligned.m8n8k4.row.col.rp.f64.f64.f64.f64")

#define DEFINE_KERNEL(NAME, SHAPE, SEL, PTX) K_##SHAPE(NAME, PTX, SEL)
ALL_VARIANTS(DEFINE_KERNEL)

struct Variant {
  const char *ptx;
  Shape shape;
  int sel;
  kernel_t kernel;  // for E2M1: unused (selector-specific kernels below)
  int min_cc;       // 10*major + minor
  bool needs_sm120a;
};

// Lowest compute capability with the instruction: m8n8k4 f16 is sm_70; int4
// m8n8k32 sm_75; int4 m16n8k64, sparse int4 and m8n8k4 f64 sm_80.
constexpr int min_cc_of(Shape s) {
  return (s == F16_HH || s == F16_FH || s == F16_FF) ? 70 : s == I8832 ? 75 : s == E2M1 ? 120 : 80;
}

// clang-format off
#define TABLE_ENTRY(NAME, SHAPE, SEL, PTX) {PTX, SHAPE, SEL, NAME, min_cc_of(SHAPE), false},
static const Variant kVariants[] = {
  ALL_VARIANTS(TABLE_ENTRY)
  {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0",
   E2M1, 0, nullptr, 120, true},
  {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3",
   E2M1, 1, nullptr, 120, true},
};
// clang-format on
static const int kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// Selector sets for the e2m1 variants: {byte_id_a, thread_id_a, byte_id_b, thread_id_b}.
struct E2m1Sel {
  int ba, ta, bb, tb;
  kernel_t k;
};
static const E2m1Sel kSel2X[] = {{0, 0, 0, 0, k_e2m1<0, 0, 0, 0, 0>},
                                 {2, 1, 2, 3, k_e2m1<2, 1, 2, 3, 0>},
                                 {0, 1, 2, 2, k_e2m1<0, 1, 2, 2, 0>},
                                 {2, 0, 0, 1, k_e2m1<2, 0, 0, 1, 0>}};
static const E2m1Sel kSel4X[] = {{0, 0, 0, 0, k_e2m1<0, 0, 0, 0, 1>},
                                 {0, 1, 0, 3, k_e2m1<0, 1, 0, 3, 1>},
                                 {0, 0, 0, 2, k_e2m1<0, 0, 0, 2, 1>},
                                 {0, 1, 0, 1, k_e2m1<0, 1, 0, 1, 1>}};

__global__ void probe_sm120a(int *flag) {
#ifdef HARNESS_E2M1_ASM
  *flag = 1;
#else
  *flag = 0;
#endif
}

struct ShapeInfo {
  int na, nb, nc, nd;
  bool wide;
  bool meta;
  bool scales;
};
static ShapeInfo shape_info(Shape s) {
  switch (s) {
    case I16864:
      return {4, 2, 4, 4, false, false, false};
    case I8832:
      return {1, 1, 2, 2, false, false, false};
    case SP16864:
      return {2, 2, 4, 4, false, true, false};
    case F16_HH:
      return {2, 2, 4, 4, false, false, false};
    case F16_FH:
      return {2, 2, 4, 8, false, false, false};
    case F16_FF:
      return {2, 2, 8, 8, false, false, false};
    case F64:
      return {1, 1, 2, 2, true, false, false};
    case E2M1:
      return {4, 2, 4, 4, false, false, true};
  }
  return {0, 0, 0, 0, false, false, false};
}

// ---------------------------------------------------------------------------
// Deterministic PRNG (splitmix64-seeded xoshiro256**).
// ---------------------------------------------------------------------------

static uint64_t splitmix(uint64_t &x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Rng {
  uint64_t s[4];
  Rng(uint64_t seed, uint64_t v, uint64_t c) {
    uint64_t x = seed * 0x100000001b3ull ^ (v << 40) ^ c;
    x = splitmix(x) ^ seed;
    for (int i = 0; i < 4; ++i) s[i] = splitmix(x);
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
  }
  uint32_t u32() { return uint32_t(next() >> 32); }
  uint32_t below(uint32_t n) { return uint32_t((next() >> 32) * n >> 32); }
  int range(int lo, int hi) { return lo + int(below(uint32_t(hi - lo + 1))); }  // inclusive
  bool chance(int num, int den) { return below(den) < uint32_t(num); }
};

// ---------------------------------------------------------------------------
// Integer (s4/u4, s32) generation.
// ---------------------------------------------------------------------------

enum IntMode { IM_RANDOM, IM_EXTREME, IM_PUSH_UP, IM_PUSH_DOWN, IM_SMALL, IM_SPARSE, IM_COUNT };

// Nibble that gives the largest positive / most negative product for the operand.
static int push_nibble(bool up, bool is_a, bool as, bool bs) {
  if (up) {
    if (as && bs) return 0x8;                // -8 * -8 = 64
    if (as && !bs) return is_a ? 0x7 : 0xF;  // 7 * 15 = 105
    if (!as && bs) return is_a ? 0xF : 0x7;  // 15 * 7 = 105
    return 0xF;                              // 15 * 15 = 225
  }
  if (as && bs) return is_a ? 0x7 : 0x8;   // 7 * -8 = -56
  if (as && !bs) return is_a ? 0x8 : 0xF;  // -8 * 15 = -120
  if (!as && bs) return is_a ? 0xF : 0x8;  // 15 * -8 = -120
  return is_a ? 0xF : 0x0;                 // u4*u4 cannot go negative: zero products
}

static uint32_t gen_int4_reg(Rng &r, int mode, bool is_a, bool as, bool bs) {
  static const int extreme[4] = {0x0, 0x7, 0x8, 0xF};
  static const int small[5] = {0x0, 0x1, 0xF, 0x1, 0x2};
  int m = mode;
  if (m == IM_RANDOM) m = r.chance(1, 2) ? IM_RANDOM : int(r.below(IM_COUNT));  // mix within a case
  uint32_t w = 0;
  for (int i = 0; i < 8; ++i) {
    int n;
    switch (m) {
      case IM_EXTREME:
        n = extreme[r.below(4)];
        break;
      case IM_PUSH_UP:
      case IM_PUSH_DOWN:
        n = r.chance(7, 8) ? push_nibble(m == IM_PUSH_UP, is_a, as, bs) : int(r.below(16));
        break;
      case IM_SMALL:
        n = small[r.below(5)];
        break;
      case IM_SPARSE:
        n = r.chance(3, 4) ? 0 : int(r.below(16));
        break;
      default:
        n = int(r.below(16));
        break;
    }
    w |= uint32_t(n) << (4 * i);
  }
  return w;
}

enum CMode { CM_NEAR_MAX, CM_NEAR_MIN, CM_RANDOM, CM_SMALL, CM_ZERO, CM_MIXED };
static uint32_t gen_s32(Rng &r, int cm) {
  if (cm == CM_MIXED) {
    static const int pick[8] = {CM_NEAR_MAX, CM_NEAR_MAX, CM_NEAR_MIN, CM_NEAR_MIN,
                                CM_RANDOM,   CM_RANDOM,   CM_SMALL,    CM_ZERO};
    cm = pick[r.below(8)];
  }
  switch (cm) {
    case CM_NEAR_MAX:
      return 0x7fffffffu - r.below(4096);
    case CM_NEAR_MIN:
      return 0x80000000u + r.below(4096);
    case CM_SMALL:
      return uint32_t(r.range(-5000, 5000));
    case CM_ZERO:
      return 0;
    default:
      return r.u32();
  }
}

static void gen_int_case(Rng &r, int cs, const Variant &v, const ShapeInfo &si, bool as, bool bs,
                         uint32_t *A, uint32_t *B, uint32_t *C) {
  int mode = cs % IM_COUNT;
  int cmode;
  switch (mode) {
    case IM_PUSH_UP:
      cmode = CM_NEAR_MAX;
      break;
    case IM_PUSH_DOWN:
      cmode = CM_NEAR_MIN;
      break;
    default: {
      static const int cms[5] = {CM_MIXED, CM_MIXED, CM_NEAR_MAX, CM_NEAR_MIN, CM_RANDOM};
      cmode = cms[(cs / IM_COUNT) % 5];
    }
  }
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < si.na; ++i) A[l * si.na + i] = gen_int4_reg(r, mode, true, as, bs);
    for (int i = 0; i < si.nb; ++i) B[l * si.nb + i] = gen_int4_reg(r, mode, false, as, bs);
    for (int i = 0; i < si.nc; ++i)
      C[l * si.nc + i] = gen_s32(r, (cmode != CM_MIXED && r.chance(1, 8)) ? CM_MIXED : cmode);
  }
  (void)v;
}

// Sparse metadata: each 4-bit nibble is a legal ordered pair (first < second).
static const uint32_t kMetaPat[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
static void gen_meta(Rng &r, int cs, uint32_t *E) {
  int mode = cs % 3;
  for (int l = 0; l < 32; ++l) {
    uint32_t w = 0;
    for (int i = 0; i < 8; ++i) {
      uint32_t p;
      if (mode == 0)
        p = kMetaPat[(cs + l + i) % 6];
      else if (mode == 1)
        p = kMetaPat[r.below(6)];
      else
        p = kMetaPat[(cs / 3 + l) % 6];
      w |= p << (4 * i);
    }
    E[l] = w;
  }
}

// ---------------------------------------------------------------------------
// IEEE binary formats (f16, f32, f64) generation, as raw bit patterns.
// ---------------------------------------------------------------------------

struct Fmt {
  int ebits, mbits;
};
static const Fmt kF16 = {5, 10}, kF32 = {8, 23}, kF64 = {11, 52};
static int bias(Fmt f) { return (1 << (f.ebits - 1)) - 1; }
static uint64_t emax_field(Fmt f) { return (1ull << f.ebits) - 1; }
static uint64_t mmask(Fmt f) { return (1ull << f.mbits) - 1; }
static uint64_t rand_bits(Rng &r, int n) {
  return n >= 64 ? r.next() : (r.next() & ((1ull << n) - 1));
}
static uint64_t pack(Fmt f, uint64_t sign, uint64_t efield, uint64_t mant) {
  return (sign << (f.ebits + f.mbits)) | (efield << f.mbits) | (mant & mmask(f));
}

enum Dist {
  D_MODERATE,
  D_ARBITRARY,
  D_SPECIAL,
  D_SPRINKLED,
  D_HEAVY,
  D_SMALLINT,
  D_TINY,
  D_HUGE,
  D_WIDE,
  D_MIX,
  D_COUNT
};

static uint64_t int_value(Fmt f, int n) {  // exact small integer
  if (n == 0) return 0;
  uint64_t s = n < 0;
  unsigned u = unsigned(n < 0 ? -n : n);
  int e = 31 - __builtin_clz(u);
  uint64_t mant = (uint64_t(u) - (1ull << e)) << (f.mbits - e);
  return pack(f, s, uint64_t(bias(f) + e), mant);
}

static uint64_t special(Rng &r, Fmt f) {
  uint64_t s = r.below(2);
  uint64_t top = 1ull << (f.mbits - 1);  // quiet bit
  switch (r.below(14)) {
    case 0:
      return pack(f, s, 0, 0);  // ±0
    case 1:
      return pack(f, s, emax_field(f), 0);  // ±Inf
    case 2:
      return pack(f, 0, emax_field(f), top);  // canonical qNaN
    case 3:
      return pack(f, s, emax_field(f), top | (rand_bits(r, f.mbits - 1) | 1));  // qNaN+payload
    case 4:
      return pack(f, s, emax_field(f), 1);  // sNaN, payload 1
    case 5:
      return pack(f, s, emax_field(f), (rand_bits(r, f.mbits - 1) | 1));  // sNaN+payload
    case 6:
      return pack(f, s, 0, 1);  // min subnormal
    case 7:
      return pack(f, s, 0, mmask(f));  // max subnormal
    case 8:
      return pack(f, s, 1, 0);  // min normal
    case 9:
      return pack(f, s, emax_field(f) - 1, mmask(f));  // max normal
    case 10:
      return pack(f, s, uint64_t(bias(f)), 0);  // ±1
    case 11:
      return pack(f, s, 0, rand_bits(r, f.mbits) | 1);  // random subnormal
    case 12:
      return pack(f, s, emax_field(f) - 1, rand_bits(r, f.mbits));  // near max
    default:
      return pack(f, s, emax_field(f), top | rand_bits(r, f.mbits - 1));  // any qNaN
  }
}

static uint64_t gen_float(Rng &r, Fmt f, int d) {
  if (d == D_MIX) {
    static const int pick[8] = {D_MODERATE,  D_MODERATE,  D_ARBITRARY, D_ARBITRARY,
                                D_SPRINKLED, D_SPRINKLED, D_SMALLINT,  D_WIDE};
    d = pick[r.below(8)];
  }
  uint64_t s = r.below(2);
  int b = bias(f);
  switch (d) {
    case D_MODERATE:
      return pack(f, s, uint64_t(b + r.range(-4, 4)), rand_bits(r, f.mbits));
    case D_WIDE: {
      int span = f.mbits + 8 < b ? f.mbits + 8 : b - 1;
      return pack(f, s, uint64_t(b + r.range(-span, span)), rand_bits(r, f.mbits));
    }
    case D_ARBITRARY:
      return pack(f, s, r.below(uint32_t(emax_field(f))), rand_bits(r, f.mbits));
    case D_SPECIAL:
      return special(r, f);
    case D_SPRINKLED:
      return r.chance(1, 6) ? special(r, f)
                            : pack(f, s, uint64_t(b + r.range(-4, 4)), rand_bits(r, f.mbits));
    case D_HEAVY:
      return r.chance(1, 3) ? special(r, f)
                            : pack(f, s, uint64_t(b + r.range(-4, 4)), rand_bits(r, f.mbits));
    case D_SMALLINT:
      return int_value(f, r.range(-8, 8));
    case D_TINY:
      return pack(f, s, r.below(4), rand_bits(r, f.mbits));
    case D_HUGE:
      return pack(f, s, emax_field(f) - 1 - r.below(4), rand_bits(r, f.mbits));
  }
  return 0;
}

// Step a finite value by k units in the last place of its magnitude.
static uint64_t ulp_step(Fmt f, uint64_t bits, int k) {
  uint64_t sign = bits >> (f.ebits + f.mbits) & 1, mag = bits & ~(1ull << (f.ebits + f.mbits));
  uint64_t maxmag = pack(f, 0, emax_field(f) - 1, mmask(f));
  int64_t m = int64_t(mag) + k;
  if (m < 0) {
    m = -m;
    sign ^= 1;
  }
  if (uint64_t(m) > maxmag) m = int64_t(maxmag);
  return (sign << (f.ebits + f.mbits)) | uint64_t(m);
}

static float h2f(uint16_t h) {
  __half_raw r;
  r.x = h;
  return __half2float(__half(r));
}
static uint16_t f2h(float x) {
  __half_raw r = __half_raw(__float2half_rn(x));
  return r.x;
}
static uint32_t f2b(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static double b2d(uint64_t u) {
  double x;
  memcpy(&x, &u, 8);
  return x;
}
static uint64_t d2b(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}

// Case modes for the floating-point variants. Each operand's elements are drawn
// independently per element; no layout knowledge is needed (cancellation cases
// make every A element / every B element alike, so every D element sees the same
// products).
enum FMode {
  FM_MIX,
  FM_MODERATE,
  FM_ARBITRARY,
  FM_SPECIALS,
  FM_SMALLINT,
  FM_CANCEL,
  FM_CANCEL_SIGNS,
  FM_OPPOSITE,
  FM_OVERFLOW,
  FM_SUBNORMAL,
  FM_COUNT
};

// Element generator state for one case.
struct FCase {
  int mode;
  int da, db, dc;  // distributions for the generic modes
  uint64_t x, y;   // base values for cancellation modes (in the input format)
};

static FCase plan_fcase(Rng &r, int cs, Fmt in) {
  FCase p{};
  p.mode = cs % FM_COUNT;
  static const int gen_d[9] = {D_MODERATE, D_ARBITRARY, D_SPRINKLED, D_SMALLINT, D_TINY,
                               D_HUGE,     D_WIDE,      D_SPECIAL,   D_MIX};
  switch (p.mode) {
    case FM_MIX:
      p.da = D_MIX;
      p.db = D_MIX;
      p.dc = D_MIX;
      if (r.chance(1, 3)) p.da = gen_d[r.below(9)];
      if (r.chance(1, 3)) p.db = gen_d[r.below(9)];
      if (r.chance(1, 3)) p.dc = gen_d[r.below(9)];
      break;
    case FM_MODERATE:
      p.da = p.db = p.dc = D_MODERATE;
      break;
    case FM_ARBITRARY:
      p.da = p.db = p.dc = D_ARBITRARY;
      break;
    case FM_SPECIALS:
      p.da = p.db = p.dc = D_HEAVY;
      break;
    case FM_SMALLINT:
      p.da = p.db = p.dc = D_SMALLINT;
      break;
    case FM_OVERFLOW:
      p.da = p.db = D_HUGE;
      p.dc = r.chance(1, 2) ? D_HUGE : D_MIX;
      break;
    case FM_SUBNORMAL:
      p.da = p.db = D_TINY;
      p.dc = r.chance(1, 2) ? D_TINY : D_ARBITRARY;
      break;
    default:
      p.da = p.db = p.dc = D_MODERATE;
      break;
  }
  // Base values for cancellation: moderate, full mantissa, random signs; the
  // exponent range is kept small so products are exact in f32 for f16 inputs.
  p.x = gen_float(r, in, D_MODERATE);
  p.y = gen_float(r, in, D_MODERATE);
  if (r.chance(1, 4)) {  // sometimes larger spread of magnitudes
    p.x = pack(in, r.below(2), uint64_t(bias(in) + r.range(-(bias(in) / 2), bias(in) / 2)),
               rand_bits(r, in.mbits));
  }
  return p;
}

// Perturb the low mantissa bits (opposite-sign near-equal products).
static uint64_t jitter(Rng &r, Fmt f, uint64_t v) {
  return v ^ rand_bits(r, f.mbits < 12 ? 3 : 8) ^ (uint64_t(r.below(2)) << (f.ebits + f.mbits));
}

static uint64_t gen_ab(Rng &r, const FCase &p, Fmt f, bool is_a) {
  switch (p.mode) {
    case FM_CANCEL:
      return is_a ? p.x : p.y;
    case FM_CANCEL_SIGNS:
      if (is_a) return p.x;
      return r.chance(1, 2) ? p.y : p.y ^ (1ull << (f.ebits + f.mbits));
    case FM_OPPOSITE:
      return jitter(r, f, is_a ? p.x : p.y);
    default:
      return gen_float(r, f, is_a ? p.da : p.db);
  }
}

// C element in format cf, given inputs in format in (f16 or f64).
static uint64_t gen_c(Rng &r, const FCase &p, Fmt in, Fmt cf) {
  switch (p.mode) {
    case FM_CANCEL: {
      // every D element is c + 4*x*y: c = -(4xy), possibly a few ulps off
      int k = r.chance(1, 3) ? 0 : r.range(-3, 3);
      uint64_t cb;
      if (in.mbits == 10) {
        float prod = 4.0f * h2f(uint16_t(p.x)) * h2f(uint16_t(p.y));  // exact in f32
        cb = (cf.mbits == 10) ? uint64_t(f2h(-prod)) : uint64_t(f2b(-prod));
      } else {
        double prod = 4.0 * b2d(p.x) * b2d(p.y);  // rounded: the residual shows the rounding
        if (r.chance(1, 2)) prod = std::fma(b2d(p.x), b2d(p.y), 3.0 * b2d(p.x) * b2d(p.y));
        cb = d2b(-prod);
      }
      return ulp_step(cf, cb, k);
    }
    case FM_CANCEL_SIGNS:
    case FM_OPPOSITE: {
      // sums of opposite-sign products; C small, zero, or cancelling one product
      switch (r.below(4)) {
        case 0:
          return pack(cf, r.below(2), 0, 0);
        case 1:
          return gen_float(r, cf, D_TINY);
        case 2: {
          if (in.mbits == 10) {
            float pr = h2f(uint16_t(p.x)) * h2f(uint16_t(p.y)) * (r.chance(1, 2) ? 2.0f : 1.0f);
            return (cf.mbits == 10) ? uint64_t(f2h(r.chance(1, 2) ? pr : -pr))
                                    : uint64_t(f2b(r.chance(1, 2) ? pr : -pr));
          }
          double pr = b2d(p.x) * b2d(p.y) * (r.chance(1, 2) ? 2.0 : 1.0);
          return d2b(r.chance(1, 2) ? pr : -pr);
        }
        default:
          return gen_float(r, cf, D_MODERATE);
      }
    }
    default:
      // For f32 C, sometimes use values that came from the f16 domain.
      if (cf.mbits == 23 && r.chance(1, 4)) {
        uint16_t h = uint16_t(gen_float(r, in, p.dc));
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))  // NaN: keep sign, quiet bit and payload
          return (uint32_t(h & 0x8000) << 16) | 0x7f800000u | (uint32_t(h & 0x3ff) << 13);
        return f2b(h2f(h));
      }
      return gen_float(r, cf, p.dc);
  }
}

// ---------------------------------------------------------------------------
// e2m1 (sm_120a) generation.
// ---------------------------------------------------------------------------

static void gen_e2m1_case(Rng &r, int cs, bool x4, uint32_t *A, uint32_t *B, uint32_t *C,
                          uint32_t *SA, uint32_t *SB) {
  int mode = cs % 4;  // 0 dense random, 1 sparse, 2 all +-1, 3 all +-6
  auto nib = [&]() -> uint32_t {
    switch (mode) {
      case 1:
        return r.chance(3, 4) ? (r.below(2) << 3) : r.below(16);
      case 2:
        return 0x2 | (r.below(2) << 3);
      case 3:
        return 0x7 | (r.below(2) << 3);
      default:
        return r.below(16);
    }
  };
  auto reg = [&]() {
    uint32_t w = 0;
    for (int i = 0; i < 8; ++i) w |= nib() << (4 * i);
    return w;
  };
  auto scale = [&]() -> uint32_t {
    uint32_t w = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t s;
      if (!x4) {  // ue8m0
        static const uint32_t ext[5] = {0, 1, 253, 254, 127};
        s = r.chance(1, 8) ? ext[r.below(5)]
                           : (r.chance(1, 6) ? r.range(100, 160) : r.range(124, 130));
      } else {  // ue4m3, bit 7 clear
        s = r.chance(1, 8) ? r.below(8) : (r.chance(1, 8) ? 0x7e : 0x38 + r.range(-8, 8));
      }
      w |= (s & 0xff) << (8 * i);
    }
    return w;
  };
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < 4; ++i) A[l * 4 + i] = reg();
    for (int i = 0; i < 2; ++i) B[l * 2 + i] = reg();
    for (int i = 0; i < 4; ++i) {
      uint64_t c =
          r.chance(1, 4) ? 0 : gen_float(r, kF32, r.chance(1, 6) ? D_SPRINKLED : D_MODERATE);
      if ((c & 0x7f800000u) == 0x7f800000u && !(c & 0x7fffff)) c = 0;  // no Inf C
      C[l * 4 + i] = uint32_t(c);
    }
    SA[l] = scale();
    SB[l] = scale();
  }
}

// ---------------------------------------------------------------------------
// Driver.
// ---------------------------------------------------------------------------

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    exit(2);
  }
}

static void put_regs(FILE *o, const char *key, const void *base, int nregs, bool wide) {
  fprintf(o, ",\"%s\":[", key);
  for (int l = 0; l < 32; ++l) {
    fputs(l ? ",[" : "[", o);
    for (int i = 0; i < nregs; ++i) {
      if (i) fputc(',', o);
      if (wide)
        fprintf(o, "\"0x%016" PRIx64 "\"", ((const uint64_t *)base)[l * nregs + i]);
      else
        fprintf(o, "\"0x%08" PRIx32 "\"", ((const uint32_t *)base)[l * nregs + i]);
    }
    fputc(']', o);
  }
  fputc(']', o);
}

static void put_lane_words(FILE *o, const char *key, const uint32_t *w) {
  fprintf(o, ",\"%s\":[", key);
  for (int l = 0; l < 32; ++l) fprintf(o, "%s\"0x%08" PRIx32 "\"", l ? "," : "", w[l]);
  fputc(']', o);
}

static bool signed_a(const char *ptx) { return strstr(ptx, ".s32.s4.") != nullptr; }
static bool signed_b(const char *ptx) {
  const char *p = strstr(ptx, ".s32.");
  return p && strncmp(p + 7, ".s4", 3) == 0;  // ".s32.xx" then ".s4"
}

static void usage() {
  fprintf(
      stderr,
      "usage: mma_harness OUT.jsonl [CASES=256] [SEED=1]\n"
      "       mma_harness --out OUT.jsonl [--cases N] [--seed S] [--only SUBSTR] [--list]\n"
      "  --only SUBSTR  run only variants whose PTX contains SUBSTR\n"
      "  --dry-run      no GPU: generate inputs, write d as zeros (checks the generator only)\n");
}

int main(int argc, char **argv) {
  const char *out = nullptr;
  long cases = 256;
  unsigned long long seed = 1;
  const char *only = nullptr;
  bool list = false, dry = false;
  int pos = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> const char * {
      if (i + 1 >= argc) {
        usage();
        exit(1);
      }
      return argv[++i];
    };
    if (a == "--out" || a == "-o")
      out = val();
    else if (a == "--cases" || a == "-n")
      cases = strtol(val(), nullptr, 0);
    else if (a == "--seed" || a == "-s")
      seed = strtoull(val(), nullptr, 0);
    else if (a == "--only")
      only = val();
    else if (a == "--list")
      list = true;
    else if (a == "--dry-run")
      dry = true;
    else if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else if (pos == 0) {
      out = argv[i];
      ++pos;
    } else if (pos == 1) {
      cases = strtol(argv[i], nullptr, 0);
      ++pos;
    } else if (pos == 2) {
      seed = strtoull(argv[i], nullptr, 0);
      ++pos;
    } else {
      usage();
      return 1;
    }
  }
  if (list) {
    for (int v = 0; v < kNumVariants; ++v)
      printf("%d %s%s\n", v + 1, kVariants[v].ptx,
             kVariants[v].shape == SP16864 ? (kVariants[v].sel ? " (sel 1)" : " (sel 0)") : "");
    return 0;
  }
  if (!out || cases <= 0) {
    usage();
    return 1;
  }

  int cc = 90, sm120a = 0;
  if (dry) {
    fprintf(stderr, "DRY RUN: no GPU used, d registers are zeros; do not use as vectors\n");
  } else {
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    cc = prop.major * 10 + prop.minor;
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    int *dflag;
    check(cudaMalloc(&dflag, sizeof(int)), "cudaMalloc");
    probe_sm120a<<<1, 1>>>(dflag);
    if (cudaDeviceSynchronize() == cudaSuccess)
      cudaMemcpy(&sm120a, dflag, sizeof(int), cudaMemcpyDeviceToHost);
    cudaGetLastError();
    cudaFree(dflag);
    fprintf(stderr, "device: %s, compute capability %d.%d, driver %d, runtime %d, e2m1 code %s\n",
            prop.name, prop.major, prop.minor, drv, rt, sm120a ? "present" : "absent");
  }
  fprintf(stderr, "cases per variant: %ld, seed: %llu\n", cases, seed);

  FILE *o = fopen(out, "w");
  if (!o) {
    perror(out);
    return 1;
  }

  int ran = 0, skipped = 0;
  long written = 0;
  for (int v = 0; v < kNumVariants; ++v) {
    const Variant &var = kVariants[v];
    if (only && !strstr(var.ptx, only)) continue;
    const ShapeInfo si = shape_info(var.shape);
    if (cc < var.min_cc || (var.needs_sm120a && (cc / 10 != 12 || !sm120a))) {
      fprintf(
          stderr,
          "variant %2d SKIPPED (not supported on this device: needs %s, device is sm_%d%s): %s\n",
          v + 1, var.needs_sm120a ? "sm_120a" : "a newer architecture", cc,
          var.needs_sm120a && cc / 10 == 12 && !sm120a ? ", binary built without sm_120a" : "",
          var.ptx);
      ++skipped;
      continue;
    }
    const size_t lanes = size_t(cases) * 32;
    const size_t esz = si.wide ? 8 : 4;
    std::vector<uint8_t> hA(lanes * si.na * esz), hB(lanes * si.nb * esz), hC(lanes * si.nc * esz),
        hD(lanes * si.nd * esz);
    std::vector<uint32_t> hE(lanes), hSA(lanes), hSB(lanes);
    std::vector<int> selidx(cases, 0);

    bool as = signed_a(var.ptx), bs = signed_b(var.ptx);
    for (long cs = 0; cs < cases; ++cs) {
      Rng r(seed, uint64_t(v + 1), uint64_t(cs));
      size_t l0 = size_t(cs) * 32;
      switch (var.shape) {
        case I16864:
        case I8832:
        case SP16864:
          gen_int_case(r, int(cs), var, si, as, bs, (uint32_t *)hA.data() + l0 * si.na,
                       (uint32_t *)hB.data() + l0 * si.nb, (uint32_t *)hC.data() + l0 * si.nc);
          if (si.meta) gen_meta(r, int(cs), hE.data() + l0);
          break;
        case F16_HH:
        case F16_FH:
        case F16_FF: {
          FCase p = plan_fcase(r, int(cs), kF16);
          uint32_t *A = (uint32_t *)hA.data() + l0 * si.na, *B = (uint32_t *)hB.data() + l0 * si.nb,
                   *C = (uint32_t *)hC.data() + l0 * si.nc;
          bool cf32 = var.shape == F16_FF;
          for (int l = 0; l < 32; ++l) {
            for (int i = 0; i < si.na; ++i)
              A[l * si.na + i] =
                  uint32_t(gen_ab(r, p, kF16, true)) | uint32_t(gen_ab(r, p, kF16, true)) << 16;
            for (int i = 0; i < si.nb; ++i)
              B[l * si.nb + i] =
                  uint32_t(gen_ab(r, p, kF16, false)) | uint32_t(gen_ab(r, p, kF16, false)) << 16;
            for (int i = 0; i < si.nc; ++i)
              C[l * si.nc + i] = cf32 ? uint32_t(gen_c(r, p, kF16, kF32))
                                      : uint32_t(gen_c(r, p, kF16, kF16)) |
                                            uint32_t(gen_c(r, p, kF16, kF16)) << 16;
          }
          break;
        }
        case F64: {
          FCase p = plan_fcase(r, int(cs), kF64);
          uint64_t *A = (uint64_t *)hA.data() + l0, *B = (uint64_t *)hB.data() + l0,
                   *C = (uint64_t *)hC.data() + l0 * 2;
          for (int l = 0; l < 32; ++l) {
            A[l] = gen_ab(r, p, kF64, true);
            B[l] = gen_ab(r, p, kF64, false);
            C[2 * l] = gen_c(r, p, kF64, kF64);
            C[2 * l + 1] = gen_c(r, p, kF64, kF64);
          }
          break;
        }
        case E2M1:
          selidx[cs] = int(cs % 4);
          gen_e2m1_case(r, int(cs), var.sel == 1, (uint32_t *)hA.data() + l0 * 4,
                        (uint32_t *)hB.data() + l0 * 2, (uint32_t *)hC.data() + l0 * 4,
                        hSA.data() + l0, hSB.data() + l0);
          break;
      }
    }

    if (!dry) {
      void *dA, *dB, *dC, *dD;
      uint32_t *dE, *dSA, *dSB;
      check(cudaMalloc(&dA, hA.size()), "cudaMalloc A");
      check(cudaMalloc(&dB, hB.size()), "cudaMalloc B");
      check(cudaMalloc(&dC, hC.size()), "cudaMalloc C");
      check(cudaMalloc(&dD, hD.size()), "cudaMalloc D");
      check(cudaMalloc(&dE, lanes * 4), "cudaMalloc E");
      check(cudaMalloc(&dSA, lanes * 4), "cudaMalloc SA");
      check(cudaMalloc(&dSB, lanes * 4), "cudaMalloc SB");
      check(cudaMemcpy(dA, hA.data(), hA.size(), cudaMemcpyHostToDevice), "copy A");
      check(cudaMemcpy(dB, hB.data(), hB.size(), cudaMemcpyHostToDevice), "copy B");
      check(cudaMemcpy(dC, hC.data(), hC.size(), cudaMemcpyHostToDevice), "copy C");
      check(cudaMemcpy(dE, hE.data(), lanes * 4, cudaMemcpyHostToDevice), "copy E");
      check(cudaMemcpy(dSA, hSA.data(), lanes * 4, cudaMemcpyHostToDevice), "copy SA");
      check(cudaMemcpy(dSB, hSB.data(), lanes * 4, cudaMemcpyHostToDevice), "copy SB");
      check(cudaMemset(dD, 0xA5, hD.size()), "memset D");

      if (var.shape == E2M1) {
        // one launch per case (the selectors are immediates)
        const E2m1Sel *sels = var.sel == 1 ? kSel4X : kSel2X;
        for (long cs = 0; cs < cases; ++cs) {
          size_t l0 = size_t(cs) * 32;
          sels[selidx[cs]].k<<<1, 32>>>(
              (const uint32_t *)dA + l0 * 4, (const uint32_t *)dB + l0 * 2,
              (const uint32_t *)dC + l0 * 4, dE, dSA + l0, dSB + l0, (uint32_t *)dD + l0 * 4);
        }
      } else {
        var.kernel<<<unsigned(cases), 32>>>(dA, dB, dC, dE, dSA, dSB, dD);
      }
      cudaError_t le = cudaGetLastError();
      if (le == cudaErrorNoKernelImageForDevice || le == cudaErrorInvalidDeviceFunction) {
        fprintf(stderr, "variant %2d SKIPPED (no code for this device in the binary: %s): %s\n",
                v + 1, cudaGetErrorString(le), var.ptx);
        cudaFree(dA);
        cudaFree(dB);
        cudaFree(dC);
        cudaFree(dD);
        cudaFree(dE);
        cudaFree(dSA);
        cudaFree(dSB);
        ++skipped;
        continue;
      }
      check(le, var.ptx);
      check(cudaDeviceSynchronize(), var.ptx);
      check(cudaMemcpy(hD.data(), dD, hD.size(), cudaMemcpyDeviceToHost), "copy D");
      cudaFree(dA);
      cudaFree(dB);
      cudaFree(dC);
      cudaFree(dD);
      cudaFree(dE);
      cudaFree(dSA);
      cudaFree(dSB);
    }

    for (long cs = 0; cs < cases; ++cs) {
      size_t l0 = size_t(cs) * 32;
      fprintf(o, "{\"id\":\"%d-%ld\",\"ptx\":\"%s\"", v + 1, cs, var.ptx);
      if (si.meta) fprintf(o, ",\"sel\":%d", var.sel);
      put_regs(o, "a", hA.data() + l0 * si.na * esz, si.na, si.wide);
      put_regs(o, "b", hB.data() + l0 * si.nb * esz, si.nb, si.wide);
      put_regs(o, "c", hC.data() + l0 * si.nc * esz, si.nc, si.wide);
      if (si.meta) put_lane_words(o, "e", hE.data() + l0);
      if (si.scales) {
        put_lane_words(o, "scale_a", hSA.data() + l0);
        put_lane_words(o, "scale_b", hSB.data() + l0);
        const E2m1Sel &s = (var.sel == 1 ? kSel4X : kSel2X)[selidx[cs]];
        fprintf(o, ",\"byte_id_a\":%d,\"thread_id_a\":%d,\"byte_id_b\":%d,\"thread_id_b\":%d", s.ba,
                s.ta, s.bb, s.tb);
      }
      put_regs(o, "d", hD.data() + l0 * si.nd * esz, si.nd, si.wide);
      fputs("}\n", o);
      ++written;
    }
    fprintf(stderr, "variant %2d ran %ld cases: %s%s\n", v + 1, cases, var.ptx,
            var.shape == SP16864 ? (var.sel ? " (sel 1)" : " (sel 0)") : "");
    ++ran;
  }
  if (fclose(o) != 0) {
    perror(out);
    return 1;
  }
  fprintf(stderr, "done: %d variants run, %d skipped, %ld cases written to %s\n", ran, skipped,
          written, out);
  return 0;
}
