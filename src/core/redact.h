#pragma once
// Secret redaction (DESIGN.md "Secrets"): values of variables whose names look secret never
// reach any output or bundle.
#include <map>
#include <string>
#include <string_view>

namespace ncdx::core {

bool is_secret_name(std::string_view name);
// Returns "<redacted>" for secret names, the value otherwise.
std::string redact_value(std::string_view name, std::string_view value);
// Redacts NAME=value assignments inside free text (a log line that echoes the env).
std::string redact_text(std::string_view text);
// The current process environment, filtered to names relevant to NCCL/PyTorch/CUDA/verl and
// redacted. Everything else is left out: outputs must not leak unrelated env.
std::map<std::string, std::string> relevant_env();

}  // namespace ncdx::core
