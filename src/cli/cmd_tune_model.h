#pragma once
// `ncdx tune --model`: the NCCL tuner table predicted by the cost model, without GPUs
// (model/tune/nccl_model_tune.h), written as the tuner plugin's CSV and, only when one setting
// wins everywhere, an env file. Flags of its own here; cmd_tune.cc dispatches.
#include <string>

#include "cli/command.h"
#include "cli/model_inputs.h"

namespace ncdx::cli {

struct TuneModelFlags {
  bool on = false;          // --model
  ModelInputFlags in;       // --spec --nccl --nccl-log --calibrate --algo --proto
  double min_gain_pct = 5;  // --min-gain
  std::string out, tuner_file, env_file;
};

// tune's own --collectives/-b/-e/-f as given, empty where not given (then: the five NCCL
// collectives, 8 B to 4 GiB, x2).
struct TuneSweepFlags {
  std::string colls, b, e, f;
};

void add_tune_model_flags(CLI::App* cmd, TuneModelFlags& f);
int run_tune_model(const TuneModelFlags& f, const TuneSweepFlags& sweep, const GlobalOptions& g);

}  // namespace ncdx::cli
