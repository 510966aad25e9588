#include "warp_frontend.h"

#include <algorithm>

namespace tcu {
namespace {

int elem_width(ElemType t) { return elem_bits(t); }

// Packs elements into a bit vector, element i at [i*width +: width], with an
// optional index remap (for the scale matrices' fixed row stride).
template <int N>
sc_dt::sc_bv<N> pack(const std::vector<uint64_t>& elems, int width,
                     const std::vector<int>* position = nullptr) {
  std::vector<uint32_t> words(N / 32, 0);
  for (size_t i = 0; i < elems.size(); ++i) {
    // Widths divide 32 or are 64, so an element never straddles two words.
    const size_t bit = size_t(position ? (*position)[i] : int(i)) * size_t(width);
    if (width == 64) {
      words[bit / 32] = uint32_t(elems[i]);
      words[bit / 32 + 1] = uint32_t(elems[i] >> 32);
    } else {
      words[bit / 32] |= uint32_t((elems[i] & ((1ull << width) - 1)) << (bit % 32));
    }
  }
  sc_dt::sc_bv<N> out;
  for (int w = 0; w < N / 32; ++w) out.set_word(w, words[w]);
  return out;
}

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

WarpFrontEnd::WarpFrontEnd(sc_core::sc_module_name name, DatapathSignals* signals,
                           const DatapathConfig& datapath, const FrontEndConfig& front_end,
                           bool drive_lane_view)
    : sc_module(name),
      s_(*signals),
      datapath_(datapath),
      front_end_(front_end),
      cosim_(datapath, front_end),
      drive_lane_view_(drive_lane_view) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void WarpFrontEnd::issue(IssueRequest request) {
  pending_.push_back(std::move(request));
  ++in_flight_;
}

bool WarpFrontEnd::idle() const { return in_flight_ == 0; }

void WarpFrontEnd::drive_inputs(uint64_t tag, const IssueRequest& r) {
  const Instr& in = r.instr;
  const Operands ops = gather_operands(in, r.operands);
  s_.in_family.write(uint32_t(in.family));
  s_.in_a_signed.write(in.a_type == ElemType::kS4);
  s_.in_b_signed.write(in.b_type == ElemType::kS4);
  s_.in_satfinite.write(in.satfinite);
  s_.in_k32.write(in.shape.k == 32);
  s_.in_rnd.write(uint32_t(in.rounding));
  s_.in_c_f16.write(in.c_type == ElemType::kF16);
  s_.in_d_f16.write(in.d_type == ElemType::kF16);
  s_.in_scale_4x.write(in.scale_vec == ScaleVec::k4X);
  s_.in_tag.write(uint32_t(tag & 0xffff));
  s_.in_a.write(pack<4096>(ops.a.elems, elem_width(in.a_type)));
  s_.in_b.write(pack<2048>(ops.b.elems, elem_width(in.b_type)));
  s_.in_c.write(pack<8192>(ops.c.elems, elem_width(in.c_type)));
  if (in.sparse()) s_.in_meta.write(pack<512>(ops.meta.elems, 4));
  if (in.block_scaled()) {
    std::vector<int> position(ops.scale_a.elems.size());
    for (int row = 0; row < ops.scale_a.rows; ++row)
      for (int block = 0; block < ops.scale_a.cols; ++block)
        position[size_t(row * ops.scale_a.cols + block)] = row * 4 + block;
    s_.in_scale_a.write(pack<512>(ops.scale_a.elems, 8, &position));
    s_.in_scale_b.write(pack<256>(ops.scale_b.elems, 8));
  }
  if (drive_lane_view_) show_lanes(in, r.operands);
}

void WarpFrontEnd::show_lanes(const Instr& instr, const WarpOperands& w) {
  const int reg_bits_a = fragment_layout(instr, Operand::kA).reg_bits();
  sc_dt::sc_bv<16384> view;
  for (int lane = 0; lane < kLanes; ++lane) {
    std::vector<uint32_t> words;
    append_words(w.a, lane, reg_bits_a, &words);
    append_words(w.b, lane, reg_bits_a, &words);
    append_words(w.c, lane, reg_bits_a, &words);
    append_words(w.e, lane, 32, &words);
    append_words(w.scale_a, lane, 32, &words);
    append_words(w.scale_b, lane, 32, &words);
    for (size_t i = 0; i < words.size() && i < 16; ++i) view.set_word(int(lane * 16 + i), words[i]);
  }
  s_.lane_src.write(view);
}

void WarpFrontEnd::show_lanes(const Instr& instr, const Fragment& d) {
  const int reg_bits = fragment_layout(instr, Operand::kD).reg_bits();
  sc_dt::sc_bv<8192> view;
  for (int lane = 0; lane < kLanes; ++lane) {
    std::vector<uint32_t> words;
    append_words(d, lane, reg_bits, &words);
    for (size_t i = 0; i < words.size() && i < 8; ++i) view.set_word(int(lane * 8 + i), words[i]);
  }
  s_.lane_dst.write(view);
}

void WarpFrontEnd::tick() {
  ++cycle_;
  const int bandwidth = front_end_.rf_regs_per_cycle;

  // Input handshake, as the datapath saw it at this edge.
  if (presented_tag_ && s_.in_valid.read() && s_.in_ready.read()) {
    cosim_.datapath_accept(*presented_tag_, cycle_, presented_since_ <= last_accept_);
    last_accept_ = cycle_;
    presented_tag_.reset();
    s_.in_valid.write(false);
  }

  // Output handshake: D leaves the datapath into the write-back queue.
  if (s_.out_valid.read() && s_.out_ready.read()) {
    const uint64_t tag = s_.out_tag.read();
    auto it = std::find_if(in_datapath_.begin(), in_datapath_.end(),
                           [&](const auto& p) { return (p.first & 0xffff) == tag; });
    if (it == in_datapath_.end()) {
      SC_REPORT_ERROR("tcu", "datapath returned an unknown tag");
    } else {
      const Instr instr = it->second;
      const uint64_t full_tag = it->first;
      in_datapath_.erase(it);
      cosim_.datapath_result(full_tag, cycle_);
      const auto& layout = fragment_layout(instr, Operand::kD);
      Matrix d(layout.batches(), layout.rows(), layout.cols());
      const sc_dt::sc_bv<8192> bits = s_.out_d.read();
      const int width = elem_width(instr.d_type);
      for (size_t i = 0; i < d.elems.size(); ++i) {
        const size_t bit = i * size_t(width);
        uint64_t v = bits.get_word(int(bit / 32)) >> (bit % 32);
        if (width == 64) v |= uint64_t(bits.get_word(int(bit / 32) + 1)) << 32;
        d.elems[i] = width == 64 ? v : v & ((1ull << width) - 1);
      }
      write_back_.push_back({full_tag, instr, layout.scatter(d), dest_words(instr)});
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
      s_.in_valid.write(true);
      presented_tag_ = collecting_->tag;
      presented_since_ = cycle_;
      in_datapath_.emplace_back(collecting_->tag, collecting_->request.instr);
      collecting_.reset();
    }
  }
}

}  // namespace tcu
