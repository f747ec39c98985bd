// End-to-end check of `ncdx tune --model`: the tuner file it wrote, loaded by the real
// libnccl-tuner-ncdx.so (dlopen, ncclTunerPlugin_v5 init/getCollInfo/finalize as NCCL calls
// them), with NCCL-shaped cost tables - NCCL's own times from the cost model for the
// communicator of the report (time per entry, NCCL_ALGO_PROTO_IGNORE = -1 where NCCL disabled
// the entry). At every bucket's size, both edges of every bucket and one byte outside every rule:
//  * inside a rule: exactly the rule's entry is 0, every other entry as NCCL gave it, nChannels
//    left 0 (NCCL's count), and NCCL's argmin (ties to the lower index) is the rule's entry;
//  * elsewhere: the table and nChannels untouched, NCCL's argmin is NCCL's own pick.
// Also: the rules in the file are the report's (JSON "rules"), and at least MIN_RULES of them.
// Usage: ncdx_tuner_model_check PLUGIN.so TUNE.json TUNER_FILE MIN_RULES
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "ncdx_tuner_abi.h"
}

#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"
#include "model/tune/nccl_tuner_file.h"

namespace mc = ncdx::model::cost;
namespace mt = ncdx::model::tune;

namespace {

int g_failures = 0;
void fail(const std::string& m) {
  if (++g_failures <= 20) std::fprintf(stderr, "FAIL: %s\n", m.c_str());
}
void quiet_logger(int, unsigned long, const char*, int, const char*, ...) {}

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// NCCL's argmin over the table (enqueue.cc topoGetAlgoInfo: the lowest time, ties to the lower
// index; ignored entries skipped).
int argmin(const std::vector<float>& t) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(t.size()); ++i)
    if (t[i] >= 0 && (best < 0 || t[i] < t[best])) best = i;
  return best;
}

