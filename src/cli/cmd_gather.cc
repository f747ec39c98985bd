// `ncdx gather [-o DIR]`: writes a support bundle of exactly what the doctor probes read
// (sysfs/procfs subset, NVML/CUDA captures as JSON, library scan, kernel messages, redacted env)
// that `ncdx doctor --from DIR` replays on any machine.
#include <cstdio>
#include <unistd.h>

#include "cli/command.h"
#include "probe/machine_probe.h"

namespace ncdx::cli {

CLI::App* add_gather(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("gather");
  static bool quick = false;
  cmd->add_flag("--quick", quick, "skip per-link counters, P2P matrices and library dlopen");
  cmd->callback([&global, &exit_code] {
    std::string dir = global.output;
    if (dir.empty()) {
      char host[256] = {0};
      gethostname(host, sizeof host - 1);
      dir = std::string("ncdx-bundle-") + host;
    }
    std::error_code ec;
    if (global.root != "/" && !std::filesystem::is_directory(global.root, ec)) {
      exit_code = fail("gather", core::Status::not_found(global.root + ": --root is not a directory"));
      return;
    }
    auto s = probe::write_bundle(dir, core::FileSystem(global.root), quick, global.force);
    if (!s) {
      exit_code = fail("gather", s);
      return;
    }
    std::printf("bundle written to %s (replay: ncdx doctor --from %s)\n", dir.c_str(), dir.c_str());
    exit_code = 0;
  });
  return cmd;
}

}  // namespace ncdx::cli
