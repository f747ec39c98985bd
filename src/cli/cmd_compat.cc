// `ncdx compat`: detect (or take as flags) driver / CUDA / NCCL / torch / verl / vLLM / SGLang
// versions and check them against knowledge/data/compat.yaml (analyze/compat.h).
#include <cstdio>
#include <iostream>
#include <sstream>

#include "analyze/compat.h"
#include "cli/command.h"
#include "cli/env_render.h"
#include "core/fs.h"
#include "core/json.h"
#include "core/semver.h"
#include "core/table.h"
#include "core/term.h"
#include "probe/package_versions.h"
#include "report/context.h"

namespace ncdx::cli {
namespace {

struct CompatOpts {
  std::string driver, cuda, nccl, torch, verl, vllm, sglang;
  std::vector<std::string> prefixes;
};

std::optional<std::string> opt(const std::string& s) { return s.empty() ? std::nullopt : std::optional<std::string>(s); }

core::Color color_of(const std::string& st) {
  return st == "FAIL" ? core::Color::red : st == "WARN" ? core::Color::yellow : st == "SKIP" ? core::Color::grey : core::Color::green;
}

std::string render_text(const analyze::CompatReport& r, bool color) {
  std::ostringstream o;
  core::Table comps({"COMPONENT", "VERSION", "FOUND AT"});
  for (const auto& c : r.components)
    comps.add({c.name, c.version.value_or("not found"), c.source.empty() ? "-" : c.source});
  o << comps.render(color, 80) << "\n";
  if (!r.gpu_models.empty()) {
    o << "GPUs:";
    for (const auto& g : r.gpu_models) o << " [" << g << "]";
    o << "\n\n";
  }
  if (r.rows.empty()) {
    o << "No checks apply (nothing detected; pass versions as flags, e.g. --driver 550.54.14 --torch 2.6.0).\n";
    return o.str();
  }
  core::Table t({"STATUS", "CHECK", "FOUND", "EXPECTED"});
  for (const auto& x : r.rows)
    t.add({core::Cell(x.status, color_of(x.status)), x.check, x.found, x.expected.empty() ? "-" : x.expected});
  o << t.render(color, 70) << "\n";
  int i = 0;
  for (const auto& x : r.rows) {
    if (x.why.empty()) continue;
    o << "[" << ++i << "] " << x.check << ": " << x.why << "\n";
    if (!x.fix.empty()) o << "    fix: " << x.fix << "\n";
    if (!x.source.empty()) o << "    source: " << x.source << "\n";
  }
  return o.str();
}

int run(const CompatOpts& o, const GlobalOptions& g) {
  for (const auto& [flag, v] : {std::pair{"--driver", &o.driver}, {"--cuda", &o.cuda}, {"--nccl", &o.nccl},
                                {"--torch", &o.torch}, {"--verl", &o.verl}, {"--vllm", &o.vllm}, {"--sglang", &o.sglang}})
    if (!v->empty() && !core::Version::parse(*v)) {
      std::fprintf(stderr, "ncdx compat: %s expects a version, got '%s'\n", flag, v->c_str());
      return 64;
    }
  core::FileSystem fs(g.root);
  analyze::CompatInput in;
  in.driver = opt(o.driver); in.cuda = opt(o.cuda); in.nccl = opt(o.nccl); in.torch = opt(o.torch);
  in.verl = opt(o.verl); in.vllm = opt(o.vllm); in.sglang = opt(o.sglang);
  in.detected = probe::detect_stack(fs, o.prefixes);
  auto report = analyze::check_compat(in);
  std::string status = analyze::worst_status(report);
  if (g.json) {
    nlohmann::json seen = nlohmann::json::object();
    for (const auto& c : report.components)
      if (c.name == "nccl" || c.name == "cuda" || c.name == "driver")
        seen[c.name] = c.version ? nlohmann::json(*c.version) : nlohmann::json(nullptr);
    nlohmann::json j = {{"schema", "ncdx.compat/1"}};
    j["context"] = report::make_context(seen, !g.no_timestamps);
    const nlohmann::json body = analyze::to_json(report);
    for (auto& [k, v] : body.items()) j[k] = v;
    j["summary"] = {{"status", status}};
    j["site_dirs"] = in.detected.site_dirs;
    std::cout << core::dump_json(j);
  } else {
    std::cout << render_text(report, core::color_enabled(stdout) && !g.no_color);
  }
  return exit_for_status(status);
}

}  // namespace

CLI::App* add_compat(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static CompatOpts o;
  auto* cmd = root.add_subcommand("compat", "check driver / CUDA / NCCL / PyTorch / verl / vLLM / SGLang versions against each other");
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
