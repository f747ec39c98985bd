// End-to-end doctor runs over the fixture machines (tests/data/machines), with the FAKE NVML
// library loaded through the real dlopen path (NCDX_NVML_LIB): schema validation, report
// directory, snapshot and bundle round trips, bad input, real topology data.
#include <sstream>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

#include "analyze/doctor/facts.h"
#include "analyze/doctor/run.h"
#include "core/json.h"
#include "probe/machine_probe.h"
#include "report/doctor_render.h"
#include "support/fixture_machine.h"
#include "support/json_schema_mini.h"
#include "support/test_paths.h"

using namespace ncdx;
namespace fs = std::filesystem;

namespace {
const fs::path kMachines = fs::path(NCDX_TEST_DATA) / "machines";

using ncdx::testing::probe_fixture;

nlohmann::json load_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

fs::path temp_dir(const std::string& tag) {
  auto d = fs::temp_directory_path() / ("ncdx-doctor-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

// Runs the ncdx binary; returns the exit status and stderr.
int run_cli(const std::string& args, std::string* err = nullptr) {
  auto errf = fs::temp_directory_path() / ("ncdx-err-" + std::to_string(::getpid()));
  std::string cmd = std::string(NCDX_BIN) + " " + args + " >/dev/null 2>" + errf.string();
  int rc = std::system(cmd.c_str());
  if (err) {
    std::ifstream in(errf);
    err->assign(std::istreambuf_iterator<char>(in), {});
  }
  fs::remove(errf);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::map<std::string, std::string> statuses(const analyze::DoctorRun& run) {
  std::map<std::string, std::string> out;
  for (const auto& o : run.outcomes) out[o.def->id] = core::to_string(o.result.status);
  return out;
}
}  // namespace

class DoctorMachines : public ::testing::TestWithParam<std::string> {};

TEST_P(DoctorMachines, JsonMatchesSchemaAndReportDirIsComplete) {
  auto schema = load_json(fs::path(NCDX_SOURCE_DIR) / "docs" / "schema" / "doctor.schema.json");
  auto run = analyze::run_doctor(probe_fixture(GetParam()));
  auto j = report::render_doctor_json(run, false);
  auto errors = testing_schema::validate(schema, j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  auto files = report::doctor_report_files(run, false);
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files["report.html"].find("<svg") != std::string::npos, analyze::gpu_count(run.inventory) > 0);
  EXPECT_EQ(files["report.html"].find("<script"), std::string::npos);
  std::size_t cases = 0;
  for (std::size_t p = 0; (p = files["junit.xml"].find("<testcase ", p)) != std::string::npos; ++p) ++cases;
  EXPECT_EQ(cases, analyze::doctor_checks().size());
  EXPECT_NE(files["metrics.prom"].find("ncdx_doctor_check_status"), std::string::npos);
  // max() over the status gauge is the usual alert: a skipped check must rank below every check
  // that ran, and each series carries its status as a label.
  std::istringstream prom(files["metrics.prom"]);
  int series = 0;
  for (std::string line; std::getline(prom, line);) {
    if (line.rfind("ncdx_doctor_check_status{", 0) != 0) continue;
    ++series;
    double v = std::stod(line.substr(line.rfind(' ') + 1));
    if (line.find("status=\"SKIP\"") != std::string::npos || line.find("status=\"INFO\"") != std::string::npos) EXPECT_EQ(v, -1) << line;
    else if (line.find("status=\"FAIL\"") != std::string::npos) EXPECT_EQ(v, 2) << line;
    else EXPECT_TRUE(line.find("status=\"PASS\"") != std::string::npos || line.find("status=\"WARN\"") != std::string::npos) << line;
  }
  EXPECT_EQ(series, static_cast<int>(analyze::doctor_checks().size()));
  EXPECT_EQ(files["metrics.prom"].find("last_run_timestamp"), std::string::npos) << "no wall clock without timestamps";
  EXPECT_NE(report::doctor_report_files(run, true)["metrics.prom"].find("ncdx_doctor_last_run_timestamp_seconds"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DoctorMachines, ::testing::Values("dgx-h100", "a100-pcie-acs", "pcie-4gpu", "broken", "nodriver"));

TEST(DoctorFixture, SchemaValidatorCatchesViolations) {
  auto schema = load_json(fs::path(NCDX_SOURCE_DIR) / "docs" / "schema" / "doctor.schema.json");
  auto run = analyze::run_doctor(probe_fixture("broken"));
  auto j = report::render_doctor_json(run, false);
  j["checks"][0]["status"] = "MAYBE";
  j["exit_code"] = 7;
  j.erase("summary");
  EXPECT_EQ(testing_schema::validate(schema, j).size(), 3u);
}

TEST(DoctorFixture, BrokenNodeFindsEveryPlantedFault) {
  auto run = analyze::run_doctor(probe_fixture("broken"));
  auto st = statuses(run);
  for (const char* id : {"os.shm_size", "os.memlock", "kernel.xid", "gpu.row_remap", "gpu.ecc_errors", "nvlink.state", "ib.port_state"})
    EXPECT_EQ(st[id], "FAIL") << id;
  for (const char* id : {"sw.nccl_versions", "sw.torch_nccl", "nvlink.errors", "ib.counters", "env.fake_vars", "env.torch_aliases", "net.mtu"})
    EXPECT_EQ(st[id], "WARN") << id;
  EXPECT_EQ(run.exit_code, 2);
  // Secrets in the replayed env never reach the output.
  auto text = core::dump_json(report::render_doctor_json(run, false));
  EXPECT_EQ(text.find("hf_secret_value"), std::string::npos);
}

TEST(DoctorFixture, HealthyDgxPassesAndMatchesRealTopology) {
  auto run = analyze::run_doctor(probe_fixture("dgx-h100"));
  EXPECT_EQ(run.exit_code, 0);
  // The real `nvidia-smi topo -m` of an HGX H100 node (shared/data topo_matrices.jsonl,
  // slurmv4-aihub0007-h100-12nic; copied in tests/data/doctor/): NV18 between all GPUs, each
  // GPU PIX to exactly one NIC and NODE to the others.
  std::ifstream in(fs::path(NCDX_TEST_DATA) / "doctor" / "hgx_h100_topo.txt");
  std::vector<std::vector<std::string>> real;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("GPU")) continue;
    std::vector<std::string> cells;
    std::size_t a = 0;
    for (std::size_t b; (b = line.find('\t', a)) != std::string::npos; a = b + 1) cells.push_back(line.substr(a, b - a));
    real.push_back(std::vector<std::string>(cells.begin() + 1, cells.begin() + 9));  // GPU columns
  }
  ASSERT_EQ(real.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j) {
      std::string want = real[i][j] == " X " ? "X" : real[i][j];
      EXPECT_EQ(run.topo.cell[i][j], want) << i << "," << j;
    }
  for (std::size_t i = 0; i < 8; ++i) {
    int pix = 0, node = 0;
    for (std::size_t j = 8; j < 16; ++j) {
      pix += run.topo.cell[i][j] == "PIX";
      node += run.topo.cell[i][j] == "NODE";
    }
    EXPECT_EQ(pix, 1);
    EXPECT_EQ(node, 7);
  }
}

TEST(DoctorFixture, NoDriverCountsGpusOnPci) {
  auto run = analyze::run_doctor(probe_fixture("nodriver"));
  auto st = statuses(run);
  EXPECT_EQ(st["os.driver"], "FAIL");
  EXPECT_EQ(st["os.shm_size"], "FAIL");  // 8 GPUs counted on PCI
  EXPECT_EQ(st["gpu.ecc_mode"], "SKIP");
  EXPECT_EQ(run.inventory.nvml.source.state, probe::ProbeState::failed);
  EXPECT_NE(run.inventory.nvml.source.detail.find("(9)"), std::string::npos);
  EXPECT_EQ(run.inventory.acs_source.state, probe::ProbeState::failed);  // 64-byte config: not root
  EXPECT_EQ(st["os.acs"], "SKIP");
}

TEST(DoctorFixture, SnapshotRoundTrip) {
  auto inv = probe_fixture("a100-pcie-acs");
  auto before = analyze::run_doctor(inv);
  auto dir = temp_dir("snap");
  fs::create_directories(dir);
  auto file = dir / "snap.json";
  std::ofstream(file) << core::dump_json({{"schema", "ncdx.snapshot/1"}, {"inventory", probe::to_json(inv)}});
  auto back = probe::load_from(file, false);
  ASSERT_TRUE(back) << back.status().message();
  auto after = analyze::run_doctor(*back);
  EXPECT_EQ(statuses(before), statuses(after));
  EXPECT_EQ(core::dump_json(probe::to_json(back->nvml)), core::dump_json(probe::to_json(inv.nvml)));
  fs::remove_all(dir);
}

TEST(DoctorFixture, GatherBundleReplaysTheSameChecks) {
  setenv("NCDX_NVML_LIB", NCDX_FAKE_NVML, 1);
  setenv("NCDX_FAKE_NVML_JSON", (kMachines / "broken" / "nvml.json").c_str(), 1);
  auto dir = temp_dir("bundle");
  ASSERT_TRUE(probe::write_bundle(dir, core::FileSystem(kMachines / "broken"), false));
  EXPECT_TRUE(fs::exists(dir / "ncdx" / "manifest.json"));
  EXPECT_TRUE(fs::exists(dir / "proc" / "self" / "mounts"));
  EXPECT_TRUE(fs::is_symlink(dir / "sys" / "bus" / "pci" / "devices" / "0000:1b:00.0"));
  unsetenv("NCDX_NVML_LIB");  // the replay must not need NVML: it comes from ncdx/nvml.json
  auto replay = probe::load_from(dir, false);
  ASSERT_TRUE(replay) << replay.status().message();
  auto a = analyze::run_doctor(probe_fixture("broken"));
  auto b = analyze::run_doctor(*replay);
  EXPECT_EQ(statuses(a), statuses(b));
  for (std::size_t i = 0; i < a.outcomes.size(); ++i)
    EXPECT_EQ(a.outcomes[i].result.evidence, b.outcomes[i].result.evidence) << a.outcomes[i].def->id;
  EXPECT_EQ(a.topo.cell, b.topo.cell);
  // The bundle holds only what the probes read: no library blobs, no unrelated files.
  EXPECT_FALSE(fs::exists(dir / "usr"));
  EXPECT_FALSE(fs::exists(dir / "nvml.json"));
  // A second gather into the same directory is refused.
  EXPECT_EQ(probe::write_bundle(dir, core::FileSystem(kMachines / "broken"), false).code(), core::Exit::usage);
  fs::remove_all(dir);
}

TEST(DoctorFixture, CorruptInputsAreExit65WithLocation) {
  auto dir = temp_dir("bad");
  fs::create_directories(dir / "bundle" / "ncdx");
  std::ofstream(dir / "trunc.json") << "{\"schema\": \"ncdx.snapshot/1\", \"inventory\": {\"os\": ";
  std::ofstream(dir / "wrongschema.json") << "{\"schema\": \"other/1\"}";
  std::ofstream(dir / "badtype.json") << "{\"schema\": \"ncdx.snapshot/1\", \"inventory\": {\"schema\": \"ncdx.inventory/1\", \"os\": {\"hostname\": 42}}}";
  std::ofstream(dir / "bundle" / "ncdx" / "manifest.json") << "{\"schema\": \"ncdx.bundle/1\"}";
  std::ofstream(dir / "bundle" / "ncdx" / "nvml.json") << "{\"gpus\": [ {\"index\": 0,, } ]}";
  fs::create_directories(dir / "nomanifest");
  for (auto [path, code, needle] : {std::tuple{"trunc.json", 65, "byte"}, std::tuple{"wrongschema.json", 65, "schema"},
                                     std::tuple{"badtype.json", 65, "inventory"}, std::tuple{"bundle", 65, "nvml.json: byte"},
                                     std::tuple{"nomanifest", 65, "manifest"}, std::tuple{"missing.json", 66, "no such"}}) {
    auto r = probe::load_from(dir / path, false);
    ASSERT_FALSE(r) << path;
    EXPECT_EQ(core::to_int(r.status().code()), code) << path;
    EXPECT_NE(r.status().message().find(needle), std::string::npos) << r.status().message();
    std::string err;
    EXPECT_EQ(run_cli("doctor --from " + (dir / path).string(), &err), code) << path;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;  // one line
  }
  fs::remove_all(dir);
}

TEST(DoctorFixture, MissingAndUnreadableFilesDegradeToSkipOrWarn) {
  auto dir = temp_dir("holes");
  // An empty root: every probe finds nothing; every check still runs.
  fs::create_directories(dir / "empty");
  unsetenv("NCDX_NVML_LIB");
  auto run = analyze::run_doctor(probe::probe_machine(core::FileSystem(dir / "empty"), {}));
  EXPECT_EQ(run.outcomes.size(), analyze::doctor_checks().size());
  EXPECT_EQ(run.exit_code, 0);
  // An IB port whose state file cannot be read (a directory where a file should be).
  fs::create_directories(dir / "ib" / "sys/class/infiniband/mlx5_0/ports/1/state");
  std::ofstream(dir / "ib" / "sys/class/infiniband/mlx5_0/ports/1/rate") << "400 Gb/sec (4X NDR)\n";
  auto inv = probe::probe_machine(core::FileSystem(dir / "ib"), {});
  ASSERT_EQ(inv.ib.size(), 1u);
  auto st = statuses(analyze::run_doctor(inv));
  EXPECT_EQ(st["ib.port_state"], "WARN");
  EXPECT_EQ(st["os.memlock"], "SKIP");  // no /proc/self/limits in this tree
  fs::remove_all(dir);
}

TEST(DoctorFixture, LiveMachineRunsAndValidates) {
  // This machine (or a CI runner): whatever it has, every check runs or says why not.
  unsetenv("NCDX_NVML_LIB");
  probe::ProbeOptions po;
  po.quick = true;
  auto run = analyze::run_doctor(probe::probe_machine(core::FileSystem("/"), po));
  EXPECT_TRUE(run.inventory.live);
  auto schema = load_json(fs::path(NCDX_SOURCE_DIR) / "docs" / "schema" / "doctor.schema.json");
  auto errors = testing_schema::validate(schema, report::render_doctor_json(run, true));
  EXPECT_TRUE(errors.empty()) << errors.front();
  if (run.inventory.pci_gpus.empty() && run.inventory.nvml.source.state != probe::ProbeState::ok)
    for (const auto& o : run.outcomes)
      if (std::string(o.def->category) == "gpu") { EXPECT_EQ(o.result.status, core::Outcome::skip) << o.def->id; }
}

TEST(DoctorFixture, CliReportDirSaveAndFrom) {
  auto dir = temp_dir("cli");
  fs::create_directories(dir);
  std::string root = "--root " + (kMachines / "pcie-4gpu").string() + " --no-timestamps";
  setenv("NCDX_NVML_LIB", NCDX_FAKE_NVML, 1);
  setenv("NCDX_FAKE_NVML_JSON", (kMachines / "pcie-4gpu" / "nvml.json").c_str(), 1);
  EXPECT_EQ(run_cli("doctor " + root + " --output " + (dir / "r").string() + " --save " + (dir / "s.json").string()), 1);
  for (const char* f : {"report.json", "report.html", "summary.txt", "junit.xml", "metrics.prom"}) EXPECT_TRUE(fs::exists(dir / "r" / f)) << f;
  std::string err;
  EXPECT_EQ(run_cli("doctor " + root + " --output " + (dir / "r").string(), &err), 64);  // no clobber without --force
  EXPECT_NE(err.find("--force"), std::string::npos);
  EXPECT_EQ(run_cli("doctor " + root + " --output " + (dir / "r").string() + " --force"), 1);
  unsetenv("NCDX_NVML_LIB");
  EXPECT_EQ(run_cli("doctor --from " + (dir / "s.json").string()), 1);  // same verdict offline
  EXPECT_EQ(run_cli("doctor --root " + (dir / "nope").string(), &err), 66);
  EXPECT_EQ(run_cli("doctor --quick --full"), 64);
  fs::remove_all(dir);
}

TEST(DoctorFixture, ReplayedTreeCannotReadOutsideItsRoot) {
  // A hostile bundle links its files at the analysing host's; the probe must treat them as
  // absent instead of reporting (and re-bundling) this host's data.
  auto dir = temp_dir("escape");
  fs::create_directories(dir / "proc/sys/kernel");
  fs::create_directories(dir / "proc/self");
  fs::create_symlink("/proc/sys/kernel/osrelease", dir / "proc/sys/kernel/osrelease");
  fs::create_symlink("/proc/self/limits", dir / "proc/self/limits");
  std::ofstream(dir / "proc/sys/kernel/hostname") << "inside\n";
  unsetenv("NCDX_NVML_LIB");
  auto inv = probe::probe_machine(core::FileSystem(dir), {});
  EXPECT_EQ(inv.os.hostname, "inside");
  EXPECT_FALSE(inv.os.kernel);
  EXPECT_FALSE(inv.os.memlock.soft);
  fs::remove_all(dir);
}
