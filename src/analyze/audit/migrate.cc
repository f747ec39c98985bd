#include "analyze/audit/migrate.h"

#include <cctype>
#include <regex>

namespace ncdx::analyze {

// Quotes for bash, keeping shell variables the script used ($HOME/..., ${DATA}) live: those words
// are double-quoted with every other '$' (Hydra's ${oc.env:X} interpolations) escaped; words without
// variables are single-quoted.
std::string shell_quote(const std::string& s) {
  static const std::regex safe(R"([A-Za-z0-9_./:=,+@%-]*)");
  if (!s.empty() && std::regex_match(s, safe)) return s;
  auto name_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto is_var = [&](std::size_t i) {  // s[i] == '$' starts $NAME or ${NAME}
    if (i + 1 < s.size() && name_start(s[i + 1])) return true;
    if (i + 2 < s.size() && s[i + 1] == '{' && name_start(s[i + 2])) {
      std::size_t k = i + 2;
      while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_')) ++k;
      return k < s.size() && s[k] == '}';
    }
    return false;
  };
  bool has_var = false;
  for (std::size_t i = 0; i < s.size(); ++i) has_var |= s[i] == '$' && is_var(i);
  if (has_var) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == '"' || c == '\\' || c == '`' || (c == '$' && !is_var(i))) out.push_back('\\');
      out.push_back(c);
    }
    return out + "\"";
  }
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out.push_back(c);
  }
  return out + "'";
}

std::vector<MigratedOverride> migrate_overrides(const MigrateInput& in, const knowledge::VerlSchema& schema) {
  std::vector<MigratedOverride> out;
  const std::string ver = "verl " + in.verl.str();
  for (const auto& o : in.overrides) {
    MigratedOverride m{o.input, "", o.input};
    std::string value = o.value_text();
    if (o.kind == OverrideKind::remove) {
      out.push_back(m);
      continue;
    }
    if (const auto* inv = schema.invented(o.key)) {
      if (inv->did_you_mean.empty()) {
        m.text.clear();
        m.comment = "dropped " + o.input + ": no such key in any verl version";
      } else {
        m.text = inv->did_you_mean + "=" + value;
        m.comment = o.input + " -> " + m.text + " (invented key)";
      }
      out.push_back(m);
      continue;
    }
    const auto* k = schema.find(o.key);
    if (!k) {
      out.push_back(m);
      continue;
    }
    if (!k->open && !schema.exists(*k, in.verl, in.strategy)) {
      if (!k->renamed_to.empty()) {
        const auto* nk = schema.find(k->renamed_to);
        if (nk && schema.exists(*nk, in.verl, in.strategy)) {
          m.text = k->renamed_to + "=" + value;
          m.comment = o.input + " -> " + m.text + " (renamed; " + o.key + " exists " + schema.span(*k) + ")";
          out.push_back(m);
          continue;
        }
      }
      m.text.clear();
      m.comment = "dropped " + o.input + ": " + o.key + " exists " + schema.span(*k) + ", not in " + ver;
      out.push_back(m);
      continue;
    }
    if (o.kind == OverrideKind::add && !k->open && schema.default_for(*k, in.verl, in.strategy) != nlohmann::json(nullptr)) {
      m.text = o.input.substr(1);
      m.comment = o.input + " -> " + m.text + " (the key exists in " + ver + "; '+' would fail)";
    }
    if (!k->open && !schema.is_read(*k, in.verl, in.strategy))
      m.comment += std::string(m.comment.empty() ? "" : "; ") + "kept " + o.key + ": accepted but not read in " + ver;
    out.push_back(m);
  }
  return out;
}

namespace {
bool looks_like_assignment(const std::string& s) {
  static const std::regex re(R"([A-Z_][A-Z0-9_]*=.*)");
  return std::regex_match(s, re);
}
}  // namespace

std::string render_migration(const MigrateInput& in, const knowledge::VerlSchema& schema) {
  std::string out = "#!/usr/bin/env bash\n# ncdx audit --migrate: overrides and env for verl " + in.verl.str() + " (" +
                    knowledge::to_string(in.strategy) + " trainer config)\n";
  std::map<std::string, const EnvRow*> worst;
  for (const auto& r : in.env_rows) {
    auto& w = worst[r.parameter];
    if (!w || (r.status == core::Outcome::fail) || (r.status == core::Outcome::warn && w->status == core::Outcome::pass)) w = &r;
  }
  if (!in.env.empty()) out += "\n# environment\n";
  for (const auto& [name, value] : in.env) {
    std::string v = value ? *value : "<unknown>";
    auto it = worst.find(name);
    const EnvRow* r = it == worst.end() ? nullptr : it->second;
    bool dead = r && (r->rule == "env.fake" || r->rule == "env.never-read" || r->rule == "env.removed");
    bool renamed = r && (r->rule == "env.legacy-alias" || r->rule == "env.pytorch-alias" || r->rule == "env.deprecated");
    if (dead) {
      out += "# removed: export " + name + "=" + shell_quote(v) + "  # " + r->risk + "\n";
      if (looks_like_assignment(r->recommended)) out += "export " + r->recommended + "\n";
      else if (!r->recommended.empty() && r->recommended != "unset") out += "#   instead: " + r->recommended + "\n";
    } else if (renamed && looks_like_assignment(r->recommended)) {
      out += "# " + name + " -> " + r->recommended.substr(0, r->recommended.find('=')) + " (" + r->risk + ")\nexport " + r->recommended + "\n";
    } else {
      out += "export " + name + "=" + shell_quote(v) + "\n";
    }
  }
  auto migrated = migrate_overrides(in, schema);
  bool any = false;
  for (const auto& m : migrated)
    if (!m.comment.empty()) {
      if (!any) out += "\n# changes\n";
      any = true;
      out += "#   " + m.comment + "\n";
    }
  out += "\npython3 -m " + in.module;
  if (in.config_path) out += " \\\n    --config-path=" + shell_quote(*in.config_path);
  if (in.config_name) out += " \\\n    --config-name=" + shell_quote(*in.config_name);
  for (const auto& m : migrated)
    if (!m.text.empty()) out += " \\\n    " + shell_quote(m.text);
  out += " \"$@\"\n";
  return out;
}

}  // namespace ncdx::analyze
