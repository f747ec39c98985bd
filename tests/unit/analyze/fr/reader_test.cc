// Reading FR dumps: directory/prefix/file discovery, rank from names, the typed model from the
// pickle and JSON forms, versions, and bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analyze/fr/reader.h"
#include <unistd.h>  // getpid: a temp dir per test process
#include "support/test_paths.h"

namespace ncdx::analyze {
namespace {

const std::string kData = std::string(NCDX_TEST_DATA) + "/fr/";

TEST(FrReader, RankFromName) {
  EXPECT_EQ(rank_from_name("nccl_trace_rank_3"), 3);
  EXPECT_EQ(rank_from_name("nccl_trace_rank_container-node02_15"), 15);
  EXPECT_EQ(rank_from_name("dump.pkl"), std::nullopt);
  EXPECT_EQ(rank_from_name("x12345678901"), std::nullopt);  // too long to be a rank
}

TEST(FrReader, DirectoryOfTorchPickles) {
  auto d = read_fr_path(kData + "hang_rank2");
  ASSERT_TRUE(d) << d.status().message();
  ASSERT_EQ(d->ranks.size(), 4u);
  const FrRankDump& r0 = d->ranks[0];
  EXPECT_EQ(r0.rank, 0);
  EXPECT_EQ(r0.format, "pickle");
  EXPECT_EQ(r0.version, "2.10");
  EXPECT_EQ(r0.comm_lib_version, "2.21.5");
  ASSERT_EQ(r0.pg_config.size(), 2u);
  EXPECT_EQ(r0.pg_config[0].ranks, (std::vector<int>{0, 1, 2, 3}));
  const FrEntry& last = r0.entries.back();
  EXPECT_EQ(last.collective_seq_id, 17);
  EXPECT_EQ(last.op(), "all_reduce");
  EXPECT_EQ(last.state, "started");
  EXPECT_EQ(last.pg_desc, "default_pg");
  EXPECT_FALSE(last.duration_ms.has_value());   // only completed entries with timing have it
  EXPECT_FALSE(last.time_discovered_completed_ns.has_value());
  EXPECT_EQ(last.input_sizes->at(0), (std::vector<long long>{1024, 273}));
  ASSERT_TRUE(last.frames.has_value());
  EXPECT_EQ(last.frames->at(2).line, 212);
  EXPECT_TRUE(r0.warnings.empty());
}

TEST(FrReader, JsonFormMatchesPickleForm) {
  auto p = read_fr_path(kData + "hang_rank2");
  auto j = read_fr_path(kData + "hang_rank2_json");
  ASSERT_TRUE(p && j);
  for (std::size_t r = 0; r < 4; ++r) {
    const auto& a = p->ranks[r];
    const auto& b = j->ranks[r];
    EXPECT_EQ(b.format, "json");
    ASSERT_EQ(a.entries.size(), b.entries.size());
    ASSERT_EQ(a.pg_status.size(), b.pg_status.size());
    EXPECT_EQ(a.pg_status[0].last_enqueued, b.pg_status[0].last_enqueued);  // "17" in JSON
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
      EXPECT_EQ(a.entries[i].time_discovered_started_ns, b.entries[i].time_discovered_started_ns);  // 0 → unset
      EXPECT_EQ(a.entries[i].pg_name, b.entries[i].pg_name);
      EXPECT_FALSE(b.entries[i].frames.has_value());
    }
  }
}

TEST(FrReader, PrefixAndHostNamedFiles) {
  auto d = read_fr_path(kData + "hang_rank2/nccl_trace_rank_");
  ASSERT_TRUE(d) << d.status().message();
  EXPECT_EQ(d->ranks.size(), 4u);
  auto h = read_fr_path(kData + "hostnames");
  ASSERT_TRUE(h) << h.status().message();
  ASSERT_EQ(h->ranks.size(), 4u);
  EXPECT_EQ(h->ranks[3].rank, 3);
  auto one = read_fr_path(kData + "clean/nccl_trace_rank_2");
  ASSERT_TRUE(one);
  ASSERT_EQ(one->ranks.size(), 1u);
  EXPECT_EQ(one->ranks[0].rank, 2);
}

TEST(FrReader, OlderVersionsAndUnknownOnes) {
  auto d = read_fr_path(kData + "size_mismatch/nccl_trace_rank_0");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->ranks[0].version, "2.4");
  EXPECT_FALSE(d->ranks[0].comm_lib_version.has_value());
  EXPECT_FALSE(d->ranks[0].entries[0].thread_name.has_value());
  auto x = parse_fr_bytes(R"({"version": "3.1", "pg_config": {}, "entries": [{"record_id": "oops", "state": "odd"}]})",
                          "x.json", 0);
  ASSERT_TRUE(x) << x.status().message();
  ASSERT_GE(x->warnings.size(), 3u);
  EXPECT_NE(x->warnings[0].find("3.1"), std::string::npos);
  EXPECT_FALSE(x->entries[0].record_id.has_value());
}

