#include "knowledge/simple_pattern.h"

#include <cstring>
#include <functional>

namespace ncdx::knowledge {
namespace {

// Short literals dominate (" count ", " datatype "); an inline loop beats a memcmp call.
inline bool equal_bytes(const char* a, const char* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// First occurrence of lit in text at or after from (npos if none): memchr for the first byte.
inline std::size_t find_lit(std::string_view text, std::string_view lit, std::size_t from) {
  const std::size_t n = text.size(), m = lit.size();
  while (from + m <= n) {
    const void* hit = std::memchr(text.data() + from, lit[0], n - m + 1 - from);
    if (!hit) return std::string_view::npos;
    const std::size_t at = static_cast<const char*>(hit) - text.data();
    if (equal_bytes(text.data() + at + 1, lit.data() + 1, m - 1)) return at;
    from = at + 1;
  }
  return std::string_view::npos;
}

bool is_meta(char c) { return std::strchr(".[](){}*+?|^$\\", c) != nullptr; }

// A parsed character class: \d \w \s \S, or a bracket expression [...] / [^...] of literal bytes,
// ranges and those escapes. Returns false for anything else.
bool parse_escape_class(char e, std::bitset<256>& cls) {
  std::bitset<256> b;
  switch (e) {
    case 'd': for (int c = '0'; c <= '9'; ++c) b.set(c); break;
    case 'w':
      for (int c = 0; c < 256; ++c)
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') b.set(c);
      break;
    case 's': for (char c : std::string(" \t\n\f\r")) b.set(static_cast<unsigned char>(c)); break;
    case 'S':
      for (char c : std::string(" \t\n\f\r")) b.set(static_cast<unsigned char>(c));
      b.flip();
      break;
    default: return false;
  }
  cls |= b;
  return true;
}

bool parse_bracket(std::string_view re, std::size_t& i, std::bitset<256>& cls) {
  // re[i] == '['
  ++i;
  bool negate = i < re.size() && re[i] == '^';
  if (negate) ++i;
  std::bitset<256> b;
  bool first = true;
  while (i < re.size() && (re[i] != ']' || first)) {
    first = false;
    int lo;
    if (re[i] == '\\') {
      if (i + 1 >= re.size()) return false;
      char e = re[i + 1];
      i += 2;
      if (parse_escape_class(e, b)) continue;
      if (e == 'n') lo = '\n';
      else if (e == 't') lo = '\t';
      else if (std::isalnum(static_cast<unsigned char>(e))) return false;
      else lo = static_cast<unsigned char>(e);
    } else if (re[i] == '[') {
      return false;  // [:alpha:] and friends
    } else {
      lo = static_cast<unsigned char>(re[i++]);
    }
    if (i + 1 < re.size() && re[i] == '-' && re[i + 1] != ']') {
      int hi = static_cast<unsigned char>(re[i + 1]);
      if (re[i + 1] == '\\') return false;
      i += 2;
      if (hi < lo) return false;
      for (int c = lo; c <= hi; ++c) b.set(c);
    } else {
      b.set(lo);
    }
  }
  if (i >= re.size()) return false;
  ++i;  // ']'
  if (negate) b.flip();
  cls = b;
  return true;
}

}  // namespace

std::optional<SimplePattern> SimplePattern::compile(std::string_view re) {
  SimplePattern p;
  std::size_t i = 0;
  auto add_literal = [&](char c) {
    if (p.items_.empty() || p.items_.back().is_run) p.items_.push_back(Item{});
    p.items_.back().literal += c;
  };
  // Parses one class atom (escape or bracket) at re[i]; false if re[i] is not one.
  auto parse_class = [&](std::bitset<256>& cls) -> bool {
    if (re[i] == '[') return parse_bracket(re, i, cls);
    if (re[i] == '\\' && i + 1 < re.size() && parse_escape_class(re[i + 1], cls)) {
      i += 2;
      return true;
    }
    return false;
  };
  // Parses "[c?]CLASS+" at re[i] into a run item.
  auto parse_run = [&](int group) -> bool {
    Item it;
    it.is_run = true;
    it.group = group;
    // optional single literal byte, e.g. the '-' of -?\d+
    if (re[i] != '\\' && re[i] != '[' && !is_meta(re[i]) && i + 1 < re.size() && re[i + 1] == '?') {
      it.optional_byte = static_cast<unsigned char>(re[i]);
      i += 2;
    }
    if (i >= re.size() || !parse_class(it.cls)) return false;
    if (i >= re.size() || re[i] != '+') return false;
    ++i;
    if (it.optional_byte >= 0 && it.cls.test(it.optional_byte)) return false;
    p.items_.push_back(std::move(it));
    return true;
  };
  while (i < re.size()) {
    char c = re[i];
    if (c == '(') {
      if (re.substr(i, 4) != "(?P<") return std::nullopt;
      std::size_t close = re.find('>', i + 4);
      if (close == std::string_view::npos) return std::nullopt;
      std::string name(re.substr(i + 4, close - i - 4));
      i = close + 1;
      int g = static_cast<int>(p.names_.size());
      p.names_.push_back(name);
      if (i >= re.size() || !parse_run(g)) return std::nullopt;
      if (i >= re.size() || re[i] != ')') return std::nullopt;
      ++i;
    } else if (c == '\\') {
      if (i + 1 >= re.size()) return std::nullopt;
      char e = re[i + 1];
      if (e == 'd' || e == 'w' || e == 's' || e == 'S') {
        if (!parse_run(-1)) return std::nullopt;
      } else if (std::isalnum(static_cast<unsigned char>(e))) {
        return std::nullopt;  // \b, \n, \x.. : leave to RE2
      } else {
        add_literal(e);
        i += 2;
      }
    } else if (c == '[') {
      if (!parse_run(-1)) return std::nullopt;
    } else if (is_meta(c)) {
      return std::nullopt;
    } else {
      if (i + 1 < re.size() && (re[i + 1] == '?' || re[i + 1] == '*' || re[i + 1] == '+' || re[i + 1] == '{'))
        return std::nullopt;
      add_literal(c);
      ++i;
    }
  }
  // Greedy == RE2 only if each run is followed by a literal starting outside the run's class, and
  // the pattern starts with a literal or with a plain run followed by a literal.
  if (p.items_.empty()) return std::nullopt;
  for (std::size_t k = 0; k < p.items_.size(); ++k) {
    if (!p.items_[k].is_run) continue;
    if (k + 1 < p.items_.size()) {
      const Item& next = p.items_[k + 1];
      if (next.is_run || p.items_[k].cls.test(static_cast<unsigned char>(next.literal[0]))) return std::nullopt;
    }
  }
  if (p.items_[0].is_run && (p.items_.size() < 2 || p.items_[0].optional_byte >= 0)) return std::nullopt;
  for (auto& it : p.items_)
    for (int c = 0; c < 256; ++c) it.in[c] = it.cls[c];
  return p;
}

bool SimplePattern::match_from(const char* b, const char* e, std::size_t pos, std::size_t first,
                               std::vector<std::string_view>& spans) const {
  const std::size_t n = static_cast<std::size_t>(e - b);
  for (std::size_t k = first; k < items_.size(); ++k) {
    const Item& it = items_[k];
    if (!it.is_run) {
      if (n - pos < it.literal.size() || !equal_bytes(b + pos, it.literal.data(), it.literal.size())) return false;
      pos += it.literal.size();
    } else {
      std::size_t start = pos;
      if (it.optional_byte >= 0 && pos < n && static_cast<unsigned char>(b[pos]) == it.optional_byte) ++pos;
      std::size_t run = pos;
      while (pos < n && it.in[static_cast<unsigned char>(b[pos])]) ++pos;
      if (pos == run) return false;
      if (it.group >= 0) spans[it.group] = std::string_view(b + start, pos - start);
    }
  }
  return true;
}

bool SimplePattern::match(std::string_view text, std::vector<std::string_view>& spans) const {
  spans.assign(names_.size(), std::string_view());
  const char* b = text.data();
  const char* e = b + text.size();
  if (!items_[0].is_run) {
    // Leftmost occurrence of the leading literal that lets the rest match.
    std::string_view lit = items_[0].literal;
    for (std::size_t at = find_lit(text, lit, 0); at != std::string_view::npos; at = find_lit(text, lit, at + 1))
      if (match_from(b, e, at + lit.size(), 1, spans)) return true;
    return false;
  }
  // Leading run: anchor on the literal after it and extend the run backwards to its start; the
  // start order follows the literal order because the literal's first byte ends any run.
  const Item& run = items_[0];
  std::string_view lit = items_[1].literal;
  for (std::size_t at = find_lit(text, lit, 0); at != std::string_view::npos; at = find_lit(text, lit, at + 1)) {
    std::size_t s = at;
    while (s > 0 && run.in[static_cast<unsigned char>(b[s - 1])]) --s;
    if (s == at) continue;
    if (match_from(b, e, at + lit.size(), 2, spans)) {
      if (run.group >= 0) spans[run.group] = std::string_view(b + s, at - s);
      return true;
    }
  }
  return false;
}

}  // namespace ncdx::knowledge
