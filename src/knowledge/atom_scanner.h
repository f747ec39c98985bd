#pragma once
// Case-insensitive multi-string search (Aho-Corasick) over the literal "atoms" that
// re2::FilteredRE2 extracts from the signature patterns. It is the prefilter of
// SignatureSet::match(): one pass over a line finds every atom it contains, and only the
// patterns whose atoms are present are run as full RE2 matches. Most log lines contain no atom
// of a failure signature, so they cost one table walk and nothing else.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::knowledge {

class AtomScanner {
 public:
  AtomScanner() = default;
  // `atoms` are lowercase (FilteredRE2 returns them so); matching folds ASCII case.
  explicit AtomScanner(const std::vector<std::string>& atoms);

  // Appends the ids (indices into the constructor's vector) of every atom found in `text`;
  // ids may repeat when an atom occurs more than once.
  void scan(std::string_view text, std::vector<int>& found) const;
  bool empty() const { return nstates_ <= 1; }

 private:
  int nclasses_ = 1;
  std::uint32_t nstates_ = 0;
  std::uint8_t byte_class_[256] = {};    // folded byte -> dense class (0 = in no atom)
  std::vector<std::uint32_t> next_;      // nstates_ * nclasses_ transitions (complete DFA)
  std::vector<std::uint32_t> out_begin_; // per state: range into out_ (own + suffix outputs)
  std::vector<int> out_;
};

}  // namespace ncdx::knowledge
