// doctor --cluster --nccl (analyze/cluster/nccl_check.h): the spec derived from node snapshots
// probed from the fixture machines, the judge's verdict and threshold on a measured table, the
// findings, and the "nccl" object of the cluster JSON against its schema.
#include "analyze/cluster/nccl_check.h"

#include <gtest/gtest.h>

#include <fstream>

#include "analyze/cluster/cluster_run.h"
#include "analyze/doctor/facts.h"
#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"
#include "report/cluster/cluster_render.h"
#include "support/fixture_machine.h"
#include "support/json_schema_mini.h"
#include "support/test_paths.h"

using namespace ncdx;
namespace mc = model::cost;
using analyze::ClusterNccl;
using analyze::NodeSnapshot;

namespace {

std::vector<NodeSnapshot> nodes_of(const std::string& machine, int n) {
  static std::map<std::string, probe::Inventory> cache;
  if (!cache.count(machine)) cache[machine] = ncdx::testing::probe_fixture(machine);
  std::vector<NodeSnapshot> v;
  for (int i = 0; i < n; ++i) {
    NodeSnapshot s;
    s.host = "h" + std::to_string(i);
    s.rank = i;
    s.inventory = cache[machine];
    v.push_back(s);
  }
  return v;
}

int active_ports(const probe::Inventory& inv) {
  int n = 0;
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports) n += p.state && p.state->find("ACTIVE") != std::string::npos;
  return n;
}

// An all-reduce table whose busbw is `fraction` of what the model expects for `spec`.
ClusterNccl measured(const mc::ClusterSpec& spec, double fraction, std::vector<std::size_t> sizes = {128u << 20, 1u << 30}) {
  ClusterNccl r;
  r.requested = r.ran = true;
  r.gpus_per_node.assign(static_cast<std::size_t>(spec.nodes), spec.gpus_per_node);
  r.bench.library = "NCCL 2.27.7 (/usr/lib/x86_64-linux-gnu/libnccl.so.2)";
  r.bench.nranks = spec.nranks();
  r.bench.options.iters = 20;
  auto model = mc::Model::build(spec, mc::NcclVersion{2, 27, 7});
  EXPECT_TRUE(model.ok());
  for (auto bytes : sizes) {
    auto p = model->predict(mc::Collective::AllReduce, bytes);
    measure::BenchRow row;
    row.bytes = bytes;
    row.count = bytes / 4;
    for (auto* side : {&row.out_of_place, &row.in_place}) {
      side->busbw_gbps = p.busbw_gbps * fraction;
      side->algbw_gbps = side->busbw_gbps / mc::busbw_factor(mc::Collective::AllReduce, spec.nranks());
      side->time_us = static_cast<double>(bytes) / (side->algbw_gbps * 1e3);
      side->wrong = 0;
    }
    r.bench.rows.push_back(row);
  }
  return r;
}

}  // namespace

TEST(ClusterNcclSpec, DerivedFromDgxH100Snapshots) {
  auto nodes = nodes_of("dgx-h100", 2);
  ASSERT_FALSE(nodes[0].inventory.nvml.gpus.empty());
  auto d = analyze::spec_from_snapshots(nodes, {8, 8});
  ASSERT_TRUE(d.spec) << d.why_not;
  EXPECT_EQ(d.spec->nodes, 2);
  EXPECT_EQ(d.spec->gpus_per_node, 8);
  EXPECT_EQ(d.spec->sm, 90);
  EXPECT_TRUE(d.spec->nvswitch);
  EXPECT_EQ(d.spec->nics_per_node, active_ports(nodes[0].inventory));
  EXPECT_GT(d.spec->nics_per_node, 0);
  EXPECT_DOUBLE_EQ(d.spec->nic_gbit, 400);  // "400 Gb/sec (4X NDR)" in the fixture's sysfs
  EXPECT_EQ(d.spec->nic_kind, mc::NicKind::IB);
  // The notes say what came from where and what was assumed.
  std::string notes;
  for (const auto& n : d.notes) notes += n + "\n";
  EXPECT_NE(notes.find("NVIDIA H100"), std::string::npos) << notes;
  EXPECT_NE(notes.find("GPUDirect RDMA assumed"), std::string::npos) << notes;
  // The model accepts it.
  EXPECT_TRUE(mc::Model::build(*d.spec, mc::NcclVersion{2, 27, 7}).ok());
}

TEST(ClusterNcclSpec, OneNodeNeedsNoNic) {
  auto d = analyze::spec_from_snapshots(nodes_of("dgx-h100", 1), {8});
  ASSERT_TRUE(d.spec) << d.why_not;
  EXPECT_EQ(d.spec->nodes, 1);
  EXPECT_EQ(d.spec->nics_per_node, 0);
}

