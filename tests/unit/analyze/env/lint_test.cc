// The playbook's env examples must each get the verdict the facts give (NVIDIA/nccl source per nccl_env_vars.tsv,
// §2), version by version.
#include <gtest/gtest.h>

#include "analyze/env/lint.h"
#include "core/semver.h"
#include "core/strings.h"
#include "knowledge/env_vars.h"

using namespace ncdx;
using analyze::EnvLintInput;
using analyze::EnvRow;

namespace {

std::vector<EnvRow> lint1(const std::string& name, const std::string& value, const char* nccl = nullptr,
                          const char* torch = nullptr) {
  EnvLintInput in;
  in.env[name] = value;
  if (nccl) in.nccl = core::V(nccl);
  if (torch) in.torch = core::V(torch);
  return analyze::lint_env(in);
}

const EnvRow* find(const std::vector<EnvRow>& rows, const std::string& rule) {
  for (const auto& r : rows)
    if (r.rule == rule) return &r;
  return nullptr;
}

std::string dump(const std::vector<EnvRow>& rows) {
  std::string s;
  for (const auto& r : rows) s += r.parameter + " " + core::to_string(r.status) + " " + r.rule + ": " + r.why + "\n";
  return s;
}

}  // namespace

TEST(Semver, ParsesAndOrders) {
  EXPECT_LT(core::V("2.9.1"), core::V("2.10.0"));
  EXPECT_EQ(core::V("v2.19.3-1"), core::V("2.19.3"));
  EXPECT_EQ(core::V("2.21.5+cuda12.4").suffix, "+cuda12.4");
  EXPECT_EQ(core::V("2.7.1+cu126").patch, 1);
  EXPECT_EQ(core::V("0.8.0.dev").suffix, ".dev");
  EXPECT_EQ(core::V("2.24"), core::V("2.24.0"));
  EXPECT_FALSE(core::Version::parse("abc"));
  EXPECT_FALSE(core::Version::parse(""));
}

TEST(EnvLint, MaxRingsIsFake) {
  auto rows = lint1("NCCL_MAX_RINGS", "8", "2.21.5");
  auto* r = find(rows, "env.fake");
  ASSERT_NE(r, nullptr) << dump(rows);
  EXPECT_EQ(r->status, core::Outcome::warn);
  EXPECT_NE(r->recommended.find("NCCL_MAX_NCHANNELS"), std::string::npos);
}

TEST(EnvLint, MinNringsIsRealLegacyName) {
  auto rows = lint1("NCCL_MIN_NRINGS", "4", "2.30.7");
  auto* r = find(rows, "env.legacy-alias");
  ASSERT_NE(r, nullptr) << dump(rows);
  EXPECT_EQ(r->status, core::Outcome::warn);
  EXPECT_EQ(r->recommended, "NCCL_MIN_NCHANNELS=4");
  EXPECT_EQ(find(rows, "env.fake"), nullptr);
  EXPECT_EQ(find(rows, "env.unknown"), nullptr);
}

TEST(EnvLint, NewChannelNameWinsOverLegacy) {
  EnvLintInput in;
  in.env = {{"NCCL_MIN_NRINGS", "4"}, {"NCCL_MIN_NCHANNELS", "8"}};
  auto rows = analyze::lint_env(in);
  auto* r = find(rows, "env.legacy-alias");
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->why.find("wins"), std::string::npos);
}

TEST(EnvLint, IbMtuIsFake) {
  auto rows = lint1("NCCL_IB_MTU", "4096", "2.21.5");
  ASSERT_NE(find(rows, "env.fake"), nullptr) << dump(rows);
}

TEST(EnvLint, IbTcIsReal) {
  auto rows = lint1("NCCL_IB_TC", "106", "2.21.5");
  ASSERT_EQ(rows.size(), 1u) << dump(rows);
  EXPECT_EQ(rows[0].status, core::Outcome::pass);
  auto bad = lint1("NCCL_IB_TC", "300", "2.26.2");
  EXPECT_NE(find(bad, "env.ib-tc-range"), nullptr);
}

