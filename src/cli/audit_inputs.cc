#include "cli/audit_inputs.h"

#include "core/read_bounded.h"

#include <fstream>
#include <map>
#include <sstream>

extern char** environ;

namespace ncdx::cli {

core::Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
  return core::read_bounded(path, max_bytes, "not a config or script");
}

core::Result<AuditInputs> load_audit_inputs(const AuditFlags& f) {
  AuditInputs in;
  std::map<std::string, analyze::EnvSetting> env;
  if (!f.no_process_env) {
    for (char** e = environ; e && *e; ++e) {
      std::string kv(*e);
      auto eq = kv.find('=');
      if (eq != std::string::npos) env[kv.substr(0, eq)] = {kv.substr(0, eq), kv.substr(eq + 1), "env"};
    }
  }
  std::map<std::string, std::string> outer;  // what the script sees from its environment: --env-file only
  if (!f.env_file.empty()) {
    auto text = read_text_file(f.env_file, 16u << 20);
    if (!text) return text.status();
    auto parsed = analyze::parse_env_file(*text, f.env_file);
    if (!parsed) return parsed.status();
    for (const auto& s : *parsed) {
      env[s.name] = s;
      outer[s.name] = s.value;
    }
  }
  if (!f.script.empty()) {
    auto text = read_text_file(f.script, 16u << 20);
    if (!text) return text.status();
    auto rs = analyze::parse_run_script(*text, f.script, outer);
    if (!rs) return rs.status();
    for (const auto& a : rs->overrides) {
      auto o = analyze::parse_override(a.text);
      if (!o) return o.status().with_context(f.script + ":" + std::to_string(a.line));
      o->origin = f.script + ":" + std::to_string(a.line);
      if (!a.unresolved.empty() && o->value) *o->value = "<unresolved>";  // never guessed
      in.overrides.push_back(std::move(*o));
    }
    for (const auto& e : rs->env)
      if (e.value) env[e.name] = {e.name, *e.value, f.script + ":" + std::to_string(e.line)};
    in.script = std::move(*rs);
  }
  for (const auto& text : f.overrides) {
    auto o = analyze::parse_override(text);
    if (!o) return o.status().with_context("command line");
    o->origin = "command line";
    in.overrides.push_back(std::move(*o));
  }
  if (!f.config.empty()) {
    auto text = read_text_file(f.config, 64u << 20);
    if (!text) return text.status();
    in.yaml_text = std::move(*text);
  }
  for (auto& [k, v] : env) in.env.push_back(v);
  return in;
}

}  // namespace ncdx::cli

