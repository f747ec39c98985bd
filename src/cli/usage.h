#pragma once
// What ncdx says when it is asked for help or mistyped: help for any command path, the Examples
// block of the command table, and usage errors that name the closest command or flag. One command
// tree (the CLI11 app built from commands.cc) feeds --help, `ncdx help`, the man page and the shell
// completions (completion.h), so they cannot disagree.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ncdx::cli {

// "Examples:" block for a command's examples text ("" when it has none).
std::string examples_footer(const char* examples);

// The subcommand reached by following `words` from `root` ("env", "lint"); nullptr when a word is
// not a subcommand there. `bad` receives the first word that is not.
CLI::App* find_command(CLI::App& root, const std::vector<std::string>& words, std::string* bad = nullptr);

// "ncdx env lint": the command path of an app.
std::string command_path(const CLI::App& app);

// The --help text of an app with its whole command path in the Usage line ("Usage: ncdx env lint
// [OPTIONS]"): CLI11 builds that path only while parsing, help for a path found otherwise lacks it.
std::string help_text(const CLI::App& app);

// Names of an app's subcommands and of its flags ("--json", "-o"), for suggestions and completion;
// flags include the ones inherited from the parents (main.cc parses with fallthrough).
std::vector<std::string> subcommand_names(const CLI::App& app);
std::vector<std::string> flag_names(const CLI::App& app, bool with_parents = true);

// Walks argv over the command tree before CLI11 parses it, so that the mistakes people make get a
// useful answer: an unknown command or flag names the closest one ("did you mean"), a command that
// needs a subcommand prints its help. Returns the exit code to stop with (64) after printing, or
// nullopt when argv looks fine and CLI11 should parse it.
std::optional<int> precheck_usage(CLI::App& root, int argc, const char* const* argv);

}  // namespace ncdx::cli