TEST(EnvLint, IbextDisableIsPluginOnly) {
  auto rows = lint1("NCCL_IBEXT_DISABLE", "1", "2.21.5");
  auto* r = find(rows, "env.external-plugin");
  ASSERT_NE(r, nullptr) << dump(rows);
  EXPECT_NE(r->why.find("nccl-rdma-sharp-plugins"), std::string::npos);
}

TEST(EnvLint, LlThresholdRemovedIn256) {
  auto rows = lint1("NCCL_LL_THRESHOLD", "0", "2.21.5");
  auto* r = find(rows, "env.removed");
  ASSERT_NE(r, nullptr) << dump(rows);
  EXPECT_NE(r->why.find("2.5.6"), std::string::npos);
  // On NCCL 2.4.8 it still existed.
  auto old = lint1("NCCL_LL_THRESHOLD", "0", "2.4.8");
  EXPECT_EQ(find(old, "env.removed"), nullptr) << dump(old);
}

TEST(EnvLint, AlgoCollNetPerVersion) {
  // 2.24+: unknown token -> init fails.
  auto r224 = lint1("NCCL_ALGO", "CollNet", "2.24.3");
  auto* f = find(r224, "env.algo-invalid");
  ASSERT_NE(f, nullptr) << dump(r224);
  EXPECT_EQ(f->status, core::Outcome::fail);
  EXPECT_NE(f->why.find("CollNetDirect"), std::string::npos);
  // 2.21: silently ignored, ring backup.
  auto r221 = lint1("NCCL_ALGO", "CollNet", "2.21.5");
  auto* w = find(r221, "env.algo-ring-backup");
  ASSERT_NE(w, nullptr) << dump(r221);
  EXPECT_EQ(w->status, core::Outcome::warn);
  // 2.16: CollNet fallback warning path.
  auto r216 = lint1("NCCL_ALGO", "CollNet", "2.16.5");
  EXPECT_NE(find(r216, "env.algo-collnet-fallback"), nullptr) << dump(r216);
  // 2.12: CollNet was a valid token.
  auto r212 = lint1("NCCL_ALGO", "CollNet", "2.12.12");
  EXPECT_EQ(find(r212, "env.algo-invalid"), nullptr) << dump(r212);
}

TEST(EnvLint, GlobalTreeFailsFrom224) {
  auto r = lint1("NCCL_ALGO", "Tree", "2.24.3");
  auto* f = find(r, "env.algo-no-algorithm");
  ASSERT_NE(f, nullptr) << dump(r);
  EXPECT_EQ(f->status, core::Outcome::fail);
  EXPECT_NE(f->risk.find("AllGather"), std::string::npos);
  auto r223 = lint1("NCCL_ALGO", "Tree", "2.23.4");
  EXPECT_NE(find(r223, "env.algo-ring-backup"), nullptr) << dump(r223);
  auto r218 = lint1("NCCL_ALGO", "Tree", "2.18.3");
  auto* f18 = find(r218, "env.algo-forced");
  ASSERT_NE(f18, nullptr) << dump(r218);
  EXPECT_NE(f18->why.find("only to AllReduce"), std::string::npos);
  // Per-collective form is fine on 2.24.
  auto ok = lint1("NCCL_ALGO", "allreduce:tree", "2.24.3");
  EXPECT_EQ(find(ok, "env.algo-no-algorithm"), nullptr) << dump(ok);
  EXPECT_NE(find(ok, "env.algo-forced"), nullptr);
  // ...but is an unknown token before 2.24.
  auto old = lint1("NCCL_ALGO", "allreduce:tree", "2.21.5");
  EXPECT_NE(find(old, "env.algo-ring-backup"), nullptr) << dump(old);
}

