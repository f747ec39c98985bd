#include "cli/flag_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ncdx::cli {
namespace {

std::string range_text(double lo, double hi) {
  auto f = [](double x) {
    std::string s = std::to_string(x);
    while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
      bool dot = s.back() == '.';
      s.pop_back();
      if (dot) break;
    }
    return s;
  };
  return "[" + f(lo) + ", " + f(hi) + "]";
}

}  // namespace

CLI::Validator number_in(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        errno = 0;
        char* end = nullptr;
        double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end == s.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < lo || v > hi)
          return "'" + s + "' is not a number in " + range_text(lo, hi);
        return {};
      },
      "NUMBER in " + range_text(lo, hi));
}

CLI::Validator integer_in(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || end == s.c_str() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
          return "'" + s + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
        return {};
      },
      "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

std::optional<unsigned long long> parse_byte_size(const std::string& s) {
  if (s.empty() || s[0] == '-' || s[0] == '+') return std::nullopt;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (end == s.c_str() || errno == ERANGE) return std::nullopt;
  std::string unit(end);
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
  int shift = unit.empty() ? 0 : unit == "K" || unit == "k" ? 10 : unit == "M" || unit == "m" ? 20
              : unit == "G" || unit == "g" ? 30 : unit == "T" || unit == "t" ? 40 : -1;
  if (shift < 0 || (shift && v > (~0ull >> shift))) return std::nullopt;
  return v << shift;
}

}  // namespace ncdx::cli
