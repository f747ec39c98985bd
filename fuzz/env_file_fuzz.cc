// libFuzzer target: the env-file and nccl.conf readers and the linter over whatever they accept
// must never crash, hang or read out of bounds (DESIGN.md "Untrusted input").
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/config/env_file.h"
#include "analyze/env/lint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace ncdx;
  analyze::EnvLintInput in;
  for (const auto& s : analyze::parse_nccl_conf(text, "fuzz.conf")) in.env[s.name] = s.value;
  auto parsed = analyze::parse_env_file(text, "fuzz.env");
  if (parsed.ok())
    for (const auto& s : *parsed) in.env[s.name] = s.value;
  // Judge the same input at an old and a new NCCL, with a cluster shape and interfaces, so the
  // version-gated and combination rules run too.
  in.interfaces = {"lo", "eth0", "ib0"};
  in.engines = {"vllm"};
  in.cluster = analyze::ClusterShape{2, 8, "nvswitch", "ib"};
  for (const char* v : {"2.18.3", "2.24.3"}) {
    in.nccl = core::V(v);
    (void)analyze::lint_env(in);
  }
  return 0;
}
