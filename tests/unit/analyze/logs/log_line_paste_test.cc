// parse_prefix() and clean_line() on lines as users paste them: markdown, escape sequences,
// collectors' prefixes stacked on the programs' own, redactions. Rank, host and time must come
// through every stack.
#include <gtest/gtest.h>

#include <string>

#include "analyze/logs/line_clean.h"
#include "analyze/logs/log_line.h"

using ncdx::analyze::clean_line;
using ncdx::analyze::LineLevel;
using ncdx::analyze::needs_cleaning;
using ncdx::analyze::parse_prefix;

namespace {
std::string cleaned(std::string_view s) {
  std::string buf;
  return std::string(needs_cleaning(s) ? clean_line(s, buf) : s);
}
}  // namespace

TEST(CleanLine, AnsiEscapes) {
  EXPECT_EQ(cleaned("\x1b[36m(WorkerDict pid=1234, ip=10.0.0.1)\x1b[0m hello"), "(WorkerDict pid=1234, ip=10.0.0.1) hello");
  EXPECT_EQ(cleaned("\x1b[1;31mERROR\x1b[0m x"), "ERROR x");
  EXPECT_EQ(cleaned("a\x1b[2Kb\x1b[1Ac"), "abc");                       // erase line, cursor up
  EXPECT_EQ(cleaned("\x1b]0;title\x07text"), "text");                   // OSC window title
  EXPECT_EQ(cleaned("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "link");  // OSC 8 hyperlink
  EXPECT_EQ(cleaned("^[[31mred^[[0m"), "red");                           // cat -v
  EXPECT_EQ(cleaned("x\x1b"), "x");                                      // lone ESC at the end
  EXPECT_EQ(cleaned("a ^ b"), "a ^ b");
}

TEST(CleanLine, HtmlEntities) {
  EXPECT_EQ(cleaned("NCCL WARN Cuda failure &#39;out of memory&#39;"), "NCCL WARN Cuda failure 'out of memory'");
  EXPECT_EQ(cleaned("&quot;x&quot; &lt;IP&gt; a &amp; b &#x27;c&#X27;"), "\"x\" <IP> a & b 'c'");
  EXPECT_EQ(cleaned("AT&T &unknown; &#; &#99999999;"), "AT&T &unknown; &#; &#99999999;");
  EXPECT_EQ(cleaned("&#27;[0m"), "&#27;[0m");  // an encoded ESC is not decoded into one
}

TEST(CleanLine, UnicodeSpaces) {
  EXPECT_EQ(cleaned("NCCL\xc2\xa0WARN"), "NCCL WARN");
  EXPECT_EQ(cleaned("\xef\xbb\xbf[rank0]: x"), "[rank0]: x");
  EXPECT_EQ(cleaned("Watch\xe2\x80\x8b" "dog"), "Watchdog");
  EXPECT_EQ(cleaned("\xe2\x80\x98invalid argument\xe2\x80\x99"), "'invalid argument'");
  EXPECT_EQ(cleaned("\xe6\x8a\xa5\xe9\x94\x99 ok"), "\xe6\x8a\xa5\xe9\x94\x99 ok");  // CJK text stays
  EXPECT_FALSE(needs_cleaning("node1:1:2 [0] NCCL INFO Init COMPLETE"));
}

TEST(CleanLine, Redraws) {
  std::vector<std::string> pieces;
  ncdx::analyze::split_redraws(" 10%|#  |\r 20%|## |\r[rank1]: boom\r", [&](std::string_view p) { pieces.emplace_back(p); });
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2], "[rank1]: boom");
}

TEST(PastePrefix, Markdown) {
  for (const char* line : {"> [rank3]: RuntimeError: x", "> > [rank3]: RuntimeError: x", "**[rank3]: RuntimeError: x**",
                           "`[rank3]: RuntimeError: x`", "- [rank3]: RuntimeError: x", "    [rank3]: RuntimeError: x",
                           "\t[rank3]: RuntimeError: x", "* [rank3]: RuntimeError: x   ", "[33m[rank3]: RuntimeError: x[0m"}) {
    auto p = parse_prefix(line);
    EXPECT_EQ(p.rank, 3) << line;
    EXPECT_EQ(p.message, "RuntimeError: x") << line;
    EXPECT_EQ(p.text.substr(0, 8), "[rank3]:") << line;
  }
  // pytorch-135355: bold inside the torchrun prefix
  auto b = parse_prefix("[rank0]: **RuntimeError: [enforce fail at device.cc:276] ss1.ss_family == ss2.ss_family. 2 vs 10**");
  EXPECT_EQ(b.rank, 0);
  EXPECT_EQ(b.message, "RuntimeError: [enforce fail at device.cc:276] ss1.ss_family == ss2.ss_family. 2 vs 10");
  EXPECT_TRUE(parse_prefix("```text").text.empty());
  EXPECT_TRUE(parse_prefix("~~~").text.empty());
  // Redactions that look like markup are kept.
  EXPECT_EQ(parse_prefix("*** Error in `python': double free").message, "*** Error in `python': double free");
}

