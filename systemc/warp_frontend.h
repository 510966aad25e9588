// The warp front-end: 32 lanes of registers, operand collection at the
// register file's bandwidth, issue into the Verilated datapath, collection
// of D and write-back into the lanes' destination registers. Every step is
// reported to the golden model's Cosim, which checks it.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "tcu/cosim.h"
#include "tcu/golden.h"
#include "tcu/timing.h"

namespace tcu {

// The signals between the front-end and the Verilated tcu_sim_top, with
// the C++ types Verilator's SystemC output gives each port width.
struct DatapathSignals {
  sc_core::sc_signal<bool> rst_n{"rst_n"};
  sc_core::sc_signal<bool> in_valid{"in_valid"}, in_ready{"in_ready"};
  sc_core::sc_signal<uint32_t> in_family{"in_family"};
  sc_core::sc_signal<bool> in_a_signed{"in_a_signed"}, in_b_signed{"in_b_signed"};
  sc_core::sc_signal<bool> in_satfinite{"in_satfinite"}, in_k32{"in_k32"};
  sc_core::sc_signal<uint32_t> in_rnd{"in_rnd"};
  sc_core::sc_signal<bool> in_c_f16{"in_c_f16"}, in_d_f16{"in_d_f16"};
  sc_core::sc_signal<bool> in_scale_4x{"in_scale_4x"};
  sc_core::sc_signal<uint32_t> in_tag{"in_tag"};
  sc_core::sc_signal<sc_dt::sc_bv<4096>> in_a{"in_a"};
  sc_core::sc_signal<sc_dt::sc_bv<2048>> in_b{"in_b"};
  sc_core::sc_signal<sc_dt::sc_bv<8192>> in_c{"in_c"};
  sc_core::sc_signal<sc_dt::sc_bv<512>> in_meta{"in_meta"};
  sc_core::sc_signal<sc_dt::sc_bv<512>> in_scale_a{"in_scale_a"};
  sc_core::sc_signal<sc_dt::sc_bv<256>> in_scale_b{"in_scale_b"};
  sc_core::sc_signal<bool> out_valid{"out_valid"}, out_ready{"out_ready"};
  sc_core::sc_signal<uint32_t> out_tag{"out_tag"};
  sc_core::sc_signal<sc_dt::sc_bv<8192>> out_d{"out_d"};
  sc_core::sc_signal<sc_dt::sc_bv<16384>> lane_src{"lane_src"};
  sc_core::sc_signal<sc_dt::sc_bv<8192>> lane_dst{"lane_dst"};
};

struct IssueRequest {
  Instr instr;
  WarpOperands operands;
  std::string name;  // case name for error messages
};

SC_MODULE(WarpFrontEnd) {
  SC_HAS_PROCESS(WarpFrontEnd);
  sc_core::sc_in<bool> clk{"clk"};

  WarpFrontEnd(sc_core::sc_module_name name, DatapathSignals * signals,
               const DatapathConfig& datapath, const FrontEndConfig& front_end,
               bool drive_lane_view);

  // Queues an instruction; its D lands in results() in issue order.
  void issue(IssueRequest request);
  bool idle() const;
  std::vector<Fragment>& results() { return results_; }
  uint64_t cycle() const { return cycle_; }
  Cosim& cosim() { return cosim_; }

 private:
  struct Collecting {
    uint64_t tag;
    IssueRequest request;
    int words_left;
  };
  struct WritingBack {
    uint64_t tag;
    Instr instr;
    Fragment d;
    int words_left;
  };
  void tick();
  void drive_inputs(uint64_t tag, const IssueRequest& request);
  void show_lanes(const Instr& instr, const WarpOperands& operands);
  void show_lanes(const Instr& instr, const Fragment& d);

  DatapathSignals& s_;
  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  Cosim cosim_;
  bool drive_lane_view_;
  uint64_t cycle_ = 0;
  uint64_t next_tag_ = 0;
  std::deque<IssueRequest> pending_;
  std::optional<Collecting> collecting_;
  bool collect_isolated_ = false;
  // The request presented to the datapath, waiting for in_ready.
  std::optional<uint64_t> presented_tag_;
  uint64_t presented_since_ = 0;
  uint64_t last_accept_ = 0;
  std::deque<WritingBack> write_back_;
  std::vector<std::pair<uint64_t, Instr>> in_datapath_;  // accepted, D not yet out
  std::vector<uint64_t> isolated_tags_;
  std::vector<Fragment> results_;
  size_t in_flight_ = 0;
};

}  // namespace tcu
