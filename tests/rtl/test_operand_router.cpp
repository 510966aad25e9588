// Unit test of rtl/tcu_operand_router.sv (with rtl/tcu_frag_layout.sv), the
// network between the lanes' registers and the datapath's matrix-order
// ports. The golden model's layouts check it; they do not feed it:
//
//  - gather: for every variant (tcu::all_variants()) and a range of
//    selector values, random lane registers go in as tagged 32-bit words
//    in a random order, a random number of them a cycle in random slots,
//    with words that hold no element mixed in (lanes the metadata and scale
//    selectors skip, registers past a fragment, operands the family does
//    not have); the ports the router presents must equal, bit for bit,
//    pack_datapath_inputs(instr, gather_operands(instr, warp)), under random
//    dp_ready back-pressure and back to back; the front-end's packing
//    straight from the registers (pack_datapath_inputs(instr, warp), its
//    handover check) must equal the same for every case;
//  - scatter: a random matrix-order D, packed as out_d_o (junk above D),
//    must come out as exactly the lane registers
//    fragment_layout(instr, kD).scatter(D), each (lane, register) once;
//  - timing: at full rate the operands are valid ceil(source_words / W)
//    cycles after the start (one more without the bypass) and D leaves in
//    ceil(dest_words / DW) beats, the terms of timing.h's
//    instruction_latency.
//
// Models (router_units.cmake): W = 8 / DW = 8 with the bypass,
// W = 32 / DW = 64 without, W = 64 / DW = 1 (the ends of the ranges) with;
// with TCU_ROUTER_SYNTH (test_operand_router_synth, the second tier's)
// W = 3 / DW = 5 Verilated with SynthImpl = 1, which simulates the
// implementations Yosys synthesizes (per-position AND-OR networks,
// tcu_word_mux trees).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef TCU_GLS
// Gate-level: only the Yosys netlist at WordsPerCycle = DWordsPerCycle = 1,
// GatherBypass = 1 (tests/rtl/gls_units.cmake), on a sample (gls_variants:
// the 21 variants that each bring something new to the router, a placement
// or a descriptor value): each once (its first selector combination), 4 of
// them mixed, every third at full rate, one scatter round of each.
#include "Vtcu_operand_router_gls.h"
constexpr bool kGls = true;
#else
#ifdef TCU_ROUTER_SYNTH
// The synthesis forms only (test_operand_router_synth, the second tier's).
#include "Vtcu_operand_router_w3_synth.h"
#else
#include "Vtcu_operand_router_w32.h"
#include "Vtcu_operand_router_w64.h"
#include "Vtcu_operand_router_w8.h"
#endif
constexpr bool kGls = false;
#endif
#include "datapath_ports.h"
#include "tcu/generator.h"
#include "tcu/golden.h"
#include "tcu/layout.h"
#include "tcu/timing.h"
#include "verilated.h"

namespace {

using tcu::Operand;

// ---- bits of a port of any width -----------------------------------------------
template <class T>
void put(T& port, int lsb, int width, uint64_t value) {
  static_assert(std::is_integral_v<T>);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  uint64_t v = uint64_t(port);
  v = (v & ~(mask << lsb)) | ((value & mask) << lsb);
  port = T(v);
}
template <std::size_t N>
void put(VlWide<N>& port, int lsb, int width, uint64_t value) {
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const uint32_t m = uint32_t{1} << (bit % 32);
    port[bit / 32] = (value >> i) & 1 ? port[bit / 32] | m : port[bit / 32] & ~m;
  }
}
template <class T>
uint64_t get(const T& port, int lsb, int width) {
  static_assert(std::is_integral_v<T>);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  return (uint64_t(port) >> lsb) & mask;
}
template <std::size_t N>
uint64_t get(const VlWide<N>& port, int lsb, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    value |= uint64_t((port[bit / 32] >> (bit % 32)) & 1) << i;
  }
  return value;
}
template <std::size_t N, std::size_t M>
bool same_words(const VlWide<N>& port, const std::array<uint32_t, M>& words) {
  static_assert(N == M);
  for (std::size_t i = 0; i < N; ++i)
    if (port[i] != words[i]) return false;
  return true;
}

// ---- one instruction's words and what they must produce ----------------------------
struct Word {
  int op = 0, lane = 0, reg = 0;
  uint32_t data = 0;
};

