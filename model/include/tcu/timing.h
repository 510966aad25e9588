// The one timing formula of the model. The RTL (rtl/tcu_datapath.sv) is built
// to it, the SystemC front-end adds operand delivery to it, and the tests
// check both against it (tests/test_timing.cpp; the co-verification of
// `tcu run`, which checks every instruction's cycles against it).
#pragma once

#include <string>

#include "tcu/datapath_config.h"
#include "tcu/front_end_config.h"
#include "tcu/instr.h"

namespace tcu {

// tcu::DatapathConfig, the core's parameters, its ==, datapath_parameters()
// and datapath_config_error(), tcu::FrontEndConfig (the front-end's), and
// the unit table's functions below (dot_units, slice_macs, unit_latency,
// disabled_by) are generated from spec/config.toml (tcu_tools.spec.gen_config,
// when a build is configured).

// The parameter that leaves `family` without an engine in `config`
// ("F64Enable"; for sparse "Int4Enable", else "SparseEnable"), or nullptr
// if the configuration has its engine.
const char* disabled_by(const DatapathConfig& config, Family family);
// The error for an instruction that `config` (named `config_name`) cannot
// run, naming the configuration, the variant and the parameter; empty if
// it can run it.
std::string disabled_error(const std::string& config_name, const DatapathConfig& config,
                           const Instr& instr);

// Front-end parameters (systemc/, tcu::FrontEndConfig): the warp's register
// file and operand collector (tcu/register_file.h). The defaults leave
// rf_regs_per_cycle the only bound: 16 banks of one read and one write port
// serve every source (at most 12) and destination (at most 8) register of
// an instruction in a cycle.
// Why the front-end cannot read `fe.rf_regs_per_cycle` register words a
// cycle into the core `dp` ("--rf-bandwidth 64: more than the operand
// router's WordsPerCycle=32 ..."), or empty if it can.
std::string rf_bandwidth_error(const DatapathConfig& dp, const FrontEndConfig& fe);

// Dot-product units of a family: int4 units are 32 MACs wide, e2m1 units
// compute a whole 64-long scaled dot, f16/f64 units chain four FMAs.
int dot_units(const DatapathConfig& config, Family family);
// Unit invocations per instruction: one per D element, two for a dense
// k=64 int4 element (two 32-wide halves). Sparse k=64 needs one: the
// sparse mux leaves 32 non-zero products.
int unit_slices(const Instr& instr);
// Multiply-accumulates one unit slice issues: 32 for int4 (sparse too: the
// 32 stored, non-zero elements of a compressed row), 64 for e2m1, 4 FMAs
// for f16 and f64.
int slice_macs(Family family);
// Multiply-accumulates an instruction issues to the dot units (what the
// RTL's activity counters count): unit_slices x slice_macs, which is
// m*n*k (times the four quad pairs of m8n8k4 .f16), and for sparse m*n*32,
// the non-zero products, half the logical (dense-equivalent) m*n*64.
long issued_macs(const Instr& instr);
// The most MACs a family's units take in one cycle: dot_units x slice_macs
// (the configuration's Int4MacsPerCycle, E2m1MacsPerCycle, F16FmasPerCycle
// or F64FmasPerCycle).
long peak_issued_macs_per_cycle(const DatapathConfig& config, Family family);
// Pipeline depth of a family's dot unit (input to result).
int unit_latency(const DatapathConfig& config, Family family);

// Cycles the datapath's slice sequencer is busy with one instruction: the
// initiation interval of back-to-back instructions of one family.
int datapath_occupancy(const DatapathConfig& config, const Instr& instr);
// Cycles from the accepting input handshake to the output's valid, D
// leaving the pipelines. Back-pressure adds the cycles the pipelines hold
// (the output skid register full and this D waiting) to both figures, and
// the output handshake waits in the skid register for out_ready
// (docs/architecture.md, "Timing"; the Cosim's output model).
int datapath_latency(const DatapathConfig& config, const Instr& instr);

// 32-bit register words the front-end reads (A, B, C, metadata, scales) and
// writes (D) for one instruction across the warp.
int source_words(const Instr& instr);
int dest_words(const Instr& instr);
// Cycles from the first beat of an instruction's register words to the
// cycle the datapath may take them: the register file's collect_cycles
// (register_file.h) at rf_regs_per_cycle words a cycle, plus one without
// the router's bypass (GatherBypass=0).
int collection_cycles(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr);
// Cycles D's write-back takes after the router took D: the register file's
// writeback_cycles with the words arriving at min(rf_regs_per_cycle,
// DWordsPerCycle) a cycle (the front-end takes a router beat of
// DWordsPerCycle words whenever its write buffer needs more words).
int write_back_cycles(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr);
// The front-end configuration the write-back runs at: rf_regs_per_cycle
// lowered to DWordsPerCycle.
FrontEndConfig write_back_front_end(const DatapathConfig& dp, const FrontEndConfig& fe);
// Cycles from issue to the D registers written back, through the front-end:
// collection_cycles + datapath_latency + write_back_cycles. A dependent
// instruction issued this many cycles after `instr` reads D in its first
// collection cycle.
int instruction_latency(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr);
// Cycles between the starts of back-to-back collections: collection_cycles
// less the cycle a router without the bypass adds, which is latency, not
// interval (rtl/tcu_operand_router.sv takes the next start in the cycle it
// hands the operands over).
int collection_interval(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr);
// Cycles between the issues of back-to-back independent instructions of one
// variant: the front-end collects an instruction's operands and writes the
// previous D back while the datapath works, so the longest of
// collection_interval, datapath_occupancy and write_back_cycles.
int issue_interval(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr);

}  // namespace tcu
