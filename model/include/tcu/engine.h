// An engine computes an instruction's destination registers from the lanes'
// source registers. `tcu replay --engine NAME` picks one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tcu/activity.h"
#include "tcu/golden.h"
#include "tcu/timing.h"

namespace tcu {

// The design under test failed in a way that is not a wrong result (it hung:
// no D within the cycle limit). what() names the cases still in flight.
class DesignFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The engine cannot run the instruction at all: its configuration leaves
// out the datapath engine the instruction needs (tcu::disabled_error).
// Nothing of the stream was issued. `tcu` reports it as a usage error.
class UnsupportedInstruction : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One instruction of a stream: any variant, its lanes' registers, and the
// name its failures carry (a generator case index, a vector file's id).
// `expected`: the golden model's D of it where the caller has computed it
// already (tcu run checks every D against it), so that an engine with a
// golden scoreboard need not compute it again nor check the operands the
// golden model accepted; it must stay alive for the call. Null: the engine
// computes and checks what it needs itself.
struct StreamItem {
  Instr instr;
  WarpOperands operands;
  std::string case_id;
  const Fragment* expected = nullptr;
};

// The register file an engine's last stream went through (an RTL engine's
// front-end): the settings its collection and its write-back ran at
// (collect_schedule's, and write_back_front_end's for writeback_schedule),
// and per instruction of the stream, in issue order, the write-back cycles
// back-pressure held. The functional coverage's regfile bins are sampled
// from it.
struct RegisterFileRun {
  FrontEndConfig collect;
  FrontEndConfig write_back;
  std::vector<uint64_t> write_back_stalls;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Throws OperandError for operands that break the instruction's rules.
  virtual Fragment execute(const Instr& instr, const WarpOperands& operands) = 0;
  // Executes a batch back to back (an engine with a pipeline overlaps them).
  virtual std::vector<Fragment> execute_batch(const Instr& instr,
                                              const std::vector<WarpOperands>& batch) {
    std::vector<Fragment> out;
    out.reserve(batch.size());
    for (const auto& operands : batch) out.push_back(execute(instr, operands));
    return out;
  }
  // Executes a stream of any variants back to back, in order.
  virtual std::vector<Fragment> execute_stream(const std::vector<StreamItem>& items) {
    std::vector<Fragment> out;
    out.reserve(items.size());
    for (const StreamItem& item : items) out.push_back(execute(item.instr, item.operands));
    return out;
  }
  // The same into `out` (a D per item, in order), whose fragments' storage
  // the engine may reuse: a caller that passes the same vector batch after
  // batch lets an RTL engine write back each D without allocating.
  virtual void execute_stream_into(const std::vector<StreamItem>& items, std::vector<Fragment>* out) {
    *out = execute_stream(items);
  }
  // Simulated clock cycles so far (0 for an untimed engine).
  virtual uint64_t cycles() const { return 0; }
  // The datapath's activity counters so far (an RTL engine's); none for an
  // engine without them.
  virtual std::optional<Activity> activity() const { return std::nullopt; }
  // What the timed reference predicts of the activity counters so far (the
  // held edges, each engine's busy cycles); none without one.
  virtual std::optional<ReferenceActivity> expected_activity() const { return std::nullopt; }
  // Mismatches the engine's own scoreboard found (timing included), each
  // a line of text; cleared by the call.
  virtual std::vector<std::string> take_errors() { return {}; }
  // The register file of the last execute_stream (or execute_batch); none
  // for an engine without one (golden).
  virtual std::optional<RegisterFileRun> register_file_run() const { return std::nullopt; }
  // Writes the RTL's code coverage to `path` (Verilator's coverage.dat);
  // false when the engine has none (golden, or RTL built without coverage).
  virtual bool write_rtl_coverage(const std::string& /*path*/) { return false; }
};

class GoldenEngine : public Engine {
 public:
  std::string name() const override { return "golden"; }
  Fragment execute(const Instr& instr, const WarpOperands& operands) override {
    return golden_execute(instr, operands);
  }
};

}  // namespace tcu