struct Case {
  tcu::Instr instr;
  tcu::Selectors sel;
  uint16_t tag = 0;
  std::vector<Word> words;     // every word the lanes hold, and junk
  int real_words = 0;          // the register words: source_words(instr)
  tcu::DatapathInputs expect;  // the datapath's ports
};

// Which selector combinations exist for the instruction.
std::vector<tcu::Selectors> all_selectors(const tcu::Instr& instr) {
  std::vector<tcu::Selectors> out;
  if (instr.sparse()) {
    for (int s = 0; s < 2; ++s) out.push_back(tcu::Selectors{s, 0, 0, 0, 0});
  } else if (instr.block_scaled()) {
    const std::vector<int> bytes =
        instr.scale_vec == tcu::ScaleVec::k4X ? std::vector<int>{0} : std::vector<int>{0, 2};
    for (int ba : bytes)
      for (int ta = 0; ta < 2; ++ta)
        for (int bb : bytes)
          for (int tb = 0; tb < 4; ++tb) out.push_back(tcu::Selectors{0, ba, ta, bb, tb});
  } else {
    out.push_back(tcu::Selectors{});
  }
  return out;
}

bool same_selectors(const tcu::Selectors& x, const tcu::Selectors& y) {
  return x.sparsity == y.sparsity && x.byte_id_a == y.byte_id_a &&
         x.thread_id_a == y.thread_id_a && x.byte_id_b == y.byte_id_b &&
         x.thread_id_b == y.thread_id_b;
}

// A fragment of random registers for one operand.
tcu::Fragment random_fragment(const tcu::FragmentLayout& layout, std::mt19937_64& rng) {
  tcu::Fragment f = layout.empty_fragment();
  for (uint64_t& r : f.regs) r = layout.reg_bits() == 64 ? rng() : rng() & 0xffffffffu;
  return f;
}

// The lanes' words of one operand: (lane, 32-bit word index) per register.
void add_words(int op, const tcu::Fragment& f, int reg_bits, std::vector<Word>* out) {
  for (int lane = 0; lane < tcu::kLanes; ++lane)
    for (int r = 0; r < f.regs_per_lane; ++r) {
      const uint64_t v = f.at(lane, r);
      if (reg_bits == 64) {
        out->push_back({op, lane, 2 * r, uint32_t(v)});
        out->push_back({op, lane, 2 * r + 1, uint32_t(v >> 32)});
      } else {
        out->push_back({op, lane, r, uint32_t(v)});
      }
    }
}

