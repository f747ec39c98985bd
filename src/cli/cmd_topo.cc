// `ncdx topo`: show the GPU/NIC/CPU topology of a node and, with --pick K, the best K-GPU subset
// with its CUDA_VISIBLE_DEVICES, CPU binding (taskset/numactl) and nearest NICs (NCCL_IB_HCA).
// Inputs: --smi FILE (`nvidia-smi topo -m` text, '-' = stdin), --xml FILE (NCCL topology XML),
// --from FILE (a JSON with a "topology" object: doctor's snapshot or `ncdx topo --json`). ncdx
// never runs nvidia-smi; the live machine is read through NVML (doctor's probe).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analyze/topo/checks.h"
#include "analyze/topo/pick.h"
#include "core/read_bounded.h"
#include "core/strings.h"
#include "core/finding.h"
#include "core/outcome.h"
#include "cli/command.h"
#include "report/topo_report.h"
#include "core/json.h"
#include "core/term.h"
#include "probe/topo_json.h"
#include "probe/topo_live.h"
#include "probe/topo_smi_parse.h"
#include "probe/topo_xml_parse.h"
#include "report/context.h"
#include "report/sanitize.h"

namespace ncdx::cli {
namespace {

struct TopoOptions {
  std::string smi, xml, from;
  std::string input;  // positional: which of the three it is, is read from its first byte
  int pick = 0;
};

constexpr std::size_t kMaxInput = 16u << 20;

core::Result<std::string> read_input(const std::string& path) {
  return core::read_bounded(path, kMaxInput, "not a topology");
}

// `ncdx topo FILE`: NCCL's XML starts with '<', a JSON snapshot with '{', anything else is taken
// as `nvidia-smi topo -m` text (whose parser names the line it could not read).
core::Status route_positional(TopoOptions& o) {
  if (o.input.empty()) return core::Status::ok();
  if (!o.smi.empty() || !o.xml.empty() || !o.from.empty())
    return core::Status::usage("give the topology once: as FILE or with --smi/--xml/--from");
  if (o.input == "-") {
    o.smi = o.input;
    return core::Status::ok();
  }
  auto text = read_input(o.input);
  if (!text) return text.status();
  auto body = core::trim(*text);
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  (body.starts_with("<") ? o.xml : body.starts_with("{") ? o.from : o.smi) = o.input;
  return core::Status::ok();
}

core::Result<probe::TopoMatrix> load(TopoOptions o) {
  if (auto st = route_positional(o); !st) return st;
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
  return probe::live_topology();  // NVML only (never nvidia-smi)
}

int run(const TopoOptions& o, const GlobalOptions& g) {
  auto m = load(o);
  if (!m) return fail("topo", m.status());
  std::optional<analyze::TopoPick> pick;
  if (o.pick) {
    auto p = analyze::pick_gpus(*m, o.pick);
    if (!p) return fail("topo", p.status());
    pick = std::move(*p);
  }
  auto findings = analyze::topo_findings(*m);
  std::string input = !o.smi.empty() ? o.smi : !o.xml.empty() ? o.xml : o.from;
  if (g.json) {
    std::cout << core::dump_json(report::topo_json(*m, input, pick, findings,
                                                   report::make_context(nlohmann::json::object(), !g.no_timestamps)));
  } else {
    bool color = core::color_enabled(stdout);
    const std::size_t width = core::output_columns(stdout);
    std::cout << report::sanitize_text(report::render_topology(*m, input, color, width), color);
    std::cout << report::sanitize_text(report::render_topo_findings(findings, color, width), color);
    if (pick) std::cout << "\n" << report::sanitize_text(report::render_pick(*m, *pick, width));
  }
  // Exit: the findings' code (2 error, 1 warn), at least 1 when the pick carries warnings.
  return core::exit_code_for(report::topo_tally(findings, pick).worst());
}

}  // namespace

CLI::App* add_topo(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("topo");
  static TopoOptions o;
  cmd->add_option("input", o.input, "a topology file, its kind read from its content: nvidia-smi topo -m text, NCCL XML or JSON");
  cmd->add_option("--smi", o.smi, "`nvidia-smi topo -m` output (a file, or - for stdin)");
  cmd->add_option("--xml", o.xml, "NCCL topology XML (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE)");
  cmd->add_option("--from", o.from, "JSON with a \"topology\" object (doctor snapshot, ncdx topo --json)");
  cmd->add_option("--pick", o.pick, "choose the best K GPUs and print their binding")->check(CLI::Range(1, 4096));
  cmd->callback([&exit_code, &global] { exit_code = run(o, global); });
  return cmd;
}

}  // namespace ncdx::cli
