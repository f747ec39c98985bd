// `ncdx help [COMMAND...]`: the help of ncdx or of any command path; --man: the man page; and
// `ncdx completion bash|zsh`. All three read the one command tree (usage.h, completion.h).
#include <iostream>

#include "cli/command.h"
#include "cli/completion.h"
#include "cli/usage.h"
#include "core/strings.h"

namespace ncdx::cli {

CLI::App* add_help(CLI::App& root, const GlobalOptions&, int& exit_code) {
  auto* cmd = root.add_subcommand("help");
  static std::vector<std::string> topic;
  static bool man = false;
  cmd->add_option("command", topic, "the command to explain (e.g. triage, or env lint)");
  cmd->add_flag("--man", man, "print the man page (roff) instead: ncdx help --man | man -l -");
  cmd->callback([&root, &exit_code] {
    if (man) {
      std::cout << man_page(root);
      exit_code = 0;
      return;
    }
    std::string bad;
    CLI::App* app = find_command(root, topic, &bad);
    if (!app) {
      CLI::App* parent = topic.size() > 1 ? find_command(root, {topic.begin(), topic.end() - 1}) : &root;
      std::string guess = parent ? core::closest(bad, subcommand_names(*parent)) : "";
      exit_code = fail("help", core::Status::usage("no command '" + core::join(topic, " ") + "'" +
                                                   (guess.empty() ? "" : "; did you mean '" + guess + "'?")));
      return;
    }
    std::cout << help_text(*app);
    exit_code = 0;
  });
  return cmd;
}

CLI::App* add_completion(CLI::App& root, const GlobalOptions&, int& exit_code) {
  auto* cmd = root.add_subcommand("completion");
  static std::string shell;
  cmd->add_option("shell", shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  cmd->callback([&root, &exit_code] {
    std::cout << (shell == "zsh" ? zsh_completion(root) : bash_completion(root));
    exit_code = 0;
  });
  return cmd;
}

}  // namespace ncdx::cli