Case make_case(const tcu::Instr& instr, const tcu::Selectors& sel, bool generated, uint16_t tag,
               std::mt19937_64& rng) {
  Case c{instr, sel, tag, {}, 0, {}};
  tcu::WarpOperands warp;
  if (generated) {
    // The generator's registers (corner values, junk in skipped lanes and
    // bytes) with its own legal selectors.
    warp = tcu::generate_operands(instr, 11, rng());
    c.sel = warp.selectors;
  } else {
    warp.selectors = sel;
    warp.a = random_fragment(tcu::fragment_layout(instr, Operand::kA), rng);
    warp.b = random_fragment(tcu::fragment_layout(instr, Operand::kB), rng);
    warp.c = random_fragment(tcu::fragment_layout(instr, Operand::kC), rng);
    if (instr.sparse())
      warp.e = random_fragment(tcu::fragment_layout(instr, Operand::kMeta, sel), rng);
    if (instr.block_scaled()) {
      warp.scale_a = random_fragment(tcu::fragment_layout(instr, Operand::kScaleA, sel), rng);
      warp.scale_b = random_fragment(tcu::fragment_layout(instr, Operand::kScaleB, sel), rng);
    }
  }
  tcu::pack_datapath_inputs(instr, tcu::gather_operands(instr, warp), tag, &c.expect);
  {
    tcu::DatapathInputs direct;
    tcu::pack_datapath_inputs(instr, warp, tag, &direct);
    INFO(instr.ptx() << ": packing from the registers differs from packing the gathered matrices");
    REQUIRE(direct.family == c.expect.family);
    REQUIRE(direct.a_signed == c.expect.a_signed);
    REQUIRE(direct.b_signed == c.expect.b_signed);
    REQUIRE(direct.satfinite == c.expect.satfinite);
    REQUIRE(direct.k32 == c.expect.k32);
    REQUIRE(direct.rounding == c.expect.rounding);
    REQUIRE(direct.c_f16 == c.expect.c_f16);
    REQUIRE(direct.d_f16 == c.expect.d_f16);
    REQUIRE(direct.scale_4x == c.expect.scale_4x);
    REQUIRE(direct.tag == c.expect.tag);
    REQUIRE(direct.a == c.expect.a);
    REQUIRE(direct.b == c.expect.b);
    REQUIRE(direct.c == c.expect.c);
    REQUIRE(direct.meta == c.expect.meta);
    REQUIRE(direct.scale_a == c.expect.scale_a);
    REQUIRE(direct.scale_b == c.expect.scale_b);
  }

  const int ab_bits = tcu::fragment_layout(instr, Operand::kA).reg_bits();
  add_words(0, warp.a, ab_bits, &c.words);
  add_words(1, warp.b, ab_bits, &c.words);
  add_words(2, warp.c, tcu::fragment_layout(instr, Operand::kC).reg_bits(), &c.words);
  if (instr.sparse()) add_words(4, warp.e, 32, &c.words);
  if (instr.block_scaled()) {
    add_words(5, warp.scale_a, 32, &c.words);
    add_words(6, warp.scale_b, 32, &c.words);
  }
  c.real_words = int(c.words.size());

  // Words that hold no element of any operand: registers past a fragment,
  // operands the family does not have, D and an unused code; each tag once
  // (the router's rule: no two words of one beat with the same tag).
  auto frag_words = [&](Operand op) {
    const auto& l = tcu::fragment_layout(instr, op);
    return l.regs_per_lane() * l.reg_bits() / 32;
  };
  const int words_of[3] = {frag_words(Operand::kA), frag_words(Operand::kB),
                           frag_words(Operand::kC)};
  std::set<int> junk_tags;
  for (int j = 0; j < 24; ++j) {
    Word w{int(rng() % 8), int(rng() % 32), int(rng() % 8), uint32_t(rng())};
    if (w.op <= 2) {
      if (words_of[w.op] >= 8) continue;  // a full fragment (f16 with f32 C)
      if (w.reg < words_of[w.op]) w.reg = words_of[w.op] + int(rng() % (8 - words_of[w.op]));
    }
    if (w.op == 4 && instr.sparse()) continue;
    if ((w.op == 5 || w.op == 6) && instr.block_scaled()) continue;
    if (!junk_tags.insert((w.op * 32 + w.lane) * 8 + w.reg).second) continue;
    c.words.push_back(w);
  }
  std::shuffle(c.words.begin(), c.words.end(), rng);
  return c;
}

// ---- the bench, for any of the three models ------------------------------------------
template <class Model, int kWords, int kDWords, bool kBypass>
class Bench {
  // A bound on one gather or scatter call (a hang), for 3 or more words a
  // cycle; proportionally more below.
  static constexpr long kCycleLimit = 600000L / (kWords < 3 ? kWords : 3);

 public:
  Bench() {
    m_.clk_i = 0;
    m_.rst_ni = 0;
    m_.in_start_i = 0;
    m_.dp_ready_i = 0;
    m_.d_valid_i = 0;
    m_.wb_ready_i = 0;
    m_.eval();
    for (int i = 0; i < 2; ++i) clock();
    m_.rst_ni = 1;
    m_.eval();
  }

