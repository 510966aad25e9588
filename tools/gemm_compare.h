// `tcu gemm --compare a100`: the GEMM's modelled rate beside the NVIDIA
// A100's published peak (tcu/reference_timing.h): the MACs a cycle one unit
// takes, the utilization the GEMM reaches on it, and what 108 SMs x 4
// sub-partitions of such units give at the A100's clock.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu {

// Why `instr` cannot be compared with `gpu_name`'s rates ("--compare a100: no
// published A100 rate for f16"), or empty.
std::string compare_error(const std::string& gpu_name, const Instr& instr);

// Prints the comparison for a GEMM of `instr` at `dp` that reached
// `utilization` of the unit's peak (`basis`: "measured" or "estimate") and
// stores it in *details.
void print_peak_comparison(const DatapathConfig& dp, const Instr& instr, double utilization,
                           const char* basis, std::ostream& out, nlohmann::ordered_json* details);

}  // namespace tcu