TEST(EnvLint, AlgoNvlsOnlyIsHardwareDependent) {
  auto r = lint1("NCCL_ALGO", "NVLS", "2.26.2");
  auto* f = find(r, "env.algo-no-algorithm");  // Broadcast/Reduce have only Ring
  ASSERT_NE(f, nullptr) << dump(r);
  EXPECT_NE(f->risk.find("Broadcast"), std::string::npos);
}

TEST(EnvLint, ProtoTokens) {
  auto bad = lint1("NCCL_PROTO", "LL64", "2.26.2");
  EXPECT_NE(find(bad, "env.proto-invalid"), nullptr) << dump(bad);
  auto ll128 = lint1("NCCL_PROTO", "LL128", "2.26.2");
  auto* f = find(ll128, "env.proto-forced");
  ASSERT_NE(f, nullptr) << dump(ll128);
  EXPECT_NE(f->why.find("LL128"), std::string::npos);
  auto neg = lint1("NCCL_PROTO", "^LL128;allreduce:LL128", "2.24.3");
  EXPECT_EQ(find(neg, "env.proto-invalid"), nullptr) << dump(neg);
}

TEST(EnvLint, AsyncErrorHandlingAliasPerTorchVersion) {
  auto r = lint1("NCCL_ASYNC_ERROR_HANDLING", "1", nullptr, "2.4.0");
  auto* w = find(r, "torch.deprecated-alias");
  ASSERT_NE(w, nullptr) << dump(r);
  EXPECT_EQ(w->recommended, "TORCH_NCCL_ASYNC_ERROR_HANDLING=1");
  EXPECT_NE(w->why.find("Not an NCCL variable"), std::string::npos);
  // PyTorch 2.1 read only the NCCL_ name.
  auto old = lint1("NCCL_ASYNC_ERROR_HANDLING", "1", nullptr, "2.1.2");
  EXPECT_EQ(find(old, "torch.deprecated-alias"), nullptr) << dump(old);
  auto newname_old_torch = lint1("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1", nullptr, "2.1.2");
  EXPECT_NE(find(newname_old_torch, "torch.not-yet"), nullptr) << dump(newname_old_torch);
}

TEST(EnvLint, DebugLevelIsCaseInsensitive) {
  EnvLintInput in;
  in.env["NCCL_DEBUG"] = "info";
  in.production = false;
  auto r = analyze::lint_env(in);
  ASSERT_EQ(r.size(), 1u) << dump(r);
  EXPECT_EQ(r[0].status, core::Outcome::pass);
  in.production = true;
  auto p = analyze::lint_env(in);
  auto* w = find(p, "env.debug-in-production");
  ASSERT_NE(w, nullptr) << dump(p);
  EXPECT_NE(w->why.find("case-insensitive"), std::string::npos);
  auto bogus = lint1("NCCL_DEBUG", "VERBOSE");
  EXPECT_NE(find(bogus, "env.debug-unknown"), nullptr);
}

TEST(EnvLint, GdrLevelLowercaseIgnored) {
  auto r = lint1("NCCL_NET_GDR_LEVEL", "pxb", "2.21.5");
  auto* w = find(r, "env.level-case");
  ASSERT_NE(w, nullptr) << dump(r);
  EXPECT_EQ(w->recommended, "NCCL_NET_GDR_LEVEL=PXB");
  EXPECT_NE(w->why.find("strcmp"), std::string::npos);
  EXPECT_EQ(lint1("NCCL_NET_GDR_LEVEL", "PXB", "2.21.5")[0].status, core::Outcome::pass);
  EXPECT_NE(find(lint1("NCCL_NET_GDR_LEVEL", "P2C", "2.26.2"), "env.level-unknown"), nullptr);
  EXPECT_EQ(lint1("NCCL_NET_GDR_LEVEL", "P2C", "2.27.3")[0].status, core::Outcome::pass);
  auto legacy = lint1("NCCL_P2P_LEVEL", "2", "2.21.5");
  auto* l = find(legacy, "env.level-legacy-int");
  ASSERT_NE(l, nullptr);
  EXPECT_NE(l->risk.find("PXB"), std::string::npos);
}

