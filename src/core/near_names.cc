#include "core/near_names.h"

#include <algorithm>

namespace ncdx::core {
namespace {

NearNames::Histogram histogram(std::string_view s) {
  NearNames::Histogram h{};
  for (char c : s) {
    auto& n = h[static_cast<unsigned char>(c) & 63];
    if (n < UINT16_MAX) ++n;
  }
  return h;
}

// max(|A − B|, |B − A|) of the two byte multisets: each edit changes each side by at most one.
std::size_t bag_distance(const NearNames::Histogram& a, const NearNames::Histogram& b) {
  std::size_t more = 0, fewer = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    int d = int{a[i]} - int{b[i]};
    more += static_cast<std::size_t>(std::max(d, 0));
    fewer += static_cast<std::size_t>(std::max(-d, 0));
  }
  return std::max(more, fewer);
}

}  // namespace

std::size_t banded_distance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t K = limit, INF = limit + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > K) return INF;
  // Two rows of |b| + 1 cells; on the stack for every name a "did you mean" compares.
  constexpr std::size_t kStack = 128;
  std::array<std::size_t, 2 * kStack> fixed;
  std::vector<std::size_t> heap;
  std::size_t* prev = fixed.data();
  if (b.size() + 1 > kStack) {
    heap.resize(2 * (b.size() + 1));
    prev = heap.data();
  }
  std::size_t* cur = prev + (b.size() + 1);
  std::fill(prev, prev + b.size() + 1, INF);
  for (std::size_t j = 0; j <= std::min(b.size(), K); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t lo = i > K ? i - K : 0, hi = std::min(b.size(), i + K);
    // Only the cells the band reads need a value: its own and one on either side.
    std::fill(cur + (lo > 0 ? lo - 1 : 0), cur + std::min(b.size(), hi + 1) + 1, INF);
    if (lo == 0) cur[0] = i;
    std::size_t best = lo == 0 ? cur[0] : INF;
    for (std::size_t j = std::max<std::size_t>(lo, 1); j <= hi; ++j) {
      std::size_t v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      cur[j] = std::min(v, INF);
      best = std::min(best, cur[j]);
    }
    if (best > K) return INF;  // every cell of the band is already too far
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], INF);
}

NearNames::NearNames(std::vector<std::string> candidates, std::size_t max_distance)
    : names_(std::move(candidates)), max_(max_distance) {
  hist_.reserve(names_.size());
  for (const auto& n : names_) hist_.push_back(histogram(n));
}

std::string_view NearNames::closest(std::string_view word) const {
  const Histogram h = histogram(word);
  std::size_t best = max_ + 1, at = names_.size();
  for (std::size_t i = 0; i < names_.size() && best > 0; ++i) {
    const std::string& n = names_[i];
    std::size_t len = n.size() > word.size() ? n.size() - word.size() : word.size() - n.size();
    if (len >= best || bag_distance(h, hist_[i]) >= best) continue;
    if (auto d = banded_distance(word, n, best - 1); d < best) {
      best = d;
      at = i;
    }
  }
  return at == names_.size() ? std::string_view() : std::string_view(names_[at]);
}

}  // namespace ncdx::core
