#pragma once
// Renderers of `ncdx tune --backend mpi` (model/tune/mpi_tune.h): a text table per collective
// and JSON "schema": "ncdx.tune/1" (docs/schema/tune.schema.json).
#include <nlohmann/json.hpp>

#include <string>

#include "model/tune/mpi_tune.h"

namespace ncdx::report {

std::string render_tune_text(const model::tune::MpiTuneReport& r);
nlohmann::json tune_json(const model::tune::MpiTuneReport& r, const nlohmann::json& context);

}  // namespace ncdx::report
