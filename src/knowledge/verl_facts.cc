#include "knowledge/verl_facts.h"

#include "core/strings.h"
#include "knowledge/embedded.h"

namespace ncdx::knowledge {
namespace {

constexpr std::string_view kVersionsLine = "# Our own facts table (not verl's files). Versions are ranges over: ";

std::vector<std::string_view> fields(std::string_view line) { return core::split(line, '\t'); }

core::Status bad(std::string_view file, int line, const std::string& what) {
  return core::Status::internal("knowledge/" + std::string(file) + ":" + std::to_string(line) + ": " + what);
}

void set_path(nlohmann::json& root, std::string_view dotted, nlohmann::json v) {
  nlohmann::json* cur = &root;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = dotted.find('.', start);
    std::string part(dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) {
      (*cur)[part] = std::move(v);
      return;
    }
    auto& next = (*cur)[part];
    if (!next.is_object()) next = nlohmann::json::object();
    cur = &next;
    start = dot + 1;
  }
}

void erase_path(nlohmann::json& node, std::string_view dotted) {
  auto dot = dotted.find('.');
  std::string part(dotted.substr(0, dot));
  if (!node.is_object() || !node.contains(part)) return;
  if (dot == std::string_view::npos) {
    node.erase(part);
    return;
  }
  auto& next = node[part];
  erase_path(next, dotted.substr(dot + 1));
  // A mapping whose keys a group override all removed is gone in Hydra's tree too (an empty
  // mapping the variant keeps is its own row, set after the removals: VerlFacts::tree).
  if (next.is_object() && next.empty()) node.erase(part);
}

}  // namespace

core::Result<VerlFacts> parse_verl_facts(std::string_view config_tsv, std::string_view groups_tsv,
                                         std::string_view entries_tsv) {
  VerlFacts f;
  // The version list is stated in the header the generator writes.
  for (auto line : core::split(config_tsv, '\n')) {
    if (line.rfind(kVersionsLine, 0) != 0) continue;
    auto list = line.substr(kVersionsLine.size());
    if (!list.empty() && list.back() == '.') list.remove_suffix(1);
    for (auto p : core::split(list, ',')) {
      auto v = core::Version::parse(core::trim(p));
      if (!v) return bad("verl_config.tsv", 4, "bad version '" + std::string(p) + "'");
      f.versions_.push_back(*v);
    }
  }
  if (f.versions_.empty() || f.versions_.size() > 32) return bad("verl_config.tsv", 4, "no version list in the header");
  auto mask_of = [&](std::string_view file, int ln, std::string_view ranges) -> core::Result<VersionMask> {
    VersionMask m = 0;
    for (auto part : core::split(ranges, ',')) {
      auto dash = part.find('-');
      auto lo = core::Version::parse(part.substr(0, dash));
      auto hi = dash == std::string_view::npos ? lo : core::Version::parse(part.substr(dash + 1));
      if (!lo || !hi) return bad(file, ln, "bad version range '" + std::string(part) + "'");
      auto a = f.index(*lo), b = f.index(*hi);
      if (!a || !b || *a > *b) return bad(file, ln, "version range '" + std::string(part) + "' outside the list");
      for (int i = *a; i <= *b; ++i) m |= VersionMask(1) << i;
    }
    return m;
  };
  int ln = 0;
  for (auto line : core::split(config_tsv, '\n')) {
    ++ln;
    if (line.empty() || line[0] == '#') continue;
    auto c = fields(line);
    if (c.size() != 7) return bad("verl_config.tsv", ln, "expected 7 tab-separated columns");
    auto m = mask_of("verl_config.tsv", ln, c[6]);
    if (!m) return m.status();
    VerlFacts::Row r{std::string(c[0]), c[1] == "-" ? std::string() : std::string(c[1]), std::string(c[2]),
                     std::string(c[3]), std::string(c[4]), c[5] == "-" ? std::string() : std::string(c[5]), *m};
    if (r.type != "absent" && !nlohmann::json::accept(r.value)) return bad("verl_config.tsv", ln, "default is not JSON");
    f.by_config_variant_[r.config + "\t" + r.variant].push_back(f.rows_.size());
    if (r.variant.empty()) f.base_keys_[r.config][r.key] |= r.versions;
    f.rows_.push_back(std::move(r));
  }
  ln = 0;
  for (auto line : core::split(groups_tsv, '\n')) {
    ++ln;
    if (line.empty() || line[0] == '#') continue;
    auto c = fields(line);
    if (c.size() != 5) return bad("verl_groups.tsv", ln, "expected 5 tab-separated columns");
    auto m = mask_of("verl_groups.tsv", ln, c[4]);
    if (!m) return m.status();
    f.groups_[std::string(c[0])][std::string(c[1])].push_back({std::string(c[2]), std::string(c[3]), *m});
  }
  ln = 0;
  for (auto line : core::split(entries_tsv, '\n')) {
    ++ln;
    if (line.empty() || line[0] == '#') continue;
    auto c = fields(line);
    if (c.size() != 3) return bad("verl_entry_points.tsv", ln, "expected 3 tab-separated columns");
    auto m = mask_of("verl_entry_points.tsv", ln, c[2]);
    if (!m) return m.status();
    f.entries_.push_back({std::string(c[0]), std::string(c[1]), *m});
  }
  return f;
}

core::Result<const VerlFacts*> VerlFacts::get() {
  static const core::Result<VerlFacts> parsed = [] {
    auto c = embedded("verl_config.tsv"), g = embedded("verl_groups.tsv"), e = embedded("verl_entry_points.tsv");
    if (!c || !g || !e) return core::Result<VerlFacts>(core::Status::internal("verl facts tables not embedded"));
    return parse_verl_facts(*c, *g, *e);
  }();
  if (!parsed) return parsed.status();
  return &parsed.value();
}

