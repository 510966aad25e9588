#include "tcu/coverage.h"


#include "tcu/encodings.h"
#include "tcu/rounding_events.h"

namespace tcu {
namespace {

// ---- the bins, as data ------------------------------------------------------
// Operand and scale bins: "<position>.<class>" for every encoding class of
// the position's format (tcu/encodings.h), positions a, b, c, and scale_a,
// scale_b of block-scaled variants.
// The result's bins: D's classes and events, those the variant can reach.
// Left out, with the reason:
// - u4 x u4: the sum is never negative (no C + dot below INT32_MIN);
// - e2m1: every zero sum is +0 (MMA-Sim's semantics, model/src/e2m1.cpp);
//   with ue4m3 scales (at most 448) |A.B| stays under 2^29 and the sum is
//   truncated toward zero, so a finite C never becomes infinite;
// - f16 with an f32 D: the products are exact in f32 and summed from +0
//   (model/src/f16.cpp), so no -0, no overflow from finite operands, and
//   with an f16 C no subnormal (every nonzero term is a multiple of 2^-48);
// - f64 .rz: rounding toward zero never overflows to infinity.
// Rounding (tcu/rounding_events.h, per element with finite inputs, every
// step of its arithmetic evaluated exactly): d.exact (no step lost bits),
// d.inexact (one did), d.tie (a step's exact value was the midpoint of two
// neighbours in its format: round-half-even's case, and in .rz/.rm/.rp the
// half-ulp corner; each f64 variant is one mode, so its d.tie is the tie
// of that mode). e2m1 has no d.tie: D is the exact sum truncated toward
// zero (after a truncating alignment window), where a midpoint decides
// nothing; its d.exact/d.inexact say whether D equals the exact A.B+C.
// d.inexact_zero: an element of D is a zero whose exact value is not (a
// step underflowed to zero, or a sum cancelled after a rounded step), told
// apart from the cancellation bins, which any zero from nonzero inputs hits.
std::vector<const char*> result_bins(const Instr& instr) {
  if (instr.d_type == ElemType::kS32) {
    const bool unsigned_only = instr.a_type == ElemType::kU4 && instr.b_type == ElemType::kU4;
    std::vector<const char*> bins = {"d.in_range", instr.satfinite ? "d.clamp_high" : "d.wrap_high"};
    if (!unsigned_only) bins.push_back(instr.satfinite ? "d.clamp_low" : "d.wrap_low");
    return bins;
  }
  const bool e2m1 = instr.block_scaled();
  const bool f16_to_f32 = instr.family == Family::kF16 && instr.d_type == ElemType::kF32;
  std::vector<const char*> bins = {"d.pos_zero", "d.normal", "d.nan", "d.cancel_pos_zero"};
  if (!e2m1 && !f16_to_f32) bins.insert(bins.end(), {"d.neg_zero", "d.cancel_neg_zero"});
  if (!(f16_to_f32 && instr.c_type == ElemType::kF16)) bins.push_back("d.subnormal");
  bins.push_back("d.inf");
  const bool no_overflow = (e2m1 && instr.scale_type == ElemType::kUe4m3) || f16_to_f32 ||
                           (instr.family == Family::kF64 && instr.rounding == Rounding::kRz);
  if (!no_overflow) bins.push_back("d.overflow");
  bins.insert(bins.end(), {"d.exact", "d.inexact", "d.inexact_zero"});
  if (!e2m1) bins.push_back("d.tie");
  return bins;
}

constexpr int kFamilies = 5;

// ---- classifying ------------------------------------------------------------
struct FloatFormat {
  int exp_bits, man_bits;
};

FloatFormat float_format(ElemType type) {
  const NumberFormat& f = number_format(type);
  return {f.exp_bits, f.man_bits};
}

bool float_is_zero(uint64_t bits, FloatFormat f) {
  return (bits & ((uint64_t{1} << (f.man_bits + f.exp_bits)) - 1)) == 0;
}
bool float_is_special(uint64_t bits, FloatFormat f) {  // inf or NaN
  const uint64_t exp = (bits >> f.man_bits) & ((uint64_t{1} << f.exp_bits) - 1);
  return exp == (uint64_t{1} << f.exp_bits) - 1;
}

// Names hit by one instruction, each once (hits count instructions).
class HitSet {
 public:
  void add(std::string name) {
    for (const std::string& n : names_)
      if (n == name) return;
    names_.push_back(std::move(name));
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// "<operand>.<class>" for each class among the elements' encodings.
void classify_matrix(const char* operand, const Matrix& m, ElemType type, HitSet* hits) {
  uint32_t seen = 0;
  for (uint64_t e : m.elems) seen |= uint32_t{1} << classify_encoding(type, e);
  const std::vector<std::string>& names = encoding_classes(type);
  for (size_t i = 0; i < names.size(); ++i)
    if ((seen >> i) & 1) hits->add(std::string(operand) + "." + names[i]);
}

// int4: C + the exact dot, against the int32 range.
void classify_int_results(const Instr& instr, const Operands& ops, HitSet* hits) {
  const Matrix a = instr.sparse() ? sparse_expand(instr, ops.a, ops.meta) : ops.a;
  const bool a_signed = instr.a_type == ElemType::kS4, b_signed = instr.b_type == ElemType::kS4;
  const int k = instr.shape.k, n = instr.shape.n;
  for (int row = 0; row < instr.shape.m; ++row)
    for (int col = 0; col < n; ++col) {
      const int64_t dot =
          int4_dot(&a.elems[size_t(row) * k], &ops.b.elems[size_t(col)], k, a_signed, b_signed, n);
      const int64_t sum = int64_t(int32_t(uint32_t(ops.c.at(0, row, col)))) + dot;
      if (sum > INT32_MAX)
        hits->add(instr.satfinite ? "d.clamp_high" : "d.wrap_high");
      else if (sum < INT32_MIN)
        hits->add(instr.satfinite ? "d.clamp_low" : "d.wrap_low");
      else
        hits->add("d.in_range");
    }
}

// A product a_k * b_k that is neither zero nor special, for cancellation.
bool nonzero_product(uint64_t a, uint64_t b, ElemType type) {
  if (type == ElemType::kE2m1) return (a & 7) != 0 && (b & 7) != 0;
  const FloatFormat f = float_format(type);
  return !float_is_zero(a, f) && !float_is_zero(b, f) && !float_is_special(a, f) &&
         !float_is_special(b, f);
}

// d.exact, d.inexact, d.tie: each once if any element of D has the event.
void classify_rounding(const Instr& instr, const Operands& ops, const Matrix& d, HitSet* hits) {
  const RoundingSummary rounding = summarize_rounding(instr, ops, d);
  if (rounding.exact) hits->add("d.exact");
  if (rounding.inexact) hits->add("d.inexact");
  if (rounding.tie) hits->add("d.tie");
  if (rounding.inexact_zero) hits->add("d.inexact_zero");
}

void classify_float_results(const Instr& instr, const Operands& ops, const Matrix& d,
                            HitSet* hits) {
  const FloatFormat df = float_format(instr.d_type), cf = float_format(instr.c_type);
  bool special_input = false;
  for (const Matrix* m : {&ops.a, &ops.b})
    if (instr.a_type != ElemType::kE2m1)
      for (uint64_t e : m->elems) special_input |= float_is_special(e, float_format(instr.a_type));
  for (uint64_t e : ops.c.elems) special_input |= float_is_special(e, cf);
  const int k = instr.shape.k;
  for (int batch = 0; batch < d.batches; ++batch)
    for (int row = 0; row < d.rows; ++row)
      for (int col = 0; col < d.cols; ++col) {
        const uint64_t v = d.at(batch, row, col);
        // D's bins: infinities and NaNs each one bin, the largest finite
        // magnitude a normal.
        const std::string& cls = encoding_class_name(instr.d_type, v);
        if (cls == "pos_inf" || cls == "neg_inf") {
          hits->add("d.inf");
          if (!special_input) hits->add("d.overflow");
        } else if (cls == "qnan" || cls == "snan") {
          hits->add("d.nan");
        } else {
          hits->add("d." + (cls == "largest" ? std::string("normal") : cls));
        }
        if (!float_is_zero(v, df)) continue;
        bool nonzero = !float_is_zero(ops.c.at(batch, row, col), cf);
        for (int i = 0; i < k && !nonzero; ++i)
          nonzero = nonzero_product(ops.a.at(batch, row, i), ops.b.at(batch, i, col), instr.a_type);
        if (nonzero) hits->add(v == 0 ? "d.cancel_pos_zero" : "d.cancel_neg_zero");
      }
  classify_rounding(instr, ops, d, hits);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> coverage_bin_names(const Instr& instr) {
  std::vector<std::pair<std::string, std::string>> names;
  const std::pair<const char*, ElemType> operands[] = {
      {"a", instr.a_type}, {"b", instr.b_type}, {"c", instr.c_type}};
  for (const auto& [operand, type] : operands)
    for (const std::string& cls : encoding_classes(type))
      names.emplace_back(std::string(operand) + "." + cls, "operand");
  for (const char* bin : result_bins(instr)) names.emplace_back(bin, "result");
  if (instr.sparse()) {
    for (unsigned nibble = 0; nibble < 16; ++nibble)
      if (!sparse_meta_error(nibble, instr.ordered_metadata))
        names.emplace_back(std::string("meta.0x") + "0123456789abcdef"[nibble], "metadata");
    names.emplace_back("sel.0", "metadata");
    names.emplace_back("sel.1", "metadata");
  }
  if (instr.block_scaled())
    for (const char* operand : {"scale_a", "scale_b"})
      for (const std::string& cls : encoding_classes(instr.scale_type))
        names.emplace_back(std::string(operand) + "." + cls, "scale");
  return names;
}

FunctionalCoverage::FunctionalCoverage() {
  for (const Instr& instr : all_variants())
    for (const auto& [name, kind] : coverage_bin_names(instr)) {
      index_[{instr.ptx(), name}] = bins_.size();
      bins_.push_back({instr.ptx(), name, kind, 0, 0, ""});
    }
  for (int before = 0; before < kFamilies; ++before)
    for (int after = 0; after < kFamilies; ++after) {
      const std::string name = std::string("order.") + coverage_family_name(Family(before)) + "->" +
                               coverage_family_name(Family(after));
      index_[{"stream", name}] = bins_.size();
      bins_.push_back({"stream", name, "stream", 0, 0, ""});
    }
  for (const auto& [name, meaning] : register_file_bin_names()) {
    index_[{"regfile", name}] = bins_.size();
    bins_.push_back({"regfile", name, "regfile", 0, 0, ""});
  }
}

void FunctionalCoverage::hit(const std::string& group, const std::string& name,
                             uint64_t sampled) {
  const auto it = index_.find({group, name});
  if (it == index_.end()) return;
  CoverageBin& bin = bins_[it->second];
  if (bin.hits++ == 0) bin.first = sampled;
}

bool FunctionalCoverage::add(const std::string& group, const std::string& name, uint64_t hits,
                             uint64_t first) {
  const auto it = index_.find({group, name});
  if (it == index_.end()) return false;
  CoverageBin& bin = bins_[it->second];
  bin.hits += hits;
  // Merged parts: the soonest any of them needed.
  if (first != 0 && (bin.first == 0 || first < bin.first)) bin.first = first;
  return true;
}

void FunctionalCoverage::add_bin(const std::string& group, const std::string& name,
                                 const std::string& kind, uint64_t hits) {
  const auto it = index_.find({group, name});
  if (it != index_.end()) {
    bins_[it->second].hits += hits;
    return;
  }
  index_[{group, name}] = bins_.size();
  bins_.push_back({group, name, kind, hits, 0, ""});
}

bool FunctionalCoverage::waive(const std::string& group, const std::string& name,
                               const std::string& why) {
  const auto it = index_.find({group, name});
  if (it == index_.end()) return false;
  bins_[it->second].waiver = why;
  return true;
}

void FunctionalCoverage::sample(const Instr& instr, const WarpOperands& warp) {
  const Operands ops = gather_operands(instr, warp);
  HitSet hits;
  classify_matrix("a", ops.a, instr.a_type, &hits);
  classify_matrix("b", ops.b, instr.b_type, &hits);
  classify_matrix("c", ops.c, instr.c_type, &hits);
  if (instr.d_type == ElemType::kS32)
    classify_int_results(instr, ops, &hits);
  else
    classify_float_results(instr, ops, golden_mma(instr, ops), &hits);
  if (instr.sparse()) {
    for (uint64_t nibble : ops.meta.elems)
      hits.add(std::string("meta.0x") + "0123456789abcdef"[nibble & 0xf]);
    hits.add("sel." + std::to_string(warp.selectors.sparsity));
  }
  if (instr.block_scaled()) {
    classify_matrix("scale_a", ops.scale_a, instr.scale_type, &hits);
    classify_matrix("scale_b", ops.scale_b, instr.scale_type, &hits);
  }
  const std::string group = instr.ptx();
  const uint64_t sampled = ++sampled_[group];
  for (const std::string& name : hits.names()) hit(group, name, sampled);
}

void FunctionalCoverage::sample_order(const Instr& before, const Instr& after) {
  const uint64_t sampled = ++sampled_["stream"];
  hit("stream",
      std::string("order.") + coverage_family_name(before.family) + "->" +
          coverage_family_name(after.family),
      sampled);
}

}  // namespace tcu
