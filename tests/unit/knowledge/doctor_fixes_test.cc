// The doctor fix table (knowledge/data/doctor_fixes.yaml): it loads, every id a check names is a
// row (a typo would throw only when that check fails on a machine), and every row is named by a
// check (a stale row would be linted and documented for nothing).
#include "analyze/cluster/consistency.h"
#include "knowledge/doctor_fixes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "support/source_matches.h"
#include "support/test_paths.h"

using namespace ncdx;

TEST(DoctorFixes, TableLoadsAndFillsItsVars) {
  ASSERT_TRUE(knowledge::doctor_fix_table_status()) << knowledge::doctor_fix_table_status().message();
  EXPECT_EQ(knowledge::doctor_fix("expect.driver.fail", {{"driver", "550.54.15"}}),
            "Install driver 550.54.15 like the rest of the fleet, then reboot.");
  EXPECT_THROW(knowledge::doctor_fix("no.such.fix"), std::logic_error);
  EXPECT_THROW(knowledge::doctor_fix("expect.driver.fail"), std::logic_error);  // {driver} not given
}

TEST(DoctorFixes, ParserNamesTheLineOfABadRow) {
  auto r = knowledge::parse_doctor_fixes_yaml("- id: a.b\n  fix: ok\n- id: c.d\n  fix: \"uses {x}\"\n", "t.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find("t.yaml:3: c.d: undeclared {x}"), std::string::npos) << r.status().message();
  EXPECT_FALSE(knowledge::parse_doctor_fixes_yaml("- id: a.b\n  fix: x\n- id: a.b\n  fix: y\n", "t.yaml"));
}

TEST(DoctorFixes, EveryNamedIdIsARowAndEveryRowIsNamed) {
  std::set<std::string> named;
  static const std::regex call(R"re(doctor_fix\(\s*(?:[^"()]*\?\s*)?"([^"]+)"(?:\s*:\s*"([^"]+)")?)re");
  const auto analyze = std::filesystem::path(NCDX_SOURCE_DIR) / "src" / "analyze";
  ncdx::testing::for_each_source_match(analyze / "doctor", call, [&](const std::smatch& m) {
    for (int g : {1, 2})
      if (m[g].matched) named.insert(m[g]);
  });
  // doctor --cluster: the consistency rules name theirs by id ("cluster." + id), the other checks and
  // the network outliers by the id or kind they set (src/analyze/cluster: r.id = "…", {"kind", …}).
  for (const auto& rule : analyze::consistency_rules()) named.insert(std::string("cluster.") + rule.id);
  static const std::regex cluster_id(R"re(doctor_fix\("(cluster\.[^"]+)"|r\.id = "([^"]+)"|push_back\(\{(?:mi == 2 \? )?"([a-z-]+)"(?: : "([a-z-]+)")?)re");
  for (const char* file : {"consistency.cc", "isolation.cc"})
    ncdx::testing::for_each_source_match(analyze / "cluster" / file, cluster_id, [&](const std::smatch& m) {
      if (m[1].matched) named.insert(m[1]);
      if (m[2].matched) named.insert("cluster." + std::string(m[2]));
      for (int g : {3, 4})
        if (m[g].matched) named.insert("cluster.network." + std::string(m[g]));
    });
  // --nccl's findings (nccl_check.cc) take their fix by the id they set: every "cluster.nccl.*" literal.
  static const std::regex nccl_id(R"re("(cluster\.nccl\.[a-z-]+)")re");
  ncdx::testing::for_each_source_match(analyze / "cluster" / "nccl_check.cc", nccl_id,
                                       [&](const std::smatch& m) { named.insert(m[1]); });
  std::set<std::string> rows;
  for (const auto& r : knowledge::doctor_fix_table()) rows.insert(r.id);
  for (const auto& id : named) EXPECT_TRUE(rows.count(id)) << id << " is named by a check but not in doctor_fixes.yaml";
  for (const auto& id : rows) EXPECT_TRUE(named.count(id)) << id << " is in doctor_fixes.yaml but no check names it";
  EXPECT_GT(named.size(), 60u);
}
