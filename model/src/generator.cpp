#include "tcu/generator.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include "tcu/xoshiro.h"

#include "tcu/encodings.h"

namespace tcu {
namespace {

// splitmix64: a good seed from (seed, variant, index).
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool same_variant(const Instr& a, const Instr& b) {
  return a.family == b.family && a.shape == b.shape && a.a_layout == b.a_layout &&
         a.b_layout == b.b_layout && a.a_type == b.a_type && a.b_type == b.b_type &&
         a.c_type == b.c_type && a.d_type == b.d_type && a.satfinite == b.satfinite &&
         a.rounding == b.rounding && a.explicit_rounding == b.explicit_rounding &&
         a.ordered_metadata == b.ordered_metadata && a.scale_vec == b.scale_vec &&
         a.explicit_scale_vec == b.explicit_scale_vec && a.mxf4nvf4 == b.mxf4nvf4 &&
         a.scale_type == b.scale_type;
}

// FNV-1a of the PTX spelling; the last variant's is kept (a run draws case
// after case of one variant, each needing it twice).
uint64_t variant_hash(const Instr& instr) {
  thread_local Instr last;
  thread_local uint64_t last_hash = 0;
  thread_local bool known = false;
  if (known && same_variant(instr, last)) return last_hash;
  uint64_t h = 1469598103934665603ull;
  for (char ch : instr.ptx()) h = (h ^ uint8_t(ch)) * 1099511628211ull;
  last = instr;
  last_hash = h;
  known = true;
  return h;
}

enum class Recipe { kModerate, kBits, kSpecials, kSmall };

class Source {
 public:
  explicit Source(uint64_t seed) : rng_(seed) {}
  uint64_t bits() { return rng_(); }
  // n <= 32 random bits, from a pool refilled 64 at a time (an int4 code
  // needs 4, not a whole draw).
  uint64_t take(int n) {
    if (pool_bits_ < n) {
      pool_ = rng_();
      pool_bits_ = 64;
    }
    const uint64_t v = pool_ & ((1ull << n) - 1);
    pool_ >>= n;
    pool_bits_ -= n;
    return v;
  }
  // Uniform in [0, n): the high word of a draw times n (Lemire's
  // multiply-shift, no division; its bias, n / 2^64, is as small as %'s).
  uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)rng_() * n >> 64); }
  bool chance(int percent) { return below(100) < uint64_t(percent); }
  Recipe recipe() { return static_cast<Recipe>(below(4)); }

  uint64_t f16(Recipe r) {
    static const uint16_t kSpecials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xfe55,
                                         0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff};
    switch (r) {
      case Recipe::kModerate:  // |x| in [2^-4, 2^4)
        return (bits() & 0x8000) | ((11 + below(8)) << 10) | (bits() & 0x3ff);
      case Recipe::kBits:
        return bits() & 0xffff;
      case Recipe::kSpecials:
        return chance(30) ? kSpecials[below(std::size(kSpecials))] : bits() & 0xffff;
      case Recipe::kSmall: {  // small integers -8..8, exact in f16
        static const uint16_t kInts[] = {0x0000, 0x3c00, 0x4000, 0x4200, 0x4400,
                                         0x4500, 0x4600, 0x4700, 0x4800};
        return (bits() & 0x8000) | kInts[below(9)];
      }
    }
    return 0;
  }
  uint64_t f32(Recipe r) {
    static const uint32_t kSpecials[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                         0x7fc00000, 0x7fa00001, 0x00000001, 0x007fffff,
                                         0x00800000, 0x7f7fffff, 0xff7fffff};
    switch (r) {
      case Recipe::kModerate:
        return (bits() & 0x80000000) | ((123 + below(8)) << 23) | (bits() & 0x7fffff);
      case Recipe::kBits:
        return bits() & 0xffffffff;
      case Recipe::kSpecials:
        return chance(30) ? kSpecials[below(std::size(kSpecials))] : bits() & 0xffffffff;
      case Recipe::kSmall:
        return (bits() & 0x80000000) | ((127 + below(4)) << 23);
    }
    return 0;
  }
  uint64_t f64(Recipe r) {
    static const uint64_t kSpecials[] = {
        0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
        0x7ff8000000000000, 0x7ff0000000000001, 0xfff4000000000abc, 0x0000000000000001,
        0x000fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff};
    switch (r) {
      case Recipe::kModerate:
        return (bits() & 0x8000000000000000ull) | ((1019 + below(8)) << 52) |
               (bits() & 0x000fffffffffffffull);
      case Recipe::kBits:
        return bits();
      case Recipe::kSpecials:
        return chance(30) ? kSpecials[below(std::size(kSpecials))] : bits();
      case Recipe::kSmall:
        return (bits() & 0x8000000000000000ull) | ((1023 + below(4)) << 52) | ((bits() & 7) << 49);
    }
    return 0;
  }
  // An s32 accumulator: near INT32_MAX, near INT32_MIN (within 4,000),
  // within 1,000 of zero, or any, a quarter each; one draw, its top two bits
  // choosing and its low 32 the value (a multiply-shift for the ranges), and
  // no branch.
  uint64_t s32_acc() {
    const uint64_t r = bits();
    const uint64_t low = r & 0xffffffff;
    const uint32_t options[4] = {uint32_t(INT32_MAX - int32_t(low * 4000 >> 32)),
                                 uint32_t(INT32_MIN + int32_t(low * 4000 >> 32)),
                                 uint32_t(int32_t(low * 2001 >> 32) - 1000), uint32_t(low)};
    return options[r >> 62];
  }

 private:
  Xoshiro256ss rng_;
  uint64_t pool_ = 0;
  int pool_bits_ = 0;
};

