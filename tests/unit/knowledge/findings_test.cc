#include "knowledge/findings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>

#include "support/source_matches.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::knowledge;

TEST(FindingTable, EmbeddedTableLoadsWithUniqueIds) {
  ASSERT_TRUE(finding_table_status().is_ok()) << finding_table_status().message();
  ASSERT_FALSE(finding_table().empty());
  for (const auto& d : finding_table()) {
    EXPECT_TRUE(core::is_failure_class(d.klass)) << d.id;
    EXPECT_EQ(find_finding_def(d.id), &d);
  }
  EXPECT_EQ(find_finding_def("no-such-finding"), nullptr);
}

TEST(FindingTable, MakeFillsEveryText) {
  auto f = make_finding("topo-nvlink-missing", {{"gpu", "GPU3"}, {"index", "3"}});
  EXPECT_EQ(f.title, "GPU3 has no NVLink to any other GPU");
  EXPECT_EQ(f.severity, core::Severity::error);
  ASSERT_EQ(f.fixes.size(), 1u);
  EXPECT_NE(f.fixes[0].action.find("nvidia-smi nvlink --status -i 3`"), std::string::npos);
  EXPECT_THROW(make_finding("topo-nvlink-missing", {{"gpu", "GPU3"}}), std::logic_error);  // {index} not given
  EXPECT_THROW(make_finding("no-such-finding", {}), std::logic_error);
}

TEST(FindingTable, ParseErrorsNameTheLine) {
  auto bad_class = parse_findings_yaml("- id: a\n  class: nope\n  severity: warn\n  title: t\n  summary: s\n", "f.yaml");
  ASSERT_FALSE(bad_class.ok());
  EXPECT_EQ(bad_class.status().code(), core::Exit::bad_input);
  EXPECT_NE(bad_class.status().message().find("f.yaml:1:"), std::string::npos) << bad_class.status().message();
  auto undeclared = parse_findings_yaml("- id: a\n  class: other\n  severity: warn\n  title: \"{x} t\"\n  summary: s\n", "f.yaml");
  ASSERT_FALSE(undeclared.ok());
  EXPECT_NE(undeclared.status().message().find("{x}"), std::string::npos) << undeclared.status().message();
  auto dup = parse_findings_yaml("- {id: a, class: other, severity: info, title: t, summary: s}\n"
                                 "- {id: a, class: other, severity: info, title: t, summary: s}\n", "f.yaml");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("f.yaml:2: duplicate"), std::string::npos) << dup.status().message();
  EXPECT_FALSE(parse_findings_yaml("[unclosed", "f.yaml").ok());
}

TEST(FindingTable, ConfidenceScoreAndConditionalFixes) {
  auto rows = parse_findings_yaml("- id: a\n  class: other\n  severity: warn\n  confidence: 0.4\n  score: 40\n"
                                  "  vars: [x]\n  title: t\n  summary: s\n  fixes:\n"
                                  "    - action: always\n    - action: \"only {x}\"\n      when: x\n",
                                  "f.yaml");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].confidence, 0.4);
  EXPECT_EQ((*rows)[0].score, 40);
  EXPECT_EQ((*rows)[0].fixes[1].when, "x");
  // The embedded rows: a fixed confidence is set on the finding, a fixed score is read by id.
  EXPECT_EQ(make_finding("triage.version-skew", {{"versions", "v"}}).confidence, 0.8);
  EXPECT_EQ(finding_score("triage.version-skew"), 85);
  EXPECT_THROW((void)finding_score("triage.timeout-cascade"), std::logic_error);  // only its cases have one
  // A `when` fix is given only when its var is non-empty.
  FindingVars hang{{"missing", "3"}, {"waiting", "0-2"}, {"op", "nccl:all_reduce"}, {"seq", "7"},
                              {"group", "0 (default_pg)"}, {"activity", ""}, {"no_dump", ""}, {"culprits", "3"},
                              {"source", "dumps/"}, {"no_stacks", ""}, {"buffer_short", "yes"}};
  auto f = make_finding("fr.missing-ranks", hang);
  ASSERT_EQ(f.fixes.size(), 3u);
  EXPECT_EQ(f.fixes[2].env, "TORCH_FR_BUFFER_SIZE=20000");
  EXPECT_EQ(f.fixes[0].command, "python -m torch.distributed.flight_recorder.fr_trace dumps/ -j --selected-ranks 3");
}

TEST(FindingTable, NewFieldErrorsNameTheLine) {
  auto conf = parse_findings_yaml("- id: a\n  class: other\n  severity: warn\n  title: t\n  summary: s\n  confidence: 2\n",
                                  "f.yaml");
  ASSERT_FALSE(conf.ok());
  EXPECT_NE(conf.status().message().find("f.yaml:6: a: confidence must be a number from 0 to 1"), std::string::npos)
      << conf.status().message();
  auto score = parse_findings_yaml("- id: a\n  class: other\n  severity: warn\n  title: t\n  summary: s\n  score: high\n",
                                   "f.yaml");
  ASSERT_FALSE(score.ok());
  EXPECT_NE(score.status().message().find("f.yaml:6: a: score must be a number"), std::string::npos)
      << score.status().message();
  auto when = parse_findings_yaml("- id: a\n  class: other\n  severity: warn\n  title: t\n  summary: s\n  fixes:\n"
                                  "    - action: x\n      when: y\n",
                                  "f.yaml");
  ASSERT_FALSE(when.ok());
  EXPECT_NE(when.status().message().find("f.yaml:7: a: fix 'when: y' is not one of its vars"), std::string::npos)
      << when.status().message();
}

