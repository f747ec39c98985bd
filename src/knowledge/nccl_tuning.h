#pragma once
// NCCL's tuning-model constants per model generation, from data/nccl_tuning.yaml (each table
// labelled there with the NCCL tag and file:line it was read from).
#include <array>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace ncdx::knowledge {

struct NcclTuningFamily {
  std::string id;          // "2.14-2.18", "2.19-2.27", "2.28+"
  std::string source_tag;  // "v2.18.6-1"
  using AlgoProto = std::array<std::array<double, 3>, 7>;   // [algo][proto]
  using ByCap = std::vector<std::array<double, 3>>;         // [compCapIdx][nodes index]
  AlgoProto base_lat{};
  std::array<AlgoProto, 3> hw_lat{};                        // [NVLINK, PCI, NET]
  ByCap ll_max_bws, per_ch_max_ring_ll128, per_ch_max_tree_ll128, per_ch_max_tree, per_ch_max_nvls_tree;
  std::vector<double> nvls_efficiency;                      // empty before 2.28
  std::array<std::vector<double>, 3> tree_correction;       // [proto][log2(bytes/64)]
  std::map<int, std::vector<double>> speed_intra, speed_inter;  // by minimum sm (0, 90, 100)
  // The search's speed arrays changed inside families (e.g. sm100 inter gained 96 GB/s in
  // 2.27.6, so a 2.26 B200 tree cannot raise bwIntra past 48). Each revision replaces the
  // arrays it names from NCCL_VERSION_CODE `since` on; releases before the first revision use
  // the first one. Empty: speed_intra/speed_inter for every release of the family.
  struct SpeedRevision {
    int since = 0;
    std::map<int, std::vector<double>> intra, inter;
  };
  std::vector<SpeedRevision> speed_revisions;   // ascending `since`
  // The arrays (by minimum sm) the search of release `code` uses, intra-node or with a NET.
  std::map<int, std::vector<double>> speeds_for(bool inter, int code) const;
  int max_channels = 32;
  int max_work_elements = 1;
};

// The three families in order (2.14-2.18, 2.19-2.27, 2.28+). A broken shipped file is internal (70).
core::Result<const std::vector<NcclTuningFamily>*> nccl_tuning();
core::Result<std::vector<NcclTuningFamily>> parse_nccl_tuning(std::string_view yaml_text, std::string_view name);

}  // namespace ncdx::knowledge