// `f` in `layout`'s shape, its storage kept (a run's operands reuse theirs
// case after case); its registers are all written next.
void shape(const FragmentLayout& layout, Fragment& f) {
  f.regs_per_lane = layout.regs_per_lane();
  f.regs.resize(size_t(kLanes) * size_t(layout.regs_per_lane()));
}

// The fill functions below draw from a copy of the caller's Source held in
// a local, stored back at the end: the registers they write are uint64_t
// as the generator's state is, and through the caller's Source every store
// to a register would make the compiler reload the state.

// Fills a fragment of `layout` register by register, each element
// fill_elem(source).
template <typename Fill>
void fill(const FragmentLayout& layout, Fragment& f, Source& src, Fill&& fill_elem) {
  shape(layout, f);
  const int bits = layout.elem_bits(), per_reg = layout.elems_per_reg();
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  Source local = src;
  for (uint64_t& reg : f.regs) {
    uint64_t v = 0;
    for (int e = 0; e < per_reg; ++e) v |= (fill_elem(local) & mask) << (e * bits);
    reg = v;
  }
  src = local;
}

// Every bit of every register random (elements of uniformly random codes).
void fill_random(const FragmentLayout& layout, Fragment& f, Source& src) {
  shape(layout, f);
  const int bits = layout.elem_bits() * layout.elems_per_reg();
  Source local = src;
  for (auto& reg : f.regs) reg = bits >= 64 ? local.bits() : local.take(bits);
  src = local;
}

// Eight int4 codes from one draw `r`, code i at bits 4i: `small`, 0, +1 or
// -1 from byte i (its multiply-shift to 0, 1 or 2, each 1/3 within 1/256);
// otherwise an edge from bits 2i and 2i + 1 (b1 b0: b1 * 8 + b0 * 7: 0, 7,
// -8 or -1). Eight codes at once: bytes in 16-bit lanes, bit pairs spread
// to nibbles; no branch and no loop per code.
uint64_t int4_codes(uint64_t r, bool small) {
  constexpr uint64_t kLanes16 = 0x00ff00ff00ff00ffull, kLow16 = 0x0001000100010001ull;
  if (small) {
    // Bytes 0, 2, 4, 6 and 1, 3, 5, 7 in 16-bit lanes, each times 3 (no
    // carry out of its lane), its top byte the third (0, 1 or 2).
    const uint64_t even = ((r & kLanes16) * 3 >> 8), odd = (((r >> 8) & kLanes16) * 3 >> 8);
    // Third t to a code: t & 1, and 0xf for t == 2.
    auto codes = [&](uint64_t t) {
      const uint64_t c = (t & kLow16) | ((t >> 1) & kLow16) * 0xf;  // a code a lane
      const uint64_t packed = (c | c >> 8) & 0x0000ffff0000ffffull;  // a code a byte
      return (packed | packed >> 16) & 0xffffffffull;
    };
    return codes(even) | codes(odd) << 4;
  }
  uint64_t x = r & 0xffff;  // bit pairs 0..7 to nibbles 0..7
  x = (x | x << 8) & 0x00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0full;
  x = (x | x << 2) & 0x33333333ull;
  return (x & 0x11111111ull) * 7 | ((x >> 1) & 0x11111111ull) << 3;
}

