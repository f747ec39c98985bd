// parse_prefix() over the six real NCCL_DEBUG=INFO logs of data/nccl_info_logs.jsonl: every NCCL
// INFO line is recognised and the hosts found are exactly the ones the record lists.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyze/logs/log_line.h"
#include "support/test_paths.h"

TEST(RealLogs, EveryNcclInfoLineAndHostIsFound) {
  std::ifstream in(std::string(NCDX_SHARED_DIR) + "/data/nccl_info_logs.jsonl");
  if (!in) GTEST_SKIP() << "shared data not present: " << NCDX_SHARED_DIR;
  std::string rec;
  int records = 0;
  while (std::getline(in, rec)) {
    auto j = nlohmann::json::parse(rec);
    std::istringstream log(j["log_verbatim"].get<std::string>());
    std::set<std::string> hosts;
    long long info = 0;
    std::string line;
    while (std::getline(log, line)) {
      auto p = ncdx::analyze::parse_prefix(line);
      if (line.find("NCCL INFO") != std::string::npos) {
        EXPECT_TRUE(p.nccl) << line;
      }
      if (p.nccl && p.level == ncdx::analyze::LineLevel::info) ++info;
      if (p.nccl && p.host) hosts.insert(*p.host);
    }
    auto want = j["summary"]["hosts_seen"].get<std::set<std::string>>();
    EXPECT_EQ(hosts, want) << j["id"];
    EXPECT_EQ(info, j["summary"]["nccl_info_lines"].get<long long>()) << j["id"];
    ++records;
  }
  EXPECT_EQ(records, 6);
}
