// `ncdx topo`: show the GPU/NIC/CPU topology of a node and, with --pick K, the best K-GPU subset
// with its CUDA_VISIBLE_DEVICES, CPU binding (taskset/numactl) and nearest NICs (NCCL_IB_HCA).
// Inputs: --smi FILE (`nvidia-smi topo -m` text, '-' = stdin), --xml FILE (NCCL topology XML),
// --from FILE (a JSON with a "topology" object: doctor's snapshot or `ncdx topo --json`). ncdx
// never runs nvidia-smi; the live machine is read through NVML (doctor's probe).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analyze/topo_pick.h"
#include "cli/command.h"
#include "report/topo_report.h"
#include "core/json.h"
#include "core/term.h"
#include "probe/topo_json.h"
#include "probe/topo_smi_parse.h"
#include "probe/topo_xml_parse.h"
#include "report/context.h"
#include "vendor/dynlib.h"

namespace ncdx::cli {
namespace {

struct TopoOptions {
  std::string smi, xml, from;
  int pick = 0;
};

constexpr std::size_t kMaxInput = 16u << 20;

core::Result<std::string> read_input(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
  } else {
    std::ifstream f(path, std::ios::binary);
    if (!f) return core::Status::not_found(path + ": cannot open");
    ss << f.rdbuf();
  }
  std::string s = ss.str();
  if (s.size() > kMaxInput) return core::Status::bad_input(path + ": larger than 16 MiB, not a topology");
  return s;
}

core::Result<probe::TopoMatrix> load(const TopoOptions& o) {
  int given = !o.smi.empty() + !o.xml.empty() + !o.from.empty();
  if (given > 1) return core::Status::usage("give only one of --smi, --xml, --from");
  if (!o.smi.empty()) {
    auto text = read_input(o.smi);
    if (!text) return text.status();
    return probe::parse_smi_topo(*text, o.smi == "-" ? "<stdin>" : o.smi);
  }
  if (!o.xml.empty()) {
    auto text = read_input(o.xml);
    if (!text) return text.status();
    return probe::parse_nccl_topo_xml(*text, o.xml == "-" ? "<stdin>" : o.xml);
  }
  if (!o.from.empty()) {
    auto text = read_input(o.from);
    if (!text) return text.status();
    auto j = core::parse_json(*text, o.from);
    if (!j) return j.status();
    const nlohmann::json* topo = nullptr;
    if (j->is_object() && j->contains("topology")) topo = &(*j)["topology"];
    if (!topo || topo->is_null())
      return core::Status::bad_input(o.from + ": no \"topology\" object (expected a doctor snapshot or `ncdx topo --json` output)");
    return probe::topo_from_json(*topo, o.from);
  }
  // Live machine: NVML only (never nvidia-smi). The NVML topology probe belongs to doctor.
  auto nvml = vendor::DynLib::open({"libnvidia-ml.so.1"}, {}, "NCDX_NVML_LIB");
  if (!nvml.loaded())
    return core::Status::not_found("no NVIDIA driver (libnvidia-ml.so.1 not found); give --smi FILE or --xml FILE");
  return core::Status::not_found("reading the live topology through NVML is not available in this build; "
                                 "give --smi FILE or --xml FILE");
}

int run(const TopoOptions& o, const GlobalOptions& g) {
  auto m = load(o);
  if (!m) {
    std::fprintf(stderr, "ncdx topo: %s\n", m.status().message().c_str());
    return core::to_int(m.status().code());
  }
  std::optional<analyze::TopoPick> pick;
  if (o.pick) {
    auto p = analyze::pick_gpus(*m, o.pick);
    if (!p) {
      std::fprintf(stderr, "ncdx topo: %s\n", p.status().message().c_str());
      return core::to_int(p.status().code());
    }
    pick = std::move(*p);
  }
  std::string input = !o.smi.empty() ? o.smi : !o.xml.empty() ? o.xml : o.from;
  if (g.json) {
    nlohmann::json j;
    j["schema"] = "ncdx.topo/1";
    j["context"] = report::make_context(nlohmann::json::object(), !g.no_timestamps);
    j["input"] = input;
    j["topology"] = probe::to_json(*m);
    j["pick"] = pick ? report::pick_json(*m, *pick) : nlohmann::json(nullptr);
    std::cout << core::dump_json(j);
  } else {
    bool color = core::color_enabled(stdout);
    std::cout << report::render_topology(*m, input, color);
    if (pick) std::cout << "\n" << report::render_pick(*m, *pick);
  }
  return pick && !pick->warnings.empty() ? 1 : 0;
}

}  // namespace

CLI::App* add_topo(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("topo", "show GPU/NIC/CPU topology; pick the best GPU subset and CPU/NIC binding");
  static TopoOptions o;
  cmd->add_option("--smi", o.smi, "`nvidia-smi topo -m` output (a file, or - for stdin)");
  cmd->add_option("--xml", o.xml, "NCCL topology XML (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE)");
  cmd->add_option("--from", o.from, "JSON with a \"topology\" object (doctor snapshot, ncdx topo --json)");
  cmd->add_option("--pick", o.pick, "choose the best K GPUs and print their binding")->check(CLI::Range(1, 4096));
  cmd->callback([&exit_code, &global] { exit_code = run(o, global); });
  return cmd;
}

}  // namespace ncdx::cli
