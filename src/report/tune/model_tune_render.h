#pragma once
// Renderers of `ncdx tune --model` (model/tune/nccl_model_tune.h): a text table per collective,
// every row marked predicted, and JSON "schema": "ncdx.tune/1" with "backend": "model",
// "predicted": true (docs/schema/tune.schema.json), and the tuner file's header comment.
#include <nlohmann/json.hpp>

#include <string>

#include "model/tune/nccl_model_tune.h"

namespace ncdx::report {

struct ModelTuneView {
  const model::tune::ModelTuneResult* result = nullptr;
  std::string spec;             // --spec as given
  std::string nccl;             // the NCCL version modelled
  std::string nccl_algo, nccl_proto;  // NCCL_ALGO/NCCL_PROTO the jobs run with ("" = unset)
  int nnodes = 0, nranks = 0;
  double min_gain = 0.05;
  std::string calibration;      // the file, "" = NCCL's own constants
  double bw_scale = 1, lat_scale = 1;
  std::string tuner_path;       // where the CSV was written
  std::string tuner_text;
  std::string env_path;         // "" = no env file written
  std::string env_removed;      // an earlier run's env file at the same path, removed ("" = none)
};

// The CSV's header comment: what it is (predicted), for which communicator, how to load it.
std::string model_tune_file_header(const ModelTuneView& v);
std::string render_model_tune_text(const ModelTuneView& v);
nlohmann::json model_tune_json(const ModelTuneView& v, const nlohmann::json& context);

}  // namespace ncdx::report