// int4 elements, eight to a draw (int4_codes), with no branch per element.
void fill_int4(const FragmentLayout& layout, Fragment& f, bool small, Source& src) {
  shape(layout, f);
  const int n = layout.elems_per_reg();
  Source local = src;
  for (auto& reg : f.regs) {
    uint64_t v = 0;
    for (int e = 0; e < n; e += 8) {
      const uint64_t codes = int4_codes(local.bits(), small);
      v |= (n - e >= 8 ? codes : codes & ((1ull << (4 * (n - e))) - 1)) << (4 * e);
    }
    reg = v;
  }
  src = local;
}

void junk_words(Source& src, Fragment& f) {
  f.regs_per_lane = 1;
  f.regs.resize(kLanes);
  Source local = src;
  for (auto& w : f.regs) w = local.bits() & 0xffffffff;
  src = local;
}

// No registers (an operand the instruction does not take).
void clear(Fragment& f) {
  f.regs_per_lane = 0;
  f.regs.clear();
}

// Sets every used element of `f` to value(batch, row, col).
// Elements in matrix order, each through the layout's table of register
// and bit offset (slot_of where `f` is not of the layout's shape).
template <typename Value>
void place_at(const FragmentLayout& layout, Fragment& f, Value&& value) {
  const int bits = layout.elem_bits();
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const bool by_table = f.regs_per_lane == layout.regs_per_lane() &&
                        f.regs.size() == size_t(kLanes * layout.regs_per_lane());
  int i = 0;
  for (int b = 0; b < layout.batches(); ++b)
    for (int r = 0; r < layout.rows(); ++r)
      for (int c = 0; c < layout.cols(); ++c, ++i) {
        uint64_t* reg;
        int shift;
        if (by_table) {
          reg = &f.regs[size_t(layout.reg_of_elem(i))];
          shift = layout.shift_of_elem(i);
        } else {
          const Slot s = layout.slot_of({b, r, c});
          reg = &f.at(s.lane, s.reg);
          shift = s.elem * bits;
        }
        *reg = (*reg & ~(mask << shift)) | ((value(b, r, c) & mask) << shift);
      }
}

// Overwrites the used elements of `f` (per `layout`) with `value(source)`,
// in matrix order.
template <typename Value>
void place(const FragmentLayout& layout, Fragment& f, Source& src, Value&& value) {
  Source local = src;
  place_at(layout, f, [&](int, int, int) { return value(local); });
  src = local;
}

void generate_random_operands(const Instr& in, uint64_t seed, uint64_t index, WarpOperands& w);

// Sparse metadata: per element two different indices of four, the pair
// uniform over the 12 ordered pairs (ordered metadata: over the 6 ascending
// ones), each element one pick from 16 random bits (Source::take) by the
// multiply-shift of Source::below (bias 4 / 65,536), with no branch per
// element; the elements then placed in matrix order. A pair is coded as
// the first index in bits 1:0 and the second in bits 3:2.
void place_metadata(const FragmentLayout& layout, Fragment& f, Source& src, bool ordered) {
  constexpr int kMax = 256;
  static constexpr uint8_t kPairs[12] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe,   // ascending
                                         0x1, 0x2, 0x3, 0x6, 0x7, 0xb};  // descending
  uint8_t values[kMax];
  const int count = layout.elem_count();
  if (count > kMax) throw std::logic_error("place_metadata: more than 256 elements");
  const uint64_t pairs = ordered ? 6 : 12;
  Source local = src;
  for (int n = 0; n < count; ++n) values[n] = kPairs[local.take(16) * pairs >> 16];
  src = local;
  int next = 0;
  place_at(layout, f, [&](int, int, int) { return uint64_t(values[next++]); });
}



