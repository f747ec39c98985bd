#include "analyze/config/hydra_override.h"

#include <cmath>
#include <limits>
#include <regex>

#include "core/strings.h"

namespace ncdx::analyze {

const char* prefix_of(OverrideKind k) {
  switch (k) {
    case OverrideKind::change: return "";
    case OverrideKind::add: return "+";
    case OverrideKind::force_add: return "++";
    case OverrideKind::remove: return "~";
  }
  return "";
}

std::string Override::value_text() const {
  auto eq = input.find('=');
  return eq == std::string::npos ? std::string() : input.substr(eq + 1);
}

nlohmann::json hydra_primitive(std::string_view text) {
  // Hydra's lexer (OverrideLexer.g4): INT, FLOAT, BOOL and NULL tokens; anything else is a string.
  static const std::regex int_re(R"([+-]?(0|[1-9](_?[0-9])*))");
  static const std::regex float_re(
      R"([+-]?((([0-9](_?[0-9])*)?\.[0-9](_?[0-9])*|[0-9](_?[0-9])*\.)([eE][+-]?[0-9](_?[0-9])*)?|(0|[1-9](_?[0-9])*)[eE][+-]?[0-9](_?[0-9])*|[iI][nN][fF]|[nN][aA][nN]))");
  std::string s(text);
  std::string low = core::to_lower(s);
  if (low == "null") return nullptr;
  if (low == "true") return true;
  if (low == "false") return false;
  auto digits = [](const std::string& x) {
    std::string o;
    for (char c : x)
      if (c != '_') o.push_back(c);
    return o;
  };
  if (std::regex_match(s, int_re)) {
    errno = 0;
    long long v = std::strtoll(digits(s).c_str(), nullptr, 10);
    if (errno != ERANGE) return v;
    return s;
  }
  if (std::regex_match(s, float_re)) {
    if (low.find("inf") != std::string::npos)
      return low[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    if (low.find("nan") != std::string::npos) return std::numeric_limits<double>::quiet_NaN();
    return std::strtod(digits(s).c_str(), nullptr);
  }
  return s;
}

namespace {

class ValueParser {
 public:
  explicit ValueParser(std::string_view s) : s_(s) {}

  core::Result<nlohmann::json> parse_top() {
    auto v = element(/*top=*/true);
    if (!v) return v;
    skip_ws();
    if (pos_ != s_.size()) return fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return v;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;

  core::Status fail(const std::string& what) const {
    return core::Status::bad_input("at column " + std::to_string(pos_ + 1) + " of the value: " + what);
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }

  core::Result<nlohmann::json> element(bool top) {
    if (++depth_ > 64) return fail("nested deeper than 64 levels");
    struct Guard { int& d; ~Guard() { --d; } } guard{depth_};
    skip_ws();
    if (pos_ >= s_.size()) {
      if (top) return nlohmann::json("");
      return fail("expected a value");
    }
    char c = s_[pos_];
    if (c == '[') return list();
    if (c == '{') return dict();
    return primitive_or_quoted(top);
  }

  core::Result<nlohmann::json> list() {
    ++pos_;  // [
    nlohmann::json arr = nlohmann::json::array();
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return arr;
    }
    while (true) {
      auto e = element(false);
      if (!e) return e;
      arr.push_back(*e);
      skip_ws();
      if (pos_ >= s_.size()) return fail("unbalanced '[': expected ']'");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return arr;
      }
      return fail("expected ',' or ']' in a list");
    }
  }

  core::Result<nlohmann::json> dict() {
    ++pos_;  // {
    nlohmann::json obj = nlohmann::json::object();
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return obj;
    }
    while (true) {
      skip_ws();
      std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' ||
                                  s_[pos_] == '-' || s_[pos_] == '$'))
        ++pos_;
      if (pos_ == start) return fail("expected a dictionary key");
      std::string key(s_.substr(start, pos_ - start));
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':' after dictionary key '" + key + "'");
      ++pos_;
      auto v = element(false);
      if (!v) return v;
      obj[key] = *v;
      skip_ws();
      if (pos_ >= s_.size()) return fail("unbalanced '{': expected '}'");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return obj;
      }
      return fail("expected ',' or '}' in a dictionary");
    }
  }

  // A quoted string, or an unquoted primitive (which may contain ${...} interpolations and
  // backslash escapes); inside a list or dict it ends at , ] } (or : for keys).
  core::Result<nlohmann::json> primitive_or_quoted(bool top) {
    char c = s_[pos_];
    if (c == '\'' || c == '"') {
      char q = c;
      std::size_t open = pos_++;
      std::string out;
      while (pos_ < s_.size()) {
        char d = s_[pos_];
        if (d == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == q || s_[pos_ + 1] == '\\')) {
          // Hydra: backslashes escape the quote; "\\" before a quote is one backslash.
          out.push_back(s_[pos_ + 1]);
          pos_ += 2;
          continue;
        }
        if (d == q) {
          ++pos_;
          skip_ws();
          if (pos_ < s_.size() && !(s_[pos_] == ',' || s_[pos_] == ']' || s_[pos_] == '}'))
            return fail("text after a quoted string (Hydra does not concatenate them here)");
          if (top && pos_ < s_.size()) return fail("unexpected '" + std::string(1, s_[pos_]) + "'");
          return nlohmann::json(out);
        }
        out.push_back(d);
        ++pos_;
      }
      pos_ = open;
      return fail(std::string("unbalanced quote ") + q + ": expected a closing " + q);
    }
    std::string out;
    bool only_plain = true;  // no interpolation, no escapes -> may be typed
    while (pos_ < s_.size()) {
      char d = s_[pos_];
      if (d == '$' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '{') {
        int level = 0;
        std::size_t start = pos_;
        for (; pos_ < s_.size(); ++pos_) {
          if (s_[pos_] == '{') ++level;
          if (s_[pos_] == '}' && --level == 0) break;
        }
        if (pos_ >= s_.size()) {
          pos_ = start;
          return fail("unbalanced interpolation: expected '}' after '${'");
        }
        ++pos_;
        out.append(s_.substr(start, pos_ - start));
        only_plain = false;
        continue;
      }
      if (d == '\\' && pos_ + 1 < s_.size() && std::string_view("\\()[]{}:=, ").find(s_[pos_ + 1]) != std::string_view::npos) {
        out.push_back(s_[pos_ + 1]);
        pos_ += 2;
        only_plain = false;
        continue;
      }
      if (d == '(' || d == ')')
        return fail("'(' - sweeps and functions (choice(), range(), int()) are not supported");
      if (d == '\'' || d == '"') return fail("a quote inside an unquoted value");
      if (d == '=') return fail("'=' inside a value (quote the value)");
      if (d == ',' || d == ']' || d == '}' || d == '[' || d == '{') {
        if (top && (d == ',')) return fail("',' in a value: a sweep (a,b) is not supported in a single run; quote it");
        if (top) return fail("unexpected '" + std::string(1, d) + "'");
        break;
      }
      out.push_back(d);
      ++pos_;
    }
    std::string_view trimmed = core::trim(out);
    if (trimmed.empty() && !top) return fail("expected a value");
    if (only_plain) return hydra_primitive(trimmed);
    return nlohmann::json(std::string(trimmed));
  }
};

