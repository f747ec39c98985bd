// Ray timelines: from the task spans of each worker to ranks whose "collectives" are the rounds of
// a synchronous job (docs/TIMELINE.md "Real Ray timeline").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyze/timeline/trace_model.h"

namespace ncdx::analyze::timeline::ray {

struct Task {
  Ns start = 0, end = 0;
  std::uint32_t func = 0;  // StringTable id; 0 = not named by the event itself
};

struct Worker {
  std::vector<Task> tasks;        // task:execute spans
  std::vector<Task> spans;        // task::<function> spans (the whole task, named)
};

// Files each worker into `r` (r.comm, r.steps; `r` already holds the worker's identity):
// - a task:execute span without a function name takes the one of the task::<function> span that
//   contains it (ray.timeline() of Ray 2.60 names the function only there);
// - the tasks of one function are cut into rounds: sorted by start, a task that starts after every
//   earlier task of that function has ended opens a new round (a driver that ray.get()s each batch
//   before submitting the next: nothing of round k+1 runs before round k is done). Pipelined jobs
//   make one long round and no verdict, which is what their trace supports;
// - each worker's arrival at round k is the end of its last task in it (CommOp start = end, seq =
//   round, pg = coll = function), so the straggler view matches workers round by round;
// - the rounds of the worker's most frequent function are its steps (task time per round: the
//   series fail-slow reads; the compute side, as no task time is communication).
void file_workers(std::vector<Worker>& workers, std::vector<RankTrace>& ranks);

}  // namespace ncdx::analyze::timeline::ray
