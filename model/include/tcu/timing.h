// The one timing formula of the model. The RTL (rtl/tcu_datapath.sv) is built
// to it, the SystemC front-end adds operand delivery to it, and the tests
// check both against it (tests/test_datapath_timing.cpp, tcu run).
#pragma once

#include "tcu/instr.h"

namespace tcu {

// Datapath parameters; the same names as rtl/tcu_datapath.sv's parameters.
struct DatapathConfig {
  int int4_macs_per_cycle = 1024;  // s4/u4 (dense and sparse)
  int e2m1_macs_per_cycle = 1024;  // block-scaled e2m1
  int f16_fmas_per_cycle = 256;    // m8n8k4 .f16
  int f64_fmas_per_cycle = 16;     // m8n8k4 .f64
  int int_stages = 2;              // pipeline registers of an int4 dot unit
  int e2m1_stages = 2;             // pipeline registers of an e2m1 dot unit
  int fma_stages = 2;              // pipeline registers of one FMA
};

// Front-end parameters (systemc/).
struct FrontEndConfig {
  int rf_regs_per_cycle = 32;  // lanes' 32-bit registers read or written per cycle
};

// Dot-product units of a family: int4 units are 32 MACs wide, e2m1 units
// compute a whole 64-long scaled dot, f16/f64 units chain four FMAs.
int dot_units(const DatapathConfig& config, Family family);
// Unit invocations per instruction: one per D element, two for a dense
// k=64 int4 element (two 32-wide halves). Sparse k=64 needs one: the
// sparse mux leaves 32 non-zero products.
int unit_slices(const Instr& instr);
// Pipeline depth of a family's dot unit (input to result).
int unit_latency(const DatapathConfig& config, Family family);

// Cycles the datapath's slice sequencer is busy with one instruction: the
// initiation interval of back-to-back instructions of one family.
int datapath_occupancy(const DatapathConfig& config, const Instr& instr);
// Cycles from the accepting input handshake to the output's valid.
int datapath_latency(const DatapathConfig& config, const Instr& instr);

// 32-bit register words the front-end reads (A, B, C, metadata, scales) and
// writes (D) for one instruction across the warp.
int source_words(const Instr& instr);
int dest_words(const Instr& instr);
// Cycles from issue to the D registers written back, through the front-end.
int instruction_latency(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr);

}  // namespace tcu
