// Matching collectives across ranks and estimating clock offsets (parts.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <unordered_map>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline::detail {

namespace {

// A point-to-point transfer's key: (process group, source, destination) and the ordinal of the
// transfer on that directed pair.
struct P2pKey {
  std::uint64_t pair = 0, ordinal = 0;
  bool operator==(const P2pKey&) const = default;
};
struct P2pHash {
  std::size_t operator()(const P2pKey& k) const { return std::hash<std::uint64_t>()(k.pair * 0x9E3779B97F4A7C15ull ^ k.ordinal); }
};

}  // namespace

std::vector<Instance> match_instances(const std::vector<RankTrace>& ranks, std::optional<std::uint32_t> send_coll) {
  std::vector<Instance> out;
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // key → instance
  std::unordered_map<P2pKey, std::uint32_t, P2pHash> p2p_index;
  const int n = static_cast<int>(ranks.size());
  auto instance = [&](std::uint32_t coll, auto& idx, const auto& key, bool p2p) -> Instance& {
    auto [it, fresh] = idx.emplace(key, static_cast<std::uint32_t>(out.size()));
    if (fresh) {
      Instance in;
      in.coll = coll;
      in.p2p = p2p;
      in.op.assign(n, -1);
      out.push_back(std::move(in));
    }
    return out[it->second];
  };
  for (int r = 0; r < n; ++r) {
    std::unordered_map<std::uint64_t, std::uint32_t> count;      // (pg, coll) → ops seen
    std::unordered_map<std::uint64_t, std::uint64_t> pair_count;  // (pg, src, dst) → transfers seen
    const auto& ops = ranks[r].comm;
    const int me = ranks[r].rank;
    for (int i = 0; i < static_cast<int>(ops.size()); ++i) {
      const CommOp& op = ops[i];
      Instance* in = nullptr;
      if (op.peer >= 0 && me >= 0 && op.peer != me) {
        // The pair's own order, not the process group's sequence number: a rank's p2p ops with
        // different peers interleave differently on each rank.
        const bool send = send_coll && op.coll == *send_coll;
        const std::uint64_t src = static_cast<std::uint32_t>(send ? me : op.peer);
        const std::uint64_t dst = static_cast<std::uint32_t>(send ? op.peer : me);
        const std::uint64_t pair = (static_cast<std::uint64_t>(op.pg & 0xFFFF) << 48) ^ ((src & 0xFFFFFF) << 24) ^
                                   (dst & 0xFFFFFF);
        in = &instance(op.coll, p2p_index, P2pKey{pair, pair_count[pair]++}, true);
      } else {
        std::uint64_t group = (static_cast<std::uint64_t>(op.pg) << 32) | op.coll;
        std::uint64_t ordinal = count[group]++;
        std::uint64_t key = (static_cast<std::uint64_t>(op.pg & 0xFFFF) << 48) ^
                            (static_cast<std::uint64_t>(op.coll & 0xFFFF) << 32) ^ (ordinal & 0xFFFFFFFF);
        if (op.seq >= 0) key = (std::uint64_t{1} << 63) ^ (static_cast<std::uint64_t>(op.pg & 0xFFFF) << 40) ^
                               static_cast<std::uint64_t>(op.seq & 0xFFFFFFFFFF);
        in = &instance(op.coll, index, key, false);
      }
      if (in->op[r] < 0) {
        in->op[r] = i;
        ++in->present;
      }
    }
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const Instance& x) { return x.present < 2; }), out.end());
  return out;
}

std::vector<Ns> clock_offsets(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst) {
  const std::size_t n = ranks.size();
  std::vector<Ns> off(n, 0);
  if (n < 2 || inst.empty()) return off;
  for (const auto& r : ranks)
    if (r.comm_source == CommSource::ray_task) return off;  // task ends differ by design
  std::vector<std::vector<double>> d(n);
  std::size_t stride = std::max<std::size_t>(1, inst.size() / 2000);
  std::vector<double> ends;
  for (std::size_t k = 0; k < inst.size(); k += stride) {
    const Instance& in = inst[k];
    if (in.p2p) continue;
    ends.clear();
    for (std::size_t r = 0; r < n; ++r)
      if (in.op[r] >= 0) ends.push_back(static_cast<double>(ranks[r].comm[in.op[r]].end));
    double med = median(ends);
    for (std::size_t r = 0; r < n; ++r)
      if (in.op[r] >= 0) d[r].push_back(static_cast<double>(ranks[r].comm[in.op[r]].end) - med);
  }
  Ns worst = 0;
  for (std::size_t r = 0; r < n; ++r) {
    off[r] = d[r].empty() ? 0 : std::llround(median(d[r]));
    worst = std::max<Ns>(worst, std::llabs(off[r]));
  }
  if (worst <= 1000000) std::fill(off.begin(), off.end(), 0);
  return off;
}

}  // namespace ncdx::analyze::timeline::detail
