#pragma once
// `ncdx compat`: the driver / CUDA / NCCL / PyTorch / verl / vLLM / SGLang versions of a machine
// (detected, or given as flags) checked against knowledge/data/compat.yaml and the releases' own
// pins (knowledge/data/compat_pins.tsv, see release_pins.h). Each mismatch carries its fix and source.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/outcome.h"
#include "probe/package_versions.h"

namespace ncdx::analyze {

struct CompatInput {
  // Flags override detection (each may be empty).
  std::optional<std::string> driver, cuda, nccl, torch, verl, vllm, sglang;
  probe::StackVersions detected;
};

struct Component {
  std::string name;                    // driver, cuda, torch_cuda, nccl, torch, verl, vllm, sglang
  std::optional<std::string> version;  // nullopt = not found
  std::string source;                  // "flag", a machine path, or "torch wheel tag"
  std::vector<std::string> others;     // other versions seen ("2.18.1 at /usr/lib/...")
};

struct CompatRow {
  std::string check;     // stable id: driver-cuda, torch-nccl, nccl-cuda-major, verl-vllm, ...
  core::Outcome status = core::Outcome::pass;  // PASS | WARN | FAIL | SKIP
  std::string found, expected, why, fix, source;
};

struct CompatReport {
  std::vector<Component> components;
  std::vector<CompatRow> rows;
  std::vector<std::string> gpu_models;
};

CompatReport check_compat(const CompatInput& in);
nlohmann::json to_json(const CompatReport& r);

// A PEP 440-style spec subset used by compat.yaml: "<=0.8.5", ">=0.7.3,<=0.8.5", "==0.4.6.post5".
bool satisfies(const std::string& version, const std::string& spec);

}  // namespace ncdx::analyze
