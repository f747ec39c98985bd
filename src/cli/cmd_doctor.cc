// `ncdx doctor`: preflight a node. Probes the live machine (or --root tree, or --from
// snapshot/bundle), runs the check registry, prints text or JSON, optionally writes a report
// directory and a snapshot. Exit code = worst check status (FAIL 2, WARN 1).
#include <cstdio>
#include <iostream>

#include "analyze/doctor_run.h"
#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/json.h"
#include "core/term.h"
#include "probe/machine_probe.h"
#include "report/doctor_render.h"

namespace ncdx::cli {

namespace {
struct DoctorOptions {
  bool quick = false, full = false, list = false;
  std::string save, from, storage_dir;
};

int fail_with(const core::Status& s) {
  std::fprintf(stderr, "ncdx doctor: %s\n", s.message().c_str());
  return core::to_int(s.code());
}

int run_doctor_command(const GlobalOptions& g, const DoctorOptions& o) {
  if (o.list) {
    std::cout << report::render_check_catalog();
    return 0;
  }
  probe::Inventory inv;
  if (!o.from.empty()) {
    auto r = probe::load_from(o.from, o.quick);
    if (!r) return fail_with(r.status());
    inv = std::move(*r);
  } else {
    std::error_code ec;
    if (g.root != "/" && !std::filesystem::is_directory(g.root, ec))
      return fail_with(core::Status::not_found(g.root + ": --root is not a directory"));
    probe::ProbeOptions po;
    po.quick = o.quick;
    inv = probe::probe_machine(core::FileSystem(g.root), po);
  }
  analyze::DoctorOptions dopt;
  dopt.full = o.full;
  dopt.storage_dir = o.storage_dir;
  auto run = analyze::run_doctor(std::move(inv), dopt);
  if (!o.save.empty()) {
    nlohmann::json snap = {{"schema", "ncdx.snapshot/1"}, {"inventory", probe::to_json(run.inventory)}};
    if (auto s = core::write_file_atomic(o.save, core::dump_json(snap)); !s) return fail_with(s);
  }
  if (!g.output.empty()) {
    if (auto s = report::write_report_dir(g.output, report::doctor_report_files(run, !g.no_timestamps), g.force); !s) return fail_with(s);
  }
  if (g.json) std::cout << core::dump_json(report::render_doctor_json(run, !g.no_timestamps));
  else std::cout << report::render_doctor_text(run, core::color_enabled(stdout));
  return run.exit_code;
}
}  // namespace

CLI::App* add_doctor(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("doctor", "preflight this node: GPUs, NVLink, PCIe, network, IB, OS limits, NCCL libraries");
  static DoctorOptions o;
  auto* quick = cmd->add_flag("--quick", o.quick, "skip per-link counters, P2P matrices and library dlopen (< 5 s)");
  auto* full = cmd->add_flag("--full", o.full, "also run measurements (copy bandwidth, shm and storage throughput)");
  quick->excludes(full);
  cmd->add_option("--storage-dir", o.storage_dir, "directory for the --full storage fsync test (default: current directory)");
  cmd->add_option("--save", o.save, "write the probed inventory as a snapshot JSON (replay with --from)");
  cmd->add_option("--from", o.from, "analyse a snapshot JSON or a bundle directory from `ncdx gather` instead of this machine");
  cmd->add_flag("--list-checks", o.list, "print the check registry as Markdown (docs/CHECKS.md)");
  cmd->callback([&global, &exit_code] {
    try {
      exit_code = run_doctor_command(global, o);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ncdx doctor: internal error: %s\n", e.what());
      exit_code = core::to_int(core::Exit::internal);
    }
  });
  return cmd;
}

}  // namespace ncdx::cli
