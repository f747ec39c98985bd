#include "knowledge/yaml_json.h"

#include <cmath>
#include <limits>
#include <regex>

namespace ncdx::knowledge {
namespace {

// PyYAML (YAML 1.1) resolvers as used by OmegaConf's loader (omegaconf/_utils.py get_yaml_loader):
// the int and bool resolvers are PyYAML's; the float resolver is OmegaConf's (accepts "1e-6").
const std::regex& bool_re() {
  static const std::regex r("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  return r;
}
const std::regex& int_re() {
  static const std::regex r("[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+");
  return r;
}
const std::regex& float_re() {
  static const std::regex r(
      "[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
      "|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
      "|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
      "|[-+]?\\.(?:inf|Inf|INF)"
      "|\\.(?:nan|NaN|NAN)");
  return r;
}

std::string strip_underscores(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '_') out.push_back(c);
  return out;
}

struct Walker {
  std::map<std::string, int>* lines;
  std::size_t max_nodes;
  std::size_t count = 0;
  core::Status error;

  nlohmann::json walk(const YAML::Node& n, const std::string& path, int depth) {
    if (!error.is_ok()) return nullptr;
    if (++count > max_nodes) {
      error = core::Status::bad_input("more than " + std::to_string(max_nodes) + " YAML nodes (alias expansion?)");
      return nullptr;
    }
    if (depth > 200) {
      error = core::Status::bad_input("YAML nested deeper than 200 levels at line " + std::to_string(n.Mark().line + 1));
      return nullptr;
    }
    switch (n.Type()) {
      case YAML::NodeType::Map: {
        nlohmann::json obj = nlohmann::json::object();
        for (const auto& kv : n) {
          std::string k = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
          std::string p = path.empty() ? k : path + "." + k;
          obj[k] = walk(kv.second, p, depth + 1);
        }
        return obj;
      }
      case YAML::NodeType::Sequence: {
        nlohmann::json arr = nlohmann::json::array();
        std::size_t i = 0;
        for (const auto& e : n) arr.push_back(walk(e, path + "." + std::to_string(i++), depth + 1));
        if (lines && !path.empty()) (*lines)[path] = n.Mark().line + 1;
        return arr;
      }
      case YAML::NodeType::Scalar: {
        if (lines && !path.empty()) (*lines)[path] = n.Mark().line + 1;
        const std::string& tag = n.Tag();
        if (tag == "?") return omegaconf_plain_scalar(n.Scalar());
        if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool" ||
            tag == "tag:yaml.org,2002:null")
          return omegaconf_plain_scalar(n.Scalar());
        return n.Scalar();  // quoted or !!str
      }
      case YAML::NodeType::Null:
        if (lines && !path.empty()) (*lines)[path] = n.Mark().line + 1;
        return nullptr;
      case YAML::NodeType::Undefined:
        return nullptr;
    }
    return nullptr;
  }
};

}  // namespace

nlohmann::json omegaconf_plain_scalar(std::string_view text) {
  std::string s(text);
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (std::regex_match(s, bool_re())) {
    char c = s[0];
    return c == 'y' || c == 'Y' || c == 't' || c == 'T' || s == "on" || s == "On" || s == "ON";
  }
  if (std::regex_match(s, int_re())) {
    std::string d = strip_underscores(s);
    bool neg = d[0] == '-';
    std::string body = (d[0] == '-' || d[0] == '+') ? d.substr(1) : d;
    int base = 10;
    if (body.rfind("0b", 0) == 0) base = 2, body = body.substr(2);
    else if (body.rfind("0x", 0) == 0) base = 16, body = body.substr(2);
    else if (body.size() > 1 && body[0] == '0') base = 8, body = body.substr(1);
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(body.c_str(), &end, base);
    if (errno == ERANGE) return s;  // Python ints are unbounded; keep the text rather than a wrong number
    return neg ? -v : v;
  }
  if (std::regex_match(s, float_re())) {
    std::string d = strip_underscores(s);
    std::string low;
    for (char c : d) low.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (low.find("inf") != std::string::npos)
      return low[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    if (low.find("nan") != std::string::npos) return std::numeric_limits<double>::quiet_NaN();
    return std::strtod(d.c_str(), nullptr);
  }
  return s;
}

core::Result<nlohmann::json> yaml_to_json(const YAML::Node& node, std::map<std::string, int>* lines,
                                          std::size_t max_nodes) {
  Walker w{lines, max_nodes, 0, core::Status::ok()};
  auto out = w.walk(node, "", 0);
  if (!w.error.is_ok()) return w.error;
  return out;
}

core::Result<nlohmann::json> parse_yaml_json(std::string_view text, std::string_view source,
                                             std::map<std::string, int>* lines) {
  if (text.find('\0') != std::string_view::npos) {
    std::size_t nul = text.find('\0');
    std::size_t line = 1;
    for (std::size_t i = 0; i < nul; ++i) line += text[i] == '\n';
    return core::Status::bad_input(std::string(source) + ":" + std::to_string(line) +
                                   ": binary data (NUL byte); expected a YAML text file");
  }
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return core::Status::bad_input(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ":" +
                                   std::to_string(e.mark.column + 1) + ": malformed YAML: " + e.msg);
  } catch (const std::exception& e) {
    return core::Status::bad_input(std::string(source) + ": malformed YAML: " + e.what());
  }
  auto j = yaml_to_json(root, lines);
  if (!j) return j.status().with_context(std::string(source));
  return j;
}

}  // namespace ncdx::knowledge