TEST(PastePrefix, KubectlAndCri) {
  auto k = parse_prefix("2024-05-01T12:00:00.123456789Z [rank3]:[E501 12:00:00.100 ProcessGroupNCCL.cpp:629] [Rank 3] Watchdog");
  EXPECT_EQ(k.rank, 3);
  EXPECT_EQ(k.time_text, "2024-05-01T12:00:00.123456789Z");
  ASSERT_TRUE(k.epoch);
  EXPECT_NEAR(*k.epoch, 1714564800.123457, 1e-3);  // date -u -d '2024-05-01 12:00:00' +%s
  EXPECT_EQ(k.level, LineLevel::error);
  EXPECT_EQ(k.message, "Watchdog");
  EXPECT_EQ(k.text.substr(0, 8), "[rank3]:");
  auto c = parse_prefix("2024-05-01T12:00:00.123456789Z stderr F node1:10:11 [2] NCCL WARN x");
  EXPECT_TRUE(c.nccl);
  EXPECT_EQ(c.host, "node1");
  EXPECT_EQ(c.cuda_dev, 2);
  EXPECT_EQ(c.text, "node1:10:11 [2] NCCL WARN x");
}

TEST(PastePrefix, ComposeAndPdsh) {
  auto d = parse_prefix("worker-1  | [rank5]: RuntimeError: x");
  EXPECT_EQ(d.host, "worker-1");
  EXPECT_EQ(d.rank, 5);
  auto n = parse_prefix("worker-1  | node7:1:2 [0] NCCL WARN x");
  EXPECT_EQ(n.host, "node7");  // NCCL names the machine
  auto p = parse_prefix("10.0.0.2: [2024-05-01 12:00:00,123] [INFO] [launch.py:145:main] WORLD INFO DICT");
  EXPECT_EQ(p.host, "10.0.0.2");
  EXPECT_EQ(p.level, LineLevel::info);
  EXPECT_EQ(p.source, "launch.py:145");
  EXPECT_EQ(p.message, "WORLD INFO DICT");
  auto l = parse_prefix("localhost: Traceback (most recent call last):");
  EXPECT_EQ(l.host, "localhost");
  for (const char* not_host : {"RuntimeError: x", "torch.distributed.DistBackendError: NCCL error", "GPU0: NVIDIA A100",
                               "ncclInternalError: Internal check failed.", "eth0: link down", "Note: x",
                               "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4",
                               "mlx5: gpu-node-3: got completion with error:"}) {
    auto q = parse_prefix(not_host);
    EXPECT_FALSE(q.host) << not_host;
    EXPECT_EQ(q.message, not_host);
  }
}