  // Feeds the cases one after another (each start as soon as the router
  // takes it), fill_rate: the chance that a slot carries a word when words
  // are left; ready_rate: the chance that dp_ready_i is high. Checks every
  // handover; returns, per case, the cycles from its start to its handover.
  std::vector<long> gather(const std::vector<Case>& cases, double fill_rate, double ready_rate) {
    std::bernoulli_distribution fill(fill_rate), ready(ready_rate);
    std::vector<long> cycles;
    std::deque<std::pair<const Case*, long>> complete;  // with the start cycle
    size_t next = 0, pos = 0;
    bool started = false;
    long start_cycle = 0;
    std::vector<Word> beat;
    bool beat_last = false;
    const long begin = cycle_;
    while (cycles.size() < cases.size()) {
      REQUIRE(cycle_ - begin < kCycleLimit);
      // The beat on offer: kept until a start takes it.
      const bool feeding = next < cases.size();
      if (feeding && beat.empty() && !beat_last) {
        const Case& c = cases[next];
        for (int s = 0; s < kWords && pos < c.words.size(); ++s)
          if (fill(rng_)) beat.push_back(c.words[pos++]);
        beat_last = pos == c.words.size() && (fill_rate >= 1.0 || rng_() % 4 != 0);
      }
      drive_beat(feeding ? &cases[next] : nullptr, !started && feeding, beat, beat_last);
      m_.dp_ready_i = ready(rng_);
      m_.eval();

      bool taken = started;
      if (feeding && !started && m_.in_start_i && m_.in_start_ready_o) {
        started = taken = true;
        start_cycle = cycle_;
      }
      if (feeding && taken) {
        beat.clear();
        if (beat_last) {
          complete.emplace_back(&cases[next], start_cycle);
          ++next;
          pos = 0;
          started = false;
          beat_last = false;
        }
      }
      // The handover (with the bypass, possibly of the beat just taken).
      if (m_.dp_valid_o && m_.dp_ready_i) {
        REQUIRE(!complete.empty());
        check_ports(*complete.front().first);
        cycles.push_back(cycle_ - complete.front().second);
        complete.pop_front();
      }
      clock();
    }
    REQUIRE(complete.empty());
    drive_beat(nullptr, false, {}, false);
    m_.dp_ready_i = 0;
    m_.eval();
    REQUIRE(!m_.dp_valid_o);
    return cycles;
  }

  // One beat of the given words, taken with c's start (dp_ready_i low):
  // whether an assertion failed at its clock edge (Verilator's error flag,
  // $error made non-fatal for that edge).
  bool beat_flags_error(const Case& c, const std::vector<Word>& words) {
    VerilatedContext& context = *Verilated::threadContextp();
    context.fatalOnError(false);
    context.gotError(false);
    drive_beat(&c, true, words, false);
    m_.dp_ready_i = 0;
    m_.eval();
    REQUIRE(m_.in_start_ready_o);
    clock();
    const bool flagged = context.gotError();
    context.gotError(false);
    context.gotFinish(false);
    context.fatalOnError(true);
    return flagged;
  }

