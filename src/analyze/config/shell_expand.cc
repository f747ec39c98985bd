#include "analyze/config/shell_expand.h"

#include <algorithm>
#include <cctype>

#include "core/strings.h"

namespace ncdx::analyze {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Recursive-descent integer arithmetic: + - * / % ** ( ), unary +/-, names and $names.
class Arith {
 public:
  Arith(std::string_view s, const ShellLookup& l) : s_(s), lookup_(l) {}
  std::optional<long long> run(std::string* why) {
    auto v = sum();
    ws();
    if (v && pos_ != s_.size()) fail("unexpected '" + std::string(s_.substr(pos_, 1)) + "'");
    if (!why_.empty()) {
      if (why) *why = why_;
      return std::nullopt;
    }
    return v;
  }

 private:
  std::string_view s_;
  const ShellLookup& lookup_;
  std::size_t pos_ = 0;
  std::string why_;
  int depth_ = 0;

  void fail(const std::string& w) {
    if (why_.empty()) why_ = w;
  }
  void ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view op) {
    ws();
    if (s_.substr(pos_, op.size()) == op) {
      pos_ += op.size();
      return true;
    }
    return false;
  }
  std::optional<long long> sum() {
    auto a = product();
    while (a) {
      if (eat("+")) { auto b = product(); if (!b) return b; a = *a + *b; }
      else if (eat("-")) { auto b = product(); if (!b) return b; a = *a - *b; }
      else break;
    }
    return a;
  }
  std::optional<long long> product() {
    auto a = power();
    while (a) {
      ws();
      if (s_.substr(pos_, 2) == "**") break;
      if (eat("*")) { auto b = power(); if (!b) return b; a = *a * *b; }
      else if (eat("/") || eat("%")) {
        bool div = s_[pos_ - 1] == '/';
        auto b = power();
        if (!b) return b;
        if (*b == 0) { fail("division by zero"); return std::nullopt; }
        a = div ? *a / *b : *a % *b;
      } else break;
    }
    return a;
  }
  std::optional<long long> power() {
    auto a = unary();
    if (a && eat("**")) {
      auto b = power();
      if (!b) return b;
      if (*b < 0 || *b > 62) { fail("exponent out of range"); return std::nullopt; }
      long long r = 1;
      for (long long k = 0; k < *b; ++k) r *= *a;
      return r;
    }
    return a;
  }
  std::optional<long long> unary() {
    if (++depth_ > 100) { fail("expression nested too deeply"); return std::nullopt; }
    struct G { int& d; ~G() { --d; } } g{depth_};
    if (eat("-")) { auto v = unary(); return v ? std::optional<long long>(-*v) : v; }
    if (eat("+")) return unary();
    if (eat("(")) {
      auto v = sum();
      if (!eat(")")) { fail("expected ')'"); return std::nullopt; }
      return v;
    }
    ws();
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      std::size_t st = pos_;
      while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      auto v = core::parse_int(s_.substr(st, pos_ - st));
      if (!v) fail("not a decimal number: " + std::string(s_.substr(st, pos_ - st)));
      return v;
    }
    if (pos_ < s_.size() && s_[pos_] == '$') ++pos_;
    bool braced = pos_ < s_.size() && s_[pos_] == '{';
    if (braced) ++pos_;
    std::size_t st = pos_;
    while (pos_ < s_.size() && name_char(s_[pos_])) ++pos_;
    if (st == pos_) { fail("expected a number or a variable"); return std::nullopt; }
    std::string name(s_.substr(st, pos_ - st));
    if (braced && !eat("}")) { fail("expected '}'"); return std::nullopt; }
    auto v = lookup_(name);
    if (!v) return 0;  // bash: an unset variable is 0 in arithmetic
    if (!v->value) { fail("$" + name + " is not known statically (" + v->why_unknown + ")"); return std::nullopt; }
    std::string_view t = core::trim(*v->value);
    if (t.empty()) return 0;
    auto n = core::parse_int(t);
    if (!n) fail("$" + name + "='" + *v->value + "' is not an integer");
    return n;
  }
};

