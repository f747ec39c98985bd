#include "knowledge/findings.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {
namespace {

core::Status at(std::string_view source, const YAML::Node& n, const std::string& what) {
  return core::Status::bad_input(std::string(source) + ":" + std::to_string(n.Mark().line + 1) + ": " + what);
}

std::optional<std::string> opt_string(const YAML::Node& n, const char* key) {
  if (!n[key]) return std::nullopt;
  return n[key].as<std::string>();
}

// A number in [lo, hi] or an error naming the row's line.
core::Result<double> number(std::string_view source, const YAML::Node& n, const std::string& what, int lo, int hi) {
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !(v >= lo && v <= hi))
    return at(source, n, what + " must be a number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

// A row's (or a case's) optional confidence (0..1) and score (0..1000).
core::Status read_numbers(std::string_view source, const YAML::Node& n, const std::string& what,
                          std::optional<double>& confidence, std::optional<double>& score) {
  if (n["confidence"]) {
    auto c = number(source, n["confidence"], what + ": confidence", 0, 1);
    if (!c) return c.status();
    confidence = *c;
  }
  if (n["score"]) {
    auto sc = number(source, n["score"], what + ": score", 0, 1000);
    if (!sc) return sc.status();
    score = *sc;
  }
  return core::Status::ok();
}

const EmbeddedTable<FindingDef>& loaded() {
  static const auto l = load_embedded_table<FindingDef>("findings.yaml", parse_findings_yaml);
  return l;
}

}  // namespace

core::Result<std::vector<FindingDef>> parse_findings_yaml(std::string_view text, std::string_view source) {
  auto parsed = parse_yaml_list(text, source, "findings");
  if (!parsed) return parsed.status();
  const YAML::Node root = *parsed;
  std::vector<FindingDef> out;
  std::set<std::string> ids;
  try {
    for (const auto& n : root) {
      if (!n.IsMap() || !n["id"] || !n["class"] || !n["severity"] || !n["title"] || !n["summary"])
        return at(source, n, "expected a finding with id, class, severity, title and summary");
      FindingDef d;
      d.id = n["id"].as<std::string>();
      if (!ids.insert(d.id).second) return at(source, n, "duplicate finding id '" + d.id + "'");
      d.klass = n["class"].as<std::string>();
      if (!core::is_failure_class(d.klass)) return at(source, n, d.id + ": '" + d.klass + "' is not a failure class");
      auto sev = core::parse_severity(n["severity"].as<std::string>());
      if (!sev) return at(source, n, d.id + ": severity must be info, warn, error or critical");
      d.severity = *sev;
      if (n["vars"]) d.vars = n["vars"].as<std::vector<std::string>>();
      d.title = n["title"].as<std::string>();
      d.summary = n["summary"].as<std::string>();
      if (n["fixes"])
        for (const auto& x : n["fixes"]) {
          if (!x.IsMap() || !x["action"]) return at(source, x, d.id + ": a fix needs an action");
          d.fixes.push_back({x["action"].as<std::string>(), opt_string(x, "env"), opt_string(x, "command"),
                             opt_string(x, "applies"), opt_string(x, "doc"), opt_string(x, "when").value_or("")});
          const auto& w = d.fixes.back().when;
          if (!w.empty() && std::find(d.vars.begin(), d.vars.end(), w) == d.vars.end())
            return at(source, x, d.id + ": fix 'when: " + w + "' is not one of its vars (add it to vars)");
        }
      if (auto st = read_numbers(source, n, d.id, d.confidence, d.score); !st) return st;
      if (n["cases"]) {
        if (!n["cases"].IsMap()) return at(source, n["cases"], d.id + ": cases must map a case name to {confidence, score}");
        for (const auto& c : n["cases"]) {
          FindingCase fc;
          fc.name = c.first.as<std::string>();
          const std::string what = d.id + " case '" + fc.name + "'";
          if (!c.second.IsMap() || (!c.second["confidence"] && !c.second["score"]))
            return at(source, c.second, what + ": expected {confidence: 0..1, score: 0..1000}");
          if (d.find_case(fc.name)) return at(source, c.second, what + ": duplicate case");
          if (auto st = read_numbers(source, c.second, what, fc.confidence, fc.score); !st) return st;
          d.cases.push_back(std::move(fc));
        }
      }
      std::vector<std::string_view> texts = {d.title, d.summary};
      for (const auto& f : d.fixes) {
        texts.push_back(f.action);
        for (const auto* o : {&f.env, &f.command, &f.applies, &f.doc})
          if (*o) texts.push_back(**o);
      }
      if (auto bad = undeclared_vars(d.vars, texts); !bad.empty()) return at(source, n, d.id + ": " + bad + " (add it to vars)");
      out.push_back(std::move(d));
    }
  } catch (const YAML::Exception& e) {
    return core::Status::bad_input(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return out;
}

const FindingCase* FindingDef::find_case(std::string_view name) const {
  for (const auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

std::span<const FindingDef> finding_table() { return loaded().rows; }
core::Status finding_table_status() { return loaded().status; }

const FindingDef* find_finding_def(std::string_view id) {
  for (const auto& d : finding_table())
    if (d.id == id) return &d;
  return nullptr;
}

std::string fill_template(std::string_view text, const FindingVars& vars) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '{') {
      auto close = text.find('}', i);
      if (close == std::string_view::npos) throw std::logic_error("unclosed '{' in a finding text");
      std::string name(text.substr(i + 1, close - i - 1));
      auto it = vars.find(name);
      if (it == vars.end()) throw std::logic_error("undeclared {" + name + "}");
      out += it->second;
      i = close + 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string undeclared_vars(const std::vector<std::string>& vars, const std::vector<std::string_view>& texts) {
  FindingVars probe;
  for (const auto& v : vars) probe[v] = "";
  try {
    for (auto t : texts) (void)fill_template(t, probe);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return {};
}

namespace {

const FindingDef& def_of(std::string_view id) {
  const FindingDef* d = find_finding_def(id);
  if (!d) throw std::logic_error("finding '" + std::string(id) + "' is not in findings.yaml (" +
                                 finding_table_status().message() + ")");
  return *d;
}

// The case named, nullptr for none; a name the row lacks is the caller's bug.
const FindingCase* case_of(const FindingDef& d, std::string_view case_name) {
  if (case_name.empty()) return nullptr;
  const FindingCase* c = d.find_case(case_name);
  if (!c) throw std::logic_error("finding '" + d.id + "' has no case '" + std::string(case_name) + "' in findings.yaml");
  return c;
}

}  // namespace

core::Finding make_finding(std::string_view id, const FindingVars& vars, std::string_view case_name) {
  const FindingDef* d = &def_of(id);
  const FindingCase* c = case_of(*d, case_name);
  core::Finding f;
  f.id = d->id;
  f.klass = d->klass;
  f.severity = d->severity;
  f.title = fill_template(d->title, vars);
  f.summary = fill_template(d->summary, vars);
  if (c && c->confidence) f.confidence = *c->confidence;
  else if (d->confidence) f.confidence = *d->confidence;
  auto opt_fill = [&](const std::optional<std::string>& s) {
    return s ? std::optional<std::string>(fill_template(*s, vars)) : std::nullopt;
  };
  for (const auto& x : d->fixes) {
    if (!x.when.empty() && fill_template("{" + x.when + "}", vars).empty()) continue;
    f.fixes.push_back({fill_template(x.action, vars), opt_fill(x.env), opt_fill(x.command), opt_fill(x.applies), opt_fill(x.doc)});
  }
  return f;
}

std::optional<double> fixed_score(std::string_view id, std::string_view case_name) {
  const FindingDef& d = def_of(id);
  if (const FindingCase* c = case_of(d, case_name); c && c->score) return c->score;
  return d.score;
}

double finding_score(std::string_view id, std::string_view case_name) {
  auto s = fixed_score(id, case_name);
  if (!s) throw std::logic_error("finding '" + std::string(id) + "' has no score in findings.yaml");
  return *s;
}

}  // namespace ncdx::knowledge