  // Scatters one random D per case through the router: the lanes' words
  // must be the golden scatter of D. ready_rate: the chance that wb_ready_i
  // is high. Returns, per case, the cycle D was taken and the cycles of its
  // beats.
  std::vector<std::vector<long>> scatter(const std::vector<tcu::Instr>& instrs, double ready_rate) {
    struct Expect {
      tcu::Instr instr;
      uint16_t tag;
      std::vector<std::pair<int, uint32_t>> words;  // (lane * 8 + reg, data)
      std::set<int> seen;
    };
    std::bernoulli_distribution ready(ready_rate);
    std::vector<std::vector<long>> beats;
    std::deque<Expect> expect;
    size_t next = 0;
    std::array<uint32_t, tcu::kDatapathDWords> d_words{};
    bool have_d = false;
    const long begin = cycle_;
    while (beats.size() < instrs.size()) {
      REQUIRE(cycle_ - begin < kCycleLimit);
      if (!have_d && next < instrs.size()) {
        const tcu::Instr& in = instrs[next];
        const auto& layout = tcu::fragment_layout(in, Operand::kD);
        const int width = tcu::elem_bits(in.d_type);
        tcu::Matrix d(layout.batches(), layout.rows(), layout.cols());
        for (uint64_t& e : d.elems)
          e = width == 64 ? rng_() : rng_() & ((uint64_t{1} << width) - 1);
        // out_d_o: element i at bit i * width; junk above D (the router
        // must not read it).
        for (auto& w : d_words) w = uint32_t(rng_());
        const size_t d_bits = d.elems.size() * size_t(width);
        for (size_t w = 0; w < d_bits / 32; ++w) d_words[w] = 0;
        for (size_t i = 0; i < d.elems.size(); ++i) {
          const size_t bit = i * size_t(width);
          d_words[bit / 32] |= uint32_t(d.elems[i] << (bit % 32));
          if (width == 64) d_words[bit / 32 + 1] = uint32_t(d.elems[i] >> 32);
        }
        REQUIRE(tcu::unpack_datapath_d(in, d_words.data()).elems == d.elems);
        const tcu::Fragment lanes = layout.scatter(d);
        Expect e{in, uint16_t(0x4000 + next), {}, {}};
        std::vector<Word> words;
        add_words(3, lanes, layout.reg_bits(), &words);
        for (const Word& w : words) e.words.push_back({w.lane * 8 + w.reg, w.data});
        expect.push_back(std::move(e));
        have_d = true;
      }
      m_.d_valid_i = have_d;
      if (have_d) {
        const Expect& e = expect.back();
        m_.d_family_i = uint32_t(e.instr.family);
        m_.d_k32_i = e.instr.shape.k == 32;
        m_.d_f16_i = e.instr.d_type == tcu::ElemType::kF16;
        m_.d_tag_i = e.tag;
        std::copy(d_words.begin(), d_words.end(), m_.d_i.m_storage);
      } else {
        m_.d_family_i = uint32_t(rng_() % 8);  // junk while not valid
        m_.d_k32_i = rng_() & 1;
        m_.d_f16_i = rng_() & 1;
        m_.d_tag_i = uint16_t(rng_());
        m_.d_i[rng_() % tcu::kDatapathDWords] = uint32_t(rng_());
      }
      m_.wb_ready_i = ready(rng_);
      m_.eval();

      if (m_.wb_valid_o && m_.wb_ready_i) {
        // The front of `expect` is the D leaving (the back may be waiting).
        REQUIRE(!expect.empty());
        Expect& e = expect.front();
        INFO(e.instr.ptx());
        REQUIRE(m_.wb_tag_o == e.tag);
        for (int s = 0; s < kDWords; ++s) {
          if (!get(m_.wb_word_valid_o, s, 1)) continue;
          const int lane = int(get(m_.wb_word_lane_o, 5 * s, 5));
          const int reg = int(get(m_.wb_word_reg_o, 3 * s, 3));
          const uint32_t data = uint32_t(get(m_.wb_word_data_o, 32 * s, 32));
          INFO("slot " << s << " lane " << lane << " register word " << reg);
          const auto it = std::find_if(e.words.begin(), e.words.end(),
                                       [&](const auto& w) { return w.first == lane * 8 + reg; });
          REQUIRE(it != e.words.end());
          REQUIRE(data == it->second);
          REQUIRE(e.seen.insert(lane * 8 + reg).second);
        }
        current_beats_.push_back(cycle_);
        if (m_.wb_last_o) {
          REQUIRE(e.seen.size() == e.words.size());
          REQUIRE(int(e.words.size()) == tcu::dest_words(e.instr));
          current_beats_.insert(current_beats_.begin(), taken_.front());
          taken_.pop_front();
          beats.push_back(std::move(current_beats_));
          current_beats_.clear();
          expect.pop_front();
        }
      }
      if (have_d && m_.d_ready_o) {
        taken_.push_back(cycle_);
        have_d = false;
        ++next;
      }
      clock();
    }
    m_.d_valid_i = 0;
    m_.wb_ready_i = 1;
    m_.eval();
    REQUIRE(!m_.wb_valid_o);
    return beats;
  }

 private:
  void clock() {
    m_.clk_i = 1;
    m_.eval();
    m_.clk_i = 0;
    ++cycle_;
  }

