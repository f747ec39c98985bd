// `ncdx model --from` (analyze/cluster/spec_from_report.h): the spec of a doctor report (the
// dgx-h100 golden, written by the real binary on the fixture machine) and of a cluster report
// (nodes[].snapshot as report/cluster writes them, from fixture inventories), and the one-line
// errors for anything else.
#include "analyze/cluster/spec_from_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/json.h"
#include "model/cost/spec_parse.h"
#include "probe/inventory.h"
#include "support/fixture_machine.h"
#include "support/test_paths.h"

using namespace ncdx;

namespace {

// The golden holds "exit N" above the JSON (tests/golden.cmake).
std::string golden_json(const std::string& name) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/doctor/golden/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  auto s = ss.str();
  auto b = s.find('{');
  return b == std::string::npos ? "" : s.substr(b);
}

std::string cluster_report(const std::string& machine, int nodes) {
  auto inv = probe::to_json(ncdx::testing::probe_fixture(machine));
  nlohmann::json ns = nlohmann::json::array();
  for (int k = 0; k < nodes; ++k) ns.push_back({{"host", "node" + std::to_string(k)}, {"rank", k}, {"snapshot", inv}});
  return core::dump_json(nlohmann::json{{"schema", "ncdx.cluster/1"}, {"nodes", ns}});
}

}  // namespace

TEST(SpecFromReport, DoctorReportOfAnHgxH100) {
  auto text = golden_json("dgx-h100.json");
  ASSERT_FALSE(text.empty());
  auto d = analyze::spec_from_report(text, "dgx-h100.json");
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_TRUE(d->spec) << d->why_not;
  EXPECT_EQ(d->spec->nodes, 1);
  EXPECT_EQ(d->spec->gpus_per_node, 8);
  EXPECT_EQ(d->spec->sm, 90);
  EXPECT_TRUE(d->spec->nvswitch);
  EXPECT_FALSE(d->notes.empty());
}

TEST(SpecFromReport, ClusterReportTakesTheNetworkFromTheRdmaPorts) {
  auto d = analyze::spec_from_report(cluster_report("dgx-h100", 4), "cluster.json");
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_TRUE(d->spec) << d->why_not;
  EXPECT_EQ(d->spec->nodes, 4);
  EXPECT_EQ(d->spec->gpus_per_node, 8);
  EXPECT_EQ(d->spec->nics_per_node, 8);
  EXPECT_DOUBLE_EQ(d->spec->nic_gbit, 400);
  EXPECT_EQ(d->spec->nic_kind, model::cost::NicKind::IB);
  // The same derivation as doctor --cluster --nccl: its spec round-trips through --spec.
  auto again = model::cost::parse_spec(model::cost::describe(*d->spec));
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(model::cost::describe(*again), model::cost::describe(*d->spec));
}

TEST(SpecFromReport, NoGpuNamesIsAReasonNotASpec) {
  auto d = analyze::spec_from_report(cluster_report("nodriver", 1), "nodriver.json");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_FALSE(d->spec);
  EXPECT_NE(d->why_not.find("NVML"), std::string::npos) << d->why_not;
}

TEST(SpecFromReport, OtherInputIsBadInputNamingTheFile) {
  for (const char* text : {"ncdx doctor text output\n", "{\"schema\": \"ncdx.model/1\"}", "{\"schema\": \"ncdx.cluster/1\"}",
                           "{\"schema\": \"ncdx.cluster/1\", \"nodes\": [{\"host\": \"a\"}]}",
                           "{\"schema\": \"ncdx.doctor/1\", \"inventory\": 7}", "[1,2"}) {
    auto d = analyze::spec_from_report(text, "in.json");
    ASSERT_FALSE(d.ok()) << text;
    EXPECT_EQ(d.status().code(), core::Exit::bad_input) << text;
    EXPECT_EQ(d.status().message().rfind("in.json", 0), 0u) << d.status().message();
  }
}