struct Builder {
  Expansion out;
  std::string cur;
  bool have_field = false;  // something (even "") was quoted into the current field
  void lit(std::string_view s) { cur.append(s); have_field = true; }
  void split(std::string_view s) {  // unquoted expansion: IFS splitting
    std::size_t k = 0;
    bool first = true;
    while (k < s.size()) {
      if (std::isspace(static_cast<unsigned char>(s[k]))) {
        if (have_field || !cur.empty()) flush();
        while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        first = false;
        continue;
      }
      std::size_t st = k;
      while (k < s.size() && !std::isspace(static_cast<unsigned char>(s[k]))) ++k;
      cur.append(s.substr(st, k - st));
      have_field = true;
    }
    (void)first;
  }
  void flush() {
    out.fields.push_back(cur);
    cur.clear();
    have_field = false;
  }
};

// Expands ${...} / $name / $((...)) / $(...) starting at raw[i] == '$'; returns the text and advances i.
std::string dollar(std::string_view raw, std::size_t& i, const ShellLookup& lookup, Expansion& ex) {
  std::size_t start = i++;
  auto value_of = [&](const std::string& name) -> std::optional<std::string> {
    auto v = lookup(name);
    if (!v) return std::nullopt;
    if (!v->value) {
      ex.unresolved.push_back("$" + name + " (" + v->why_unknown + ")");
      return std::string();
    }
    return v->value;
  };
  if (i >= raw.size()) return "$";
  if (raw.substr(i, 2) == "((") {
    int depth = 0;
    std::size_t k = i;
    for (; k < raw.size(); ++k) {
      if (raw[k] == '(') ++depth;
      if (raw[k] == ')' && --depth == 0) break;
    }
    std::string_view body = raw.substr(i + 2, k >= i + 3 ? k - i - 3 : 0);
    i = std::min(k + 1, raw.size());
    std::string why;
    auto v = eval_arith(body, lookup, &why);
    if (!v) {
      ex.unresolved.push_back("$((" + std::string(body) + ")): " + why);
      return "";
    }
    return std::to_string(*v);
  }
  if (raw[i] == '(') {
    int depth = 0;
    std::size_t k = i;
    for (; k < raw.size(); ++k) {
      if (raw[k] == '(') ++depth;
      if (raw[k] == ')' && --depth == 0) break;
    }
    i = std::min(k + 1, raw.size());
    ex.unresolved.push_back(std::string(raw.substr(start, i - start)) + " is a command substitution");
    return "";
  }
  if (raw[i] == '{') {
    int depth = 0;
    std::size_t k = i;
    for (; k < raw.size(); ++k) {
      if (raw[k] == '{') ++depth;
      if (raw[k] == '}' && --depth == 0) break;
    }
    std::string body(raw.substr(i + 1, k > i + 1 ? k - i - 1 : 0));
    i = std::min(k + 1, raw.size());
    std::size_t n = 0;
    while (n < body.size() && name_char(body[n])) ++n;
    std::string name = body.substr(0, n), op = body.substr(n);
    if (body == "@" || body == "*" || body.rfind("@:", 0) == 0 || body.rfind("*:", 0) == 0) {
      ex.positional_all = true;  // "${@:2}": the caller's arguments (ncdx takes them after --)
      return "";
    }
    if (!name.empty() && !op.empty() && op[0] == '[' && op.back() == ']') {  // ${A[i]}
      auto v = lookup(name);
      std::string idx = op.substr(1, op.size() - 2);
      if (!v) {
        ex.undefined.push_back(name);
        return "";
      }
      if (v->array) {
        auto k = core::parse_int(idx);
        if (k && *k >= 0 && static_cast<std::size_t>(*k) < v->array->size()) return (*v->array)[*k];
        if (idx == "@" || idx == "*") return core::join(*v->array, " ");
        return "";
      }
      if (idx == "0" || idx == "@" || idx == "*") return value_of(name).value_or("");
    }
    if (body[0] == '#' && body.size() > 4 && body.compare(body.size() - 3, 3, "[@]") == 0) {  // ${#A[@]}
      auto v = lookup(body.substr(1, body.size() - 4));
      if (v && v->array) return std::to_string(v->array->size());
    }
    const bool positional = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    const bool with_default = op.rfind(":-", 0) == 0 || op.rfind("-", 0) == 0 || op.rfind(":=", 0) == 0 || op.rfind("=", 0) == 0;
    if (name.empty() || (std::isdigit(static_cast<unsigned char>(name[0])) && !(positional && with_default)) ||
        (!op.empty() && op[0] == '[') || body[0] == '#' || body[0] == '!') {
      ex.unresolved.push_back("${" + body + "} (positional parameter, array or indirection)");
      return "";
    }
    auto val = value_of(name);
    auto sub = [&](std::string_view w) -> std::string {  // the word after :- etc. is itself expanded
      // Bounded recursion (parse_run_script refuses deeper scripts with file:line first; this
      // guards every other caller): past the bound the word is unresolved, not expanded.
      static thread_local int nesting = 0;
      if (nesting >= 64) {
        ex.unresolved.push_back("${...} nested deeper than 64 levels");
        return "";
      }
      ++nesting;
      struct Leave { ~Leave() { --nesting; } } leave;
      Expansion inner = expand_word(w, lookup);
      for (auto& u : inner.unresolved) ex.unresolved.push_back(u);
      for (auto& u : inner.undefined) ex.undefined.push_back(u);
      for (auto& u : inner.defaulted) ex.defaulted.push_back(u);
      return core::join(inner.fields, " ");
    };
    if (positional) {  // ${1:-word} / ${1-word} / ${1:=word}: run without arguments, the word
      ex.defaulted.push_back("${" + body + "}");
      return sub(op.substr(op[0] == ':' ? 2 : 1));
    }
    if (op.empty()) {
      if (!val) ex.undefined.push_back(name);
      return val.value_or("");
    }
    bool colon = op[0] == ':';
    std::string rest = colon ? op.substr(1) : op;
    if (rest.empty()) {
      ex.unresolved.push_back("${" + body + "} (unsupported expansion)");
      return "";
    }
    char kind = rest[0];
    std::string word = rest.substr(1);
    bool unset_or_null = !val || (colon && val->empty());
    if (kind == '-' || kind == '=') return unset_or_null ? sub(word) : *val;
    if (kind == '+') return unset_or_null ? std::string() : sub(word);
    if (kind == '?') {
      if (unset_or_null) ex.unresolved.push_back("${" + body + "} aborts the script when " + name + " is unset");
      return val.value_or("");
    }
    ex.unresolved.push_back("${" + body + "} (pattern or substring expansion)");
    return "";
  }
  if (raw[i] == '@' || raw[i] == '*') {
    ++i;
    ex.positional_all = true;
    return "";
  }
  if (std::isdigit(static_cast<unsigned char>(raw[i])) || raw[i] == '#' || raw[i] == '?' || raw[i] == '$' ||
      raw[i] == '!' || raw[i] == '-') {
    ex.unresolved.push_back("$" + std::string(1, raw[i]) + " (a run-time parameter)");
    ++i;
    return "";
  }
  std::size_t st = i;
  while (i < raw.size() && name_char(raw[i])) ++i;
  if (st == i) return "$";
  std::string name(raw.substr(st, i - st));
  auto val = value_of(name);
  if (!val) ex.undefined.push_back(name);
  return val.value_or("");
}

}  // namespace

