#include "analyze/logs/python_log_prefix.h"

namespace ncdx::analyze::pylog {
namespace {

using scan::Cursor;
using scan::is_alpha;
using scan::is_digit;
using scan::source_token;

// A dotted logger name ("torch.distributed.elastic.multiprocessing.api", "root", "vllm.engine").
std::size_t logger_name_end(const Cursor& c) {
  std::size_t j = c.i, lim = std::min(c.s.size(), c.i + 128);
  while (j < lim && (is_alpha(c.s[j]) || is_digit(c.s[j]) || c.s[j] == '_' || c.s[j] == '.')) ++j;
  return j;
}

}  // namespace

bool level_word(Cursor& c, std::string_view after, LineLevel& level) {
  static constexpr std::pair<std::string_view, LineLevel> kLevels[] = {
      {"INFO", LineLevel::info},   {"WARNING", LineLevel::warn},     {"WARN", LineLevel::warn},
      {"ERROR", LineLevel::error}, {"CRITICAL", LineLevel::fatal},   {"FATAL", LineLevel::fatal},
      {"DEBUG", LineLevel::info}};
  for (const auto& [w, l] : kLevels) {
    Cursor t = c;
    if (t.eat(w) && t.eat(after)) {
      level = l;
      c = t;
      return true;
    }
  }
  return false;
}

bool level_first(Cursor& c, Parsed& out) {
  Cursor t = c;
  LineLevel lvl;
  if (!level_word(t, " ", lvl)) return false;
  if (!is_digit(t.peek())) {  // SGLang after its timestamp: "INFO server_args.py:1697: "
    std::string_view src;
    if (!source_token(t, src) || !t.eat(": ")) return false;
    out.level = lvl;
    out.source = src;
    c = t;
    return true;
  }
  std::size_t tb = t.i;
  int mo, d;
  double clk;
  if (!t.num(mo, 2, 2) || !t.eat('-') || !t.num(d, 2, 2) || !t.eat(' ') || !scan::parse_time_of_day(t, clk))
    return false;
  std::string_view tt = t.s.substr(tb, t.i - tb);
  if (!t.eat(' ')) return false;
  std::string_view src;
  t.eat('[');
  if (!source_token(t, src) || !t.eat(']')) return false;
  t.eat(' ');
  out.level = lvl;
  out.source = src;
  out.time_text = tt;
  out.clock = clk;
  c = t;
  return true;
}

bool logger_bracket_level(Cursor& c, Parsed& out) {
  std::size_t j = logger_name_end(c);
  if (j == c.i || c.s.substr(j, 3) != ": [") return false;
  Cursor t{c.s, j + 3};
  LineLevel lvl;
  if (!level_word(t, "] ", lvl)) return false;
  out.level = lvl;
  c = t;
  return true;
}

bool dash_level(Cursor& c, Parsed& out) {
  Cursor t = c;
  if (!t.eat("- ")) return false;
  LineLevel lvl;
  if (level_word(t, " - ", lvl)) {
    out.level = lvl;
    c = t;
    return true;
  }
  std::size_t j = logger_name_end(t);
  if (j == t.i || c.s.substr(j, 3) != " - ") return false;
  t.i = j + 3;
  if (!level_word(t, " - ", lvl)) return false;
  out.level = lvl;
  c = t;
  return true;
}

bool colon_level(Cursor& c, Parsed& out) {
  Cursor t = c;
  LineLevel lvl;
  if (!level_word(t, ":", lvl)) return false;
  std::size_t j = logger_name_end(t);
  if (j == t.i || j >= t.s.size() || t.s[j] != ':') return false;
  t.i = j + 1;
  out.level = lvl;
  c = t;
  return true;
}

bool bare_level(Cursor& c, Parsed& out) {
  Cursor t = c;
  LineLevel lvl;
  bool br = t.eat('[');
  if (!level_word(t, br ? "] " : " ", lvl)) return false;
  out.level = lvl;
  c = t;
  return true;
}

}  // namespace ncdx::analyze::pylog
