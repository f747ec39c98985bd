// Effective bus bandwidth per collective instance and its expectation (parts.h add_busbw,
// benchmark_stats). busbw is nccl-tests' number (doc/PERFORMANCE.md and src/<coll>.cu *GetBw at
// NVIDIA/nccl-tests a0b82b2): algbw = size / time, busbw = algbw × the collective's factor, so a
// trace's collective and an nccl-tests row of the same size can be compared with each other and
// with what `ncdx model` predicts for that size.
#include <algorithm>
#include <map>
#include <tuple>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/parts.h"
#include "model/cost/predict.h"
#include "model/cost/types.h"

namespace ncdx::analyze::timeline::detail {
namespace mc = model::cost;
namespace {

// nccl-tests' size column for a traced message. PyTorch's record_param_comms "In msg nelems" (and
// gloo's Input Dims) count the input tensor: for all_gather that is one rank's share, while
// nccl-tests prints the gathered total (all_gather.cu AllGatherGetCollByteCount: recvcount =
// base × nranks; AllGatherGetBw counts count × typesize × nranks); reduce_scatter's input is
// already the total. NCCL Inspector's coll_msg_size_bytes is one rank's share for AllGather and
// ReduceScatter alike (NVIDIA/nccl 5067397c plugins/profiler/inspector/inspector.cc
// inspectorComputeOpBw multiplies both by nranks).
std::uint64_t nccl_tests_size(mc::Collective c, std::int64_t bytes, int n, CommSource src) {
  auto b = static_cast<std::uint64_t>(bytes);
  if (c == mc::Collective::AllGather) return b * static_cast<std::uint64_t>(n);
  if (c == mc::Collective::ReduceScatter && src == CommSource::inspector) return b * static_cast<std::uint64_t>(n);
  return b;
}

struct Sample {
  double transfer_us = 0;
  double busbw = 0;
  std::optional<double> expected;
  int n = 0;
};

using Key = std::pair<std::string, std::string>;  // (collective, size bucket) as collective_stats

class Expectation {
 public:
  explicit Expectation(const TimelineOptions& o) : o_(o) {}
  std::optional<double> operator()(std::string_view coll, std::uint64_t size, int n) {
    if (!o_.expected_busbw) return std::nullopt;
    auto key = std::make_tuple(std::string(coll), size, n);
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, o_.expected_busbw(coll, size, n)).first;
    return it->second;
  }

 private:
  const TimelineOptions& o_;
  std::map<std::tuple<std::string, std::uint64_t, int>, std::optional<double>> cache_;
};

int most_common(const std::vector<Sample>& v) {
  std::map<int, int> count;
  for (const auto& s : v) ++count[s.n];
  return std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

}  // namespace

void add_busbw(std::vector<CollectiveStat>& stats, const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
               const StringTable& names, const TimelineOptions& o, std::vector<std::string>& notes) {
  Expectation expect(o);
  std::map<Key, std::vector<Sample>> samples;
  bool sized_by_trace_set = false;
  // transfer: the shortest op of the instance. Every rank leaves a collective at about the same
  // moment, so the rank that arrived last has the shortest op and waited for nobody: its op time
  // is the transfer (nccl-tests times a loop of ops once the ranks are in step, the same thing).
  auto add = [&](const CommOp& op, const RankTrace& r, Ns transfer, int present) {
    if (op.bytes <= 0 || transfer <= 0) return;
    std::string name = names.name(op.coll);
    auto c = mc::parse_collective(name);
    if (!c || *c == mc::Collective::SendRecv) return;  // send/recv/barrier: no nccl-tests factor here
    int n = op.group_size > 0 ? op.group_size : r.world_size > 0 ? r.world_size : present;
    if (n < 2) return;
    if (op.group_size <= 0) sized_by_trace_set = true;
    std::uint64_t size = nccl_tests_size(*c, op.bytes, n, r.comm_source);
    Sample s;
    s.transfer_us = static_cast<double>(transfer) / 1000.0;
    // bytes per ns = GB/s (nccl-tests divides by 1.0E9 and by seconds).
    s.busbw = static_cast<double>(size) / static_cast<double>(transfer) * mc::busbw_factor(*c, n);
    s.expected = expect(mc::name(*c), size, n);
    s.n = n;
    samples[{name, size_bucket(op.bytes)}].push_back(s);
  };
  for (const Instance& in : inst) {
    const CommOp* first = nullptr;
    const RankTrace* owner = nullptr;
    Ns transfer = INT64_MAX;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (in.op[r] < 0 || ranks[r].comm_source == CommSource::ray_task) continue;
      const CommOp& op = ranks[r].comm[in.op[r]];
      if (!first) first = &op, owner = &ranks[r];
      transfer = std::min(transfer, op.end - op.start);
    }
    if (first) add(*first, *owner, transfer, in.present);
  }
  bool per_op = inst.empty();
  if (per_op) {
    for (const auto& r : ranks) {
      if (r.comm_source == CommSource::ray_task) continue;
      for (const auto& op : r.comm) add(op, r, op.end - op.start, 1);
    }
  }
  bool any = false;
  for (auto& st : stats) {
    auto it = samples.find({st.name, st.size_bucket});
    if (it == samples.end() || it->second.empty()) continue;
    any = true;
    const auto& v = it->second;
    std::vector<double> t, bw, exp, ratio;
    for (const auto& s : v) {
      t.push_back(s.transfer_us);
      bw.push_back(s.busbw);
      if (s.expected && *s.expected > 0) {
        exp.push_back(*s.expected);
        ratio.push_back(100.0 * s.busbw / *s.expected);
      }
    }
    st.busbw_instances = v.size();
    st.group_size = most_common(v);
    st.transfer_us = median(t);
    st.busbw_gbps = median(bw);
    if (!exp.empty()) {
      st.expected_busbw_gbps = median(exp);
      st.pct_of_expected = median(ratio);
    }
  }
  if (any && per_op)
    notes.push_back("busbw: no collective matched across ranks, so each op's own time is used; it includes waiting for the other ranks (a lower bound)");
  if (any && sized_by_trace_set)
    notes.push_back("busbw: some collectives carry no \"Group size\"; their group is the job's world size, else the ranks that took part in the trace set");
}

std::vector<CollectiveStat> benchmark_stats(const std::vector<MeasuredSize>& rows, const TimelineOptions& o) {
  Expectation expect(o);
  std::vector<CollectiveStat> out;
  for (const auto& m : rows) {
    CollectiveStat s;
    s.source = "benchmark";
    s.file = m.file;
    s.name = m.coll;
    s.size_bucket = size_bucket(static_cast<std::int64_t>(std::min<std::uint64_t>(m.bytes, INT64_MAX)));
    s.ops = s.instances = s.busbw_instances = 1;
    s.total_us = s.mean_us = s.max_us = m.time_us;
    s.bytes_per_op = static_cast<double>(m.bytes);
    if (m.nranks > 0) s.group_size = m.nranks;
    s.transfer_us = m.time_us;
    s.busbw_gbps = m.busbw_gbps;
    s.expected_busbw_gbps = expect(m.coll, m.bytes, m.nranks);
    if (s.expected_busbw_gbps && *s.expected_busbw_gbps > 0) s.pct_of_expected = 100.0 * m.busbw_gbps / *s.expected_busbw_gbps;
    else s.expected_busbw_gbps.reset();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ncdx::analyze::timeline::detail