TEST(ClusterNcclSpec, SocketWhenNoRdmaPortOrIbDisabled) {
  auto nodes = nodes_of("dgx-h100", 2);
  for (auto& n : nodes) n.inventory.env["NCCL_IB_DISABLE"] = "1";
  auto picked = analyze::nccl_socket_interfaces(nodes[0].inventory.net, nodes[0].inventory.env);
  ASSERT_FALSE(picked.empty());
  std::optional<int> mbps;
  for (const auto& i : nodes[0].inventory.net)
    if (i.name == picked.front()) mbps = i.speed_mbps;
  ASSERT_TRUE(mbps && *mbps > 0) << picked.front() << " has a speed in the fixture's sysfs";
  auto d = analyze::spec_from_snapshots(nodes, {8, 8});
  ASSERT_TRUE(d.spec) << d.why_not;
  EXPECT_EQ(d.spec->nic_kind, mc::NicKind::Socket);
  EXPECT_EQ(d.spec->nics_per_node, 1);
  EXPECT_DOUBLE_EQ(d.spec->nic_gbit, *mbps / 1000.0);
  EXPECT_FALSE(d.spec->gdr);
  // Without a link speed there is nothing to expect.
  for (auto& i : nodes[1].inventory.net) i.speed_mbps.reset();
  auto none = analyze::spec_from_snapshots(nodes, {8, 8});
  EXPECT_FALSE(none.spec);
  EXPECT_NE(none.why_not.find("on h1"), std::string::npos) << none.why_not;
  EXPECT_NE(none.why_not.find("--nccl-spec"), std::string::npos) << none.why_not;
}

TEST(ClusterNcclSpec, SaysWhyNot) {
  auto nodes = nodes_of("dgx-h100", 2);
  auto uneven = analyze::spec_from_snapshots(nodes, {8, 4});
  EXPECT_FALSE(uneven.spec);
  EXPECT_NE(uneven.why_not.find("8 GPU(s) on h0"), std::string::npos) << uneven.why_not;
  EXPECT_NE(uneven.why_not.find("4 GPU(s) on h1"), std::string::npos) << uneven.why_not;
  auto blind = nodes_of("nodriver", 2);
  auto no_nvml = analyze::spec_from_snapshots(blind, {1, 1});
  EXPECT_FALSE(no_nvml.spec);
  EXPECT_NE(no_nvml.why_not.find("--nccl-spec"), std::string::npos) << no_nvml.why_not;
  nodes[0].inventory.nvml.gpus[0].name = "NVIDIA Imaginary 9000";
  auto odd = analyze::spec_from_snapshots(nodes, {8, 8});
  EXPECT_FALSE(odd.spec);
  EXPECT_NE(odd.why_not.find("Imaginary"), std::string::npos);
}

// The verdict's threshold is the judge's (`ncdx model --judge`, 70 %): just above it is ok, just
// below it is slow and a WARN finding; wrong data is an error finding whatever the speed.
TEST(ClusterNcclJudge, ThresholdIsTheJudges) {
  auto nodes = nodes_of("dgx-h100", 2);
  auto spec = analyze::spec_from_snapshots(nodes, {8, 8}).spec;
  ASSERT_TRUE(spec);
  const double t = analyze::judge::JudgeOptions{}.slow_below;
  auto ok = measured(*spec, t + 0.02);
  analyze::judge_cluster_nccl(ok, nodes, {});
  EXPECT_EQ(ok.judgement.kind, analyze::judge::VerdictKind::Ok) << ok.judgement.verdict;
  ASSERT_TRUE(ok.judgement.pct_of_expected);
  EXPECT_NEAR(*ok.judgement.pct_of_expected, (t + 0.02) * 100, 0.5);
  EXPECT_EQ(ok.spec_source, "derived from the node snapshots");
  EXPECT_FALSE(analyze::nccl_finding(ok));

  auto slow = measured(*spec, t - 0.02);
  analyze::judge_cluster_nccl(slow, nodes, {});
  EXPECT_EQ(slow.judgement.kind, analyze::judge::VerdictKind::Slow) << slow.judgement.verdict;
  auto f = analyze::nccl_finding(slow);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "cluster.nccl.slow");
  EXPECT_EQ(f->severity, core::Severity::warn);
  EXPECT_NE(f->summary.find("unverified"), std::string::npos);
  EXPECT_FALSE(f->fixes.empty());

  auto wrong = measured(*spec, 1.0);
  wrong.bench.rows[0].in_place.wrong = 12;
  wrong.bench.out_of_bounds = 1;
  analyze::judge_cluster_nccl(wrong, nodes, {});
  EXPECT_EQ(wrong.judgement.kind, analyze::judge::VerdictKind::Wrong);
  auto fw = analyze::nccl_finding(wrong);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->id, "cluster.nccl.wrong-results");
  EXPECT_EQ(fw->severity, core::Severity::error);
}

