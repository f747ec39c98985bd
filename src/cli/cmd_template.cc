// `ncdx template`: print a verl run script for a model-size tier and cluster (analyze/verl_template).
#include <cstdio>
#include <iostream>

#include "analyze/audit/template.h"
#include "cli/command.h"
#include "cli/flag_checks.h"
#include "core/json.h"
#include "core/strings.h"

namespace ncdx::cli {

CLI::App* add_template(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("template");
  static analyze::TemplateInput in;
  static std::string verl = "0.7.1", nccl, torch;
  static std::optional<int> nodes;
  cmd->add_option("--model-size", in.size, core::join(analyze::template_sizes(), "|"))->required();
  cmd->add_option("--gpus-per-node", in.gpus_per_node, "GPUs per node (default 8)")->check(integer_in(1, 4096));
  cmd->add_option("--nodes", nodes, "nodes (default: the tier's usual count)")->check(integer_in(1, 1000000));
  cmd->add_option("--engine", in.engine, "vllm|sglang (default vllm)");
  cmd->add_option("--strategy", in.strategy, "fsdp|megatron (default: megatron for MoE tiers, else fsdp)");
  cmd->add_option("--fabric", in.fabric, "nvswitch|nvlink|pcie|ib|roce|efa|socket (default: nvswitch on one node, ib otherwise)");
  cmd->add_option("--gpu-mem-gib", in.gpu_mem_gib, "memory of one GPU in GiB (default 80)");
  cmd->add_option("--verl-version", verl, "target verl version (default 0.7.1: the newest that reads nccl_timeout)");
  cmd->add_option("--nccl-version", nccl, "NCCL version (env block)");
  cmd->add_option("--torch-version", torch, "PyTorch version (env block)");
  cmd->callback([&global, &exit_code] {
    auto fail = [&](const core::Status& s) { exit_code = cli::fail("template", s); };
    auto v = core::Version::parse(verl);
    if (!v) return fail(core::Status::usage("--verl-version '" + verl + "': expected a version like 0.7.1"));
    in.verl = *v;
    in.nodes = nodes;
    auto nv = version_flag("--nccl-version", nccl);
    if (!nv) return fail(nv.status());
    auto tv = version_flag("--torch-version", torch);
    if (!tv) return fail(tv.status());
    in.nccl = *nv;
    in.torch = *tv;
    auto t = analyze::make_template(in);
    if (!t) return fail(t.status());
    if (global.json) {
      nlohmann::json ov = nlohmann::json::array(), env = nlohmann::json::array();
      for (const auto& o : t->overrides) ov.push_back({{"override", o.override_text.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.override_text)}, {"why", o.comment}});
      for (const auto& [kv, why] : t->env) env.push_back({{"export", kv.empty() ? nlohmann::json(nullptr) : nlohmann::json(kv)}, {"why", why}});
      std::cout << core::dump_json({{"schema", "ncdx.template/1"}, {"model_path", t->model_path}, {"nodes", t->nodes},
                                    {"strategy", t->strategy}, {"fabric", t->fabric}, {"env", env}, {"overrides", ov},
                                    {"script", analyze::render_template(*t)}});
    } else {
      std::cout << analyze::render_template(*t);
    }
    exit_code = 0;
  });
  return cmd;
}

}  // namespace ncdx::cli