// ---- directed cases ------------------------------------------------------
// One case in kDirectedEvery is built for a result the random recipes reach
// rarely or never (the functional coverage's bins, model/src/coverage.cpp):
// the random operands are made first (so the selectors, metadata and junk
// are as usual), then these elements are overwritten. Which target: the
// case index / kDirectedEvery, in turn.
constexpr uint64_t kDirectedEvery = 32;

void direct_f16(const Instr& in, uint64_t target, WarpOperands& w) {
  const auto& la = fragment_layout(in, Operand::kA);
  const auto& lb = fragment_layout(in, Operand::kB);
  const auto& lc = fragment_layout(in, Operand::kC);
  const bool c16 = in.c_type == ElemType::kF16;
  switch (target % 5) {
    case 0:  // -0 * B + -0: a zero of negative sign (f16 D)
      place_at(la, w.a, [](int, int, int) { return 0x8000; });
      place_at(lb, w.b, [](int, int, int) { return 0x3c00; });
      place_at(lc, w.c, [&](int, int, int) { return c16 ? 0x8000 : 0x80000000; });
      break;
    case 1:  // zero products, subnormal C: a subnormal D
      place_at(la, w.a, [](int, int, int) { return 0; });
      place_at(lc, w.c, [&](int, int, int) { return c16 ? 0x0001 : 0x00000001; });
      break;
    case 2:  // 65504 * 65504 x 4: past f16's range
      place_at(la, w.a, [](int, int, int) { return 0x7bff; });
      place_at(lb, w.b, [](int, int, int) { return 0x7bff; });
      break;
    case 3:  // one product -2^-28, C +0: a negative sum below f16's range
      place_at(la, w.a, [](int, int, int k) { return k == 0 ? 0x8400 : 0; });  // -2^-14
      place_at(lb, w.b, [](int, int, int) { return 0x0400; });                 // 2^-14
      place_at(lc, w.c, [](int, int, int) { return 0; });
      break;
    default:  // 1*1 + 2^-15*2^-15 rounds to 1 in fp32 (inexact), C -1: a
              // zero D whose exact value is 2^-30 (f32 D too, where no sum
              // underflows)
      place_at(la, w.a, [](int, int, int k) { return k == 0 ? 0x3c00 : k == 1 ? 0x0200 : 0; });
      place_at(lb, w.b, [](int, int k, int) { return k == 0 ? 0x3c00 : k == 1 ? 0x0200 : 0; });
      place_at(lc, w.c, [&](int, int, int) { return c16 ? 0xbc00 : 0xbf800000; });
      break;
  }
}

