// PyTorch ProcessGroupNCCL variables (pytorch/pytorch ProcessGroupNCCL.hpp/.cpp): deprecated NCCL_* aliases, names not yet
// read by an older PyTorch, and values that make PyTorch throw when the process group is created.
#include <cctype>

#include "analyze/env/lint_internal.h"
#include "core/strings.h"

namespace ncdx::analyze::detail {
namespace {

bool torch_bool(std::string_view s, bool* out) {
  static const char* yes[] = {"y", "yes", "1", "t", "true"};
  static const char* no[] = {"n", "no", "0", "f", "false"};
  for (const char* y : yes) if (core::iequals(s, y)) { *out = true; return true; }
  for (const char* n : no) if (core::iequals(s, n)) { *out = false; return true; }
  return false;
}

// std::stoi: optional spaces and sign, then digits; trailing text ignored; nothing -> throws.
std::optional<long long> torch_int(std::string_view s, bool* trailing) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  std::size_t start = i;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t digits = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == digits || i - start > 11) return std::nullopt;
  *trailing = i != s.size();
  return std::stoll(std::string(s.substr(start, i - start)));
}

}  // namespace

void torch_rules(Ctx& c, std::string_view name, const std::string& value, const knowledge::TorchVar& t, bool alias) {
  const std::string src = "torch_env_vars.yaml " + t.name + "; " + t.source;
  const auto& torch = c.in.torch;
  const std::string tv = torch ? "PyTorch " + torch->str() : "PyTorch (version unknown)";
  std::size_t start = c.rows.size();
  if (alias) {
    bool primary_era = torch && t.legacy_until && *torch < *t.legacy_until;
    if (primary_era && name.substr(0, 5) == "NCCL_")
      c.add(name, kPass, "torch.legacy-name", "", "",
            tv + " reads this name (it became " + t.name + " in PyTorch " + t.legacy_until->str() +
                "); PyTorch reads it, NCCL never does. " + t.meaning,
            src);
    if (!primary_era) {
      bool both = c.get(t.name) != nullptr;
      bool is_nccl_name = name.substr(0, 5) == "NCCL_";
      std::string why = std::string(is_nccl_name ? "Not an NCCL variable: " : "") + "an older PyTorch name of " + t.name +
                        (t.legacy_until ? " (renamed in PyTorch " + t.legacy_until->str() + ", PR #114077)" : "") +
                        "; current PyTorch still reads it and logs 'Environment variable " + std::string(name) +
                        " is deprecated; use " + t.name + " instead'.";
      if (both) why += " " + t.name + " is also set and wins.";
      if (!t.legacy_until) {
        // The release that introduced the new name is not pinned by our sources, so the old name is
        // the portable one: every release with this feature reads it.
        c.add(name, kPass, "torch.alias", "", "",
              why + " Older releases read only this name, and the release that added " + t.name +
                  " is not pinned by the sources, so this is the portable spelling.",
              src);
      } else {
        c.add(name, kWarn, "torch.deprecated-alias", both ? "ignored (the new name is set)" : "deprecated name",
              t.name + "=" + value + (torch ? "" : " (keep both names if some nodes run PyTorch < 2.2)"), why, src);
      }
    }
  } else if (torch && t.since && *torch < *t.since) {
    std::string old = t.aliases.empty() ? "" : t.aliases[0];
    c.add(name, kWarn, "torch.not-yet", "not read by " + tv, old.empty() ? "upgrade PyTorch" : old + "=" + value,
          t.name + " is read from PyTorch " + t.since->str() + " on; " + tv + " reads " +
              (old.empty() ? "nothing under this name." : old + "."),
          src);
    return;
  }
  if (!t.deprecated.empty())
    c.add(name, kWarn, "torch.deprecated", "no effect in current PyTorch", "unset", t.deprecated + " " + t.meaning, src);

  // Values (pytorch/pytorch c10d/Utils.hpp getCvar*): PyTorch throws on values it cannot parse.
  const std::string& n = t.name;
  if (t.type == "bool") {
    bool b = false;
    if (!torch_bool(value, &b)) {
      c.add(name, kFail, "torch.bool-invalid", "process-group creation throws", std::string(name) + "=1 or 0",
            "PyTorch accepts y/yes/1/t/true and n/no/0/f/false (any case); '" + value +
                "' throws 'Invalid value for environment variable'.",
            src + "; pytorch/pytorch torch/csrc/distributed/c10d/Utils.hpp getCvar*");
      return;
    }
    if (n == "TORCH_NCCL_BLOCKING_WAIT" && b)
      c.add(name, kWarn, "torch.blocking-wait", "no watchdog thread; Flight Recorder dumps need it", "unset",
            "With blocking wait, work.wait() blocks the CPU and throws on timeout, and no watchdog thread is created.",
            src);
    if (n == "TORCH_FR_DUMP_ON_TIMEOUT" && !b)
      c.add(name, kWarn, "torch.fr-no-dump", "no Flight Recorder dump on a hang", "unset (default true)",
            "Without dumps a timeout leaves no per-rank record of the stuck collective.", src);
    if (n == "TORCH_NCCL_ENABLE_MONITORING" && !b)
      c.add(name, kWarn, "torch.no-monitor", "a stuck watchdog is never killed", "unset (default true)", t.meaning, src);
    if (n == "TORCH_NCCL_NAN_CHECK" && b && c.in.production)
      c.add(name, kWarn, "torch.nan-check-production", "an extra check on every collective input", "unset", t.meaning, src);
  } else if (t.type == "int") {
    bool trailing = false;
    auto v = torch_int(value, &trailing);
    if (!v) {
      c.add(name, kFail, "torch.int-invalid", "process-group creation throws", std::string(name) + "=<integer>",
            "PyTorch parses it with std::stoi; '" + value + "' has no leading number and throws.", src + "; pytorch/pytorch torch/csrc/distributed/c10d/Utils.hpp getCvar*");
      return;
    }
    if (trailing)
      c.add(name, kWarn, "torch.int-trailing", "read as " + std::to_string(*v), std::string(name) + "=" + std::to_string(*v),
            "std::stoi stops at the first non-digit.", src + "; pytorch/pytorch torch/csrc/distributed/c10d/Utils.hpp getCvar*");
    if (n == "TORCH_NCCL_ASYNC_ERROR_HANDLING" && *v == 0)
      c.add(name, kWarn, "torch.no-error-handling", "a timed-out job hangs instead of exiting", "unset (default 3)",
            "0 = no handling: the watchdog reports the timeout but nothing aborts or tears down.", src);
    if (n == "TORCH_NCCL_ASYNC_ERROR_HANDLING" && (*v < 0 || *v > 3))
      c.add(name, kWarn, "torch.error-handling-range", "not a defined mode", "3", "Modes are 0..3.", src);
    if (n == "TORCH_FR_BUFFER_SIZE" && *v == 0)
      c.add(name, kWarn, "torch.fr-off", "Flight Recorder disabled", std::string(name) + "=2000",
            "0 disables recording and dumps; current PyTorch defaults to 2000 entries.", src);
  } else if (n == "TORCH_DISTRIBUTED_DEBUG") {
    if (!(core::iequals(value, "OFF") || core::iequals(value, "INFO") || core::iequals(value, "DETAIL"))) {
      c.add(name, kFail, "torch.debug-invalid", "process-group creation throws", "OFF, INFO or DETAIL",
            "Anything else throws 'The value of TORCH_DISTRIBUTED_DEBUG must be OFF, INFO, or DETAIL.'", src);
      return;
    }
    if (core::iequals(value, "DETAIL") && c.in.production)
      c.add(name, kWarn, "torch.debug-detail-production", "collective hash checks and desync debug on every op",
            "unset (OFF) outside debugging runs", t.meaning, src);
  }
  bool has_row = false;
  for (std::size_t i = start; i < c.rows.size(); ++i) has_row |= c.rows.parameter(i) == name;
  if (!has_row) c.add(name, kPass, "torch.known", "", "", t.meaning, src);
}

}  // namespace ncdx::analyze::detail
