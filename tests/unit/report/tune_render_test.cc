// `ncdx tune --backend mpi`'s report (report/tune/tune_render.h): a bucket whose tuned and
// exhaustive rules are the same configuration says so, since its "% of exhaustive" is then the
// validation's noise (91-98 % on the shaped-link run of docs/PERFORMANCE.md), not a loss.
#include "report/tune/tune_render.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace {

ncdx::model::tune::MpiTuneReport two_buckets() {
  ncdx::model::tune::MpiTuneReport r;
  r.np = 4;
  r.fabric = "4 netns hosts";
  r.rules_path = "rules.conf";
  r.exhaustive = true;
  ncdx::model::tune::CollReport c;
  auto bucket = [](std::size_t bytes, std::string chosen, std::string best, double def, double tuned, double exh) {
    ncdx::model::tune::BucketReport b;
    b.bytes = bytes;
    b.chosen = std::move(chosen);
    b.exhaustive_best = std::move(best);
    b.changed = true;
    b.default_us = def;
    b.tuned_us = tuned;
    b.exhaustive_us = exh;
    b.gain_vs_default = def / tuned;
    b.pct_of_exhaustive = 100.0 * exh / tuned;
    b.same_as_exhaustive = b.chosen == b.exhaustive_best;
    return b;
  };
  // The quiet shaped-link run's 256 KiB and 1 MiB buckets (docs/PERFORMANCE.md).
  auto other = bucket(1 << 18, "segmented_ring/seg8 KiB", "ring", 47307, 38310, 36214);
  auto same = bucket(1 << 20, "segmented_ring", "segmented_ring", 194325, 147362, 145014);
  c.buckets = {other, same};
  r.colls.push_back(c);
  return r;
}

TEST(TuneRender, SameConfigurationIsMarkedInTextAndJson) {
  const auto r = two_buckets();
  const std::string text = ncdx::report::render_tune_text(r);
  EXPECT_NE(text.find("98.4 (same)"), std::string::npos) << text;
  EXPECT_EQ(text.find("94.5 (same)"), std::string::npos) << text;
  EXPECT_NE(text.find("(same): the tuned and the exhaustive rule are the same configuration"), std::string::npos);
  const auto j = ncdx::report::tune_json(r, nlohmann::json::object());
  const auto& b = j["collectives"][0]["buckets"];
  EXPECT_EQ(b[0]["same_as_exhaustive"], false);
  EXPECT_EQ(b[1]["same_as_exhaustive"], true);
}

TEST(TuneRender, NoExhaustiveRunNoMarkAndNull) {
  auto r = two_buckets();
  r.exhaustive = false;
  EXPECT_EQ(ncdx::report::render_tune_text(r).find("(same)"), std::string::npos);
  EXPECT_TRUE(ncdx::report::tune_json(r, nlohmann::json::object())["collectives"][0]["buckets"][1]["same_as_exhaustive"].is_null());
}

}  // namespace

// The trial share and what the exhaustive count is made of, in both forms, whether or not the
// exhaustive search ran (the quiet shaped-link run's grid: 8 distinct configurations x 4 sizes x 3).
TEST(TuneRender, TrialShareAndTheExhaustiveCount) {
  auto r = two_buckets();
  auto& c = r.colls[0];
  c.trials = 24;
  c.launches = 11;
  c.exhaustive_trials = 96;
  c.configurations = 8;
  c.sizes = 4;
  c.repeats = 3;
  c.budget = 24;
  c.skipped = 2;
  for (bool ran : {true, false}) {
    r.exhaustive = ran;
    const std::string text = ncdx::report::render_tune_text(r);
    EXPECT_NE(text.find("24 trials in 11 jobs, 25.0 % of the exhaustive search's 96 (8 configurations x 4 sizes x 3)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("budget: 24 trials, reached: 2 jobs skipped"), std::string::npos) << text;
    const auto j = ncdx::report::tune_json(r, nlohmann::json::object())["collectives"][0];
    EXPECT_EQ(j["exhaustive_trials"], 96);
    EXPECT_DOUBLE_EQ(j["trial_share"].get<double>(), 0.25);
    EXPECT_EQ(j["exhaustive_definition"]["configurations"], 8);
    EXPECT_EQ(j["trial_budget"], 24);
    EXPECT_EQ(j["budget_skipped_launches"], 2);
  }
}