TEST(ClusterNcclJudge, GivenSpecWinsAndNoSpecIsUnknown) {
  auto spec = mc::parse_spec("nodes=2,gpus=8,gpu=H100,nic=8x400G-IB");
  ASSERT_TRUE(spec.ok());
  auto r = measured(*spec, 0.3);
  analyze::ClusterNcclOptions o;
  o.spec = *spec;
  // Snapshots without NVML: the derived spec is impossible, the given one is used.
  auto blind = nodes_of("nodriver", 2);
  analyze::judge_cluster_nccl(r, blind, o);
  EXPECT_EQ(r.spec_source, "--nccl-spec");
  EXPECT_EQ(r.judgement.kind, analyze::judge::VerdictKind::Slow);

  auto u = measured(*spec, 0.3);
  analyze::judge_cluster_nccl(u, blind, {});
  EXPECT_FALSE(u.spec);
  EXPECT_EQ(u.judgement.kind, analyze::judge::VerdictKind::Unknown);
  EXPECT_EQ(u.judgement.verdict, "unknown: " + u.spec_why_not);
  EXPECT_FALSE(analyze::nccl_finding(u)) << "no expectation, no finding";
}

TEST(ClusterNcclJudge, SkippedIsNoFindingFailedIsAWarn) {
  ClusterNccl skipped;
  skipped.requested = true;
  skipped.skipped = "skipped: no NCCL (libnccl.so.2 not loadable: x)";
  EXPECT_FALSE(analyze::nccl_finding(skipped));
  ClusterNccl failed;
  failed.requested = true;
  failed.error = "failed: ncclCommInitRank: unhandled system error on h1";
  auto f = analyze::nccl_finding(failed);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "cluster.nccl.failed");
  EXPECT_EQ(f->severity, core::Severity::warn);
}

TEST(ClusterNcclJson, ObjectMatchesTheSchemaAndSaysUnverified) {
  std::ifstream in(std::string(NCDX_SOURCE_DIR) + "/docs/schema/cluster.schema.json");
  auto schema = nlohmann::json::parse(in);
  analyze::ClusterRun run;
  run.launcher = "single";
  auto nodes = nodes_of("dgx-h100", 2);
  for (int i = 0; i < 2; ++i) {
    analyze::ClusterNode n;
    n.snap = nodes[static_cast<std::size_t>(i)];
    n.ranks = {i};
    run.nodes.push_back(n);
  }
  run.network_skip = "not measured in this test";
  auto spec = analyze::spec_from_snapshots(nodes, {8, 8}).spec;
  ASSERT_TRUE(spec);
  run.nccl = measured(*spec, 0.5);
  analyze::analyze_cluster(run, {});
  auto j = report::render_cluster_json(run, false);
  auto errors = testing_schema::validate(schema, j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  const auto& n = j["nccl"];
  EXPECT_EQ(n["status"], "ran");
  EXPECT_EQ(n["unverified_on_hardware"], !analyze::kNcclVerifiedOnHardware);
  EXPECT_EQ(n["verdict_kind"], "slow");
  ASSERT_EQ(n["sizes"].size(), 2u);
  EXPECT_NEAR(n["sizes"][1]["pct_of_expected"].get<double>(), 50, 0.5);
  EXPECT_EQ(n["spec"], mc::describe(*spec));
  bool found = false;
  for (const auto& f : j["findings"]) found = found || f["id"] == "cluster.nccl.slow";
  EXPECT_TRUE(found);
  EXPECT_GE(j["exit_code"].get<int>(), 1);
  auto text = report::render_cluster_text(run, false);
  EXPECT_NE(text.find("NCCL ALL-REDUCE"), std::string::npos);
  EXPECT_NE(text.find("UNVERIFIED ON HARDWARE"), std::string::npos);

  // Skipped: one line, no finding, and without --nccl no object at all.
  run.nccl = {};
  run.nccl.requested = true;
  run.nccl.skipped = "skipped: no CUDA device (cudaGetDeviceCount: no CUDA-capable device is detected) on h1";
  analyze::analyze_cluster(run, {});
  j = report::render_cluster_json(run, false);
  errors = testing_schema::validate(schema, j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(j["nccl"]["status"], "skipped");
  EXPECT_EQ(j["nccl"]["skipped"], run.nccl.skipped);
  for (const auto& f : j["findings"]) EXPECT_NE(f["id"].get<std::string>().rfind("cluster.nccl", 0), 0u);
  run.nccl = {};
  EXPECT_FALSE(report::render_cluster_json(run, false).contains("nccl"));
}