  // One cycle's inputs: the start with its descriptor (junk when no start:
  // the router must have registered it), the beat's words in random slots,
  // junk in the others.
  void drive_beat(const Case* c, bool start, const std::vector<Word>& beat, bool last) {
    m_.in_start_i = start;
    if (start) {
      const tcu::Instr& in = c->instr;
      m_.in_family_i = uint32_t(in.family);
      m_.in_a_signed_i = in.a_type == tcu::ElemType::kS4;
      m_.in_b_signed_i = in.b_type == tcu::ElemType::kS4;
      m_.in_satfinite_i = in.satfinite;
      m_.in_k32_i = in.shape.k == 32;
      m_.in_rnd_i = uint32_t(in.rounding);
      m_.in_a_row_i = in.a_layout == tcu::MatrixLayout::kRow;
      m_.in_b_row_i = in.b_layout == tcu::MatrixLayout::kRow;
      m_.in_c_f16_i = in.c_type == tcu::ElemType::kF16;
      m_.in_d_f16_i = in.d_type == tcu::ElemType::kF16;
      m_.in_scale_4x_i = in.scale_vec == tcu::ScaleVec::k4X;
      m_.in_sparsity_i = uint32_t(c->sel.sparsity);
      m_.in_byte_id_a_i = uint32_t(c->sel.byte_id_a);
      m_.in_thread_id_a_i = uint32_t(c->sel.thread_id_a);
      m_.in_byte_id_b_i = uint32_t(c->sel.byte_id_b);
      m_.in_thread_id_b_i = uint32_t(c->sel.thread_id_b);
      m_.in_tag_i = c->tag;
    } else {
      m_.in_family_i = uint32_t(rng_() % 8);
      m_.in_a_signed_i = rng_() & 1;
      m_.in_b_signed_i = rng_() & 1;
      m_.in_satfinite_i = rng_() & 1;
      m_.in_k32_i = rng_() & 1;
      m_.in_rnd_i = rng_() & 3;
      m_.in_a_row_i = rng_() & 1;
      m_.in_b_row_i = rng_() & 1;
      m_.in_c_f16_i = rng_() & 1;
      m_.in_d_f16_i = rng_() & 1;
      m_.in_scale_4x_i = rng_() & 1;
      m_.in_sparsity_i = rng_() & 1;
      m_.in_byte_id_a_i = rng_() & 3;
      m_.in_thread_id_a_i = rng_() & 1;
      m_.in_byte_id_b_i = rng_() & 3;
      m_.in_thread_id_b_i = rng_() & 3;
      m_.in_tag_i = uint16_t(rng_());
    }
    std::vector<int> slots(kWords);
    for (int s = 0; s < kWords; ++s) slots[s] = s;
    std::shuffle(slots.begin(), slots.end(), rng_);
    for (int s = 0; s < kWords; ++s) {
      put(m_.in_word_valid_i, s, 1, 0);
      put(m_.in_word_op_i, 3 * s, 3, rng_());
      put(m_.in_word_lane_i, 5 * s, 5, rng_());
      put(m_.in_word_reg_i, 3 * s, 3, rng_());
      put(m_.in_word_data_i, 32 * s, 32, rng_());
    }
    for (size_t i = 0; i < beat.size(); ++i) {
      const int s = slots[i];
      put(m_.in_word_valid_i, s, 1, 1);
      put(m_.in_word_op_i, 3 * s, 3, uint64_t(beat[i].op));
      put(m_.in_word_lane_i, 5 * s, 5, uint64_t(beat[i].lane));
      put(m_.in_word_reg_i, 3 * s, 3, uint64_t(beat[i].reg));
      put(m_.in_word_data_i, 32 * s, 32, beat[i].data);
    }
    m_.in_last_i = last;
  }

  void check_ports(const Case& c) {
    const tcu::DatapathInputs& x = c.expect;
    INFO(c.instr.ptx() << " selectors sparsity " << c.sel.sparsity << " byte_id_a "
                       << c.sel.byte_id_a << " thread_id_a " << c.sel.thread_id_a << " byte_id_b "
                       << c.sel.byte_id_b << " thread_id_b " << c.sel.thread_id_b);
    REQUIRE(m_.dp_family_o == x.family);
    REQUIRE(bool(m_.dp_a_signed_o) == x.a_signed);
    REQUIRE(bool(m_.dp_b_signed_o) == x.b_signed);
    REQUIRE(bool(m_.dp_satfinite_o) == x.satfinite);
    REQUIRE(bool(m_.dp_k32_o) == x.k32);
    REQUIRE(m_.dp_rnd_o == x.rounding);
    REQUIRE(bool(m_.dp_c_f16_o) == x.c_f16);
    REQUIRE(bool(m_.dp_d_f16_o) == x.d_f16);
    REQUIRE(bool(m_.dp_scale_4x_o) == x.scale_4x);
    REQUIRE(m_.dp_tag_o == x.tag);
    check_port("a", m_.dp_a_o, x.a);
    check_port("b", m_.dp_b_o, x.b);
    check_port("c", m_.dp_c_o, x.c);
    check_port("meta", m_.dp_meta_o, x.meta);
    check_port("scale_a", m_.dp_scale_a_o, x.scale_a);
    check_port("scale_b", m_.dp_scale_b_o, x.scale_b);
  }

  template <std::size_t N, std::size_t M>
  void check_port(const char* name, const VlWide<N>& port, const std::array<uint32_t, M>& want) {
    if (same_words(port, want)) return;
    for (std::size_t w = 0; w < N; ++w) {
      INFO("port " << name << " bits " << 32 * w << ".." << 32 * w + 31);
      REQUIRE(port[w] == want[w]);
    }
  }

