#include "analyze/judge/calibrate.h"

#include <algorithm>

namespace ncdx::analyze::judge {
namespace mc = model::cost;
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

core::Result<Calibration> calibrate(const std::vector<NcclTestsRun>& runs, const mc::ClusterSpec& spec,
                                    const mc::NcclVersion& version) {
  auto base = mc::Model::build(spec, version);
  if (!base.ok()) return base.status();
  std::vector<double> bw;
  for (const auto& run : runs) {
    if (!run.coll) continue;
    for (const auto& r : run.rows) {
      auto meas = r.oop.busbw_gbps ? r.oop.busbw_gbps : r.ip.busbw_gbps;
      auto p = base->predict(*run.coll, r.size);
      if (!meas || *meas <= 0 || !p.available || p.busbw_gbps <= 0) continue;
      double lat = base->latency(*run.coll, p.algo, p.proto);
      if (lat <= 0.25 * p.time_us) bw.push_back(*meas / p.busbw_gbps);
    }
  }
  if (bw.empty()) return core::Status::bad_input("calibration: no bandwidth-bound size with a measured busbw (need sizes of a few MB and up)");
  Calibration c;
  c.bw_scale = median(bw);
  c.bw_points = static_cast<int>(bw.size());
  mc::Options o;
  o.bw_scale = c.bw_scale;
  auto scaled = mc::Model::build(spec, version, o);
  if (!scaled.ok()) return scaled.status();
  std::vector<double> lat;
  for (const auto& run : runs) {
    if (!run.coll) continue;
    for (const auto& r : run.rows) {
      auto t = r.oop.time_us ? r.oop.time_us : r.ip.time_us;
      auto p = scaled->predict(*run.coll, r.size);
      if (!t || *t <= 0 || !p.available || p.time_us <= 0) continue;
      double l = scaled->latency(*run.coll, p.algo, p.proto);
      if (l >= 0.75 * p.time_us) lat.push_back(*t / p.time_us);
    }
  }
  if (!lat.empty()) { c.lat_scale = median(lat); c.lat_points = static_cast<int>(lat.size()); }
  c.link_class = spec.nodes > 1 ? "inter-node" : "intra-node";
  return c;
}

}  // namespace ncdx::analyze::judge
