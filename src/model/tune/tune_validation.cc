#include "model/tune/tune_validation.h"

#include <algorithm>
#include <numeric>

#include "core/atomic_file.h"
#include "model/tune/trial_book.h"

namespace ncdx::model::tune {

core::Status write_rules(const std::string& path, const std::string& text, const std::string* exhaustive_text) {
  if (auto s = core::write_file_atomic(path, text); !s) return s;
  return exhaustive_text ? core::write_file_atomic(exhaustive_path(path), *exhaustive_text) : core::Status::ok();
}

core::Result<std::vector<Times>> validate_interleaved(int variants, int repeats,
                                                      const std::function<core::Result<std::vector<measure::TrialRow>>(int)>& run) {
  std::vector<Times> out(static_cast<std::size_t>(variants));
  std::vector<int> order(static_cast<std::size_t>(variants));
  std::iota(order.begin(), order.end(), 0);
  for (int r = 0; r < std::max(1, repeats); ++r) {
    std::vector<int> now = order;
    if (r % 2) std::reverse(now.begin(), now.end());  // no variant always runs first
    for (int v : now) {
      auto rows = run(v);
      if (!rows) return rows.status();
      for (const auto& row : *rows) out[static_cast<std::size_t>(v)][row.bytes].push_back(row.p50_us);
    }
  }
  return out;
}

CollReport coll_report(measure::Collective c, const SearchResult& searched, const SearchResult* ex, int repeats,
                       const std::function<std::string(const Config&)>& label, const std::vector<Times>& times) {
  auto med = [&](std::size_t v, std::size_t bytes) {
    if (v >= times.size()) return 0.0;
    auto it = times[v].find(bytes);
    return it == times[v].end() ? 0.0 : trials::median(it->second);
  };
  CollReport cr;
  cr.coll = c;
  cr.trials = searched.trials;
  cr.launches = searched.launches;
  cr.exhaustive_trials = searched.exhaustive_trials;
  cr.exhaustive_launches = ex ? ex->launches : 0;
  cr.configurations = searched.configurations;
  cr.sizes = static_cast<int>(searched.buckets.size());
  cr.repeats = std::max(1, repeats);
  cr.budget = searched.budget;
  cr.skipped = searched.skipped;
  for (std::size_t bi = 0; bi < searched.buckets.size(); ++bi) {
    const auto& b = searched.buckets[bi];
    BucketReport br;
    br.bytes = b.bytes;
    br.chosen = label(b.chosen);
    br.changed = b.chosen.alg != 0;
    br.search_noise_us = b.noise_us;
    br.default_us = med(0, b.bytes);
    br.tuned_us = med(1, b.bytes);
    br.gain_vs_default = br.tuned_us > 0 ? br.default_us / br.tuned_us : 0;
    if (ex && bi < ex->buckets.size()) {
      br.exhaustive_best = label(ex->buckets[bi].chosen);
      br.exhaustive_us = med(2, b.bytes);
      br.pct_of_exhaustive = br.tuned_us > 0 ? 100.0 * br.exhaustive_us / br.tuned_us : 0;
      br.same_as_exhaustive = br.exhaustive_best == br.chosen;
    }
    cr.buckets.push_back(br);
  }
  return cr;
}

}  // namespace ncdx::model::tune
