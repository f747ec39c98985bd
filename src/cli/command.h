#pragma once
// Command registry: every `ncdx <command>` is one entry in commands.cc (one explicit list, as
// ninja's src/ninja.cc kTools: a command is described once), implemented in its own cmd_<name>.cc.
#include <CLI/CLI.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/semver.h"

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
  const char* summary;   // the one description of the command (main.cc sets it on the subcommand)
  const char* examples;  // "ncdx … # what it does" lines: the Examples block of --help, the man page
  // Adds the subcommand `name` to `root` (without a description); its callback stores the process
  // exit code in `exit_code`.
  CLI::App* (*add)(CLI::App& root, const GlobalOptions& global, int& exit_code);
  // Whether it writes a report directory for --output DIR; main.cc refuses --output (exit 64) for
  // the others, so that the flag is never silently ignored.
  bool report_dir = false;
};

std::span<const CommandDef> commands();

// The one way a command reports an error: "ncdx <command>: <message>" on stderr; returns the
// status's exit code (64 usage, 65 bad input, 66 not found, 70 internal). Commands return
// fail(...) instead of literal exit codes.
int fail(std::string_view command, const core::Status& s);

// Parses a version flag ("--nccl-version 2.21.5"); empty -> nullopt; garbage -> usage error.
core::Result<std::optional<core::Version>> version_flag(const std::string& flag, const std::string& value);

}  // namespace ncdx::cli