// Every id the triage, FR and topology code raises is a row (a typo would throw only when that
// finding fires), and every row is raised by some code (a stale row would be documented for
// nothing). The calls name their ids as literals: make_finding("…"), derived.cc's scored("…"),
// topo's make("…"), and fr/mismatch.cc's Kind constants.
TEST(FindingTable, EveryRaisedIdIsARowAndEveryRowIsRaised) {
  static const std::regex call(R"re((?:make_finding|scored|make)\(\s*"([^"]+)"|constexpr Kind k\w+\{"([^"]+)")re");
  std::set<std::string> named;
  for (const char* dir : {"analyze/triage", "analyze/fr", "analyze/topo", "analyze/judge", "measure"})
    ncdx::testing::for_each_source_match(std::filesystem::path(NCDX_SOURCE_DIR) / "src" / dir, call,
                                [&](const std::smatch& m) {
                                  for (int g : {1, 2})
                                    if (m[g].matched) named.insert(m[g]);
                                });
  std::set<std::string> rows;
  for (const auto& d : finding_table()) rows.insert(d.id);
  for (const auto& id : named) EXPECT_TRUE(rows.count(id)) << id << " is raised by the code but not in findings.yaml";
  for (const auto& id : rows) EXPECT_TRUE(named.count(id)) << id << " is in findings.yaml but no code raises it";
  EXPECT_GE(named.size(), 33u);  // 4 topology, 14 triage, 12 FR, 2 judge rows, 1 measure row
}

// A case overrides the row's confidence and score; the analysis names it, the table holds the
// numbers (timeout cascade: 35 with a named suspect, 25 without).
TEST(FindingTable, CasesCarryTheNumbersTheAnalysisPicks) {
  auto rows = parse_findings_yaml("- id: a\n  class: other\n  severity: warn\n  confidence: 0.4\n  score: 40\n"
                                  "  cases:\n    strong: {confidence: 0.9, score: 50}\n    weak: {confidence: 0.2}\n"
                                  "  title: t\n  summary: s\n",
                                  "f.yaml");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ((*rows)[0].cases.size(), 2u);
  const FindingCase* weak = (*rows)[0].find_case("weak");
  ASSERT_NE(weak, nullptr);
  EXPECT_EQ(weak->confidence, 0.2);
  EXPECT_FALSE(weak->score.has_value());  // the row's score stands
  EXPECT_EQ((*rows)[0].find_case("none"), nullptr);

  EXPECT_EQ(finding_score("triage.timeout-cascade", "suspect-named"), 35);
  EXPECT_EQ(finding_score("triage.timeout-cascade", "no-suspect"), 25);
  EXPECT_EQ(fixed_score("triage.catalogued", "corrected"), 2);  // the case sets a confidence only
  EXPECT_EQ(fixed_score("fr.missing-ranks", "every-dump"), 45);  // the row's score under a confidence-only case
  FindingVars vars{{"project", "NCCL"}, {"klass", "network-ib"}, {"cite", "c"}, {"kind", "WARN"}, {"provenance", "p"}};
  EXPECT_EQ(make_finding("triage.catalogued", vars, "unclassified").confidence, 0.35);
  EXPECT_EQ(make_finding("triage.catalogued", vars, "corrected").confidence, 0.65);
  EXPECT_THROW(make_finding("triage.catalogued", vars, "no-such-case"), std::logic_error);
  EXPECT_THROW((void)finding_score("triage.catalogued", "no-such-case"), std::logic_error);

  for (const char* bad : {"  cases: [a, b]\n", "  cases:\n    x: 3\n", "  cases:\n    x: {}\n",
                          "  cases:\n    x: {confidence: 7}\n", "  cases:\n    x: {score: 5}\n    x: {score: 6}\n"}) {
    auto r = parse_findings_yaml(std::string("- id: a\n  class: other\n  severity: warn\n  title: t\n  summary: s\n") + bad,
                                 "f.yaml");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("f.yaml:"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("a"), std::string::npos) << r.status().message();
  }
}

// Triage ranks a Flight Recorder finding by its row's score (triage/from_fr.cc): every FR row
// has one, so a dump's finding never falls back to an unranked default.
TEST(FindingTable, EveryFlightRecorderRowHasATriageScore) {
  int fr_rows = 0;
  for (const auto& d : finding_table()) {
    if (d.id.rfind("fr.", 0) != 0) continue;
    ++fr_rows;
    EXPECT_TRUE(d.score.has_value()) << d.id;
  }
  EXPECT_EQ(fr_rows, 12);
}