void direct_f64(const Instr& in, uint64_t target, WarpOperands& w) {
  const auto& la = fragment_layout(in, Operand::kA);
  const auto& lb = fragment_layout(in, Operand::kB);
  const auto& lc = fragment_layout(in, Operand::kC);
  constexpr uint64_t kOne = 0x3ff0000000000000ull, kSign = 0x8000000000000000ull;
  constexpr uint64_t kBig = 0x6974e718d7d7625aull;   // 1e200
  constexpr uint64_t kTiny = 0x1a70000000000000ull;  // 2^-600
  switch (target % 8) {
    case 0:  // -0 * 1 + -0
      place_at(la, w.a, [](int, int, int) { return kSign; });
      place_at(lb, w.b, [](int, int, int) { return kOne; });
      place_at(lc, w.c, [](int, int, int) { return kSign; });
      break;
    case 1:  // zero products, subnormal C
      place_at(la, w.a, [](int, int, int) { return 0; });
      place_at(lc, w.c, [](int, int, int) { return 1; });
      break;
    case 2:    // 1e200 * 1e200: positive overflow
    case 3: {  // and negative
      const uint64_t sign = target % 8 == 3 ? kSign : 0;
      place_at(la, w.a, [&](int, int, int) { return kBig | sign; });
      place_at(lb, w.b, [](int, int, int) { return kBig; });
      place_at(lc, w.c, [](int, int, int) { return 0; });
      break;
    }
    case 4:  // one product 2^-1200 (below the subnormals), the others zeros
             // of its sign: odd rows negative (.rn, .rz, .rp: -0), even rows
             // positive (.rn, .rz, .rm: +0)
      place_at(la, w.a, [&](int, int r, int k) {
        const uint64_t sign = r % 2 ? kSign : 0;
        return k == 0 ? kTiny | sign : sign;
      });
      place_at(lb, w.b, [](int, int, int) { return kTiny; });
      place_at(lc, w.c, [](int, int, int) { return 0; });
      break;
    case 5:  // 1 * 1 x 4 - 4: an exact zero from nonzero terms
      place_at(la, w.a, [](int, int, int) { return kOne; });
      place_at(lb, w.b, [](int, int, int) { return kOne; });
      place_at(lc, w.c, [](int, int, int) { return 0xc010000000000000ull; });  // -4
      break;
    case 6: {  // a*b - round(a*b): the product's rounding error, i*j*2^-104,
                // a sum whose leading one lies far below the operands'
      auto near_one = [=](int i) { return kOne + uint64_t(i + 1); };  // 1 + (i+1)*2^-52
      place_at(la, w.a, [&](int, int r, int k) { return k == 0 ? near_one(r) : 0; });
      place_at(lb, w.b, [&](int, int k, int c) { return k == 0 ? near_one(c) : 0; });
      place_at(lc, w.c, [&](int, int r, int c) {
        double a, b;
        const uint64_t ab[2] = {near_one(r), near_one(c)};
        std::memcpy(&a, &ab[0], 8);
        std::memcpy(&b, &ab[1], 8);
        const double product = -(a * b);  // rounded to nearest, even
        uint64_t bits;
        std::memcpy(&bits, &product, 8);
        return bits;
      });
      break;
    }
    default: {  // (1 + j*2^-52) + 2^-53 (j = row + col; odd rows negative): the
                // midpoint of two doubles in the first step, a tie in every mode
                // (the coverage's d.tie), in both directions
      constexpr uint64_t kHalfUlp = 0x3ca0000000000000ull;  // 2^-53
      auto sign = [=](int row) { return row % 2 ? kSign : 0; };
      place_at(la, w.a, [&](int, int r, int k) { return k == 0 ? kHalfUlp | sign(r) : 0; });
      place_at(lb, w.b, [](int, int, int) { return kOne; });
      place_at(lc, w.c, [&](int, int r, int c) { return (kOne + uint64_t(r + c)) | sign(r); });
      break;
    }
  }
}

void direct_int4(const Instr& in, uint64_t target, WarpOperands& w) {
  // C at INT32_MAX or INT32_MIN exactly (the random accumulators land
  // within 4,000 of the limits, on them rarely).
  const auto& lc = fragment_layout(in, Operand::kC);
  place_at(lc, w.c, [&](int, int, int) { return target % 2 ? 0x80000000u : 0x7fffffffu; });
}