  Model m_;
  long cycle_ = 0;
  std::mt19937_64 rng_{2024};
  std::deque<long> taken_;
  std::vector<long> current_beats_;
};

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The gate-level sample: in all_variants()' order, each variant that brings
// something new to the router: a gather placement (family, k, A and B
// layouts, C type, scale vector), a scatter (family, k, D type), or a value
// of a descriptor field it only passes on (A and B signedness, satfinite,
// rounding). 21 of the 52 variants.
std::vector<tcu::Instr> gls_variants() {
  std::set<std::string> seen;
  std::vector<tcu::Instr> out;
  for (const tcu::Instr& in : tcu::all_variants()) {
    const auto n = [](auto v) { return std::to_string(int(v)); };
    const std::string keys[] = {
        "place " + n(in.family) + " " + n(in.shape.k) + " " + n(in.a_layout) + " " +
            n(in.b_layout) + " " + n(in.c_type) + " " + n(in.scale_vec),
        "scatter " + n(in.family) + " " + n(in.shape.k) + " " + n(in.d_type),
        "a_signed " + n(in.a_type == tcu::ElemType::kS4),
        "b_signed " + n(in.b_type == tcu::ElemType::kS4),
        "satfinite " + n(in.satfinite),
        "rounding " + n(in.rounding)};
    bool fresh = false;
    for (const std::string& k : keys) fresh = seen.insert(k).second || fresh;
    if (fresh) out.push_back(in);
  }
  return out;
}

bool in_gls_sample(const tcu::Instr& instr) {
  static const std::vector<tcu::Instr> sample = gls_variants();
  return std::any_of(sample.begin(), sample.end(),
                     [&](const tcu::Instr& s) { return s.ptx() == instr.ptx(); });
}

// Every variant, every selector combination (or a sample of them for the
// 32 of 2X e2m1), uniform random registers and the generator's.
std::vector<Case> every_variant_cases(std::mt19937_64& rng, int per_selector) {
  std::vector<Case> cases;
  uint16_t tag = 1;
  for (const tcu::Instr& instr : tcu::all_variants())
    for (const tcu::Selectors& sel : all_selectors(instr)) {
      for (int i = 0; i < per_selector; ++i)
        cases.push_back(make_case(instr, sel, false, tag++, rng));
      cases.push_back(make_case(instr, sel, true, tag++, rng));
    }
  return cases;
}

template <class Model, int kWords, int kDWords, bool kBypass>
void run_all(const char* name) {
  using B = Bench<Model, kWords, kDWords, kBypass>;
  std::mt19937_64 rng(kWords * 1000 + kDWords);
  const auto& variants = tcu::all_variants();

  SECTION(std::string(name) + ": gather, every variant and selector, random order and rates") {
    B bench;
    std::vector<Case> cases = every_variant_cases(rng, 1);
    if (kGls) {
      // Each sampled variant once: its first selector combination, uniform
      // random registers.
      std::vector<Case> sample;
      for (const Case& c : cases)
        if (in_gls_sample(c.instr) && same_selectors(c.sel, all_selectors(c.instr).front()) &&
            (sample.empty() || sample.back().instr.ptx() != c.instr.ptx()))
          sample.push_back(c);
      REQUIRE(sample.size() == gls_variants().size());
      cases = sample;
    }
    for (const Case& c : cases) REQUIRE(c.real_words == tcu::source_words(c.instr));
    bench.gather(cases, 0.6, 0.7);
    // Shuffled across variants, sparse beats, waits for dp_ready.
    std::vector<Case> mixed = cases;
    std::shuffle(mixed.begin(), mixed.end(), rng);
    mixed.resize(kGls ? 4 : 120);
    bench.gather(mixed, 0.3, 0.4);
  }

  SECTION(std::string(name) + ": gather timing at full rate") {
    B bench;
    const std::vector<tcu::Instr> timed = kGls ? gls_variants() : variants;
    for (size_t v = 0; v < timed.size(); v += kGls ? 3 : 1) {
      const tcu::Instr& instr = timed[v];
      Case c = make_case(instr, all_selectors(instr).front(), false, 7, rng);
      // Only the lanes' registers (no junk): source_words of them.
      std::vector<Word> real;
      for (const Word& w : c.words) {
        const bool junk = w.op == 3 || w.op == 7 || (w.op == 4 && !instr.sparse()) ||
                          ((w.op == 5 || w.op == 6) && !instr.block_scaled());
        bool past = false;
        if (w.op <= 2) {
          const auto& l = tcu::fragment_layout(instr, Operand(w.op));
          past = w.reg >= l.regs_per_lane() * l.reg_bits() / 32;
        }
        if (!junk && !past) real.push_back(w);
      }
      c.words = real;
      REQUIRE(int(c.words.size()) == tcu::source_words(instr));
      const std::vector<long> cycles = bench.gather({c, c}, 1.0, 1.0);
      INFO(instr.ptx());
      // Start in cycle 0, the last beat in cycle n - 1: handed over at the
      // end of that cycle (bypass) or the next.
      const int n = ceil_div(tcu::source_words(instr), kWords);
      for (long cyc : cycles) REQUIRE(cyc == n - 1 + (kBypass ? 0 : 1));
    }
  }

  SECTION(std::string(name) + ": scatter, every variant, random and full rate") {
    B bench;
    std::vector<tcu::Instr> instrs;
    for (int rep = 0; rep < (kGls ? 1 : 3); ++rep)
      for (const tcu::Instr& instr : kGls ? gls_variants() : variants) instrs.push_back(instr);
    std::shuffle(instrs.begin(), instrs.end(), rng);
    bench.scatter(instrs, 0.6);
    // At full rate: D taken in cycle h, beats in h+1 .. h+m, the next D's
    // beats right after.
    const auto beats = bench.scatter(instrs, 1.0);
    for (size_t i = 0; i < instrs.size(); ++i) {
      INFO(instrs[i].ptx());
      const int m = ceil_div(tcu::dest_words(instrs[i]), kDWords);
      REQUIRE(int(beats[i].size()) == m + 1);
      for (int b = 1; b <= m; ++b) REQUIRE(beats[i][b] == beats[i][0] + b);
      if (i > 0) REQUIRE(beats[i][1] == beats[i - 1].back() + 1);
    }
  }
}

}  // namespace

