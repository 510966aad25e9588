// `tcu run --jobs N`: the shards of a run in parallel child processes (this
// same executable, spawned with --shard, --jobs 1 and a JSON --report each),
// merged into the usual per-variant lines and summary.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "report.h"
#include "run.h"

namespace tcu {

struct ChildShard {
  int index = 0, count = 1;  // the child's --shard i/N
  std::string report_path;
  std::string progress_path;
};

// child_args(shard) gives the arguments after argv[0] for one child;
// program_name becomes the children's argv[0]. Returns the worst exit code
// of the children and of the merged result.
int run_parallel(const RunOptions& options, int jobs, const std::string& program_name,
                 const std::function<std::vector<std::string>(const ChildShard&)>& child_args,
                 std::ostream& out, std::ostream& err, Report* report);

}  // namespace tcu
