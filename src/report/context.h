#pragma once
// The "context" block every JSON output carries (docs/OUTPUT.md "JSON"): host, tool version,
// versions seen, relevant env (redacted).
#include <nlohmann/json.hpp>

namespace ncdx::report {

// `seen` may hold "nccl", "cuda", "driver" versions the command observed; absent ones are null.
nlohmann::json make_context(const nlohmann::json& seen = nlohmann::json::object(),
                            bool timestamps = true);

}  // namespace ncdx::report
