#pragma once
// The inputs `ncdx model` and `ncdx tune --model` share: the NCCL version (--nccl, else the NCCL
// log's, else 2.27.7), NCCL's own facts from its log (--nccl-log: Pattern lines, NCCL_ALGO/PROTO),
// the cluster (--spec) and the calibration on a measured sweep (--calibrate).
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include "analyze/judge/calibrate.h"
#include "core/result.h"
#include "model/cost/nccl_log_inputs.h"
#include "model/cost/predict.h"

namespace ncdx::cli {

struct ModelInputFlags {
  std::string spec, nccl, nccl_log, algo, proto, calibrate;
};

struct ModelInputs {
  model::cost::NcclVersion version;                     // what to model
  std::optional<model::cost::NcclVersion> given_version;  // --nccl or the log's
  std::optional<model::cost::ClusterSpec> spec;
  model::cost::Options options;                         // NCCL_ALGO/PROTO, graphs, calibration scales
  std::optional<analyze::judge::Calibration> calibration;
};

// A file or '-' (stdin), at most 256 MiB.
core::Result<std::string> read_input(const std::string& path);

// nccl-tests' sizes -b, -b x f, ... up to -e (at most 200); usage errors name the flags.
core::Result<std::vector<std::uint64_t>> model_sizes(const std::string& b, const std::string& e, const std::string& f);

// Warnings and the calibration line go to stderr as "ncdx <cmd>: ...".
core::Result<ModelInputs> load_model_inputs(const ModelInputFlags& f, const char* cmd);

}  // namespace ncdx::cli
