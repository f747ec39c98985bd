#pragma once
// What the tune search (mpi_search.h, guided_search.cc) chooses among, independent of the
// library being tuned: a configuration is a candidate (an algorithm, or for NCCL an algorithm x
// protocol pair) with an optional secondary knob (Open MPI's segment size, NCCL's channel count).
// The search never interprets ids or knob values; the library's tuner (mpi_tune.cc,
// nccl_tune.cc) turns a configuration into MCA parameters or environment variables.
#include <compare>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ncdx::model::tune {

// alg 0 = the library's own decision (nothing forced); knob 0 = the library's default setting of
// the secondary knob.
struct Config {
  int alg = 0, knob = 0;
  auto operator<=>(const Config&) const = default;  // ordered: a map key of the searches (trial_book.h)
};

struct Candidate {
  int id = 0;             // > 0, the Config::alg that forces it
  std::string name;
  bool has_knob = false;  // tried also at each of SearchSpace::knobs
};

// The configuration the library really runs when `c` is forced at `bytes`, so that two forced
// configurations that run the same thing are measured once (Open MPI: the segmented ring below p
// segments is the ring, ompi_runs_as). Empty: every configuration runs as itself.
using RunsAs = std::function<Config(const Config&, std::size_t bytes)>;

struct SearchSpace {
  std::vector<Candidate> cands;  // the default (alg 0) is implied
  std::vector<int> knobs;        // secondary knob values besides the default 0, for has_knob candidates
  RunsAs runs_as;
};

}  // namespace ncdx::model::tune
