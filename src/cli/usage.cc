// Help texts and usage errors over the one command tree (usage.h).
#include "cli/usage.h"

#include <cctype>
#include <cstdio>
#include <iostream>

#include "core/exit_codes.h"
#include "core/strings.h"

namespace ncdx::cli {
namespace {

// The option of `app` or of a parent that answers to `name` ("--pick", "-o"), as CLI11 resolves
// it under fallthrough; nullptr when none does.
const CLI::Option* find_flag(const CLI::App* app, const std::string& name) {
  for (; app; app = app->get_parent()) {
    for (const CLI::Option* o : app->get_options()) {
      if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty()) continue;
      if (o->check_name(name)) return o;
    }
  }
  return nullptr;
}

bool takes_value(const CLI::Option* o) { return o->get_type_size_max() > 0 && o->get_expected_min() > 0; }

bool has_positionals(const CLI::App* app) {
  for (const CLI::Option* o : app->get_options())
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty()) return true;
  return false;
}

bool looks_numeric(const std::string& w) {
  return w.size() > 1 && w[0] == '-' && (std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

int usage(const std::string& msg) {
  std::fprintf(stderr, "ncdx: %s\n", msg.c_str());
  return core::to_int(core::Exit::usage);
}

}  // namespace

std::string examples_footer(const char* examples) {
  if (!examples || !*examples) return "";
  std::string out = "\nExamples:\n";
  for (auto line : core::split(examples, '\n')) out += "  " + std::string(line) + "\n";
  return out;
}

CLI::App* find_command(CLI::App& root, const std::vector<std::string>& words, std::string* bad) {
  CLI::App* cur = &root;
  for (const auto& w : words) {
    CLI::App* next = nullptr;
    for (CLI::App* s : cur->get_subcommands([](CLI::App*) { return true; }))
      if (s->get_name() == w) next = s;
    if (!next) {
      if (bad) *bad = w;
      return nullptr;
    }
    cur = next;
  }
  return cur;
}

std::string command_path(const CLI::App& app) {
  std::string p;
  for (const CLI::App* a = &app; a; a = a->get_parent()) p = a->get_parent() ? " " + a->get_name() + p : "ncdx" + p;
  return p;
}

std::string help_text(const CLI::App& app) {
  return app.get_parent() ? app.help(command_path(*app.get_parent())) : app.help();  // main.cc names the root "ncdx"
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) out.push_back(s->get_name());
  return out;
}

std::vector<std::string> flag_names(const CLI::App& app, bool with_parents) {
  std::vector<std::string> out;
  for (const CLI::App* a = &app; a; a = with_parents ? a->get_parent() : nullptr) {
    for (const CLI::Option* o : a->get_options()) {
      for (const auto& l : o->get_lnames()) out.push_back("--" + l);
      for (const auto& s : o->get_snames()) out.push_back("-" + s);
    }
  }
  return out;
}

std::optional<int> precheck_usage(CLI::App& root, int argc, const char* const* argv) {
  CLI::App* cur = &root;
  bool help = false, positional_seen = false;
  for (int i = 1; i < argc; ++i) {
    std::string w = argv[i];
    if (w == "--") break;  // the rest are positionals (audit's Hydra overrides)
    if (w.size() > 1 && w[0] == '-' && !looks_numeric(w)) {
      std::string name = w.substr(0, w.find('='));
      bool is_long = name.rfind("--", 0) == 0;
      if (!is_long) name = name.substr(0, 2);  // -vv, -b8: CLI11 reads the first letter as the flag
      const CLI::Option* o = find_flag(cur, name);
      if (!o) {
        std::string guess = core::closest(name, flag_names(*cur), name.size() <= 3 ? 1 : 3);
        return usage("unknown flag '" + name + "' for `" + command_path(*cur) + "`" +
                     (guess.empty() ? "" : "; did you mean '" + guess + "'?") + " (see " + command_path(*cur) + " --help)");
      }
      if (name == "--help" || name == "-h" || name == "--version") help = true;  // CLI11 answers these itself
      bool inline_value = w.find('=') != std::string::npos || (!is_long && w.size() > 2);
      if (takes_value(o) && !inline_value) ++i;  // its value may look like a command word
      continue;
    }
    if (!positional_seen) {
      CLI::App* next = nullptr;
      for (CLI::App* s : cur->get_subcommands([](CLI::App*) { return true; }))
        if (s->get_name() == w) next = s;
      if (next) {
        cur = next;
        continue;
      }
      if (!has_positionals(cur) && cur->get_subcommands([](CLI::App*) { return true; }).size() > 0) {
        std::string guess = core::closest(w, subcommand_names(*cur));
        return usage("unknown command '" + w + "' for `" + command_path(*cur) + "`" +
                     (guess.empty() ? "" : "; did you mean '" + guess + "'?") + " (see " + command_path(*cur) + " --help)");
      }
    }
    positional_seen = true;
  }
  if (!help && cur->get_require_subcommand_min() > 0) {
    // `ncdx`, `ncdx env`: what there is to run, on stdout like --help, but it did nothing: 64.
    std::cout << help_text(*cur);
    return core::to_int(core::Exit::usage);
  }
  return std::nullopt;
}

}  // namespace ncdx::cli
