// `ncdx doctor`: preflight a node. Probes the live machine (or --root tree, or --from
// snapshot/bundle), runs the check registry, prints text or JSON, optionally writes a report
// directory and a snapshot. Exit code = worst check status (FAIL 2, WARN 1).
#include <cctype>
#include <cstdio>
#include <iostream>

#include "analyze/doctor_run.h"
#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/json.h"
#include "core/strings.h"
#include "core/term.h"
#include "knowledge/model_families.h"
#include "probe/machine_probe.h"
#include "report/doctor_render.h"

namespace ncdx::cli {

namespace {

// "256M", "1G", "4096" → bytes; nullopt for anything else.
std::optional<std::size_t> parse_byte_size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  double mult = 1;
  std::string num = text;
  switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K': mult = 1024.0; break;
    case 'M': mult = 1024.0 * 1024; break;
    case 'G': mult = 1024.0 * 1024 * 1024; break;
    default: break;
  }
  if (mult > 1) num.pop_back();
  auto v = core::parse_double(num);
  if (!v || *v <= 0 || *v * mult > 1e13) return std::nullopt;
  return static_cast<std::size_t>(*v * mult);
}
struct DoctorOptions {
  bool quick = false, full = false, list = false;
  std::string save, from, storage_dir, io_size = "1G", model_size;
  double timeout_s = 600;
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
  // Flags first: a usage error must not cost a probe of the machine.
  analyze::DoctorOptions dopt;
  dopt.full = o.full;
  dopt.storage_dir = o.storage_dir;
  auto io = parse_byte_size(o.io_size);
  if (!io) return fail_with(core::Status::usage("--io-size '" + o.io_size + "': expected a size like 256M or 1G"));
  dopt.io_bytes = *io;
  if (!o.model_size.empty()) {
    auto b = knowledge::parse_size_token(o.model_size);
    if (!b) return fail_with(core::Status::usage("--model-size '" + o.model_size + "': expected a size like 7B or 70B"));
    dopt.model_params = *b * 1e9;
  }
  if (o.timeout_s <= 0) return fail_with(core::Status::usage("--timeout must be positive (seconds)"));
  dopt.timeout_s = o.timeout_s;
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
  cmd->add_option("--ckpt-dir,--storage-dir", o.storage_dir, "checkpoint directory for the --full storage fsync test (default: current directory)");
  cmd->add_option("--io-size", o.io_size, "bytes written and read by the storage test (K/M/G suffixes)")->capture_default_str();
  cmd->add_option("--model-size", o.model_size, "with --full: estimate the checkpoint write time of this model (7B, 70B …) "
                                                "at 14 B/param against --timeout");
  cmd->add_option("--timeout", o.timeout_s, "collective timeout in seconds the checkpoint must fit in")->capture_default_str();
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
