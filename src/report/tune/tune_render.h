#pragma once
// Renderers of `ncdx tune` (model/tune/mpi_tune.h, nccl_tune.h): a text table per collective
// and JSON "schema": "ncdx.tune/1" (docs/schema/tune.schema.json).
#include <nlohmann/json.hpp>

#include <string>

#include "model/tune/mpi_tune.h"
#include "model/tune/nccl_tune.h"

namespace ncdx::report {

std::string render_tune_text(const model::tune::MpiTuneReport& r);
nlohmann::json tune_json(const model::tune::MpiTuneReport& r, const nlohmann::json& context);
// --backend nccl: the same tables and per-collective JSON, with the library, the communicator's
// nNodes/nRanks, the tuner CSV, the env file (null unless one setting won everywhere) and the
// pairs NCCL could not run here.
std::string render_nccl_tune_text(const model::tune::NcclTuneReport& r);
nlohmann::json nccl_tune_json(const model::tune::NcclTuneReport& r, const nlohmann::json& context);

}  // namespace ncdx::report
