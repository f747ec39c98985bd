#pragma once
// Secret redaction (docs/OUTPUT.md "JSON"), by name AND by value: values of variables whose names
// look secret, and values shaped like credentials wherever they sit (GitHub/HF/OpenAI/Slack
// tokens, AWS key ids, URL passwords, Bearer/Basic credentials), never reach any output or bundle.
#include <map>
#include <string>
#include <string_view>

namespace ncdx::core {

bool is_secret_name(std::string_view name);
// Returns "<redacted>" for secret names, the value with credential-shaped parts redacted otherwise.
std::string redact_value(std::string_view name, std::string_view value);
// True when a value holds a credential-shaped part (whatever its name).
bool looks_secret_value(std::string_view value);
// Redacts secrets inside free text (a log line that echoes the env): NAME=value, NAME="v",
// NAME='v', NAME: v, "NAME": "v", and credential-shaped values anywhere.
std::string redact_text(std::string_view text);
// The current process environment, filtered to names relevant to NCCL/PyTorch/CUDA/verl and
// redacted. Everything else is left out: outputs must not leak unrelated env.
std::map<std::string, std::string> relevant_env();

}  // namespace ncdx::core
