// libFuzzer target: a verl YAML config (untrusted) through the OmegaConf-typed reader and the
// composition with the schema defaults and a few overrides: never crash, hang or blow up memory
// (alias bombs are bounded), bad YAML is a Status.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze/config/config_tree.h"
#include "analyze/config/verl_compose.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx;
  analyze::ComposeInput in;
  in.yaml_text = std::string(reinterpret_cast<const char*>(data), size);
  in.yaml_name = "fuzz.yaml";
  for (const char* o : {"trainer.nnodes=2", "+actor_rollout_ref.nccl_timeout=1200", "~data"}) in.overrides.push_back(*analyze::parse_override(o));
  for (bool bare : {true, false}) {
    in.bare = bare;
    in.verl = core::V(bare ? "0.5.0" : "0.7.1");
    auto r = analyze::compose_verl(in);
    if (r.ok()) (void)analyze::flatten(r->tree);
  }
  return 0;
}
