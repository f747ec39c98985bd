#include "analyze/triage/shell_host.h"

#include <cctype>
#include <vector>

#include "core/strings.h"

namespace ncdx::analyze::triage {
namespace {

bool is_host_word(std::string_view w) {
  if (w.empty() || w.size() > 253) return false;
  for (char c : w)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_')) return false;
  return std::isalnum(static_cast<unsigned char>(w.front())) != 0;
}

// The first operand after the options; `with_arg` lists the short options that take a value.
std::string_view first_operand(const std::vector<std::string_view>& w, std::size_t from, std::string_view with_arg,
                               std::initializer_list<std::string_view> long_with_arg = {}) {
  for (std::size_t i = from; i < w.size(); ++i) {
    std::string_view a = w[i];
    if (a == "--") return i + 1 < w.size() ? w[i + 1] : std::string_view();
    if (a.size() > 1 && a[0] == '-') {
      bool takes = a.size() == 2 && a[1] != '-' && with_arg.find(a[1]) != std::string_view::npos;
      for (auto l : long_with_arg) takes |= a == l;
      if (takes) ++i;
      continue;
    }
    return a;
  }
  return {};
}

// srun/pdsh -w HOST, --nodelist=HOST, -wHOST: one host only (a list or range names several).
std::string_view node_option(const std::vector<std::string_view>& w) {
  for (std::size_t i = 1; i < w.size(); ++i) {
    std::string_view a = w[i], v;
    if ((a == "-w" || a == "--nodelist") && i + 1 < w.size()) v = w[i + 1];
    else if (a.substr(0, 11) == "--nodelist=") v = a.substr(11);
    else if (a.size() > 2 && a.substr(0, 2) == "-w") v = a.substr(2);
    else continue;
    return v;
  }
  return {};
}

}  // namespace

std::optional<ShellHost> shell_command_host(std::string_view text) {
  // Called for every line: a first byte that is neither '$' nor a space that trim() removes rules
  // the line out before trimming it.
  if (text.empty()) return std::nullopt;
  if (const char c = text.front(); c != '$' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v')
    return std::nullopt;
  text = core::trim(text);
  if (text.size() < 3 || text.substr(0, 2) != "$ ") return std::nullopt;
  auto w = core::split_ws(text.substr(2));
  std::size_t at = 0;
  while (at < w.size() && (w[at] == "sudo" || w[at].find('=') != std::string_view::npos)) ++at;  // sudo, VAR=value
  if (at >= w.size()) return ShellHost{};
  std::vector<std::string_view> cmd(w.begin() + static_cast<std::ptrdiff_t>(at), w.end());
  std::string_view host;
  bool whole = false;
  const std::string_view prog = cmd[0];
  if (prog == "ssh") {
    host = first_operand(cmd, 1, "bcDEeFIiJLlmOopQRSWw");
    if (auto u = host.find('@'); u != std::string_view::npos) host = host.substr(u + 1);
  } else if (prog == "kubectl" && cmd.size() > 2 && (cmd[1] == "exec" || cmd[1] == "logs" || cmd[1] == "debug")) {
    host = first_operand(cmd, 2, "cnl", {"--container", "--namespace", "--image", "--tail", "--since", "--selector"});
    if (host.substr(0, 4) == "pod/") host = host.substr(4);
    else if (host.substr(0, 5) == "node/") host = host.substr(5);
    else if (host.find('/') != std::string_view::npos) host = {};  // deployment/x, job/x: several pods
    whole = cmd[1] == "logs";
  } else if (prog == "kubectl" && cmd.size() > 3 && cmd[1] == "describe") {
    // `kubectl describe pod NAME` / `pod/NAME` / `node NAME`: the report (its State, Reason,
    // Events) is that one pod's or node's. A selector or several names describe several.
    std::size_t i = 2;
    std::string_view kind = first_operand(cmd, i, "nl", {"--namespace", "--selector"});
    for (; i < cmd.size() && cmd[i] != kind; ++i) {}
    if (kind.substr(0, 4) == "pod/" || kind.substr(0, 5) == "node/") {
      host = kind.substr(kind.find('/') + 1);
    } else if (kind == "pod" || kind == "pods" || kind == "po" || kind == "node" || kind == "nodes" || kind == "no") {
      host = first_operand(cmd, i + 1, "nl", {"--namespace", "--selector"});
      for (std::size_t j = i + 1; j < cmd.size(); ++j)
        if (cmd[j] == "-l" || cmd[j].starts_with("--selector")) host = {};
    }
  } else if (prog == "srun" || prog == "pdsh") {
    host = node_option(cmd);
  }
  if (!is_host_word(host)) return ShellHost{};
  return ShellHost{std::string(host), whole};
}

}  // namespace ncdx::analyze::triage