TEST(EnvLint, TimeoutIsFake) {
  auto r = lint1("NCCL_TIMEOUT", "1800");
  ASSERT_NE(find(r, "env.fake"), nullptr) << dump(r);
}

TEST(EnvLint, IntParsingFollowsStrtoll) {
  auto t = lint1("NCCL_IB_DISABLE", "true", "2.21.5");
  auto* w = find(t, "env.int-non-numeric");
  ASSERT_NE(w, nullptr) << dump(t);
  EXPECT_NE(w->why.find("ENABLED"), std::string::npos);
  auto oct = lint1("NCCL_MIN_NCHANNELS", "010", "2.21.5");
  auto* o = find(oct, "env.int-octal");
  ASSERT_NE(o, nullptr) << dump(oct);
  EXPECT_NE(o->risk.find("8"), std::string::npos);
  auto m = lint1("NCCL_BUFFSIZE", "4M", "2.21.5");
  auto* j = find(m, "env.int-trailing-junk");
  ASSERT_NE(j, nullptr) << dump(m);
  EXPECT_EQ(j->risk, "read as 4");
  EXPECT_EQ(lint1("NCCL_BUFFSIZE", "0x400000")[0].status, core::Outcome::pass);
  auto big = lint1("NCCL_MAX_NCHANNELS", "48", "2.21.5");
  EXPECT_NE(find(big, "env.channels-clamped"), nullptr);
  EXPECT_EQ(lint1("NCCL_MAX_NCHANNELS", "48", "2.25.1")[0].status, core::Outcome::pass);
}

TEST(EnvLint, UnknownNameGetsSuggestion) {
  auto r = lint1("NCCL_SOCKET_IFNAM", "eth0");
  auto* w = find(r, "env.unknown");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->recommended, "NCCL_SOCKET_IFNAME");
  EXPECT_TRUE(lint1("PATH", "/usr/bin").empty());
}

TEST(EnvLint, RemovedAndNotYetByVersion) {
  EXPECT_NE(find(lint1("NCCL_CONF_FILE", "/x", "2.21.5"), "env.not-yet"), nullptr);
  EXPECT_EQ(find(lint1("NCCL_CONF_FILE", "/x", "2.23.4"), "env.not-yet"), nullptr);
  EXPECT_NE(find(lint1("NCCL_SHM_USE_CUDA_MEMCPY", "1", "2.30.7"), "env.removed"), nullptr);
  EXPECT_EQ(find(lint1("NCCL_SHM_USE_CUDA_MEMCPY", "1", "2.30.4"), "env.removed"), nullptr);
  EXPECT_NE(find(lint1("NCCL_ALLOC_P2P_NET_LL_BUFFERS", "1", "2.15.5"), "env.registration-bug"), nullptr);
  EXPECT_NE(find(lint1("NCCL_CHECK_POINTERS", "1", "2.29.7"), "env.deprecated"), nullptr);
  EXPECT_NE(find(lint1("NCCL_CHECKS_DISABLE", "1"), "env.never-read"), nullptr);
  EXPECT_NE(find(lint1("NCCL_MAX_P2P_PEERS", "4"), "env.log-only"), nullptr);
}

