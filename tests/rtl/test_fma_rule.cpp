// tcu_pkg's FMA register rule (fma_cuts, fma_in_cut; docs/guide/physical.md,
// "Pipelines that buy clock"), evaluated through tests/rtl/fma_rule_probe.sv
// at every Stages 1..40, both formats, logic in front (InFo4) and behind
// (OutFo4) of several depths, against what the rule promises:
//   - a register at most at each of the 16 boundaries between the 17 steps
//     and at the input step's boundary (InFo4 > 0 only), the output keeping
//     at least one of the Stages registers;
//   - from 17 (FMA_STEPS) registers on every boundary between steps takes
//     one; the input step's from 18 on (at 17 the output would have none);
//   - below 17 the input step's boundary takes one when its depth, rounded
//     to the nearest multiple of total / Stages, is past 0 (2 InFo4 Stages
//     >= total), and no stage (the logic between two registers) is deeper
//     than 1.5 total / Stages plus the deepest step.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bitset>
#include <sstream>
#include <string>

#include "Vfma_rule_probe.h"
#include "verilated.h"

namespace {

constexpr unsigned kFmaSteps = 17;                  // tcu_pkg::FMA_STEPS, as documented
constexpr unsigned kBoundaries = kFmaSteps - 1;     // between two steps
constexpr unsigned kMaxStages = 40;

struct Rule {
  Vfma_rule_probe probe;

  unsigned weight(bool fp64, unsigned step) {
    probe.fp64_i = fp64;
    probe.step_i = step;
    probe.eval();
    return probe.step_fo4_o;
  }
  void eval(bool fp64, unsigned stages, unsigned in_fo4, unsigned out_fo4) {
    probe.fp64_i = fp64;
    probe.stages_i = stages;
    probe.in_fo4_i = in_fo4;
    probe.out_fo4_i = out_fo4;
    probe.eval();
  }
};

std::string where(bool fp64, unsigned stages, unsigned in_fo4, unsigned out_fo4, uint32_t cuts,
                  bool in_cut) {
  std::ostringstream s;
  s << (fp64 ? "FP64" : "FP32") << " Stages=" << stages << " InFo4=" << in_fo4
    << " OutFo4=" << out_fo4 << ": cuts " << std::bitset<kBoundaries>(cuts) << " input "
    << in_cut;
  return s.str();
}

}  // namespace

TEST_CASE("fma_cuts and fma_in_cut keep the register rule", "[fma_rule]") {
  Rule rule;
  for (bool fp64 : {false, true}) {
    unsigned w_max = 0, steps_total = 0;
    for (unsigned s = 0; s < kFmaSteps; ++s) {
      w_max = std::max(w_max, rule.weight(fp64, s));
      steps_total += rule.weight(fp64, s);
    }
    REQUIRE(w_max > 0);
    for (unsigned in_fo4 : {0u, 5u, 20u, 60u}) {
      for (unsigned out_fo4 : {0u, 15u}) {
        const unsigned total = steps_total + in_fo4 + out_fo4;
        for (unsigned stages = 1; stages <= kMaxStages; ++stages) {
          rule.eval(fp64, stages, in_fo4, out_fo4);
          const uint32_t cuts = rule.probe.cuts_o;
          const bool in_cut = rule.probe.in_cut_o;
          INFO(where(fp64, stages, in_fo4, out_fo4, cuts, in_cut));
          // Only boundaries between steps (the last step's is the output's).
          CHECK((cuts >> kBoundaries) == 0u);
          const unsigned taken = std::bitset<32>(cuts).count() + (in_cut ? 1 : 0);
          CHECK(taken + 1 <= stages);  // the output keeps one
          if (in_fo4 == 0) CHECK_FALSE(in_cut);
          if (stages >= kFmaSteps) {
            CHECK(cuts == (1u << kBoundaries) - 1);
            if (in_fo4 > 0) CHECK(in_cut == (stages > kFmaSteps));
            continue;
          }
          if (in_fo4 > 0) CHECK(in_cut == (stages >= 2 && 2 * in_fo4 * stages >= total));
          // Stage depths: the input step, then steps 0..16 (OutFo4 with the last).
          unsigned depth = in_fo4, deepest = 0;
          if (in_cut) {
            deepest = depth;
            depth = 0;
          }
          for (unsigned s = 0; s < kFmaSteps; ++s) {
            depth += rule.weight(fp64, s) + (s + 1 == kFmaSteps ? out_fo4 : 0);
            if (s + 1 == kFmaSteps || ((cuts >> s) & 1u)) {
              deepest = std::max(deepest, depth);
              depth = 0;
            }
          }
          CHECK(2.0 * deepest <= 3.0 * total / stages + 2.0 * (w_max + in_fo4 + out_fo4));
        }
      }
    }
  }
}

TEST_CASE("the f16 dot's FMAs at FmaStages 19 register the widening", "[fma_rule]") {
  // tcu_f16_dot_synth: FP32, the f16-to-f32 widening (WidenFo4 = 20) in front.
  Rule rule;
  rule.eval(false, 19, 20, 0);
  CHECK(rule.probe.cuts_o == (1u << kBoundaries) - 1);
  CHECK(rule.probe.in_cut_o);
  // The f64 dot's (nothing in front): every step boundary, none at the inputs.
  rule.eval(true, 19, 0, 0);
  CHECK(rule.probe.cuts_o == (1u << kBoundaries) - 1);
  CHECK_FALSE(rule.probe.in_cut_o);
}
