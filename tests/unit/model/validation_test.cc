// Validation of the cost model on real published data (docs/MODEL.md "Validation"):
//  (a) NCCL's own printed choices in real NCCL_DEBUG=INFO logs (../shared/data/nccl_info_logs.jsonl):
//      thread thresholds, the NCCL_ALGO enable matrix, and the ring channel count;
//  (b) predicted vs published nccl-tests busbw (../shared/data/nccl_tests_results.jsonl) at the
//      largest size of each run, with the cluster of each record in tests/data/model/nccl_tests_specs.tsv,
//      and the judge's verdict against the verdict recorded with the data.
// The thresholds are the measured values (no fitting: the model is NCCL's constants and our
// search estimate); a change that makes the model worse fails here. Each record is modelled
// with the NCCL version and NCCL_ALGO/NCCL_PROTO the record states (table-only outputs do not
// print them). `[validation-size]` lines give the per-size table (docs/MODEL.md (b)).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "analyze/judge/judge.h"
#include "core/json.h"
#include "model/cost/algo_enable.h"
#include "model/cost/nccl_log_inputs.h"
#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::model::cost;

namespace {

std::vector<nlohmann::json> records(const std::string& file) {
  std::ifstream f(std::string(NCDX_SHARED_DIR) + "/data/" + file);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

std::map<std::string, std::string> specs() {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/model/nccl_tests_specs.tsv");
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    out[line.substr(0, t1)] = line.substr(t1 + 1, t2 - t1 - 1);
  }
  return out;
}

double pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  double idx = q * (v.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(idx)), hi = static_cast<std::size_t>(std::ceil(idx));
  return v[lo] + (v[hi] - v[lo]) * (idx - lo);
}

}  // namespace

