#include "analyze/config/config_tree.h"

#include "core/strings.h"

namespace ncdx::analyze {

std::vector<std::string> split_key(std::string_view dotted) {
  std::vector<std::string> out;
  for (auto p : core::split(dotted, '.')) out.emplace_back(p);
  return out;
}

namespace {
thread_local std::set<std::string>* key_reads = nullptr;

template <class J>
J* walk(J& root, std::string_view dotted) {
  KeyReads::note(dotted);
  J* cur = &root;
  for (const auto& part : split_key(dotted)) {
    if (cur->is_object()) {
      auto it = cur->find(part);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      auto idx = core::parse_int(part);
      if (!idx || *idx < 0 || static_cast<std::size_t>(*idx) >= cur->size()) return nullptr;
      cur = &(*cur)[static_cast<std::size_t>(*idx)];
    } else {
      return nullptr;
    }
  }
  return cur;
}
}  // namespace

KeyReads::KeyReads(std::set<std::string>& into) : prev_(key_reads) { key_reads = &into; }
KeyReads::~KeyReads() { key_reads = prev_; }
void KeyReads::note(std::string_view dotted) {
  if (key_reads) key_reads->emplace(dotted);
}

const nlohmann::json* find_path(const nlohmann::json& root, std::string_view dotted) { return walk(root, dotted); }
nlohmann::json* find_path(nlohmann::json& root, std::string_view dotted) { return walk(root, dotted); }

void set_path(nlohmann::json& root, std::string_view dotted, nlohmann::json value) {
  auto parts = split_key(dotted);
  nlohmann::json* cur = &root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (cur->is_array()) {
      auto idx = core::parse_int(parts[i]);
      if (idx && *idx >= 0 && static_cast<std::size_t>(*idx) < cur->size()) {
        cur = &(*cur)[static_cast<std::size_t>(*idx)];
        continue;
      }
      *cur = nlohmann::json::object();
    }
    if (!cur->is_object()) *cur = nlohmann::json::object();
    auto& next = (*cur)[parts[i]];
    if (!next.is_object() && !next.is_array()) next = nlohmann::json::object();
    cur = &next;
  }
  if (cur->is_array()) {
    auto idx = core::parse_int(parts.back());
    if (idx && *idx >= 0 && static_cast<std::size_t>(*idx) < cur->size()) {
      (*cur)[static_cast<std::size_t>(*idx)] = std::move(value);
      return;
    }
    *cur = nlohmann::json::object();
  }
  if (!cur->is_object()) *cur = nlohmann::json::object();
  (*cur)[parts.back()] = std::move(value);
}

bool erase_path(nlohmann::json& root, std::string_view dotted) {
  auto dot = dotted.rfind('.');
  nlohmann::json* parent = dot == std::string_view::npos ? &root : find_path(root, dotted.substr(0, dot));
  std::string last(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
  if (!parent) return false;
  if (parent->is_object()) return parent->erase(last) > 0;
  if (parent->is_array()) {
    auto idx = core::parse_int(last);
    if (!idx || *idx < 0 || static_cast<std::size_t>(*idx) >= parent->size()) return false;
    parent->erase(static_cast<std::size_t>(*idx));
    return true;
  }
  return false;
}

void merge_into(nlohmann::json& dst, const nlohmann::json& src) {
  if (dst.is_object() && src.is_object()) {
    for (auto it = src.begin(); it != src.end(); ++it) {
      auto d = dst.find(it.key());
      if (d != dst.end() && d->is_object() && it->is_object())
        merge_into(*d, *it);
      else
        dst[it.key()] = *it;
    }
    return;
  }
  dst = src;
}

namespace {
void flatten_into(const nlohmann::json& j, const std::string& prefix,
                  std::vector<std::pair<std::string, nlohmann::json>>& out) {
  if (j.is_object() && !j.empty()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten_into(*it, prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  out.emplace_back(prefix, j);
}
}  // namespace

std::vector<std::pair<std::string, nlohmann::json>> flatten(const nlohmann::json& root) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  flatten_into(root, "", out);
  return out;
}

std::string display(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {
bool unusable(const nlohmann::json* j) {
  if (!j || j->is_null()) return true;
  if (j->is_string()) {
    const auto& s = j->get_ref<const std::string&>();
    return s == "???" || s.find("${") != std::string::npos;
  }
  return false;
}
}  // namespace

std::optional<long long> get_int(const nlohmann::json& root, std::string_view dotted) {
  auto j = find_path(root, dotted);
  if (unusable(j)) return std::nullopt;
  if (j->is_number_integer()) return j->get<long long>();
  if (j->is_number_float()) {
    double d = j->get<double>();
    if (d == static_cast<double>(static_cast<long long>(d))) return static_cast<long long>(d);
  }
  if (j->is_string()) return core::parse_int(j->get<std::string>());
  return std::nullopt;
}

std::optional<double> get_number(const nlohmann::json& root, std::string_view dotted) {
  auto j = find_path(root, dotted);
  if (unusable(j)) return std::nullopt;
  if (j->is_number()) return j->get<double>();
  if (j->is_string()) return core::parse_double(j->get<std::string>());
  return std::nullopt;
}

std::optional<bool> get_bool(const nlohmann::json& root, std::string_view dotted) {
  auto j = find_path(root, dotted);
  if (unusable(j)) return std::nullopt;
  if (j->is_boolean()) return j->get<bool>();
  if (j->is_string()) {
    auto s = core::to_lower(j->get<std::string>());
    if (s == "true") return true;
    if (s == "false") return false;
  }
  return std::nullopt;
}

std::optional<std::string> get_string(const nlohmann::json& root, std::string_view dotted) {
  auto j = find_path(root, dotted);
  if (unusable(j)) return std::nullopt;
  return display(*j);
}

}  // namespace ncdx::analyze
