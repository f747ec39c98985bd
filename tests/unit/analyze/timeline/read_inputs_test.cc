// The parallel reader of `ncdx timeline` (analyze/timeline/read_inputs.h): any number of workers
// gives the JSON one worker gives, on real inputs (the HTA traces of ../shared/data/ray_timeline,
// ncdx bench and nccl-tests outputs of tests/data); the error reported is the first in input
// order; string ids are renumbered as a shared table would number them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "analyze/timeline/read_inputs.h"
#include "analyze/timeline/result.h"
#include "core/json.h"
#include "report/context.h"
#include "report/timeline_render.h"
#include "support/test_paths.h"

namespace ncdx::analyze::timeline {
namespace {

std::string shared_trace(const char* name) { return std::string(NCDX_SHARED_DIR) + "/data/ray_timeline/" + name; }
std::string data(const char* name) { return std::string(NCDX_TEST_DATA) + "/" + name; }
std::string bad(const char* name) { return std::string(NCDX_SOURCE_DIR) + "/tests/timeline/bad/" + name; }

// What `ncdx timeline --json --no-timestamps` prints for these inputs read with `jobs` workers.
std::string json_of(const std::vector<std::string>& paths, unsigned jobs) {
  TraceSet set;
  auto st = read_timeline_inputs(paths, jobs, set);
  EXPECT_TRUE(st.is_ok()) << st.message();
  auto res = analyze_timeline(set, TimelineOptions{});
  res.inputs = paths;
  return core::dump_json(report::timeline_json(res, report::make_context(nlohmann::json::object(), false)));
}

// The four real gloo traces with send/recv (tests/data/timeline/README.md), in rank order.
std::vector<std::string> gloo_p2p() {
  std::vector<std::string> v;
  for (const auto& e : std::filesystem::directory_iterator(data("timeline/gloo-p2p-4rank"))) v.push_back(e.path().string());
  std::sort(v.begin(), v.end());
  return v;
}

core::Status error_of(const std::vector<std::string>& paths, unsigned jobs) {
  TraceSet set;
  return read_timeline_inputs(paths, jobs, set);
}

TEST(ReadInputs, JobsDoNotChangeTheResultOnRealInputs) {
  // Two real Kineto traces (HTA's test data, one GPU rank each, different collectives and process
  // groups: the string ids of the second must be renumbered into the first's table), a real
  // nccl-tests text run and ncdx's own bench JSON.
  std::vector<std::string> paths = {shared_trace("hta_nccl_parser_config_nccl_data.json.gz"),
                                    shared_trace("hta_timeline_analysis_sampled_rank-0.json.gz"),
                                    data("model/judge/dstack-lambda-b200-2node.txt"),
                                    data("timeline/ncdx-bench-mpi-allreduce-4rank.json")};
  std::string one = json_of(paths, 1);
  EXPECT_NE(one.find("\"collectives\""), std::string::npos);
  EXPECT_EQ(json_of(paths, 4), one);
  EXPECT_EQ(json_of(paths, 2), one);
  // Reversed, the ids are numbered in the other order: still one worker's answer.
  std::vector<std::string> rev(paths.rbegin(), paths.rend());
  EXPECT_EQ(json_of(rev, 3), json_of(rev, 1));
  // Four real ranks of one job (matched across files: stragglers, instances, overlap).
  auto gloo = gloo_p2p();
  ASSERT_EQ(gloo.size(), 4u);
  EXPECT_EQ(json_of(gloo, 4), json_of(gloo, 1));
}

// gloo names no peer on its spans; c10d::send / c10d::recv_ do, in "Concrete Inputs".
TEST(ReadInputs, PeersOfARealGlooJob) {
  TraceSet set;
  ASSERT_TRUE(read_timeline_inputs(gloo_p2p(), 4, set).is_ok());
  ASSERT_EQ(set.ranks.size(), 4u);
  for (const RankTrace& r : set.ranks) {
    EXPECT_EQ(r.comm_source, CommSource::gloo_span);
    int sends = 0, recvs = 0;
    for (const CommOp& op : r.comm) {
      const std::string& c = set.strings.name(op.coll);
      if (c == "send") {
        ++sends;
        EXPECT_EQ(op.peer, (r.rank + 1) % 4) << r.file;
      } else if (c == "recv") {
        ++recvs;
        EXPECT_EQ(op.peer, (r.rank + 3) % 4) << r.file;
      } else {
        EXPECT_EQ(op.peer, -1) << c;
      }
    }
    EXPECT_EQ(sends, 6) << r.file;  // 3 steps × (isend + send)
    EXPECT_EQ(recvs, 6) << r.file;
  }
}

TEST(ReadInputs, TheFirstErrorInInputOrderIsReported) {
  std::string good = shared_trace("hta_nccl_parser_config_nccl_data.json.gz");
  std::vector<std::string> paths = {good, bad("truncated.json"), good, bad("not_a_trace.json"), bad("does_not_exist.json")};
  auto alone = error_of({bad("truncated.json")}, 1);
  ASSERT_FALSE(alone.is_ok());
  for (unsigned jobs : {1u, 2u, 4u, 8u}) {
    auto st = error_of(paths, jobs);
    EXPECT_EQ(st.code(), core::Exit::bad_input) << jobs;
    EXPECT_EQ(st.message(), alone.message()) << jobs;
  }
  // A missing file first: its own error (66), whatever the others do.
  std::vector<std::string> missing = {bad("does_not_exist.json"), bad("truncated.json"), good};
  for (unsigned jobs : {1u, 3u}) EXPECT_EQ(error_of(missing, jobs).code(), core::Exit::not_found) << jobs;
}

TEST(ReadInputs, MergeRenumbersStringIds) {
  TraceSet a, b, out;
  RankTrace ra, rb;
  ra.comm.push_back({0, 1, a.strings.id("allreduce"), a.strings.id("pg0")});
  rb.comm.push_back({0, 1, b.strings.id("broadcast"), b.strings.id("allreduce")});
  a.ranks.push_back(ra);
  b.ranks.push_back(rb);
  merge_trace_set(std::move(a), out);
  merge_trace_set(std::move(b), out);
  ASSERT_EQ(out.ranks.size(), 2u);
  EXPECT_EQ(out.strings.name(out.ranks[0].comm[0].coll), "allreduce");
  EXPECT_EQ(out.strings.name(out.ranks[0].comm[0].pg), "pg0");
  EXPECT_EQ(out.strings.name(out.ranks[1].comm[0].coll), "broadcast");
  EXPECT_EQ(out.ranks[1].comm[0].pg, out.ranks[0].comm[0].coll);  // one id for one name
  EXPECT_EQ(out.strings.size(), 4u);                               // "", allreduce, pg0, broadcast
}

TEST(ReadInputs, Jobs) {
  EXPECT_EQ(timeline_jobs(4, 8), 4u);
  EXPECT_EQ(timeline_jobs(16, 3), 3u);
  EXPECT_EQ(timeline_jobs(4, 0), 1u);
  EXPECT_GE(timeline_jobs(0, 64), 1u);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