TEST(ModelValidation, PublishedBusbwAndVerdicts) {
  auto recs = records("nccl_tests_results.jsonl");
  if (recs.empty()) GTEST_SKIP() << "../shared/data/nccl_tests_results.jsonl not found";
  auto sp = specs();
  std::vector<double> err_all, err_not_bad, err_sizes_not_bad;
  // Every size of the not-bad runs (not only the bandwidth-bound ones), split by regime:
  // < 1 MB (latency), 1-64 MB (the pipeline ramp), >= 64 MB (the bandwidth plateau).
  std::vector<double> err_every, err_small, err_mid, err_large;
  // The same with NCCL's own estimate of the same pick (Prediction::nccl_time_us, the time
  // model before the pipeline model, docs/MODEL.md): before/after from one run.
  std::vector<double> nerr_every, nerr_small, nerr_mid, nerr_large;
  int labelled = 0, agree = 0;
  for (const auto& r : recs) {
    std::string id = r["id"];
    ASSERT_TRUE(sp.count(id)) << "no spec for " << id << " in tests/data/model/nccl_tests_specs.tsv";
    auto spec = parse_spec(sp[id]);
    ASSERT_TRUE(spec.ok()) << id << ": " << spec.status().message();
    auto runs = analyze::judge::parse_nccl_tests(r["output_verbatim"].get<std::string>(), id);
    ASSERT_TRUE(runs.ok()) << id << ": " << runs.status().message();
    analyze::judge::JudgeOptions o;
    o.spec = *spec;
    o.coll = parse_collective(r["test"].get<std::string>());
    // The NCCL version the record states ("2.18.5", "2.9.9 (log prints ...)"): most outputs
    // here are table-only and do not print it, and the model differs per version family.
    if (r.contains("nccl_version") && r["nccl_version"].is_string()) {
      std::string v = r["nccl_version"];
      if (auto vv = NcclVersion::parse(v.substr(0, v.find(' ')))) o.version = *vv;
    }
    // The environment the record states (e.g. NCCL_ALGO=RING NCCL_PROTO=simple on the p4d
    // run): its table-only output does not carry NCCL's "set by environment" lines.
    if (r.contains("env_vars") && r["env_vars"].is_object()) {
      const auto& env = r["env_vars"];
      if (env.contains("NCCL_ALGO") && env["NCCL_ALGO"].is_string()) o.nccl_algo = env["NCCL_ALGO"];
      if (env.contains("NCCL_PROTO") && env["NCCL_PROTO"].is_string()) o.nccl_proto = env["NCCL_PROTO"];
    }
    auto js = analyze::judge::judge_runs(*runs, o);
    Options mo;
    mo.nccl_algo = runs->front().hints.nccl_algo.empty() ? o.nccl_algo : runs->front().hints.nccl_algo;
    mo.nccl_proto = runs->front().hints.nccl_proto.empty() ? o.nccl_proto : runs->front().hints.nccl_proto;
    const NcclVersion used = NcclVersion::parse(js.at(0).nccl_version).value_or(NcclVersion{2, 27, 7});
    auto nccl_model = Model::build(*spec, used, mo);
    if (!nccl_model.ok()) nccl_model = Model::build(*spec, used);
    ASSERT_TRUE(nccl_model.ok()) << id;
    ASSERT_EQ(js.size(), 1u) << id;
    const auto& j = js[0];
    std::string label = r["verdict"]["label"];
    bool bad = label.rfind("bad", 0) == 0, good = label.rfind("good", 0) == 0;
    // Per size: measured vs predicted busbw and the model's pick; '*' marks the
    // bandwidth-bound sizes (NCCL's latency term <= 1/4 of the predicted time) the judge uses.
    std::optional<double> meas, exp;
    std::vector<double> rec_bw_err;
    for (const auto& row : j.rows) {
      if (!row.measured_busbw || !row.expected_busbw) continue;
      meas = row.measured_busbw;
      exp = row.expected_busbw;
      double se = *row.measured_busbw / *row.expected_busbw - 1.0;
      if (row.counted) rec_bw_err.push_back(std::fabs(se));
      if (row.counted && !bad) err_sizes_not_bad.push_back(std::fabs(se));
      std::printf("[validation-size] %-30s %12llu %9.2f %9.2f %+7.1f %% %s %-8s %-6s %2d ch\n", id.c_str(),
                  static_cast<unsigned long long>(row.size), *row.measured_busbw, *row.expected_busbw, se * 100,
                  row.counted ? "*" : " ", row.algo.c_str(), row.proto.c_str(), row.nchannels);
    }
    // Every size by time (busbw is printed with two decimals, so small sizes read 0.00): the
    // |error| of busbw is |predicted time / measured time - 1|, for ncdx's time and NCCL's own.
    if (!bad)
      for (const auto& row : runs->front().rows) {
        auto mt = row.oop.time_us ? row.oop.time_us : row.ip.time_us;
        auto np = nccl_model->predict(*o.coll, row.size);
        if (!mt || *mt <= 0 || !np.available || np.time_us <= 0) continue;
        double e_new = std::fabs(np.time_us / *mt - 1.0);
        double e_old = std::fabs((np.nccl_time_us > 0 ? np.nccl_time_us : np.time_us) / *mt - 1.0);
        err_every.push_back(e_new);
        nerr_every.push_back(e_old);
        bool small = row.size < (1u << 20), mid = !small && row.size < (64u << 20);
        (small ? err_small : mid ? err_mid : err_large).push_back(e_new);
        (small ? nerr_small : mid ? nerr_mid : nerr_large).push_back(e_old);
      }
    ASSERT_TRUE(meas && exp) << id;
    // Headline: the largest size with both numbers.
    double e = std::fabs(*meas / *exp - 1.0);
    if (!rec_bw_err.empty())
      std::printf("[validation-size] %-30s bandwidth-bound sizes: n=%zu median |err| %.1f %%\n", id.c_str(),
                  rec_bw_err.size(), pct(rec_bw_err, 0.5) * 100);
    err_all.push_back(e);
    if (!bad) err_not_bad.push_back(e);
    if (bad || good) {
      ++labelled;
      bool ok = bad ? j.kind == analyze::judge::VerdictKind::Slow : j.kind == analyze::judge::VerdictKind::Ok;
      agree += ok;
      EXPECT_TRUE(ok) << id << ": recorded '" << label << "', judged '" << j.verdict << "'";
    }
    std::printf("[validation] %-34s NCCL %-7s measured %8.2f predicted %8.2f GB/s  |err| %5.1f %%  %s  (%s)\n", id.c_str(),
                j.nccl_version.c_str(), *meas, *exp, e * 100, j.verdict.c_str(), label.c_str());
  }
  double med = pct(err_not_bad, 0.5), p90 = pct(err_not_bad, 0.9);
  std::printf("[validation] not-bad records, every bandwidth-bound size: n=%zu median |err| %.1f %%, p90 %.1f %%\n",
              err_sizes_not_bad.size(), pct(err_sizes_not_bad, 0.5) * 100, pct(err_sizes_not_bad, 0.9) * 100);
  auto regime = [&](const char* what, const std::vector<double>& v) {
    if (!v.empty())
      std::printf("[validation] not-bad records, %s: n=%zu median |err| %.1f %%, p90 %.1f %%\n", what, v.size(),
                  pct(v, 0.5) * 100, pct(v, 0.9) * 100);
  };
  regime("every size", err_every);
  regime("sizes < 1 MB", err_small);
  regime("sizes 1-64 MB", err_mid);
  regime("sizes >= 64 MB", err_large);
  regime("every size, NCCL's own estimate", nerr_every);
  regime("sizes < 1 MB, NCCL's own estimate", nerr_small);
  regime("sizes 1-64 MB, NCCL's own estimate", nerr_mid);
  regime("sizes >= 64 MB, NCCL's own estimate", nerr_large);
  std::printf("[validation] not-bad records: n=%zu median |err| %.1f %%, p90 %.1f %%; all: median %.1f %%; verdicts %d/%d\n",
              err_not_bad.size(), med * 100, p90 * 100, pct(err_all, 0.5) * 100, agree, labelled);
  // Measured on 2026-12-05 (docs/MODEL.md): keep or improve. Largest size: median 15.1 %,
  // p90 38.5 %; every bandwidth-bound size: median 16.9 %.
  EXPECT_LE(med, 0.16);
  EXPECT_LE(p90, 0.40);
  EXPECT_LE(pct(err_sizes_not_bad, 0.5), 0.18);
  EXPECT_EQ(agree, labelled);
  // Every size by time, measured 2026-12-06 (docs/MODEL.md (b), the pipeline model): median
  // 47.7 %, < 1 MB 56.3 %, 1-64 MB 51.4 %; the pipeline model must not be worse than NCCL's own.
  EXPECT_LE(pct(err_every, 0.5), 0.48);
  EXPECT_LE(pct(err_small, 0.5), 0.57);
  EXPECT_LE(pct(err_mid, 0.5), 0.52);
  EXPECT_LE(pct(err_every, 0.5), pct(nerr_every, 0.5) + 1e-9);
}

