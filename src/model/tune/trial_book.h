#pragma once
// The trials of one tune search (mpi_search.h), shared by the guided and the exhaustive search:
// each (configuration, size) measurement kept under the configuration the library actually runs, the
// screening trials apart from the evidence, the trial budget, and the statistics read from them.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/tune/mpi_search.h"

namespace ncdx::model::tune::trials {

struct Key {
  Config cfg;
  std::size_t bytes;
  bool operator<(const Key& o) const {
    if (cfg != o.cfg) return cfg < o.cfg;
    return bytes < o.bytes;
  }
};

// The configuration the library actually runs when `c` is forced at `bytes` (SearchSpace::runs_as;
// Open MPI: a forced segmented ring below p segments is the ring, so its trials are the ring's).
using Canon = std::function<Config(const Config&, std::size_t)>;
Canon canonical(const SearchSpace& space);

class Book {
 public:
  Book(const MeasureFn& m, Canon canon) : m_(m), canon_(std::move(canon)) {}
  // `evidence` false: the trial only selects what to confirm, and is kept out of the decision.
  core::Status run(const Config& c, const std::vector<std::size_t>& sizes, bool evidence = true) {
    if (sizes.empty()) return core::Status::ok();
    if (cap >= 0 && trials + static_cast<long>(sizes.size()) > cap) {
      ++skipped;
      return core::Status::ok();
    }
    auto r = m_(c, sizes);
    if (!r) return r.status();
    ++launches;
    for (std::size_t s : sizes) {
      auto it = r->find(s);
      if (it == r->end()) return core::Status(core::Exit::failures, "trial returned no row for " + std::to_string(s) + " B");
      (evidence ? samples_ : screen_)[key(c, s)].push_back(it->second);
      ++trials;
    }
    return core::Status::ok();
  }
  const std::vector<Sample>* get(const Config& c, std::size_t s) const {
    auto it = samples_.find(key(c, s));
    return it == samples_.end() ? nullptr : &it->second;
  }
  std::size_t count(const Config& c, std::size_t s) const {
    const auto* v = get(c, s);
    return v ? v->size() : 0;
  }
  // The first trial of c at s, selection-only or not (what the prediction uses).
  const Sample* first(const Config& c, std::size_t s) const {
    for (const auto* m : {&screen_, &samples_})
      if (auto it = m->find(key(c, s)); it != m->end() && !it->second.empty()) return &it->second.front();
    return nullptr;
  }
  // A selection-only trial becomes evidence: the selection did not depend on it.
  void promote(const Config& c, std::size_t s) {
    auto it = screen_.find(key(c, s));
    if (it == screen_.end()) return;
    auto& to = samples_[key(c, s)];
    to.insert(to.end(), it->second.begin(), it->second.end());
    screen_.erase(it);
  }
  Config canon(const Config& c, std::size_t s) const { return canon_(c, s); }
  long trials = 0;
  int launches = 0;
  long cap = -1;  // trials at most (-1: none)
  int skipped = 0;

 private:
  Key key(const Config& c, std::size_t s) const { return {canon_(c, s), s}; }
  const MeasureFn& m_;
  Canon canon_;
  std::map<Key, std::vector<Sample>> samples_, screen_;
};

double median(std::vector<double> v);
std::vector<double> medians(const std::vector<Sample>& s);  // each trial's p50
// Twice the standard error of one trial's per-iteration median, 1.2533 sigma / sqrt(n) (the
// asymptotic efficiency of the median), taken as the median over trials so that one trial hit by
// the scheduler does not inflate it.
double within_trial_noise(const std::vector<Sample>& s);
std::vector<std::size_t> sorted_unique(std::vector<std::size_t> v);

}  // namespace ncdx::model::tune::trials
