#include "knowledge/findings.h"

#include <gtest/gtest.h>

#include <stdexcept>

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
