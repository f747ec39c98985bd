#include "knowledge/error_tokens.h"

#include <yaml-cpp/yaml.h>

#include <cctype>

#include "core/finding.h"
#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {
namespace {

const core::Result<ErrorTokens>& loaded() {
  static const auto l = parse_embedded<ErrorTokens>("error_tokens.yaml", parse_error_tokens);
  return l;
}

std::string lower_token(const YAML::Node& n, const std::string& where) {
  if (!n || !n.IsScalar() || n.Scalar().empty()) throw core::Status::bad_input(where + "expected a non-empty token string");
  std::string s = n.Scalar();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const ErrorTokens& error_tokens() {
  static const ErrorTokens none;
  return loaded().ok() ? loaded().value() : none;
}
core::Status error_tokens_status() { return loaded().ok() ? core::Status() : loaded().status(); }

namespace {
bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }
// Short tokens (<= 4 characters: "efa", "hca", "shm", "oom", "ecc") are words, not pieces of
// words ("defaults", "room"); longer ones match anywhere ("libibverbs").
bool has_token(std::string_view text, std::string_view tok) {
  if (tok.size() > 4) return text.find(tok) != std::string_view::npos;
  for (std::size_t p = text.find(tok); p != std::string_view::npos; p = text.find(tok, p + 1)) {
    bool left = p == 0 || !alnum(tok.front()) || !alnum(text[p - 1]);
    std::size_t e = p + tok.size();
    bool right = e >= text.size() || !alnum(tok.back()) || !alnum(text[e]);
    if (left && right) return true;
  }
  return false;
}
}  // namespace

std::string_view family_class(std::string_view lower_text, const ErrorTokens& t) {
  std::string_view best;
  int most = 0;
  for (const auto& fam : t.families) {
    int n = 0;
    for (const auto& tok : fam.tokens) n += has_token(lower_text, tok);
    if (n > most) most = n, best = fam.klass;
  }
  return best;
}

std::string exception_type_class(std::string_view name, const ErrorTokens& t) {
  if (auto it = t.exception_class.find(std::string(name)); it != t.exception_class.end()) return it->second;
  if (t.exception_by_words.count(std::string(name))) return "";
  return "other";
}

core::Result<ErrorTokens> parse_error_tokens(std::string_view yaml_text, std::string_view source_name) {
  const std::string src(source_name);
  try {
    YAML::Node root = YAML::Load(std::string(yaml_text));
    if (!root.IsMap() || !root["evidence"].IsSequence() || !root["families"].IsSequence())
      return core::Status::bad_input(src + ":1: expected 'evidence:' and 'families:' lists");
    ErrorTokens out;
    for (const auto& e : root["evidence"]) {
      const std::string where = src + ":" + std::to_string(e.Mark().line + 1) + ": ";
      if (!e.IsMap()) return core::Status::bad_input(where + "each evidence entry is {token, weight}");
      ErrorToken t;
      t.token = lower_token(e["token"], where);
      const YAML::Node w = e["weight"];
      if (!w || !w.IsScalar()) return core::Status::bad_input(where + "evidence entry needs a 'weight'");
      try { t.weight = std::stoi(w.Scalar()); } catch (...) { t.weight = 0; }
      if (t.weight <= 0 || t.weight > 100) return core::Status::bad_input(where + "'weight' must be 1..100");
      out.evidence.push_back(std::move(t));
    }
    for (const auto& f : root["families"]) {
      const std::string where = src + ":" + std::to_string(f.Mark().line + 1) + ": ";
      if (!f.IsMap() || !f["class"] || !f["tokens"].IsSequence())
        return core::Status::bad_input(where + "each family is {class, tokens: [...]}");
      TokenFamily fam;
      fam.klass = f["class"].Scalar();
      if (!core::is_failure_class(fam.klass) || fam.klass == "none")
        return core::Status::bad_input(where + "unknown class '" + fam.klass + "'");
      for (const auto& t : f["tokens"]) fam.tokens.push_back(lower_token(t, where));
      out.families.push_back(std::move(fam));
    }
    if (const YAML::Node q = root["quiet"]) {
      if (!q.IsSequence()) return core::Status::bad_input(src + ":" + std::to_string(q.Mark().line + 1) + ": 'quiet' is a list");
      for (const auto& t : q) out.quiet.push_back(lower_token(t, src + ":" + std::to_string(t.Mark().line + 1) + ": "));
    }
    if (const YAML::Node q = root["labels"]) {
      if (!q.IsSequence()) return core::Status::bad_input(src + ":" + std::to_string(q.Mark().line + 1) + ": 'labels' is a list");
      for (const auto& t : q) out.labels.push_back(lower_token(t, src + ":" + std::to_string(t.Mark().line + 1) + ": "));
    }
    if (const YAML::Node x = root["exceptions"]) {
      const std::string where = src + ":" + std::to_string(x.Mark().line + 1) + ": ";
      if (!x.IsMap() || !x["by_words"].IsSequence() || !x["by_type"].IsMap())
        return core::Status::bad_input(where + "'exceptions' is {by_words: [...], by_type: {Type: class}}");
      for (const auto& t : x["by_words"]) {
        if (!t.IsScalar() || t.Scalar().empty()) return core::Status::bad_input(where + "exception type names are strings");
        out.exception_by_words.insert(t.Scalar());
      }
      for (const auto& kv : x["by_type"]) {
        const std::string k = kv.second.IsScalar() ? kv.second.Scalar() : "";
        if (!core::is_failure_class(k) || k == "none")
          return core::Status::bad_input(where + "unknown class '" + k + "' for " + kv.first.Scalar());
        out.exception_class[kv.first.Scalar()] = k;
      }
    }
    if (out.evidence.empty()) return core::Status::bad_input(src + ":1: 'evidence' is empty");
    return out;
  } catch (const YAML::Exception& e) {
    return core::Status::bad_input(src + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  } catch (const core::Status& s) {
    return s;
  }
}

}  // namespace ncdx::knowledge
