#pragma once
// The man page and the bash/zsh completions, written from the one command tree (the CLI11 app that
// commands.cc builds) and the command table's examples: a flag added to a command appears in all
// three without anyone editing them.
#include <CLI/CLI.hpp>

#include <string>

namespace ncdx::cli {

// ncdx(1) in man(7) roff; `ncdx help --man | man -l -` reads it, CMake installs it.
std::string man_page(const CLI::App& root);

// A bash completion script (complete -F _ncdx ncdx): commands, subcommands, flags per command,
// file names for everything else.
std::string bash_completion(const CLI::App& root);

// zsh: the same function through zsh's bashcompinit, so both shells complete the same words.
std::string zsh_completion(const CLI::App& root);

}  // namespace ncdx::cli
