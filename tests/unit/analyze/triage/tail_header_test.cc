// Rank identity from the file a line was printed from, when several files are pasted as one:
// tail(1)/head(1) print "==> path <==" above each file (GNU coreutils src/tail.c write_header), and
// torchrun --log-dir writes <run>/attempt_N/<local_rank>/{stdout,stderr}.log
// (torch/distributed/elastic/multiprocessing/api.py, torch 2.15.0: the folder is the local rank).
#include <gtest/gtest.h>

#include "analyze/logs/log_line.h"
#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

using ncdx::analyze::tail_header_path;

TEST(TailHeader, Parses) {
  EXPECT_EQ(tail_header_path("==> run/attempt_0/2/stderr.log <==").value_or(""), "run/attempt_0/2/stderr.log");
  EXPECT_EQ(tail_header_path("  ==> 'my logs/rank3.log' <==").value_or(""), "my logs/rank3.log");  // quotef
  EXPECT_FALSE(tail_header_path("==>  <=="));
  EXPECT_FALSE(tail_header_path("==> a <== ==> b <=="));
  EXPECT_FALSE(tail_header_path("=> x <="));
  EXPECT_FALSE(tail_header_path("loss ==> 0.5"));
}

// Four ranks of a torchrun --log-dir job pasted with `tail -n +1 dir/attempt_0/*/stderr.log`: ranks
// 0, 1 and 3 time out in all_reduce, rank 2's file holds only a warning.
std::string logdir_tail() {
  std::string s = "$ tail -n +1 /tmp/tl/none_x1/attempt_0/*/stderr.log\n";
  for (int r : {0, 1, 3}) {
    s += "==> /tmp/tl/none_x1/attempt_0/" + std::to_string(r) + "/stderr.log <==\n";
    s += "Traceback (most recent call last):\n"
         "  File \"/home/u/train.py\", line 149, in main\n"
         "    dist.all_reduce(loss_t)\n"
         "RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting "
         "1800000ms for recv operation to complete\n\n";
  }
  s += "==> /tmp/tl/none_x1/attempt_0/2/stderr.log <==\n"
       "/home/u/.venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py:558: UserWarning: This "
       "DataLoader will create 4 worker processes in total.\n";
  return s;
}

TEST(TailHeader, LogDirSectionsAreTheirRanks) {
  auto r = ncdx::testing::triage_text("pasted.log", logdir_tail());
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{2}) << r.verdict.id << ": " << r.verdict.summary;
  EXPECT_NE(r.verdict.summary.find("ranks 0,1,3 timed out waiting for rank 2"), std::string::npos)
      << r.verdict.summary;
}

// The same lines without the headers: nothing says whose they are, no rank is named.
TEST(TailHeader, WithoutHeadersNoRank) {
  std::string s = logdir_tail();
  std::string out;
  for (std::size_t at = 0; at < s.size();) {
    auto nl = s.find('\n', at);
    auto line = s.substr(at, nl - at);
    if (line.rfind("==> ", 0) != 0) out += line + "\n";
    at = nl + 1;
  }
  auto r = ncdx::testing::triage_text("pasted.log", out);
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << r.verdict.id << ": " << r.verdict.summary;
}

// Plain per-rank files ("rank3.log", "node-1/rank_5/out.txt") name their rank the same way; a new
// shell command ends the section: the kernel line below `$ dmesg` is not rank 5's (without the
// prompt line it would be).
std::string rank_files(bool prompt) {
  return std::string("$ tail -n 3 rank3.log node-1/rank_5/out.txt\n"
                     "==> rank3.log <==\n"
                     "RuntimeError: CUDA error: an illegal memory access was encountered\n"
                     "\n"
                     "==> node-1/rank_5/out.txt <==\n"
                     "step 10 loss 0.1\n") +
         (prompt ? "$ dmesg | tail -1\n" : "") +
         "[12345.678] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n";
}

std::optional<int> xid_rank(const ncdx::analyze::ScanResult& scan) {
  for (const auto& h : scan.hits)
    for (const auto& ev : h.samples)
      if (ev.text.find("fallen off the bus") != std::string::npos) return ev.rank.value_or(-1);
  return std::nullopt;
}

TEST(TailHeader, RankFilesAndTheEndOfASection) {
  for (bool prompt : {true, false}) {
    ncdx::analyze::Scanner sc(ncdx::testing::signatures());
    auto f = sc.add_file("pasted.log", ncdx::analyze::hints_from_path("pasted.log"));
    std::istringstream in(rank_files(prompt));
    std::string line;
    long long n = 0;
    while (std::getline(in, line)) sc.feed(f, ++n, line);
    const auto& scan = sc.finish();
    std::set<int> ranks;
    for (const auto& [key, p] : scan.processes)
      if (p.rank) ranks.insert(*p.rank);
    EXPECT_EQ(ranks, (std::set<int>{3, 5})) << prompt;
    ASSERT_TRUE(xid_rank(scan)) << "the kernel line is a signature hit";
    EXPECT_EQ(*xid_rank(scan), prompt ? -1 : 5) << "prompt " << prompt;
    if (prompt) {
      auto r = ncdx::analyze::correlate(scan, ncdx::testing::signatures(), {});
      bool cuda3 = false;
      for (const auto& fd : r.findings)
        if (fd.id == "cuda.illegal-memory-access") cuda3 = fd.culprit.ranks == std::vector<int>{3};
      if (r.verdict.id == "cuda.illegal-memory-access") cuda3 = r.verdict.culprit.ranks == std::vector<int>{3};
      EXPECT_TRUE(cuda3) << "the CUDA error is rank 3's";
    }
  }
}

}  // namespace
