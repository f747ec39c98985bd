// `ncdx compat`: detect (or take as flags) driver / CUDA / NCCL / torch / verl / vLLM / SGLang
// versions and check them against knowledge/data/compat.yaml and compat_pins.tsv (analyze/compat/compat.h).
#include <cstdio>
#include <iostream>

#include "analyze/compat/compat.h"
#include "cli/command.h"
#include "core/fs.h"
#include "core/json.h"
#include "core/outcome.h"
#include "core/semver.h"
#include "core/term.h"
#include "probe/package_versions.h"
#include "report/compat_render.h"
#include "report/context.h"
#include "report/sanitize.h"

namespace ncdx::cli {
namespace {

struct CompatOpts {
  std::string driver, cuda, nccl, torch, verl, vllm, sglang;
  std::vector<std::string> prefixes;
};

std::optional<std::string> opt(const std::string& s) { return s.empty() ? std::nullopt : std::optional<std::string>(s); }

int run(const CompatOpts& o, const GlobalOptions& g) {
  for (const auto& [flag, v] : {std::pair{"--driver", &o.driver}, {"--cuda", &o.cuda}, {"--nccl", &o.nccl},
                                {"--torch", &o.torch}, {"--verl", &o.verl}, {"--vllm", &o.vllm}, {"--sglang", &o.sglang}})
    if (!v->empty() && !core::Version::parse(*v))
      return fail("compat", core::Status::usage(std::string(flag) + " expects a version, got '" + *v + "'"));
  core::FileSystem fs(g.root);
  analyze::CompatInput in;
  in.driver = opt(o.driver); in.cuda = opt(o.cuda); in.nccl = opt(o.nccl); in.torch = opt(o.torch);
  in.verl = opt(o.verl); in.vllm = opt(o.vllm); in.sglang = opt(o.sglang);
  in.detected = probe::detect_stack(fs, o.prefixes);
  auto checked = analyze::check_compat(in);
  if (g.json) {
    nlohmann::json seen = nlohmann::json::object();
    for (const auto& c : checked.components)
      if (c.name == "nccl" || c.name == "cuda" || c.name == "driver")
        seen[c.name] = c.version ? nlohmann::json(*c.version) : nlohmann::json(nullptr);
    std::cout << core::dump_json(report::compat_json(checked, report::make_context(seen, !g.no_timestamps), in.detected.site_dirs));
  } else {
    std::cout << report::sanitize_text(report::render_compat_text(checked, core::color_enabled(stdout) && !g.no_color, core::output_columns(stdout)), core::color_enabled(stdout) && !g.no_color);
  }
  return core::exit_code_of(checked.rows);
}

}  // namespace

CLI::App* add_compat(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static CompatOpts o;
  auto* cmd = root.add_subcommand("compat");
  cmd->add_option("--driver", o.driver, "NVIDIA driver version (default: /proc/driver/nvidia/version)");
  cmd->add_option("--cuda", o.cuda, "CUDA runtime version (default: libcudart / version.json / pip wheel)");
  cmd->add_option("--nccl", o.nccl, "NCCL version (default: pip nvidia-nccl-cu1x next to torch, else libnccl.so.X.Y.Z)");
  cmd->add_option("--torch", o.torch, "PyTorch version (default: torch-*.dist-info)");
  cmd->add_option("--verl", o.verl, "verl version");
  cmd->add_option("--vllm", o.vllm, "vLLM version");
  cmd->add_option("--sglang", o.sglang, "SGLang version");
  cmd->add_option("--python-prefix", o.prefixes, "a venv/conda prefix whose lib/python3*/site-packages to search (repeatable)");
  cmd->callback([&exit_code, &global] { exit_code = run(o, global); });
  return cmd;
}

}  // namespace ncdx::cli