std::optional<long long> eval_arith(std::string_view expr, const ShellLookup& lookup, std::string* why) {
  return Arith(expr, lookup).run(why);
}

namespace {

// ${A[@]} / ${A[*]} at raw[i]: the elements (nullopt when raw[i] does not start one, or A is no array).
std::optional<std::vector<std::string>> array_all(std::string_view raw, std::size_t& i, const ShellLookup& lookup,
                                                  bool& star) {
  if (raw.substr(i, 2) != "${") return std::nullopt;
  std::size_t close = raw.find('}', i);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view body = raw.substr(i + 2, close - i - 2);
  if (body.size() < 4 || (body.substr(body.size() - 3) != "[@]" && body.substr(body.size() - 3) != "[*]"))
    return std::nullopt;
  std::string name(body.substr(0, body.size() - 3));
  for (char c : name)
    if (!name_char(c)) return std::nullopt;
  auto v = lookup(name);
  if (!v || (!v->array && !v->value)) return std::nullopt;
  star = body.back() == ']' && body[body.size() - 2] == '*';
  i = close + 1;
  if (v->array) return *v->array;
  return std::vector<std::string>{*v->value};
}

}  // namespace

std::vector<std::string> array_words(std::string_view b) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (std::size_t i = 0; i < b.size();) {
    char c = b[i];
    if (c == '\\' && i + 1 < b.size() && b[i + 1] == '\n') { i += 2; continue; }
    if (c == '\\' && i + 1 < b.size()) { cur.append(b.substr(i, 2)); i += 2; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { flush(); ++i; continue; }
    if (c == '#' && cur.empty()) {
      while (i < b.size() && b[i] != '\n') ++i;
      continue;
    }
    if (c == '\'' || c == '"') {
      std::size_t e = i + 1;
      while (e < b.size() && b[e] != c) e += (c == '"' && b[e] == '\\') ? 2 : 1;
      e = std::min(e, b.size() - 1);
      cur.append(b.substr(i, e - i + 1));
      i = e + 1;
      continue;
    }
    if (c == '$' && i + 1 < b.size() && (b[i + 1] == '(' || b[i + 1] == '{')) {
      char open = b[i + 1], close = open == '(' ? ')' : '}';
      int depth = 0;
      std::size_t e = i + 1;
      for (; e < b.size(); ++e) {
        if (b[e] == open) ++depth;
        if (b[e] == close && --depth == 0) break;
      }
      e = std::min(e, b.size() - 1);
      cur.append(b.substr(i, e - i + 1));
      i = e + 1;
      continue;
    }
    cur.push_back(c);
    ++i;
  }
  flush();
  return out;
}