TEST(EnvLint, DangerousCombinations) {
  EnvLintInput in;
  in.env = {{"NCCL_IB_DISABLE", "1"}, {"NCCL_P2P_DISABLE", "1"}};
  in.cluster = analyze::ClusterShape{4, 8, "nvswitch", "ib"};
  auto r = analyze::lint_env(in);
  EXPECT_EQ(find(r, "env.ib-disabled-on-ib")->status, core::Outcome::fail);
  EXPECT_EQ(find(r, "env.p2p-disabled-on-nvlink")->status, core::Outcome::fail);
  EXPECT_EQ(core::worst_of(r), core::Outcome::fail);

  EnvLintInput s;
  s.env = {{"NCCL_NSOCKS_PERTHREAD", "8"}};
  EXPECT_NE(find(analyze::lint_env(s), "env.nsocks-without-nthreads"), nullptr);
  s.env["NCCL_SOCKET_NTHREADS"] = "16";
  EXPECT_NE(find(analyze::lint_env(s), "env.socket-product"), nullptr);
  s.env["NCCL_NSOCKS_PERTHREAD"] = "4";
  EXPECT_EQ(find(analyze::lint_env(s), "env.socket-product"), nullptr);

  EnvLintInput v;
  v.env = {{"NCCL_CUMEM_ENABLE", "1"}};
  v.engines = {"vllm"};
  EXPECT_NE(find(analyze::lint_env(v), "env.cumem-on-weight-sync"), nullptr);
  v.env["NCCL_CUMEM_ENABLE"] = "0";
  v.nccl = core::V("2.26.2");
  EXPECT_NE(find(analyze::lint_env(v), "env.cumem-off-weight-sync"), nullptr);

  EnvLintInput i;
  i.env = {{"NCCL_SOCKET_IFNAME", "eth0"}};
  i.interfaces = {"lo", "ens5", "docker0"};
  EXPECT_EQ(find(analyze::lint_env(i), "env.ifname-no-match")->status, core::Outcome::fail);
  i.env["NCCL_SOCKET_IFNAME"] = "^docker,lo";
  EXPECT_NE(find(analyze::lint_env(i), "env.ifname"), nullptr);
  i.env["NCCL_SOCKET_IFNAME"] = "=ens";
  EXPECT_NE(find(analyze::lint_env(i), "env.ifname-no-match"), nullptr);
}

TEST(EnvLint, TorchValues) {
  EXPECT_EQ(lint1("TORCH_NCCL_BLOCKING_WAIT", "maybe")[0].status, core::Outcome::fail);
  EXPECT_EQ(lint1("TORCH_NCCL_BLOCKING_WAIT", "Yes")[0].rule, "torch.blocking-wait");
  EXPECT_EQ(lint1("TORCH_DISTRIBUTED_DEBUG", "verbose")[0].status, core::Outcome::fail);
  EXPECT_EQ(core::worst_of(lint1("TORCH_NCCL_TRACE_BUFFER_SIZE", "abc")), core::Outcome::fail);
  auto fr = lint1("TORCH_NCCL_TRACE_BUFFER_SIZE", "2000");
  ASSERT_EQ(fr.size(), 1u) << dump(fr);
  EXPECT_EQ(fr[0].status, core::Outcome::pass);
}

TEST(EnvLint, SuggestionsMatchFullEditDistance) {
  // The banded search must agree with core::closest on names near and far from the table.
  for (const char* n : {"NCCL_SOCKET_IFNAM", "NCCL_IB_HCAS", "NCCL_DEBUGG", "NCCL_MAXRINGS", "NCCL_ALG",
                        "TORCH_NCCL_BLOCKING_WAITT", "NCCL_COMPLETELY_DIFFERENT_THING", "NCCL_P2P_LEVL"}) {
    auto rows = lint1(n, "1");
    ASSERT_EQ(rows.size(), 1u) << n;
    std::string expect = core::closest(n, knowledge::known_env_names(), 3);
    EXPECT_EQ(rows[0].recommended, expect.empty() ? "unset" : expect) << n;
  }
  // A hostile 100 kB name costs nothing and gets no suggestion.
  auto huge = lint1("NCCL_" + std::string(100000, 'X'), "1");
  ASSERT_EQ(huge.size(), 1u);
  EXPECT_EQ(huge[0].recommended, "unset");
}
