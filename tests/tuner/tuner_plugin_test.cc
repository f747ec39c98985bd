// The tuner plugin as NCCL sees it: dlopen libnccl-tuner-ncdx.so, look up each ncclTunerPlugin_vN
// symbol, and call init/getCollInfo/finalize with the ABI structs (a float[numAlgo][numProto]
// cost table passed as float**, entries NCCL marked ignored, nChannels = 0 on entry), with
// tuning files that are good, missing, corrupt, overlong and binary. The declarations are the
// plugin's own ABI header; the layouts are checked against the sizes of NCCL's src/include/plugin/tuner/tuner_v*.h.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

extern "C" {
#include "ncdx_tuner_abi.h"
}

namespace {

std::vector<std::string> g_log;
void logger(int level, unsigned long flags, const char*, int, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  g_log.push_back(std::to_string(level) + ":" + std::to_string(flags) + ":" + buf);
}

class TunerPlugin : public ::testing::Test {
 protected:
  static void* lib() {
    static void* h = dlopen(NCDX_TUNER_SO, RTLD_NOW | RTLD_LOCAL);
    return h;
  }
  void SetUp() override {
    ASSERT_NE(lib(), nullptr) << dlerror();
    g_log.clear();
    dir_ = ::testing::TempDir() + "ncdx_tuner_" + std::to_string(getpid());
    std::string cmd = "mkdir -p " + dir_;
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  void TearDown() override {
    unsetenv("NCDX_TUNER_FILE");
    std::string cmd = "rm -rf " + dir_;
    std::system(cmd.c_str());
  }
  std::string write(const std::string& name, const std::string& text) {
    std::string p = dir_ + "/" + name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  // ncclTunerPlugin_v5 on a communicator of 8 ranks on 1 node, logging to g_log.
  static void* init_v5(const ncdxTuner_v5* t) {
    void* ctx = nullptr;
    EXPECT_EQ(t->init(&ctx, 1, 8, 1, logger, nullptr, nullptr), 0);
    return ctx;
  }
  template <class T>
  const T* sym(const char* name) {
    return static_cast<const T*>(dlsym(lib(), name));
  }
  std::string dir_;
};

// A 7x3 table filled like NCCL: a time per entry, -1 where forbidden.
std::vector<float> table(int nalgo = 7) {
  std::vector<float> t(static_cast<std::size_t>(nalgo) * 3);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = 100.0f + static_cast<float>(i);
  return t;
}
float& at(std::vector<float>& t, int algo, int proto) { return t[static_cast<std::size_t>(algo * 3 + proto)]; }

const char* kRules =
    "# ncdx tune output\n"
    "allreduce,0,65535,tree,ll,-1,-1,-1\n"
    "allreduce,65536,1048576,nvls,simple,16,-1,-1\n"
    "allreduce,65536,1048576,ring,simple,8,-1,-1\n"
    "allgather,0,4294967295,ring,ll128,4,2,16\n"
    "reducescatter,0,4294967295,pat,simple,-1,-1,-1,-1,1\n";

TEST_F(TunerPlugin, ExportsEveryVersionWithTheAbiSizes) {
  EXPECT_EQ(sizeof(ncdxTuner_v6), 40u);
  EXPECT_EQ(sizeof(ncdxTuner_v5), 32u);
  EXPECT_EQ(sizeof(ncdxTuner_v4), 32u);
  EXPECT_EQ(sizeof(ncdxTuner_v3), 32u);
  EXPECT_EQ(sizeof(ncdxTuner_v2), 32u);
  EXPECT_EQ(sizeof(ncdxTunerConstants_v5), 1152u);
  for (const char* s : {"ncclTunerPlugin_v6", "ncclTunerPlugin_v5", "ncclTunerPlugin_v4", "ncclTunerPlugin_v3", "ncclTunerPlugin_v2"}) {
    const auto* t = sym<ncdxTuner_v4>(s);
    ASSERT_NE(t, nullptr) << s;
    EXPECT_STREQ(t->name, "ncdx") << s;
  }
  EXPECT_NE(sym<ncdxTuner_v6>("ncclTunerPlugin_v6")->getChunkSize, nullptr);
  EXPECT_EQ(dlsym(lib(), "ncclTunerPlugin_v1"), nullptr);  // 2.19-2.20 process-global ABI: not offered
  EXPECT_EQ(dlsym(lib(), "load_rules"), nullptr);          // nothing else leaks out
}

TEST_F(TunerPlugin, V5ForcesTheMeasuredChoiceInsideBucketsOnly) {
  setenv("NCDX_TUNER_FILE", write("t.conf", kRules).c_str(), 1);
  const auto* t = sym<ncdxTuner_v5>("ncclTunerPlugin_v5");
  ncdxTunerConstants_v5 k{};
  k.baseLatencies[1][2] = 8.4;
  ncdxTunerConstants_v5 before = k;
  ncdxNvlDomainInfo_v5 nvl{1, 8, 8};
  void* ctx = nullptr;
  ASSERT_EQ(t->init(&ctx, 42, 16, 2, logger, &nvl, &k), 0);
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(std::memcmp(&k, &before, sizeof k), 0) << "model constants must not change";

  // Small all-reduce: tree/LL forced, channels left to NCCL.
  auto tab = table();
  int nch = 0;
  ASSERT_EQ(t->getCollInfo(ctx, 4, 4096, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch), 0);
  EXPECT_EQ(at(tab, NCDX_ALGO_TREE, NCDX_PROTO_LL), 0.0f);
  EXPECT_EQ(nch, 0);
  int zeros = 0;
  for (float v : tab) zeros += v == 0.0f;
  EXPECT_EQ(zeros, 1);

  // 512 KB: the nvls rule comes first but NCCL marked NVLS ignored -> the ring rule applies.
  tab = table();
  at(tab, NCDX_ALGO_NVLS, NCDX_PROTO_SIMPLE) = NCDX_ALGO_PROTO_IGNORE;
  nch = 0;
  t->getCollInfo(ctx, 4, 512 << 10, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(at(tab, NCDX_ALGO_NVLS, NCDX_PROTO_SIMPLE), NCDX_ALGO_PROTO_IGNORE);
  EXPECT_EQ(at(tab, NCDX_ALGO_RING, NCDX_PROTO_SIMPLE), 0.0f);
  EXPECT_EQ(nch, 8);

  // Outside every bucket: table and channels untouched.
  tab = table();
  auto orig = tab;
  nch = 0;
  t->getCollInfo(ctx, 4, 8u << 20, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(tab, orig);
  EXPECT_EQ(nch, 0);
  // Another collective without rules (broadcast): untouched.
  t->getCollInfo(ctx, 0, 4096, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(tab, orig);

  // allgather rule is for 2 nodes / 16 ranks: this communicator matches.
  tab = table();
  t->getCollInfo(ctx, 2, 1 << 20, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(at(tab, NCDX_ALGO_RING, NCDX_PROTO_LL128), 0.0f);
  EXPECT_EQ(nch, 4);

  // regBuff=1 rule: not applied to an unregistered buffer.
  tab = table();
  orig = tab;
  nch = 0;
  t->getCollInfo(ctx, 3, 1 << 20, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(tab, orig);
  t->getCollInfo(ctx, 3, 1 << 20, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 1, &nch);
  EXPECT_EQ(at(tab, NCDX_ALGO_PAT, NCDX_PROTO_SIMPLE), 0.0f);
  EXPECT_EQ(t->finalize(ctx), 0);
}

TEST_F(TunerPlugin, RanksAndNodesMustMatch) {
  setenv("NCDX_TUNER_FILE", write("t.conf", kRules).c_str(), 1);
  const auto* t = sym<ncdxTuner_v4>("ncclTunerPlugin_v4");
  void* ctx = nullptr;
  ASSERT_EQ(t->init(8, 1, logger, &ctx), 0);
  auto tab = table();
  auto orig = tab;
  int nch = 0;
  t->getCollInfo(ctx, 2, 1 << 20, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(tab, orig);  // allgather rule is for 16 ranks on 2 nodes
  t->destroy(ctx);
}

TEST_F(TunerPlugin, SixAlgorithmTableOfNccl222IsNotOverrun) {
  // NCCL 2.22 passes 6 algorithms (no PAT): a PAT rule must not write past the table.
  setenv("NCDX_TUNER_FILE", write("t.conf", "allreduce,0,100,pat,simple,-1,-1,-1\nallreduce,0,100,ring,ll,-1,-1,-1\n").c_str(), 1);
  const auto* t = sym<ncdxTuner_v3>("ncclTunerPlugin_v3");
  void* ctx = nullptr;
  ASSERT_EQ(t->init(4, 1, logger, &ctx), 0);
  std::vector<float> tab = table(7);
  tab.resize(18);  // 6 x 3
  std::vector<float> guard(3, 7.0f);
  tab.insert(tab.end(), guard.begin(), guard.end());
  int nch = 0;
  t->getCollInfo(ctx, 4, 64, 1, reinterpret_cast<float**>(tab.data()), 6, 3, &nch);
  EXPECT_EQ(at(tab, NCDX_ALGO_RING, NCDX_PROTO_LL), 0.0f);
  EXPECT_EQ(tab[18], 7.0f);
  EXPECT_EQ(tab[20], 7.0f);
  t->destroy(ctx);
}

TEST_F(TunerPlugin, MissingFileFallsBackAndSaysSo) {
  setenv("NCDX_TUNER_FILE", (dir_ + "/absent.conf").c_str(), 1);
  const auto* t = sym<ncdxTuner_v5>("ncclTunerPlugin_v5");
  void* ctx = nullptr;
  ASSERT_EQ(t->init(&ctx, 1, 8, 1, logger, nullptr, nullptr), 0);
  auto tab = table();
  auto orig = tab;
  int nch = 0;
  EXPECT_EQ(t->getCollInfo(ctx, 4, 4096, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch), 0);
  EXPECT_EQ(tab, orig);
  EXPECT_EQ(nch, 0);
  ASSERT_FALSE(g_log.empty());
  EXPECT_NE(g_log.front().find("cannot open"), std::string::npos) << g_log.front();
  EXPECT_EQ(t->finalize(ctx), 0);
  // Unset, and a NULL logger: still no crash.
  unsetenv("NCDX_TUNER_FILE");
  ASSERT_EQ(t->init(&ctx, 1, 8, 1, nullptr, nullptr, nullptr), 0);
  EXPECT_EQ(t->getCollInfo(ctx, 4, 4096, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch), 0);
  EXPECT_EQ(tab, orig);
  t->finalize(ctx);
}

TEST_F(TunerPlugin, CorruptLinesAreSkippedWithTheirLineNumber) {
  std::string text =
      "allreduce,0,100,ring\n"                        // too few fields
      "allreduce,zero,100,ring,ll,-1,-1,-1\n"         // bad number
      "allreduce,100,0,ring,ll,-1,-1,-1\n"            // max < min
      "allreduce,0,100,butterfly,ll,-1,-1,-1\n"       // unknown algorithm
      "allreduce,0,100,ring,ll,0,-1,-1\n"             // channels 0
      "allreduce,0,99999999999999999999999,ring,ll,-1,-1,-1\n"  // overflow
      "alltoall,0,100,ring,ll,-1,-1,-1\n"             // not a tunable collective
      + std::string(2000, 'x') + "\n"                 // overlong line
      + std::string("\x01\x02\xff,\xfe\n", 6) +        // binary
      "allreduce,0,100,ring,ll64,-1,-1,-1\n"          // unknown protocol
      "allreduce,0,100,ring,ll,1025,-1,-1\n"          // channels above 1024
      "allreduce,0,100,ring,ll,-1,-2,-1\n"            // nNodes
      "allreduce,0,100,ring,ll,-1,-1,many\n"          // nRanks
      "allreduce,0,100,ring,ll,-1,-1,-1,0.5\n"        // numPipeOps
      "allreduce,0,100,ring,ll,-1,-1,-1,-1,2\n"       // regBuff
      "allreduce,0,100,ring,ll,-1,-1,-1,-1,-1,x\n"    // 11 fields
      "allreduce , 0 , 100 , ring , simple , 2 , -1 , -1\n";  // the one good line (spaces trimmed)
  setenv("NCDX_TUNER_FILE", write("bad.conf", text).c_str(), 1);
  const auto* t = sym<ncdxTuner_v6>("ncclTunerPlugin_v6");
  void* ctx = nullptr;
  ASSERT_EQ(t->init(&ctx, 1, 8, 1, logger, nullptr, nullptr), 0);
  int warns = 0;
  for (const auto& l : g_log) warns += l.rfind("2:64:", 0) == 0;
  EXPECT_EQ(warns, 16);
  // Each says what was expected (ncdx_tuner.c parse_rule).
  for (const char* why : {"unknown protocol", "channels must be -1 or 1..1024", "nNodes must be", "nRanks must be",
                          "numPipeOps must be", "regBuff must be -1, 0 or 1", "expected 8 to 10 comma-separated fields"}) {
    bool seen = false;
    for (const auto& l : g_log) seen |= l.find(why) != std::string::npos;
    EXPECT_TRUE(seen) << why;
  }
  bool line2 = false;
  for (const auto& l : g_log) line2 |= l.find("bad.conf:2:") != std::string::npos;
  EXPECT_TRUE(line2);
  auto tab = table();
  int nch = 0;
  t->getCollInfo(ctx, 4, 50, 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(at(tab, NCDX_ALGO_RING, NCDX_PROTO_SIMPLE), 0.0f);
  EXPECT_EQ(nch, 2);
  size_t chunk = 12345;
  EXPECT_EQ(t->getChunkSize(ctx, 4, 50, 1, 2, 2, &chunk), 0);
  EXPECT_EQ(chunk, 12345u);  // NCCL's chunk size kept
  t->finalize(ctx);
}

// The plugin keeps at most 4096 rules (MAX_RULES, a fixed array: no allocation per line) and says
// when a file has more: the first 4096 apply, in file order, the rest are ignored, NCCL unharmed.
TEST_F(TunerPlugin, MoreRulesThanTheCapAreIgnoredAndSaid) {
  std::string text = "# 4097 rules, one byte-range each\n";
  for (int i = 0; i < 4097; ++i)
    text += "allreduce," + std::to_string(i * 16) + "," + std::to_string(i * 16 + 15) + ",ring,simple,-1,-1,-1\n";
  setenv("NCDX_TUNER_FILE", write("many.conf", text).c_str(), 1);
  const auto* t = sym<ncdxTuner_v5>("ncclTunerPlugin_v5");
  void* ctx = init_v5(t);
  bool said = false;
  for (const auto& l : g_log) said |= l.find("more than 4096 rules, the rest ignored") != std::string::npos;
  EXPECT_TRUE(said);
  int nch = 0;
  auto last = table();  // the 4096th rule (bytes 65520-65535) applies
  t->getCollInfo(ctx, 4, 65530, 1, reinterpret_cast<float**>(last.data()), 7, 3, 0, &nch);
  EXPECT_EQ(at(last, NCDX_ALGO_RING, NCDX_PROTO_SIMPLE), 0.0f);
  auto beyond = table();  // the 4097th (65536-65551) does not: the table is NCCL's
  auto orig = beyond;
  t->getCollInfo(ctx, 4, 65540, 1, reinterpret_cast<float**>(beyond.data()), 7, 3, 0, &nch);
  EXPECT_EQ(beyond, orig);
  t->finalize(ctx);
}

TEST_F(TunerPlugin, V2ReturnsAlgorithmAndProtocolRespectingSupport) {
  setenv("NCDX_TUNER_FILE",
         write("t.conf", "allreduce,0,100,nvls,simple,-1,-1,-1\nallreduce,0,100,tree,ll128,3,-1,-1\n").c_str(), 1);
  const auto* t = sym<ncdxTuner_v2>("ncclTunerPlugin_v2");
  void* ctx = nullptr;
  ASSERT_EQ(t->init(8, 1, logger, &ctx), 0);
  int algo = -1, proto = -1, nch = 0;
  t->getCollInfo(ctx, 4, 64, /*collNet*/ 0, /*nvls*/ 0, 1, &algo, &proto, &nch);
  EXPECT_EQ(algo, NCDX_ALGO_TREE);
  EXPECT_EQ(proto, NCDX_PROTO_LL128);
  EXPECT_EQ(nch, 3);
  algo = proto = -1;
  t->getCollInfo(ctx, 4, 64, 0, 1, 1, &algo, &proto, &nch);
  EXPECT_EQ(algo, NCDX_ALGO_NVLS);
  algo = proto = -1;
  t->getCollInfo(ctx, 4, 4096, 0, 1, 1, &algo, &proto, &nch);
  EXPECT_EQ(algo, -1);  // outside the buckets: NCCL decides
  t->destroy(ctx);
  // CollNet only where NCCL says it is possible; PAT is no algorithm of 2.21 (v2): never returned.
  setenv("NCDX_TUNER_FILE",
         write("c.conf", "allreduce,0,100,collnet_direct,simple,-1,-1,-1\nallreduce,0,100,collnet_chain,simple,-1,-1,-1\n"
                         "allgather,0,100,pat,simple,-1,-1,-1\n").c_str(), 1);
  ASSERT_EQ(t->init(8, 2, logger, &ctx), 0);
  algo = proto = -1;
  t->getCollInfo(ctx, 4, 64, /*collNet*/ 0, 1, 1, &algo, &proto, &nch);
  EXPECT_EQ(algo, -1);
  t->getCollInfo(ctx, 4, 64, /*collNet*/ 1, 1, 1, &algo, &proto, &nch);
  EXPECT_EQ(algo, NCDX_ALGO_COLLNET_DIRECT);
  algo = proto = -1;
  t->getCollInfo(ctx, 2, 64, 1, 1, 1, &algo, &proto, &nch);
  EXPECT_EQ(algo, -1);
  t->destroy(ctx);
}

// A rule with numPipeOps applies only to that many grouped operations (NCCL passes numPipeOps).
TEST_F(TunerPlugin, PipeOpsMustMatch) {
  setenv("NCDX_TUNER_FILE", write("p.conf", "allreduce,0,100,ring,ll,-1,-1,-1,2\n").c_str(), 1);
  const auto* t = sym<ncdxTuner_v5>("ncclTunerPlugin_v5");
  void* ctx = init_v5(t);
  int nch = 0;
  auto tab = table();
  const auto orig = tab;
  t->getCollInfo(ctx, 4, 64, /*numPipeOps*/ 1, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(tab, orig);
  t->getCollInfo(ctx, 4, 64, /*numPipeOps*/ 2, reinterpret_cast<float**>(tab.data()), 7, 3, 0, &nch);
  EXPECT_EQ(at(tab, NCDX_ALGO_RING, NCDX_PROTO_LL), 0.0f);
  t->finalize(ctx);
}

TEST_F(TunerPlugin, NullArgumentsNeverCrash) {
  const auto* t = sym<ncdxTuner_v5>("ncclTunerPlugin_v5");
  EXPECT_EQ(t->getCollInfo(nullptr, 4, 64, 1, nullptr, 7, 3, 0, nullptr), 0);
  EXPECT_EQ(t->finalize(nullptr), 0);
  EXPECT_EQ(t->init(nullptr, 1, 8, 1, nullptr, nullptr, nullptr), 0);
}

}  // namespace
