#include "knowledge/compat_pins.h"

#include "core/semver.h"
#include "core/strings.h"
#include "knowledge/embedded.h"

namespace ncdx::knowledge {
namespace {

constexpr std::string_view kFile = "compat_pins.tsv";
constexpr std::string_view kHeader = "package\tversion\trequires\tspec\textra\tmarker";
constexpr std::string_view kGenerated = "# generated: ";

core::Status bad(int line, const std::string& what) {
  return core::Status::internal("knowledge/" + std::string(kFile) + ":" + std::to_string(line) + ": " + what);
}

// A PEP 503 name as the generator writes it: lower case, digits, '-'.
bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

// "==2.6.0" / "<=0.8.5,>=0.7.3" / "!=2.5.0": every part an operator and a version.
bool is_spec(std::string_view s) {
  for (auto part : core::split(s, ',')) {
    std::size_t op = 0;
    while (op < part.size() &&
           (part[op] == '<' || part[op] == '>' || part[op] == '=' || part[op] == '!' || part[op] == '~'))
      ++op;
    if (op == 0 || op > 3 || !core::Version::parse(part.substr(op))) return false;
  }
  return !s.empty();
}

std::string_view without_local(std::string_view v) { return v.substr(0, v.find('+')); }

// "0.3.0.post1" -> "0.3.0"; other versions unchanged.
std::string_view without_post(std::string_view v) {
  auto p = v.find(".post");
  return p == std::string_view::npos ? v : v.substr(0, p);
}

}  // namespace

std::string CompatPin::requirement() const {
  std::string r = "Requires-Dist " + dependency + spec;
  std::string m = marker;
  if (!extra.empty()) m += (m.empty() ? "" : " and ") + std::string("extra == \"") + extra + "\"";
  return m.empty() ? r : r + "; " + m;
}

core::Result<CompatPins> parse_compat_pins(std::string_view tsv) {
  CompatPins t;
  bool header = false;
  int ln = 0;
  for (auto line : core::split(tsv, '\n')) {
    ++ln;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.rfind(kGenerated, 0) == 0) t.generated_ = std::string(line.substr(kGenerated.size()));
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      if (line != kHeader) return bad(ln, "expected the column header '" + std::string(kHeader) + "'");
      header = true;
      continue;
    }
    auto c = core::split(line, '\t');
    if (c.size() != 6) return bad(ln, "expected 6 tab-separated columns, found " + std::to_string(c.size()));
    if (!is_name(c[0]) || !is_name(c[2])) return bad(ln, "package and requires must be PEP 503 names");
    if (!core::Version::parse(c[1])) return bad(ln, "bad version '" + std::string(c[1]) + "'");
    if (c[3] != "-" && !is_spec(c[3])) return bad(ln, "bad version spec '" + std::string(c[3]) + "'");
    if (c[4] != "-" && !is_name(c[4])) return bad(ln, "bad extra '" + std::string(c[4]) + "'");
    if (c[5].empty()) return bad(ln, "empty marker (write '-')");
    auto opt = [](std::string_view v) { return v == "-" ? std::string() : std::string(v); };
    t.rows_.push_back({std::string(c[0]), std::string(c[1]), std::string(c[2]), opt(c[3]), opt(c[4]), opt(c[5]), ln});
  }
  if (!header) return bad(ln, "no column header");
  if (t.rows_.empty()) return bad(ln, "no rows");
  return t;
}

core::Result<const CompatPins*> CompatPins::get() {
  static const core::Result<CompatPins> parsed = [] {
    auto text = embedded(kFile);
    if (!text) return core::Result<CompatPins>(core::Status::internal("knowledge/compat_pins.tsv not embedded"));
    return parse_compat_pins(*text);
  }();
  if (!parsed) return parsed.status();
  return &parsed.value();
}

std::string CompatPins::release(std::string_view package, std::string_view version) const {
  const std::string_view v = without_local(version);
  for (const auto& r : rows_)
    if (r.package == package && r.version == v) return r.version;
  for (const auto& r : rows_)
    if (r.package == package && without_post(r.version) == v) return r.version;
  return {};
}

std::vector<std::string> CompatPins::releases(std::string_view package) const {
  std::vector<std::string> out;
  for (const auto& r : rows_)
    if (r.package == package && (out.empty() || out.back() != r.version)) out.push_back(r.version);
  return out;
}

std::vector<const CompatPin*> CompatPins::pins(std::string_view package, std::string_view release,
                                               std::string_view dependency) const {
  std::vector<const CompatPin*> out;
  if (release.empty()) return out;
  for (const auto& r : rows_)
    if (r.package == package && r.version == release && r.dependency == dependency) out.push_back(&r);
  return out;
}

}  // namespace ncdx::knowledge
