#include "knowledge/env_vars.h"

#include <regex>
#include <stdexcept>

#include "core/strings.h"
#include "knowledge/embedded.h"
#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {

const char* to_string(NcclVarKind k) {
  switch (k) {
    case NcclVarKind::nccl: return "nccl";
    case NcclVarKind::nccl_plugin: return "nccl-plugin";
    case NcclVarKind::external_plugin: return "external-plugin";
    case NcclVarKind::pytorch_alias: return "pytorch-alias";
    case NcclVarKind::docs_only: return "docs-only";
    case NcclVarKind::fake: return "fake";
    case NcclVarKind::log_only: return "log-only";
  }
  return "?";
}

bool NcclVar::is_int() const { return type.rfind("int", 0) == 0 && type.find("string") == std::string::npos; }
bool NcclVar::is_bool() const { return type == "int (bool)" || type == "bool"; }

bool NcclVar::read_by(const core::Version& v) const {
  if (kind != NcclVarKind::nccl && kind != NcclVarKind::nccl_plugin) return false;
  if (since && !since_is_upper_bound && v < *since) return false;
  if (removed && v >= *removed) return false;
  return true;
}

namespace {

std::optional<core::Version> first_version(const std::string& s, const char* after = nullptr) {
  std::size_t pos = 0;
  if (after) {
    pos = s.find(after);
    if (pos == std::string::npos) return std::nullopt;
    pos += std::char_traits<char>::length(after);
  }
  static const std::regex re(R"((\d+\.\d+(?:\.\d+)?))");
  std::smatch m;
  std::string tail = s.substr(pos);
  if (!std::regex_search(tail, m, re)) return std::nullopt;
  return core::Version::parse(m[1].str());
}

NcclVar decode(const std::vector<std::string>& f, int line) {
  NcclVar v;
  v.name = f[0]; v.type = f[1]; v.default_value = f[2]; v.values = f[3];
  v.since_text = f[4]; v.until_text = f[5]; v.replacement = f[6]; v.description = f[7]; v.source = f[8];
  v.tsv_line = line;
  const std::string& s = v.since_text;
  if (s == "never") v.kind = NcclVarKind::fake;
  else if (s.rfind("PyTorch", 0) == 0) v.kind = NcclVarKind::pytorch_alias;
  else if (s.rfind("nccl-rdma-sharp-plugins", 0) == 0) v.kind = NcclVarKind::external_plugin;
  else if (s.find("docs only") != std::string::npos) v.kind = NcclVarKind::docs_only;
  else if (v.type.rfind("not an env var", 0) == 0) v.kind = NcclVarKind::log_only;
  else if (v.source.find(" plugins/") != std::string::npos) v.kind = NcclVarKind::nccl_plugin;
  if (v.kind == NcclVarKind::nccl || v.kind == NcclVarKind::nccl_plugin || v.kind == NcclVarKind::log_only) {
    v.since_is_upper_bound = s.rfind("<=", 0) == 0;
    v.since = first_version(s);
  }
  const std::string& u = v.until_text;
  if (u.rfind("removed", 0) == 0) {
    v.removed = first_version(u, "removed");
    v.last = first_version(u, "last");
  } else if (u.rfind("deprecated alias", 0) == 0 && v.kind == NcclVarKind::nccl) {
    v.legacy_alias = true;
  } else if (u.rfind("deprecated", 0) == 0 && v.kind == NcclVarKind::nccl) {
    v.deprecated = first_version(u, "deprecated");
  }
  return v;
}

std::vector<NcclVar> load_nccl() {
  auto text = embedded("nccl_env_vars.tsv");
  if (!text) throw std::runtime_error("knowledge file nccl_env_vars.tsv is missing");
  std::vector<NcclVar> out;
  int line = 0;
  for (auto row : core::split(*text, '\n')) {
    ++line;
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    if (line == 1 || row.empty()) continue;  // header
    auto cols = core::split(row, '\t');
    if (cols.size() != 9)
      throw std::runtime_error("nccl_env_vars.tsv:" + std::to_string(line) + ": expected 9 columns");
    std::vector<std::string> f(cols.begin(), cols.end());
    out.push_back(decode(f, line));
  }
  return out;
}

std::string str_or(const YAML::Node& n, const char* key) {
  auto v = n[key];
  if (!v || v.IsNull()) return {};
  return v.as<std::string>();
}

std::vector<TorchVar> load_torch() {
  auto doc = load_embedded_yaml("torch_env_vars.yaml");
  if (!doc) throw std::runtime_error(doc.status().message());
  std::vector<TorchVar> out;
  for (const auto& n : (*doc)["variables"]) {
    TorchVar t;
    t.name = str_or(n, "name"); t.type = str_or(n, "type"); t.values = str_or(n, "values");
    t.default_value = str_or(n, "default"); t.older_default = str_or(n, "older_default");
    t.meaning = str_or(n, "meaning"); t.source = str_or(n, "source"); t.deprecated = str_or(n, "deprecated");
    if (auto s = str_or(n, "since"); !s.empty()) t.since = core::Version::parse(s);
    if (auto s = str_or(n, "legacy_until"); !s.empty()) t.legacy_until = core::Version::parse(s);
    if (n["aliases"]) for (const auto& a : n["aliases"]) t.aliases.push_back(a.as<std::string>());
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

const std::vector<NcclVar>& nccl_vars() {
  static const std::vector<NcclVar> v = load_nccl();
  return v;
}

const NcclVar* find_nccl_var(std::string_view name) {
  for (const auto& v : nccl_vars())
    if (v.name == name) return &v;
  return nullptr;
}

const std::vector<TorchVar>& torch_vars() {
  static const std::vector<TorchVar> v = load_torch();
  return v;
}

const TorchVar* find_torch_var(std::string_view name, bool* is_alias) {
  for (const auto& t : torch_vars()) {
    if (t.name == name) { if (is_alias) *is_alias = false; return &t; }
    for (const auto& a : t.aliases)
      if (a == name) { if (is_alias) *is_alias = true; return &t; }
  }
  return nullptr;
}

std::vector<std::string> known_env_names() {
  std::vector<std::string> out;
  for (const auto& v : nccl_vars()) out.push_back(v.name);
  for (const auto& t : torch_vars()) {
    out.push_back(t.name);
    for (const auto& a : t.aliases) out.push_back(a);
  }
  return out;
}

}  // namespace ncdx::knowledge