void direct_e2m1(const Instr& in, uint64_t target, WarpOperands& w) {
  const auto& la = fragment_layout(in, Operand::kA);
  const auto& lb = fragment_layout(in, Operand::kB);
  const auto& lc = fragment_layout(in, Operand::kC);
  const bool ue8m0 = in.scale_type == ElemType::kUe8m0;
  const auto& lsa = fragment_layout(in, Operand::kScaleA, w.selectors);
  const auto& lsb = fragment_layout(in, Operand::kScaleB, w.selectors);
  switch (target % 8) {
    case 0:  // zero A, C +0 or subnormal (then the smallest scales, so
             // that C sets the sum's window; model/src/e2m1.cpp)
      place_at(la, w.a, [](int, int, int) { return 0; });
      place_at(lc, w.c, [&](int, int, int) { return (target / 8) % 2; });
      if ((target / 8) % 2) {
        place_at(lsa, w.scale_a, [](int, int, int) { return 0; });
        place_at(lsb, w.scale_b, [](int, int, int) { return 0; });
      }
      break;
    case 1:  // A 1.0, B +1.0 and -1.0 in turn, C +0: every sum cancels
      place_at(la, w.a, [](int, int, int) { return 2; });
      place_at(lb, w.b, [](int, int k, int) { return k % 2 ? 10 : 2; });
      place_at(lc, w.c, [](int, int, int) { return 0; });
      break;
    case 2:  // 6 * 6 at the largest scales (ue8m0 2^127: past f32's range)
      place_at(la, w.a, [](int, int, int) { return 7; });
      place_at(lb, w.b, [](int, int, int) { return 7; });
      place_at(lsa, w.scale_a, [&](int, int, int) { return ue8m0 ? 0xfe : 0x7e; });
      place_at(lsb, w.scale_b, [&](int, int, int) { return ue8m0 ? 0xfe : 0x7e; });
      break;
    case 3:  // one product 0.25 at scales 2^-127 and 2^0, C +0: subnormal
      place_at(la, w.a, [](int, int, int k) { return k == 0 ? 1 : 0; });
      place_at(lb, w.b, [](int, int, int) { return 1; });
      place_at(lc, w.c, [](int, int, int) { return 0; });
      place_at(lsa, w.scale_a, [&](int, int, int) { return ue8m0 ? 0x00 : 0x01; });
      place_at(lsb, w.scale_b, [&](int, int, int) { return ue8m0 ? 0x7f : 0x38; });
      break;
    case 4:  // ue8m0: 1*1*2^-113 + 0.5*0.5*2^-127 - 2^-113 = 2^-129, a
             // subnormal D from terms whose window lies above f32's
             // subnormal grid (ue4m3 scales cannot reach it: left random)
      if (!ue8m0) break;
      place_at(la, w.a, [](int, int, int k) { return k == 0 ? 2 : k == 32 ? 1 : 0; });
      place_at(lb, w.b, [](int, int k, int) { return k == 0 ? 2 : k == 32 ? 1 : 0; });
      place_at(lc, w.c, [](int, int, int) { return 0x87000000; });  // -2^-113
      place_at(lsa, w.scale_a, [](int, int, int block) { return block == 0 ? 14 : 0; });
      place_at(lsb, w.scale_b, [](int, int, int) { return 127; });
      break;
    case 5:  // C +Inf and -Inf (D = C unless a scale is NaN: the project's
             // reading, as IEEE adds a finite sum to an infinity; MMA-Sim,
             // the reference of these variants, refuses an infinite C),
             // against products of the other sign at the largest scales
             // (ue8m0: 36 * 2^254 per product, far past 2^128, so a C
             // taken as finite would give the products' infinity)
      place_at(la, w.a, [](int, int, int) { return 7; });
      place_at(lb, w.b, [](int, int k, int col) { return (k + col) % 2 ? 7 : 15; });
      place_at(lc, w.c, [](int, int row, int col) {
        return (row + col) % 2 ? 0xff800000u : 0x7f800000u;
      });
      place_at(lsa, w.scale_a, [&](int, int, int) { return ue8m0 ? 0xfe : 0x7e; });
      place_at(lsb, w.scale_b, [&](int, int, int) { return ue8m0 ? 0xfe : 0x7e; });
      break;
    case 7:  // 6*6 in group 0 at the large scales (ue8m0 2^10, ue4m3 448)
             // and C its negation, 0.5*0.5 in group 2 at the small ones
             // (2^-20, 2^-9): that term lies below the sum's 35-bit window
             // and is truncated away, so D is +0 though the exact sum is
             // not (2X: block 1 holds groups 2-3; 4X: block g is group g)
      place_at(la, w.a, [](int, int, int k) { return k == 0 ? 7 : k == 32 ? 1 : 0; });
      place_at(lb, w.b, [](int, int k, int) { return k == 0 ? 7 : k == 32 ? 1 : 0; });
      place_at(lc, w.c, [&](int, int, int) { return ue8m0 ? 0xcc100000u : 0xcadc8000u; });
      place_at(lsa, w.scale_a, [&](int, int, int block) {
        return ue8m0 ? (block == 0 ? 137 : 107) : (block == 0 ? 0x7e : block == 2 ? 0x01 : 0x38);
      });
      place_at(lsb, w.scale_b, [&](int, int block, int) {  // B's scales: blocks x n
        return ue8m0 ? (block == 0 ? 137 : 107) : (block == 0 ? 0x7e : block == 2 ? 0x01 : 0x38);
      });
      break;
    default:  // ue8m0: one product 1*1 at scales 2^-127 and 2^-28 (2^-155),
              // every block at those scales, C +0: the window's lsb is
              // 2^-161, so the sum is nonzero yet under f32's least
              // subnormal 2^-149, and D is +0. ue4m3 (whose scales cannot
              // get that small): A's scales all zero against B's largest
              // (448), C +0: every term is zero, D is +0.
      place_at(la, w.a, [&](int, int, int k) { return ue8m0 ? (k == 0 ? 2 : 0) : 7; });
      place_at(lb, w.b, [&](int, int k, int) { return ue8m0 ? (k == 0 ? 2 : 0) : 7; });
      place_at(lc, w.c, [](int, int, int) { return 0; });
      place_at(lsa, w.scale_a, [](int, int, int) { return 0; });
      place_at(lsb, w.scale_b, [&](int, int, int) { return ue8m0 ? 127 - 28 : 0x7e; });
      break;
  }
}

