// `ncdx doctor`: preflight a node. Probes the live machine (or --root tree, or --from
// snapshot/bundle), runs the check registry, prints text or JSON, optionally writes a report
// directory and a snapshot. Exit code = worst check status (FAIL 2, WARN 1).
#include <cctype>
#include <cstdio>
#include <optional>
#include <iostream>

#include "analyze/doctor/run.h"
#include "cli/cmd_doctor_cluster.h"
#include "cli/command.h"
#include "cli/flag_checks.h"
#include "core/safe_write.h"
#include "core/json.h"
#include "core/strings.h"
#include "core/term.h"
#include "knowledge/model_families.h"
#include "probe/machine_probe.h"
#include "report/doctor_render.h"
#include "report/sanitize.h"

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
  bool quick = false, full = false, list = false, all = false;
  std::string save, from, storage_dir, io_size = "1G", model_size;
  double timeout_s = 600;
  int level = 0;  // -r 1|2|3 as `dcgmi diag -r` users expect: quick, default, full
  std::optional<int> expect_gpus, expect_nics;
  std::string expect_driver, expect_nccl;
};

int fail_with(const core::Status& s) { return fail("doctor", s); }

int run_doctor_command(const GlobalOptions& g, const DoctorOptions& o) {
  if (o.list) {
    std::cout << report::render_check_catalog();
    return 0;
  }
  // Flags first: a usage error must not cost a probe of the machine.
  analyze::DoctorOptions dopt;
  bool quick = o.quick || o.level == 1;
  dopt.full = o.full || o.level == 3;
  if (quick && dopt.full) return fail_with(core::Status::usage("--quick (-r 1) and --full (-r 3) exclude each other"));
  if (o.expect_gpus && *o.expect_gpus < 0) return fail_with(core::Status::usage("--expect-gpus must be 0 or more"));
  if (o.expect_nics && *o.expect_nics < 0) return fail_with(core::Status::usage("--expect-nics must be 0 or more"));
  dopt.expect.gpus = o.expect_gpus;
  dopt.expect.nics = o.expect_nics;
  if (!o.expect_driver.empty()) dopt.expect.driver = o.expect_driver;
  if (!o.expect_nccl.empty()) dopt.expect.nccl = o.expect_nccl;
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
    auto r = probe::load_from(o.from, quick);
    if (!r) return fail_with(r.status());
    inv = std::move(*r);
  } else {
    std::error_code ec;
    if (g.root != "/" && !std::filesystem::is_directory(g.root, ec))
      return fail_with(core::Status::not_found(g.root + ": --root is not a directory"));
    probe::ProbeOptions po;
    po.quick = quick;
    inv = probe::probe_machine(core::FileSystem(g.root), po);
  }
  auto run = analyze::run_doctor(std::move(inv), dopt);
  if (!o.save.empty()) {
    nlohmann::json snap = {{"schema", "ncdx.snapshot/1"}, {"inventory", probe::to_json(run.inventory)}};
    if (auto s = core::write_file_safe(o.save, core::dump_json(snap), g.force); !s) return fail_with(s);
  }
  if (!g.output.empty()) {
    if (auto s = report::write_report_dir(g.output, report::doctor_report_files(run, !g.no_timestamps), g.force); !s) return fail_with(s);
  }
  if (g.json) std::cout << core::dump_json(report::render_doctor_json(run, !g.no_timestamps));
  else {
    const bool color = core::color_enabled(stdout);
    std::cout << report::sanitize_text(report::render_doctor_text(run, {color, core::output_columns(stdout), o.all}), color);
  }
  return run.exit_code;
}

}  // namespace

CLI::App* add_doctor(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("doctor");
  static DoctorOptions o;
  static ClusterFlags cf;
  add_cluster_flags(cmd, cf);
  auto* quick = cmd->add_flag("--quick", o.quick, "skip per-link counters, P2P matrices and library dlopen (< 5 s)");
  auto* full = cmd->add_flag("--full", o.full, "also run measurements (copy bandwidth, shm and storage throughput)");
  quick->excludes(full);
  cmd->add_option("--ckpt-dir,--storage-dir", o.storage_dir, "checkpoint directory for the --full storage fsync test (default: current directory)");
  cmd->add_option("--io-size", o.io_size, "bytes written and read by the storage test (K/M/G suffixes)")->capture_default_str();
  cmd->add_option("--model-size", o.model_size, "with --full: estimate the checkpoint write time of this model (7B, 70B …) "
                                                "at 14 B/param against --timeout");
  cmd->add_option("--timeout", o.timeout_s, "collective timeout in seconds the checkpoint must fit in")->capture_default_str()->check(number_in(-1e18, 1e18));  // finite; <= 0 refused below
  cmd->add_option("-r,--level", o.level, "run level as in `dcgmi diag -r`: 1 = --quick, 2 = default, 3 = --full")
      ->check(CLI::Range(1, 3));
  cmd->add_option("--expect-gpus", o.expect_gpus, "FAIL unless the node has exactly N GPUs (on PCI, and in NVML when it answers)");
  cmd->add_option("--expect-nics", o.expect_nics, "FAIL unless the node has exactly N RDMA devices");
  cmd->add_option("--expect-driver", o.expect_driver, "FAIL unless the NVIDIA driver is this version (a prefix at a dot: 550)");
  cmd->add_option("--expect-nccl", o.expect_nccl, "FAIL unless a libnccl of this version is on the machine (2.21.5, or 2.21)");
  cmd->add_option("--save", o.save, "write the probed inventory as a snapshot JSON (replay with --from)");
  cmd->add_option("--from", o.from, "analyse a snapshot JSON or a bundle directory from `ncdx gather` instead of this machine");
  cmd->add_flag("--all", o.all, "list SKIP rows with the others (by default they fold into one line per reason)");
  cmd->add_flag("--list-checks", o.list, "print the check registry as Markdown (docs/CHECKS.md)");
  cmd->callback([&global, &exit_code] {
    try {
      exit_code = cluster_requested(cf) ? run_cluster(global, cf, o.quick) : run_doctor_command(global, o);
    } catch (const std::exception& e) {
      exit_code = fail("doctor", core::Status::internal(std::string("internal error: ") + e.what()));
    }
  });
  return cmd;
}

}  // namespace ncdx::cli
