#pragma once
// How each rank ended, as the launcher reports it: torchrun's failure block, mpirun's and srun's
// exit lines. Read line by line with a little per-file state (the block spreads one rank over
// several lines).
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "analyze/triage/model.h"

namespace ncdx::analyze {

struct ExitBlockState {
  std::optional<int> rank;          // torchrun: the entry being read ("rank : N (local_rank: M)")
  std::optional<std::string> host;  // torchrun: "host : H" comes before the rank line
  std::optional<long long> time;    // torchrun: "time : T" comes before the host line
  bool root = false;                // inside "Root Cause (first observed failure):"
  std::optional<int> mpi_rank;      // mpirun: "Process name: [[j,1],N]" waiting for its "Exit code:"
  bool mpi_first = false;           // after "The first process to do so was:"
  bool srun_seen = false;           // srun: a task exit line was read already
};

// Reads one line's text (prefixes removed). Returns true when the line was a launcher exit line.
// `exits` grows by at most `max_ranks` entries (hostile input).
bool read_exit_line(std::string_view text, ExitBlockState& st, std::map<int, RankExit>& exits,
                    std::size_t max_ranks = 100000);

}  // namespace ncdx::analyze
