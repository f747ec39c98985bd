#include "knowledge/signature_yaml.h"

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>

#include "core/finding.h"
#include "core/semver.h"

namespace ncdx::knowledge {
namespace {

// Thrown inside the parser only; converted to a Status at the boundary.
struct SchemaError {
  int line;
  std::string msg;
};

int line_of(const YAML::Node& n) { return n.Mark().line + 1; }

std::string scalar(const YAML::Node& n, const char* key) {
  if (!n.IsScalar()) throw SchemaError{line_of(n), std::string("'") + key + "' must be a string"};
  return n.Scalar();
}

std::vector<std::string> string_list(const YAML::Node& n, const char* key, std::vector<int>* lines = nullptr) {
  if (!n.IsSequence()) throw SchemaError{line_of(n), std::string("'") + key + "' must be a list of strings"};
  std::vector<std::string> out;
  for (const auto& item : n) {
    out.push_back(scalar(item, key));
    if (lines) lines->push_back(line_of(item));
  }
  return out;
}

bool valid_id(const std::string& id) {
  // lower-case dotted words: "nccl.ib.completion-error"
  if (id.empty() || id.front() == '.' || id.back() == '.' || id.find('.') == std::string::npos) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_')) return false;
  return id.find("..") == std::string::npos;
}

core::Fix parse_fix(const YAML::Node& n) {
  if (!n.IsMap()) throw SchemaError{line_of(n), "each fix must be a map with 'action' (and env/command/applies/doc)"};
  core::Fix f;
  for (const auto& kv : n) {
    const std::string k = kv.first.Scalar();
    if (k == "action") f.action = scalar(kv.second, "action");
    else if (k == "env") f.env = scalar(kv.second, "env");
    else if (k == "command") f.command = scalar(kv.second, "command");
    else if (k == "applies") f.applies = scalar(kv.second, "applies");
    else if (k == "doc") f.doc = scalar(kv.second, "doc");
    else throw SchemaError{line_of(kv.first), "unknown fix key '" + k + "' (expected action, env, command, applies, doc)"};
  }
  if (f.action.empty()) throw SchemaError{line_of(n), "fix without 'action'"};
  return f;
}

Refinement parse_refinement(const YAML::Node& n) {
  if (!n.IsMap()) throw SchemaError{line_of(n), "each refinement must be a map with 'with' or 'nccl_below', 'class' and 'why'"};
  Refinement r;
  for (const auto& kv : n) {
    const std::string k = kv.first.Scalar();
    if (k == "with") r.with = scalar(kv.second, "with");
    else if (k == "nccl_below") r.nccl_below = scalar(kv.second, "nccl_below");
    else if (k == "job_has") r.job_has = scalar(kv.second, "job_has");
    else if (k == "class") r.klass = scalar(kv.second, "class");
    else if (k == "why") r.why = scalar(kv.second, "why");
    else throw SchemaError{line_of(kv.first), "unknown refinement key '" + k + "' (expected with, nccl_below, job_has, class, why)"};
  }
  if (r.with.empty() == r.nccl_below.empty() || r.klass.empty() || r.why.empty())
    throw SchemaError{line_of(n), "refinement needs one of 'with' (a signature id) or 'nccl_below' (a version), 'class' and 'why'"};
  if (!r.nccl_below.empty() && !(r.below = core::Version::parse(r.nccl_below)))
    throw SchemaError{line_of(n), "nccl_below must be a version such as 2.12.0"};
  if (!r.with.empty() && !r.job_has.empty()) throw SchemaError{line_of(n), "job_has goes with nccl_below, not with 'with'"};
  for (const std::string* c : {&r.klass, &r.job_has})
    if (!c->empty() && (!core::is_failure_class(*c) || *c == "none"))
      throw SchemaError{line_of(n), "unknown class '" + *c + "' in refinement (expected a failure class of docs/OUTPUT.md)"};
  return r;
}

ParsedSignature parse_entry(const YAML::Node& n) {
  if (!n.IsMap()) throw SchemaError{line_of(n), "each signature must be a map"};
  ParsedSignature p;
  p.line = line_of(n);
  Signature& s = p.sig;
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string k = kv.first.Scalar();
    const YAML::Node& v = kv.second;
    seen.insert(k);
    if (k == "id") {
      s.id = scalar(v, "id");
      if (!valid_id(s.id))
        throw SchemaError{line_of(v), "id '" + s.id + "' must be lower-case dotted words (e.g. nccl.ib.completion-error)"};
    } else if (k == "class") {
      s.klass = scalar(v, "class");
      if (!core::is_failure_class(s.klass) || s.klass == "none")
        throw SchemaError{line_of(v), "unknown class '" + s.klass + "' (expected a failure class of docs/OUTPUT.md)"};
    } else if (k == "severity") {
      auto sev = core::parse_severity(scalar(v, "severity"));
      if (!sev) throw SchemaError{line_of(v), "severity must be info, warn, error or critical"};
      s.severity = *sev;
    } else if (k == "role") {
      const std::string r = scalar(v, "role");
      if (r == "cause") s.role = Role::cause;
      else if (r == "symptom") s.role = Role::symptom;
      else if (r == "context") s.role = Role::context;
      else throw SchemaError{line_of(v), "role must be cause, symptom or context"};
    } else if (k == "priority") {
      const std::string t = scalar(v, "priority");
      std::size_t used = 0;
      int pr = -1;
      try { pr = std::stoi(t, &used); } catch (...) { used = 0; }
      if (used != t.size() || pr < 0 || pr > 100) throw SchemaError{line_of(v), "priority must be an integer 0..100"};
      s.priority = pr;
    } else if (k == "title") {
      s.title = scalar(v, "title");
    } else if (k == "cause") {
      s.cause = scalar(v, "cause");
    } else if (k == "patterns") {
      s.patterns = string_list(v, "patterns", &p.pattern_lines);
    } else if (k == "fixes") {
      if (!v.IsSequence()) throw SchemaError{line_of(v), "'fixes' must be a list"};
      for (const auto& f : v) s.fixes.push_back(parse_fix(f));
    } else if (k == "refs") {
      s.refs = string_list(v, "refs");
    } else if (k == "examples") {
      s.examples = string_list(v, "examples");
    } else if (k == "refine") {
      if (!v.IsSequence()) throw SchemaError{line_of(v), "'refine' must be a list"};
      for (const auto& r : v) s.refine.push_back(parse_refinement(r));
    } else if (k == "exit_report") {
      const std::string t = scalar(v, "exit_report");
      if (t == "process") s.exit_report = ExitReport::process;
      else if (t == "rank") s.exit_report = ExitReport::rank;
      else throw SchemaError{line_of(v), "exit_report must be process or rank"};
    } else if (k == "printed_by") {
      const std::string t = scalar(v, "printed_by");
      if (t != "launcher" && t != "rank") throw SchemaError{line_of(v), "printed_by must be launcher or rank"};
      s.by_launcher = t == "launcher";
    } else if (k == "waits_for") {
      if (scalar(v, "waits_for") != "peer") throw SchemaError{line_of(v), "waits_for must be peer"};
      s.waits_for_peer = true;
    } else {
      throw SchemaError{line_of(kv.first), "unknown key '" + k +
                                               "' (expected id, class, severity, role, priority, title, cause, "
                                               "patterns, fixes, refs, examples, refine, exit_report, printed_by, waits_for)"};
    }
  }
  for (const char* req : {"id", "class", "severity", "role", "title", "patterns"})
    if (!seen.count(req)) throw SchemaError{p.line, std::string("signature without '") + req + "'"};
  if (s.patterns.empty()) throw SchemaError{p.line, "signature '" + s.id + "' has no patterns"};
  return p;
}

}  // namespace

core::Result<std::vector<ParsedSignature>> parse_signatures_yaml(std::string_view text,
                                                                 std::string_view source_name) {
  const std::string src(source_name);
  try {
    YAML::Node root = YAML::Load(std::string(text));
    YAML::Node list = root.IsMap() ? root["signatures"] : YAML::Node();
    if (!list || !list.IsSequence())
      return core::Status::bad_input(src + ":" + std::to_string(line_of(root)) +
                                     ": expected a top-level 'signatures:' list");
    std::vector<ParsedSignature> out;
    std::set<std::string> ids;
    for (const auto& entry : list) {
      out.push_back(parse_entry(entry));
      if (!ids.insert(out.back().sig.id).second)
        return core::Status::bad_input(src + ":" + std::to_string(out.back().line) + ": duplicate id '" +
                                       out.back().sig.id + "'");
    }
    return out;
  } catch (const YAML::Exception& e) {
    return core::Status::bad_input(src + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  } catch (const SchemaError& e) {
    return core::Status::bad_input(src + ":" + std::to_string(e.line) + ": " + e.msg);
  }
}

}  // namespace ncdx::knowledge
