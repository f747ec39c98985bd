#pragma once
// "Did you mean": the candidate nearest to a word by Levenshtein distance, for many words against
// one fixed list (env lint asks it once per unknown name of an untrusted file: ~300 000 names
// against the ~600 NCCL/PyTorch names took 9 s with a banded distance per pair, issue #12).
//
// Each pair is first bounded from below for free — by the length difference and by the bag
// distance (characters one has and the other lacks, counted per byte class; never more than the
// edit distance) — and the banded distance runs only where that bound could beat the best found
// so far, with its band narrowed to that best. The answer is the one a plain scan gives: the
// first candidate, in list order, with the smallest distance within max_distance.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::core {

class NearNames {
 public:
  explicit NearNames(std::vector<std::string> candidates, std::size_t max_distance = 3);
  // The nearest candidate, or empty when none is within max_distance.
  std::string_view closest(std::string_view word) const;

  // Bytes are counted in 64 classes (byte & 63): distinct bytes sharing a class only lower the
  // bound, which keeps it a bound.
  using Histogram = std::array<std::uint16_t, 64>;

 private:
  std::vector<std::string> names_;
  std::vector<Histogram> hist_;
  std::size_t max_;
};

// Levenshtein distance of a and b when it is at most `limit`, else limit + 1, computed inside the
// diagonal band |i - j| <= limit only: O(|a| * limit).
std::size_t banded_distance(std::string_view a, std::string_view b, std::size_t limit);

}  // namespace ncdx::core
