#include "core/redact.h"

#include <cstring>

#include "core/strings.h"

extern char** environ;

namespace ncdx::core {

bool is_secret_name(std::string_view name) {
  std::string up;
  for (char c : name) up.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  static const char* needles[] = {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL",
                                  "AUTH", "PRIVATE", "COOKIE", "SESSION_ID"};
  for (auto* n : needles)
    if (up.find(n) != std::string::npos) return true;
  return false;
}

std::string redact_value(std::string_view name, std::string_view value) {
  return is_secret_name(name) ? std::string("<redacted>") : std::string(value);
}

std::string redact_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    auto eq = text.find('=', i);
    if (eq == std::string_view::npos) break;
    // name = run of [A-Za-z0-9_] right before '='
    std::size_t s = eq;
    while (s > i && (std::isalnum(static_cast<unsigned char>(text[s - 1])) || text[s - 1] == '_')) --s;
    std::string_view name = text.substr(s, eq - s);
    out.append(text.substr(i, eq + 1 - i));
    std::size_t e = eq + 1;
    while (e < text.size() && text[e] != ' ' && text[e] != '\t' && text[e] != '\n' && text[e] != ',' &&
           text[e] != ';' && text[e] != '"' && text[e] != '\'')
      ++e;
    if (!name.empty() && is_secret_name(name) && e > eq + 1)
      out += "<redacted>";
    else
      out.append(text.substr(eq + 1, e - eq - 1));
    i = e;
  }
  out.append(text.substr(i));
  return out;
}

std::map<std::string, std::string> relevant_env() {
  static const char* prefixes[] = {"NCCL_", "TORCH_", "CUDA_", "NVIDIA_", "PYTORCH_", "VERL_",
                                   "RAY_", "VLLM_", "SGLANG_", "OMPI_", "SLURM_", "PMIX_",
                                   "MASTER_", "WORLD_SIZE", "RANK", "LOCAL_RANK", "GLOO_", "UCX_",
                                   "FI_", "LD_LIBRARY_PATH", "HF_TOKEN", "WANDB_"};
  std::map<std::string, std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    auto name = kv.substr(0, eq);
    bool keep = false;
    for (auto* p : prefixes)
      if (name.substr(0, std::strlen(p)) == p) keep = true;
    if (keep) out[std::string(name)] = redact_value(name, kv.substr(eq + 1));
  }
  return out;
}

}  // namespace ncdx::core