// With probability `rate`, one to four elements of `f` (at random places of
// `layout`) take encodings of classes drawn uniformly from `type`'s.
void sprinkle_classes(const FragmentLayout& layout, ElemType type, double rate, Source& src,
                      Fragment& f) {
  if (double(src.bits() >> 11) * 0x1p-53 >= rate) return;
  const uint64_t classes = encoding_classes(type).size();
  const int bits = layout.elem_bits();
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  for (uint64_t count = 1 + src.below(4); count > 0; --count) {
    const Slot s = layout.slot_of({int(src.below(uint64_t(layout.batches()))),
                                   int(src.below(uint64_t(layout.rows()))),
                                   int(src.below(uint64_t(layout.cols())))});
    const uint64_t v = encoding_of_class(type, int(src.below(classes)), src.bits());
    uint64_t& reg = f.at(s.lane, s.reg);
    reg = (reg & ~(mask << (s.elem * bits))) | ((v & mask) << (s.elem * bits));
  }
}

// Every operand's special classes, from a stream of its own (the random
// operands are the same at every rate).
void sprinkle_operands(const Instr& in, uint64_t seed, uint64_t index, double rate,
                       WarpOperands& w) {
  if (rate <= 0) return;
  Source src(mix(mix(seed ^ 0x5ca1ab1e0dd5eedull) ^ variant_hash(in)) ^ mix(index));
  sprinkle_classes(fragment_layout(in, Operand::kA), in.a_type, rate, src, w.a);
  sprinkle_classes(fragment_layout(in, Operand::kB), in.b_type, rate, src, w.b);
  sprinkle_classes(fragment_layout(in, Operand::kC), in.c_type, rate, src, w.c);
  if (!in.block_scaled()) return;
  sprinkle_classes(fragment_layout(in, Operand::kScaleA, w.selectors), in.scale_type, rate, src,
                   w.scale_a);
  sprinkle_classes(fragment_layout(in, Operand::kScaleB, w.selectors), in.scale_type, rate, src,
                   w.scale_b);
}

}  // namespace

void generate_operands(const Instr& in, uint64_t seed, uint64_t index, double special_rate,
                       WarpOperands* out) {
  WarpOperands& w = *out;
  generate_random_operands(in, seed, index, w);
  if (index % kDirectedEvery != kDirectedEvery - 1) {
    sprinkle_operands(in, seed, index, special_rate, w);
    return;
  }
  const uint64_t target = index / kDirectedEvery;
  switch (in.family) {
    case Family::kF16: direct_f16(in, target, w); break;
    case Family::kF64: direct_f64(in, target, w); break;
    case Family::kE2m1: direct_e2m1(in, target, w); break;
    default: direct_int4(in, target, w); break;
  }
}

