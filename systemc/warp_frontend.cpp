#include "warp_frontend.h"

#include <algorithm>

namespace tcu {
namespace {

void append_words(const Fragment& f, int lane, int reg_bits, std::vector<uint32_t>* out) {
  // A lane's registers as 32-bit words (a 64-bit register is two).
  if (f.regs.empty()) return;
  for (int r = 0; r < f.regs_per_lane; ++r) {
    const uint64_t v = f.at(lane, r);
    out->push_back(uint32_t(v));
    if (reg_bits == 64) out->push_back(uint32_t(v >> 32));
  }
}

}  // namespace

bool parse_fault(const std::string& name, Fault* fault) {
  for (Fault f : {Fault::kNone, Fault::kDBit, Fault::kLate, Fault::kLaneSwap, Fault::kMeta})
    if (name == to_string(f)) {
      *fault = f;
      return true;
    }
  return false;
}

const char* to_string(Fault fault) {
  switch (fault) {
    case Fault::kNone:
      return "none";
    case Fault::kDBit:
      return "d-bit";
    case Fault::kLate:
      return "late";
    case Fault::kLaneSwap:
      return "lane-swap";
    case Fault::kMeta:
      return "meta";
  }
  return "?";
}

WarpFrontEnd::WarpFrontEnd(sc_core::sc_module_name name, DatapathModel* model,
                           const DatapathConfig& datapath, const FrontEndConfig& front_end,
                           const Stimulus& stimulus, bool drive_lane_view)
    : sc_module(name),
      model_(*model),
      datapath_(datapath),
      front_end_(front_end),
      stimulus_(stimulus),
      backpressure_rng_(stimulus.seed),
      cosim_(datapath, front_end),
      drive_lane_view_(drive_lane_view) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void WarpFrontEnd::issue(IssueRequest request) {
  // Never into a datapath built without the instruction's engine.
  if (const char* param = disabled_by(datapath_, request.instr.family))
    throw UnsupportedInstruction("the datapath has no engine for " + request.instr.ptx() + " (" +
                                 param + "=0)");
  pending_.push_back(std::move(request));
  ++in_flight_;
}

bool WarpFrontEnd::idle() const { return in_flight_ == 0; }

std::vector<std::string> WarpFrontEnd::unfinished() const {
  std::vector<std::string> names;
  for (const WritingBack& wb : write_back_) names.push_back(cosim_.case_name(wb.tag));
  for (const InDatapath& f : in_datapath_) names.push_back(f.name);
  if (collecting_) names.push_back(collecting_->request.name);
  for (const IssueRequest& r : pending_) names.push_back(r.name);
  return names;
}

void WarpFrontEnd::drive_inputs(uint64_t tag, const IssueRequest& r) {
  pack_datapath_inputs(r.instr, gather_operands(r.instr, r.operands), uint32_t(tag), &inputs_);
  if (fault_due(Fault::kMeta) && r.instr.sparse()) {
    inputs_.meta[0] ^= 0xf;  // row 0, chunk 0: the other two of the four
    fault_done_ = true;
  }
  model_.set_instruction(inputs_);
  if (drive_lane_view_) show_lanes(r.instr, r.operands);
}

void WarpFrontEnd::show_lanes(const Instr& instr, const WarpOperands& w) {
  const int reg_bits_a = fragment_layout(instr, Operand::kA).reg_bits();
  std::array<uint32_t, kLaneSrcWords> view{};
  for (int lane = 0; lane < kLanes; ++lane) {
    std::vector<uint32_t> words;
    append_words(w.a, lane, reg_bits_a, &words);
    append_words(w.b, lane, reg_bits_a, &words);
    append_words(w.c, lane, reg_bits_a, &words);
    append_words(w.e, lane, 32, &words);
    append_words(w.scale_a, lane, 32, &words);
    append_words(w.scale_b, lane, 32, &words);
    for (size_t i = 0; i < words.size() && i < 16; ++i) view[lane * 16 + i] = words[i];
  }
  model_.show_lane_src(view);
}

void WarpFrontEnd::show_lanes(const Instr& instr, const Fragment& d) {
  const int reg_bits = fragment_layout(instr, Operand::kD).reg_bits();
  std::array<uint32_t, kLaneDstWords> view{};
  for (int lane = 0; lane < kLanes; ++lane) {
    std::vector<uint32_t> words;
    append_words(d, lane, reg_bits, &words);
    for (size_t i = 0; i < words.size() && i < 8; ++i) view[lane * 8 + i] = words[i];
  }
  model_.show_lane_dst(view);
}

void WarpFrontEnd::check_output(bool delivered, uint32_t out_tag, const Instr* instr,
                                uint64_t tag) {
  const uint32_t* d = model_.out_d();
  if (held_) {
    const bool same = model_.out_valid() && out_tag == held_tag_ &&
                      std::equal(held_d_.begin(), held_d_.end(), d);
    if (!same)
      cosim_.violation(held_full_tag_, cycle_,
                       "out_valid, out_tag or out_d changed while out_ready was low");
  }
  if (delivered && instr) {
    const int d_words = int(fragment_layout(*instr, Operand::kD).elem_count()) *
                        elem_bits(instr->d_type) / 32;
    for (int w = d_words; w < kDatapathDWords; ++w)
      if (d[w] != 0) {
        cosim_.violation(tag, cycle_,
                         "out_d bits " + std::to_string(32 * w) + ".." + std::to_string(32 * w + 31) +
                             " are set, above the instruction's D");
        break;
      }
  }
}

void WarpFrontEnd::take_result(uint64_t tag, const Matrix& d) {
  auto it = std::find_if(in_datapath_.begin(), in_datapath_.end(),
                         [&](const InDatapath& f) { return f.tag == tag; });
  const Instr instr = it->instr;
  in_datapath_.erase(it);
  cosim_.datapath_result(tag, cycle_);
  write_back_.push_back(
      {tag, instr, fragment_layout(instr, Operand::kD).scatter(d), dest_words(instr)});
}

void WarpFrontEnd::tick() {
  ++cycle_;
  const int bandwidth = front_end_.rf_regs_per_cycle;

  // The handshakes as the datapath sees them at this rising edge.
  const bool accepted = presented_tag_ && model_.in_ready();
  const bool out_valid = model_.out_valid();
  const bool delivered = out_valid && out_ready_;
  const uint32_t out_tag = model_.out_tag();
  const InDatapath* leaving = nullptr;
  if (out_valid)
    for (const InDatapath& f : in_datapath_)
      if ((f.tag & 0xffff) == out_tag) {
        leaving = &f;
        break;
      }
  check_output(delivered, out_tag, leaving ? &leaving->instr : nullptr,
               leaving ? leaving->tag : 0);
  std::optional<std::pair<uint64_t, Matrix>> result;
  if (delivered && leaving)
    result.emplace(leaving->tag, unpack_datapath_d(leaving->instr, model_.out_d()));
  if (delivered && !leaving)
    cosim_.violation(0, cycle_,
                     "the datapath returned tag " + std::to_string(out_tag) +
                         ", which is not in flight");
  // The Cosim's output model needs every edge with out_ready low.
  if (!out_ready_) cosim_.datapath_backpressure(cycle_);
  held_ = out_valid && !out_ready_;
  if (held_) {
    held_tag_ = out_tag;
    held_full_tag_ = leaving ? leaving->tag : 0;
    std::copy(model_.out_d(), model_.out_d() + kDatapathDWords, held_d_.begin());
  }
  model_.rising_edge();

  if (accepted) {
    cosim_.datapath_accept(*presented_tag_, cycle_, presented_since_ <= last_accept_);
    last_accept_ = cycle_;
    presented_tag_.reset();
    model_.set_in_valid(false);
  }

  // D leaves the datapath into the write-back queue (a late one first).
  if (late_) {
    take_result(late_->first, late_->second);
    late_.reset();
  }
  if (result) {
    if (fault_due(Fault::kLate)) {
      late_ = std::move(result);
      fault_done_ = true;
    } else {
      take_result(result->first, result->second);
    }
  }

  // Write-back: one instruction at a time at the register file's bandwidth.
  if (!write_back_.empty()) {
    WritingBack& wb = write_back_.front();
    wb.words_left -= bandwidth;
    if (wb.words_left <= 0) {
      const auto found = std::find(isolated_tags_.begin(), isolated_tags_.end(), wb.tag);
      const bool isolated = found != isolated_tags_.end();
      if (isolated) isolated_tags_.erase(found);
      if (fault_due(Fault::kDBit)) {
        wb.d.at(0, 0) ^= 1;
        fault_done_ = true;
      }
      if (fault_due(Fault::kLaneSwap)) {
        for (int lane = 1; lane < kLanes; ++lane) {
          bool differ = false;
          for (int reg = 0; reg < wb.d.regs_per_lane; ++reg)
            differ |= wb.d.at(0, reg) != wb.d.at(lane, reg);
          if (!differ) continue;
          for (int reg = 0; reg < wb.d.regs_per_lane; ++reg)
            std::swap(wb.d.at(0, reg), wb.d.at(lane, reg));
          fault_done_ = true;
          break;
        }
      }
      if (drive_lane_view_) show_lanes(wb.instr, wb.d);
      cosim_.retire(wb.tag, wb.d, cycle_, isolated);
      results_.push_back(std::move(wb.d));
      write_back_.pop_front();
      --in_flight_;
    }
  }

  // Operand collection: the next request's registers are read at the
  // register file's bandwidth, starting in the cycle it arrives.
  if (!collecting_ && !pending_.empty()) {
    const bool isolated = in_flight_ == pending_.size() && !presented_tag_;
    collecting_ = Collecting{next_tag_++, std::move(pending_.front()), 0};
    pending_.pop_front();
    collecting_->words_left = source_words(collecting_->request.instr);
    cosim_.issue(collecting_->tag, collecting_->request.instr, collecting_->request.operands,
                 collecting_->request.name, cycle_ - 1);
    if (isolated) isolated_tags_.push_back(collecting_->tag);
  }
  if (collecting_) {
    if (collecting_->words_left > 0) collecting_->words_left -= bandwidth;
    if (collecting_->words_left <= 0 && !presented_tag_) {
      drive_inputs(collecting_->tag, collecting_->request);
      model_.set_in_valid(true);
      presented_tag_ = collecting_->tag;
      presented_since_ = cycle_;
      in_datapath_.push_back(
          {collecting_->tag, collecting_->request.instr, collecting_->request.name});
      collecting_.reset();
    }
  }

  // Back-pressure: out_ready for the next rising edge.
  if (stimulus_.backpressure > 0) {
    out_ready_ = std::uniform_real_distribution<double>(0, 1)(backpressure_rng_) >=
                 stimulus_.backpressure;
    model_.set_out_ready(out_ready_);
  }
  model_.falling_edge();
  if (pause_when_idle_ && idle()) sc_core::sc_pause();
}

}  // namespace tcu