TEST(FrReader, BadInputIsExit65WithFileName) {
  auto refused = read_fr_path(kData + "malicious/global_system.pkl");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.status().code(), core::Exit::bad_input);
  EXPECT_NE(refused.status().message().find("global_system.pkl: byte 0: refusing pickle opcode GLOBAL"),
            std::string::npos);
  auto trunc = read_fr_path(kData + "truncated/rank0_half.pkl");
  ASSERT_FALSE(trunc);
  EXPECT_EQ(trunc.status().code(), core::Exit::bad_input);
  EXPECT_EQ(parse_fr_bytes("[1, 2]", "a.json", 0).status().code(), core::Exit::bad_input);
  EXPECT_EQ(parse_fr_bytes("{\"a\": 1}", "a.json", 0).status().code(), core::Exit::bad_input);
  EXPECT_EQ(parse_fr_bytes("{\"entries\": 5}", "a.json", 0).status().code(), core::Exit::bad_input);
  EXPECT_EQ(parse_fr_bytes("hello", "a.txt", 0).status().code(), core::Exit::bad_input);
  EXPECT_EQ(parse_fr_bytes(std::string(100000, '[') , "deep.json", 0).status().code(), core::Exit::bad_input);
  EXPECT_EQ(read_fr_path(kData + "no/such/dir/").status().code(), core::Exit::not_found);
  EXPECT_EQ(read_fr_path(kData + "protocols").status().code(), core::Exit::not_found);  // no <prefix><rank>
}

TEST(FrReader, BadFileInDirectoryFailsOrIsSkipped) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fr_reader_test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (int r : {0, 1})
    std::filesystem::copy_file(kData + "clean/nccl_trace_rank_" + std::to_string(r),
                               dir / ("nccl_trace_rank_" + std::to_string(r)));
  std::filesystem::copy_file(kData + "truncated/rank0_half.pkl", dir / "nccl_trace_rank_2");
  std::ofstream(dir / "train.log.1") << "not a dump\n";
  auto strict = read_fr_path(dir.string());
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.status().code(), core::Exit::bad_input);
  FrReadLimits lenient;
  lenient.skip_bad_files = true;
  auto d = read_fr_path(dir.string(), lenient);
  ASSERT_TRUE(d) << d.status().message();
  EXPECT_EQ(d->ranks.size(), 2u);
  ASSERT_EQ(d->warnings.size(), 1u);
  EXPECT_NE(d->warnings[0].find("nccl_trace_rank_2"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(FrReader, EnvPrefixPicksTheJob) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fr_reader_env-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (int r : {0, 1}) {
    std::filesystem::copy_file(kData + "clean/nccl_trace_rank_" + std::to_string(r), dir / ("jobA_" + std::to_string(r)));
    std::filesystem::copy_file(kData + "clean/nccl_trace_rank_" + std::to_string(r), dir / ("jobB_" + std::to_string(r)));
  }
  std::filesystem::copy_file(kData + "clean/nccl_trace_rank_2", dir / "jobB_2");
  auto d = read_fr_path(dir.string());  // duplicate ranks: the larger same-prefix group wins
  ASSERT_TRUE(d);
  EXPECT_EQ(d->ranks.size(), 3u);
  EXPECT_FALSE(d->warnings.empty());
  setenv("TORCH_FR_DUMP_TEMP_FILE", "/tmp/jobA_", 1);
  auto e = read_fr_path(dir.string());
  unsetenv("TORCH_FR_DUMP_TEMP_FILE");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->ranks.size(), 2u);
  EXPECT_NE(e->ranks[0].file.find("jobA_0"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncdx::analyze
