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
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "analyze/judge/judge.h"
#include "core/json.h"
#include "core/strings.h"
#include "model/cost/algo_enable.h"
#include "model/cost/nccl_log_inputs.h"
#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::model::cost;

namespace {

std::vector<nlohmann::json> read_jsonl(const std::string& path) {
  std::ifstream f(path);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

std::vector<nlohmann::json> records(const std::string& file) {
  return read_jsonl(std::string(NCDX_SHARED_DIR) + "/data/" + file);
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

// One record judged as `ncdx model --judge` would: the cluster from the spec table, the
// collective from the record's test, and the NCCL version and NCCL_ALGO/NCCL_PROTO the record
// states (most outputs are table-only and print neither; the model differs per version family).
struct JudgedRecord {
  core::Result<std::vector<analyze::judge::NcclTestsRun>> runs = std::vector<analyze::judge::NcclTestsRun>{};
  analyze::judge::JudgeOptions opt;
  std::vector<analyze::judge::Judgement> js;
};

void print_dist(const char* tag, const char* what, const std::vector<double>& v) {
  if (!v.empty())
    std::printf("%s %s: n=%zu median |err| %.1f %%, p90 %.1f %%\n", tag, what, v.size(), pct(v, 0.5) * 100,
                pct(v, 0.9) * 100);
}

// A record that publishes only nccl-tests' busbw column as a markdown table ("| 1K | 0.07 |"
// rows; Azure's AI-benchmarking-guide results): one run with that busbw on the side the record
// names. Its sizes are 1 KiB x 2^i, labelled with rounded numbers ("65K", "132K", "8G"); a label
// more than 5 % off both readings of its unit fails the test instead of guessing.
void busbw_table_run(const nlohmann::json& r, std::vector<analyze::judge::NcclTestsRun>& runs) {
  analyze::judge::NcclTestsRun run;
  run.test_name = r["test"];
  const bool in_place = r.value("busbw_side", "") == "in-place";
  std::istringstream in(r["busbw_table_verbatim"].get<std::string>());
  std::string line;
  std::uint64_t size = 1024;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream cs(line);
    for (std::string c; std::getline(cs, c, '|');) {
      auto t = std::string(core::trim(c));
      if (!t.empty()) cells.push_back(t);
    }
    if (cells.size() < 2 || cells[0].empty() || !std::isdigit(static_cast<unsigned char>(cells[0][0]))) continue;
    const char unit = cells[0].back();
    const int pow = unit == 'K' ? 1 : unit == 'M' ? 2 : unit == 'G' ? 3 : 0;
    const double label = std::stod(cells[0]);
    const double dec = label * std::pow(1000.0, pow), bin = label * std::pow(1024.0, pow);
    const double off = std::min(std::fabs(dec / size - 1), std::fabs(bin / size - 1));
    ASSERT_LE(off, 0.05) << r["id"] << ": size label " << cells[0] << " is not " << size << " bytes";
    analyze::judge::NcclTestsRow row;
    row.size = size;
    (in_place ? row.ip : row.oop).busbw_gbps = std::stod(cells[1]);
    run.rows.push_back(row);
    size *= 2;
  }
  ASSERT_FALSE(run.rows.empty()) << r["id"];
  runs.push_back(std::move(run));
}

void judge_record(const nlohmann::json& r, std::map<std::string, std::string>& sp, JudgedRecord& out) {
  std::string id = r["id"];
  ASSERT_TRUE(sp.count(id)) << "no spec for " << id << " in tests/data/model/nccl_tests_specs.tsv";
  auto spec = parse_spec(sp[id]);
  ASSERT_TRUE(spec.ok()) << id << ": " << spec.status().message();
  if (r.contains("output_verbatim")) {
    out.runs = analyze::judge::parse_nccl_tests(r["output_verbatim"].get<std::string>(), id);
    ASSERT_TRUE(out.runs.ok()) << id << ": " << out.runs.status().message();
  } else {
    ASSERT_NO_FATAL_FAILURE(busbw_table_run(r, *out.runs));
  }
  auto& o = out.opt;
  o.spec = *spec;
  o.coll = parse_collective(r["test"].get<std::string>());
  if (r.contains("nccl_version") && r["nccl_version"].is_string()) {
    std::string v = r["nccl_version"];
    if (auto vv = NcclVersion::parse(v.substr(0, v.find(' ')))) o.version = *vv;
  }
  // e.g. NCCL_ALGO=RING NCCL_PROTO=simple on the p4d run: its table-only output does not carry
  // NCCL's "set by environment" lines.
  if (r.contains("env_vars") && r["env_vars"].is_object()) {
    const auto& env = r["env_vars"];
    if (env.contains("NCCL_ALGO") && env["NCCL_ALGO"].is_string()) o.nccl_algo = env["NCCL_ALGO"];
    if (env.contains("NCCL_PROTO") && env["NCCL_PROTO"].is_string()) o.nccl_proto = env["NCCL_PROTO"];
  }
  out.js = analyze::judge::judge_runs(*out.runs, o);
  ASSERT_EQ(out.js.size(), 1u) << id;
}

// A judged record against its recorded verdict: per size, measured vs predicted busbw and the
// model's pick ('*' marks the bandwidth-bound sizes -- NCCL's latency term <= 1/4 of the
// predicted time -- that the judge uses); the headline is the largest size with both numbers.
struct Scored {
  std::optional<double> largest_err;  // |measured / predicted - 1| at the largest size
  std::vector<double> bw_errs;        // the same at every bandwidth-bound size
  bool bad = false, labelled = false, agrees = false;
};

// `must_agree`: a disagreement with the recorded verdict fails the test (the first set); the
// held-out set pins its verdicts instead, disagreements included.
Scored score_busbw(const std::string& id, const std::string& label, const analyze::judge::Judgement& j,
                   bool must_agree = true) {
  Scored sc;
  sc.bad = label.rfind("bad", 0) == 0;
  const bool good = label.rfind("good", 0) == 0;
  std::optional<double> meas, exp;
  for (const auto& row : j.rows) {
    if (!row.measured_busbw || !row.expected_busbw) continue;
    meas = row.measured_busbw;
    exp = row.expected_busbw;
    double se = *row.measured_busbw / *row.expected_busbw - 1.0;
    if (row.counted) sc.bw_errs.push_back(std::fabs(se));
    std::printf("[validation-size] %-30s %12llu %9.2f %9.2f %+7.1f %% %s %-8s %-6s %2d ch\n", id.c_str(),
                static_cast<unsigned long long>(row.size), *row.measured_busbw, *row.expected_busbw, se * 100,
                row.counted ? "*" : " ", row.algo.c_str(), row.proto.c_str(), row.nchannels);
  }
  if (!meas || !exp) return sc;
  sc.largest_err = std::fabs(*meas / *exp - 1.0);
  if (!sc.bw_errs.empty())
    std::printf("[validation-size] %-30s bandwidth-bound sizes: n=%zu median |err| %.1f %%\n", id.c_str(),
                sc.bw_errs.size(), pct(sc.bw_errs, 0.5) * 100);
  if (sc.bad || good) {
    sc.labelled = true;
    sc.agrees = sc.bad ? j.kind == analyze::judge::VerdictKind::Slow : j.kind == analyze::judge::VerdictKind::Ok;
    if (must_agree) {
      EXPECT_TRUE(sc.agrees) << id << ": recorded '" << label << "', judged '" << j.verdict << "'";
    }
  }
  std::printf("[validation] %-38s NCCL %-7s measured %8.2f predicted %8.2f GB/s  |err| %5.1f %%  %s  (%s)\n",
              id.c_str(), j.nccl_version.c_str(), *meas, *exp, *sc.largest_err * 100, j.verdict.c_str(), label.c_str());
  return sc;
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
    JudgedRecord jr;
    ASSERT_NO_FATAL_FAILURE(judge_record(r, sp, jr));
    auto& runs = jr.runs;
    auto& o = jr.opt;
    auto& js = jr.js;
    Options mo;
    mo.nccl_algo = runs->front().hints.nccl_algo.empty() ? o.nccl_algo : runs->front().hints.nccl_algo;
    mo.nccl_proto = runs->front().hints.nccl_proto.empty() ? o.nccl_proto : runs->front().hints.nccl_proto;
    const NcclVersion used = NcclVersion::parse(js.at(0).nccl_version).value_or(NcclVersion{2, 27, 7});
    auto nccl_model = Model::build(*o.spec, used, mo);
    if (!nccl_model.ok()) nccl_model = Model::build(*o.spec, used);
    ASSERT_TRUE(nccl_model.ok()) << id;
    const auto& j = js[0];
    const Scored sc = score_busbw(id, r["verdict"]["label"], j);
    ASSERT_TRUE(sc.largest_err) << id;
    const bool bad = sc.bad;
    if (!bad) err_sizes_not_bad.insert(err_sizes_not_bad.end(), sc.bw_errs.begin(), sc.bw_errs.end());
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
    err_all.push_back(*sc.largest_err);
    if (!bad) err_not_bad.push_back(*sc.largest_err);
    labelled += sc.labelled;
    agree += sc.agrees;
  }
  double med = pct(err_not_bad, 0.5), p90 = pct(err_not_bad, 0.9);
  std::printf("[validation] not-bad records, every bandwidth-bound size: n=%zu median |err| %.1f %%, p90 %.1f %%\n",
              err_sizes_not_bad.size(), pct(err_sizes_not_bad, 0.5) * 100, pct(err_sizes_not_bad, 0.9) * 100);
  auto regime = [](const char* what, const std::vector<double>& v) {
    print_dist("[validation] not-bad records,", what, v);
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
  // Measured on 2026-12-07 (docs/MODEL.md (b), with aws-batch-p5-2node as the one-node run its
  // table shows): keep or improve. Largest size: median 9.3 %, p90 38.5 %; every
  // bandwidth-bound size: median 17.8 % (was 15.1 %, 38.5 %, 16.9 % with it read as 2 nodes).
  EXPECT_LE(med, 0.10);
  EXPECT_LE(p90, 0.40);
  EXPECT_LE(pct(err_sizes_not_bad, 0.5), 0.18);
  EXPECT_EQ(agree, labelled);
  // Every size by time, measured 2026-12-07 (docs/MODEL.md (b), the pipeline model, p5 as one
  // node): median 32.6 %, < 1 MB 34.5 %, 1-64 MB 50.5 %; the pipeline model must not be worse
  // than NCCL's own.
  EXPECT_LE(pct(err_every, 0.5), 0.33);
  EXPECT_LE(pct(err_small, 0.5), 0.35);
  EXPECT_LE(pct(err_mid, 0.5), 0.51);
  EXPECT_LE(pct(err_every, 0.5), pct(nerr_every, 0.5) + 1e-9);
}

namespace {

// A held-out set judged: per record the verdict and the error at the largest size and at every
// bandwidth-bound size. A record given as nccl-tests text must parse completely: the judge's
// parser reads as many rows as collect.py counted in the table (`parsed.rows`).
struct HeldOutSet {
  std::vector<double> largest, sizes;  // records not labelled bad
  std::map<std::string, std::string> verdicts;
  int labelled = 0, agree = 0;
};

void judge_held_out(const std::vector<nlohmann::json>& recs, std::map<std::string, std::string>& sp,
                    HeldOutSet& out) {
  for (const auto& r : recs) {
    std::string id = r["id"];
    JudgedRecord jr;
    ASSERT_NO_FATAL_FAILURE(judge_record(r, sp, jr));
    if (r.contains("output_verbatim") && r.contains("parsed") && r["parsed"].contains("rows")) {
      std::size_t rows = 0;
      for (const auto& run : *jr.runs) rows += run.rows.size();
      EXPECT_EQ(rows, r["parsed"]["rows"].get<std::size_t>()) << id << ": rows parsed vs the table's rows";
    }
    const Scored sc = score_busbw(id, r["verdict"]["label"], jr.js[0], false);
    ASSERT_TRUE(sc.largest_err) << id;
    out.verdicts[id] = std::string(analyze::judge::name(jr.js[0].kind));
    out.labelled += sc.labelled;
    out.agree += sc.agrees;
    if (sc.bad) continue;
    out.largest.push_back(*sc.largest_err);
    out.sizes.insert(out.sizes.end(), sc.bw_errs.begin(), sc.bw_errs.end());
  }
}

// A judged held-out set's lines: its two error distributions, each verdict, the agreement.
void print_held_out(const char* tag, const std::string& name, const HeldOutSet& set) {
  print_dist(tag, (name + ", largest size").c_str(), set.largest);
  print_dist(tag, (name + ", bandwidth-bound sizes").c_str(), set.sizes);
  for (const auto& [id, v] : set.verdicts) std::printf("%s verdict %-40s %s\n", tag, id.c_str(), v.c_str());
  std::printf("%s verdicts agree with the recorded label on %d of %d labelled runs\n", tag, set.agree, set.labelled);
}

// The not-bad records of the first set (nccl_tests_results.jsonl), for the pooled numbers.
void add_first_set_not_bad(std::map<std::string, std::string>& sp, std::vector<double>& largest,
                           std::vector<double>& sizes) {
  for (const auto& r : records("nccl_tests_results.jsonl")) {
    std::string label = r["verdict"]["label"];
    if (label.rfind("bad", 0) == 0) continue;
    JudgedRecord jr;
    ASSERT_NO_FATAL_FAILURE(judge_record(r, sp, jr));
    const Scored sc = score_busbw(r["id"], label, jr.js[0], false);
    ASSERT_TRUE(sc.largest_err);
    largest.push_back(*sc.largest_err);
    sizes.insert(sizes.end(), sc.bw_errs.begin(), sc.bw_errs.end());
  }
}

// A held-out records file: $ENV_VAR when set, else ../shared/data/FILE.
std::vector<nlohmann::json> held_out_records(const char* env_var, const char* file) {
  const char* env = std::getenv(env_var);
  return read_jsonl(env && *env ? std::string(env) : std::string(NCDX_SHARED_DIR) + "/data/" + file);
}

}  // namespace

// (b) on a held-out set: 15 more published runs, 12 nccl-tests outputs and 3 busbw tables
// (../shared/data/published_nccl_tests.jsonl; NCDX_PUBLISHED_NCCL_TESTS names another copy), their clusters written into
// nccl_tests_specs.tsv before any prediction was looked at, and never used to set a constant.
// Pins each run's verdict and the error distribution measured on 2026-12-07 (docs/MODEL.md (b),
// held-out set), alone and pooled with the not-bad records of nccl_tests_results.jsonl.
TEST(ModelValidation, HeldOutPublishedRuns) {
  auto recs = held_out_records("NCDX_PUBLISHED_NCCL_TESTS", "published_nccl_tests.jsonl");
  if (recs.empty()) GTEST_SKIP() << "published_nccl_tests.jsonl not found (rebuild it: bench/published_nccl_tests/collect.py)";
  auto sp = specs();
  HeldOutSet set;
  ASSERT_NO_FATAL_FAILURE(judge_held_out(recs, sp, set));
  const auto& largest = set.largest;
  const auto& sizes = set.sizes;
  std::vector<double> pooled = largest, pooled_sizes = sizes;
  ASSERT_NO_FATAL_FAILURE(add_first_set_not_bad(sp, pooled, pooled_sizes));
  print_held_out("[validation-heldout]", "held-out", set);
  print_dist("[validation-heldout]", "pooled, largest size", pooled);
  print_dist("[validation-heldout]", "pooled, bandwidth-bound sizes", pooled_sizes);
  // Measured 2026-12-07 (docs/MODEL.md (b), held-out set): keep or improve. The "slow" verdict on
  // a run its source cites as reference is a disagreement, pinned as measured: the 2020 DGX-1
  // RoCE run (NCCL 2.5.6 per its doc) plateaus at Ring's bound where the model's tables pick Tree.
  // The cluster-toolkit A3 High run is judged with the NCCL_ALGO=Ring NCCL_PROTO=Simple its
  // script sets (bench/published_nccl_tests/README.md): ok at 71 % from 32 MB, while GPUDirect-
  // TCPX delivers 71-76 % of 4 x 200 Gb/s at the largest sizes (no plugin efficiency in the model).
  const std::map<std::string, std::string> expected = {
      {"awsome-p4de-2node-allreduce", "ok"},         {"awsome-p5-2node-allreduce-16g", "ok"},
      {"azure-nda100v4-1node-allreduce", "ok"},      {"azure-ndh100v5-1node-allreduce", "ok"},
      {"azure-ndh200v5-1node-allreduce", "ok"},      {"deepops-dgx1-v100-2node-roce-allreduce", "slow"},
      {"deepops-dgxa100-2node-hdr-allreduce", "ok"}, {"deepops-dgxa100-4node-allreduce", "ok"},
      {"dstack-gcp-a3high-2node-allgather", "slow"}, {"dstack-gcp-a3mega-2node-allgather", "ok"},
      {"dstack-gcp-a4-b200-2node-allreduce", "ok"},  {"dstack-nebius-h100-2node-allreduce", "ok"},
      {"gcptk-a3high-2node-allgather", "ok"},        {"gcptk-a3mega-2node-allgather", "ok"},
      {"gcptk-a3ultra-2node-allgather", "ok"},
  };
  EXPECT_EQ(set.verdicts, expected);
  EXPECT_EQ(set.labelled, 8);
  EXPECT_GE(set.agree, 7);
  // Largest size: held-out median 3.4 %, p90 30.3 % (n = 15); pooled with the 7 not-bad runs
  // of the first set 5.8 % / 32.8 % (n = 22). Bandwidth-bound sizes: held-out 10.7 % / 46.9 %
  // (n = 129), pooled 12.6 % / 48.4 % (n = 180).
  EXPECT_LE(pct(largest, 0.5), 0.04);
  EXPECT_LE(pct(largest, 0.9), 0.31);
  EXPECT_LE(pct(pooled, 0.5), 0.06);
  EXPECT_LE(pct(pooled, 0.9), 0.34);
  EXPECT_LE(pct(sizes, 0.5), 0.115);
  EXPECT_LE(pct(sizes, 0.9), 0.48);
  EXPECT_LE(pct(pooled_sizes, 0.5), 0.13);
}

// (b) on a second held-out set: 12 published runs from 5 more repositories
// (../shared/data/published_nccl_tests_set2.jsonl, rebuilt by bench/published_nccl_tests/collect.py
// --manifest manifest_set2.tsv; NCDX_PUBLISHED_NCCL_TESTS_2 names another copy), collected as the
// first and with their specs ("Held-out set 2" in nccl_tests_specs.tsv) committed before any
// prediction was looked at. Pins the verdicts and the distribution measured on 2026-12-07
// (docs/MODEL.md (b), held-out set 2), alone and pooled with set 1 and the first set's not-bad runs
// (the pooled numbers need set 1's file too).
TEST(ModelValidation, HeldOutPublishedRuns2) {
  auto recs = held_out_records("NCDX_PUBLISHED_NCCL_TESTS_2", "published_nccl_tests_set2.jsonl");
  if (recs.empty())
    GTEST_SKIP() << "published_nccl_tests_set2.jsonl not found (rebuild it: bench/published_nccl_tests/collect.py "
                    "--manifest bench/published_nccl_tests/manifest_set2.tsv)";
  auto sp = specs();
  HeldOutSet set;
  ASSERT_NO_FATAL_FAILURE(judge_held_out(recs, sp, set));
  print_held_out("[validation-heldout2]", "held-out 2", set);
  auto line = [](const char* what, const std::vector<double>& v) { print_dist("[validation-heldout2]", what, v); };
  auto set1 = held_out_records("NCDX_PUBLISHED_NCCL_TESTS", "published_nccl_tests.jsonl");
  std::optional<HeldOutSet> both;
  if (!set1.empty()) {
    both.emplace();
    ASSERT_NO_FATAL_FAILURE(judge_held_out(set1, sp, *both));
    both->largest.insert(both->largest.end(), set.largest.begin(), set.largest.end());
    both->sizes.insert(both->sizes.end(), set.sizes.begin(), set.sizes.end());
    line("held-out 1+2, largest size", both->largest);
    line("held-out 1+2, bandwidth-bound sizes", both->sizes);
    std::vector<double> pooled = both->largest, pooled_sizes = both->sizes;
    ASSERT_NO_FATAL_FAILURE(add_first_set_not_bad(sp, pooled, pooled_sizes));
    line("pooled (held-out 1+2, first set not bad), largest size", pooled);
    line("pooled (held-out 1+2, first set not bad), bandwidth-bound sizes", pooled_sizes);
    EXPECT_LE(pct(pooled, 0.5), 0.08);  // measured 7.5 % / 51.3 % (n = 34), sizes 14.4 % (n = 264)
    EXPECT_LE(pct(pooled, 0.9), 0.52);
    EXPECT_LE(pct(pooled_sizes, 0.5), 0.15);
  } else {
    std::printf("[validation-heldout2] set 1 (published_nccl_tests.jsonl) not found: no pooled numbers\n");
  }
  // Measured 2026-12-07 (docs/MODEL.md (b), held-out set 2): keep or improve. Verdicts as judged:
  // the 5 labelled runs (OCI's H100 pair, Azure ML's two baselines, the two p5 expected results)
  // agree; the 4 slow ones carry no label -- g4dn over sockets and over EFA without GPUDirect RDMA
  // (32 % and 44 % of 50 Gb/s), CoreWeave's 16-node A100 run of 2022 (30 %) and its 4-node SHARP
  // run of 2022 (59 %), while the same cluster's 2023 run is ok (83 %).
  const std::map<std::string, std::string> expected = {
      {"awsdoeks-g4dn-2node-efa-allreduce", "slow"},         {"awsdoeks-g4dn-2node-socket-allreduce", "slow"},
      {"awsdoeks-p5-1node-allreduce", "ok"},                 {"awsdoeks-p5-2node-allreduce", "ok"},
      {"azureml-nd40rsv2-v100-2node-allreduce", "ok"},       {"azureml-nd96amsr-a100-2node-allreduce", "ok"},
      {"coreweave-a100-16node-allreduce-2022", "slow"},      {"coreweave-a100-4node-allreduce-2023", "ok"},
      {"coreweave-a100-4node-sharp-allreduce-2022", "slow"}, {"coreweave-h100-12node-sharp-allreduce", "ok"},
      {"dgxc-h100-1node-allreduce", "ok"},                   {"oci-h100-2node-allreduce", "ok"},
  };
  EXPECT_EQ(set.verdicts, expected);
  EXPECT_EQ(set.labelled, 5);
  EXPECT_GE(set.agree, 5);
  // Largest size: set 2 median 14.0 %, p90 65.3 % (n = 12); bandwidth-bound sizes 22.8 % / 68.9 %
  // (n = 84). With set 1: 6.0 % / 49.7 % (n = 27), sizes 13.9 % / 65.5 % (n = 213); pooled with
  // the first set's 7 not-bad runs 7.5 % / 51.3 % (n = 34), sizes 14.4 % / 64.0 % (n = 264).
  EXPECT_LE(pct(set.largest, 0.5), 0.145);
  EXPECT_LE(pct(set.largest, 0.9), 0.66);
  EXPECT_LE(pct(set.sizes, 0.5), 0.235);
  EXPECT_LE(pct(set.sizes, 0.9), 0.695);
  if (both) {
    EXPECT_LE(pct(both->largest, 0.5), 0.065);
    EXPECT_LE(pct(both->largest, 0.9), 0.50);
    EXPECT_LE(pct(both->sizes, 0.5), 0.145);
  }
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
