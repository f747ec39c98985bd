// Top collectives by total time, per collective and message-size bucket (parts.h).
#include <algorithm>
#include <map>

#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline::detail {

const char* size_bucket(std::int64_t b) {
  if (b < 0) return "unknown";
  if (b < 1024) return "<1KiB";
  if (b < 64 * 1024) return "1KiB-64KiB";
  if (b < 1024 * 1024) return "64KiB-1MiB";
  if (b < 16 * 1024 * 1024) return "1MiB-16MiB";
  if (b < 256ll * 1024 * 1024) return "16MiB-256MiB";
  return ">=256MiB";
}

std::vector<CollectiveStat> collective_stats(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
                                             const StringTable& names) {
  std::map<std::pair<std::string, std::string>, CollectiveStat> acc;
  std::map<std::pair<std::string, std::string>, std::pair<double, std::uint64_t>> sized;
  for (const auto& r : ranks) {
    if (r.comm_source == CommSource::ray_task) continue;
    for (const auto& op : r.comm) {
      std::string n = names.name(op.coll).empty() ? "unknown" : names.name(op.coll);
      auto key = std::make_pair(n, std::string(size_bucket(op.bytes)));
      CollectiveStat& s = acc[key];
      s.name = key.first;
      s.size_bucket = key.second;
      ++s.ops;
      double us = static_cast<double>(op.end - op.start) / 1000.0;
      s.total_us += us;
      s.max_us = std::max(s.max_us, us);
      if (op.bytes >= 0) {
        auto& z = sized[key];
        z.first += static_cast<double>(op.bytes);
        ++z.second;
      }
    }
  }
  for (const Instance& in : inst) {
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (in.op[r] < 0 || ranks[r].comm_source == CommSource::ray_task) continue;
      const CommOp& op = ranks[r].comm[in.op[r]];
      std::string n = names.name(op.coll).empty() ? "unknown" : names.name(op.coll);
      auto it = acc.find({n, size_bucket(op.bytes)});
      if (it != acc.end()) ++it->second.instances;
      break;
    }
  }
  std::vector<CollectiveStat> out;
  for (auto& [k, s] : acc) {
    s.mean_us = s.ops ? s.total_us / static_cast<double>(s.ops) : 0;
    auto z = sized.find(k);
    if (z != sized.end() && z->second.second) s.bytes_per_op = z->second.first / static_cast<double>(z->second.second);
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const CollectiveStat& a, const CollectiveStat& b) {
    if (a.total_us != b.total_us) return a.total_us > b.total_us;
    return a.name < b.name;
  });
  if (out.size() > 20) out.resize(20);
  return out;
}

}  // namespace ncdx::analyze::timeline::detail
