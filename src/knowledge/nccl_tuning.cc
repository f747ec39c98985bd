#include "knowledge/nccl_tuning.h"

#include <array>
#include <string>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {
namespace {

std::array<double, 3> triple(const YAML::Node& n) {
  if (!n.IsSequence() || n.size() != 3) throw YAML::Exception(n.Mark(), "expected [LL, LL128, Simple] or [N1, N2, N>=3]");
  return {n[0].as<double>(), n[1].as<double>(), n[2].as<double>()};
}

NcclTuningFamily::AlgoProto algo_proto(const YAML::Node& n) {
  if (!n.IsSequence() || n.size() != 7) throw YAML::Exception(n.Mark(), "expected 7 algorithm rows");
  NcclTuningFamily::AlgoProto out{};
  for (std::size_t a = 0; a < 7; ++a) out[a] = triple(n[a]);
  return out;
}

NcclTuningFamily::ByCap by_cap(const YAML::Node& n) {
  NcclTuningFamily::ByCap out;
  if (!n) return out;
  for (const auto& row : n) out.push_back(triple(row));
  return out;
}

std::map<int, std::vector<double>> speeds(const YAML::Node& n) {
  std::map<int, std::vector<double>> out;
  for (const auto& kv : n) {
    auto key = kv.first.as<std::string>();
    out[std::stoi(key.substr(2))] = kv.second.as<std::vector<double>>();
  }
  return out;
}

// Appends a revision row whose `key` (a release code) must grow row by row, as the table says.
template <class Row>
void append_ascending(std::vector<Row>& rows, Row row, int Row::*key, const YAML::Node& at, const char* table,
                      const char* key_name) {
  if (!rows.empty() && row.*key <= rows.back().*key)
    throw YAML::Exception(at.Mark(), std::string(table) + " must be in ascending '" + key_name + "' order");
  rows.push_back(std::move(row));
}

// The per-compute-capability tables an override may replace, with their YAML keys; the same
// order as family_tables.
using ByCap = NcclTuningFamily::ByCap;
template <class Override>
auto override_tables(Override& o) {
  return std::array<std::pair<const char*, decltype(&o.ll_max_bws)>, 5>{{{"ll_max_bws", &o.ll_max_bws}, {"per_ch_max_ring_ll128", &o.per_ch_max_ring_ll128},
           {"per_ch_max_tree_ll128", &o.per_ch_max_tree_ll128}, {"per_ch_max_tree", &o.per_ch_max_tree},
           {"per_ch_max_nvls_tree", &o.per_ch_max_nvls_tree}}};
}
std::array<ByCap*, 5> family_tables(NcclTuningFamily& t) {
  return {&t.ll_max_bws, &t.per_ch_max_ring_ll128, &t.per_ch_max_tree_ll128, &t.per_ch_max_tree, &t.per_ch_max_nvls_tree};
}

}  // namespace

