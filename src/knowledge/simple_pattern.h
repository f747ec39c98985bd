#pragma once
// A fast matcher for the "linear" patterns that dominate context signatures, e.g. the COLL line
//   (?P<op>\w+): opCount (?P<op_count>[0-9a-fA-F]+) sendbuff \S+ ... \[nranks=(?P<nranks>\d+)\]
// i.e. a sequence of literals and one-or-more runs of a character class (optionally captured, and
// optionally preceded by one optional literal byte as in -?\d+), where every run is followed by a
// literal whose first byte is outside the class (or ends the pattern). For such patterns the greedy
// scan is the only way to match, so the result (match or not, and every group) is exactly RE2's
// leftmost-first result; a unit test checks this against RE2 on real lines. Patterns outside this
// subset are rejected by compile() and run through RE2. This exists because RE2 needs three passes
// (forward DFA, reverse DFA, one-pass) to extract groups, ~1 us on a COLL line, and with
// NCCL_DEBUG_SUBSYS=COLL nearly every line of a big log is a COLL line.
#include <bitset>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::knowledge {

class SimplePattern {
 public:
  static std::optional<SimplePattern> compile(std::string_view re2_pattern);

  struct Group {
    std::string name;  // empty for a run that is not a named group
  };
  // On a match, spans[g] is the text of group g (index into groups()); returns false otherwise.
  bool match(std::string_view text, std::vector<std::string_view>& spans) const;
  const std::vector<std::string>& group_names() const { return names_; }

 private:
  struct Item {
    bool is_run = false;
    std::string literal;            // !is_run
    std::bitset<256> cls;           // is_run (while parsing)
    bool in[256] = {};              // is_run: cls as a plain table (bitset::test bounds-checks)
    int optional_byte = -1;         // is_run: a byte that may precede the run (the '-' of -?\d+)
    int group = -1;                 // is_run: capture index or -1
  };
  bool match_from(const char* begin, const char* end, std::size_t start, std::size_t first_item,
                  std::vector<std::string_view>& spans) const;
  std::vector<Item> items_;
  std::vector<std::string> names_;
};

}  // namespace ncdx::knowledge
