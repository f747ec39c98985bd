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
  std::optional<std::vector<std::string>> array;
};

// An if/elif/else or case block: whether the commands now read are the branch ncdx audits.
struct Frame {
  enum Kind { branch, loop } kind = loop;
  bool active = true;     // the current branch is the audited one
  bool taken = false;     // a branch of this block was already chosen
  bool case_block = false;
  std::optional<std::string> subject;  // case WORD (nullopt: not known statically)
  int line = 0;
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
  std::vector<Frame> frames_;     // open if/case/for/while blocks
  bool in_loop() const {
    for (const auto& f : frames_)
      if (f.kind == Frame::loop) return true;
    return false;
  }
  bool active() const {
    for (const auto& f : frames_)
      if (!f.active) return false;
    return true;
  }
  // `[ "$X" = y ]`, `[ -z "$X" ]`, `[[ $X == y ]]`, `[ -n ... ]`: the verdict, when statically known.
  std::optional<bool> test(const std::vector<ShellWord>& w, std::size_t from) {
    std::vector<std::string> a;
    for (std::size_t k = from; k < w.size(); ++k) {
      const auto& r = w[k].raw;
      if (r == "[" || r == "[[" || r == "]" || r == "]]" || r == "then") continue;
      auto ex = expand_word(r, lookup());
      if (!ex.unresolved.empty() || ex.positional_all) return std::nullopt;
      if (ex.fields.empty()) a.push_back("");
      for (auto& f : ex.fields) a.push_back(f);
    }
    if (a.size() == 1) return !a[0].empty();  // `[ WORD ]`: true when WORD is not empty (bash test(1))
    if (a.size() == 2 && a[0] == "-z") return a[1].empty();
    if (a.size() == 2 && a[0] == "-n") return !a[1].empty();
    if (a.size() == 3 && (a[1] == "=" || a[1] == "==")) return a[0] == a[2];
    if (a.size() == 3 && a[1] == "!=") return a[0] != a[2];
    return std::nullopt;
  }
  // Positional parameters taken at their default ("${1:-vllm}"): said once, as a branch is.
  void note_defaults(const Expansion& ex, int line) {
    for (const auto& d : ex.defaulted) defaulted_.emplace(d, line);
  }
  void branch_note(int line, const std::string& what) {
    rs_.issues.push_back({"script.branch", line, "branch", what, ""});
  }
  // bash `case` glob (only * and literal alternatives separated by |).
  static bool case_match(const std::string& pat, const std::string& s) {
    if (pat == "*") return true;
    for (auto alt : core::split(pat, '|'))
      if (alt == s) return true;
    return false;
  }
  bool sourced_ = false;          // a sourced file may set anything
  int sourced_line_ = 0;
  RunScript rs_;