core::Result<std::vector<NcclTuningFamily>> parse_nccl_tuning(std::string_view yaml_text, std::string_view name) {
  try {
    YAML::Node root = YAML::Load(std::string(yaml_text));
    std::vector<NcclTuningFamily> out;
    for (const auto& f : root["families"]) {
      NcclTuningFamily t;
      t.id = f["id"].as<std::string>();
      t.source_tag = f["source_tag"].as<std::string>();
      t.base_lat = algo_proto(f["base_lat"]);
      t.hw_lat[0] = algo_proto(f["hw_lat"]["nvlink"]);
      t.hw_lat[1] = algo_proto(f["hw_lat"]["pci"]);
      t.hw_lat[2] = algo_proto(f["hw_lat"]["net"]);
      t.ll_max_bws = by_cap(f["ll_max_bws"]);
      t.per_ch_max_ring_ll128 = by_cap(f["per_ch_max_ring_ll128"]);
      t.per_ch_max_tree_ll128 = by_cap(f["per_ch_max_tree_ll128"]);
      t.per_ch_max_tree = by_cap(f["per_ch_max_tree"]);
      t.per_ch_max_nvls_tree = by_cap(f["per_ch_max_nvls_tree"]);
      if (f["nvls_efficiency"]) t.nvls_efficiency = f["nvls_efficiency"].as<std::vector<double>>();
      for (std::size_t p = 0; p < 3; ++p) t.tree_correction[p] = f["tree_correction"][p].as<std::vector<double>>();
      t.speed_intra = speeds(f["speed_intra"]);
      t.speed_inter = speeds(f["speed_inter"]);
      for (const auto& r : f["speed_revisions"]) {
        NcclTuningFamily::SpeedRevision rev;
        rev.since = r["since"].as<int>();
        if (r["intra"]) rev.intra = speeds(r["intra"]);
        if (r["inter"]) rev.inter = speeds(r["inter"]);
        append_ascending(t.speed_revisions, std::move(rev), &NcclTuningFamily::SpeedRevision::since, r, "speed_revisions", "since");
      }
      for (const auto& r : f["nvlink_revisions"]) {
        NcclTuningFamily::NvlinkRevision rev;
        rev.since = r["since"].as<int>();
        for (const auto& kv : r["by_sm"]) rev.by_sm[kv.first.as<int>()] = kv.second.as<double>();
        append_ascending(t.nvlink_revisions, std::move(rev), &NcclTuningFamily::NvlinkRevision::since, r, "nvlink_revisions", "since");
      }
      for (const auto& r : f["table_overrides"]) {
        NcclTuningFamily::TableOverride o;
        o.until = r["until"].as<int>();
        if (r["base_lat"]) o.base_lat = algo_proto(r["base_lat"]);
        if (r["hw_lat"])
          o.hw_lat = std::array<NcclTuningFamily::AlgoProto, 3>{algo_proto(r["hw_lat"]["nvlink"]), algo_proto(r["hw_lat"]["pci"]),
                                                                algo_proto(r["hw_lat"]["net"])};
        for (auto [key, table] : override_tables(o)) *table = by_cap(r[key]);
        append_ascending(t.table_overrides, std::move(o), &NcclTuningFamily::TableOverride::until, r, "table_overrides", "until");
      }
      t.max_channels = f["max_channels"].as<int>();
      t.max_work_elements = f["max_work_elements"].as<int>();
      if (t.ll_max_bws.size() < 3 || t.per_ch_max_tree.size() < 3 || t.speed_intra.empty())
        throw YAML::Exception(f.Mark(), "family " + t.id + ": incomplete tables");
      out.push_back(std::move(t));
    }
    if (out.size() != 3) return core::Status::internal(std::string(name) + ": expected 3 families");
    return out;
  } catch (const YAML::Exception& e) {
    return core::Status::internal(std::string(name) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

std::map<int, std::vector<double>> NcclTuningFamily::speeds_for(bool inter, int code) const {
  if (speed_revisions.empty()) return inter ? speed_inter : speed_intra;
  std::map<int, std::vector<double>> out;
  for (std::size_t i = 0; i < speed_revisions.size(); ++i) {
    const auto& r = speed_revisions[i];
    if (i > 0 && r.since > code) break;  // the first revision also covers older releases
    for (const auto& [sm, arr] : inter ? r.inter : r.intra) out[sm] = arr;
  }
  return out.empty() ? (inter ? speed_inter : speed_intra) : out;
}

NcclTuningFamily NcclTuningFamily::for_release(int code) const {
  NcclTuningFamily out = *this;
  for (const auto& o : table_overrides) {
    if (code >= o.until) continue;
    if (o.base_lat) out.base_lat = *o.base_lat;
    if (o.hw_lat) out.hw_lat = *o.hw_lat;
    auto from = override_tables(o);
    auto to = family_tables(out);
    for (std::size_t i = 0; i < from.size(); ++i)
      if (!from[i].second->empty()) *to[i] = *from[i].second;
    break;
  }
  return out;
}

double NcclTuningFamily::nvlink_gbps(int sm, int code) const {
  const NvlinkRevision* rev = nullptr;
  for (const auto& r : nvlink_revisions)
    if (!rev || r.since <= code) rev = &r;  // the first revision also covers older releases
  if (!rev) return 0;
  if (auto it = rev->by_sm.find(sm); it != rev->by_sm.end()) return it->second;
  double best = 0;
  for (const auto& [k, v] : rev->by_sm)
    if (k <= sm && k % 10 == 0) best = v;
  return best;
}

core::Result<const std::vector<NcclTuningFamily>*> nccl_tuning() {
  static const auto loaded = parse_embedded<std::vector<NcclTuningFamily>>("nccl_tuning.yaml", parse_nccl_tuning);
  if (!loaded.ok()) return loaded.status();
  return &loaded.value();
}

}  // namespace ncdx::knowledge
