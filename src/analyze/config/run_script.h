#pragma once
// Reads a verl launch script (examples/**/run_*.sh shape): shell variables, exported env vars,
// and the arguments of `python3 -m verl.trainer.main_ppo` (or any verl/recipe *.main_* module,
// also behind `ray job submit ... --`), statically expanded. Nothing is executed.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::analyze {

struct ScriptArg {
  std::string text;                      // after expansion and quote removal
  int line = 0;
  std::vector<std::string> unresolved;   // why the value is not statically known
  std::vector<std::string> undefined;    // variables used but never set
};

struct ScriptEnv {
  std::string name;
  std::optional<std::string> value;  // nullopt: not statically known
  int line = 0;
};

struct ScriptIssue {
  std::string rule;     // script.undefined-var | script.missing-dollar | script.unresolved | script.entry
  int line = 0;
  std::string subject;  // the override key (or the variable when outside an override)
  std::string message;
  std::string var;      // the variable concerned, if any
};

struct RunScript {
  std::string file;
  int entry_line = 0;                    // 0 = no verl entry point found
  std::string module;                    // verl.trainer.main_ppo
  std::vector<ScriptArg> overrides;
  std::optional<std::string> config_path, config_name;
  std::vector<ScriptEnv> env;            // exported variables (and VAR=x prefixes of the entry command)
  std::vector<ScriptIssue> issues;
};

// `outer` supplies variables the script reads from its environment (--env-file); script
// assignments take precedence after they run, as in bash.
core::Result<RunScript> parse_run_script(std::string_view text, std::string_view file,
                                         const std::map<std::string, std::string>& outer = {});

}  // namespace ncdx::analyze
