#include "knowledge/gpu_models.h"

#include <yaml-cpp/yaml.h>

#include <cctype>

#include "core/strings.h"
#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {

namespace {

template <class T>
std::optional<T> opt(const YAML::Node& n, const char* key) {
  if (!n || !n[key]) return std::nullopt;
  return n[key].as<T>();
}

}  // namespace

// Whole-word match: the hit must not continue an alphanumeric run on either side.
static bool word_match(const std::string& hay, const std::string& needle) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) {
    bool left = pos == 0 || !alnum(hay[pos - 1]);
    bool right = pos + needle.size() == hay.size() || !alnum(hay[pos + needle.size()]);
    if (left && right) return true;
  }
  return false;
}

const GpuModel* GpuModelTable::by_name(std::string_view gpu_name) const {
  auto name = core::to_lower(gpu_name);
  for (const auto& m : models)
    for (const auto& s : m.match)
      if (word_match(name, core::to_lower(s))) return &m;
  return nullptr;
}

std::optional<double> GpuModelTable::nccl_nvlink_gbps(int sm) const {
  // sm86 (12 GB/s) must not apply to sm89/sm90: take the exact entry, else the nearest below
  // within the same major version, else the nearest below overall.
  if (auto it = nccl_nvlink_gbps_by_sm.find(sm); it != nccl_nvlink_gbps_by_sm.end()) return it->second;
  std::optional<double> best;
  for (const auto& [k, v] : nccl_nvlink_gbps_by_sm)
    if (k <= sm && k / 10 == sm / 10 && k % 10 == 0) best = v;
  if (best) return best;
  for (const auto& [k, v] : nccl_nvlink_gbps_by_sm)
    if (k <= sm && k % 10 == 0) best = v;
  return best;
}

const GpuModel* GpuModelTable::by_pci_device_id(std::string_view id) const {
  for (const auto& m : models)
    for (const auto& d : m.pci_device_ids)
      if (core::iequals(d, id)) return &m;
  return nullptr;
}

const GpuModel* GpuModelTable::by_id(std::string_view id) const {
  for (const auto& m : models)
    if (m.id == id) return &m;
  return nullptr;
}

core::Result<GpuModelTable> parse_gpu_models(std::string_view text, std::string_view name) {
  GpuModelTable t;
  try {
    YAML::Node root = YAML::Load(std::string(text));
    for (const auto& kv : root["pcie"]["lane_gbps"])
      t.pcie_lane_gbps[kv.first.as<double>()] = kv.second.as<double>();
    t.pcie_efficiency = root["pcie"]["efficiency"].as<double>();
    for (const auto& kv : root["nccl_nvlink_gbps_by_sm"])
      t.nccl_nvlink_gbps_by_sm[kv.first.as<int>()] = kv.second.as<double>();
    for (const auto& kv : root["nccl_pcie_gbps_by_gts"]) t.nccl_pcie_by_gts[kv.first.as<double>()] = kv.second.as<double>();
    for (const auto& n : root["models"]) {
      GpuModel m;
      m.id = n["id"].as<std::string>();
      for (const auto& s : n["match"]) m.match.push_back(s.as<std::string>());
      if (n["pci_device_ids"])
        for (const auto& s : n["pci_device_ids"]) m.pci_device_ids.push_back(s.as<std::string>());
      m.sm = opt<int>(n, "sm");
      if (n["nvlink"]) {
        m.nvlink_generation = opt<int>(n["nvlink"], "generation");
        m.nvlink_links = opt<int>(n["nvlink"], "links");
        m.nvlink_gbps_per_link = opt<double>(n["nvlink"], "gbps_per_link");
      }
      m.memory_gbps = opt<double>(n, "memory_gbps");
      if (n["pcie"]) {
        m.pcie_gts = opt<double>(n["pcie"], "gts");
        m.pcie_width = opt<int>(n["pcie"], "width");
      }
      m.source = n["source"].as<std::string>();
      if (m.match.empty() || m.source.empty())
        return core::Status::internal(std::string(name) + ": model " + m.id + " needs match and source");
      t.models.push_back(std::move(m));
    }
  } catch (const YAML::Exception& e) {
    return core::Status::internal(std::string(name) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (t.models.empty() || t.pcie_lane_gbps.empty() || t.pcie_efficiency <= 0 || t.pcie_efficiency > 1)
    return core::Status::internal(std::string(name) + ": incomplete GPU model table");
  return t;
}

core::Result<const GpuModelTable*> gpu_models() {
  static const auto table = parse_embedded<GpuModelTable>("gpu_models.yaml", parse_gpu_models);
  if (!table.ok()) return table.status();
  return &table.value();
}

}  // namespace ncdx::knowledge