#ifdef TCU_GLS
TEST_CASE("tcu_operand_router netlist (Yosys, 1 word and 1 D word a cycle, bypass)",
          "[gls][router]") {
  run_all<Vtcu_operand_router_gls, 1, 1, true>("W1 netlist");
}
#else
// The one-word-per-tag rule (no two valid words of one beat with the same
// operand, lane and register): two distinct words pass, a word and another
// with its tag fail, in the simulation and the synthesized description.
template <class Model, int kWords, int kDWords>
void check_tag_rule();

#ifndef TCU_ROUTER_SYNTH
TEST_CASE("tcu_operand_router, 8 words a cycle, bypass", "[rtl][router]") {
  run_all<Vtcu_operand_router_w8, 8, 8, true>("W8");
}

TEST_CASE("tcu_operand_router, 32 words a cycle, 64 D words, registered", "[rtl][router]") {
  run_all<Vtcu_operand_router_w32, 32, 64, false>("W32");
}

TEST_CASE("tcu_operand_router, 64 words a cycle, 1 D word", "[rtl][router]") {
  run_all<Vtcu_operand_router_w64, 64, 1, true>("W64");
}

TEST_CASE("tcu_operand_router flags two words of one beat with the same tag", "[rtl][router]") {
  check_tag_rule<Vtcu_operand_router_w8, 8, 8>();
}
#else
TEST_CASE("tcu_operand_router, 3 and 5 words a cycle, the synthesized description",
          "[rtl][router]") {
  run_all<Vtcu_operand_router_w3_synth, 3, 5, true>("W3 synth");
}

TEST_CASE("tcu_operand_router flags two words of one beat with the same tag, synthesized",
          "[rtl][router]") {
  check_tag_rule<Vtcu_operand_router_w3_synth, 3, 5>();
}
#endif

template <class Model, int kWords, int kDWords>
void check_tag_rule() {
  std::mt19937_64 rng(11);
  const tcu::Instr& instr = tcu::all_variants().front();
  const Case c = make_case(instr, all_selectors(instr).front(), false, 7, rng);
  const Word first = c.words[0];
  const Word second = c.words[1];
  REQUIRE((first.op != second.op || first.lane != second.lane || first.reg != second.reg));
  Word twin = first;
  twin.data = ~first.data;
  REQUIRE_FALSE(Bench<Model, kWords, kDWords, true>().beat_flags_error(c, {first, second}));
  REQUIRE(Bench<Model, kWords, kDWords, true>().beat_flags_error(c, {first, twin}));
}

#endif
