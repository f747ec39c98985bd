#pragma once
// `ncdx doctor --cluster --nccl` (issue #14): after the TCP matrix, one NCCL all-reduce over
// every GPU of every node, run by the `ncdx bench` code (measure/collective: the nccl engine,
// the nccl-tests loop, the MPI harness), and judged per size against the busbw NCCL's cost model
// expects (model/cost) for a spec derived from the gathered node snapshots, by the same judge as
// `ncdx model --judge` (analyze/judge).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analyze/cluster/consistency.h"
#include "analyze/judge/judge.h"
#include "core/finding.h"
#include "measure/collective/bench_run.h"
#include "model/cost/cluster_spec.h"

namespace ncdx::cluster {
class Comm;
}

namespace ncdx::analyze {

// The NCCL path (measure/collective/nccl_engine.cc) has only run against the stand-in libraries
// of tests/measure/fake: the development machine has no GPU. Every report says so until a run
// on GPUs is recorded in docs/CLUSTER.md ("--nccl": what is verified).
inline constexpr bool kNcclVerifiedOnHardware = false;

struct ClusterNcclOptions {
  bool enabled = false;  // --nccl
  // Per-rank buffer sizes (nccl-tests' size column). The verdict counts only bandwidth-bound
  // sizes (judge.cc); `ncdx model --spec nodes=64,gpus=8,gpu=H100,nic=8x400G-IB -b 16M -e 1G -f 8`
  // expects 114 / 260 / 310 GB/s busbw at 16 MB / 128 MB / 1 GB, so 1 GiB is near the plateau
  // and the smaller two show whether mid sizes collapse. 3 sizes x 2 passes x 20 iterations.
  std::vector<std::size_t> sizes = {std::size_t{16} << 20, std::size_t{128} << 20, std::size_t{1} << 30};
  int iters = 20, warmup = 5;
  std::optional<model::cost::ClusterSpec> spec;  // --nccl-spec: instead of the derived spec
};

struct ClusterNccl {
  bool requested = false;
  bool ran = false;               // the all-reduce ran and `bench` holds its rows (rank 0)
  std::string skipped;            // "skipped: ..." when it could not start (no libnccl, no GPU)
  std::string error;              // "failed: ..." when NCCL or CUDA failed after starting
  std::vector<int> gpus_per_node; // communicator ranks per node, in node order
  measure::BenchResult bench;
  std::optional<model::cost::ClusterSpec> spec;  // what the expectation was computed for
  std::string spec_source;        // "--nccl-spec", "derived from the node snapshots"
  std::vector<std::string> spec_notes;  // what was derived from what, and what was assumed
  std::string spec_why_not;       // no spec: why
  judge::Judgement judgement;     // verdict, per-size expected busbw and ratio
};

// The spec of the cluster the all-reduce ran on: nodes and GPUs per node as measured, the GPU
// model from NVML's names (knowledge/gpu_models), the network from the RDMA ports that are ACTIVE
// (count and rate per node, InfiniBand or RoCE by link layer) or, without any, NCCL's socket
// transport over the interface NCCL would pick at its link speed. Null with `why_not` when a
// part cannot be known (then give --nccl-spec).
struct DerivedSpec {
  std::optional<model::cost::ClusterSpec> spec;
  std::vector<std::string> notes;
  std::string why_not;
};
// `shape_from`: where nodes and GPUs per node came from, for the first note.
DerivedSpec spec_from_snapshots(const std::vector<NodeSnapshot>& nodes, const std::vector<int>& gpus_per_node,
                                const std::string& shape_from = "as the all-reduce ran");

// Rank 0: fills spec*, judgement from r.bench (a no-op when it did not run). The verdict's
// threshold is the judge's (JudgeOptions::slow_below).
void judge_cluster_nccl(ClusterNccl& r, const std::vector<NodeSnapshot>& nodes, const ClusterNcclOptions& opt);

// The finding for a slow or wrong all-reduce, or one that failed after starting; none when it
// was ok, unknown, skipped or not asked for.
std::optional<core::Finding> nccl_finding(const ClusterNccl& r);

// Collective over `comm`: every rank calls it after the matrix. ranks_of[k]: the ranks of node
// k (the node's GPUs are dealt round-robin over them); hosts[k] its label.
ClusterNccl run_cluster_nccl(cluster::Comm& comm, const std::vector<std::vector<int>>& ranks_of,
                             const std::vector<std::string>& hosts, const ClusterNcclOptions& opt);

}  // namespace ncdx::analyze