TEST(PastePrefix, PythonLoggingAndLaunchers) {
  auto a = parse_prefix("2024-05-01 12:00:00,123 - INFO - hello");
  EXPECT_EQ(a.level, LineLevel::info);
  EXPECT_EQ(a.message, "hello");
  auto b = parse_prefix("2024-05-01 12:00:00,123 - verl.trainer - ERROR - boom");
  EXPECT_EQ(b.level, LineLevel::error);
  EXPECT_EQ(b.message, "boom");
  auto c = parse_prefix("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0");
  EXPECT_EQ(c.level, LineLevel::error);
  EXPECT_EQ(c.message, "failed (exitcode: 1) local_rank: 0");
  auto v = parse_prefix("(VllmWorker rank=3 pid=1090) ERROR 06-05 06:18:13 [multiproc_executor.py:470] RuntimeError: x");
  EXPECT_EQ(v.rank, 3);
  EXPECT_EQ(v.pid, 1090);
  EXPECT_EQ(v.message, "RuntimeError: x");
  auto s = parse_prefix("[2025-01-01 12:00:00 TP3] Scheduler hit an exception");
  EXPECT_EQ(s.rank, 3);
  EXPECT_EQ(s.message, "Scheduler hit an exception");
  auto sdp = parse_prefix("[2025-01-01 12:00:00 DP1 TP3] x");
  EXPECT_FALSE(sdp.rank);  // TP3 is a rank within DP group 1 only
  auto r = parse_prefix("(raylet, ip=10.0.0.5) [2024-05-01 12:00:00,123 E 123 456] worker_pool.cc:1 x");
  EXPECT_EQ(r.host, "10.0.0.5");
  auto as = parse_prefix("(autoscaler +1m2s) Adding 1 node(s)");
  EXPECT_EQ(as.message, "Adding 1 node(s)");
  auto w = parse_prefix("wandb: ERROR Run initialization has timed out");
  EXPECT_EQ(w.message, "ERROR Run initialization has timed out");
  auto det = parse_prefix("[2024-02-27T21:35:28.705869Z] fa88a9df [rank=1] || [E ProcessGroupNCCL.cpp:828] [Rank 1] x");
  EXPECT_EQ(det.rank, 1);
  auto srun = parse_prefix("> 12: [rank12]: x");
  EXPECT_EQ(srun.rank, 12);
  auto mp = parse_prefix("`[1,3]<stderr>:node2:5:6 [1] NCCL WARN x`");
  EXPECT_EQ(mp.rank, 3);
  EXPECT_EQ(mp.host, "node2");
  EXPECT_EQ(mp.message, "x");
  auto sys = parse_prefix("Nov 30 10:00:00 gpu-node-1 kernel: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.");
  EXPECT_EQ(sys.host, "gpu-node-1");
  EXPECT_EQ(sys.message.substr(0, 9), "NVRM: Xid");
}

TEST(PastePrefix, Redactions) {
  auto a = parse_prefix("<hostname>:1234:5678 [0] NCCL WARN x");
  EXPECT_TRUE(a.nccl);
  EXPECT_FALSE(a.host);
  EXPECT_EQ(a.pid, 1234);
  auto b = parse_prefix("[REDACTED]:1234:5678 [1] NCCL WARN x");
  EXPECT_TRUE(b.nccl);
  EXPECT_FALSE(b.host);
  EXPECT_EQ(b.cuda_dev, 1);
  auto c = parse_prefix("(WorkerDict pid=66442, ip=PRIVATE_IP) x");
  EXPECT_FALSE(c.host);
  EXPECT_EQ(c.pid, 66442);
  auto d = parse_prefix("(WorkerDict pid=66442, ip=xxx.xxx.xxx.xxx) x");
  EXPECT_FALSE(d.host);
}

// The vectorised check agrees with the definition at every length and position.
TEST(CleanLine, NeedsCleaningEveryPosition) {
  for (std::size_t len = 0; len < 40; ++len) {
    std::string plain(len, 'a');
    EXPECT_FALSE(needs_cleaning(plain)) << len;
    for (std::size_t at = 0; at < len; ++at)
      for (char c : {'\x1b', '&', '^', '\r', '\x80', '\xff'}) {
        std::string s = plain;
        s[at] = c;
        EXPECT_TRUE(needs_cleaning(s)) << len << " " << at << " " << int(c);
      }
  }
}

TEST(PastePrefix, VllmWorkerNames) {
  auto a = parse_prefix("(VllmWorker TP3 pid=1090) ERROR 06-05 06:18:13 [multiproc_executor.py:470] x");
  EXPECT_EQ(a.rank, 3);
  EXPECT_EQ(a.pid, 1090);
  auto b = parse_prefix("(Worker_TP1 pid=77) INFO 06-05 06:18:13 [gpu_worker.py:1] x");
  EXPECT_EQ(b.rank, 1);
  auto c = parse_prefix("(Worker_PP1_TP1 pid=77) INFO 06-05 06:18:13 [gpu_worker.py:1] x");
  EXPECT_FALSE(c.rank);  // TP1 within pipeline stage 1
  auto d = parse_prefix("(EngineCore_0 pid=5) x");
  EXPECT_FALSE(d.rank);
}

TEST(PastePrefix, KubectlPodAndSageMaker) {
  auto k = parse_prefix("[pod/trainer-worker-1/pytorch] [rank9]:[E501 12:00:00.100 ProcessGroupNCCL.cpp:629] [Rank 9] x");
  EXPECT_EQ(k.host, "trainer-worker-1");
  EXPECT_EQ(k.rank, 9);
  EXPECT_EQ(k.message, "x");
  auto m = parse_prefix("[1,mpirank:3,algo-2]<stderr>:algo-2:88:99 [3] NCCL WARN x");
  EXPECT_EQ(m.rank, 3);
  EXPECT_EQ(m.host, "algo-2");
  EXPECT_TRUE(m.nccl);
  EXPECT_EQ(m.message, "x");
}