bool valid_key(std::string_view k) {
  if (k.empty()) return false;
  for (auto part : core::split(k, '.')) {
    if (part.empty()) return false;
    for (char c : part)
      // '@' and '/' appear in config-group overrides (actor@actor_rollout_ref.actor=megatron_actor).
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$' || c == '@' || c == '/'))
        return false;
  }
  return true;
}

}  // namespace

core::Result<Override> parse_override(std::string_view text) {
  Override o;
  o.input = std::string(text);
  std::string_view s = text;
  if (s.rfind("++", 0) == 0) {
    o.kind = OverrideKind::force_add;
    s.remove_prefix(2);
  } else if (s.rfind("+", 0) == 0) {
    o.kind = OverrideKind::add;
    s.remove_prefix(1);
  } else if (s.rfind("~", 0) == 0) {
    o.kind = OverrideKind::remove;
    s.remove_prefix(1);
  }
  auto eq = s.find('=');
  std::string_view key = eq == std::string_view::npos ? s : s.substr(0, eq);
  if (!valid_key(key))
    return core::Status::bad_input("override '" + o.input +
                                   "': expected key=value, +key=value, ++key=value or ~key with a dotted key");
  o.key = std::string(key);
  if (eq == std::string_view::npos) {
    if (o.kind != OverrideKind::remove)
      return core::Status::bad_input("override '" + o.input + "': expected '=' after the key (key=value)");
    return o;
  }
  ValueParser p(s.substr(eq + 1));
  auto v = p.parse_top();
  if (!v) return v.status().with_context("override '" + o.input + "'");
  o.value = *v;
  return o;
}

}  // namespace ncdx::analyze
