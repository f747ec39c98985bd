#pragma once
// The `--spec` grammar (docs/MODEL.md "Cluster spec"):
//
//   spec   := item ("," item)*
//   item   := key "=" value
//   nodes=N            nodes (>= 1)                       default 1
//   gpus=N             GPUs (ranks) per node (>= 1)       default 8
//   gpu=NAME           GPU model (H100, H200, B200, A100, V100, A40, L40S, ...): sets sm and NVLink
//   sm=NN              compute capability x10 (90)        overrides gpu
//   nvlink=NV<k>|none  NVLinks per GPU (NV18)             default from gpu
//   nvswitch=yes|no    NVLinks go to an NVSwitch          default: yes when NV>=12 and gpus>2
//   pcie=gen<g>x<w>|<GB/s>   GPU PCIe link (gen5x16)      default from gpu
//   p2p=yes|no         PCIe peer access between GPUs      default yes
//   nic=<k>x<rate>G[-<kind>]  NICs per node, Gb/s per port, kind IB|RoCE|EFA|TCP (8x400G-IB)
//   gdr=yes|no         GPUDirect RDMA                     default yes (no for TCP)
//   cpu=intel|amd|arm  host CPU vendor                    default intel
//   collnet=yes|no     SHARP/CollNet plugin enabled       default no
//   nvls=yes|no        NVLink SHARP                       default: sm>=90 with NVSwitch
// Errors name the item and what was expected (usage, exit 64).
#include <string_view>

#include "core/result.h"
#include "model/cost/cluster_spec.h"

namespace ncdx::model::cost {

core::Result<ClusterSpec> parse_spec(std::string_view text);
std::string describe(const ClusterSpec& spec);  // canonical one-line form, parseable by parse_spec

}  // namespace ncdx::model::cost
