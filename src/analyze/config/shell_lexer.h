#pragma once
// Splits a bash script into simple commands and words, keeping each word's line and its quoting
// (quote removal and expansion happen later, in shell_expand). Handles `\` line continuations,
// comments, ';' '&&' '||' '|' '&' separators, heredocs (skipped), quotes that span lines, $(...),
// ${...} and `...` (kept inside one word). Never executes anything.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::analyze {

struct ShellWord {
  std::string raw;  // as written, quotes included
  int line = 0;     // 1-based line where the word starts
};

struct ShellCommand {
  std::vector<ShellWord> words;
  int line = 0;
};

// Bad input (exit 65, "file:line: ..."): NUL bytes, a quote, $( or ${ left open at end of file,
// a line continuation on the last line.
core::Result<std::vector<ShellCommand>> lex_shell(std::string_view text, std::string_view file);

}  // namespace ncdx::analyze