TEST(ModelValidation, ChoicesPrintedInNcclLogs) {
  auto recs = records("nccl_info_logs.jsonl");
  if (recs.empty()) GTEST_SKIP() << "../shared/data/nccl_info_logs.jsonl not found";
  // The cluster of each log where the model's range (2.14+) applies; NIC rates as stated in the
  // record (MOC: "400 Gbps" per its README; slurmv4: 400G assumed, not stated). MOC's GPU-NIC
  // path is taken from what its log prints about the hardware (not from the checked choice):
  // "use ring PXN 0 GDR 0" and NET/IB lines without GDRDMA while "DMA-BUF is available" mean
  // NCCL found the HCA beyond NCCL_NET_GDR_LEVEL=PXB; the affinity mask has CPU 256 as CPU 0's
  // sibling, a 2 x 128-core host (AMD EPYC 97x4/9755: AMD_BW 16; an Intel Granite Rapids is a
  // model NCCL 2.26 does not know: BDW_QPI_BW 6 — both give the same search result).
  const std::string moc = "nodes=2,gpus=1,gpu=H100,nic=1x400G-RoCE,nicpath=sys,cpu=amd";
  const std::map<std::string, std::string> log_specs = {
      {"moc-h100-roce-allreduce-1gpu-log", moc},
      {"moc-h100-roce-sendrecv-1gpu-log", moc},
      {"slurmv4-sglang-4node-pd-h100-roce-nccl2.29", "nodes=2,gpus=8,gpu=H100,nic=8x400G-RoCE"},
  };
  int checks = 0, agree = 0;
  auto check = [&](bool ok, const std::string& what) {
    ++checks;
    agree += ok;
    std::printf("[validation-a] %s %s\n", ok ? "agree   " : "DISAGREE", what.c_str());
  };
  for (const auto& r : recs) {
    std::string id = r["id"];
    auto f = read_nccl_log(r["log_verbatim"].get<std::string>());
    ASSERT_TRUE(f.nranks) << id;
    // Thread thresholds (rule unchanged since 2.x: LL/LL128 8, Simple 64, Ring LL x nRanks).
    if (f.thread_thresholds) {
      ClusterSpec s;
      s.nodes = f.nnodes.value_or(1);
      s.gpus_per_node = *f.nranks / s.nodes;
      s.nics_per_node = 1;
      s.nic_gbit = 100;
      auto m = Model::build(s, f.version.value_or(NcclVersion{2, 27, 7}));
      ASSERT_TRUE(m.ok());
      auto t = m->thread_thresholds();
      const auto& got = *f.thread_thresholds;
      check(got[0] == t[0] && got[1] == t[1] && got[2] == t[2] && got[3] == t[3],
            id + ": threadThresholds " + f.thread_thresholds_text);
    }
    if (!f.version || f.version->code() < 21400) continue;  // 2.6.4 logs: outside the model's families
    // The enable matrix NCCL prints when NCCL_ALGO/NCCL_PROTO is set.
    if (f.enabled_algo && !f.nccl_algo.empty()) {
      auto em = parse_enable(f.nccl_algo, f.nccl_proto, *f.version);
      ASSERT_TRUE(em.ok());
      bool same = true;
      for (int c = 0; c < kNumNcclFuncs; ++c)
        for (int a = 0; a < kNumAlgos; ++a)
          if ((*f.enabled_algo)[c][a] >= 0 && ((*f.enabled_algo)[c][a] != 0) != em->algo[c][a]) same = false;
      check(same, id + ": enabled algo matrix for NCCL_ALGO=" + f.nccl_algo);
    }
    auto it = log_specs.find(id);
    if (it == log_specs.end()) continue;
    auto spec = parse_spec(it->second);
    ASSERT_TRUE(spec.ok());
    auto m = Model::build(*spec, *f.version);
    ASSERT_TRUE(m.ok());
    int logged = f.coll_channels ? *f.coll_channels : f.channel_count.value_or(-1);
    check(logged == m->comm_channels(), id + ": " + std::to_string(logged) + " ring channels logged, model " +
                                             std::to_string(m->comm_channels()) + " (" + it->second + ")");
    if (f.nvls_channels) check(*f.nvls_channels == (m->graphs()[4].nchannels > 0 ? 16 : 0), id + ": nvls channels");
  }
  std::printf("[validation-a] %d/%d printed choices reproduced\n", agree, checks);
  EXPECT_GE(checks, 10);
  EXPECT_EQ(agree, checks);  // measured 12/12 (docs/MODEL.md)
}