std::optional<int> VerlFacts::index(const core::Version& v) const {
  for (std::size_t i = 0; i < versions_.size(); ++i)
    if (versions_[i] == v) return static_cast<int>(i);
  return std::nullopt;
}

std::string VerlFacts::span(VersionMask m) const {
  std::vector<std::string> parts;
  int n = static_cast<int>(versions_.size());
  for (int i = 0; i < n;) {
    if (!(m >> i & 1)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < n && (m >> (j + 1) & 1)) ++j;
    parts.push_back(i == j ? versions_[i].str() : versions_[i].str() + "-" + versions_[j].str());
    i = j + 1;
  }
  return parts.empty() ? "no version" : core::join(parts, ", ");
}

std::optional<std::string> VerlFacts::entry_config(std::string_view module, const core::Version& v) const {
  auto i = index(v);
  if (!i) return std::nullopt;
  for (const auto& e : entries_)
    if (e.module == module && (e.versions >> *i & 1)) return e.config;
  return std::nullopt;
}

VersionMask VerlFacts::module_versions(std::string_view module) const {
  VersionMask m = 0;
  for (const auto& e : entries_)
    if (e.module == module) m |= e.versions;
  return m;
}

VersionMask VerlFacts::config_versions(std::string_view config) const {
  VersionMask m = 0;
  for (const auto& e : entries_)
    if (e.config == config) m |= e.versions;
  return m;
}

bool VerlFacts::has_config(std::string_view config, const core::Version& v) const {
  auto i = index(v);
  return i && (config_versions(config) >> *i & 1);
}

std::map<std::string, std::vector<VerlGroupOption>> VerlFacts::choices(std::string_view config, const core::Version& v) const {
  std::map<std::string, std::vector<VerlGroupOption>> out;
  auto i = index(v);
  auto it = groups_.find(config);
  if (!i || it == groups_.end()) return out;
  for (const auto& [key, opts] : it->second) {
    std::vector<VerlGroupOption> here;
    for (const auto& o : opts)
      if (o.versions >> *i & 1) (o.status == "default" ? here.insert(here.begin(), o), void() : here.push_back(o));
    if (!here.empty()) out[key] = std::move(here);
  }
  return out;
}

nlohmann::json VerlFacts::tree(std::string_view config, const core::Version& v, const std::vector<std::string>& variants) const {
  nlohmann::json t = nlohmann::json::object();
  auto i = index(v);
  if (!i) return t;
  auto apply = [&](const std::string& variant) {
    auto it = by_config_variant_.find(std::string(config) + "\t" + variant);
    if (it == by_config_variant_.end()) return;
    for (bool removals : {true, false})  // what the option drops first, then what it sets
      for (auto r : it->second) {
        const auto& row = rows_[r];
        if (!(row.versions >> *i & 1) || (row.type == "absent") != removals) continue;
        if (removals) erase_path(t, row.key);
        else set_path(t, row.key, nlohmann::json::parse(row.value));
      }
  };
  apply("");
  const nlohmann::json base = t;
  // The package a choice fills (actor@actor_rollout_ref.actor -> actor_rollout_ref.actor, critic ->
  // critic), as a JSON pointer into the tree; nullptr when the tree has no such mapping (a
  // _global_ group such as model_engine, which selects other groups' options).
  auto package = [&](const std::string& variant) -> std::optional<nlohmann::json::json_pointer> {
    std::string choice = variant.substr(0, variant.find('='));
    std::string pkg = choice.find('@') != std::string::npos ? choice.substr(choice.find('@') + 1) : choice;
    std::string ptr;
    for (auto part : core::split(pkg, '.')) ptr += "/" + std::string(part);
    nlohmann::json::json_pointer p(ptr);
    if (ptr.empty() || !base.contains(p) || !base.at(p).is_object()) return std::nullopt;
    return p;
  };
  // Hydra composes one option per group (the last override of a choice wins), and an explicit
  // choice beats the one a _global_ group's defaults pick: global groups first, then the others,
  // each from the base subtree of its package (the rows are differences from the defaults).
  std::vector<std::string> order;
  for (bool global : {true, false})
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const std::string choice = variants[k].substr(0, variants[k].find('='));
      bool later = false;
      for (std::size_t j = k + 1; j < variants.size(); ++j) later |= variants[j].substr(0, variants[j].find('=')) == choice;
      if (!later && package(variants[k]).has_value() != global) order.push_back(variants[k]);
    }
  for (const auto& v2 : order) {
    if (auto p = package(v2)) t[*p] = base.at(*p);
    apply(v2);
  }
  return t;
}

VersionMask VerlFacts::key_versions(std::string_view config, std::string_view key) const {
  auto it = base_keys_.find(config);
  if (it == base_keys_.end()) return 0;
  auto k = it->second.find(std::string(key));
  return k == it->second.end() ? 0 : k->second;
}

std::optional<nlohmann::json> VerlFacts::value(std::string_view config, const core::Version& v, std::string_view key) const {
  auto i = index(v);
  auto it = by_config_variant_.find(std::string(config) + "\t");
  if (!i || it == by_config_variant_.end()) return std::nullopt;
  for (auto r : it->second)
    if (rows_[r].key == key && (rows_[r].versions >> *i & 1)) return nlohmann::json::parse(rows_[r].value);
  return std::nullopt;
}

std::vector<std::string> VerlFacts::keys(std::string_view config, const core::Version& v) const {
  std::vector<std::string> out;
  auto i = index(v);
  auto it = base_keys_.find(config);
  if (!i || it == base_keys_.end()) return out;
  for (const auto& [k, m] : it->second)
    if (m >> *i & 1) out.push_back(k);
  return out;
}

}  // namespace ncdx::knowledge
