#include "handshake_checks.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace tcu {
namespace {

std::string hex(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

// The first differing word of a port, or -1.
template <size_t N>
int first_difference(const std::array<uint32_t, N>& a, const std::array<uint32_t, N>& b) {
  if (std::memcmp(a.data(), b.data(), sizeof a) == 0) return -1;
  for (size_t i = 0; i < N; ++i)
    if (a[i] != b[i]) return int(i);
  return -1;
}

}  // namespace

void HandshakeChecks::handover_before(uint64_t tag, uint64_t cycle) {
  handover_tag_ = tag;
  handover_pending_ = model_.dp_tag() == (tag & 0xffff);
  if (!handover_pending_)
    cosim_.violation(tag, cycle,
                     "the router handed the datapath tag " + std::to_string(model_.dp_tag()) +
                         ", expected " + std::to_string(tag & 0xffff) + " (issue order)");
}

void HandshakeChecks::handover_after(const Instr* instr, const WarpOperands* operands,
                                     uint64_t cycle) {
  // The golden layout tables check the router's placement.
  handover_pending_ = false;
  if (!instr || !operands) return;
  const uint64_t tag = handover_tag_;
  // The ports compared in place with the registers; where that finds a
  // difference, the expected ports packed and compared again, and the
  // difference copied out and named.
  model_.dp_descriptor(&got_);
  if (packer_.matches(*instr, *operands, got_, model_.dp_port_words())) return;
  const DatapathInputs& e = packer_.pack(*instr, *operands, uint32_t(tag));
  if (model_.dp_inputs_equal(e)) return;
  model_.dp_inputs(&got_);
  const DatapathInputs& g = got_;
  if (!same_datapath_descriptor(e, g)) {
    cosim_.violation(tag, cycle, "the router handed the datapath a wrong descriptor");
    return;
  }
  struct Port {
    const char* name;
    int word;
    uint32_t want, got;
  };
  std::vector<Port> bad;
  auto check = [&](const char* name, const auto& want, const auto& got) {
    if (const int w = first_difference(want, got); w >= 0)
      bad.push_back({name, w, want[size_t(w)], got[size_t(w)]});
  };
  check("a", e.a, g.a);
  check("b", e.b, g.b);
  check("c", e.c, g.c);
  check("meta", e.meta, g.meta);
  check("scale_a", e.scale_a, g.scale_a);
  check("scale_b", e.scale_b, g.scale_b);
  if (!bad.empty())
    cosim_.violation(tag, cycle,
                     std::string("the router placed operand ") + bad[0].name + " wrongly: in_" +
                         bad[0].name + "_i word " + std::to_string(bad[0].word) + " is " +
                         hex(bad[0].got) + ", the layout tables say " + hex(bad[0].want));
}

void HandshakeChecks::output_before(bool taken, const InDatapath* oldest, uint64_t cycle) {
  output_ = {};
  if (held_) {
    if (!model_.d_valid() || model_.d_tag() != held_tag_) {
      cosim_.violation(held_full_tag_, cycle,
                       "out_valid, out_tag or out_d changed while out_ready was low");
    } else {
      output_.held = true;  // out_d_o's words are compared after the edge
      output_.held_tag = held_full_tag_;
    }
  }
  held_ = model_.d_valid() && !model_.d_ready();
  if (held_) {
    held_tag_ = model_.d_tag();
    held_full_tag_ = oldest ? oldest->tag : 0;
  }
  if (!taken) return;
  if (!oldest || model_.d_tag() != (oldest->tag & 0xffff)) {
    cosim_.violation(
        oldest ? oldest->tag : 0, cycle,
        "the datapath returned tag " + std::to_string(model_.d_tag()) +
            (oldest ? ", expected " + std::to_string(oldest->tag & 0xffff) + " (issue order)"
                    : ", which is not in flight"));
    return;
  }
  output_.taken_tag = oldest->tag;
  output_.taken_words = oldest->d_words;
}

void HandshakeChecks::output_after(uint64_t cycle) {
  // out_d_o of the cycle that just ended (registered at the edge).
  const uint32_t* d = model_.d();
  if (output_.held && !std::equal(held_d_.begin(), held_d_.end(), d))
    cosim_.violation(output_.held_tag, cycle,
                     "out_valid, out_tag or out_d changed while out_ready was low");
  if (output_.taken_words) {
    // The words above D, or-ed (no branch a word), then the first named.
    uint32_t above = 0;
    for (int w = output_.taken_words; w < kDatapathDWords; ++w) above |= d[w];
    for (int w = output_.taken_words; above && w < kDatapathDWords; ++w)
      if (d[w] != 0) {
        cosim_.violation(output_.taken_tag, cycle,
                         "out_d bits " + std::to_string(32 * w) + ".." +
                             std::to_string(32 * w + 31) + " are set, above the instruction's D");
        break;
      }
  }
  if (held_) std::copy(d, d + kDatapathDWords, held_d_.begin());
}

}  // namespace tcu
