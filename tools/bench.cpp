#include "bench.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "exit_codes.h"
#include "run.h"
#include "tcu/generator.h"
#include "tcu/golden.h"
#include "tcu/register_file.h"
#include "version.h"
#ifdef TCU_HAVE_RTL
#include "core_driver.h"
#include "datapath_model.h"
#include "rtl_engine.h"
#endif

namespace tcu {
namespace {

// Seconds on the clock a measurement reads: wall time (steady), or with
// --cpu-time the process's CPU time, which another process sharing the
// core does not add to.
bool g_cpu_time = false;
double now_seconds() {
  timespec t{};
  clock_gettime(g_cpu_time ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// One representative spelling per family the speed targets name.
struct BenchFamily {
  const char* name;
  const char* ptx;
};
const BenchFamily kFamilies[] = {
    {"int4 m16n8k64", "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32"},
    {"int4 m8n8k32", "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32"},
    {"int4 sparse", "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32"},
    {"e2m1",
     "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1."
     "e2m1.f32.ue8m0"},
    {"f16", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"},
    {"f64", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"},
};

// Multiply-accumulates the hardware performs (a sparse instruction skips
// the half of A that is zero).
double physical_macs(const Instr& instr) {
  return double(instr.macs()) / (instr.sparse() ? 2.0 : 1.0);
}

std::vector<WarpOperands> make_cases(const Instr& instr, int count) {
  std::vector<WarpOperands> cases;
  cases.reserve(size_t(count));
  for (int i = 0; i < count; ++i) cases.push_back(generate_operands(instr, 7, uint64_t(i)));
  return cases;
}

// Calls `round` (which does `per_round` instructions) until `seconds` pass;
// returns instructions per second.
template <class Round>
double rate(double seconds, double per_round, Round round) {
  const double start = now_seconds();
  double done = 0, elapsed = 0;
  do {
    round();
    done += per_round;
    elapsed = now_seconds() - start;
  } while (elapsed < seconds);
  return done / elapsed;
}

struct Row {
  std::string family, ptx;
  double golden_ips = 0;
  double raw_cps = 0, raw_ips = 0, raw_macs = 0, raw_cpi = 0;
  double stack_ips = 0, stack_cpi = 0;  // front-end at the router's WordsPerCycle
  double run_ips = 0;                    // `tcu run --jobs 1`'s path on the stack
  int words_per_cycle = 0;
  bool has_rtl = false;
  std::string no_rtl;  // why the RTL is not measured (its engine left out)
};

#ifdef TCU_HAVE_RTL
// The Verilated core alone, driven from plain C++: lane-order register
// words prepared beforehand, WordsPerCycle a beat, instruction after
// instruction as fast as the router takes them; D words taken at once.
void measure_raw(DatapathModel& model, const Instr& instr, const std::vector<WarpOperands>& cases,
                 double seconds, Row* row) {
  std::vector<CoreInstr> prepared;
  for (size_t i = 0; i < cases.size(); ++i)
    prepared.push_back(core_instr(instr, cases[i], uint32_t(i), model.words_per_cycle()));
  CoreFeeder feeder(&model);
  model.set_wb_ready(true);
  uint64_t cycles = 0, results = 0;
  const double start = now_seconds();
  double elapsed = 0;
  size_t next = 0;
  feeder.push(&prepared[next++]);
  feeder.drive();
  model.falling_edge();
  do {
    for (int c = 0; c < 1000; ++c) {
      feeder.sample();
      results += model.wb_valid() && model.wb_last();
      model.rising_edge();
      if (feeder.idle()) {
        feeder.push(&prepared[next]);
        next = (next + 1) % prepared.size();
      }
      feeder.drive();
      model.falling_edge();
    }
    cycles += 1000;
    elapsed = now_seconds() - start;
  } while (elapsed < seconds);
  for (int c = 0; c < 400; ++c) {  // finish the instruction being fed, drain
    feeder.sample();
    model.rising_edge();
    feeder.drive();
    model.falling_edge();
  }
  row->raw_cps = double(cycles) / elapsed;
  row->raw_ips = double(results) / elapsed;
  row->raw_cpi = results ? double(cycles) / double(results) : 0;
  row->raw_macs = row->raw_ips * physical_macs(instr);
}

// The co-verification stack: front-end, Verilated datapath, the Cosim
// scoreboard, and the result check `tcu run` makes: as `tcu run` does, the
// golden D of each case once, handed to the engine as its expectation and
// compared with what the engine returns; batches of kStackBatch cases (the
// run's batch: the pipeline drains at the end of each).
constexpr int kStackBatch = 256;
void measure_stack(Engine& engine, const Instr& instr, const std::vector<WarpOperands>& cases,
                   double seconds, double* ips, double* cpi) {
  std::vector<StreamItem> items;
  for (int i = 0; i < kStackBatch; ++i)
    items.push_back({instr, cases[size_t(i) % cases.size()], std::to_string(i)});
  std::vector<Fragment> want(items.size()), got;
  uint64_t instructions = 0;
  const uint64_t cycles_before = engine.cycles();
  *ips = rate(seconds, double(items.size()), [&] {
    for (size_t i = 0; i < items.size(); ++i) {
      golden_execute(instr, items[i].operands, &want[i]);
      items[i].expected = &want[i];
    }
    engine.execute_stream_into(items, &got);
    for (size_t i = 0; i < items.size(); ++i)
      if (want[i].regs != got[i].regs)
        throw std::runtime_error("bench: " + instr.ptx() + " result differs from the golden model");
    instructions += items.size();
  });
  if (!engine.take_errors().empty())
    throw std::runtime_error("bench: " + instr.ptx() + " scoreboard errors");
  *cpi = double(engine.cycles() - cycles_before) / double(instructions);
}

// `tcu run --jobs 1` on the same engine: tools/run.cpp's run() as the
// command calls it (case generation, each case's golden D, batches of 256
// through the engine, the checks, the result lines), kRunCases cases a
// call, each call's cases new ones (--first moves on from *first). Not
// timed: what the command does once, before and after its cases (the
// engine's construction, the activity counters' report).
constexpr uint64_t kRunCases = 1024;
double measure_run(Engine& engine, const Instr& instr, double seconds, uint64_t* first) {
  RunOptions opt;
  opt.variants = {instr};
  opt.count = kRunCases;
  opt.seed = 7;
  opt.activity = false;  // the counters count the other measurements too
  std::ostringstream out;
  return rate(seconds, double(kRunCases), [&] {
    opt.first = *first;
    *first += kRunCases;
    out.str("");
    Report report;
    if (run(engine, opt, out, &report) != kExitOk)
      throw std::runtime_error("bench: tcu run of " + instr.ptx() + " failed:\n" + out.str());
  });
}
#endif

std::string version_string() {
  return std::string(build_info().version) + " (" + build_info().git_hash + ")";
}

std::string fmt(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The families --family selects (every one without it).
std::vector<const BenchFamily*> selected_families(const BenchOptions& opt) {
  std::vector<const BenchFamily*> families;
  for (const BenchFamily& family : kFamilies) {
    bool wanted = opt.families.empty();
    for (const std::string& part : opt.families)
      wanted = wanted || std::string(family.name).find(part) != std::string::npos;
    if (wanted) families.push_back(&family);
  }
  return families;
}

// What the RTL measurements run on: the raw Verilated core and the
// co-verification stack (none without the RTL or with --golden-only).
struct RtlModels {
#ifdef TCU_HAVE_RTL
  std::unique_ptr<DatapathModel> raw;
  std::unique_ptr<Engine> stack;
#endif
};

// One family's row: each measurement the best of opt.rounds rounds, the
// family's golden, raw, stack and run rounds taking turns.
Row measure_family(const BenchOptions& opt, const BenchFamily& family, RtlModels& models) {
  Row row;
  row.family = family.name;
  const Instr instr = parse_ptx(family.ptx);
  row.ptx = instr.ptx();
  const std::vector<WarpOperands> cases = make_cases(instr, 64);
  size_t i = 0;
  uint64_t first = 0;  // the next `tcu run` case
  Fragment d;
  const double round_seconds = opt.seconds / opt.rounds;
#ifdef TCU_HAVE_RTL
  // A family whose engine the configuration leaves out is measured on the
  // golden model only; it never reaches the datapath.
  if (opt.rtl) row.no_rtl = disabled_error(opt.config, datapath_config(opt.config), instr);
  row.has_rtl = opt.rtl && row.no_rtl.empty();
  if (row.has_rtl) row.words_per_cycle = models.raw->words_per_cycle();
#else
  (void)models;
#endif
  for (int round = 0; round < opt.rounds; ++round) {
    row.golden_ips = std::max(row.golden_ips, rate(round_seconds, 64, [&] {
      for (int n = 0; n < 64; ++n, i = (i + 1) % cases.size()) d = golden_execute(instr, cases[i]);
    }));
#ifdef TCU_HAVE_RTL
    if (!row.has_rtl) continue;
    Row raw_round;
    measure_raw(*models.raw, instr, cases, round_seconds, &raw_round);
    if (raw_round.raw_ips > row.raw_ips) {
      row.raw_cps = raw_round.raw_cps;
      row.raw_ips = raw_round.raw_ips;
      row.raw_cpi = raw_round.raw_cpi;
      row.raw_macs = raw_round.raw_macs;
    }
    double stack_ips = 0, stack_cpi = 0;
    measure_stack(*models.stack, instr, cases, round_seconds, &stack_ips, &stack_cpi);
    if (stack_ips > row.stack_ips) {
      row.stack_ips = stack_ips;
      row.stack_cpi = stack_cpi;
    }
    row.run_ips = std::max(row.run_ips, measure_run(*models.stack, instr, round_seconds, &first));
#endif
  }
  return row;
}

void print_json(const BenchOptions& opt, const std::vector<Row>& rows, std::ostream& out) {
  nlohmann::json doc;
  doc["version"] = version_string();
  doc["config"] = opt.config;
  doc["front_end"] = {{"rf_bandwidth", opt.front_end.rf_regs_per_cycle},
                      {"rf_banks", opt.front_end.rf_banks},
                      {"rf_read_ports", opt.front_end.rf_read_ports},
                      {"rf_write_ports", opt.front_end.rf_write_ports}};
  doc["seconds_per_measurement"] = opt.seconds;
  doc["clock"] = opt.cpu_time ? "process CPU time" : "wall time";
  doc["rounds_per_measurement"] = opt.rounds;
  for (const Row& r : rows) {
    nlohmann::json j = {{"family", r.family}, {"ptx", r.ptx}, {"golden_instr_per_s", r.golden_ips}};
    if (!r.no_rtl.empty()) j["rtl_skipped"] = r.no_rtl;
    if (r.has_rtl) {
      j["words_per_cycle"] = r.words_per_cycle;
      j["raw_core"] = {{"cycles_per_s", r.raw_cps},
                       {"instr_per_s", r.raw_ips},
                       {"macs_per_s", r.raw_macs},
                       {"cycles_per_instr", r.raw_cpi}};
      j["cosim_stack"] = {{"instr_per_s", r.stack_ips}, {"cycles_per_instr", r.stack_cpi}};
      j["stack_to_raw_ratio"] = r.raw_ips > 0 ? r.stack_ips / r.raw_ips : 0.0;
      j["tcu_run"] = {{"instr_per_s", r.run_ips}};
      j["run_to_stack_ratio"] = r.stack_ips > 0 ? r.run_ips / r.stack_ips : 0.0;
    }
    doc["families"].push_back(j);
  }
  out << doc.dump(2) << "\n";
}

void print_table(const BenchOptions& opt, const std::vector<Row>& rows, std::ostream& out) {
  // "32 register words/cycle", and the banks where they are not the defaults.
  const std::string banks = describe_banks(opt.front_end);
  const std::string front_end = std::to_string(opt.front_end.rf_regs_per_cycle) +
                                " register words/cycle" + (banks.empty() ? "" : ", " + banks);
  out << "tcu bench: " << version_string() << ", config " << opt.config << ", one core, "
      << opt.seconds << (opt.cpu_time ? " CPU" : "") << " s per measurement, best of " << opt.rounds
      << " rounds\n";
  for (const Row& r : rows) {
    out << "\n" << r.family << "  (" << r.ptx << ")\n";
    out << "  golden model            " << fmt("%12.0f", r.golden_ips) << " instr/s\n";
    if (!r.no_rtl.empty()) out << "  RTL not measured: " << r.no_rtl << "\n";
    if (!r.has_rtl) continue;
    out << "  raw Verilated core      " << fmt("%12.0f", r.raw_ips) << " instr/s"
        << fmt("%12.0f", r.raw_cps) << " cycles/s" << fmt("%10.3g", r.raw_macs) << " MAC/s"
        << fmt("%7.2f", r.raw_cpi) << " cycles/instr\n";
    out << "  co-verification stack  " << fmt("%12.0f", r.stack_ips) << " instr/s"
        << fmt("%31.2f", r.stack_cpi) << " cycles/instr (" << front_end << ")\n";
    out << "  stack / raw core       " << fmt("%12.2f", r.raw_ips > 0 ? r.stack_ips / r.raw_ips : 0)
        << "\n";
    out << "  tcu run --jobs 1       " << fmt("%12.0f", r.run_ips) << " instr/s\n";
    out << "  tcu run / stack        "
        << fmt("%12.2f", r.stack_ips > 0 ? r.run_ips / r.stack_ips : 0) << "\n";
  }
}

}  // namespace

int bench(const BenchOptions& opt, std::ostream& out) {
  g_cpu_time = opt.cpu_time;
  const std::vector<const BenchFamily*> families = selected_families(opt);
  if (families.empty()) {
    std::string names;
    for (const BenchFamily& family : kFamilies)
      names += std::string(names.empty() ? "" : ", ") + family.name;
    std::cerr << "tcu bench: --family matches none of the families (" << names << ")\n";
    return kExitUsage;
  }
  RtlModels models;
#ifdef TCU_HAVE_RTL
  if (opt.rtl) {
    models.raw = make_datapath_model(opt.config);
    models.raw->reset();
    models.stack = make_rtl_engine(opt.config, "", opt.front_end);
  }
#endif
  std::vector<Row> rows;
  for (const BenchFamily* family : families) rows.push_back(measure_family(opt, *family, models));
  if (opt.json)
    print_json(opt, rows, out);
  else
    print_table(opt, rows, out);
  return kExitOk;
}

}  // namespace tcu
