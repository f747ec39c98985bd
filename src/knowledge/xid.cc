#include "knowledge/xid.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {
namespace {

const EmbeddedTable<XidInfo>& loaded() {
  static const auto l = load_embedded_table<XidInfo>("xid.yaml", parse_xid_yaml);
  return l;
}

std::string need(const YAML::Node& entry, const char* key, const std::string& src) {
  const YAML::Node v = entry[key];
  if (!v || !v.IsScalar() || v.Scalar().empty())
    throw core::Status::bad_input(src + ":" + std::to_string(entry.Mark().line + 1) + ": XID entry needs a '" + key + "' string");
  return v.Scalar();
}

}  // namespace

core::Result<std::vector<XidInfo>> parse_xid_yaml(std::string_view text, std::string_view source_name) {
  const std::string src(source_name);
  try {
    YAML::Node root = YAML::Load(std::string(text));
    YAML::Node list = root.IsMap() ? root["xids"] : YAML::Node();
    if (!list || !list.IsSequence())
      return core::Status::bad_input(src + ":1: expected a top-level 'xids:' list");
    std::vector<XidInfo> out;
    std::set<int> codes;
    for (const auto& e : list) {
      const std::string line = src + ":" + std::to_string(e.Mark().line + 1) + ": ";
      if (!e.IsMap()) return core::Status::bad_input(line + "each XID entry must be a map");
      XidInfo x;
      const std::string code = need(e, "code", src);
      std::size_t used = 0;
      try { x.code = std::stoi(code, &used); } catch (...) { used = 0; }
      if (used != code.size() || x.code <= 0) return core::Status::bad_input(line + "'code' must be a positive integer");
      if (!codes.insert(x.code).second) return core::Status::bad_input(line + "duplicate XID " + code);
      x.name = need(e, "name", src);
      x.meaning = need(e, "meaning", src);
      x.action = need(e, "action", src);
      x.klass = need(e, "class", src);
      if (!core::is_failure_class(x.klass) || x.klass == "none")
        return core::Status::bad_input(line + "unknown class '" + x.klass + "'");
      auto sev = core::parse_severity(need(e, "severity", src));
      if (!sev) return core::Status::bad_input(line + "severity must be info, warn, error or critical");
      x.severity = *sev;
      out.push_back(std::move(x));
    }
    std::sort(out.begin(), out.end(), [](const XidInfo& a, const XidInfo& b) { return a.code < b.code; });
    return out;
  } catch (const YAML::Exception& e) {
    return core::Status::bad_input(src + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  } catch (const core::Status& s) {
    return s;
  }
}

const XidInfo* xid_info(int code) {
  const auto& t = loaded().rows;
  auto it = std::lower_bound(t.begin(), t.end(), code, [](const XidInfo& x, int c) { return x.code < c; });
  return it != t.end() && it->code == code ? &*it : nullptr;
}

std::span<const XidInfo> xid_table() { return loaded().rows; }
core::Status xid_table_status() { return loaded().status; }

}  // namespace ncdx::knowledge
