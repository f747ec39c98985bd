#pragma once
// GPU models and interconnect rates from data/gpu_models.yaml (the expected-value model's
// inputs; see the file header for units and sources).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::knowledge {

struct GpuModel {
  std::string id;
  std::vector<std::string> match;            // case-insensitive substrings of the GPU name
  std::vector<std::string> pci_device_ids;   // "0x20b0"
  std::optional<int> sm;
  std::optional<int> nvlink_generation;
  std::optional<int> nvlink_links;           // links per GPU
  std::optional<double> nvlink_gbps_per_link;  // GB/s per direction per link
  std::optional<double> memory_gbps;
  std::optional<double> pcie_gts;
  std::optional<int> pcie_width;
  std::string source;
};

struct GpuModelTable {
  std::vector<GpuModel> models;
  std::map<double, double> pcie_lane_gbps;   // GT/s -> GB/s per lane per direction
  double pcie_efficiency = 0;
  std::map<int, double> nccl_nvlink_gbps_by_sm;   // NCCL's usable per-link NVLink rate
  std::map<double, double> nccl_pcie_by_gts;      // NCCL's kvDictPciGen factor (x width / 80 = GB/s)

  // NCCL's per-link rate for a compute capability: the entry for the largest sm <= the given one.
  std::optional<double> nccl_nvlink_gbps(int sm) const;

  const GpuModel* by_name(std::string_view gpu_name) const;
  const GpuModel* by_pci_device_id(std::string_view id) const;
  const GpuModel* by_id(std::string_view id) const;
};

// The embedded table (parsed once); an error means the shipped YAML is broken (internal, 70).
core::Result<const GpuModelTable*> gpu_models();
// Parses a table from YAML text (tests, and the loader above).
core::Result<GpuModelTable> parse_gpu_models(std::string_view yaml_text, std::string_view name);

}  // namespace ncdx::knowledge
