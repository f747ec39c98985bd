#pragma once
// Static expansion of bash words: quote removal, $VAR / ${VAR} / ${VAR:-default} / ${VAR-d} /
// ${VAR:=d} / ${VAR:+alt}, $((arithmetic)), arrays ("${A[@]}" one field per element, ${A[*]},
// ${A[i]}, ${#A[@]}), "$@" / "${@:N}" (the caller's arguments) and field splitting of unquoted
// expansions. What
// cannot be known without running the script ($(...), `...`, $1, arrays, a variable set inside
// if/for/case) is reported as unresolved, never guessed.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::analyze {

// A variable's value as far as the script is known: nullopt value = set, but not statically known.
struct ShellVarValue {
  std::optional<std::string> value;   // an array's element 0, as bash's $A
  std::string why_unknown;  // when value is nullopt
  std::optional<std::vector<std::string>> array;  // set for A=(...) / A+=(...)
};

// nullopt = never set.
using ShellLookup = std::function<std::optional<ShellVarValue>(const std::string& name)>;

struct Expansion {
  std::vector<std::string> fields;       // after field splitting (usually one)
  std::vector<std::string> unresolved;   // reasons ("$(date) is a command substitution")
  std::vector<std::string> undefined;    // variables used but never set (expanded to "")
  bool positional_all = false;           // the word was $@ / "$@" / $*
  // "${1:-vllm}": positional parameters whose default was taken. The script is audited as run
  // without arguments (how its authors document it: `bash run.sh`), so the default is the value.
  std::vector<std::string> defaulted;
};

Expansion expand_word(std::string_view raw, const ShellLookup& lookup);

// The words of an array assignment's body (between the parentheses of A=( ... )): split on blanks
// and newlines, comments and line continuations removed, quotes kept for expand_word.
std::vector<std::string> array_words(std::string_view body);

// $((...)) body; nullopt with a reason when it uses something unknown or is malformed.
std::optional<long long> eval_arith(std::string_view expr, const ShellLookup& lookup, std::string* why);

}  // namespace ncdx::analyze