  ShellLookup lookup() {
    return [this](const std::string& name) -> std::optional<ShellVarValue> {
      auto it = vars_.find(name);
      if (it != vars_.end()) return ShellVarValue{it->second.value, it->second.why_unknown, it->second.array};
      auto o = outer_.find(name);
      if (o != outer_.end()) return ShellVarValue{o->second, "", std::nullopt};
      // Set by every login environment: kept as text (the audit does not need their values).
      static const std::set<std::string> login = {"HOME", "USER", "LOGNAME", "PATH", "PWD", "SHELL", "HOSTNAME", "TMPDIR"};
      if (login.count(name)) return ShellVarValue{"$" + name, "", std::nullopt};
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
      // A=( a "b c" $X ... ): each word expanded; A+=( ... ) appends.
      std::vector<std::string> elems;
      if (append && vars_.count(name) && vars_[name].array) elems = *vars_[name].array;
      std::string body = raw.substr(1, raw.size() >= 2 && raw.back() == ')' ? raw.size() - 2 : raw.size() - 1);
      bool known = true;
      for (const auto& word : array_words(body)) {
        auto ex = expand_word(word, lookup());
        note_defaults(ex, w.line);
        for (const auto& u : ex.undefined) undefined(w.line, u, "array " + name);
        if (!ex.unresolved.empty()) {
          known = false;
          v.why_unknown = ex.unresolved.front();
        }
        for (auto& fld : ex.fields) elems.push_back(fld);
      }
      v.array = elems;
      if (known) v.value = elems.empty() ? std::string() : elems.front();
    } else {
      auto ex = expand_word(raw, lookup());
      note_defaults(ex, w.line);
      if (!ex.unresolved.empty()) {
        v.why_unknown = ex.unresolved.front();
      } else {
        std::string val = core::join(ex.fields, " ");
        if (append && vars_.count(name) && vars_[name].value) val = *vars_[name].value + val;
        v.value = val;
      }
      for (const auto& u : ex.undefined) undefined(w.line, u, "assignment of " + name);
    }
    if (in_loop()) {
      v.value.reset();
      v.array.reset();
      v.why_unknown = "assigned inside a for/while loop at line " + std::to_string(w.line);
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
    // Block structure first: which branch of an if/case is audited (the one the defaults select).
    if (i < w.size() && (w[i].raw == "else" || w[i].raw == "elif")) {
      if (!frames_.empty() && frames_.back().kind == Frame::branch) {
        auto& f = frames_.back();
        if (w[i].raw == "else") {
          f.active = !f.taken;
          if (f.active) f.taken = true;
        } else {
          auto t = test(w, i + 1);
          f.active = !f.taken && t.value_or(false);
          if (f.active) f.taken = true;
        }
      }
      if (w[i].raw == "elif") return;  // elif COND: the condition is not a command
      ++i;
    }
    while (i < w.size() && lead.count(w[i].raw)) ++i;
    if (i >= w.size()) return;
    const std::string& head = w[i].raw;
    if (head == "if") {
      Frame f;
      f.kind = Frame::branch;
      f.line = w[i].line;
      auto t = test(w, i + 1);
      f.active = t.value_or(true);
      f.taken = f.active;
      if (!t) branch_note(w[i].line, "if at line " + std::to_string(w[i].line) +
                                         ": the condition is not known statically; audited the first branch (then)");
      frames_.push_back(f);
      return;
    }
    if (head == "case") {
      Frame f;
      f.kind = Frame::branch;
      f.case_block = true;
      f.line = w[i].line;
      f.active = false;
      if (i + 1 < w.size()) {
        auto ex = expand_word(w[i + 1].raw, lookup());
        if (ex.unresolved.empty() && !ex.positional_all) f.subject = core::join(ex.fields, " ");
      }
      frames_.push_back(f);
      return;
    }
    if (!frames_.empty() && frames_.back().case_block && head.size() > 1 && head.back() == ')' && head != "$(" ) {
      auto& f = frames_.back();
      std::string pat = head.substr(head[0] == '(' ? 1 : 0, head.size() - (head[0] == '(' ? 2 : 1));
      std::string unq;
      for (char ch : pat)
        if (ch != '"' && ch != '\'') unq.push_back(ch);
      bool match = f.subject ? case_match(unq, *f.subject) : unq == "*";
      f.active = !f.taken && match;
      if (f.active) {
        f.taken = true;
        branch_note(w[i].line, "case at line " + std::to_string(f.line) + ": audited the branch '" + pat + ")'" +
                                   (f.subject ? " (the word is '" + *f.subject + "')"
                                              : " (the default: the word is not known statically)"));
      }
      ++i;
      if (i >= w.size()) return;
    }
    if (!active()) {
      if (head == "if" || head == "case" || head == "for" || head == "while" || head == "until") frames_.push_back(Frame{});
      if ((head == "fi" || head == "esac" || head == "done") && !frames_.empty()) frames_.pop_back();
      return;
    }
    if (head == "while" || head == "until" || head == "for" || head == "select") {
      frames_.push_back(Frame{});
      if (head == "for" && i + 1 < w.size() && is_name(w[i + 1].raw)) {
        vars_[w[i + 1].raw] = Var{std::nullopt, "a for-loop variable", w[i].line, false, std::nullopt};
        ever_assigned_.insert(w[i + 1].raw);
      }
      return;
    }
    if (head == "fi" || head == "done" || head == "esac") {
      if (!frames_.empty()) frames_.pop_back();
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
  std::map<std::string, int> defaulted_;  // "${1:-vllm}" -> the first line it was used on

  void find_entry(const ShellCommand& c, std::size_t from, const std::vector<std::size_t>& prefixes) {
    // Any module of verl (or its recipe/ and examples/ trees): whether verl's wheel has it as an
    // entry point is decided against the version's facts (cmd_audit), never assumed to be PPO.
    static const std::regex module_re(R"((verl|recipe|examples)(\.[A-Za-z0-9_]+)+)");
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
      note_defaults(ex, w[a].line);
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
    if (!defaulted_.empty()) {
      std::vector<std::string> texts;
      int first = 0;
      for (const auto& [t, line] : defaulted_) {
        texts.push_back(t);
        first = first == 0 ? line : std::min(first, line);
      }
      branch_note(first, "audited as run without arguments: " + core::join(texts, ", ") + " took the default");
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