WarpOperands generate_operands(const Instr& in, uint64_t seed, uint64_t index,
                               double special_rate) {
  WarpOperands w;
  generate_operands(in, seed, index, special_rate, &w);
  return w;
}

namespace {

void generate_random_operands(const Instr& in, uint64_t seed, uint64_t index, WarpOperands& w) {
  Source src(mix(mix(seed) ^ variant_hash(in)) ^ mix(index));
  w.selectors = Selectors{};
  const Recipe recipe = src.recipe();
  const auto& la = fragment_layout(in, Operand::kA);
  const auto& lb = fragment_layout(in, Operand::kB);
  const auto& lc = fragment_layout(in, Operand::kC);
  switch (in.family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse: {
      const bool uniform = recipe == Recipe::kModerate || recipe == Recipe::kBits;
      const bool small = recipe == Recipe::kSmall;
      uniform ? fill_random(la, w.a, src) : fill_int4(la, w.a, small, src);
      uniform ? fill_random(lb, w.b, src) : fill_int4(lb, w.b, small, src);
      fill(lc, w.c, src, [](Source& s) { return s.s32_acc(); });
      clear(w.scale_a);
      clear(w.scale_b);
      if (!in.sparse()) {
        clear(w.e);
        break;
      }
      w.selectors.sparsity = int(src.below(2));
      junk_words(src, w.e);
      place_metadata(fragment_layout(in, Operand::kMeta, w.selectors), w.e, src,
                     in.ordered_metadata);
      break;
    }
    case Family::kF16: {
      auto f16 = [recipe](Source& s) { return s.f16(recipe); };
      fill(la, w.a, src, f16);
      fill(lb, w.b, src, f16);
      if (in.c_type == ElemType::kF16)
        fill(lc, w.c, src, f16);
      else
        fill(lc, w.c, src, [recipe](Source& s) { return s.f32(recipe); });
      for (Fragment* f : {&w.e, &w.scale_a, &w.scale_b}) clear(*f);
      break;
    }
    case Family::kF64: {
      auto f64 = [recipe](Source& s) { return s.f64(recipe); };
      fill(la, w.a, src, f64);
      fill(lb, w.b, src, f64);
      fill(lc, w.c, src, f64);
      for (Fragment* f : {&w.e, &w.scale_a, &w.scale_b}) clear(*f);
      break;
    }
    case Family::kE2m1: {
      fill_random(la, w.a, src);
      fill_random(lb, w.b, src);
      // No infinite C (outside the reference numerics' domain).
      fill(lc, w.c, src, [recipe](Source& s) {
        uint64_t v = s.f32(recipe);
        return (v & 0x7fffffff) == 0x7f800000 ? v ^ 0x00000001 : v;
      });
      clear(w.e);
      const bool four_x = in.scale_vec == ScaleVec::k4X;
      Selectors& sel = w.selectors;
      sel.thread_id_a = int(src.below(2));
      sel.thread_id_b = int(src.below(4));
      sel.byte_id_a = four_x ? 0 : 2 * int(src.below(2));
      sel.byte_id_b = four_x ? 0 : 2 * int(src.below(2));
      auto scale = [four_x](Source& s) -> uint64_t {
        // Mostly near 2^0, some extremes; ue4m3 keeps bit 7 clear.
        const uint64_t near = four_x ? 0x30 + s.below(0x20) : 120 + s.below(16);
        const uint64_t any = four_x ? s.bits() & 0x7f : s.bits() & 0xff;
        return s.chance(80) ? near : any;
      };
      junk_words(src, w.scale_a);
      junk_words(src, w.scale_b);
      place(fragment_layout(in, Operand::kScaleA, sel), w.scale_a, src, scale);
      place(fragment_layout(in, Operand::kScaleB, sel), w.scale_b, src, scale);
      break;
    }
  }
}

}  // namespace
}  // namespace tcu
