#include "analyze/config/run_script.h"

#include <regex>
#include <set>

#include "analyze/config/shell_expand.h"
#include "analyze/config/shell_lexer.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace {

struct Var {
  std::optional<std::string> value;
  std::string why_unknown;
  int line = 0;
  bool exported = false;
};

bool is_name(std::string_view w) {
  if (w.empty() || std::isdigit(static_cast<unsigned char>(w[0]))) return false;
  for (char c : w)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// "NAME=..." written without quotes before the '=' -> NAME; otherwise empty.
std::string assignment_name(const std::string& raw) {
  auto eq = raw.find('=');
  if (eq == std::string::npos || eq == 0) return {};
  std::string n = raw.substr(0, eq);
  if (!n.empty() && n.back() == '+') n.pop_back();  // NAME+=value
  return is_name(n) ? n : std::string();
}

class Interp {
 public:
  Interp(std::string_view file, const std::map<std::string, std::string>& outer) : outer_(outer) { rs_.file = file; }

  void run(const std::vector<ShellCommand>& cmds) {
    for (const auto& c : cmds) command(c);
    post_checks();
  }
  RunScript take() { return std::move(rs_); }

 private:
  const std::map<std::string, std::string>& outer_;
  std::map<std::string, Var> vars_;
  std::set<std::string> ever_assigned_;
  std::map<std::string, int> assigned_line_;
  int depth_ = 0;                 // inside if/for/while/case: assignments are conditional
  bool sourced_ = false;          // a sourced file may set anything
  int sourced_line_ = 0;
  RunScript rs_;

  ShellLookup lookup() {
    return [this](const std::string& name) -> std::optional<ShellVarValue> {
      auto it = vars_.find(name);
      if (it != vars_.end()) return ShellVarValue{it->second.value, it->second.why_unknown};
      auto o = outer_.find(name);
      if (o != outer_.end()) return ShellVarValue{o->second, ""};
      // Set by every login environment: kept as text (the audit does not need their values).
      static const std::set<std::string> login = {"HOME", "USER", "LOGNAME", "PATH", "PWD", "SHELL", "HOSTNAME", "TMPDIR"};
      if (login.count(name)) return ShellVarValue{"$" + name, ""};
      // A sourced file is not read: assume it sets nothing, and say so once (post_checks).
      if (sourced_) assumed_unset_.insert(name);
      return std::nullopt;
    };
  }

  void assign(const ShellWord& w, const std::string& name, bool exported) {
    ever_assigned_.insert(name);
    assigned_line_.emplace(name, w.line);
    Var v;
    v.line = w.line;
    v.exported = exported || (vars_.count(name) && vars_[name].exported);
    std::string raw = w.raw.substr(w.raw.find('=') + 1);
    bool append = w.raw[w.raw.find('=') - 1] == '+';
    if (!raw.empty() && raw[0] == '(') {
      v.why_unknown = "a bash array";
    } else {
      auto ex = expand_word(raw, lookup());
      if (!ex.unresolved.empty()) {
        v.why_unknown = ex.unresolved.front();
      } else {
        std::string val = core::join(ex.fields, " ");
        if (append && vars_.count(name) && vars_[name].value) val = *vars_[name].value + val;
        v.value = val;
      }
      for (const auto& u : ex.undefined) undefined(w.line, u, "assignment of " + name);
    }
    if (depth_ > 0) {
      v.value.reset();
      v.why_unknown = "assigned inside an if/for/while/case block at line " + std::to_string(w.line);
    }
    vars_[name] = v;
  }

  void undefined(int line, const std::string& var, const std::string& where, const std::string& subject = "") {
    rs_.issues.push_back({"script.undefined-var", line, subject.empty() ? var : subject,
                          "$" + var + " is used in " + where + " but never set in the script: bash expands it to an empty string",
                          var});
  }

  void command(const ShellCommand& c) {
    std::size_t i = 0;
    const auto& w = c.words;
    static const std::set<std::string> lead = {"then", "do", "else", "{", "}", "!", "time", "exec", "nohup"};
    while (i < w.size() && lead.count(w[i].raw)) ++i;
    if (i >= w.size()) return;
    const std::string& head = w[i].raw;
    if (head == "if" || head == "while" || head == "until" || head == "for" || head == "case" || head == "select") {
      ++depth_;
      if (head == "for" && i + 1 < w.size() && is_name(w[i + 1].raw)) {
        vars_[w[i + 1].raw] = Var{std::nullopt, "a for-loop variable", w[i].line, false};
        ever_assigned_.insert(w[i + 1].raw);
      }
      return;
    }
    if (head == "elif") return;
    if (head == "fi" || head == "done" || head == "esac") {
      if (depth_ > 0) --depth_;
      return;
    }
    // Leading NAME=value words: plain assignments, or env prefixes of a command.
    std::size_t k = i;
    while (k < w.size() && !assignment_name(w[k].raw).empty()) ++k;
    if (k == w.size()) {
      for (std::size_t a = i; a < k; ++a) assign(w[a], assignment_name(w[a].raw), false);
      return;
    }
    std::vector<std::size_t> prefixes;
    for (std::size_t a = i; a < k; ++a) prefixes.push_back(a);
    const std::string& cmd = w[k].raw;
    if (cmd == "export" || cmd == "declare" || cmd == "typeset" || cmd == "readonly" || cmd == "local") {
      bool exported = cmd == "export";
      for (std::size_t a = k + 1; a < w.size(); ++a) {
        const auto& word = w[a].raw;
        if (word.size() > 1 && word[0] == '-') {
          exported |= word.find('x') != std::string::npos;
          continue;
        }
        auto name = assignment_name(word);
        if (!name.empty()) {
          assign(w[a], name, exported);
        } else if (is_name(word)) {
          if (exported) vars_[word].exported = true;
          if (!vars_[word].line) vars_[word].line = w[a].line;
          if (!vars_[word].value && vars_[word].why_unknown.empty()) {
            auto o = outer_.find(word);
            if (o != outer_.end()) vars_[word].value = o->second;
            else vars_[word].why_unknown = "exported without a value";
          }
        }
        if (exported) exported_.insert(name.empty() ? word : name);
      }
      return;
    }
    if (cmd == "unset") {
      for (std::size_t a = k + 1; a < w.size(); ++a) vars_.erase(w[a].raw), exported_.erase(w[a].raw);
      return;
    }
    if (cmd == "source" || cmd == ".") {
      sourced_ = true;
      sourced_line_ = w[k].line;
      return;
    }
    if (rs_.entry_line == 0) find_entry(c, k, prefixes);
  }

  std::set<std::string> exported_;
  std::set<std::string> assumed_unset_;

  void find_entry(const ShellCommand& c, std::size_t from, const std::vector<std::size_t>& prefixes) {
    static const std::regex module_re(R"((verl|recipe)(\.[A-Za-z0-9_]+)*\.main[A-Za-z0-9_]*)");
    const auto& w = c.words;
    for (std::size_t k = from; k + 1 < w.size(); ++k) {
      if (w[k].raw != "-m") continue;
      auto mod = expand_word(w[k + 1].raw, lookup());
      if (mod.fields.size() != 1 || !std::regex_match(mod.fields[0], module_re)) continue;
      rs_.entry_line = w[k].line;
      rs_.module = mod.fields[0];
      for (auto p : prefixes) {
        auto name = assignment_name(w[p].raw);
        auto ex = expand_word(w[p].raw.substr(w[p].raw.find('=') + 1), lookup());
        rs_.env.push_back({name, ex.unresolved.empty() ? std::optional<std::string>(core::join(ex.fields, " "))
                                                       : std::nullopt, w[p].line});
      }
      collect_args(w, k + 2);
      return;
    }
  }

  void collect_args(const std::vector<ShellWord>& w, std::size_t from) {
    for (std::size_t a = from; a < w.size(); ++a) {
      auto ex = expand_word(w[a].raw, lookup());
      // "$@" / $@: the caller's extra overrides (ncdx takes them after --)
      if (ex.positional_all && (ex.fields.empty() || (ex.fields.size() == 1 && ex.fields[0].empty()))) continue;
      std::string key = ex.fields.empty() ? std::string() : ex.fields[0].substr(0, ex.fields[0].find('='));
      for (const auto& u : ex.undefined) undefined(w[a].line, u, "'" + w[a].raw + "'", key);
      for (std::size_t f = 0; f < ex.fields.size(); ++f) {
        std::string t = ex.fields[f];
        auto take_flag = [&](const std::string& flag, const std::string& shortf, std::optional<std::string>& slot) {
          if (t.rfind(flag + "=", 0) == 0) { slot = t.substr(flag.size() + 1); return true; }
          if (t == flag || t == shortf) {
            if (f + 1 < ex.fields.size()) slot = ex.fields[++f];
            else if (a + 1 < w.size()) {
              auto nx = expand_word(w[++a].raw, lookup());
              slot = nx.fields.empty() ? std::string() : nx.fields[0];
            }
            return true;
          }
          return false;
        };
        if (take_flag("--config-path", "-cp", rs_.config_path) || take_flag("--config-name", "-cn", rs_.config_name))
          continue;
        std::optional<std::string> ignored;
        if (take_flag("--config-dir", "-cd", ignored)) continue;
        if (!t.empty() && t[0] == '-' && t.rfind("--", 0) == 0) {
          rs_.issues.push_back({"script.entry", w[a].line, t, "Hydra flag '" + t + "' is not interpreted by ncdx audit", ""});
          continue;
        }
        rs_.overrides.push_back({t, w[a].line, ex.unresolved, ex.undefined});
        for (const auto& u : ex.unresolved)
          rs_.issues.push_back({"script.unresolved", w[a].line, t.substr(0, t.find('=')),
                                "'" + w[a].raw + "': " + u + "; the value is not known until the script runs", ""});
      }
    }
  }

  void post_checks() {
    for (const auto& name : exported_) {
      auto it = vars_.find(name);
      if (it == vars_.end()) continue;
      rs_.env.push_back({name, it->second.value, it->second.line});
    }
    // key=NAME where NAME is a variable the script assigns: almost certainly a missing '$'.
    for (const auto& o : rs_.overrides) {
      auto eq = o.text.find('=');
      if (eq == std::string::npos) continue;
      std::string val = o.text.substr(eq + 1);
      if (is_name(val) && ever_assigned_.count(val))
        rs_.issues.push_back({"script.missing-dollar", o.line, o.text.substr(0, eq),
                              "'" + o.text + "' passes the literal text '" + val + "', but the script sets a variable " +
                                  val + " (line " + std::to_string(assigned_line_[val]) + "): missing '$' (use $" + val + ")?", val});
    }
    if (!assumed_unset_.empty()) {
      std::vector<std::string> names(assumed_unset_.begin(), assumed_unset_.end());
      rs_.issues.push_back({"script.unresolved", sourced_line_, "source",
                            "the file sourced at line " + std::to_string(sourced_line_) + " is not read; ncdx assumed it sets none of " +
                                core::join(names, ", ") + " (their ${VAR:-default} defaults were used)", ""});
    }
    if (rs_.entry_line == 0)
      rs_.issues.push_back({"script.entry", 0, "", "no `python3 -m verl.trainer.main_ppo` (or other verl *.main_* module) command found", ""});
  }
};

}  // namespace

