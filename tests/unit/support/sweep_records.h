#pragma once
// The accuracy sweep's trial records (bench/results/cluster_sweep_*.jsonl, bench/cluster_sweep.py)
// for the isolation tests that re-judge real evidence: each trial that kept `pairs` ([a, b, status,
// min Gb/s, median µs, p99 µs, stalls, retransmits, segments, min µs (since 2026-12-07)], compact_pairs) rebuilt into a matrix.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "measure/network/net_matrix.h"
#include "support/test_paths.h"

namespace ncdx::testing {

inline measure::NetMatrix matrix_from_pairs(int n, const nlohmann::json& pairs) {
  measure::NetMatrix m;
  for (int i = 0; i < n; ++i) m.hosts.push_back("h" + std::to_string(i + 1) + ".c");
  m.cell.assign(n, std::vector<measure::NetCell>(n));
  for (int i = 0; i < n; ++i) m.cell[i][i].status = "self";
  for (const auto& p : pairs) {
    int a = p[0], b = p[1];
    auto &ab = m.cell[a][b], &ba = m.cell[b][a];
    ab.status = ba.status = p[2].get<std::string>();
    auto opt = [](const nlohmann::json& v) { return v.is_null() ? std::optional<double>{} : v.get<double>(); };
    ab.gbps = ba.gbps = opt(p[3]);  // the record keeps the slower direction
    ab.lat_median_us = opt(p[4]);
    ab.lat_p99_us = opt(p[5]);
    if (p.size() > 9) ab.lat_min_us = opt(p[9]);  // [9] since 2026-12-07
    ab.stalls = p[6].is_null() ? 0 : p[6].get<int>();
    if (!p[7].is_null() && !p[8].is_null()) {  // sums of both sockets: all retransmits on one side
      ab.retrans = p[7].get<std::uint32_t>();
      ba.retrans = 0;
      ab.segs_out = p[8].get<std::uint32_t>() / 2;
      ba.segs_out = p[8].get<std::uint32_t>() - *ab.segs_out;
    }
  }
  return m;
}

// Calls `f(file name, record)` for every recorded trial with pairs.
inline void for_each_sweep_record(const std::function<void(const std::string&, const nlohmann::json&)>& f) {
  const auto dir = std::filesystem::path(NCDX_SOURCE_DIR) / "bench" / "results";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    if (name.rfind("cluster_sweep_", 0) != 0 || e.path().extension() != ".jsonl") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto r = nlohmann::json::parse(line);
      if (r.contains("pairs") && !r["pairs"].empty()) f(name, r);
    }
  }
}

}  // namespace ncdx::testing
