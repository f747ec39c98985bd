#pragma once
// NCCL's tuning-model constants per model generation, from data/nccl_tuning.yaml (each table
// labelled there with the NCCL tag and file:line it was read from).
#include <array>
#include <map>
#include <optional>
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
  // NCCL's per-link NVLink bandwidth (src/graph/topo.h SM*_NVLINK_BW, ncclTopoNVLinkBw) per
  // release: 22 GB/s for sm70/sm80 (and Hopper, which fell in the sm80 branch) before 2.18.1,
  // then 20; SM90 20.6 from 2.20.3; SM100 40.0 from 2.25.1, 40.1 from 2.27.5.
  struct NvlinkRevision {
    int since = 0;
    std::map<int, double> by_sm;   // compute capability x10 -> GB/s per link
  };
  std::vector<NvlinkRevision> nvlink_revisions;  // ascending `since`
  // The rate for `sm` in release `code`: the exact sm, else the nearest x0 below it (sm86 is
  // its own class in NCCL); 0 when the family carries no revision.
  double nvlink_gbps(int sm, int code) const;
  int max_channels = 32;
  int max_work_elements = 1;
  // Tables of older releases inside the family (tuning.cc per tag), e.g. 2.19-2.22's Tree Simple
  // latency 28 us, 2.19-2.20's Hopper llMaxBws, 2.28-2.29's Blackwell caps: the first override
  // whose `until` is above the release replaces the tables it carries.
  struct TableOverride {
    int until = 0;                              // NCCL_VERSION_CODE this override stops at
    std::optional<AlgoProto> base_lat;
    std::optional<std::array<AlgoProto, 3>> hw_lat;
    ByCap ll_max_bws;                           // empty: unchanged
    ByCap per_ch_max_ring_ll128, per_ch_max_tree_ll128, per_ch_max_tree, per_ch_max_nvls_tree;  // empty: unchanged
  };
  std::vector<TableOverride> table_overrides;   // ascending `until`
  // This family's tables as release `code` has them.
  NcclTuningFamily for_release(int code) const;
};

// The three families in order (2.14-2.18, 2.19-2.27, 2.28+). A broken shipped file is internal (70).
core::Result<const std::vector<NcclTuningFamily>*> nccl_tuning();
core::Result<std::vector<NcclTuningFamily>> parse_nccl_tuning(std::string_view yaml_text, std::string_view name);

}  // namespace ncdx::knowledge