// Deepest ${...${...}} nesting a script may use. Real scripts nest two or three levels; each level
// is expanded recursively, so the bound keeps memory linear and the stack shallow (a 72 KB file
// nesting 12 000 levels crashed the expander).
static constexpr int kMaxExpansionDepth = 64;

// The first line whose ${ nesting passes the bound, 0 when none. Linear, before any lexing.
static int too_deep_line(std::string_view text) {
  int depth = 0, line = 1;
  bool squote = false, dquote = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') ++line;
    if (squote) {
      if (c == '\'') squote = false;
      continue;
    }
    if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++line;
      ++i;
    } else if (c == '"' && depth == 0) {
      dquote = !dquote;
    } else if (c == '\'' && depth == 0 && !dquote) {
      squote = true;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      if (++depth > kMaxExpansionDepth) return line;
      ++i;
    } else if (c == '}' && depth > 0) {
      --depth;
    }
  }
  return 0;
}

core::Result<RunScript> parse_run_script(std::string_view text, std::string_view file,
                                         const std::map<std::string, std::string>& outer) {
  if (int line = too_deep_line(text))
    return core::Status::bad_input(std::string(file) + ":" + std::to_string(line) + ": ${...} expansions nested deeper than " +
                                   std::to_string(kMaxExpansionDepth) + " levels");
  auto cmds = lex_shell(text, file);
  if (!cmds) return cmds.status();
  Interp in(file, outer);
  in.run(*cmds);
  return in.take();
}

}  // namespace ncdx::analyze
