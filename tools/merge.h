// `tcu run merge`: the JSON reports of the shards of one run (`tcu run
// --shard i/N --report F`, run anywhere: a SLURM job array, several
// machines) joined into the report of the whole run; the shards missing,
// incomplete, duplicated or of another run named; with --compare, the merged
// run checked case for case against another report of the same run.
#pragma once

#include <string>
#include <vector>

namespace tcu {

// args: the command line after "run merge". Returns an ExitCode.
int run_merge_main(const std::string& program_name, const std::vector<std::string>& args);

}  // namespace tcu
