#include "gemm_compare.h"

#include <cstdio>

#include "tcu/reference_timing.h"

namespace tcu {
namespace {

// Dense-equivalent MACs a cycle of the instruction's engine (a sparse slice
// covers 64 logical k).
double dense_equivalent_peak(const DatapathConfig& dp, const Instr& instr) {
  return double(dot_units(dp, instr.family)) * double(instr.macs()) / double(unit_slices(instr));
}

}  // namespace

std::string compare_error(const std::string& gpu_name, const Instr& instr) {
  if (gpu_name != "a100") return "--compare " + gpu_name + ": unknown GPU (known: a100)";
  if (!a100_gpu().peak(instr.family))
    return "--compare a100: no published A100 tensor rate for " +
           std::string(to_string(instr.family)) + " (" + instr.ptx() +
           "; the A100 rates are int4 dense, int4 sparse and f64)";
  return "";
}

void print_peak_comparison(const DatapathConfig& dp, const Instr& instr, double utilization,
                           const char* basis, std::ostream& out, nlohmann::ordered_json* details) {
  const GpuReference& gpu = a100_gpu();
  const PeakRate& rate = *gpu.peak(instr.family);
  const double gpu_per_unit = gpu.macs_per_cycle_per_unit(rate);
  const double model_per_unit = dense_equivalent_peak(dp, instr);
  const double model_tera_ops = gpu.tera_ops(model_per_unit * utilization);
  char line[256];
  std::snprintf(line, sizeof line,
                "  against the %s (%s peak %.1f TOPS; %d SMs x %d sub-partitions at %.2f GHz):\n",
                gpu.name, rate.what, rate.tera_ops, gpu.sms, gpu.sub_partitions_per_sm,
                gpu.clock_ghz);
  out << line;
  std::snprintf(line, sizeof line, "    %-34s %8.1f MACs/cycle\n", "A100, per sub-partition",
                gpu_per_unit);
  out << line;
  std::snprintf(line, sizeof line, "    %-34s %8.1f MACs/cycle\n",
                "model, per unit (dense-equivalent)", model_per_unit);
  out << line;
  std::snprintf(line, sizeof line, "    %-34s %8.3f%% (%s)\n", "this GEMM's utilization",
                100 * utilization, basis);
  out << line;
  const std::string scaled = "model x " + std::to_string(gpu.units()) + " units at the clock";
  std::snprintf(line, sizeof line, "    %-34s %8.1f TOPS, %.3f%% of the published peak\n",
                scaled.c_str(), model_tera_ops, 100 * model_tera_ops / rate.tera_ops);
  out << line;
  (*details)["compare"] = {{"gpu", gpu.name},
                           {"rate", rate.what},
                           {"published_tera_ops", rate.tera_ops},
                           {"gpu_macs_per_cycle_per_unit", gpu_per_unit},
                           {"model_macs_per_cycle_per_unit", model_per_unit},
                           {"utilization", utilization},
                           {"utilization_basis", basis},
                           {"model_tera_ops", model_tera_ops}};
}

}  // namespace tcu