Expansion expand_word(std::string_view raw, const ShellLookup& lookup) {
  Builder b;
  std::size_t i = 0;
  while (i < raw.size()) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      b.lit(raw.substr(i + 1, 1));
      i += 2;
      continue;
    }
    if (c == '\'') {
      std::size_t e = raw.find('\'', i + 1);
      if (e == std::string_view::npos) e = raw.size();
      b.lit(raw.substr(i + 1, e - i - 1));
      i = e + 1;
      continue;
    }
    if (c == '"') {
      ++i;
      b.have_field = true;
      while (i < raw.size() && raw[i] != '"') {
        if (raw[i] == '\\' && i + 1 < raw.size() && std::string_view("\"\\$`").find(raw[i + 1]) != std::string_view::npos) {
          b.lit(raw.substr(i + 1, 1));
          i += 2;
        } else if (raw[i] == '$') {
          bool star = false;
          if (auto elems = array_all(raw, i, lookup, star)) {  // "${A[@]}": one field per element
            if (star) {
              b.lit(core::join(*elems, " "));
            } else {
              for (std::size_t k = 0; k < elems->size(); ++k) {
                if (k) b.flush();
                b.lit((*elems)[k]);
              }
              if (elems->empty() && b.cur.empty()) b.have_field = false;
            }
            continue;
          }
          b.lit(dollar(raw, i, lookup, b.out));
        } else if (raw[i] == '`') {
          std::size_t e = raw.find('`', i + 1);
          if (e == std::string_view::npos) e = raw.size() - 1;
          b.out.unresolved.push_back(std::string(raw.substr(i, e - i + 1)) + " is a command substitution");
          i = e + 1;
        } else {
          b.lit(raw.substr(i++, 1));
        }
      }
      ++i;
      continue;
    }
    if (c == '$') {
      bool star = false;
      if (auto elems = array_all(raw, i, lookup, star)) {  // ${A[@]} unquoted: elements, each field-split
        b.split(core::join(*elems, " "));
        continue;
      }
      b.split(dollar(raw, i, lookup, b.out));
      continue;
    }
    if (c == '`') {
      std::size_t e = raw.find('`', i + 1);
      if (e == std::string_view::npos) e = raw.size() - 1;
      b.out.unresolved.push_back(std::string(raw.substr(i, e - i + 1)) + " is a command substitution");
      i = e + 1;
      continue;
    }
    b.lit(raw.substr(i++, 1));
  }
  if (b.have_field || !b.cur.empty()) b.flush();
  return std::move(b.out);
}

}  // namespace ncdx::analyze
