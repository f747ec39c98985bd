#pragma once
// Judging an nccl-tests (or ncdx bench) result against NCCL's cost model: measured busbw per
// size vs the busbw the model expects for that cluster, a verdict (ok / slow / wrong results /
// unknown) and the likely causes the topology and the log suggest.
#include <optional>
#include <string>
#include <vector>

#include "analyze/judge/nccl_tests_parse.h"
#include "core/outcome.h"
#include "model/cost/cluster_spec.h"
#include "model/cost/types.h"

namespace ncdx::analyze::judge {

enum class VerdictKind { Ok, Slow, Wrong, Unknown };
std::string_view name(VerdictKind k);   // "ok", "slow", "wrong results", "unknown"
// ok PASS, slow WARN, wrong results FAIL, unknown SKIP (nothing to compare against).
core::Outcome outcome_of(VerdictKind k);

struct JudgedRow {
  std::uint64_t size = 0;
  std::optional<double> measured_busbw;   // out-of-place, else in-place
  std::optional<double> expected_busbw;
  std::optional<double> ratio;            // measured / expected
  std::string algo, proto;                // the model's pick for this size
  int nchannels = 0;                      // channels NCCL launches for it
  bool counted = false;                   // used for the verdict (bandwidth-bound sizes)
  bool wrong = false;                     // #wrong > 0 (or old error column above tolerance)
};

struct Judgement {
  std::string test_name;
  std::optional<model::cost::Collective> coll;
  std::optional<model::cost::ClusterSpec> spec;   // what was judged against
  std::string spec_source;                // "--spec", "inferred from the output", ""
  std::string nccl_version;               // the model version used
  VerdictKind kind = VerdictKind::Unknown;
  std::string verdict;                    // "slow: 31 % of expected at >= 64 MB"
  std::optional<double> pct_of_expected;  // median ratio x 100 over the counted sizes
  std::uint64_t from_size = 0;            // smallest counted size
  std::optional<double> avg_busbw;
  std::vector<std::string> causes;        // likely causes, most likely first
  // What the table's own columns say when the output does not (table_shape.h): the collective
  // inferred, or a rank count that differs from the spec judged against.
  std::vector<std::string> notes;
  std::vector<JudgedRow> rows;
  int first_line = 0;
};

struct JudgeOptions {
  std::optional<model::cost::ClusterSpec> spec;       // --spec; else inferred from the run
  std::optional<model::cost::NcclVersion> version;    // --nccl; else the run's, else 2.27.7
  std::optional<model::cost::Collective> coll;        // --coll: when the output does not name its test
  double slow_below = 0.70;                           // ratio under which a run is slow
  // NCCL_ALGO / NCCL_PROTO the run was made with (--algo/--proto, or a record's environment),
  // used when the output does not carry NCCL's own "NCCL_ALGO set by environment" line.
  std::string nccl_algo, nccl_proto;
};

// One judgement per run in the file.
std::vector<Judgement> judge_runs(const std::vector<NcclTestsRun>& runs, const JudgeOptions& opt);

// The spec an nccl-tests output implies: hosts -> nodes, ranks/hosts -> GPUs per node, the
// device name -> GPU model. No NIC information is printed, so multi-node runs need --spec.
std::optional<model::cost::ClusterSpec> infer_spec(const NcclTestsRun& run, std::string& why_not);

// The GPU fields of `s` (gpu, sm, NVLinks, NVSwitch, PCIe) from a device name as NVML or
// nccl-tests print it ("NVIDIA H100 80GB HBM3"), through knowledge/gpu_models; needs
// s.gpus_per_node set first (NVSwitch is assumed from 3 GPUs with >= 12 NVLinks). False when
// the name is not a known model.
bool set_gpu_model(model::cost::ClusterSpec& s, const std::string& device_name);

}  // namespace ncdx::analyze::judge
