#include "core/outcome.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ncdx::core;

namespace {
struct Row {
  Outcome status;
};
}  // namespace

TEST(Outcome, NamesRoundTrip) {
  for (Outcome o : kOutcomes) EXPECT_EQ(parse_outcome(to_string(o)), o);
  EXPECT_EQ(std::string(to_string(Outcome::skip)), "SKIP");
  EXPECT_FALSE(parse_outcome("pass").has_value());  // the names are upper case, as every report prints them
  EXPECT_FALSE(parse_outcome("").has_value());
}

TEST(Outcome, ExitCodes) {
  EXPECT_EQ(exit_code_for(Outcome::fail), 2);
  EXPECT_EQ(exit_code_for(Outcome::warn), 1);
  EXPECT_EQ(exit_code_for(Outcome::pass), 0);
  EXPECT_EQ(exit_code_for(Outcome::info), 0);
  EXPECT_EQ(exit_code_for(Outcome::skip), 0);  // a check that could not run does not fail the run
}

TEST(Outcome, WorstNeverRanksSkipAboveFail) {
  EXPECT_EQ(worst(Outcome::skip, Outcome::fail), Outcome::fail);
  EXPECT_EQ(worst(Outcome::fail, Outcome::skip), Outcome::fail);
  EXPECT_EQ(worst(Outcome::warn, Outcome::skip), Outcome::warn);
  EXPECT_EQ(worst(Outcome::pass, Outcome::info), Outcome::info);
  EXPECT_EQ(worst_of(std::vector<Row>{}), Outcome::pass);
  EXPECT_EQ(worst_of(std::vector<Row>{{Outcome::skip}, {Outcome::skip}}), Outcome::pass);
  EXPECT_EQ(worst_of(std::vector<Row>{{Outcome::skip}, {Outcome::warn}, {Outcome::pass}}), Outcome::warn);
  EXPECT_EQ(exit_code_of(std::vector<Row>{{Outcome::warn}, {Outcome::fail}, {Outcome::skip}}), 2);
}

TEST(Outcome, TallyAndSeverity) {
  auto t = tally_of(std::vector<Row>{{Outcome::pass}, {Outcome::fail}, {Outcome::skip}, {Outcome::skip}});
  EXPECT_EQ(t.pass, 1);
  EXPECT_EQ(t.fail, 1);
  EXPECT_EQ(t.skip, 2);
  EXPECT_EQ(t.of(Outcome::warn), 0);
  EXPECT_EQ(t.total(), 4);
  EXPECT_EQ(outcome_of(Severity::critical), Outcome::fail);
  EXPECT_EQ(outcome_of(Severity::error), Outcome::fail);
  EXPECT_EQ(outcome_of(Severity::warn), Outcome::warn);
  EXPECT_EQ(outcome_of(Severity::info), Outcome::info);
  EXPECT_EQ(color_of(Outcome::fail), Color::red);
  EXPECT_EQ(color_of(Outcome::skip), Color::grey);
}

TEST(Outcome, TallyWorstAgreesWithWorstOf) {
  const std::vector<std::vector<Row>> cases = {{},
                                               {{Outcome::skip}},
                                               {{Outcome::skip}, {Outcome::pass}},
                                               {{Outcome::info}, {Outcome::skip}},
                                               {{Outcome::warn}, {Outcome::info}},
                                               {{Outcome::pass}, {Outcome::fail}, {Outcome::warn}}};
  for (const auto& rows : cases) EXPECT_EQ(tally_of(rows).worst(), worst_of(rows)) << rows.size();
}
