#pragma once
// Exit codes shared by every command (docs/OUTPUT.md "Exit codes").
namespace ncdx::core {
enum class Exit : int {
  ok = 0,            // healthy / nothing found
  warnings = 1,      // warnings only
  failures = 2,      // failures, or a root cause of severity error/critical
  usage = 64,        // bad flags
  bad_input = 65,    // input data could not be understood
  not_found = 66,    // input not found / unreadable
  internal = 70,     // a bug in ncdx
};
constexpr int to_int(Exit e) { return static_cast<int>(e); }
}  // namespace ncdx::core
