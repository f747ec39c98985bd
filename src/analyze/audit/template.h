#pragma once
// `ncdx template`: a verl run script (env + overrides) for a model-size tier and a cluster, with a
// comment on every choice. The choices use the same facts and thresholds as `ncdx audit`, and the
// test suite audits every generated script (tests/audit/template_passes_audit.sh).
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/semver.h"

namespace ncdx::analyze {

struct TemplateInput {
  std::string size;                 // 3B|7B|14B|32B|70B|235B|671B
  int gpus_per_node = 8;
  std::optional<int> nodes;         // default per tier
  std::string engine = "vllm";      // vllm|sglang
  std::string strategy;             // fsdp|megatron; default: megatron for MoE tiers, fsdp otherwise
  std::string fabric;               // default: nvswitch on one node, ib across nodes
  double gpu_mem_gib = 80;
  core::Version verl = core::V("0.7.1");
  std::optional<core::Version> nccl, torch;
};

struct TemplateLine {
  std::string override_text;  // empty for comment-only lines
  std::string comment;
};

struct VerlTemplate {
  std::string model_path;
  int nodes = 1;
  std::string strategy, fabric;
  std::vector<std::string> header;                                // comment lines
  std::vector<std::pair<std::string, std::string>> env;           // NAME=VALUE, reason (empty NAME: comment)
  std::vector<TemplateLine> overrides;
  std::optional<std::string> config_name;
};

const std::vector<std::string>& template_sizes();
core::Result<VerlTemplate> make_template(const TemplateInput& in);
std::string render_template(const VerlTemplate& t);

}  // namespace ncdx::analyze
