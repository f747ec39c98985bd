// ncdx entry point: parse, dispatch, map errors to exit codes. Nothing else lives here.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/stderr_filter.h"
#include "cli/usage.h"
#include "core/exit_codes.h"
#include "core/log.h"
#include "core/term.h"
#include "core/version.h"

using namespace ncdx;

int main(int argc, char** argv) {
  cli::install_stderr_filter();
  CLI::App app{"ncdx — diagnose, audit and tune the collective communication of distributed GPU training", "ncdx"};
  app.fallthrough();  // global options may come after the command name
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ncdx ") + core::kVersion);
  cli::GlobalOptions g;
  app.add_flag("--json", g.json, "write the report as JSON to stdout");
  app.add_option("--output,-o", g.output, "write a report directory (report.json, report.html, ...)");
  app.add_flag("--force", g.force, "overwrite an existing report directory");
  app.add_option("--root", g.root, "read /sys, /proc, /etc, /dev/shm under this directory");
  app.add_flag("-v,--verbose", g.verbose, "more logging on stderr (-vv for debug)");
  app.add_flag("-q,--quiet", g.quiet, "only errors on stderr");
  app.add_flag("--no-color", g.no_color, "never colour the output");
  app.add_flag("--no-timestamps", g.no_timestamps, "leave wall-clock times out of reports (reproducible output)");

  int exit_code = 0;
  for (const auto& c : cli::commands()) c.add(app, g, exit_code)->description(c.summary)->footer(cli::examples_footer(c.examples));
  app.footer("\nRun `ncdx help COMMAND` (or ncdx COMMAND --help) for a command's options and examples;\n"
             "`ncdx help --man` for the whole manual.");

  // Unknown commands and flags get "did you mean", a missing subcommand gets its help (usage.h).
  if (auto code = cli::precheck_usage(app, argc, argv)) return *code;

  app.parse_complete_callback([&] {
    // Runs before the command's callback (CLI11 runs the root's parse-complete callback first).
    const auto used = app.get_subcommands();  // the command on this command line
    std::string writers;
    for (const auto& c : cli::commands())
      if (c.report_dir) writers += (writers.empty() ? "" : ", ") + std::string(c.name);
    for (const auto& c : cli::commands())
      if (!g.output.empty() && !used.empty() && used.front()->get_name() == c.name && !c.report_dir)
        throw CLI::ValidationError("--output", std::string("`ncdx ") + c.name + "` writes no report directory; use --json > FILE (--output works with " +
                                   writers + ")");
    core::log::set_level(g.quiet ? core::log::Level::error
                         : g.verbose >= 2 ? core::log::Level::debug
                         : g.verbose == 1 ? core::log::Level::info
                                          : core::log::Level::warn);
    if (g.no_color) {
      core::force_color(stdout, false);
      core::force_color(stderr, false);
    }
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "ncdx: %s\n", e.what());
    return core::to_int(core::Exit::usage);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ncdx: internal error: %s\n", e.what());
    return core::to_int(core::Exit::internal);
  }
  return exit_code;
}
