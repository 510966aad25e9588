// `tcu list`: every supported PTX spelling by family (and, with the RTL, the
// configurations of this build).
#include <iostream>
#include <string>

#include "exit_codes.h"
#include "subcommand.h"
#ifdef TCU_HAVE_RTL
#include "datapath_model.h"
#endif

namespace tcu::cli {
namespace {

void print_list(bool plain) {
  const tcu::Family kFamilies[] = {tcu::Family::kInt4Dense, tcu::Family::kInt4Sparse,
                                   tcu::Family::kF16, tcu::Family::kF64, tcu::Family::kE2m1};
  for (tcu::Family family : kFamilies) {
    if (!plain) std::cout << tcu::to_string(family) << ":\n";
    for (const tcu::Instr& instr : tcu::all_variants()) {
      if (instr.family != family) continue;
      std::cout << (plain ? "" : "  ") << instr.ptx() << "\n";
      // The default scale vector may be left out.
      if (instr.family == tcu::Family::kE2m1 && !instr.mxf4nvf4 && instr.explicit_scale_vec) {
        tcu::Instr implicit = instr;
        implicit.explicit_scale_vec = false;
        std::cout << (plain ? "" : "  ") << implicit.ptx() << "\n";
      }
    }
  }
  if (plain) return;
  std::cout << "(a trailing ';' is accepted)\n";
#ifdef TCU_HAVE_RTL
  // The RTL configurations of this build (--config), and the families each
  // leaves out.
  std::cout << "RTL configurations (--config):\n";
  for (const auto& [name, config] : tcu::datapath_configs()) {
    std::cout << "  " << name << ":";
    std::string without;
    for (tcu::Family family : kFamilies)
      if (const char* param = tcu::disabled_by(config, family))
        without += std::string(without.empty() ? "" : ", ") + tcu::to_string(family) + " (" +
                   param + "=0)";
    std::cout << " int4 " << config.int4_macs_per_cycle << ", e2m1 " << config.e2m1_macs_per_cycle
              << " MACs/cycle; f16 " << config.f16_fmas_per_cycle << ", f64 "
              << config.f64_fmas_per_cycle << " FMAs/cycle; stages int " << config.int_stages
              << ", e2m1 " << config.e2m1_stages << ", fma " << config.fma_stages
              << "; operand router " << config.words_per_cycle << " words/cycle in, "
              << config.d_words_per_cycle << " out" << (config.gather_bypass ? "" : ", no bypass")
              << (config.synth_impl ? "; the units' synthesis implementations (SynthImpl=1)" : "");
    std::cout << (without.empty() ? "; every family" : "; without " + without) << "\n";
  }
#endif
}

class ListCommand : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    CLI::App* cmd = app.add_subcommand("list", "print every supported PTX spelling by family");
    cmd->add_flag("--plain", plain_, "one spelling per line, no family headings");
    return cmd;
  }
  int run(const Invocation&) override {
    print_list(plain_);
    return tcu::kExitOk;
  }

 private:
  bool plain_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace tcu::cli
