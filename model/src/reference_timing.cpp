#include "tcu/reference_timing.h"

#include <cstdlib>

namespace tcu {
namespace {

// Every figure below is stated here once; the sources are a100_sources().
const std::vector<TimingReference> kA100Timing = {
    {"int4 m16n8k64", "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "MMA_2x_collect", 17, 18,
     8, "A100 int4 peak: 1,024 MACs a cycle per sub-partition; 8,192 MACs / 1,024", true, true,
     "IMMA.16864. NAK maps no IMMA; its registers (A 4, B 2, C 4) and its 8 issue cycles are "
     "HMMA.16816's, which NAK's comment puts in MMA_2x_collect"},
    {"int4 m8n8k32", "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", "IMMA_88", 13, 14, 2,
     "m8n8k32 .s4 measured at 1,229-1,248 TOPS (the m8n8k32 measurement): 2,048 MACs / 1,024", false, true,
     "latency not calibrated: the model's latency grows with an instruction's issue cycles, "
     "operand words and D words, all fewer for this shape than for m16n8k64 through the same "
     "int4 units, so at any parameters it is at least 6 cycles (the issue cycles alone) below "
     "m16n8k64's, where NAK has IMMA_88 4 below MMA_2x_collect; no parameter lengthens the "
     "small shape alone. NAK lists IMMA_88 with MMA_1x_collect in every row, its "
     "write-after-write delay too (4), which would fit 4 issue cycles, not the measured 2"},
    {"int4 sparse m16n8k64", "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "MMA_1x_collect",
     13, 14, 4, "A100 sparse int4 peak: 2,048 dense-equivalent MACs a cycle; 8,192 / 2,048", true,
     false,
     "NAK maps no sparse MMA. Read by issue cycles: every NAK class whose rate is known has "
     "latency = 9 + its issue interval (HMMA.1688 4 -> 13, MMA_1x_collect; HMMA.16816 8 -> 17, "
     "MMA_2x_collect; DMMA 16 -> 25), and NAK's write-after-write delays between MMAs are the "
     "same issue cycles (MMA_1x_collect 4, MMA_2x_collect 8, DMMA 16); this instruction issues "
     "every 4, so MMA_1x_collect (read as MMA_2x_collect, 17 / 18, the model would miss by "
     "3-4). Interval not "
     "reached: its 288 source words at WordsPerCycle=64, the router's maximum, take 5 cycles"},
    {"f64 m8n8k4", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "DMMA", 25, 26, 16,
     "A100 f64 tensor peak: 16 FMAs a cycle per sub-partition; 256 FMAs / 16", true, true,
     "DMMA.884"},
    {"f16 m8n8k4", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "", 0, 0, 0, "", false, false,
     "not calibrated: m8n8k4 .f16 is Volta's shape, not a native sm_80 tensor instruction (the "
     "PTX ISA: optimised for sm_70, may be substantially slower on other targets)"},
    {"e2m1 m16n8k64",
     "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", "", 0, 0,
     0, "", false, false,
     "not calibrated: block-scaled e2m1 (.kind::mxf4) needs sm_120a-class targets (PTX ISA 8.7); "
     "sm_80 has no e2m1"},
};

const AccelSimReference kA100AccelSim = {12, 8, 25, 16};

const GpuReference kA100 = {"NVIDIA A100 SXM4",
                            108,
                            4,
                            1.41,
                            {{Family::kInt4Dense, "int4 dense", 1248},
                             {Family::kInt4Sparse, "int4 sparse (dense-equivalent)", 2496},
                             {Family::kF64, "f64", 19.5}}};

const std::vector<ReferenceSource> kA100Sources = {
    {"NAK",
     "Mesa, src/nouveau/compiler/nak/sm80_instr_latencies.rs, RegLatencySM80::read_after_write "
     "(register scheduling figures NVIDIA provided for Ampere): writer class to a CoupledAlu "
     "reader and to a reader of the same MMA class; read at commit 00fe8e45a0db (GitHub mirror "
     "bminor/mesa-mesa)"},
    {"A100 whitepaper",
     "NVIDIA A100 Tensor Core GPU Architecture (2020), Table 1: peak INT4 Tensor 1,248 TOPS "
     "(2,496 sparse), FP64 Tensor 19.5 TFLOPS, FP16 Tensor 312 TFLOPS; 108 SMs of 4 Tensor "
     "Cores (one per sub-partition), boost clock 1,410 MHz"},
    {"m8n8k32 measurement",
     "the m8n8k32 .s4 throughput measured at 1,229-1,248 TOPS, as the project's tracker "
     "reports it; the measurement's own source is not given"},
    {"Accel-Sim trace",
     "accel-sim/accel-sim-framework gpu-simulator/configs/tested-cfgs/SM80_A100/trace.config "
     "(commit d907fc849f0f): -trace_opcode_latency_initiation_tensor 12,8, used for every "
     "HMMA, IMMA and DMMA (gpu-simulator/ISA_Def/ampere_opcode.h: SPECIALIZED_UNIT_3)"},
    {"GPGPU-Sim PTX",
     "accel-sim/gpgpu-sim_distribution configs/tested-cfgs/SM80_A100/gpgpusim.config (commit "
     "9f767fb80a4f): -ptx_opcode_latency_tesnor 25 (sic) and -ptx_opcode_initiation_tensor 16, "
     "a PTX tensor instruction's; its dp options (6 / 4) are DADD/DFMA's, not DMMA's"},
};

}  // namespace

const PeakRate* GpuReference::peak(Family family) const {
  for (const PeakRate& rate : peaks)
    if (rate.family == family) return &rate;
  return nullptr;
}

const std::vector<TimingReference>& a100_timing_references() { return kA100Timing; }
const AccelSimReference& a100_accel_sim() { return kA100AccelSim; }
const GpuReference& a100_gpu() { return kA100; }
const std::vector<ReferenceSource>& a100_sources() { return kA100Sources; }

std::vector<ModelTiming> a100_model_timing(const DatapathConfig& dp) {
  FrontEndConfig fe;
  fe.rf_regs_per_cycle = dp.words_per_cycle;  // tcu run's default
  std::vector<ModelTiming> rows;
  for (const TimingReference& reference : kA100Timing) {
    ModelTiming row;
    row.reference = &reference;
    row.instr = parse_ptx(reference.ptx);
    row.latency = instruction_latency(dp, fe, row.instr);
    row.interval = issue_interval(dp, fe, row.instr);
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::string> a100_calibration_misses(const DatapathConfig& dp) {
  std::vector<std::string> misses;
  for (const ModelTiming& row : a100_model_timing(dp)) {
    const TimingReference& ref = *row.reference;
    const std::string family = ref.family;
    if (ref.latency_claimed && (std::abs(row.latency - ref.alu_latency) > 1 ||
                                std::abs(row.latency - ref.mma_latency) > 1))
      misses.push_back(family + ": latency " + std::to_string(row.latency) +
                       ", more than one cycle from NAK's " + ref.nak_class + " " +
                       std::to_string(ref.alu_latency) + " / " + std::to_string(ref.mma_latency));
    if (ref.interval_claimed && row.interval != ref.interval)
      misses.push_back(family + ": issue interval " + std::to_string(row.interval) +
                       ", not the A100's " + std::to_string(ref.interval));
  }
  return misses;
}

}  // namespace tcu
