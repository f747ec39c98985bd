#pragma once
// Command registry: every `ncdx <command>` is one entry in commands.cc (one explicit list, as
// DESIGN.md asks), implemented in its own cmd_<name>.cc.
#include <CLI/CLI.hpp>

#include <span>
#include <string>

namespace ncdx::cli {

// Options every command accepts (they may appear before or after the command name).
struct GlobalOptions {
  bool json = false;           // --json: the report as JSON on stdout
  std::string output;          // --output DIR: report directory
  bool force = false;          // --force: overwrite an existing report directory
  std::string root = "/";      // --root DIR: replay a captured machine
  int verbose = 0;             // -v (info), -vv (debug)
  bool quiet = false;          // -q: errors only on stderr
  bool no_color = false;       // --no-color
  bool no_timestamps = false;  // --no-timestamps: deterministic output (tests, goldens)
};

struct CommandDef {
  const char* name;
  const char* summary;
  // Adds the subcommand to `root`; its callback stores the process exit code in `exit_code`.
  CLI::App* (*add)(CLI::App& root, const GlobalOptions& global, int& exit_code);
};

std::span<const CommandDef> commands();

}  // namespace ncdx::cli
