#pragma once
// The pins a release declares in its own metadata (knowledge/compat_pins.h), as `ncdx compat`
// judges them: which torch a vLLM or SGLang release requires, which NCCL wheel a torch wheel
// requires, which vllm/sglang/torch verl's extras require. Each answer cites the metadata line.
#include <optional>
#include <string>
#include <vector>

#include "analyze/compat/compat.h"

namespace ncdx::analyze {

struct ReleasePin {
  std::string dependency;  // "torch", "nvidia-nccl-cu12"
  std::string spec;        // "==2.6.0"
  std::string source;      // "PyPI vllm 0.8.5 metadata: Requires-Dist torch==2.6.0"
};

// The pin `package` `version` declares on `dependency` when installed with `extra` ("" = the
// plain install); nullopt when the release is not in the table or names no version of it.
std::optional<ReleasePin> release_pin(const std::string& package, const std::string& version,
                                      const std::string& dependency, const std::string& extra = "");

// Whether the table lists the release at all (a listed release without a pin pins nothing).
bool release_listed(const std::string& package, const std::string& version);

// `<engine>-torch` (vllm-torch, sglang-torch): the installed torch against the torch the engine
// release requires. No row when the release pins no torch.
void check_engine_torch(std::vector<CompatRow>& rows, const std::string& engine, const std::string& engine_version,
                        const std::string& torch_version);

}  // namespace ncdx::analyze