// The CSV's tokens in NCCL's index order (plugins/tuner/example/plugin.c @ v2.30.7-1), written
// out here again so the check does not trust the writer's own table.
const std::vector<std::string> kAlgos = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
const std::vector<std::string> kProtos = {"ll", "ll128", "simple"};
int index_of(const std::vector<std::string>& v, const std::string& s) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == s) return static_cast<int>(i);
  return -1000;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s PLUGIN.so TUNE.json TUNER_FILE MIN_RULES\n", argv[0]);
    return 2;
  }
  const auto report = nlohmann::json::parse(slurp(argv[2]));
  const std::string csv = slurp(argv[3]);
  const std::size_t min_rules = std::strtoul(argv[4], nullptr, 10);
  if (report.at("backend") != "model" || report.at("predicted") != true) fail("report is not a predicted (--model) table");

  auto rules = mt::parse_nccl_tuner_csv(csv);
  if (!rules.ok()) {
    std::fprintf(stderr, "FAIL: tuner file: %s\n", rules.status().message().c_str());
    return 1;
  }
  if (rules->size() != report.at("rules").size()) fail("the file has " + std::to_string(rules->size()) + " rules, the report " + std::to_string(report.at("rules").size()));
  if (rules->size() < min_rules) fail("expected at least " + std::to_string(min_rules) + " rules, got " + std::to_string(rules->size()));
  for (std::size_t i = 0; i < rules->size() && i < report.at("rules").size(); ++i) {
    const auto& j = report.at("rules")[i];
    const auto& r = (*rules)[i];
    if (j.at("min_bytes") != r.min_bytes || j.at("max_bytes") != r.max_bytes || mt::nccl_tuner_algo_token(j.at("algo").get<std::string>()) != r.algo ||
        mt::nccl_tuner_proto_token(j.at("proto").get<std::string>()) != r.proto || r.channels != -1)
      fail("rule " + std::to_string(i + 1) + " differs between the file and the report");
  }

  auto spec = mc::parse_spec(report.at("spec").get<std::string>());
  auto ver = mc::NcclVersion::parse(report.at("nccl").get<std::string>());
  if (!spec.ok() || !ver) {
    std::fprintf(stderr, "FAIL: report's spec or version does not parse\n");
    return 1;
  }
  mc::Options nccl_opts;  // NCCL's own view: uncalibrated, with the jobs' NCCL_ALGO/NCCL_PROTO
  if (report.at("nccl_algo").is_string()) nccl_opts.nccl_algo = report.at("nccl_algo");
  if (report.at("nccl_proto").is_string()) nccl_opts.nccl_proto = report.at("nccl_proto");
  auto nccl = mc::Model::build(*spec, *ver, nccl_opts);
  if (!nccl.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", nccl.status().message().c_str());
    return 1;
  }

  void* so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!so) {
    std::fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  const auto* tuner = static_cast<const ncdxTuner_v5*>(dlsym(so, "ncclTunerPlugin_v5"));
  if (!tuner) {
    std::fprintf(stderr, "FAIL: no ncclTunerPlugin_v5\n");
    return 1;
  }
  setenv("NCDX_TUNER_FILE", argv[3], 1);
  ncdxTunerConstants_v5 k{};
  ncdxNvlDomainInfo_v5 nvl{spec->nodes, spec->gpus_per_node, spec->gpus_per_node};
  void* ctx = nullptr;
  if (tuner->init(&ctx, 1, static_cast<std::size_t>(spec->nranks()), static_cast<std::size_t>(spec->nodes), quiet_logger, &nvl, &k) != 0 || !ctx) {
    std::fprintf(stderr, "FAIL: plugin init\n");
    return 1;
  }

  int checked = 0, inside = 0;
  for (const auto& c : report.at("collectives")) {
    auto coll = mc::parse_collective(c.at("collective").get<std::string>());
    auto mcoll = ncdx::measure::parse_collective(c.at("collective").get<std::string>());
    if (!coll || !mcoll) {
      fail("unknown collective in the report");
      continue;
    }
    std::set<std::uint64_t> sizes;
    for (const auto& b : c.at("buckets")) {
      sizes.insert(b.at("bytes").get<std::uint64_t>());
      sizes.insert(b.at("min_bytes").get<std::uint64_t>());
      sizes.insert(b.at("max_bytes").get<std::uint64_t>());
    }
    for (const auto& r : *rules)
      if (r.coll == *mcoll) {
        if (r.min_bytes > 0) sizes.insert(r.min_bytes - 1);
        sizes.insert(r.max_bytes + 1);
      }
    for (auto s : sizes) {
      std::vector<float> table;
      for (const auto& cell : nccl->cost_table(*coll, s)) table.push_back(cell.time_us < 0 ? NCDX_ALGO_PROTO_IGNORE : static_cast<float>(cell.time_us));
      const auto before = table;
      int nch = 0;
      tuner->getCollInfo(ctx, static_cast<int>(*coll), s, 1, reinterpret_cast<float**>(table.data()), mc::kNumAlgos, mc::kNumProtos, 0, &nch);
      ++checked;
      const mt::NcclTunerRule* hit = nullptr;
      for (const auto& r : *rules)
        if (r.coll == *mcoll && s >= r.min_bytes && s <= r.max_bytes) {
          hit = &r;
          break;
        }
      const std::string where = c.at("collective").get<std::string>() + " " + std::to_string(s) + " B";
      if (nch != 0) fail(where + ": nChannels set to " + std::to_string(nch));
      const int got = argmin(table);
      if (hit) {
        ++inside;
        const int want = index_of(kAlgos, hit->algo) * mc::kNumProtos + index_of(kProtos, hit->proto);
        for (int i = 0; i < static_cast<int>(table.size()); ++i) {
          if (i == want && table[i] != 0.0f) fail(where + ": the rule's entry is not 0");
          if (i != want && table[i] != before[i]) fail(where + ": entry " + std::to_string(i) + " changed outside the rule");
        }
        if (got != want) fail(where + ": NCCL would pick entry " + std::to_string(got) + ", not the rule's " + std::to_string(want));
      } else {
        if (table != before) fail(where + ": table changed outside every rule");
        const auto pick = nccl->predict(*coll, s);
        const int own = static_cast<int>(pick.algo) * mc::kNumProtos + static_cast<int>(pick.proto);
        if (pick.available && got != own) fail(where + ": NCCL's argmin " + std::to_string(got) + " is not its own pick " + std::to_string(own));
      }
    }
  }
  tuner->finalize(ctx);
  std::printf("%d sizes checked, %d inside %zu rules, %d failures\n", checked, inside, rules->size(), g_failures);
  return g_failures ? 1 : 0;
}
